"""Training samples for the index namer (``companion/vision/namer.py``): the index boxes the glyph search proposes,
cut as the namer reads them, each labelled with the card whose index it is, or ``-`` (a pip, the picture, the table).

    python -m tools.index_samples synthetic OUT.npz [--seed 1] [--scenes 400] [--decks build/decks]
    python -m tools.index_samples cardcounter OUT.npz [--part fit|val] [--data ../shared/data]

The boxes are those the runtime's own search reads (``detector.find_corners`` with its size floor lifted), so the
namer learns on what it will be shown, right reads and wrong ones alike:

- ``synthetic``: 1280x720 scenes of the bundled photo deck and the training decks ``tools.render_decks`` renders
  (never the unseen ones), apart, in rows and in fans, cards 90-260 px tall (seeded);
- ``cardcounter``: the real photos of the FIT part of the train part only (``tools.eval_real`` ``--part fit``: not
  the validation slice the namer's threshold is chosen on, never the held-out part), labelled by ``BOXES.tsv``;
  ``--part val`` cuts that slice's, to choose the threshold by (never to train on).

A read is labelled with a card where its rank's centre lies in that card's index box (or within a tenth of its size
round it); else ``-``. Each read gives its exact cut and two cut from its box moved and resized a little (a box the
search places a few pixels off).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from companion.vision import detector, namer, synth
from companion.vision.classifier import default_model
from companion.vision.reader import is_grey
from tools import eval_real, eval_synth

Box = tuple[float, float, float, float]  # centre x, centre y, width, height (frame pixels)


def proposed(img: np.ndarray, model) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Every index the glyph search reads in the corner network's marked patches of ``img``, size floor lifted:
    (code read, its box's 4 corners, its rank's centre), frame coordinates."""
    got: list = []
    real = detector._read_patch

    def recording(*a, **k):
        reads, held = real(*a, **k)
        got.extend((code, pts, centre) for code, _, pts, centre in reads)
        got.extend((d.code, d.pts, d.centre) for d in held)
        return reads, held

    detector._read_patch = recording
    try:
        detector.find_corners(img, model, colour=not is_grey(img), floor=False)
    finally:
        detector._read_patch = real
    return got


def label(centre, boxes: dict[str, list[Box]]) -> str:
    """The card whose index box ``centre`` lies in (or just round: a tenth of its size), the nearest; else ``-``."""
    best, far = namer.NONE, 1e9
    for code, bs in boxes.items():
        for cx, cy, w, h in bs:
            dx, dy = abs(centre[0] - cx) / w, abs(centre[1] - cy) / h
            if dx < 0.6 and dy < 0.6 and dx + dy < far:
                best, far = code, dx + dy
    return best


def cuts(img: np.ndarray, pts: np.ndarray, rng) -> list[np.ndarray]:
    """The namer's cut of ``pts`` and two of the box moved (up to 8% of its size) and resized (up to 10%)."""
    out = [namer.index_crop(img, pts)]
    p = np.asarray(pts, np.float32)
    mid, size = p.mean(0), float(np.linalg.norm(p[2] - p[0]))
    for _ in range(2):
        q = mid + (p - mid) * rng.uniform(0.9, 1.1) + rng.uniform(-0.08, 0.08, 2) * size
        q = q + rng.normal(0, 0.02 * size, q.shape)
        out.append(namer.index_crop(img, q.astype(np.float32)))
    return out


def _samples(img, boxes, model, rng, xs, ys) -> None:
    for _, pts, centre in proposed(img, model):
        y = namer.CLASSES.index(label(centre, boxes))
        for c in cuts(img, pts, rng):
            xs.append(c.astype(np.float16))
            ys.append(y)


def synthetic(out: Path, seed: int, scenes: int, decks: Path | None) -> int:
    rng = np.random.default_rng(seed)
    model = default_model()
    faces_of: list[dict | None] = [None]
    if decks and decks.is_dir():
        faces_of += [f for f in (eval_synth.deck_faces(d) for d in sorted(decks.iterdir()) if d.is_dir())
                     if len(f) >= 52]
    xs: list = []
    ys: list = []
    for k in range(scenes):
        faces = faces_of[k % len(faces_of)]
        height = float(rng.uniform(90, 260))
        lay = ("apart", "row", "fan")[int(rng.integers(3))]
        if lay == "apart":
            frame, laid = eval_synth.scene_laid(rng, str(rng.choice(eval_synth.D.TABLES)), height, faces=faces)
            corners = list(laid.items())
        else:
            codes = list(rng.choice(sorted(faces) if faces else synth.ALL_CARDS, 6, replace=False))
            frame, placed = synth.render_scene(codes, rng=rng, layout=lay, card_height=height, faces=faces,
                                               tilt=float(rng.uniform(0, 0.4)))
            corners = [(str(p.card), np.float32(p.corners)) for p in placed]
        boxes: dict[str, list[Box]] = {}
        for code, c in corners:
            boxes[code] = eval_synth.index_boxes(np.float32(c))
        _samples(frame, boxes, model, rng, xs, ys)
        if k % 50 == 0:
            print(f"scene {k}: {len(ys)} cuts", file=sys.stderr)
    np.savez_compressed(out, x=np.stack(xs), y=np.int16(ys))
    return len(ys)


def cardcounter(out: Path, data: Path, seed: int = 0, part: str = "fit") -> int:
    from tools.real_glyphs import load_boxes

    folder = data / "real-photos" / "cardcounter"
    rows = [r for name, rs in eval_real.sets(data / "real-photos", part).items() if name.startswith("cardcounter/")
            for r in rs]
    found = load_boxes(folder, {str(p.relative_to(folder)) for p, _, _ in rows})
    rng = np.random.default_rng(seed)
    model = default_model()
    xs: list = []
    ys: list = []
    for path, _, _ in rows:
        img = cv2.imread(str(path))
        h, w = img.shape[:2]
        boxes: dict[str, list[Box]] = {}
        for code, (cx, cy, bw, bh) in found.get(str(path.relative_to(folder)), []):
            boxes.setdefault(code, []).append((cx * w, cy * h, bw * w, bh * h))
        _samples(img, boxes, model, rng, xs, ys)
    np.savez_compressed(out, x=np.stack(xs), y=np.int16(ys))
    return len(ys)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", choices=("synthetic", "cardcounter"))
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scenes", type=int, default=400)
    ap.add_argument("--decks", type=Path, default=Path("build/decks"))
    ap.add_argument("--data", type=Path, default=eval_real.DATA)
    ap.add_argument("--part", choices=("fit", "val"), default="fit", help="cardcounter: the train part's fit or val")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    n = (synthetic(a.out, a.seed, a.scenes, a.decks) if a.source == "synthetic"
         else cardcounter(a.out, a.data, a.seed, a.part))
    print(f"{a.out}: {n} cuts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
