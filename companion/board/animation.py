"""Animations that help at a table, with time passed in explicitly (no hidden clock), so tests are deterministic.

- the front peg *walks* hole by hole to its new hole when points are scored, then that hole *blinks* once;
- the winner's track is *swept* by a short comet (drawn only on dark holes, so no peg is covered);
- the front peg of the side whose turn or decision it is *pulses* gently (never below 60 %);
- on single-colour chains (MAX7219: one brightness for every LED) the back pegs *wink* off briefly every two
  seconds, so front and back can be told apart (``back_wink``).

No animation hides a true peg position for more than a second: a walk lasts at most 0.6 s and the blink
0.2 s after it. When every animation is over, :meth:`BoardAnimator.frame` equals :func:`~.pegs.board_frame`.

>>> from companion.board.layout import load_layout
>>> from companion.board.pegs import PegView, board_frame
>>> layout = load_layout("test-strip-30")
>>> anim = BoardAnimator(layout)
>>> anim.update(PegView(((0, 0), (0, 0)), target=25), now=0.0)
>>> anim.update(PegView(((6, 0), (0, 0)), target=25), now=1.0)
>>> anim.frame(1.13)[2]                     # mid-walk: the peg is on hole 3
(232, 32, 42)
>>> anim.frame(3.0) == board_frame(layout, PegView(((6, 0), (0, 0)), target=25))
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .layout import Layout
from .pegs import Frame, PegView, board_frame, peg_led, scale


@dataclass(frozen=True)
class _Walk:
    side: int
    start: int
    end: int
    t0: float
    duration: float


class BoardAnimator:
    """Turns a sequence of :class:`~.pegs.PegView` updates into animated frames.

    Call :meth:`update` with each new view and the time, and :meth:`frame` with the time whenever a frame is
    wanted. Times are seconds on any monotonic clock the caller chooses.
    """

    def __init__(self, layout: Layout, *, seconds_per_hole: float = 0.04, max_walk: float = 0.6,
                 blink_delay: float = 0.1, blink: float = 0.2, pulse_period: float = 2.0, pulse_depth: float = 0.4,
                 sweep: float = 1.5, sweeps: int = 2, comet: tuple[float, ...] = (0.5, 0.3, 0.15, 0.07),
                 back_wink: tuple[float, float] | None = None) -> None:
        if max_walk + blink_delay + blink > 1.0:
            raise ValueError("max_walk + blink_delay + blink must not exceed 1 s: a peg may be hidden at most 1 s")
        self.layout = layout
        self.seconds_per_hole = seconds_per_hole
        self.max_walk = max_walk
        self.blink_delay = blink_delay
        self.blink = blink
        self.pulse_period = pulse_period
        self.pulse_depth = min(max(pulse_depth, 0.0), 0.4)
        self.sweep = sweep
        self.sweeps = sweeps
        self.comet = comet
        if back_wink is not None and not 0 < back_wink[1] <= min(1.0, back_wink[0] / 2):
            raise ValueError("back_wink is (period, off) with off at most 1 s and half the period")
        self.back_wink = back_wink
        self.view: PegView | None = None
        self._walks: dict[int, _Walk] = {}
        self._pulse_t0 = 0.0
        self._sweep_t0: float | None = None

    def update(self, view: PegView, now: float) -> None:
        """Take the new true view at time ``now``: start walks for fronts that moved on, the sweep on a win."""
        old = self.view
        self.view = view
        if old is None:
            self._pulse_t0 = now
            return
        for i, (front, _) in enumerate(view.sides):
            before = old.sides[i][0] if i < len(old.sides) else 0
            if front > before and self._animating(i, now):
                self._walks.pop(i, None)  # scored again mid-walk: show the truth at once rather than hide it longer
            elif front > before:
                holes = min(front, view.target) - before
                duration = min(self.max_walk, self.seconds_per_hole * holes)
                self._walks[i] = _Walk(i, before, min(front, view.target), now, duration)
            elif front < before:  # undo: jump straight back
                self._walks.pop(i, None)
        if view.active_side != old.active_side:
            self._pulse_t0 = now
        if view.winner is not None and old.winner is None:
            walk = self._walks.get(view.winner)
            self._sweep_t0 = now if walk is None else walk.t0 + walk.duration + self.blink_delay + self.blink
        elif view.winner is None:
            self._sweep_t0 = None

    def _animating(self, side: int, now: float) -> bool:
        walk = self._walks.get(side)
        return walk is not None and now < walk.t0 + walk.duration + self.blink_delay + self.blink

    def busy(self, now: float) -> bool:
        """True while a walk, blink or sweep is running (the pulse goes on for ever and does not count)."""
        if any(now < w.t0 + w.duration + self.blink_delay + self.blink for w in self._walks.values()):
            return True
        return self._sweep_t0 is not None and now < self._sweep_t0 + self.sweep * self.sweeps

    def frame(self, now: float) -> Frame:
        """The frame to show at time ``now``."""
        view = self.view
        if view is None:
            return [(0, 0, 0)] * self.layout.leds
        shown = list(view.sides)
        blinking: list[int] = []
        walking: set[int] = set()
        for i, w in self._walks.items():
            t = now - w.t0
            if t < w.duration:
                shown[i] = (w.start + int((w.end - w.start) * t / w.duration), shown[i][1])
                walking.add(i)
            elif w.duration + self.blink_delay <= t < w.duration + self.blink_delay + self.blink:
                blinking.append(i)
        frame = board_frame(self.layout, replace(view, sides=tuple(shown)))
        self._draw_sweep(frame, view, now)
        if self.back_wink is not None and now % self.back_wink[0] >= self.back_wink[0] - self.back_wink[1]:
            fronts = {peg_led(self.layout, i, f, view.target) for i, (f, _) in enumerate(shown)}
            for i, (_, back) in enumerate(view.sides):
                led = peg_led(self.layout, i, back, view.target, back=True)
                if led is not None and led not in fronts:
                    frame[led] = (0, 0, 0)
        for i in blinking:
            led = peg_led(self.layout, i, view.sides[i][0], view.target)
            if led is not None:
                frame[led] = (0, 0, 0)
        side = view.active_side
        if side is not None and side not in walking and side not in blinking and side < len(self.layout.sides):
            phase = 2 * math.pi * (now - self._pulse_t0) / self.pulse_period
            level = 1.0 - self.pulse_depth * (0.5 - 0.5 * math.cos(phase))
            led = peg_led(self.layout, side, view.sides[side][0], view.target)
            if led is not None:
                frame[led] = scale(self.layout.sides[side].colour, level)
        return frame

    def _draw_sweep(self, frame: Frame, view: PegView, now: float) -> None:
        if self._sweep_t0 is None or view.winner is None or view.winner >= len(self.layout.sides):
            return
        t = now - self._sweep_t0
        if not 0 <= t < self.sweep * self.sweeps:
            return
        side = self.layout.sides[view.winner]
        path = list(side.track)
        game = self.layout.game_led(view.winner)
        if game is not None:
            path.append(game)
        head = int((t % self.sweep) / self.sweep * len(path))
        for k, level in enumerate(self.comet):
            if 0 <= head - k < len(path):
                led = path[head - k]
                if frame[led] == (0, 0, 0):
                    frame[led] = scale(side.colour, level)
