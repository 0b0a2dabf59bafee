"""Training samples for the index-corner detector (companion/vision/detector.py): frames and, for each, where the
visible index corners are.

Two sources, both seeded:
- :func:`synthetic`: scenes laid out from the bundled MIT photo deck and the deck OpenCV draws (faces and backs),
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

from companion.vision import synth

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


def _face(rng) -> tuple[np.ndarray, bool]:
    """A random face (photo deck or drawn deck) or a back; True when it has index corners."""
    r = rng.random()
    if r < 0.08:
        return synth.drawn_back(color=tuple(int(c) for c in rng.integers(0, 256, 3))), False
    code = synth.ALL_CARDS[int(rng.integers(52))]
    if r < 0.7:
        return synth.photo_face(code), True
    return synth.drawn_face(code, font=int(rng.choice([cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_SIMPLEX,
                                                       cv2.FONT_HERSHEY_TRIPLEX]))), True


def synthetic(rng, size: int = 256) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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
        img, has_index = _face(rng)
        synth.paste(frame, img, corners)
        poly = np.round(corners).astype(np.int32)
        cv2.fillPoly(heat, [poly], 0)
        cv2.fillPoly(boxsize, [poly], 0)
        if has_index:
            h, w = img.shape[:2]
            m = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), corners.astype(np.float32))
            for flip in (False, True):
                box = np.float32(INDEX_BOX) * (w, h)
                if flip:
                    box = np.float32([w, h]) - box
                pts = cv2.perspectiveTransform(box[None], m)[0]
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
