"""Pegs to light, the brightness cap and the animations: pure functions of views and explicit times."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.board.animation import BoardAnimator
from companion.board.layout import Hole, load_layout
from companion.board.pegs import (BACK_LEVEL, PegView, PowerBudget, board_frame, cap_frame, lap_of, peg_led,
                                  peg_view_from_state, peg_views_from_scores, scale)
from companion.errors import ConfigError

PRESETS = ["four-hand-partners", "seven-card-181", "test-strip-30", "three-player-121", "two-player-121",
           "two-player-61"]


def lit(frame):
    return {i: c for i, c in enumerate(frame) if c != (0, 0, 0)}


def test_start_holes_before_the_first_score():
    layout = load_layout("two-player-121")
    red, blue = layout.sides
    frame = board_frame(layout, PegView(((0, 0), (0, 0))))
    assert lit(frame) == {red.start[0]: red.colour, red.start[1]: scale(red.colour, BACK_LEVEL),
                          blue.start[0]: blue.colour, blue.start[1]: scale(blue.colour, BACK_LEVEL)}


def test_front_bright_back_dim_in_the_side_colour():
    layout = load_layout("two-player-121")
    red, blue = layout.sides
    frame = board_frame(layout, PegView(((17, 9), (4, 0))))
    assert lit(frame) == {
        layout.led_of(Hole(0, "track", 17)): red.colour,
        layout.led_of(Hole(0, "track", 9)): scale(red.colour, BACK_LEVEL),
        layout.led_of(Hole(1, "track", 4)): blue.colour,
        blue.start[1]: scale(blue.colour, BACK_LEVEL),
    }


def test_a_side_past_the_target_is_on_the_game_hole_in_its_colour():
    layout = load_layout("three-player-121")
    frame = board_frame(layout, PegView(((100, 90), (125, 118), (60, 55)), winner=1))
    assert frame[layout.game] == layout.sides[1].colour
    assert frame[layout.led_of(Hole(1, "track", 118))] == scale(layout.sides[1].colour, BACK_LEVEL)


def test_the_lap_is_shown_on_a_short_board():
    layout = load_layout("seven-card-181")
    red = layout.sides[0]
    for score, lap in [(1, 1), (60, 1), (61, 2), (120, 2), (121, 3), (180, 3)]:
        frame = board_frame(layout, PegView(((score, 0), (0, 0)), target=181))
        assert [i + 1 for i, led in enumerate(red.laps) if frame[led] != (0, 0, 0)] == [lap]
        assert frame[red.track[(score - 1) % 60]] == red.colour
    # a 61 game on the 61 board goes round once: no lap light
    short = load_layout("two-player-61")
    frame = board_frame(short, PegView(((30, 20), (0, 0)), target=61))
    assert all(frame[led] == (0, 0, 0) for led in short.sides[0].laps)
    # a 121 game on it goes round twice
    frame = board_frame(short, PegView(((70, 64), (0, 0)), target=121))
    assert frame[short.sides[0].laps[1]] != (0, 0, 0) and frame[short.sides[0].laps[0]] == (0, 0, 0)
    assert lap_of(short, 0, 121) == 0


def expected_lit(layout, view):
    """What must be lit, worked out from holes rather than from the code under test's helpers."""
    out = {}
    for i, (front, back) in enumerate(view.sides):
        side = layout.sides[i]

        def hole(score, is_back, i=i, side=side):
            if score == 0:
                return side.start[min(1 if is_back else 0, len(side.start) - 1)] if side.start else None
            if score >= view.target:
                return layout.game
            return layout.led_of(Hole(i, "track", (score - 1) % layout.holes_per_track + 1))
        if (front != back or back == 0) and hole(back, True) is not None:
            out[hole(back, True)] = scale(side.colour, BACK_LEVEL)
        if side.laps and view.target - 1 > layout.holes_per_track and front > 0:
            lap = (min(front, view.target - 1) - 1) // layout.holes_per_track
            out[side.laps[lap]] = scale(side.colour, 0.5)
    for i, (front, _) in sorted(enumerate(view.sides), key=lambda p: p[0] == view.winner):
        side = layout.sides[i]
        led = (side.start[0] if front == 0 else layout.game if front >= view.target
               else layout.led_of(Hole(i, "track", (front - 1) % layout.holes_per_track + 1)))
        out[led] = side.colour
    return out


