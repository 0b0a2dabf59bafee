"""Training samples for the index-corner detector (companion/vision/detector.py): frames and, for each, where the
visible index corners are.

Two sources, both seeded:
- :func:`synthetic`: scenes laid out from the bundled MIT photo deck and the deck OpenCV draws (faces and backs),
  and, given ``decks`` (:func:`load_decks`: the SVG decks ``tools.render_decks`` renders), those decks' faces and
  backs too, each face's index corners where the runtime's own index search finds them,
  on tables from white and light wood to dark felt and patterned cloth, cards 24-420 px tall at the network's
  scale, apart, overlapping, in rows and fans and cut by the frame's edge, with shadows, glare, warm and dim
  light, perspective, blur, noise and JPEG;
- :func:`cardcounter`: the real photos of ``../shared/data/real-photos/cardcounter`` in the TRAIN part of
  ``tools/cardcounter_split.tsv`` only, with their index-corner boxes (never copied into the repository).

A sample is (frame BGR uint8 S x S, heat float32 S/4 x S/4 in [0, 1], size float32 S/4 x S/4): ``heat`` is the
share of each 4x4 cell covered by a visible index box, ``size`` the box's longer side in frame pixels (0 elsewhere).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.vision import glyphs, synth
from companion.vision.geometry import CARD_H, CARD_W

STRIDE = 4
#: The index box on an upright face, as fractions of its width and height (rank over suit, both decks).
INDEX_BOX = ((0.015, 0.015), (0.19, 0.015), (0.19, 0.265), (0.015, 0.265))
TABLES = ("wood", "cloth", "cork", "laminate", "grey", "dark", "white", "lightwood", "pattern", "knit")


def table(size: int, kind: str, rng) -> np.ndarray:
    """A table top, including the light ones the brightness-based reader fails on."""
    if kind in ("wood", "cloth", "cork", "laminate", "grey", "dark"):
        return synth.background((size, size), kind, rng)
    if kind == "white":
        img = synth.background((size, size), "laminate", rng).astype(np.float32)
        return np.clip(img + rng.uniform(0, 25), 0, 255).astype(np.uint8)
    if kind == "lightwood":
        img = synth.background((size, size), "wood", rng).astype(np.float32)
        return np.clip(255 - (255 - img) * rng.uniform(0.3, 0.6), 0, 255).astype(np.uint8)
    # patterned cloth: coloured stripes or checks, or a knitted throw (bright, textured)
    base = rng.integers(0, 256, 3).astype(np.float32)
    other = rng.integers(0, 256, 3).astype(np.float32)
    yy, xx = np.mgrid[:size, :size].astype(np.float32)
    period = rng.uniform(6, 40)
    if kind == "knit":
        base = np.float32([rng.uniform(200, 250)] * 3)
        other = base - rng.uniform(20, 60)
        period = rng.uniform(3, 8)
    pat = (np.sin(xx / period * np.pi) > 0) ^ (np.sin(yy / period * np.pi + rng.uniform(0, 6)) > rng.uniform(-1, 1))
    img = np.where(pat[..., None], base, other) + rng.normal(0, 8, (size, size, 3))
    return np.clip(cv2.GaussianBlur(img.astype(np.float32), (0, 0), 0.8), 0, 255).astype(np.uint8)


#: Given SVG decks, this share of the faces laid is drawn from them (the rest as without them).
DECK_SHARE = 0.4
#: The index box round an index's ink, as fractions of the face: the ink's box grown by this much left, top, right
#: and bottom (about what INDEX_BOX is round the bundled deck's ink: 0.05-0.155 x 0.06-0.255).
INK_PAD = (0.035, 0.045, 0.035, 0.01)

Boxes = list[np.ndarray]  # each 4 x 2: an index box's corners as fractions of the face's width and height


def _flipped(box: np.ndarray) -> np.ndarray:
    """The box (fractions of the face) turned 180 degrees with the face: the other index corner."""
    return np.float32([1, 1]) - box


def index_boxes(face: np.ndarray) -> Boxes:
    """Where ``face`` (BGR or BGRA, a whole card) has its two index corners, as fractions of its width and height:
    found by the reader's own index search (``glyphs.extract_index``) on the face flattened as the reader
    flattens a card, the top-left corner and the bottom-right one turned upright. Where only one is found, the
    other is taken to be its mirror; none found, no boxes."""
    from companion.vision.reader import CORNER_H, CORNER_W

    if face.shape[2] == 4:
        a = face[:, :, 3:4].astype(np.float32) / 255
        face = (face[:, :, :3] * a + 255 * (1 - a)).astype(np.uint8)
    flat = cv2.resize(face, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
    found: list[np.ndarray | None] = []
    for img in (flat, cv2.rotate(flat, cv2.ROTATE_180)):
        g = glyphs.extract_index(np.ascontiguousarray(img[:int(CARD_H * CORNER_H), :int(CARD_W * CORNER_W)]))
        if g is None:
            found.append(None)
            continue
        (rx, ry, rw, rh), (sx, sy, sw, sh) = g.rank_box, g.suit_box
        x0 = max(min(rx, sx) / CARD_W - INK_PAD[0], 0.005)
        y0 = max(min(ry, sy) / CARD_H - INK_PAD[1], 0.005)
        x1 = max(rx + rw, sx + sw) / CARD_W + INK_PAD[2]
        y1 = max(ry + rh, sy + sh) / CARD_H + INK_PAD[3]
        found.append(np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
    top, bottom = found
    if top is None and bottom is None:
        return []
    top = top if top is not None else bottom
    bottom = bottom if bottom is not None else top
    return [top, _flipped(bottom)]


def load_decks(folder: Path) -> list[tuple[np.ndarray, Boxes]]:
    """Every card-shaped face (and back) of the decks rendered in ``folder``'s subfolders (one a deck, as
    ``tools.render_decks`` writes them), each with its :func:`index_boxes` (a back: none); a face where the
    reader's index search finds no index is left out."""
    from tools.eval_synth import card_shaped, deck_faces

    out = []
    for deck in sorted(d for d in Path(folder).iterdir() if d.is_dir()):
        for face in deck_faces(deck).values():
            boxes = index_boxes(face)
            if boxes:  # (where the reader finds no index, the target would say there is none: the face is left out)
                out.append((face, boxes))
        back = cv2.imread(str(deck / "back.png"), cv2.IMREAD_UNCHANGED)
        if card_shaped(back):
            out.append((back, []))
    return out


