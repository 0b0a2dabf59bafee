"""Whole cards found round the index corners the learned detector marks, by telling a card's paper from the table
in a window round each mark.

The brightness-based reader (``geometry.find_quads``) splits the whole frame into bright card stock and the rest.
On a table as light as the cards (white laminate, pale wood, a cream cloth under warm light) or under a hand's
shadow that split fails, and small cards are then left to their index corners alone, which at 720p are a 10 px rank
and an 8 px suit (often unread). But where the network marks an index corner, the paper beside it is known: its
colour is sampled there, and the card is the card-shaped patch of that colour round the mark. Such a card is then
read as any whole card is (``reader.read_cards``): both index corners, and an ace to ten's pips.

>>> import numpy as np
>>> quads_near(np.zeros((90, 160, 3), np.uint8), [])
[]
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from .geometry import order_corners, quad_of, scaled

#: The window round a marked corner is this many times the corner's size on each side of it: a card is about
#: 8-10 index corners tall, so the window holds the whole card whichever way it lies from its corner. (Synthetic
#: 720p scenes of the bundled deck, seed 77: 126 / 160 px cards 117 / 161 of 180 at 10, 116 / 160 at 13.)
WINDOW = 10.0
#: The smallest window (pixels either side of the mark).
WINDOW_MIN = 60
#: A window is split in the frame halved until the marked corner is at most this many pixels.
WORK_CORNER = 16.0
#: How much brightness counts beside colour in the distance from the paper's colour (CIELAB, L weighed so): a card
#: half in a hand's shadow is darker there, but still its paper's colour.
LIGHTNESS = 0.3
#: The distance from the paper's colour is split into paper and not-paper at up to this many levels (Otsu, then
#: Otsu again within the nearer part): a window holding a shadow's edge splits light from dark table first.
LEVELS = 3
#: A card found is this much larger than its patch of paper, which sits just inside the card's edge.
GROW = 1.02
#: The least share of its hull a card's patch of paper fills. Pips and an index touching the card's edge or a
#: border line printed round it dent the patch deeply at a small card's size; its hull is still the card's.
#: (Synthetic 720p scenes, cards named at 126 / 160 / 196 px, the outline itself as before -> its hull at 0.7:
#: bundled deck seed 77 114 / 152 / 165 -> 114 / 151 / 165 of 180; anglo + plastic seed 31 190 / 202 / 220 ->
#: 192 / 203 / 220 of 240; bellot + paris seed 2027 173 / 253 / 300 -> 175 / 255 / 303 of 360; none misread.)
FILL = 0.7


def paper_colour(lab: np.ndarray) -> np.ndarray:
    """The paper's colour (CIELAB, uint8 as OpenCV scales it) among ``lab``'s pixels (N x 3): the median of the
    tenth that are lightest and least coloured (lightness less twice the chroma), as a card's white is beside its
    ink and beside a cream or wooden table (on a light table the marked cells may hold more table than card)."""
    px = lab.astype(np.float32)
    score = px[:, 0] - 2 * (np.abs(px[:, 1] - 128) + np.abs(px[:, 2] - 128))
    return np.median(px[score >= np.percentile(score, 90)], axis=0)


def quads_near(img: np.ndarray, patches: Sequence) -> list[np.ndarray]:
    """Whole cards (4 x 2 corners, frame coordinates, ordered as ``geometry.order_corners``) round the marked
    index corners ``patches`` (``detector.Patch``, those outside the cards named already: ``detector.
    marked_patches``) of ``img`` (BGR): one at most for each mark, none for a mark whose middle lies inside a card
    found here already."""
    found: list[np.ndarray] = []
    pyramid = [img]  # the frame halved as often as a large corner asks (an outline needs few pixels)
    for patch in patches:
        box, middle, small = patch.box, patch.middle, patch.small
        if any(cv2.pointPolygonTest(p, middle, False) >= 0 for p in found):
            continue
        k = 0
        while small / 2 ** k > WORK_CORNER:
            k += 1
        while len(pyramid) <= k:
            pyramid.append(cv2.pyrDown(pyramid[-1]))
        f = 0.5 ** k
        quad = _card_near(pyramid[k], [v * f for v in box], (middle[0] * f, middle[1] * f), small * f,
                          int(max(WINDOW * small * f, WINDOW_MIN)), blur=k == 0)
        if quad is not None:
            found.append(scaled(order_corners(quad / f), GROW).astype(np.float32))
    return found


def _card_near(img: np.ndarray, box, middle: tuple[float, float], corner: float, reach: int,
               blur: bool = True) -> np.ndarray | None:
    """The whole card round the marked corner at ``box`` (its cells' bounds) and ``middle`` in ``img``, ``corner``
    pixels in size, found in a window ``reach`` pixels round the mark: 4 x 2 corners in ``img``'s coordinates, or
    None. ``blur``: smooth the window first (a pyramid's smaller levels are smooth already)."""
    fh, fw = img.shape[:2]
    x0, y0 = int(max(middle[0] - reach, 0)), int(max(middle[1] - reach, 0))
    x1, y1 = int(min(middle[0] + reach, fw)), int(min(middle[1] + reach, fh))
    if x1 - x0 < 20 or y1 - y0 < 20:
        return None
    window = img[y0:y1, x0:x1]
    lab = cv2.cvtColor(cv2.GaussianBlur(window, (3, 3), 0) if blur else window, cv2.COLOR_BGR2Lab)
    bx0, by0, bx1, by1 = (int(v - o) for v, o in zip(box, (x0, y0, x0, y0)))
    mark = lab[max(by0, 0):max(by1, 1), max(bx0, 0):max(bx1, 1)]
    if mark.size < 30:
        return None
    quad = _card_round(lab, paper_colour(mark.reshape(-1, 3)), (middle[0] - x0, middle[1] - y0), corner)
    return None if quad is None else quad + (x0, y0)


def distance(lab: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """How far each pixel of ``lab`` (uint8 CIELAB) is from the ``paper`` colour, twice its city-block distance with
    lightness weighed by :data:`LIGHTNESS`'s square root, in grey levels (uint8, saturating)."""
    ch = cv2.split(lab)
    d = [cv2.absdiff(c, np.full_like(c, int(round(float(v))))) for c, v in zip(ch, paper)]
    return cv2.addWeighted(d[0], 2 * LIGHTNESS ** 0.5, cv2.add(d[1], d[2]), 2.0, 0.0)


def fitted(outline: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad`` (4 x 2, ``outline``'s rough quadrilateral) with its corners where lines fitted to ``outline``'s four
    sides meet: a card's rounded corners pull a polygon's vertices inwards (by a tenth of a small card's width at
    the window's scale), and a tight quad cuts off the side of an index printed close to the edge (a 3 so cut was
    read as a J, both corners agreeing). The quad is kept where a side has too few points near it to fit.

    >>> square = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    >>> outline = np.concatenate([np.linspace(a, b, 50) for a, b in zip(square, np.roll(square, -1, 0))])
    >>> np.round(fitted(outline.reshape(-1, 1, 2), square + [[4, 4], [-4, 4], [-4, -4], [4, -4]])).astype(int).tolist()
    [[0, 0], [100, 0], [100, 140], [0, 140]]
    """
    pts = outline.reshape(-1, 2).astype(np.float32)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        length = float(np.linalg.norm(b - a))
        along = (b - a) / max(length, 1e-6)
        rel = pts - a
        t, off = rel @ along, rel @ np.array([-along[1], along[0]], np.float32)
        # the straight middle of the side: off the rounded corners, and off a dent an index close to the edge makes
        near = pts[(t > 0.15 * length) & (t < 0.85 * length) & (np.abs(off) < max(3.0, 0.06 * length))]
        if len(near) < 8:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)))
    out = []
    for i in range(4):
        (p, u), (q, v) = lines[i - 1], lines[i]
        det = u[0] * -v[1] - u[1] * -v[0]
        if abs(det) < 0.2:
            return quad  # (two sides nearly parallel: no corner between them)
        s = ((q - p)[0] * -v[1] - (q - p)[1] * -v[0]) / det
        out.append(p + s * u)
    corners = np.array(out, np.float32)
    short = min(np.linalg.norm(quad - np.roll(quad, -1, 0), axis=1))
    if np.linalg.norm(corners - quad, axis=1).max() > 0.2 * short:
        return quad  # (a fit pulled far off by the table: the rough quad is nearer)
    return corners


def _card_round(lab: np.ndarray, paper: np.ndarray, mark: tuple[float, float],
                corner: float) -> np.ndarray | None:
    """The card-shaped patch of ``paper``'s colour in the window ``lab`` that holds ``mark`` (the marked corner's
    middle, within ``corner`` pixels, its size) and lies wholly inside the window: 4 x 2 corners, or None."""
    d8 = distance(lab, paper)
    h, w = d8.shape
    near = d8.reshape(1, -1)
    for _ in range(LEVELS):
        if near.size < 50:
            break
        t, _ = cv2.threshold(near, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        if t < 6:
            break  # (no contrast left to split)
        mask = cv2.morphologyEx((d8 < t).astype(np.uint8) * 255, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for outline in outlines:
            area = cv2.contourArea(outline)
            if area < 4 * corner * corner or cv2.pointPolygonTest(outline, mark, True) < -corner:
                continue
            x, y, bw, bh = cv2.boundingRect(outline)
            if x < 2 or y < 2 or x + bw > w - 2 or y + bh > h - 2:
                continue  # cut by the window: not all of it (or table)
            hull = cv2.convexHull(outline)
            hull_area = cv2.contourArea(hull)
            if area < FILL * hull_area:
                continue
            quad = quad_of(hull, hull_area, box_fill=0.9)  # (a corner cut off the patch is fitted back below)
            if quad is not None:
                return fitted(outline, quad)
        near = near[near < t].reshape(1, -1)
    return None
