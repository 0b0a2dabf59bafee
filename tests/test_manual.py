"""Manual mode: with no camera the whole game is played with the buttons (OK, Undo, Menu and the encoder)."""

from __future__ import annotations

from companion.app import Companion
from companion.cards import SUITS, Card
from companion.config import load_config
from companion.display.input import Action, ScreenCommand


def press(app, *actions):
    for a in actions:
        app.handle_command(ScreenCommand(a))


def enter(app, code: str) -> None:
    """Enter one card with the encoder (Next/Prev) and OK, as a player would."""
    card = Card.parse(code)
    if app.controller.screen != "correct":
        press(app, Action.OK)  # OK on the game screen opens the card entry in manual mode
    view = app.view()
    assert view.mode == "enter"
    while app.view().rank != card.rank:
        press(app, Action.NEXT if card.rank > app.view().rank else Action.PREV)
    press(app, Action.OK)  # the rank is chosen; now the suit
    while app.view().suit != card.suit:
        press(app, Action.NEXT)
    press(app, Action.OK)


def test_a_whole_hand_with_the_buttons_only(tmp_path):
    config = load_config(text='[camera]\nsource = "none"\n[game]\nplayers = ["Ann", "Bob"]\n')
    app = Companion.create(config, headless=True, db_path=tmp_path / "g.db")
    assert app.source is None and app.controller.manual and "camera" in app.messages
    press(app, Action.OK)
    assert app.view().title == "The starter"
    press(app, Action.MENU)  # cancel, then enter it after all
    enter(app, "JH")  # his heels for Ann
    assert [s.front for s in app.game.state.sides] == [2, 0]
    assert app.view().title == "Bob plays (count 0)"  # the entry screen stays open for the next card
    for code in ("TH", "5S", "9C", "5C"):
        enter(app, code)
    assert app.game.state.count == 29 and [s.front for s in app.game.state.sides] == [4, 0]
    press(app, Action.GO)  # Bob cannot play
    press(app, Action.GO)  # nor Ann: one for the go to Ann, who laid the last card
    assert [s.front for s in app.game.state.sides] == [5, 0] and app.game.state.turn == 1
    for code in ("6H", "4C", "3D", "2C"):
        enter(app, code)
    state = app.game.state
    assert state.phase == "show" and state.next_show is None  # the hands were seen in the play and counted
    assert [(e.seat, e.reason) for e in state.scores[-2:]] == [(1, "hand"), (0, "hand")] and len(state.shows) == 2
    assert app.view().title == "Ann's crib: card 1"
    for code in ("KD", "QS", "7S", "8D"):
        enter(app, code)
    assert app.game.state.phase == "deal" and app.game.state.dealer == 1
    app.close()


def test_points_are_added_by_hand(tmp_path):
    config = load_config(text='[camera]\nsource = "none"\n')
    app = Companion.create(config, headless=True, db_path=tmp_path / "g.db")
    press(app, Action.MENU)
    while app.view().items[app.view().selected].key != "points":
        press(app, Action.NEXT)
    press(app, Action.OK, Action.NEXT, Action.OK)  # the second side
    press(app, Action.NEXT, Action.NEXT, Action.NEXT, Action.OK)  # three points
    assert [s.front for s in app.game.state.sides] == [0, 3]
    assert app.game.state.scores[-1].reason == "correction"
    press(app, Action.UNDO)
    assert [s.front for s in app.game.state.sides] == [0, 0]
    app.close()


def test_touching_a_rank_and_a_suit_enters_a_card(tmp_path):
    config = load_config(text='[camera]\nsource = "none"\n')
    app = Companion.create(config, headless=True, db_path=tmp_path / "g.db")
    press(app, Action.OK)
    app.handle_command(ScreenCommand(Action.SELECT, index=11, target="rank"))
    app.handle_command(ScreenCommand(Action.SELECT, index=SUITS.index("D"), target="suit"))
    press(app, Action.OK)
    assert str(app.game.state.starter) == "JD"
    app.close()


def test_each_new_score_is_spoken_once_and_an_undo_says_nothing(tmp_path):
    config = load_config(text='[camera]\nsource = "none"\n')
    app = Companion.create(config, headless=True, db_path=tmp_path / "g.db")
    said = []
    app.speaker.say = said.append
    enter(app, "2D")  # the starter: no score, nothing said
    enter(app, "TH")
    enter(app, "5S")  # fifteen two
    enter(app, "5C")  # a pair
    assert said == ["Fifteen two", "Twenty for two"]
    press(app, Action.MENU, Action.UNDO)  # leave the entry screen, take the pair back
    assert said == ["Fifteen two", "Twenty for two"] and app.game.state.count == 15  # no stale "Fifteen two"
    app.close()
