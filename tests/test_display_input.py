"""Keys, clicks and touches reach the right action; touch on a card selects it; the window redraws only on change."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from companion.cards import Card  # noqa: E402
from companion.display import Action, Display, ScreenCommand, command_for_event, draw_screen  # noqa: E402
from companion.display.samples import sample_views  # noqa: E402
from companion.display.window import choose_driver, parse_size  # noqa: E402
from companion.errors import ConfigError  # noqa: E402


@pytest.fixture(scope="module")
def views():
    return sample_views()


def key(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod)


@pytest.mark.parametrize("k, action", [
    (pygame.K_RETURN, Action.OK), (pygame.K_SPACE, Action.OK), (pygame.K_g, Action.GO),
    (pygame.K_u, Action.UNDO), (pygame.K_BACKSPACE, Action.UNDO), (pygame.K_r, Action.REDO),
    (pygame.K_m, Action.MENU), (pygame.K_ESCAPE, Action.MENU), (pygame.K_RIGHT, Action.NEXT),
    (pygame.K_DOWN, Action.NEXT), (pygame.K_LEFT, Action.PREV), (pygame.K_UP, Action.PREV),
    (pygame.K_q, Action.QUIT),
])
def test_keys(k, action):
    command = command_for_event(key(k))
    assert (command.action, command.index, command.card, command.target) == (action, None, None, None)


def test_a_letter_with_no_action_is_text_and_backspace_types_a_backspace():
    typed = command_for_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a"))
    assert (typed.action, typed.target, typed.text) == (Action.SELECT, "text", "a")
    assert command_for_event(key(pygame.K_BACKSPACE)).text == "\b"
    assert command_for_event(key(pygame.K_a)) is None  # no character typed: nothing


def test_ctrl_keys_digits_and_unknown_keys():
    assert command_for_event(key(pygame.K_z, pygame.KMOD_LCTRL)).action is Action.UNDO
    assert command_for_event(key(pygame.K_z, pygame.KMOD_LCTRL | pygame.KMOD_LSHIFT)).action is Action.REDO
    assert command_for_event(key(pygame.K_y, pygame.KMOD_LCTRL)).action is Action.REDO
    assert command_for_event(key(pygame.K_3)) == ScreenCommand(Action.SELECT, index=2)
    assert command_for_event(key(pygame.K_F7)) is None
    assert command_for_event(pygame.event.Event(pygame.QUIT)).action is Action.QUIT


def test_actions_use_the_board_buttons_words():
    from companion.board.controls import Command

    for command in Command:
        assert ScreenCommand.of(command) == ScreenCommand(Action(command.value))
    assert ScreenCommand.of("undo").action is Action.UNDO


def test_wheel_turns_like_an_encoder():
    assert command_for_event(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1)).action is Action.NEXT
    assert command_for_event(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1)).action is Action.PREV


def test_click_and_touch_on_a_card_select_it(views):
    drawn = draw_screen(pygame.Surface((800, 480)), views["show-29"])
    five_clubs = next(c for c in drawn.cards if c.role == "hand" and c.card == Card.parse("5C"))
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=five_clubs.rect.center, button=1, touch=False)
    assert command_for_event(click, drawn) == ScreenCommand(Action.SELECT, index=1, card=Card.parse("5C"),
                                                            target="hand")
    x, y = five_clubs.rect.center
    finger = pygame.event.Event(pygame.FINGERDOWN, x=x / 800, y=y / 480, touch_id=0, finger_id=0)
    assert command_for_event(finger, drawn).card == Card.parse("5C")
    # the mouse event SDL makes from the same touch is not counted twice
    assert command_for_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1, touch=True),
                             drawn) is None
    nothing = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(2, 470), button=1, touch=False)
    assert command_for_event(nothing, drawn) is None


def test_touch_on_overlapping_cards_picks_the_top_one(views):
    drawn = draw_screen(pygame.Surface((480, 320)), views["play-run"])
    for item in drawn.cards:
        corner = (item.rect.right - 1, item.rect.bottom - 1)
        hit = command_for_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=corner, button=1, touch=False),
                                drawn)
        top = drawn.card_at(corner)
        assert hit.card == top.card
    last = max(drawn.cards, key=lambda c: c.index)
    assert drawn.card_at(last.rect.center).card == last.card


def test_touch_on_rank_suit_owner_and_menu_targets(views):
    surface = pygame.Surface((800, 480))
    drawn = draw_screen(surface, views["correction-choose"])
    queen = next(t for t in drawn.targets if t.name == "rank" and t.index == 12)
    hit = command_for_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=queen.rect.center, button=1,
                                               touch=False), drawn)
    assert hit == ScreenCommand(Action.SELECT, index=12, target="rank")
    drawn = draw_screen(surface, views["correction-owner"])
    bob = next(t for t in drawn.targets if t.name == "owner" and t.index == 1)
    assert command_for_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=bob.rect.center, button=1,
                                                touch=False), drawn).index == 1
    drawn = draw_screen(surface, views["menu-new-game"])
    line = next(t for t in drawn.targets if t.index == 2)
    assert command_for_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=line.rect.center, button=1,
                                                touch=False), drawn).target == "item"


def test_display_redraws_only_on_change_and_saves_screenshots(views, tmp_path):
    with Display("800x480") as display:
        assert display.surface.get_size() == (800, 480)
        assert display.render(views["scoreboard"]) is True
        assert display.render(views["scoreboard"]) is False
        assert display.render(views["scoreboard"], "history") is True
        assert display.render(views["play-run"]) is True
        assert display.frames == 3
        path = tmp_path / "shot.png"
        display.screenshot(path)
        assert pygame.image.load(str(path)).get_size() == (800, 480)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_u, mod=0))
        card = display.drawn.cards[0]
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=card.rect.center, button=1, touch=False))
        commands = display.commands()
        assert commands[0].action is Action.UNDO
        assert commands[1].action is Action.SELECT and commands[1].card == display.drawn.card_at(card.rect.center).card
        assert display.render(views["camera"]) is True and display.render(views["camera"]) is False
    display.close()  # safe twice


def test_driver_choice_and_sizes():
    assert choose_driver({"SDL_VIDEODRIVER": "x11"}, has_drm=True) is None
    assert choose_driver({"WAYLAND_DISPLAY": "wayland-0"}, has_drm=True) is None
    assert choose_driver({}, has_drm=True) == "kmsdrm"
    assert choose_driver({}, has_drm=False) is None
    assert parse_size("1024x600") == (1024, 600) and parse_size((480, 320)) == (480, 320)
    with pytest.raises(ConfigError, match="'big'"):
        parse_size("big")


def test_demo_runs(capsys):
    from companion.display.__main__ import main

    assert main(["--size", "480x320", "--frames", "3"]) == 0
    assert capsys.readouterr().out.split() == ["scoreboard", "play-run", "show-29"]


def test_screenshots_and_benchmark_tools(tmp_path, capsys):
    from tools import bench_display, screenshots

    assert screenshots.main(["--out", str(tmp_path), "--no-desktop"]) == 0
    assert len(list(tmp_path.glob("*.png"))) == len(screenshots.MAIN)
    assert bench_display.main(["--frames", "2"]) == 0
    assert "budget 16 ms" in capsys.readouterr().out
