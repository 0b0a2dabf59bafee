"""Property tests: random legal games of every variant, played to the end, keep every invariant of the rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cards import full_deck
from companion.rules.autoplay import script_game
from companion.rules.events import Deal, Redo, Undo
from companion.rules.game import Game, GameState, apply, replay
from companion.rules.variants import VARIANTS, Options

NAMES = ("Ann", "Bob", "Cy", "Di")


def _decks(seed: int):
    rng = random.Random(seed)
    while True:
        deck = full_deck()
        rng.shuffle(deck)
        yield deck


games = st.builds(
    lambda variant, seed, lowball, dealer: (variant, seed, Options(lowball=lowball), dealer),
    st.sampled_from(sorted(VARIANTS)), st.integers(0, 2**32 - 1), st.booleans(), st.integers(0, 3))


def _play(variant, seed, options, dealer):
    v = VARIANTS[variant]
    return script_game(variant, NAMES[:v.players], _decks(seed), options=options, first_dealer=dealer % v.players)


@pytest.mark.slow  # 120 whole games: the everyday loop keeps the undo/redo property below
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_games_keep_the_rules(game):
    events = _play(*game)
    state = GameState()
    first_over = None
    hand_cards: set = set()
    for i, e in enumerate(events):
        before = state
        state = apply(state, e)
        if isinstance(e, Deal):
            hand_cards = set()
        # each card at most once per hand; the count never above 31
        new_cards = state.seen - before.seen if state.hand == before.hand else state.seen
        assert not (new_cards & hand_cards)
        hand_cards |= new_cards
        assert 0 <= state.count <= 31
        # points are never negative, and a back peg is the front peg before the side's last score
        fronts = [side.front for side in before.sides]
        backs = [side.back for side in before.sides]
        for entry in state.scores[len(before.scores):]:
            assert entry.points > 0
            backs[entry.side], fronts[entry.side] = fronts[entry.side], fronts[entry.side] + entry.points
        if before.sides:
            assert [(s.front, s.back) for s in state.sides] == list(zip(fronts, backs))
        if state.phase == "over" and first_over is None:
            first_over = i
    assert state.phase == "over" and first_over == len(events) - 1
    # the winner is the first side to reach the target (or, at low-ball, the one who did not)
    reached = [i for i, s in enumerate(state.sides) if s.front >= state.target]
    assert len(reached) == 1
    if state.options.lowball:
        assert state.loser == reached[0] and state.winner != reached[0]
    else:
        assert state.winner == reached[0]
    # replaying the log gives the same state
    assert replay(events) == state


@settings(max_examples=60, deadline=None)
@given(games, st.integers(1, 10_000))
def test_undo_then_redo_changes_nothing(game, where):
    events = _play(*game)
    cut = 2 + where % (len(events) - 2)  # at least one event after the new game, which is never undone
    g = Game(events[:cut])
    state = g.state
    g.apply(Undo())
    assert replay(events[:cut - 1]) == g.state
    g.apply(Redo())
    assert g.state == state
