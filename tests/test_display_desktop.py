"""The desktop window: the camera view with every card outlined and named, the virtual LED board and the status
screen side by side; keys hide and show each; it is laid out for any window size; the Pi keeps the status screen."""

from __future__ import annotations

import pygame
import pytest

from companion.app import Companion
from companion.config import load_config
from companion.demo import DemoGame
from companion.display.desktop import (DesktopDisplay, app_feed, camera_view, layout_panes, open_window,
                                       wants_desktop)
from companion.display.samples import sample_views
from companion.display.view import MenuItem, MenuView
from companion.display.window import Display
from companion.vision.detection import UNKNOWN, Detection


@pytest.fixture(scope="module")
def demo_app():
    """The demo game watched up to the play of its second hand (the simulator's scripted reader: fast)."""
    config = load_config(text='[board]\ndriver = "virtual"\nanimate = false\n')
    app = Companion.create(config, headless=True, demo=DemoGame.build(), db_path=":memory:", new_game=True,
                           recognize="scripted")
    while (frame := app.source.read()) is not None:
        app.process_frame(frame, app.source.time)
        s = app.game.state
        if s.phase == "play" and len(s.series) >= 3 and s.hand >= 2:
            break
    yield app
    app.close()


def test_camera_board_and_status_side_by_side(demo_app):
    with DesktopDisplay((1280, 800), feed=lambda: app_feed(demo_app)) as window:
        assert window.render(demo_app.view()) and not window.render(demo_app.view())  # unchanged: not redrawn
        assert set(window.panes) == {"camera", "board", "status"}
        seen = [t.text for t in window.camera_drawn.find("seen")]
        laid = {str(c) for _, c in demo_app.game.state.series}
        assert laid <= {text.split()[0] for text in seen}  # every card in the play is outlined and named
        zones = [t.text for t in window.camera_drawn.find("zone")]
        assert "Ann's row" in zones and "Bob's row" in zones  # the mat's zones by the players' names
        assert window.drawn.screen == "play" and window.drawn.size == tuple(window.panes["status"].size)
        shot = window.surface
        board = window.panes["board"]
        lit = {shot.get_at((x, y))[:3] for x in range(board.x, board.right, 3)
               for y in range(board.y, board.bottom, 3)}
        assert any(r > 200 and g < 120 for r, g, _ in lit)  # a lit red peg (Ann's side) on the board


def test_an_unknown_card_is_marked_as_such():
    import numpy as np

    frame = np.zeros((90, 160, 3), np.uint8)
    found = [Detection("5H", 0.97, ((10, 10), (40, 10), (40, 50), (10, 50))),
             Detection(UNKNOWN, 0.2, ((80, 10), (110, 10), (110, 50), (80, 50)))]
    with DesktopDisplay((1280, 800), feed=lambda: (camera_view(frame, found), None)) as window:
        window.render(sample_views()["scoreboard"])
        assert sorted(t.text for t in window.camera_drawn.find("seen")) == ["5H 97%", "unknown"]


def _key(window, key):
    return window.handle_event(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0))


def test_keys_hide_and_show_each_part_and_the_status_gets_the_room():
    with DesktopDisplay((1280, 800), feed=lambda: (None, None)) as window:
        window.render(sample_views()["scoreboard"])
        assert _key(window, pygame.K_c) is None and _key(window, pygame.K_b) is None
        window.render(sample_views()["scoreboard"])
        assert set(window.panes) == {"status"} and window.panes["status"].size == (1280, 800)
        _key(window, pygame.K_s)  # the last part shown stays
        assert window.shown == ("status",)
        _key(window, pygame.K_F1)
        window.render(sample_views()["scoreboard"])
        assert set(window.panes) == {"camera", "status"}
        assert _key(window, pygame.K_u).action.value == "undo"  # the game's keys still work


def test_while_a_name_is_typed_c_b_and_s_are_letters():
    typing = [True]
    with DesktopDisplay((1280, 800), typing=lambda: typing[0]) as window:
        event = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_b, mod=0, unicode="b")
        assert window.handle_event(event).text == "b" and "board" in window.shown
        assert window.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F2, mod=0)) is None
        assert "board" not in window.shown  # F2 still hides the board
        quit_key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=0, unicode="q")
        assert window.handle_event(quit_key).text == "q"  # "Quentin" does not close the window
        typing[0] = False
        assert window.handle_event(event) is None and "board" in window.shown
        assert window.handle_event(quit_key).action.value == "quit"


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080), (1024, 600), (800, 480), (2560, 1440)])
def test_the_parts_fill_any_window_without_overlapping(size):
    panes = layout_panes(size, ("camera", "board", "status"))
    window = pygame.Rect((0, 0), size)
    assert all(window.contains(r) for r in panes.values())
    rects = list(panes.values())
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert abs(panes["status"].w / panes["status"].h - 800 / 480) < 0.05  # the Pi screen's shape
    assert sum(r.w * r.h for r in rects) == size[0] * size[1]


def test_a_click_on_the_status_part_is_a_touch_on_the_status_screen():
    menu = MenuView("Menu", tuple(MenuItem(f"Line {i}", key=str(i)) for i in range(4)))
    with DesktopDisplay((1280, 800)) as window:
        window.render(menu)
        status = window.panes["status"]
        target = next(t for t in window.drawn.targets if t.name == "item" and t.index == 2)
        pos = (status.x + target.rect.centerx, status.y + target.rect.centery)
        command = window.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        assert (command.action.value, command.index) == ("select", 2)
        outside = window.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(5, 5), button=1))
        assert outside is None  # a click on the camera picture is not a touch on the game


def test_the_pi_console_keeps_the_status_screen_alone(monkeypatch):
    assert not wants_desktop("kmsdrm", (800, 480), (800, 480), {})
    assert not wants_desktop("x11", (800, 480), (800, 480), {})  # a desktop no bigger than the status screen
    assert wants_desktop("x11", (1920, 1080), (800, 480), {}) and wants_desktop("wayland", (1280, 800),
                                                                                 (800, 480), {})
    assert not wants_desktop("x11", (1920, 1080), (800, 480), {"COMPANION_WINDOW": "status"})
    monkeypatch.delenv("COMPANION_WINDOW", raising=False)
    window = open_window((800, 480))
    assert isinstance(window, Display)  # the dummy driver stands for a screen-less Pi
    window.close()


def test_the_app_opens_the_desktop_window_and_feeds_it(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_WINDOW", "desktop")
    config = load_config(text='[board]\ndriver = "virtual"\nanimate = false\n')
    app = Companion.create(config, demo=DemoGame.build(), db_path=tmp_path / "demo.db", new_game=True,
                           recognize="scripted", use_controls=False)
    assert isinstance(app.display, DesktopDisplay)
    for _ in range(40):
        app.step()
    assert app.display.frames >= 1 and app.display.camera_drawn is not None
    assert set(app.display.panes) == {"camera", "board", "status"}
    app.close()


def test_make_screenshots_writes_the_desktop_window_at_1280x800(tmp_path):
    from tools import screenshots

    screenshots.desktop_screenshot(tmp_path / "desktop.png")
    shot = pygame.image.load(str(tmp_path / "desktop.png"))
    assert shot.get_size() == (1280, 800)
