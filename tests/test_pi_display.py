"""The screen on the Pi console: full screen at the panel's own size, touches landing where they are drawn.

SDL's dummy driver behaves like a kmsdrm console that lacks the size asked for: full screen, it always gives its
own 1024 x 768, whatever was asked.
"""

from __future__ import annotations

import pygame
import pytest

from companion.display.input import Action
from companion.display.samples import sample_views
from companion.display.window import Display


@pytest.fixture
def views():
    return sample_views()


def touch(display: Display, x: float, y: float) -> list:
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=x, y=y, dx=0.0, dy=0.0, touch_id=1, finger_id=0,
                                         pressure=1.0))
    return display.commands()


def test_full_screen_opens_at_the_screens_own_size(views):
    with Display((800, 480), fullscreen=True) as display:
        desktop = tuple(pygame.display.get_desktop_sizes()[0])
        assert display.size == desktop == display.surface.get_size(), "drawn for the panel, not for 800 x 480"
        display.render(views["correction-choose"])
        assert display.drawn.size == desktop


def test_a_touch_lands_on_the_target_under_the_finger_when_the_picture_is_centred(views, monkeypatch):
    # the panel is 1280 x 800, the console only gave a centred 1024 x 768 picture
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(1280, 800)])
    with Display((800, 480), fullscreen=True) as display:
        assert display.surface.get_size() == (1024, 768)
        display.render(views["correction-choose"])
        target = next(t for t in display.drawn.targets if t.name == "rank" and t.index == 3)
        cx, cy = target.rect.center
        commands = touch(display, (cx + (1280 - 1024) / 2) / 1280, (cy + (800 - 768) / 2) / 800)
    assert [(c.action, c.target, c.index) for c in commands] == [(Action.SELECT, "rank", 3)]


def test_a_window_is_the_size_asked_for_and_touches_are_unchanged(views):
    with Display((800, 480), fullscreen=False) as display:
        assert display.size == (800, 480)
        display.render(views["correction-choose"])
        target = next(t for t in display.drawn.targets if t.name == "rank" and t.index == 2)
        cx, cy = target.rect.center
        commands = touch(display, cx / 800, cy / 480)
    assert [(c.action, c.target, c.index) for c in commands] == [(Action.SELECT, "rank", 2)]
