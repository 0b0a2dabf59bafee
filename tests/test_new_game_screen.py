"""The new-game screen: names, variant, target, low-ball, muggins, skunks and the first deal chosen on screen with
the buttons alone; a game in progress is only abandoned after a confirmation; the screen opens at first start."""

from __future__ import annotations

import pygame

from companion.app import Companion
from companion.config import load_config
from companion.display.input import Action, ScreenCommand
from companion.display.newgame import GameChoices, new_game_view
from companion.display.screens import draw_screen
from companion.ui import MENU
from test_manual import enter

CONFIG = '[camera]\nsource = "none"\n[game]\nplayers = ["Ann", "Bob"]\n'


def press(app, *actions):
    for a in actions:
        app.handle_command(ScreenCommand(a))


def choose(app, key: str, times: int = 1) -> None:
    """Move to the line ``key`` of the new-game screen with Next and press OK ``times`` times."""
    keys = [item.key for item in app.view().items]
    while keys[app.controller.selected] != key:
        press(app, Action.NEXT)
    for _ in range(times):
        press(app, Action.OK)


def open_from_menu(app) -> None:
    press(app, Action.MENU)
    for _ in range([key for _, key in MENU].index("new-game")):
        press(app, Action.NEXT)
    press(app, Action.OK)
    assert app.controller.screen == "new-game" and app.view().title == "New game"


def test_a_game_is_set_up_on_screen_with_the_buttons(tmp_path):
    app = Companion.create(load_config(text=CONFIG), headless=True, db_path=tmp_path / "g.db")
    open_from_menu(app)
    values = {item.key: item.value for item in app.view().items}
    assert values["name-0"] == "Ann" and values["name-1"] == "Bob" and values["dealer"] == "cut for it"
    choose(app, "variant", 3)  # six-card -> five-card -> seven-card -> three-hand
    assert [i.value for i in app.view().items if i.key.startswith("name-")] == ["Ann", "Bob", "Player 3"]
    choose(app, "target")  # three-hand is to 61: on to 121
    choose(app, "name-0")  # Ann's seat takes the next free name: Player 1
    choose(app, "dealer", 2)  # cut for it -> Player 1 -> Bob
    choose(app, "muggins")
    choose(app, "lowball")
    choose(app, "skunk", 2)  # standard -> single only -> off
    choose(app, "start")
    app.step()
    state = app.game.state
    assert state.variant.name == "three-hand" and state.target == 121
    assert state.players == ("Player 1", "Bob", "Player 3") and state.dealer == 1
    assert state.options.muggins and state.options.lowball and state.options.skunk_lines(121) == (None, None)
    assert app.controller.screen == ""
    app.close()


def test_a_game_in_progress_is_kept_unless_the_players_confirm(tmp_path):
    app = Companion.create(load_config(text=CONFIG), headless=True, db_path=tmp_path / "g.db")
    press(app, Action.MENU)  # leave anything open
    press(app, Action.MENU)
    enter(app, "JH")  # his heels: Ann 2
    press(app, Action.MENU)
    game_id = app.game.game_id
    open_from_menu(app)
    choose(app, "start")
    view = app.view()
    assert app.controller.screen == "abandon" and "Ann 2, Bob 0" in view.title
    assert view.selected == 0 and view.items[0].key == "keep"  # a stray OK keeps the game
    press(app, Action.OK)
    app.step()
    assert app.game.game_id == game_id and app.controller.screen == ""
    open_from_menu(app)
    choose(app, "start")
    press(app, Action.NEXT, Action.OK)  # "Abandon it and start"
    app.step()
    assert app.game.game_id != game_id and [s.front for s in app.game.state.sides] == [0, 0]
    assert app.store.unfinished() == app.game.game_id  # the old game was set aside, not left open
    app.close()


def test_cancel_and_menu_leave_the_game_as_it_was(tmp_path):
    app = Companion.create(load_config(text=CONFIG), headless=True, db_path=tmp_path / "g.db")
    game_id = app.game.game_id
    open_from_menu(app)
    choose(app, "variant")
    press(app, Action.MENU)
    app.step()
    assert app.controller.screen == "" and app.game.game_id == game_id
    assert app.game.state.variant.name == "six-card"
    app.close()


def test_the_new_game_screen_opens_at_first_start_only(tmp_path):
    config = load_config(text=CONFIG)
    app = Companion.create(config, db_path=tmp_path / "g.db", use_controls=False)
    assert app.controller.screen == "new-game" and app.view().title == "New game"
    app.render()
    assert {"Variant", "Six-card (standard)", "Ann"} <= set(app.display.drawn.text_values())
    choose(app, "start")  # nothing was played yet: no confirmation
    app.step()
    assert app.controller.screen == ""
    app.close()
    again = Companion.create(config, db_path=tmp_path / "g.db", use_controls=False)
    assert again.controller.screen == ""
    again.close()


def test_every_line_fits_the_small_screen_and_a_touch_changes_it():
    choices = GameChoices(variant="four-hand", names=("Ann", "Bob", "Cat", "Dan"))
    view = new_game_view(choices, selected=0)
    for size in ((800, 480), (480, 320)):
        drawn = draw_screen(pygame.Surface(size), view)
        assert drawn.find("title")[0].text == "New game"
    changed = choices.change("name-0")
    assert changed.names[0] not in ("Bob", "Cat", "Dan")  # never two seats with one name


def _type(app, text: str) -> None:
    """Type ``text`` on the keyboard, as pygame reports each key."""
    for ch in text:
        key = {"\r": pygame.K_RETURN, "\b": pygame.K_BACKSPACE, " ": pygame.K_SPACE}.get(ch, ord(ch.lower()))
        event = pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=ch)
        from companion.display.input import command_for_event
        app.handle_command(command_for_event(event))


def test_names_are_typed_on_a_keyboard(tmp_path):
    app = Companion.create(load_config(text='[camera]\nsource = "none"\n'), headless=True, db_path=tmp_path / "g.db")
    open_from_menu(app)
    keys = [item.key for item in app.view().items]
    while keys[app.controller.selected] != "name-0":
        press(app, Action.NEXT)
    _type(app, "mary ax\bnne")  # "m", "n" and the space are letters here, not Menu, Next and OK
    assert app.view().items[2].value == "Mary anne_"
    _type(app, "\r")
    assert app.view().items[2].value == "Mary anne" and app.controller.screen == "new-game"
    press(app, Action.NEXT)
    _type(app, "Gus\r")  # G is a letter on a name line, not "go"
    choose(app, "start")
    app.step()
    assert app.game.state.players == ("Mary anne", "Gus")
    app.close()
