"""Where the card reader loses the cards it misses on cardcounter's photos: one stage named for each missed card.

    python -m tools.eval_misses [--part train|val|fit|heldout] [--sets webcam-held,...] [--data ../shared/data] [-v]

``tools.eval_real`` counts the cards found; this says, for each labelled card the reader (``detector.recognize``)
did not name, the first stage of the reader that lost it, using cardcounter's index-corner boxes (``BOXES.tsv``):

- ``not marked``: the learned corner finder's map stays below ``detector.HEAT`` over every box of the card;
- ``marked, no index read``: marked, but the corner search names nothing near its boxes, even with its size floor
  lifted (no rank-over-suit pair found, or none the glyph classifiers name);
- ``misnamed there``: only other cards are named near its boxes (floors lifted);
- ``under the size floor``: named right only with the size floor lifted (``detection.accept_for``: a small index
  must be surer), or a whole card reported "unknown" whose best guess was right;
- ``under the detector's floor``: named right, but below ``detector.ACCEPT`` (``GREY_ACCEPT`` in a grey photo);
- ``named, then dropped``: named right and sure enough, yet not reported (another card named at that place, or
  the reader's other rules);
- ``no box``: the labels list the card but no box for it (cannot be told).

A "near" read has its rank's centre within one box size of the box's centre. Use it to choose what to work on next
(on the train part, ``--part train``, or its validation slice); like any figure taken to choose by, a breakdown of
the held-out part spends that part.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.vision import detector
from companion.vision.classifier import default_model
from companion.vision.detection import BACK, UNKNOWN, Detection
from companion.vision.reader import is_grey
from tools import eval_real
from tools.real_glyphs import load_boxes

STAGES = ("not marked", "marked, no index read", "misnamed there", "under the size floor",
          "under the detector's floor", "named, then dropped", "no box")

Box = tuple[float, float, float, float]  # centre x, centre y, width, height: frame pixels


def _near(centre, boxes: list[Box]) -> bool:
    return any(abs(centre[0] - cx) < w and abs(centre[1] - cy) < h for cx, cy, w, h in boxes)


def lost_where(img: np.ndarray, missed: set[str], boxes: dict[str, list[Box]], dets: Sequence[Detection] = (),
               model=None) -> dict[str, str]:
    """The stage (one of :data:`STAGES`) at which each card of ``missed`` was lost in ``img`` (BGR), given each
    card's index-corner ``boxes`` in frame pixels and what the reader reported (``dets``).

    >>> lost_where(np.full((240, 320, 3), 120, np.uint8), {"5H"}, {"5H": [(160.0, 120.0, 30.0, 40.0)]})
    {'5H': 'not marked'}
    """
    model = model or default_model()
    heat, _, s = detector.heat_map(img)
    cell = detector.STRIDE / s  # frame pixels per cell of the map
    colour = not is_grey(img)
    floor = detector.ACCEPT if colour else detector.GREY_ACCEPT
    sure = loose = None
    out = {}
    for card in sorted(missed):
        mine = boxes.get(card, [])
        if not mine:
            out[card] = "no box"
            continue
        if any(d.card == UNKNOWN and d.extra.get("guess") == card and any(
                cv2.pointPolygonTest(np.float32(d.corners), (cx, cy), False) >= 0 for cx, cy, _, _ in mine)
               for d in dets):
            out[card] = "under the size floor"  # a whole card, named right below the floor its size asks for
            continue
        top = 0.0
        for cx, cy, w, h in mine:
            x0, x1 = int((cx - w / 2) / cell), int((cx + w / 2) / cell) + 1
            y0, y1 = int((cy - h / 2) / cell), int((cy + h / 2) / cell) + 1
            top = max(top, float(heat[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)].max(initial=0.0)))
        if top <= detector.HEAT:
            out[card] = "not marked"
            continue
        if sure is None:  # the reads of the corner finder, as the reader makes them and with the size floor lifted
            sure = detector.find_corners(img, model, colour=colour)
            loose = detector.find_corners(img, model, colour=colour, floor=False)
        right = [c.conf for c in sure if c.code == card and _near(c.centre, mine)]
        if right:
            out[card] = "named, then dropped" if max(right) >= floor else "under the detector's floor"
        elif any(c.code == card and _near(c.centre, mine) for c in loose):
            out[card] = "under the size floor"
        elif any(_near(c.centre, mine) for c in loose):
            out[card] = "misnamed there"
        else:
            out[card] = "marked, no index read"
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", default="train", choices=("heldout", "train", "val", "fit", "all"))
    ap.add_argument("--sets", default="", help="comma-separated cardcounter subsets (default: all four)")
    ap.add_argument("--data", type=Path, default=eval_real.DATA)
    ap.add_argument("-v", "--verbose", action="store_true", help="list each missed card and its stage")
    a = ap.parse_args(argv)
    folder = a.data / "real-photos" / "cardcounter"
    if not (folder / "BOXES.tsv").exists():
        print(f"eval_misses: no cardcounter photos with boxes in {folder}", file=sys.stderr)
        return 2
    wanted = [s for s in a.sets.split(",") if s]
    unknown = [s for s in wanted if s not in eval_real.SUBSETS]
    if unknown:
        print(f"eval_misses: no such subset {unknown[0]!r} (one of {', '.join(eval_real.SUBSETS)})", file=sys.stderr)
        return 2
    parts = {name.partition("/")[2]: rows for name, rows in eval_real.sets(a.data / "real-photos", a.part).items()
             if name.startswith("cardcounter/") and (not wanted or name.partition("/")[2] in wanted)}
    boxes = load_boxes(folder, {str(p.relative_to(folder)) for rows in parts.values() for p, _, _ in rows})
    model = default_model()
    print(f"where the reader loses cards, cardcounter part {a.part}")
    print("| subset | cards | missed | " + " | ".join(STAGES) + " |")
    print("|---" * (3 + len(STAGES)) + "|")
    for sub, rows in parts.items():
        tally: Counter[str] = Counter()
        cards = 0
        for path, codes, _ in rows:
            img = cv2.imread(str(path))
            cards += len(codes)
            dets = detector.recognize(img, model=model)
            named = {d.card for d in dets} - {BACK, UNKNOWN}
            if not codes - named:
                continue
            h, w = img.shape[:2]
            mine: dict[str, list[Box]] = defaultdict(list)
            for card, (cx, cy, bw, bh) in boxes.get(str(path.relative_to(folder)), []):
                mine[card].append((cx * w, cy * h, bw * w, bh * h))
            for card, stage in lost_where(img, codes - named, mine, dets, model).items():
                tally[stage] += 1
                if a.verbose:
                    print(f"  {path.name} {card}: {stage}", file=sys.stderr)
        missed = sum(tally.values())
        print(f"| {sub} | {cards} | {missed} | " + " | ".join(str(tally[s]) for s in STAGES) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
