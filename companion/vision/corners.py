"""Reading cards that are partly hidden (a fanned hand, a row laid in the play) from their index corner alone.

Where card stock does not form one whole card, every small dark shape on it is a possible rank glyph; a shape of
similar size just beside it is a possible suit glyph, and the direction from the first to the second is the card's
"down". The corner is cut out upright along that direction and read by the same code and classifiers as the corner
of a whole card.
"""

from __future__ import annotations

import cv2
import numpy as np

from .classifier import GlyphModel
from .geometry import CARD_H, CARD_W

#: The upright corner cut around a candidate rank glyph: its size, where the glyph's centre goes, and the glyph
#: height it is scaled to (as in a flattened whole card).
CROP_W, CROP_H = int(CARD_W * 0.27), int(CARD_H * 0.5)
ANCHOR = (20, 40)
GLYPH_H = 22.0
#: At most this many candidate pairs are read per frame (the nearest pairs first), to bound the time.
MAX_PAIRS = 400


def ink_components(mn: np.ndarray, stock: np.ndarray, *, min_h: int, max_h: int):
    """Small dark shapes lying on card stock: arrays (cx, cy, w, h) for each."""
    ink = cv2.adaptiveThreshold(mn, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 31, 25)
    ink &= cv2.dilate(stock, np.ones((9, 9), np.uint8))
    n, labels, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    x, y, w, h, a = stats[1:].T
    side = np.maximum(w, h)
    keep = (side >= min_h) & (side <= max_h) & (a >= 15) & (a >= 0.12 * w * h)
    # mostly surrounded by card stock
    idx = np.nonzero(keep)[0]
    good = []
    for i in idx:
        x0, y0 = max(x[i] - w[i] // 3, 0), max(y[i] - h[i] // 3, 0)
        box = stock[y0:y[i] + h[i] + h[i] // 3, x0:x[i] + w[i] + w[i] // 3]
        if box.size and box.mean() > 0.35 * 255:
            good.append(i)
    good = np.array(good, int)
    if good.size == 0:
        return np.zeros((0, 4), np.float32)
    c = cents[1:][good]
    return np.column_stack([c[:, 0], c[:, 1], w[good], h[good]]).astype(np.float32)


def candidate_pairs(comps: np.ndarray) -> list[tuple[int, int]]:
    """(rank, suit) index pairs: near each other, similar size."""
    if len(comps) < 2:
        return []
    xy = comps[:, :2]
    side = np.maximum(comps[:, 2], comps[:, 3])
    d = np.linalg.norm(xy[:, None] - xy[None], axis=2)
    ratio = side[None, :] / side[:, None]
    ok = (d > 0.55 * side[:, None]) & (d < 1.5 * side[:, None]) & (ratio > 0.35) & (ratio < 1.2)
    ii, jj = np.nonzero(ok)
    order = np.argsort(d[ii, jj] / side[ii])
    return [(int(ii[k]), int(jj[k])) for k in order[:MAX_PAIRS]]


def upright_corner(frame: np.ndarray, a: np.ndarray, b: np.ndarray, rank_h: float):
    """The corner cut upright with rank centre ``a`` at :data:`ANCHOR` and suit centre ``b`` straight below it;
    also the affine map from crop to frame (2x3)."""
    d = (b - a) / max(np.linalg.norm(b - a), 1e-6)
    r = np.array([d[1], -d[0]])
    s = rank_h / GLYPH_H  # frame pixels per crop pixel
    u0, v0 = ANCHOR
    src = np.float32([a, a + r * s * 10, a + d * s * 10])
    dst = np.float32([[u0, v0], [u0 + 10, v0], [u0, v0 + 10]])
    m = cv2.getAffineTransform(src, dst)
    crop = cv2.warpAffine(frame, m, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    back = cv2.invertAffineTransform(m)
    return crop, back


#: A read this sure but not sure enough (a small or blurred index, a neighbour's edge in the cut) gets more looks,
#: a little smaller, larger and turned; see :func:`_more_looks`.
BORDERLINE = 0.3
LOOKS = ((0.88, 0.0), (1.02, 0.0), (1.05, 0.05), (1.05, -0.05), (0.92, 0.04), (0.92, -0.04))


def _turn(v: np.ndarray, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]]) @ v


def _more_looks(frame, a, b, dist, first, model, read_corner) -> float:
    """The confidence of ``first`` (a borderline read of the pair at ``a``, ``b``) after six more looks: the mean
    of the three surest looks naming its card, or 0 when fewer than three do or any look names another card."""
    confs = [first.confidence]
    for scale, angle in LOOKS:
        crop, _ = upright_corner(frame, a, a + _turn(b - a, angle), rank_h=scale * dist)
        got = read_corner(crop, model, anchor=ANCHOR)
        if got is None or got.code is None:
            continue
        if got.code != first.code:
            if got.confidence >= BORDERLINE:
                return 0.0
            continue
        confs.append(got.confidence)
    if len(confs) < 3:
        return 0.0
    return float(np.mean(sorted(confs)[-3:]))


def search(frame: np.ndarray, mn: np.ndarray, stock: np.ndarray, model: GlyphModel, read_corner,
           *, min_conf: float = 0.8, card_width: float | None = None):
    """Index corners read in ``frame`` where ``stock`` (uint8 mask) marks card stock not yet explained by whole
    cards. ``card_width`` (pixels), when known from whole cards, bounds the glyph size. Returns (code,
    confidence, 4 corners of the index box in frame coordinates, rank centre)."""
    h = frame.shape[0]
    lo, hi = max(6, h // 120), max(20, h // 12)
    if card_width:
        lo, hi = max(lo, int(0.05 * card_width)), min(hi, int(0.25 * card_width) + 1)
    comps = ink_components(mn, stock, min_h=lo, max_h=hi)
    reads = []
    used: set[int] = set()  # glyphs already part of an index read
    for i, j in candidate_pairs(comps):
        if i in used or j in used:
            continue
        a, b = comps[i, :2], comps[j, :2]
        dist = float(np.linalg.norm(b - a))
        crop, back = upright_corner(frame, a, b, rank_h=0.95 * dist)
        got = read_corner(crop, model, anchor=ANCHOR)
        if got is None or got.code is None or got.confidence < BORDERLINE:
            continue
        if got.confidence < min_conf:
            conf = _more_looks(frame, a, b, dist, got, model, read_corner)
            if conf < min_conf:
                continue
            got.confidence = conf
        # a second look, a little larger and turned a little, must say the same
        crop2, _ = upright_corner(frame, a, a + _turn(b - a, 0.07), rank_h=1.12 * dist)
        again = read_corner(crop2, model, anchor=ANCHOR)
        if again is not None and again.code not in (None, got.code):  # a second look that reads another card
            continue
        g = got.glyphs
        x0 = min(g.rank_box[0], g.suit_box[0]) - 2
        y0 = g.rank_box[1] - 2
        x1 = max(g.rank_box[0] + g.rank_box[2], g.suit_box[0] + g.suit_box[2]) + 2
        y1 = g.suit_box[1] + g.suit_box[3] + 2
        box = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
        pts = cv2.transform(box[None], back)[0]
        reads.append((got.code, got.confidence, pts, a))
        used.update((i, j))
    return reads