@pytest.mark.parametrize("name", PRESETS)
def test_a_scripted_game_lights_exactly_the_right_holes(name):
    layout = load_layout(name)
    rng = random.Random(name)
    n = len(layout.sides)
    scores = [(k % n, rng.choice([1, 2, 2, 3, 4, 6, 8, 12, 29])) for k in range(400)]
    for view in peg_views_from_scores(n, scores, target=layout.target):
        assert lit(board_frame(layout, view)) == expected_lit(layout, view)
    assert view.winner is not None


@given(st.integers(1, 30), st.integers(1, 8))
def test_the_cap_keeps_any_frame_within_the_budget(n_hundred_ma, supply):
    budget = PowerBudget(supply_a=supply, ma_per_channel=n_hundred_ma)
    white = [(255, 255, 255)] * 400
    capped = cap_frame(white, budget)
    assert budget.frame_ma(capped) <= budget.limit_ma


def test_a_full_white_board_is_never_asked_of_a_4a_supply():
    budget = PowerBudget(supply_a=4)
    white = [(255, 255, 255)] * 433
    assert budget.frame_ma(white) > 20_000
    capped = cap_frame(white, budget)
    assert budget.frame_ma(capped) <= 4000 * budget.headroom
    assert capped[0][0] > 0  # dimmed, not dark
    # a game's frame is far under budget and left alone
    frame = board_frame(load_layout("three-player-121"), PegView(((5, 3), (7, 0), (9, 2))))
    assert cap_frame(frame, budget) == frame
    with pytest.raises(ConfigError, match="idle"):
        cap_frame([(0, 0, 0)] * 5000, budget)


# --- animations -------------------------------------------------------------------------------------------------

def test_the_front_peg_walks_then_the_hole_blinks_once():
    layout = load_layout("two-player-121")
    anim = BoardAnimator(layout)
    anim.update(PegView(((10, 4), (0, 0))), now=0.0)
    anim.update(PegView(((22, 10), (0, 0))), now=1.0)
    red = layout.sides[0]
    path = []
    for k in range(0, 100):
        frame = anim.frame(1.0 + k / 100)
        on = [n for n in range(1, 121) if frame[red.track[n - 1]] == red.colour]
        path.append(on[0] if on else None)
    walked = [p for p in path if p is not None]
    assert walked[0] == 10 and walked[-1] == 22
    assert walked == sorted(walked) and len(set(walked)) >= 10
    # blinks once: the true hole goes dark exactly once after the walk
    runs = "".join("x" if p is None else "o" for p in path).strip("o")
    assert runs.count("x") > 0 and "ox" not in runs
    assert not anim.busy(2.0)
    assert anim.frame(2.0) == board_frame(layout, PegView(((22, 10), (0, 0))))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PRESETS), st.integers(0, 2**16), st.lists(st.integers(1, 29), min_size=1, max_size=12))
def test_animations_end_in_the_true_positions_and_never_hide_a_peg_for_a_second(name, seed, points):
    layout = load_layout(name)
    n = len(layout.sides)
    rng = random.Random(seed)
    views = peg_views_from_scores(n, [(rng.randrange(n), p) for p in points], target=layout.target)
    anim = BoardAnimator(layout)
    anim.update(PegView(((0, 0),) * n, target=layout.target), 0.0)
    hidden_since: dict[int, float] = {}
    t, step = 0.0, 0.02
    times = [0.1 + 0.35 * k for k in range(len(views))]       # scores come quickly, one on another's walk
    shown = None
    end = times[-1] + 3 * 1.5 + 1
    while t < end:
        while times and times[0] <= t:
            times.pop(0)
            shown = views.pop(0)
            anim.update(shown, t)
        frame = anim.frame(t)
        if shown is not None:
            for i, (front, _) in enumerate(shown.sides):
                led = peg_led(layout, i, front, shown.target)
                if frame[led] == (0, 0, 0) or frame[led][0] < layout.sides[i].colour[0] * 0.5:
                    hidden_since.setdefault(i, t)
                    assert t - hidden_since[i] <= 1.0, f"side {i} hidden since {hidden_since[i]}"
                else:
                    hidden_since.pop(i, None)
        t += step
    assert not anim.busy(t)
    assert anim.frame(t) == board_frame(layout, shown)


