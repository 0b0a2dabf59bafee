"""Faults at the table: each gives a clear message and the game carries on in whatever mode still works."""

from __future__ import annotations

import sqlite3

import numpy as np
import pygame

from companion.app import Companion
from companion.board.emulators import APA102Chip
from companion.board.layout import load_layout
from companion.cards import Card
from companion.config import load_config
from companion.display.input import Action, ScreenCommand
from companion.rules.events import Deal, NewGame, Play, Starter
from companion.rules.variants import Options
from companion.store import EventStore
from companion.vision.sources import FrameSource, SourceGone

C = Card.parse
NEW = NewGame("six-card", ("Ann", "Bob"), Options(), 0)


def companion(tmp_path, text: str = "", **kw) -> Companion:
    config = load_config(text=text)
    kw.setdefault("headless", True)
    kw.setdefault("source", None)
    return Companion.create(config, db_path=tmp_path / "games.db", **kw)


def in_play(tmp_path) -> None:
    """A game in the play, stored: Bob has led the ten of hearts; Ann to play."""
    with EventStore(tmp_path / "games.db") as store:
        store.start(NEW).apply_all([Deal(), Starter(C("2D")), Play(1, C("TH"))])


class UnpluggedCamera(FrameSource):
    """A camera whose driver delivers a few frames, then fails as a USB camera does when its cable is pulled
    (the retry, back-off and status are the real FrameSource machinery)."""

    def __init__(self, frames: int) -> None:
        self.now = 0.0  # a simulated clock: the test moves time on, nothing sleeps
        super().__init__(retry_min=0.5, retry_max=2.0, clock=lambda: self.now)
        self.left = frames

    def _open(self) -> None:
        if self.left <= 0:
            raise OSError("no such device: /dev/video0")

    def _grab(self):
        if self.left <= 0:
            raise SourceGone("the camera stopped answering")
        self.left -= 1
        return np.zeros((72, 128, 3), np.uint8)


def test_the_camera_unplugged_mid_game_is_a_message_and_the_buttons_still_work(tmp_path):
    in_play(tmp_path)
    app = companion(tmp_path, source=UnpluggedCamera(frames=2), recognize=lambda frame: [])
    assert app.step() and "camera" not in app.messages
    for _ in range(6):
        app.step()
    assert "camera" in app.messages and "lost" in app.messages["camera"].text.lower()
    assert app.source.status.startswith("camera lost")
    app.handle_command(ScreenCommand(Action.UNDO))  # the game goes on with the buttons
    assert app.game.state.count == 0
    app.source.left = 5  # plugged back in
    app.step()
    assert "camera" in app.messages, "no retry before the back-off has passed"
    app.source.now += 2.0  # the retry finds it and the message goes
    app.step()
    assert "camera" not in app.messages
    app.close()


def test_a_webcam_that_does_not_exist_is_a_status_not_a_crash(tmp_path):
    app = companion(tmp_path, '[camera]\nsource = "webcam:97"\n')
    for _ in range(3):
        assert app.step()
    assert "camera" in app.messages
    app.close()


def test_the_led_chain_failing_mid_game_leaves_the_screen_and_the_game(tmp_path, mock_factory):
    mock_factory.keep(APA102Chip(load_layout("two-player-121").leds))
    in_play(tmp_path)
    app = companion(tmp_path, '[board]\ndriver = "apa102"\nanimate = false\n', pin_factory=mock_factory,
                    use_controls=False)
    assert app.board is not None and "board" not in app.messages

    def broken(*args, **kwargs):
        raise OSError(5, "Input/output error")  # e.g. the SPI transfer fails

    app.board.show_view = broken
    app.handle_command(ScreenCommand(Action.UNDO))
    assert app.board is None and "LED board unavailable" in app.messages["board"].text
    app.handle_command(ScreenCommand(Action.REDO))  # the game carries on without the board
    assert app.game.state.count == 10
    assert "LED board unavailable" in " ".join(m.text for m in app.current_messages())
    app.close()


def test_no_spi_falls_back_to_the_virtual_board_with_the_fix_named(tmp_path, monkeypatch):
    monkeypatch.setattr("companion.board.pegboard.spi_problem",
                        lambda *a, **k: "SPI is not enabled: run sudo raspi-config, Interface Options, SPI")
    app = companion(tmp_path, '[board]\ndriver = "apa102"\n', use_controls=False)
    assert app.board is not None and app.board.virtual
    assert "raspi-config" in app.messages["board"].text
    app.close()


def test_the_display_missing_leaves_the_board_and_the_game(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-driver")
    pygame.display.quit()  # as in a fresh process: SDL reads the driver when its display starts, and an earlier test
    # in this worker may have left it started on the dummy driver (then no display would be missing)
    in_play(tmp_path)
    app = companion(tmp_path, headless=False)
    assert app.display is None and "Display unavailable" in app.messages["display"].text
    assert app.step()
    app.handle_command(ScreenCommand(Action.UNDO))
    assert app.game.state.count == 0
    app.close()


def test_a_full_disk_refuses_the_event_keeps_the_game_and_says_so(tmp_path, monkeypatch):
    in_play(tmp_path)
    app = companion(tmp_path)
    state = app.game.state
    real_insert = EventStore._insert

    def disk_full(self, *args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")  # what SQLite says when the SD card is full

    monkeypatch.setattr(EventStore, "_insert", disk_full)
    app.handle_command(ScreenCommand(Action.UNDO))
    assert app.game.state == state  # nothing is shown that is not on disk
    assert "Cannot save the game" in app.messages["store"].text
    monkeypatch.setattr(EventStore, "_insert", real_insert)  # space again: the game carries on
    app.handle_command(ScreenCommand(Action.UNDO))
    assert app.game.state.count == 0
    app.close()
    with EventStore(tmp_path / "games.db") as store:  # and the disk holds exactly what was shown
        assert store.resume().state == app.game.state


def test_a_corrupt_database_is_set_aside_and_a_new_game_starts(tmp_path):
    (tmp_path / "games.db").write_bytes(b"\x00garbage" * 500)
    app = companion(tmp_path)
    assert app.game.state.phase in ("cut", "deal")
    assert "damaged" in app.messages["store"].text
    assert any(".corrupt-" in p.name for p in tmp_path.iterdir())
    app.close()
