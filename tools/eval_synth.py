"""Measure a card reader on synthetic 1280x720 scenes, per table texture and per card size.

    python -m tools.eval_synth [--reader old|new] [--scenes 4] [--seed 2026] [--sizes 90,140,250] [--deck DIR...]
                               [--misses]

Each scene: 6 cards of the bundled photo deck apart (any rotation, a little perspective) on one table of
tools/detector_data.TABLES (white laminate, light wood, knitted throw and patterned cloth among them), one card
height of 90, 140 or 250 px, the camera effects of synth.camera_effects. Prints cards read and misread per table
and per size. The seed differs from training's, so these scenes were never trained on (they are drawn from the
same generator, so they say less than the real photos do).

``--deck DIR`` (repeatable) lays the faces of other decks instead, one PNG per card named by its code (``7H.png``),
as ``tools.render_decks`` renders them; ``--deck bundled`` lays the bundled photo deck in its turn among them, and
with two decks or more each deck's figures are printed too. A file that is not card-shaped (a deck whose SVG names
its cards otherwise renders the wrong part), or mostly transparent (a small card drawn in a card-shaped canvas), is
left out. A deck the glyph classifiers were never trained on says more than the bundled one: see the vision README
for the decks used so.

``--misses`` also says, for each card the reader missed, the first stage that lost it (``tools.eval_misses``'
stages), per table and per deck: the index-corner boxes are where the face was laid (:data:`INDEX_AREA` of it).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from companion.vision import synth
from companion.vision.detection import BACK, UNKNOWN
from tools import detector_data as D
from tools.eval_misses import STAGES, lost_where
from tools.eval_real import load_reader

SIZES = (90, 140, 250)
#: ``--deck bundled``: the bundled photo deck, laid in its turn among other decks.
BUNDLED = "bundled"


#: A face with an alpha channel is laid only where at least this share of it is opaque (a card's rounded corners
#: are a percent or two): aisleriot's anglo deck renders its QH and JS as a small card in a card-shaped transparent
#: canvas (11-12% opaque), which laid at 196 px is a card 40-65 px tall that no reader could name.
OPAQUE = 0.9


def card_shaped(img: np.ndarray | None) -> bool:
    """Whether ``img`` (as ``cv2.imread`` read it, unchanged) is a card: BGR or BGRA, 0.6-0.8 as wide as tall."""
    return img is not None and img.ndim == 3 and img.shape[2] in (3, 4) and 0.6 < img.shape[1] / img.shape[0] < 0.8


def deck_faces(folder: Path) -> dict[str, np.ndarray]:
    """The card-shaped faces (BGR or BGRA) in ``folder``, by card code: ``7H.png`` is the seven of hearts."""
    faces = {}
    for code in synth.ALL_CARDS:
        img = cv2.imread(str(folder / f"{code}.png"), cv2.IMREAD_UNCHANGED)
        if not card_shaped(img):
            continue
        if img.shape[2] == 4 and np.count_nonzero(img[:, :, 3] > 128) < OPAQUE * img.shape[0] * img.shape[1]:
            continue  # mostly transparent: the card drawn in it is far smaller than the face
        faces[code] = img
    return faces


def scene(rng, kind: str, height: float, n: int = 6, faces: dict[str, np.ndarray] | None = None):
    """A 1280x720 frame of ``n`` cards apart on a ``kind`` table, ``height`` px tall, and the codes laid; the cards
    are the bundled photo deck's, or drawn from ``faces`` (code -> face image)."""
    frame, laid = scene_laid(rng, kind, height, n, faces)
    return frame, set(laid)


def scene_laid(rng, kind: str, height: float, n: int = 6, faces: dict[str, np.ndarray] | None = None):
    """As :func:`scene` (the same frame from the same ``rng``), with each code's four corners where it was laid
    (top left, top right, bottom right, bottom left of its face; frame pixels) in place of the set of codes."""
    w, h = 1280, 720
    frame = np.ascontiguousarray(D.table(w, kind, rng)[:h])
    cards = list(rng.choice(sorted(faces) if faces else synth.ALL_CARDS, n, replace=False))
    cols, rows = 3, 2
    laid = {}
    for k, code in enumerate(cards):
        r, c = divmod(k, cols)
        cx = (c + 0.5) * w / cols + rng.uniform(-0.1, 0.1) * w / cols
        cy = (r + 0.5) * h / rows + rng.uniform(-0.1, 0.1) * h / rows
        corners = synth._card_corners(cx, cy, height, rng.uniform(0, 360))
        corners = corners + rng.normal(0, 0.02 * height, corners.shape).astype(np.float32)
        synth.paste(frame, faces[code] if faces else synth.photo_face(code), corners)
        laid[str(code)] = corners
    frame = D._shadow(frame, rng)
    frame = synth.camera_effects(frame, rng, blur=rng.uniform(0.3, 1.5), noise=rng.uniform(1, 6),
                                 light=rng.uniform(0.7, 1.15), warm=rng.uniform(0, 1), glare=rng.random() < 0.3,
                                 jpeg=int(rng.integers(60, 95)))
    return frame, laid


#: Where a standard index lies on a face (fractions of its width and height: x0, y0, x1, y1), generously: the
#: decks laid here print theirs within it, rank and suit.
INDEX_AREA = (0.0, 0.0, 0.22, 0.31)


