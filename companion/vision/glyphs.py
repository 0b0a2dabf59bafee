"""Cutting the index (rank glyph over suit glyph) out of a flattened card corner and turning it into features."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

RANK_SIZE = (16, 24)  # (w, h) of a normalised rank glyph
SUIT_SIZE = (16, 16)


@dataclass
class IndexGlyphs:
    """The index found in one corner: normalised glyph images, their boxes (x, y, w, h) in the corner image,
    and how red the ink is (white-balanced, about 1 for black ink, 2 or more for red)."""

    rank: np.ndarray
    suit: np.ndarray
    rank_box: tuple[int, int, int, int]
    suit_box: tuple[int, int, int, int]
    redness: float
    rank_aspect: float
    suit_aspect: float


def _ink(corner: np.ndarray):
    """Ink strength in [0, 1] per pixel, the binary ink mask and the paper colour, or None if no contrast."""
    b, g, r = cv2.split(corner)
    mn = cv2.min(cv2.min(b, g), r)
    cdf = np.cumsum(cv2.calcHist([mn], [0], None, [256], [0, 256]).ravel())
    dark_level, paper70, paper_level = (float(v) for v in np.searchsorted(cdf, cdf[-1] * np.array([.01, .7, .85])))
    if paper_level < 60 or paper_level - dark_level < 45:
        return None
    t, _ = cv2.threshold(mn, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    t = max(min(t, dark_level + 0.75 * (paper_level - dark_level)), paper_level - 0.4 * (paper_level - dark_level))
    mask = (mn < t).astype(np.uint8)
    strength = np.clip((paper_level - mn.astype(np.float32)) / max(paper_level - dark_level, 1), 0, 1)
    paper = np.array(cv2.mean(corner, (mn >= paper70).astype(np.uint8))[:3]) + 1
    return strength, mask, paper


def _norm_patch(strength: np.ndarray, labels: np.ndarray, ids, box, size) -> np.ndarray:
    x, y, w, h = box
    sub = strength[y:y + h, x:x + w]
    lab = labels[y:y + h, x:x + w]
    keep = np.zeros(lab.shape, np.uint8)
    for i in ids:
        keep[lab == i] = 1
    keep = cv2.dilate(keep, np.ones((3, 3), np.uint8))
    patch = cv2.resize(sub * keep, size, interpolation=cv2.INTER_AREA)
    patch = patch - patch.mean()
    n = np.linalg.norm(patch)
    return (patch / n if n > 1e-6 else patch).astype(np.float32)


#: A rank of two glyphs is a "10": its left glyph, the "1", is at most this wide for its height (0.09-0.33 in
#: the decks trained on; a "J" is about 0.5).
ONE_MAX_ASPECT = 0.38


def _rank_group(group: list, top: tuple, margin: int) -> list:
    """The glyphs that make the rank: ``top`` alone, or a "1" and the glyph right of it. In a fanned hand the next
    card's rank sits just beside this one ("5K"), and the cut edge of a card under it makes a thin dark bar at the
    left: neither is part of this rank."""
    if len(group) == 1:
        return group
    row = sorted(group, key=lambda c: c[0])
    k = row.index(top)
    narrow = [c[2] <= ONE_MAX_ASPECT * c[3] and c[0] > margin for c in row]
    if k + 1 < len(row) and narrow[k]:
        return [top, row[k + 1]]
    if k > 0 and narrow[k - 1]:
        return [row[k - 1], top]
    return [top]


def extract_index(corner: np.ndarray, anchor: tuple[int, int] | None = None) -> IndexGlyphs | None:
    """Find the rank glyph and the suit glyph under it in ``corner``, the top-left part of an upright card face
    (BGR). With ``anchor`` (x, y), the rank glyph must cover that pixel. Returns None when there is no such pair."""
    if corner.ndim != 3 or corner.shape[0] < 20 or corner.shape[1] < 12:
        return None
    ink = _ink(corner)
    if ink is None:
        return None
    strength, mask, paper = ink
    H, W = mask.shape
    m = max(2, int(W * 0.07))
    mask[:m, :] = 0
    mask[:, :m] = 0
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    x, y, w, h, a = stats[1:].T
    ok = (a >= 10) & (h >= H * 0.06) & (h <= H * 0.45) & (w <= W * 0.75) & (a >= 0.12 * w * h)
    ok &= (x + w < W - 1) & (y + h < H - 1)  # not running off the corner: art or a frame, not an index
    if anchor is not None:  # the rank must cover the anchor: nothing else to do without one there
        ax, ay = anchor
        if not (ok & (x <= ax) & (ax < x + w) & (y <= ay) & (ay < y + h)).any():
            return None
    keep = np.nonzero(ok)[0]
    if keep.size < 2:
        return None
    keep = keep[np.argsort(y[keep], kind="stable")]
    comps = [(int(x[k]), int(y[k]), int(w[k]), int(h[k]), int(k) + 1) for k in keep]
    tops = comps[:3]
    if anchor is not None:
        ax, ay = anchor
        tops = sorted((c for c in comps if c[0] <= ax < c[0] + c[2] and c[1] <= ay < c[1] + c[3]),
                      key=lambda c: c[2] * c[3])[:1]
    for top in tops:
        x, y, w, h, i = top
        group = [top]
        for c in comps:
            if c is top:
                continue
            ov = min(y + h, c[1] + c[3]) - max(y, c[1])
            gap = max(c[0] - (x + w), x - (c[0] + c[2]))
            if ov > 0.6 * min(h, c[3]) and gap < 0.6 * h and abs(c[3] - h) < 0.35 * h:
                group.append(c)
        # in a corner cut round an anchor, a shape at the cut's left edge belongs to another card
        group = _rank_group(group, top, m if anchor is not None else -1)
        gx0 = min(c[0] for c in group)
        gy0 = min(c[1] for c in group)
        gx1 = max(c[0] + c[2] for c in group)
        gy1 = max(c[1] + c[3] for c in group)
        rh = gy1 - gy0
        rcx = (gx0 + gx1) / 2
        suit = None
        for c in comps:
            if c in group or c[1] < gy1 - 0.15 * rh:
                continue
            if c[1] - gy1 > 0.9 * rh:
                break
            ccx = c[0] + c[2] / 2
            if abs(ccx - rcx) < max(gx1 - gx0, c[2]) * 0.6 and 0.3 * rh < c[3] < 1.3 * rh:
                suit = c
                break
        if suit is None:
            continue
        rbox = (gx0, gy0, gx1 - gx0, gy1 - gy0)
        sbox = suit[:4]
        ids = [c[4] for c in group]
        rank = _norm_patch(strength, labels, ids, rbox, RANK_SIZE)
        suitp = _norm_patch(strength, labels, [suit[4]], sbox, SUIT_SIZE)
        sel = np.zeros(labels.shape, bool)
        for i in ids + [suit[4]]:
            sel |= labels == i
        inkcol = corner[sel].reshape(-1, 3).astype(np.float32) / paper
        b, g, r = np.median(inkcol, axis=0)
        redness = float((1.02 - min(b, g)) / max(1.02 - r, 0.05))
        return IndexGlyphs(rank, suitp, rbox, sbox, redness, rbox[2] / rbox[3], sbox[2] / sbox[3])
    return None


def features(g: IndexGlyphs) -> tuple[np.ndarray, np.ndarray]:
    """Feature vectors (rank, suit) for the classifiers."""
    fr = np.concatenate([g.rank.ravel(), [np.log(g.rank_aspect)]]).astype(np.float32)
    fs = np.concatenate([g.suit.ravel(), [np.log(g.suit_aspect)]]).astype(np.float32)
    return fr, fs
