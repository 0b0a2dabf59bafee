"""Board layouts as data: which LED of the chain sits under every hole, and where the holes are on the board.

A layout is a TOML file (presets in ``companion/board/presets/``, shipped inside the package). It names the sides
and their colours, and for each side its track of holes, its start holes and optional lap indicators, each as
*segments* mapping a range of holes to a range of LEDs::

    name = "two-player-121"
    leds = 300                 # LEDs in the chain (spares past the last hole stay dark)
    holes_per_track = 120      # 120, or 60 for a short board gone round twice (121) or three times (181)
    target = 121               # the usual game on this board
    game = 288                 # LED under the shared game hole

    [[side]]
    name = "Red"
    colour = "#e8202a"
    start = "284-285"          # two start holes: front peg, back peg
    laps = "289-290"           # optional lap indicators (short boards)
    track = [
      { holes = "1-60", leds = "0-70", skip = "5+1" },      # 5 holes, 1 LED skipped, ...
      { holes = "61-120", leds = "141-71", skip = "5+1" },  # a reversed run
    ]

LED lists read ``"0-70"``, ``"141-71"`` (reversed), ``"3, 5, 7-9"`` or a TOML list of ints. ``skip = "5+1"`` uses
five LEDs then skips one, along the list: the usual way to leave a gap between groups of five on a 144 LEDs/m strip.

Where the LEDs are (for the drilling template and the on-screen board) is given per run of the strip::

    [strip]
    pitch_mm = 6.944           # 144 LEDs per metre
    hole_mm = 3.2              # drill for the light hole
    [[run]]
    leds = "0-70"
    from = [30.0, 12.0]        # position of the first LED of the run, mm from the board's top-left corner
    direction = "right"        # right, left, up, down, or degrees (0 = right, 90 = down)
    [[run]]
    leds = "284-288"
    points = [[14, 12], [14, 24], [14, 46], [14, 58], [8, 35]]   # or every LED placed by hand (custom PCB)

An inconsistent layout is refused with :class:`~companion.errors.LayoutError` naming the hole and the LED.

>>> layout = load_layout("test-strip-30")
>>> layout.led_of(Hole(0, "track", 1)), layout.hole_name(layout.hole_at(24))
(0, 'Blue 1')
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import ConfigError, LayoutError

RGB = tuple[int, int, int]
Point = tuple[float, float]

PRESETS_PACKAGE = __package__ or "companion.board"
"""The preset layouts are package data, ``presets/*.toml`` of this package, found through importlib.resources so a
wheel install (``pip install .``) has them as an editable one does (override with ``$COMPANION_BOARDS``)."""

_DIRECTIONS = {"right": 0.0, "down": 90.0, "left": 180.0, "up": 270.0}
_TOP_KEYS = {"name", "title", "leds", "holes_per_track", "target", "game", "side", "strip", "run", "notes"}
_SIDE_KEYS = {"name", "colour", "color", "start", "laps", "track", "game"}
_SEGMENT_KEYS = {"holes", "leds", "skip"}
_STRIP_KEYS = {"pitch_mm", "hole_mm", "margin_mm"}
_RUN_KEYS = {"leds", "from", "direction", "pitch_mm", "points", "skip"}


class Hole(NamedTuple):
    """One hole of the board: ``side`` index (None for the shared game hole), ``kind`` and ``number`` (from 1).

    Kinds: ``"track"`` (holes 1..holes_per_track), ``"start"``, ``"lap"`` (lap indicator), ``"game"``.
    """

    side: int | None
    kind: str
    number: int = 1


@dataclass(frozen=True)
class Side:
    """One side's holes as LED indices: ``track[0]`` is hole 1."""

    name: str
    colour: RGB
    track: tuple[int, ...]
    start: tuple[int, ...] = ()
    laps: tuple[int, ...] = ()
    game: int | None = None


@dataclass(frozen=True)
class Layout:
    """A validated board layout. Build with :func:`load_layout` or :func:`parse_layout`."""

    name: str
    title: str
    leds: int
    holes_per_track: int
    target: int
    sides: tuple[Side, ...]
    game: int | None
    positions: Mapping[int, Point] = field(default_factory=dict)
    hole_mm: float = 3.2
    margin_mm: float = 10.0
    _by_led: Mapping[int, Hole] = field(default_factory=dict, repr=False, compare=False)

    def holes(self) -> Iterator[tuple[Hole, int]]:
        """Every hole with its LED, in board-test order: per side start, track, laps; the game hole last."""
        for i, side in enumerate(self.sides):
            yield from ((Hole(i, "start", n), led) for n, led in enumerate(side.start, 1))
            yield from ((Hole(i, "track", n), led) for n, led in enumerate(side.track, 1))
            yield from ((Hole(i, "lap", n), led) for n, led in enumerate(side.laps, 1))
            if side.game is not None:
                yield Hole(i, "game"), side.game
        if self.game is not None:
            yield Hole(None, "game"), self.game

    def led_of(self, hole: Hole) -> int:
        """The LED index under ``hole``; ``KeyError`` if the board has no such hole."""
        for h, led in self.holes():
            if h == hole:
                return led
        raise KeyError(hole)

    def hole_at(self, led: int) -> Hole | None:
        """The hole over LED ``led``, or None for a spare or skipped LED."""
        return self._by_led.get(led)

    def game_led(self, side: int) -> int | None:
        """The game hole a side pegs out into: its own if it has one, else the shared one."""
        own = self.sides[side].game
        return self.game if own is None else own

    def hole_name(self, hole: Hole) -> str:
        """A hole as a builder reads it: ``"Red 37"``, ``"Red start 1"``, ``"Blue lap 2"``, ``"game hole"``."""
        if hole.side is None:
            return "game hole"
        side = self.sides[hole.side].name
        return {"track": f"{side} {hole.number}", "game": f"{side} game hole"}.get(
            hole.kind, f"{side} {hole.kind} {hole.number}")

    @property
    def has_positions(self) -> bool:
        return bool(self.positions)

    def size_mm(self) -> tuple[float, float]:
        """Board size: the holes' bounding box from (0, 0) plus the margin."""
        xs = [p[0] for p in self.positions.values()] or [0.0]
        ys = [p[1] for p in self.positions.values()] or [0.0]
        return max(xs) + self.margin_mm, max(ys) + self.margin_mm


def _hole_str(hole: Hole, sides: Sequence[Mapping[str, Any]]) -> str:
    if hole.side is None:
        return "game hole"
    name = sides[hole.side].get("name", f"side {hole.side + 1}")
    return f"{name} {hole.number}" if hole.kind == "track" else f"{name} {hole.kind} {hole.number}"


_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def parse_leds(spec: str | int | Sequence[int], *, where: str = "leds") -> list[int]:
    """An LED list from its notation: ``"0-70"``, ``"141-71"`` (descending), ``"3, 5, 7-9"``, ``[1, 2]`` or ``7``.

    >>> parse_leds("3-1, 7")
    [3, 2, 1, 7]
    """
    if isinstance(spec, bool):
        raise LayoutError(f"{where}: expected LED numbers like \"0-59\", got {spec!r}")
    if isinstance(spec, int):
        return [spec]
    if isinstance(spec, str):
        out: list[int] = []
        for part in spec.split(","):
            m = _RANGE.match(part)
            if not m:
                raise LayoutError(f"{where}: {part.strip()!r} is not a number or a range like \"0-59\" in {spec!r}")
            a, b = int(m[1]), int(m[2] if m[2] is not None else m[1])
            out.extend(range(a, b + 1) if a <= b else range(a, b - 1, -1))
        return out
    if isinstance(spec, Sequence) and all(isinstance(x, int) and not isinstance(x, bool) for x in spec):
        return [int(x) for x in spec]
    raise LayoutError(f"{where}: expected LED numbers like \"0-59\" or a list of integers, got {spec!r}")


def _apply_skip(leds: list[int], skip: str | None, where: str) -> list[int]:
    if skip is None:
        return leds
    m = re.fullmatch(r"\s*(\d+)\s*\+\s*(\d+)\s*", str(skip))
    if not m or int(m[1]) < 1:
        raise LayoutError(f"{where}: skip must read \"USED+SKIPPED\" like \"5+1\", got {skip!r}")
    used, skipped = int(m[1]), int(m[2])
    return [led for i, led in enumerate(leds) if i % (used + skipped) < used]


def _check_keys(table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise LayoutError(f"{where}: unknown key {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})")


def _parse_colour(value: Any, where: str) -> RGB:
    if isinstance(value, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)
    if isinstance(value, list) and len(value) == 3 and all(isinstance(c, int) and 0 <= c <= 255 for c in value):
        return value[0], value[1], value[2]
    raise LayoutError(f"{where}: colour must be \"#rrggbb\" or [r, g, b], got {value!r}")


def _int(table: Mapping[str, Any], key: str, where: str, *, default: int | None = None, low: int = 1) -> int:
    value = table.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise LayoutError(f"{where}: {key} must be an integer >= {low}, got {value!r}")
    return value


def _parse_track(segments: Any, holes_per_track: int, where: str) -> dict[int, int]:
    if not isinstance(segments, list) or not segments:
        raise LayoutError(f"{where}: track must be a list of segments like {{holes = \"1-60\", leds = \"0-59\"}}")
    track: dict[int, int] = {}
    for seg in segments:
        if not isinstance(seg, dict):
            raise LayoutError(f"{where}: each track segment is a table, got {seg!r}")
        _check_keys(seg, _SEGMENT_KEYS, f"{where} segment {seg.get('holes')!r}")
        seg_where = f"{where} segment holes {seg.get('holes')!r}"
        holes = parse_leds(seg.get("holes", ""), where=seg_where)
        leds = _apply_skip(parse_leds(seg.get("leds", ""), where=seg_where), seg.get("skip"), seg_where)
        if len(holes) != len(leds):
            raise LayoutError(
                f"{seg_where}: {len(holes)} holes but leds {seg.get('leds')!r} gives {len(leds)} LEDs")
        for hole, led in zip(holes, leds):
            if not 1 <= hole <= holes_per_track:
                raise LayoutError(f"{where}: hole {hole} on LED {led} is outside 1-{holes_per_track}")
            if hole in track:
                raise LayoutError(f"{where}: hole {hole} given twice, on LED {track[hole]} and LED {led}")
            track[hole] = led
    return track


def _parse_side(i: int, raw: Any, holes_per_track: int) -> Side:
    if not isinstance(raw, dict):
        raise LayoutError(f"side {i + 1}: expected a [[side]] table, got {raw!r}")
    name = str(raw.get("name", f"side {i + 1}"))
    where = f"side {name!r}"
    _check_keys(raw, _SIDE_KEYS, where)
    colour = _parse_colour(raw.get("colour", raw.get("color")), where)
    track = _parse_track(raw.get("track"), holes_per_track, where)
    for hole in range(1, holes_per_track + 1):
        if hole not in track:
            raise LayoutError(f"{where}: hole {name} {hole} has no LED (the track must cover holes "
                              f"1-{holes_per_track}; add it to a segment)")
    start = parse_leds(raw.get("start", []), where=f"{where} start")
    laps = parse_leds(raw.get("laps", []), where=f"{where} laps")
    game = raw.get("game")
    if game is not None and (not isinstance(game, int) or isinstance(game, bool)):
        raise LayoutError(f"{where}: game must be one LED index, got {game!r}")
    return Side(name, colour, tuple(track[h] for h in range(1, holes_per_track + 1)), tuple(start), tuple(laps), game)


def _parse_positions(data: Mapping[str, Any]) -> tuple[dict[int, Point], float, float]:
    strip = data.get("strip", {})
    _check_keys(strip, _STRIP_KEYS, "[strip]")
    pitch = float(strip.get("pitch_mm", 1000 / 144))
    positions: dict[int, Point] = {}
    for k, run in enumerate(data.get("run", []), 1):
        where = f"run {k} (leds {run.get('leds')!r})"
        _check_keys(run, _RUN_KEYS, where)
        leds = parse_leds(run.get("leds", ""), where=where)
        if "points" in run:
            points = run["points"]
            if len(points) != len(leds):
                raise LayoutError(f"{where}: {len(leds)} LEDs but {len(points)} points")
            placed = [(float(p[0]), float(p[1])) for p in points]
        else:
            x0, y0 = (float(v) for v in run.get("from", (0, 0)))
            direction = run.get("direction", "right")
            angle = math.radians(_DIRECTIONS[direction] if direction in _DIRECTIONS else float(direction))
            step = float(run.get("pitch_mm", pitch))
            placed = [(round(x0 + i * step * math.cos(angle), 3), round(y0 + i * step * math.sin(angle), 3))
                      for i in range(len(leds))]
        for led, p in zip(leds, placed):
            if led in positions:
                raise LayoutError(f"{where}: LED {led} placed twice")
            positions[led] = p
    return positions, float(strip.get("hole_mm", 3.2)), float(strip.get("margin_mm", 10.0))


def parse_layout(data: Mapping[str, Any], *, name: str = "layout") -> Layout:
    """Validate a layout given as a mapping (a parsed TOML file) and return the :class:`Layout`.

    Raises :class:`LayoutError` naming the hole and the LED for two holes on one LED, an LED beyond the chain,
    a hole with no LED, a segment whose holes and LEDs do not match, or an unknown key.
    """
    _check_keys(data, _TOP_KEYS, f"layout {name!r}")
    name = str(data.get("name", name))
    n_leds = _int(data, "leds", f"layout {name!r}")
    per_track = _int(data, "holes_per_track", f"layout {name!r}", default=120)
    target = _int(data, "target", f"layout {name!r}", default=121, low=2)
    raw_sides = data.get("side", [])
    if not isinstance(raw_sides, list) or not raw_sides:
        raise LayoutError(f"layout {name!r}: needs at least one [[side]]")
    sides = tuple(_parse_side(i, raw, per_track) for i, raw in enumerate(raw_sides))
    game = data.get("game")
    if game is not None and (not isinstance(game, int) or isinstance(game, bool)):
        raise LayoutError(f"layout {name!r}: game must be one LED index, got {game!r}")
    if game is None and any(s.game is None for s in sides):
        raise LayoutError(f"layout {name!r}: no game hole: give `game = LED` or a game LED for every side")
    positions, hole_mm, margin = _parse_positions(data)
    layout = Layout(name, str(data.get("title", name)), n_leds, per_track, target, sides, game, positions,
                    hole_mm, margin)
    by_led: dict[int, Hole] = {}
    for hole, led in layout.holes():
        label = _hole_str(hole, raw_sides)
        if not isinstance(led, int) or not 0 <= led < n_leds:
            raise LayoutError(f"layout {name!r}: hole {label} is on LED {led}, beyond the chain of {n_leds} LEDs "
                              f"(0-{n_leds - 1})")
        if led in by_led:
            raise LayoutError(f"layout {name!r}: two holes on LED {led}: {_hole_str(by_led[led], raw_sides)} "
                              f"and {label}")
        by_led[led] = hole
        if positions and led not in positions:
            raise LayoutError(f"layout {name!r}: hole {label} on LED {led} has no position (add it to a [[run]])")
    object.__setattr__(layout, "_by_led", by_led)
    return layout


def boards_dir() -> Traversable:
    """The folder of preset layouts: ``$COMPANION_BOARDS``, or ``presets/`` inside this package (a plain folder
    in a source checkout or a wheel install, readable through :mod:`importlib.resources` either way)."""
    override = os.environ.get("COMPANION_BOARDS")
    return Path(override) if override else files(PRESETS_PACKAGE) / "presets"


def list_layouts() -> list[str]:
    """Names of the preset layouts, e.g. ``['four-hand-partners', ..., 'two-player-61']``."""
    folder = boards_dir()
    if not folder.is_dir():
        return []
    return sorted(p.name[:-len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml") and p.is_file())


def load_layout(name_or_path: str | os.PathLike[str]) -> Layout:
    """Read and validate a layout: a preset name (``"two-player-121"``) or a path to a TOML file."""
    path: Traversable = Path(name_or_path)
    if Path(name_or_path).suffix != ".toml":
        path = boards_dir() / f"{name_or_path}.toml"
    if not path.is_file():
        raise LayoutError(f"no board layout {str(name_or_path)!r}: expected a .toml file or one of "
                          f"{', '.join(list_layouts()) or '(no presets found in ' + str(boards_dir()) + ')'}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise LayoutError(f"layout {str(path)!r} is not valid TOML: {exc}") from None
    return parse_layout(data, name=path.name[:-len(".toml")])


def track_capacity(layout: Layout, side: int) -> int:
    """The highest score ``side`` can show on a track hole: its holes once round, or once per lap indicator on a
    short board gone round several times (a 60-hole track with three lap LEDs shows up to 180)."""
    return layout.holes_per_track * max(1, len(layout.sides[side].laps))


def check_fits(layout: Layout, sides: int, target: int) -> None:
    """Refuse, before the game starts, a board that cannot show a game of ``sides`` scoring sides to ``target``.

    ``sides`` counts the pegging sides, not the players: 2 for two players and for four-hand partners, 3 for
    three-hand, 4 for four players individually. A side's track must reach ``target - 1`` (the target itself is
    the game hole): ``holes_per_track`` once round, or once per lap indicator. More sides than the game has are
    fine (the spare tracks stay dark). Raises :class:`~companion.errors.ConfigError` naming the layout, what it
    has, what the game needs and the presets that would do.

    >>> check_fits(load_layout("two-player-121"), sides=2, target=121)      # fits: nothing happens
    >>> check_fits(load_layout("two-player-121"), sides=4, target=121)      # four players individually
    Traceback (most recent call last):
    ...
    companion.errors.ConfigError: board.layout: 'two-player-121' has 2 sides but the game needs 4 sides (to 121): ...
    >>> check_fits(load_layout("two-player-121"), sides=2, target=181)      # the seven-card game
    Traceback (most recent call last):
    ...
    companion.errors.ConfigError: board.layout: 'two-player-121' counts to 121 but the game needs 2 sides to 181: ...

    The message ends with the presets that would do, e.g. "choose a layout with 4 sides, e.g. four-player-121".
    """
    if not isinstance(sides, int) or sides < 1:
        raise ValueError(f"sides must be a positive number, got {sides!r}")
    if len(layout.sides) < sides:
        problem = f"has {len(layout.sides)} sides but the game needs {sides} sides (to {target})"
        want = f"a layout with {sides} sides"
    else:
        reach = min(track_capacity(layout, i) for i in range(sides)) + 1
        if reach >= target:
            return
        problem = f"counts to {reach} but the game needs {sides} sides to {target}"
        want = f"a layout that counts to {target}"
    fitting = [layout for layout in _presets() if _fits(layout, sides, target)]
    # the presets made for this game first (same sides, same target), then the bigger ones
    fitting.sort(key=lambda p: (len(p.sides) != sides, p.target != target, p.name))
    hint = (f", e.g. {', '.join(p.name for p in fitting[:3])}" if fitting
            else " (no preset does: see hardware/README.md, \"Your own layout\")")
    raise ConfigError(f"board.layout: {layout.name!r} {problem}: choose {want}{hint}")


def preset_for(sides: int, target: int) -> str | None:
    """The preset made for a game of ``sides`` scoring sides to ``target`` (or the smallest bigger one that can show
    it), or ``None`` if none can.

    >>> preset_for(4, 121), preset_for(2, 181), preset_for(3, 61)
    ('four-player-121', 'seven-card-181', 'three-player-121')
    """
    fitting = [layout for layout in _presets() if _fits(layout, sides, target)]
    fitting.sort(key=lambda p: (len(p.sides) != sides, p.target != target, p.leds, p.name))
    return fitting[0].name if fitting else None


def _presets() -> list[Layout]:
    out = []
    for name in list_layouts():
        try:
            out.append(load_layout(name))
        except LayoutError:  # a broken override folder must not hide the real message
            continue
    return out


def _fits(layout: Layout, sides: int, target: int) -> bool:
    """A preset worth suggesting: enough sides, made for a game at least this long, and able to show it."""
    return (len(layout.sides) >= sides and layout.target >= target
            and min(track_capacity(layout, i) for i in range(sides)) + 1 >= target)