def _face(rng, decks: list[tuple[np.ndarray, Boxes]] | None = None) -> tuple[np.ndarray, Boxes]:
    """A random face (photo deck, drawn deck or, given ``decks``, one of theirs) or a back, with its index boxes
    (fractions of the face; none for a back). Without ``decks`` the random stream is what it was before they were
    added, so the committed model's run is made again."""
    if decks and rng.random() < DECK_SHARE:
        return decks[int(rng.integers(len(decks)))]
    r = rng.random()
    if r < 0.08:
        return synth.drawn_back(color=tuple(int(c) for c in rng.integers(0, 256, 3))), []
    code = synth.ALL_CARDS[int(rng.integers(52))]
    box = np.float32(INDEX_BOX)
    if r < 0.7:
        return synth.photo_face(code), [box, _flipped(box)]
    return synth.drawn_face(code, font=int(rng.choice([cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_SIMPLEX,
                                                       cv2.FONT_HERSHEY_TRIPLEX]))), [box, _flipped(box)]


def synthetic(rng, size: int = 256, decks: list[tuple[np.ndarray, Boxes]] | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One synthetic sample (see the module's docstring); ``decks``: see :func:`load_decks`."""
    kind = str(rng.choice(TABLES))
    frame = table(size, kind, rng)
    heat = np.zeros((size, size), np.float32)
    boxsize = np.zeros((size, size), np.float32)
    ch = float(np.exp(rng.uniform(np.log(24), np.log(420))))
    n = int(rng.integers(1, 9)) if ch < 150 else int(rng.integers(1, 4))
    layout = rng.choice(["apart", "row", "fan"])
    cx, cy = rng.uniform(0.1, 0.9) * size, rng.uniform(0.1, 0.9) * size
    angle = rng.uniform(0, 360)
    step = ch / synth.CARD_ASPECT * rng.uniform(0.18, 0.6)
    for i in range(n):
        if layout == "apart" or i == 0:
            x, y, a = rng.uniform(-0.1, 1.1) * size, rng.uniform(-0.1, 1.1) * size, rng.uniform(0, 360)
            if i == 0:
                x, y, a = cx, cy, angle
        elif layout == "row":
            t = np.deg2rad(angle)
            x, y, a = cx + i * step * np.cos(t), cy + i * step * np.sin(t), angle + rng.uniform(-4, 4)
        else:
            a = angle + i * rng.uniform(6, 14)
            t = np.deg2rad(a)
            x, y = cx + np.sin(t) * ch * 0.55, cy - np.cos(t) * ch * 0.55
        corners = synth._card_corners(x, y, ch, a)
        corners = corners + rng.normal(0, 0.03 * ch, corners.shape).astype(np.float32)  # perspective
        img, boxes = _face(rng, decks)
        synth.paste(frame, img, corners)
        poly = np.round(corners).astype(np.int32)
        cv2.fillPoly(heat, [poly], 0)
        cv2.fillPoly(boxsize, [poly], 0)
        h, w = img.shape[:2]
        m = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), corners.astype(np.float32))
        for box in boxes:
            pts = cv2.perspectiveTransform((box * (w, h)).astype(np.float32)[None], m)[0]
            side = float(max(np.linalg.norm(pts[0] - pts[2]), np.linalg.norm(pts[1] - pts[3]))) * 0.92
            cv2.fillPoly(heat, [np.round(pts).astype(np.int32)], 1.0)
            cv2.fillPoly(boxsize, [np.round(pts).astype(np.int32)], side)
    frame = _shadow(frame, rng)
    frame = synth.camera_effects(frame, rng, blur=rng.uniform(0, 2.0), noise=rng.uniform(0, 8),
                                 light=rng.uniform(0.55, 1.2), warm=rng.uniform(0, 1), glare=rng.random() < 0.3,
                                 jpeg=int(rng.integers(40, 96)))
    return frame, *_targets(heat, boxsize)


