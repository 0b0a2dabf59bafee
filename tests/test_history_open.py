"""History you can open: choose any score and see the cards that made it and its breakdown; long lines wrap."""

from __future__ import annotations

import pygame

from companion.app import Companion
from companion.config import load_config
from companion.display.input import Action, ScreenCommand
from companion.display.samples import game_29
from companion.display.screens import draw_screen
from companion.display.view import view_from_state
from companion.ui import MENU
from test_manual import enter


def press(app, *actions):
    for a in actions:
        app.handle_command(ScreenCommand(a))


def _played_hand(tmp_path):
    config = load_config(text='[camera]\nsource = "none"\n[game]\nplayers = ["Ann", "Bob"]\n')
    app = Companion.create(config, headless=True, db_path=tmp_path / "g.db")
    for code in ("JH", "TH", "5S", "9C", "5C"):  # his heels for Ann; Ann's fifteen two with the 5S
        enter(app, code)
    press(app, Action.MENU)  # leave the card entry
    return app


def test_a_score_is_opened_from_the_history_with_its_cards_and_breakdown(tmp_path):
    app = _played_hand(tmp_path)
    press(app, Action.MENU)
    for _ in range([key for _, key in MENU].index("history")):
        press(app, Action.NEXT)
    press(app, Action.OK)
    assert app.view().screen == "history"
    assert [(h.who, h.points) for h in app.view().history] == [("Ann", 2), ("Ann", 2)]
    press(app, Action.OK)  # open the newest: Ann's fifteen two in the play
    view = app.view()
    assert view.screen == "score" and view.show.title == "Ann in the play" and view.show.total == 2
    assert [str(c) for c in view.show.cards] == ["TH", "5S"]
    assert [(i.title, [str(c) for c in i.cards]) for i in view.show.items] == [("Fifteen", ["TH", "5S"])]
    drawn = draw_screen(pygame.Surface((800, 480)), view)
    assert drawn.screen == "score" and [t.text for t in drawn.find("item-title")] == ["Fifteen"]
    assert sorted(str(c.card) for c in drawn.cards if c.role == "hand") == ["5S", "TH"]
    press(app, Action.NEXT)  # the score before it: his heels
    view = app.view()
    assert view.show.title == "Ann: his heels" and [str(c) for c in view.show.cards] == ["JH"]
    press(app, Action.MENU)  # back to the list, the same score still chosen
    assert app.view().screen == "history" and app.view().selected == 1
    press(app, Action.MENU)
    assert app.controller.screen == ""
    app.close()


def test_undo_from_an_opened_score_takes_it_back(tmp_path):
    app = _played_hand(tmp_path)
    app.controller.screen = "history"
    press(app, Action.OK, Action.UNDO)
    assert app.controller.screen == "history"
    assert [(s.reason, s.points) for s in app.game.state.scores] == [("heels", 2)]
    app.close()


def test_a_show_opened_from_the_history_lists_every_item_on_one_page():
    state = game_29((22, 17)).state
    view = view_from_state(state, screen="score", selected=0)
    assert view.show.title == "Bob's hand" and str(view.show.starter) == "5D"
    for size in ((800, 480), (480, 320), (1024, 600)):
        drawn = draw_screen(pygame.Surface(size), view)
        assert len(drawn.find("item-title")) == 15 and not drawn.find("more")


def test_a_long_score_wraps_in_the_history_instead_of_being_cut():
    view = view_from_state(game_29((22, 17)).state, screen="history", selected=0)
    for size in ((800, 480), (1024, 600)):
        drawn = draw_screen(pygame.Surface(size), view)
        row = next(t.rect for t in drawn.targets if t.name == "history" and t.index == 0)
        words = " ".join(t.text for t in drawn.find("reason") if row.contains(t.rect))
        assert words.startswith("Hand: Fifteen two") and words.endswith("his nobs is twenty-nine")
        assert "..." not in words
