"""Issue 15: a board that cannot show the game is refused at start, by name (``layout.check_fits``)."""

from __future__ import annotations

import pytest

from companion.board.layout import check_fits, load_layout
from companion.board.pegs import PegView, board_frame
from companion.errors import ConfigError

# (variant as RULES.md names it, scoring sides, target): partners share a side, four individually do not
GAMES = [("six-card", 2, 121), ("six-card 61", 2, 61), ("five-card", 2, 61), ("seven-card", 2, 181),
         ("three-hand", 3, 61), ("four-hand partners", 2, 121), ("four individually", 4, 121)]


@pytest.mark.parametrize("layout, sides, target", [
    ("two-player-121", 4, 121), ("two-player-121", 3, 121), ("four-hand-partners", 4, 121),
    ("three-player-121", 4, 121), ("two-player-61", 3, 61), ("seven-card-181", 4, 121)])
def test_too_few_sides_is_refused_naming_the_layout_the_sides_and_a_preset_that_fits(layout, sides, target):
    with pytest.raises(ConfigError) as exc:
        check_fits(load_layout(layout), sides, target)
    message = str(exc.value)
    assert message.startswith(f"board.layout: {layout!r} has {len(load_layout(layout).sides)} sides")
    assert f"needs {sides} sides" in message and str(target) in message
    suggested = message.split("e.g. ")[1].split(", ")
    for name in suggested:  # every suggestion really fits
        check_fits(load_layout(name), sides, target)


@pytest.mark.parametrize("layout", ["two-player-121", "three-player-121", "four-hand-partners", "four-player-121"])
def test_a_121_board_is_refused_for_a_181_game(layout):
    with pytest.raises(ConfigError, match=rf"board.layout: '{layout}' counts to 121 but .* to 181: .*seven-card-181"):
        check_fits(load_layout(layout), 2, 181)


def test_the_test_strip_fits_no_real_game():
    with pytest.raises(ConfigError, match="'test-strip-30' counts to 13"):
        check_fits(load_layout("test-strip-30"), 2, 61)


@pytest.mark.parametrize("variant, sides, target", GAMES)
def test_every_variant_has_a_preset_that_fits(variant, sides, target):
    from companion.board.layout import list_layouts
    fitting = []
    for name in list_layouts():
        try:
            check_fits(load_layout(name), sides, target)
            fitting.append(name)
        except ConfigError:
            pass
    assert fitting, f"no preset for {variant}"


@pytest.mark.parametrize("layout, sides, target", [
    ("two-player-121", 2, 121), ("two-player-121", 2, 61), ("two-player-61", 2, 121), ("seven-card-181", 2, 181),
    ("three-player-121", 3, 61), ("three-player-121", 2, 121), ("four-hand-partners", 2, 121),
    ("four-player-121", 4, 121)])
def test_a_board_that_fits_is_accepted_and_really_shows_every_score(layout, sides, target):
    board = load_layout(layout)
    check_fits(board, sides, target)
    # what "fits" promises: every score of every side lights its own LED, distinct from the other scores' LEDs
    for side in range(sides):
        seen = set()
        for score in range(1, target):
            pegs = tuple((score, 0) if i == side else (0, 0) for i in range(sides))
            frame = board_frame(board, PegView(pegs, target=target))
            lit = frozenset(i for i, c in enumerate(frame) if c != (0, 0, 0))
            assert lit not in seen, f"{layout}: side {side} score {score} looks like an earlier score"
            seen.add(lit)