def _shadow(frame: np.ndarray, rng) -> np.ndarray:
    """A hand's or a head's soft shadow over part of the frame, half the time."""
    if rng.random() < 0.5:
        return frame
    h, w = frame.shape[:2]
    m = np.zeros((h, w), np.float32)
    pts = (rng.uniform(-0.2, 1.2, (int(rng.integers(3, 7)), 2)) * (w, h)).astype(np.int32)
    cv2.fillPoly(m, [cv2.convexHull(pts)], 1.0)
    m = cv2.GaussianBlur(m, (0, 0), rng.uniform(3, 25))
    return np.clip(frame * (1 - rng.uniform(0.2, 0.6) * m)[..., None], 0, 255).astype(np.uint8)


def _targets(heat: np.ndarray, boxsize: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s = heat.shape[0] // STRIDE, heat.shape[1] // STRIDE
    return (cv2.resize(heat, s[::-1], interpolation=cv2.INTER_AREA),
            cv2.resize(boxsize, s[::-1], interpolation=cv2.INTER_NEAREST))


def load_cardcounter(data: Path, part: str = "train") -> list[tuple[np.ndarray, list]]:
    """The cardcounter photos of ``part`` with their boxes (cx, cy, w, h in pixels); "back" boxes left out."""
    from tools.eval_real import load_split, split_part

    cc = data / "real-photos" / "cardcounter"
    fixed = load_split()
    boxes: dict[str, list] = {}
    for line in (cc / "BOXES.tsv").read_text().splitlines():
        f = line.split("\t")
        if line.startswith("#") or len(f) < 6 or f[1] == "back":
            continue
        if fixed.get(f[0], split_part(f[0])) == part:
            boxes.setdefault(f[0], []).append(tuple(float(v) for v in f[2:6]))
    out = []
    for name in sorted(boxes):
        img = cv2.imread(str(cc / name))
        if img is None:
            continue
        h, w = img.shape[:2]
        out.append((img, [(cx * w, cy * h, bw * w, bh * h) for cx, cy, bw, bh in boxes[name]]))
    return out


def real(photo: tuple[np.ndarray, list], rng, size: int = 256):
    """A random crop of a real photo, scaled 0.35-1.3 times, with its boxes as targets."""
    img, boxes = photo
    s = float(np.exp(rng.uniform(np.log(0.35), np.log(1.3))))
    h, w = img.shape[:2]
    sw, sh = max(int(w * s), size), max(int(h * s), size)
    big = cv2.resize(img, (sw, sh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    fx, fy = sw / w, sh / h
    x0, y0 = int(rng.integers(0, sw - size + 1)), int(rng.integers(0, sh - size + 1))
    frame = np.ascontiguousarray(big[y0:y0 + size, x0:x0 + size])
    heat = np.zeros((size, size), np.float32)
    boxsize = np.zeros((size, size), np.float32)
    for cx, cy, bw, bh in boxes:
        # the boxes are loose (they hold the index with a margin): shrink them to about the ink
        x, y, hw, hh = cx * fx - x0, cy * fy - y0, bw * fx * 0.4, bh * fy * 0.4
        p0, p1 = (int(round(x - hw)), int(round(y - hh))), (int(round(x + hw)), int(round(y + hh)))
        cv2.rectangle(heat, p0, p1, 1.0, -1)
        cv2.rectangle(boxsize, p0, p1, float(max(bw * fx, bh * fy) * 0.8), -1)
    if rng.random() < 0.5:
        frame = synth.camera_effects(frame, rng, blur=rng.uniform(0, 1.2), noise=rng.uniform(0, 5),
                                     light=rng.uniform(0.7, 1.15), warm=rng.uniform(0, 0.6),
                                     jpeg=int(rng.integers(50, 96)))
    return frame, *_targets(heat, boxsize)