def index_boxes(corners: np.ndarray) -> list[tuple[float, float, float, float]]:
    """The frame boxes (centre x, centre y, width, height) round both index corners of a face laid at
    ``corners`` (as :func:`scene_laid` gives them): the top left one and the bottom right one, turned.

    >>> [tuple(round(v) for v in b) for b in index_boxes(np.float32([[0, 0], [100, 0], [100, 140], [0, 140]]))]
    [(11, 22, 22, 43), (89, 118, 22, 43)]
    """
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    m = cv2.getPerspectiveTransform(unit, np.float32(corners))
    x0, y0, x1, y1 = INDEX_AREA
    out = []
    for rect in ([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], [[1 - x1, 1 - y1], [1 - x0, 1 - y1], [1 - x0, 1 - y0],
                                                            [1 - x1, 1 - y0]]):
        pts = cv2.perspectiveTransform(np.float32([rect]), m)[0]
        lo, hi = pts.min(0), pts.max(0)
        out.append((float(lo[0] + hi[0]) / 2, float(lo[1] + hi[1]) / 2, float(hi[0] - lo[0]), float(hi[1] - lo[1])))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reader", default="old")
    ap.add_argument("--scenes", type=int, default=4, help="scenes per table and size")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)), help="card heights, px, comma-separated")
    ap.add_argument("--deck", type=Path, action="append", default=[],
                    help="a folder of a deck's faces (7H.png, ...); each deck is laid in turn")
    ap.add_argument("--misses", action="store_true",
                    help="also say where the reader lost each card it missed, per table and deck (as eval_misses)")
    a = ap.parse_args(argv)
    try:
        sizes = [int(x) for x in a.sizes.split(",") if x]
    except ValueError:
        print(f"eval_synth: --sizes must be whole numbers separated by commas, not {a.sizes!r}", file=sys.stderr)
        return 2
    decks: list[tuple[str, dict[str, np.ndarray] | None]] = []  # (name, faces; None: the bundled photo deck)
    for folder in a.deck:
        if str(folder) == BUNDLED:
            decks.append((BUNDLED, None))
            continue
        faces = deck_faces(folder)
        if len(faces) < 6:
            print(f"eval_synth: --deck {folder}: fewer than 6 card faces (7H.png, ...) in it", file=sys.stderr)
            return 2
        decks.append((folder.name, faces))
    if a.misses and a.reader != "new":
        print("eval_synth: --misses follows the reader with the corner finder: use it with --reader new",
              file=sys.stderr)
        return 2
    try:
        read = load_reader(a.reader)
    except ValueError as e:
        print(f"eval_synth: {e}", file=sys.stderr)
        return 2
    rng = np.random.default_rng(a.seed)
    per_table: dict[str, list[int]] = {}
    per_size: dict[int, list[int]] = {}
    per_deck: dict[str, list[int]] = {}
    # per table, per deck (in the order they are laid): stage -> cards
    lost: tuple[dict[str, Counter], dict[str, Counter]] = (
        {f"{kind}, {h} px": Counter() for kind in D.TABLES for h in sizes},
        {f"{name}, {h} px": Counter() for name, _ in decks or [(BUNDLED, None)] for h in sizes})
    for kind in D.TABLES:
        for height in sizes:
            for _ in range(a.scenes):
                for name, faces in decks or [(BUNDLED, None)]:
                    frame, laid = scene_laid(rng, kind, height, faces=faces)
                    cards = set(laid)
                    dets = read(frame)
                    named = {d.card for d in dets if d.card not in (BACK, UNKNOWN)}
                    if a.misses and cards - named:
                        where = lost_where(frame, cards - named, {c: index_boxes(laid[c]) for c in cards}, dets)
                        for per, key in zip(lost, (f"{kind}, {height} px", f"{name}, {height} px")):
                            per[key].update(where.values())
                    for acc in (per_table.setdefault(kind, [0, 0, 0]), per_size.setdefault(height, [0, 0, 0]),
                                per_deck.setdefault(f"{name}, {height} px", [0, 0, 0])):
                        acc[0] += len(cards)
                        acc[1] += len(named & cards)
                        acc[2] += len(named - cards)
    laid = ", ".join(str(f) for f in a.deck) or "the bundled photo deck"
    print(f"reader {a.reader}: {a.scenes} scenes of 6 cards per table, card height and deck ({laid})")
    print("| table / card height | cards | read | misread |")
    print("|---|---|---|---|")
    rows = list(per_table.items()) + [(f"{k} px", v) for k, v in per_size.items()]
    if len(decks) > 1:
        rows += list(per_deck.items())
    for key, (n, ok, bad) in rows:
        print(f"| {key} | {n} | {ok} ({ok / n:.0%}) | {bad} |")
    if a.misses:
        shown = [st for st in STAGES if st != "no box"]
        print("\nWhere the cards missed were lost (tools.eval_misses' stages; a card is one of each table's and"
              " one of each deck's)")
        print("| table or deck | missed | " + " | ".join(shown) + " |")
        print("|---|---|" + "---|" * len(shown))
        for key, stages in [*lost[0].items(), *lost[1].items()]:
            print(f"| {key} | {sum(stages.values())} | " + " | ".join(str(stages[st]) for st in shown) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
