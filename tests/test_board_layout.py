"""Board layouts as data: every preset loads and is consistent; inconsistent layouts are refused by name."""

from __future__ import annotations

import copy
import math
import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.board.layout import Hole, boards_dir, list_layouts, load_layout, parse_layout, parse_leds
from companion.errors import LayoutError

PRESETS = ["four-hand-partners", "four-player-121", "seven-card-181", "test-strip-30", "three-player-121",
           "two-player-121", "two-player-61"]


def raw(name: str) -> dict:
    return tomllib.loads((boards_dir() / f"{name}.toml").read_text())


def test_the_presets_are_all_there():
    assert list_layouts() == PRESETS


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_is_consistent(name):
    layout = load_layout(name)
    holes = list(layout.holes())
    leds = [led for _, led in holes]
    assert len(leds) == len(set(leds))
    assert all(0 <= led < layout.leds for led in leds)
    for i, side in enumerate(layout.sides):
        assert len(side.track) == layout.holes_per_track
        assert [layout.hole_at(led) for led in side.track] == [Hole(i, "track", n)
                                                               for n in range(1, layout.holes_per_track + 1)]
    assert layout.has_positions and all(led in layout.positions for led in leds)
    # no two holes closer than the strip pitch less a little
    pts = [layout.positions[led] for led in leds]
    closest = min(math.dist(a, b) for k, a in enumerate(pts) for b in pts[k + 1:])
    assert closest > 6.0


@pytest.mark.parametrize("name, sides, per_track, target, laps", [
    ("two-player-121", 2, 120, 121, 0), ("two-player-61", 2, 60, 61, 2), ("three-player-121", 3, 120, 121, 0),
    ("four-hand-partners", 2, 120, 121, 0), ("seven-card-181", 2, 60, 181, 3), ("test-strip-30", 2, 12, 25, 0)])
def test_presets_have_the_shape_of_their_game(name, sides, per_track, target, laps):
    layout = load_layout(name)
    assert (len(layout.sides), layout.holes_per_track, layout.target) == (sides, per_track, target)
    assert all(len(s.laps) == laps for s in layout.sides)
    assert layout.game is not None


def test_the_test_strip_has_thirty_leds_and_spares():
    layout = load_layout("test-strip-30")
    assert layout.leds == 30
    assert [led for led in range(30) if layout.hole_at(led) is None] == [27, 28, 29]


def test_groups_of_five_leave_one_led_out():
    layout = load_layout("two-player-121")
    red = layout.sides[0]
    assert red.track[:7] == (0, 1, 2, 3, 4, 6, 7)
    pitch = 1000 / 144
    gap = math.dist(layout.positions[red.track[4]], layout.positions[red.track[5]])
    assert gap == pytest.approx(2 * pitch, abs=0.01)
    # a reversed segment: Blue's hole 1 is the last LED of the street
    assert layout.sides[1].track[0] == 283
    # Blue's hole 1 sits right beside Red's hole 1 ... across the board, same x
    assert layout.positions[283][0] == pytest.approx(layout.positions[0][0], abs=0.01)


def test_hole_names():
    layout = load_layout("two-player-61")
    assert layout.hole_name(Hole(0, "track", 37)) == "Red 37"
    assert layout.hole_name(Hole(1, "start", 2)) == "Blue start 2"
    assert layout.hole_name(Hole(1, "lap", 2)) == "Blue lap 2"
    assert layout.hole_name(Hole(None, "game")) == "game hole"


def test_two_holes_on_one_led_are_refused_naming_both():
    data = raw("two-player-121")
    data["side"][1]["start"] = "285-286"          # Red's start 2 is on 285 already
    with pytest.raises(LayoutError, match=r"two holes on LED 285: Red start 2 and Blue start 1"):
        parse_layout(data)


def test_an_led_beyond_the_chain_is_refused():
    data = raw("two-player-121")
    data["leds"] = 288                             # the game hole is on LED 288
    with pytest.raises(LayoutError, match=r"hole game hole is on LED 288, beyond the chain of 288 LEDs"):
        parse_layout(data)
    data = raw("test-strip-30")
    data["side"][0]["track"] = [{"holes": "1-12", "leds": "0-10, 31"}]
    with pytest.raises(LayoutError, match=r"Red 12 is on LED 31, beyond the chain of 30 LEDs"):
        parse_layout(data)


def test_a_missing_hole_is_refused():
    data = raw("two-player-121")
    data["side"][0]["track"][1] = {"holes": "61-119", "leds": "71-140", "skip": "5+1"}
    with pytest.raises(LayoutError, match=r"hole Red 120 has no LED"):
        parse_layout(data)


def test_a_segment_whose_holes_and_leds_do_not_match_is_refused():
    data = raw("test-strip-30")
    data["side"][0]["track"] = [{"holes": "1-12", "leds": "0-10"}]
    with pytest.raises(LayoutError, match=r"12 holes but leds '0-10' gives 11 LEDs"):
        parse_layout(data)


def test_a_hole_given_twice_is_refused():
    data = raw("test-strip-30")
    data["side"][0]["track"] = [{"holes": "1-12", "leds": "0-11"}, {"holes": "12", "leds": "27"}]
    with pytest.raises(LayoutError, match=r"hole 12 given twice, on LED 11 and LED 27"):
        parse_layout(data)


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(colours=1), r"unknown key 'colours'"),
    (lambda d: d["side"][0].update(colour="red"), r"colour must be \"#rrggbb\""),
    (lambda d: d["side"][0]["track"][0].update(skip="5"), r"skip must read"),
    (lambda d: d["side"][0]["track"][0].update(leds="0-x"), r"'0-x' is not a number or a range"),
    (lambda d: d.update(leds=0), r"leds must be an integer >= 1"),
    (lambda d: d.pop("game"), r"no game hole"),
    (lambda d: d["run"].pop(), r"hole Red start 1 on LED 284 has no position"),
])
def test_bad_layouts_are_refused_by_name(change, message):
    data = copy.deepcopy(raw("two-player-121"))
    change(data)
    with pytest.raises(LayoutError, match=message):
        parse_layout(data)


def test_an_unknown_preset_lists_the_presets():
    with pytest.raises(LayoutError, match=r"no board layout 'nine-player'.*two-player-121"):
        load_layout("nine-player")


def test_a_layout_file_by_path(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text((boards_dir() / "test-strip-30.toml").read_text().replace('name = "test-strip-30"\n', ""))
    assert load_layout(path).name == "mine"
    path.write_text("leds = [")
    with pytest.raises(LayoutError, match="not valid TOML"):
        load_layout(path)


@given(st.lists(st.tuples(st.integers(0, 500), st.integers(0, 500)), min_size=1, max_size=6))
def test_led_lists_read_as_written(ranges):
    spec = ", ".join(f"{a}-{b}" for a, b in ranges)
    expected = [x for a, b in ranges for x in (range(a, b + 1) if a <= b else range(a, b - 1, -1))]
    assert parse_leds(spec) == expected
