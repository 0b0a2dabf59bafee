"""Finding card-shaped things in a frame and flattening them: the geometry half of the card reader."""

from __future__ import annotations

import cv2
import numpy as np

#: Size of a flattened card face (width, height) in pixels.
CARD_W, CARD_H = 200, 290
#: The work size: frames are scaled so their longer side is at most this many pixels for finding cards.
WORK_SIDE = 820


def order_corners(pts: np.ndarray) -> np.ndarray:
    """Order four points clockwise (in image coordinates) with the first at the start of a short side, so that
    warping TL, TR, BR, BL gives an upright (portrait) card."""
    pts = np.asarray(pts, np.float32).reshape(4, 2)
    c = pts.mean(0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]  # clockwise on screen (y down)
    d01 = np.linalg.norm(pts[1] - pts[0])
    d12 = np.linalg.norm(pts[2] - pts[1])
    if d01 > d12:  # make the first side a short one
        pts = np.roll(pts, -1, axis=0)
    return pts


def warp_card(frame: np.ndarray, corners: np.ndarray, size=(CARD_W, CARD_H), crop=None) -> np.ndarray:
    """The card at ``corners`` flattened to ``size`` (w, h); with ``crop`` (w, h) only its top-left part."""
    w, h = size
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
    return cv2.warpPerspective(frame, m, crop or (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def white_balance(img: np.ndarray) -> np.ndarray:
    """Scale the colour channels so that the brightest pixels (most likely card stock) come out grey: warm
    indoor light otherwise makes white cards look as coloured as a wooden table."""
    sample = np.ascontiguousarray(img[::4, ::4]).reshape(-1, 3)
    bright = sample.astype(np.int32).sum(axis=1)
    cut = np.partition(bright, int(0.97 * (bright.size - 1)))[int(0.97 * (bright.size - 1))]
    top = sample[bright >= cut].astype(np.float32).mean(axis=0) + 1
    gains = top.max() / top
    if gains.max() < 1.04:
        return img
    return cv2.transform(img, np.diag(np.minimum(gains, 2.0)).astype(np.float32))


def card_masks(small: np.ndarray) -> list[np.ndarray]:
    """Candidate masks of card stock (bright, nearly colourless pixels) at a few brightness thresholds: the
    frame's two-class split, and the split of its bright class (white cards on a light grey table)."""
    small = white_balance(small)
    b, g, r = cv2.split(small)
    mn = cv2.min(cv2.min(b, g), r)
    neutral = cv2.subtract(cv2.max(cv2.max(b, g), r), mn) < 70
    t1, _ = cv2.threshold(mn, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    levels = [max(t1, 80)]
    bright = mn[mn > t1]
    if bright.size > 100:
        t2, _ = cv2.threshold(bright.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        if t2 > levels[0] + 15:
            levels.append(t2)
    # card outlines cut the mask, so a card touching a bright patch of table stays a shape of its own
    edges = cv2.dilate(cv2.Canny(cv2.GaussianBlur(mn, (3, 3), 0), 20, 60), np.ones((2, 2), np.uint8))
    kernel = np.ones((3, 3), np.uint8)
    masks = []
    for t in levels:
        mask = ((mn > t) & neutral).astype(np.uint8) * 255
        masks.append(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel))
        masks.append(cv2.morphologyEx(mask & ~edges, cv2.MORPH_OPEN, kernel))
    # a lower level cut by edges: cards in the dim part of an unevenly lit table
    mask = ((mn > 0.75 * levels[0]) & neutral).astype(np.uint8) * 255
    masks.append(np.zeros_like(mask))  # (even places: whole shapes, odd places: shapes cut by edges)
    masks.append(cv2.morphologyEx(mask & ~edges, cv2.MORPH_OPEN, kernel))
    return masks


#: A card-shaped outline holding two or more cards apart, each smaller than this share of its area, is no card: it
#: is a patch of table between cards that happens to be card-shaped (a green cloth's outline round three small
#: cards was read as one "back", which hid them). A court card's picture frame is over half its card.
HOLDS_CARDS = 0.35


def _holds_cards(quad: np.ndarray, area: float, quads: list[np.ndarray], areas: np.ndarray) -> bool:
    """Whether ``quad`` (of ``area``) holds two or more of ``quads`` (of ``areas``) that lie apart, each under
    :data:`HOLDS_CARDS` of its area."""
    inner: list[np.ndarray] = []
    for k in np.nonzero(areas < HOLDS_CARDS * area)[0]:
        c = quads[k].mean(0)
        if cv2.pointPolygonTest(quad, (float(c[0]), float(c[1])), False) >= 0:
            if all(np.linalg.norm(c - o) > 0.5 * np.sqrt(areas[k]) for o in inner):  # (the same card found twice)
                inner.append(c)
    return len(inner) >= 2


def _outermost(quads: list[np.ndarray]) -> list[np.ndarray]:
    """Drop quads found twice and quads inside a bigger one (the frame round a court card's picture); but a quad
    that holds several smaller cards is dropped instead (:func:`_holds_cards`)."""
    areas = np.array([cv2.contourArea(q) for q in quads])
    quads = [quads[k] for k in np.argsort(-areas, kind="stable") if not _holds_cards(quads[k], areas[k], quads, areas)]
    kept: list[np.ndarray] = []
    for q in quads:
        c = q.mean(0)
        if not any(cv2.pointPolygonTest(k, (float(c[0]), float(c[1])), False) >= 0 for k in kept):
            kept.append(q)
    return kept


def scaled(quad: np.ndarray, factor: float) -> np.ndarray:
    """``quad`` (N x 2) scaled by ``factor`` about its centre: a little larger to hold a card whose outline was
    found just inside its edge, or round an index box read.

    >>> scaled(np.array([[0, 0], [2, 0], [2, 2], [0, 2]], np.float32), 1.5).tolist()
    [[-0.5, -0.5], [2.5, -0.5], [2.5, 2.5], [-0.5, 2.5]]
    """
    c = quad.mean(0)
    return c + (quad - c) * factor


def quad_of(cnt: np.ndarray, area: float, box_fill: float = 0.93) -> np.ndarray | None:
    """The card-proportioned convex quadrilateral that ``cnt`` (a contour of ``area``) is, or None. Where its hull
    is no quadrilateral, ``cnt`` must fill more than ``box_fill`` of its smallest bounding rectangle."""
    hull = cv2.convexHull(cnt)
    peri = cv2.arcLength(hull, True)
    approx = cv2.approxPolyDP(hull, 0.03 * peri, True)
    if len(approx) == 4:
        quad = approx.reshape(4, 2).astype(np.float32)
    else:
        quad = cv2.boxPoints(cv2.minAreaRect(cnt))
        if area / max(cv2.contourArea(quad), 1) <= box_fill:
            return None
    qa = cv2.contourArea(quad)
    sides = np.linalg.norm(quad - np.roll(quad, -1, 0), axis=1)
    short, long_ = sorted(((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))
    if 1.2 < long_ / max(short, 1e-6) < 1.8 and area / max(qa, 1) > 0.9 and qa / max(cv2.contourArea(hull), 1) > 0.9:
        return quad
    return None


def _grow(quad: np.ndarray, d: float) -> np.ndarray:
    """``quad`` with each side moved ``d`` pixels outwards."""
    out = []
    for i in range(4):
        a = quad[i] - quad[i - 1]
        b = quad[i] - quad[(i + 1) % 4]
        a /= max(np.linalg.norm(a), 1e-6)
        b /= max(np.linalg.norm(b), 1e-6)
        out.append(quad[i] + (a + b) * d)
    return np.array(out, np.float32)


def _inside_stock(quad: np.ndarray, stock: np.ndarray) -> bool:
    """Whether card stock surrounds ``quad`` on almost every side: then it is a frame printed on a card (a court
    card's picture) or a shape on paper, not a card's outline."""
    c = quad.mean(0)
    width = float(np.linalg.norm(quad[1] - quad[0]))
    t = np.linspace(0.1, 0.9, 9)[:, None]
    pts = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        side = a + (b - a) * t
        mid = (a + b) / 2
        out = (mid - c) / max(np.linalg.norm(mid - c), 1e-6)
        pts.append(side + out * 0.08 * width)
    pts = np.round(np.concatenate(pts)).astype(int)
    h, w = stock.shape
    ok = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
    if ok.sum() < 12:
        return False
    return float((stock[pts[ok, 1], pts[ok, 0]] > 0).mean()) > 0.8


def find_quads(frame: np.ndarray, *, min_area_frac: float = 0.002):
    """Card-shaped quadrilaterals in ``frame``: a list of corners (4x2, frame coordinates, ordered as
    :func:`order_corners`); the card-stock mask (uint8, frame size) when some card stock did not make a whole
    card (overlapping, partly hidden cards), else None; and the card-stock mask in any case."""
    h, w = frame.shape[:2]
    step = int(np.ceil(max(h, w) / WORK_SIDE))
    small = frame
    if step > 1:  # every step-th pixel: enough for outlines (resize picks the same pixels 10x faster than a slice)
        size = (-(-w // step), -(-h // step))
        exact = w % step == 0 and h % step == 0
        small = cv2.resize(frame, size, interpolation=cv2.INTER_NEAREST) if exact else \
            np.ascontiguousarray(frame[::step, ::step])
    scale = 1.0 / step
    sa = small.shape[0] * small.shape[1]
    masks = card_masks(small)
    quads, blobs = [], []

    def collect(mask, mode, grow=0.0):
        found, _ = cv2.findContours(mask, mode, cv2.CHAIN_APPROX_SIMPLE)
        for cnt in found:
            area = cv2.contourArea(cnt)
            if area < min_area_frac * sa or area > 0.4 * sa:
                continue
            quad = quad_of(cnt, area)
            if quad is not None:
                q = order_corners((_grow(quad, grow) if grow else quad) / scale)
                quads.append(scaled(q, 1.03))  # the mask sits just inside the card's edge
            elif area > 0.01 * sa and not grow:
                blobs.append(cnt)

    for k, mask in enumerate(masks):
        # in the masks cut by edges a card on a white table is a hole in the table's shape: list every contour
        collect(mask, cv2.RETR_LIST if k % 2 else cv2.RETR_EXTERNAL)
    if blobs:  # cards that touch: shrink the shapes apart, then grow the quads back
        kernel = np.ones((7, 7), np.uint8)
        for mask in masks[:2]:
            collect(cv2.erode(mask, kernel), cv2.RETR_EXTERNAL, grow=3.0)
    brightest = masks[2] if len(masks) == 6 else masks[0]  # card stock at the highest level: not a light table
    quads = [q for q in _outermost(quads) if not _inside_stock(q * scale, brightest)]
    stock = cv2.resize(masks[0], (w, h), interpolation=cv2.INTER_NEAREST) if step > 1 else masks[0]
    return quads, (stock if blobs else None), stock