def test_the_winner_track_sweeps_without_covering_pegs():
    layout = load_layout("two-player-121")
    anim = BoardAnimator(layout)
    before, after = PegView(((115, 100), (80, 70))), PegView(((124, 115), (80, 70)), winner=0)
    anim.update(before, 0.0)
    anim.update(after, 1.0)
    still = board_frame(layout, after)
    seen = set()
    t = 1.0
    while t < 6.0:
        frame = anim.frame(t)
        if not anim.busy(t):
            break
        for led, colour in lit(still).items():
            if t > 2.0:  # after the walk and the blink: pegs never covered
                assert frame[led] == colour
        seen |= set(lit(frame)) - set(lit(still))
        t += 0.01
    red_track = set(layout.sides[0].track)
    assert seen and seen <= red_track and len(seen) > 100
    assert anim.frame(t) == still


def test_the_side_to_play_pulses_gently():
    layout = load_layout("two-player-121")
    anim = BoardAnimator(layout)
    view = PegView(((20, 11), (15, 9)), active_side=1)
    anim.update(view, 0.0)
    led = layout.led_of(Hole(1, "track", 15))
    levels = [anim.frame(k / 20)[led][2] / layout.sides[1].colour[2] for k in range(40)]
    assert max(levels) == pytest.approx(1.0, abs=0.01)
    assert 0.59 <= min(levels) < 0.7
    red = layout.led_of(Hole(0, "track", 20))
    assert {anim.frame(k / 20)[red] for k in range(40)} == {layout.sides[0].colour}


def test_undo_jumps_back_at_once():
    layout = load_layout("test-strip-30")
    anim = BoardAnimator(layout)
    anim.update(PegView(((8, 2), (0, 0)), target=25), 0.0)
    anim.update(PegView(((2, 0), (0, 0)), target=25), 0.5)
    assert anim.frame(0.5) == board_frame(layout, PegView(((2, 0), (0, 0)), target=25))


# --- the game state, duck-typed -------------------------------------------------------------------------------

def test_a_view_from_any_state_like_object():
    class S:
        def __init__(self, front, back):
            self.front, self.back, self.name, self.seats = front, back, "x", (0,)

    class State:
        sides = (S(12, 7), S(3, 0))
        target = 61
        winner = None
        turn = 3

        def side_of(self, seat):
            return seat % 2

    assert peg_view_from_state(State()) == PegView(((12, 7), (3, 0)), target=61, winner=None, active_side=1)


@pytest.mark.parametrize("variant, players, layout_name", [
    ("six-card", ("Ann", "Bob"), "two-player-121"), ("four-hand", ("Ann", "Bob", "Cy", "Di"), "four-hand-partners"),
    ("seven-card", ("Ann", "Bob"), "seven-card-181"), ("three-hand", ("Ann", "Bob", "Cy"), "three-player-121")])
def test_a_real_scripted_game_through_the_rules_engine(variant, players, layout_name):
    from companion.cards import full_deck
    from companion.rules.autoplay import script_game
    from companion.rules.game import Game

    layout = load_layout(layout_name)
    rng = random.Random(variant)

    def decks():
        while True:
            deck = full_deck()
            rng.shuffle(deck)
            yield deck

    game = Game()
    last = None
    for event in script_game(variant, players, decks()):
        game.apply(event)
        view = peg_view_from_state(game.state)
        if view.sides and view != last:
            assert lit(board_frame(layout, view)) == expected_lit(layout, view)
            last = view
    assert game.state.winner is not None and last.winner == game.state.winner
    frame = board_frame(layout, last)
    assert frame[layout.game] == layout.sides[last.winner].colour
