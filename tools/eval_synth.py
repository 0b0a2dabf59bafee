"""Measure a card reader on synthetic 1280x720 scenes, per table texture and per card size.

    python -m tools.eval_synth [--reader old|new] [--scenes 4] [--seed 2026]

Each scene: 6 cards of the bundled photo deck apart (any rotation, a little perspective) on one table of
tools/detector_data.TABLES (white laminate, light wood, knitted throw and patterned cloth among them), one card
height of 90, 140 or 250 px, the camera effects of synth.camera_effects. Prints cards read and misread per table
and per size. The seed differs from training's, so these scenes were never trained on (they are drawn from the
same generator, so they say less than the real photos do).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from companion.vision import synth
from companion.vision.detection import BACK, UNKNOWN
from tools import detector_data as D
from tools.eval_real import load_reader

SIZES = (90, 140, 250)


def scene(rng, kind: str, height: float, n: int = 6):
    w, h = 1280, 720
    frame = np.ascontiguousarray(D.table(w, kind, rng)[:h])
    cards = list(rng.choice(synth.ALL_CARDS, n, replace=False))
    cols, rows = 3, 2
    for k, code in enumerate(cards):
        r, c = divmod(k, cols)
        cx = (c + 0.5) * w / cols + rng.uniform(-0.1, 0.1) * w / cols
        cy = (r + 0.5) * h / rows + rng.uniform(-0.1, 0.1) * h / rows
        corners = synth._card_corners(cx, cy, height, rng.uniform(0, 360))
        corners = corners + rng.normal(0, 0.02 * height, corners.shape).astype(np.float32)
        synth.paste(frame, synth.photo_face(code), corners)
    frame = D._shadow(frame, rng)
    frame = synth.camera_effects(frame, rng, blur=rng.uniform(0.3, 1.5), noise=rng.uniform(1, 6),
                                 light=rng.uniform(0.7, 1.15), warm=rng.uniform(0, 1), glare=rng.random() < 0.3,
                                 jpeg=int(rng.integers(60, 95)))
    return frame, set(cards)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reader", default="old")
    ap.add_argument("--scenes", type=int, default=4, help="scenes per table and size")
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args(argv)
    try:
        read = load_reader(a.reader)
    except ValueError as e:
        print(f"eval_synth: {e}", file=sys.stderr)
        return 2
    rng = np.random.default_rng(a.seed)
    per_table: dict[str, list[int]] = {}
    per_size: dict[int, list[int]] = {}
    for kind in D.TABLES:
        for height in SIZES:
            for _ in range(a.scenes):
                frame, cards = scene(rng, kind, height)
                named = {d.card for d in read(frame) if d.card not in (BACK, UNKNOWN)}
                for acc in (per_table.setdefault(kind, [0, 0, 0]), per_size.setdefault(height, [0, 0, 0])):
                    acc[0] += len(cards)
                    acc[1] += len(named & cards)
                    acc[2] += len(named - cards)
    print(f"reader {a.reader}: {a.scenes} scenes of 6 cards per table and card height")
    print("| table / card height | cards | read | misread |")
    print("|---|---|---|---|")
    for key, (n, ok, bad) in list(per_table.items()) + [(f"{k} px", v) for k, v in per_size.items()]:
        print(f"| {key} | {n} | {ok} ({ok / n:.0%}) | {bad} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
