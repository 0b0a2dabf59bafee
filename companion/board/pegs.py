"""Pegs to light: a pure function from the pegs of every side to an LED frame, and the brightness cap.

A frame is a list of ``(r, g, b)`` tuples, one per LED of the chain, each channel 0-255. Every side's front peg is
lit bright and its back peg dim, in the side's colour; before the first score both pegs sit in the start holes; a
side at or past the target is on the game hole; on a short board the lap indicator of the front peg is lit.

>>> from companion.board.layout import load_layout
>>> layout = load_layout("test-strip-30")
>>> frame = board_frame(layout, PegView(sides=((5, 2), (0, 0)), target=25))
>>> frame[4], frame[1]            # Red's front peg on hole 5 (LED 4), back peg on hole 2 (LED 1)
((232, 32, 42), (58, 8, 10))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError
from .layout import RGB, Layout

Frame = list[RGB]

FRONT_LEVEL = 1.0
BACK_LEVEL = 0.25
LAP_LEVEL = 0.5


@dataclass(frozen=True)
class PegView:
    """What the board shows: ``sides`` as ``(front, back)`` scores, the game's ``target``, the ``winner`` side
    (or None) and the ``active_side`` whose turn or decision it is (or None).

    >>> PegView(sides=((7, 3), (0, 0)), active_side=1).sides[0]
    (7, 3)
    """

    sides: tuple[tuple[int, int], ...]
    target: int = 121
    winner: int | None = None
    active_side: int | None = None


def peg_view_from_state(state: Any) -> PegView:
    """A :class:`PegView` from a game state, read duck-typed: ``state.sides[i].front/.back``, ``state.target``,
    ``state.winner`` and ``state.turn`` with ``state.side_of(seat)``; in the show, when no one has the turn, the
    seat to count next (``state.next_show``, if the state has it) is the one whose decision it is. Nothing of the
    rules engine is imported."""
    sides = tuple((int(s.front), int(s.back)) for s in state.sides)
    seat = getattr(state, "turn", None)
    if seat is None:
        seat = getattr(state, "next_show", None)
    active = None
    if isinstance(seat, int) and not isinstance(seat, bool) and getattr(state, "winner", None) is None:
        active = state.side_of(seat) if hasattr(state, "side_of") else None
    return PegView(sides=sides, target=int(state.target), winner=getattr(state, "winner", None), active_side=active)


def peg_views_from_scores(n_sides: int, scores: Sequence[tuple[int, int]], *, target: int = 121) -> list[PegView]:
    """The views after each of a scripted list of ``(side, points)``: front moves on, back takes the old front.

    >>> [v.sides for v in peg_views_from_scores(2, [(0, 2), (1, 5), (0, 3)])][-1]
    ((5, 2), (5, 0))
    """
    pegs = [(0, 0)] * n_sides
    views = []
    winner = None
    for side, points in scores:
        if winner is not None:
            break
        front, _ = pegs[side]
        pegs[side] = (front + points, front)
        if front + points >= target:
            winner = side
        views.append(PegView(sides=tuple(pegs), target=target, winner=winner))
    return views


def scale(colour: RGB, level: float) -> RGB:
    """A colour at ``level`` (0-1) of its brightness, rounded."""
    return (round(colour[0] * level), round(colour[1] * level), round(colour[2] * level))


def peg_led(layout: Layout, side: int, score: int, target: int, *, back: bool = False) -> int | None:
    """The LED under a peg at ``score``: a start hole at 0 (the second one for the back peg), the track hole of
    the lap, or the game hole at or past the target. None if the board has no such hole (no start holes)."""
    s = layout.sides[side]
    if score <= 0:
        if not s.start:
            return None
        return s.start[min(1 if back else 0, len(s.start) - 1)]
    if score >= target:
        return layout.game_led(side)
    return s.track[(score - 1) % layout.holes_per_track]


def lap_of(layout: Layout, score: int, target: int) -> int:
    """The lap (1, 2, 3...) a score is on; 0 at the start, and the last lap at or past the target."""
    if score <= 0:
        return 0
    return (min(score, target - 1) - 1) // layout.holes_per_track + 1


def board_frame(layout: Layout, view: PegView, *, front_level: float = FRONT_LEVEL,
                back_level: float = BACK_LEVEL, lap_level: float = LAP_LEVEL) -> Frame:
    """The LED frame showing ``view`` on ``layout``. Pure: the same view always gives the same frame.

    Back pegs are drawn first so a front peg sharing a hole wins; on the shared game hole the winner is drawn last.
    """
    frame: Frame = [(0, 0, 0)] * layout.leds
    order = sorted(range(len(view.sides)), key=lambda i: i == view.winner)
    for i in order:
        if i >= len(layout.sides):
            break
        front, back = view.sides[i]
        colour = layout.sides[i].colour
        led = peg_led(layout, i, back, view.target, back=True)
        if led is not None and (back != front or back == 0):
            frame[led] = scale(colour, back_level)
        lap = lap_of(layout, front, view.target)
        laps = layout.sides[i].laps
        if 1 <= lap <= len(laps) and view.target - 1 > layout.holes_per_track:
            frame[laps[lap - 1]] = scale(colour, lap_level)
    for i in order:
        if i >= len(layout.sides):
            break
        led = peg_led(layout, i, view.sides[i][0], view.target)
        if led is not None:
            frame[led] = scale(layout.sides[i].colour, front_level)
    return frame


@dataclass(frozen=True)
class PowerBudget:
    """The current a chain may draw: ``ma_per_channel`` at full (255) for each of R, G, B of one LED,
    ``idle_ma`` per LED even when dark, and the supply limit ``supply_a`` of which ``headroom`` may be used.

    A 144/m APA102 strip draws about 20 mA per channel at full and 1 mA idle; a full white 400-LED board would
    want 24 A, so on a 4 A supply :func:`cap_frame` scales it down to fit.

    >>> PowerBudget(supply_a=4).limit_ma
    3400.0
    """

    ma_per_channel: float = 20.0
    supply_a: float = 4.0
    idle_ma: float = 1.0
    headroom: float = 0.85

    def __post_init__(self) -> None:
        if self.ma_per_channel <= 0 or self.supply_a <= 0 or not 0 < self.headroom <= 1 or self.idle_ma < 0:
            raise ConfigError(f"power budget: ma_per_channel and supply_a must be > 0, headroom in (0, 1], "
                              f"idle_ma >= 0; got {self!r}")

    @property
    def limit_ma(self) -> float:
        return self.supply_a * 1000.0 * self.headroom

    def frame_ma(self, frame: Sequence[RGB], *, global_level: float = 1.0) -> float:
        """The current ``frame`` would draw, in mA (``global_level``: the driver's global brightness, 0-1)."""
        total = sum(r + g + b for r, g, b in frame)
        return len(frame) * self.idle_ma + total * self.ma_per_channel / 255.0 * global_level


def cap_frame(frame: Sequence[RGB], budget: PowerBudget, *, global_level: float = 1.0) -> Frame:
    """``frame`` scaled down, if need be, so the chain stays within ``budget``; otherwise returned unchanged.

    Raises :class:`ConfigError` if the dark chain alone (idle current) is over budget.

    >>> white = [(255, 255, 255)] * 400
    >>> capped = cap_frame(white, PowerBudget(supply_a=4))
    >>> PowerBudget(supply_a=4).frame_ma(capped) <= 3400
    True
    """
    idle = len(frame) * budget.idle_ma
    if idle >= budget.limit_ma:
        raise ConfigError(f"power budget: {len(frame)} LEDs idle at {budget.idle_ma} mA already draw {idle:.0f} mA, "
                          f"over the {budget.limit_ma:.0f} mA allowed on a {budget.supply_a} A supply")
    want = budget.frame_ma(frame, global_level=global_level) - idle
    room = budget.limit_ma - idle
    if want <= room:
        return list(frame)
    k = room / want
    # floor, so rounding never takes the chain back over the limit
    return [(int(r * k), int(g * k), int(b * k)) for r, g, b in frame]
