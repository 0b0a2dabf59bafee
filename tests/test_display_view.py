"""view_from_state reads the game state into the plain view the screens draw."""

from __future__ import annotations

from types import SimpleNamespace

from companion import score_hand, score_play
from companion.cards import Card, parse_cards
from companion.display.samples import game_29, game_long_run
from companion.display.view import (SIDE_MARKERS, CameraView, ShowView, item_views, show_view,
                                    view_from_state)


def test_play_state():
    state = game_long_run().state
    view = view_from_state(state, games_won=(1, 2), colours=[(1, 2, 3), (4, 5, 6)])
    assert [s.name for s in view.sides] == ["Alice", "Bob"]
    assert [s.score for s in view.sides] == [state.sides[0].front, state.sides[1].front]
    assert [s.back for s in view.sides] == [state.sides[0].back, state.sides[1].back]
    assert [s.games_won for s in view.sides] == [1, 2]
    assert [s.colour for s in view.sides] == [(1, 2, 3), (4, 5, 6)]
    assert [s.marker for s in view.sides] == list(SIDE_MARKERS[:2])
    assert view.sides[0].is_dealer and not view.sides[1].is_dealer
    assert view.sides[1].is_turn and view.turn == "Bob" and view.dealer == "Alice"
    assert view.phase == "play" and view.count == 27 and view.target == 121
    assert view.skunk_lines == (90, 60)
    assert view.variant == "Six-card (standard)"
    alice, bob = view.series
    assert (alice.name, bob.name) == ("Alice", "Bob")
    assert [(o, str(c)) for o, c in bob.cards] == [(0, "4C"), (2, "6H"), (4, "3C")]
    assert [(o, str(c)) for o, c in alice.cards] == [(1, "2D"), (3, "5S"), (5, "7D")]
    last = view.last_score
    assert (last.who, last.side, last.points, last.spoken) == ("Alice", 0, 6, "Twenty-seven for six")
    assert last.highlighted == frozenset(parse_cards("4C 2D 6H 5S 3C 7D"))
    first = view.history[0]
    assert (first.who, first.side, first.points, first.reason, first.spoken) == (
        "Alice", 0, 6, "play", "Twenty-seven for six")
    assert [str(c) for c in first.cards] == ["4C", "2D", "6H", "5S", "3C", "7D"]  # what opening it shows
    assert [i.title for i in first.items] == ["Run of six"]


def test_show_state_and_history_newest_first():
    state = game_29((22, 17), claimed=24).state
    view = view_from_state(state)
    show = view.show
    assert (show.title, show.total, show.claimed, show.side) == ("Bob's hand", 29, 24, 1)
    assert show.cards == tuple(parse_cards("5H 5C 5S JD")) and show.starter == Card.parse("5D")
    assert [i.title for i in show.items].count("Fifteen") == 8
    assert show.items[-1].title == "His nobs"
    assert [h.points for h in view.history] == [e.points for e in reversed(state.scores)]
    assert view.history[0].reason == "hand"


def test_game_over_and_skunk():
    view = view_from_state(game_29((70, 100)).state)
    assert view.phase == "over" and view.winner == 1 and view.skunk == "skunk"
    assert view_from_state(game_29((40, 100)).state).skunk == "double skunk"


def test_from_a_plain_object():
    """Any object with the attributes will do: the builder only reads."""
    side = SimpleNamespace(name="Ann", seats=(0,), front=5, back=3)
    state = SimpleNamespace(sides=(side, SimpleNamespace(name="Ben", seats=(1,), front=0, back=0)),
                            players=("Ann", "Ben"), dealer=1, turn=0, phase="discard", target=61)
    view = view_from_state(state)
    assert view.target == 61 and view.skunk_lines == (30, None)
    assert view.sides[1].is_dealer and view.sides[0].is_turn and view.last_score is None and view.show is None


def test_items_and_show_view_helpers():
    items = item_views(score_play("5C 5D 5H"))
    assert [(i.title, i.points) for i in items] == [("Fifteen", 2), ("Pair royal", 6)]
    assert [i.title for i in item_views(score_play("4C 2D 6H 5S 3C 7D"))] == ["Run of six"]
    s = show_view("Ann's crib", score_hand("5H 5C 5S JD", "5D", crib=True), "5H 5C 5S JD", "5D", selected=14)
    assert isinstance(s, ShowView) and s.highlighted == frozenset(parse_cards("JD"))


def test_views_compare_by_value():
    a = view_from_state(game_long_run().state)
    b = view_from_state(game_long_run().state)
    assert a == b and hash(a) == hash(b)
    import numpy as np

    frame = np.zeros((4, 4, 3), np.uint8)
    assert CameraView(frame, 1) == CameraView(frame.copy(), 1) != CameraView(frame, 2)


def test_crib_belongs_to_the_dealer_who_counted_it():
    from companion.rules.events import Crib, Show

    game = game_29()
    game.apply(Show(0, tuple(parse_cards("2C 3D 4H 6S"))))
    game.apply(Crib(tuple(parse_cards("7H 8H 9C KC"))))
    view = view_from_state(game.state, screen="show")
    assert view.phase == "deal" and view.dealer == "Bob"  # the deal has passed on
    assert (view.show.title, view.show.total, view.show.side) == ("Alice's crib", 7, 0)
    assert [i.title for i in view.show.items] == ["Fifteen", "Fifteen", "Run of three"]
