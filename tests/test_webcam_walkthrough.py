"""The README's webcam walk-through, step by step, on the simulated table: a replay of the rendered table video
stands in for the USB webcam, and the real card reader reads it, as it would read the webcam's picture."""

from __future__ import annotations

import pygame
import pytest

from companion.app import Companion
from companion.cli import main
from companion.config import load_config
from companion.demo import DemoGame, demo_table
from companion.display.desktop import DesktopDisplay
from companion.display.input import Action, ScreenCommand, command_for_event
from companion.rules.events import Deal
from companion.rules.game import replay
from companion.vision.sources import open_source

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def first_hand(tmp_path_factory):
    """The demo game's first hand (the cut, the deal, the play and the show) as a folder of camera frames."""
    events = DemoGame.build().events
    end = [i for i, e in enumerate(events) if isinstance(e, Deal)][1]  # up to the second hand's deal
    hand = DemoGame(events[:end], replay(events[:end]), seed=1)
    folder = tmp_path_factory.mktemp("webcam")
    demo_table(hand).save(folder, video=False)
    return hand, folder / "frames"


def press(app, *actions):
    for a in actions:
        app.handle_command(ScreenCommand(a))


def type_text(app, text: str) -> None:
    for ch in text:
        key = pygame.K_RETURN if ch == "\r" else ord(ch.lower())
        app.handle_command(command_for_event(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=ch)))


def test_the_webcam_walkthrough_on_the_simulated_table(first_hand, tmp_path, capsys, monkeypatch):
    hand, frames = first_hand
    # 1. Print the mat.
    assert main(["mat", "--seats", "2", "--paper", "a4", "-o", str(tmp_path / "mat.pdf")]) == 0
    assert (tmp_path / "mat.pdf").stat().st_size > 1000
    # 3. Check what the camera sees (one second of it).
    assert main(["watch", "--source", f"replay:{frames}", "--seconds", "1"]) == 0
    # 4. Start the companion with the webcam (here its stand-in) on a laptop: the desktop window, the new-game screen.
    monkeypatch.setenv("COMPANION_WINDOW", "desktop")
    config = load_config(text='[camera]\nsource = "webcam:0"\n[board]\ndriver = "virtual"\n')
    webcam = open_source(f"replay:{frames}", realtime=False)
    app = Companion.create(config, db_path=tmp_path / "games.db", source=webcam, use_controls=False)
    try:
        assert isinstance(app.display, DesktopDisplay) and app.board.virtual
        assert app.controller.screen == "new-game"
        for _ in range(2):
            press(app, Action.NEXT)
        type_text(app, "Ann\r")
        press(app, Action.NEXT)
        type_text(app, "Bob\r")
        keys = [item.key for item in app.view().items]
        assert app.view().items[keys.index("dealer")].value == "cut for it"
        while keys[app.controller.selected] != "start":
            press(app, Action.NEXT)
        press(app, Action.OK)
        app.step()
        assert app.game.state.players == ("Ann", "Bob") and app.controller.screen == ""
        # 5. Play: the cut, the starter, the play and the show, read from the camera's picture.
        named = set()  # every card the camera view outlined and named on the way
        while not webcam.finished:
            app.step()
            named |= {t.text.split()[0] for t in app.display.camera_drawn.find("seen")} if app.display.camera_drawn \
                else set()
        truth = hand.final
        assert [s.front for s in app.game.state.sides] == [s.front for s in truth.sides]
        assert app.game.state.hand == truth.hand and app.game.state.phase == truth.phase
        played = {str(e.card) for e in hand.events if type(e).__name__ == "Play"}
        assert played <= named
        assert {"camera", "board", "status"} == set(app.display.panes)
    finally:
        app.close()
