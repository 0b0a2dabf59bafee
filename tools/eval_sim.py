"""Measure the card reader on a simulated game: every few seconds of a demo game rendered and read.

    python -m tools.eval_sim [--variant six-card] [--seeds 1,2,3,4] [--step 1.0] [--reader new]

For each seed, the demo game of that variant is laid out on the simulated table (``companion.demo.demo_table``, the
bundled photo deck at 1920x1080) and a still frame is taken every ``--step`` seconds, leaving out the moments a
card is being carried. Each frame is read, and compared with what the simulator says is visible there:
- a "card-look" is one visible face-up card in one frame;
- "missed" is a card-look the reader did not name;
- "misread" is a card named that is neither visible nor anywhere on the table.
A frame is read on its own, with no tracker. So a missed card-look here is a card the game must wait for, or
ask about, at that moment.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

from companion.demo import DemoGame, demo_table
from companion.vision.detection import BACK, UNKNOWN
from companion.vision.tracker import FrameReader, ReadSchedule
from tools.eval_real import load_reader


@dataclass
class Audit:
    """What the reader made of one simulated game."""

    frames: int = 0
    looks: int = 0
    missed: list[tuple[float, str]] = field(default_factory=list)
    misread: list[tuple[float, str]] = field(default_factory=list)


def audit(read, variant: str = "six-card", seed: int = 1, step: float = 1.0, until: float | None = None, *,
          lean: float = 1.0, top_down: bool = False) -> Audit:
    """Read a frame of the ``variant`` demo game (``seed``) every ``step`` seconds, up to ``until`` (default: the
    whole game), with ``read`` (a frame -> detections function), and count what was missed and misread. ``lean``:
    the simulated camera's lean away from straight down (1: none); ``top_down``: read a tilted view top-down through
    the table's calibration, as the tracker does (:mod:`companion.vision.topdown`)."""
    sim = demo_table(DemoGame.build(variant=variant, seed=seed, target=None), lean=lean)
    if top_down:
        view = FrameReader(read, sim.calibration(), schedule=ReadSchedule(top_down=True))
        read = view.recognize_frame
    truth_of = sim.recognizer()
    out = Audit()
    end = sim.duration if until is None else min(until, sim.duration)
    k = 0
    while (t := k * step) < end:
        k += 1
        if sim.carried(t):
            continue
        frame = sim.render(t)
        visible = {d.card for d in truth_of(frame)} - {BACK}
        named = {d.card for d in read(frame)} - {BACK, UNKNOWN}
        on_table = {s.card for s in sim.table_at(t).values()}
        out.frames += 1
        out.looks += len(visible)
        out.missed += [(t, c) for c in sorted(visible - named)]
        out.misread += [(t, c) for c in sorted(named - visible - on_table)]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reader", default="new", help="old, new, or module:function")
    ap.add_argument("--variant", default="six-card")
    ap.add_argument("--seeds", default="1,2,3,4")
    ap.add_argument("--step", type=float, default=1.0, help="seconds between the frames read")
    ap.add_argument("--lean", type=float, default=1.0,
                    help="the camera's lean: the mat's depth squeezed to this share (1: straight down)")
    ap.add_argument("--top-down", action="store_true", help="read a tilted view top-down, as the tracker does")
    ap.add_argument("--verbose", action="store_true", help="list each missed and misread card-look")
    a = ap.parse_args(argv)
    try:
        seeds = [int(s) for s in a.seeds.split(",") if s]
    except ValueError:
        print(f"eval_sim: --seeds must be whole numbers separated by commas, not {a.seeds!r}", file=sys.stderr)
        return 2
    try:
        read = load_reader(a.reader)
    except ValueError as e:
        print(f"eval_sim: {e}", file=sys.stderr)
        return 2
    if not 0.1 <= a.lean <= 1:
        print(f"eval_sim: --lean must be between 0.1 and 1, not {a.lean:g}", file=sys.stderr)
        return 2
    print(f"reader {a.reader}, {a.variant}, a frame every {a.step:g} s, lean {a.lean:g}"
          f"{', read top-down' if a.top_down else ''}")
    print("| seed | frames | card-looks | missed | misread |")
    print("|---|---|---|---|---|")
    for seed in seeds:
        got = audit(read, a.variant, seed, a.step, lean=a.lean, top_down=a.top_down)
        print(f"| {seed} | {got.frames} | {got.looks} | {len(got.missed)} | {len(got.misread)} |", flush=True)
        if a.verbose:
            for what, rows in (("missed", got.missed), ("misread", got.misread)):
                for t, card in rows:
                    print(f"  {what} {card} at {t:g} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
