"""Reading a number card's pips: how many there are, their suit and their colour, as a second look at a whole card.

A card 126-160 px tall in a 720p frame has an index rank 10-12 px high and a suit glyph of 6-8, which blur and
JPEG make hard to read; its pips are two or three times that size. For an ace to a ten the pips count the rank and
show the suit in large, so where they agree with what the index says they make a doubtful read sure, and where
their ink's colour says the index read a black card red (or red black) they say the read is wrong.

>>> import numpy as np
>>> read_pips(np.full((290, 200, 3), 255, np.uint8), None) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .classifier import GlyphModel
from .glyphs import SUIT_SIZE, norm_patch, redness
from .levels import percentiles

#: How many pips each rank has.
COUNT = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10}
#: The part of a flattened card (fractions of width and height: x0, x1, y0, y1) where the pips are, clear of the
#: two index corners.
FIELD = (0.15, 0.85, 0.06, 0.94)
#: A pip's area is within this range of the median pip's; any other shape in the field (a court card's picture, a
#: large ornate ace, the next card's edge) means the pips are not read.
AREA_RANGE = (0.5, 1.8)
#: A pip is this tall (share of the card's height) and this wide for its height; an ace's one pip may be up to
#: ACE_H tall (a plastic deck's is 0.43-0.48).
PIP_H, PIP_ASPECT, ACE_H = (0.07, 0.3), (0.6, 1.5), 0.55
#: Pips this near the middle of the card (share of its height either side) may be upright or turned: not used for
#: the suit (the pips above are upright, those below are turned, in every standard layout).
MIDDLE = 0.06


@dataclass(frozen=True)
class Pips:
    """What a number card's pips say: how many (1 for an ace), the suit the suit classifier gives their shapes
    (the mean of its probabilities over the pips, ``confidence``), and their ink's redness, measured as an index's
    is (about 1 for black ink, 2 or more for red)."""

    count: int
    suit: str
    confidence: float
    redness: float
    laid_out: bool = False  # whether they lie as a standard layout of ``count`` pips does (:func:`laid_out`)


def read_pips(card: np.ndarray, model: GlyphModel | None) -> Pips | None:
    """The pips of ``card``, a whole card flattened upright (BGR, ``geometry.warp_card``), or None where its
    field holds anything but 1-10 shapes of one size (a court card's picture, a card over it, no contrast).
    ``model`` names the pips' suit; without it (None) no card is read."""
    h, w = card.shape[:2]
    x0, x1, y0, y1 = int(FIELD[0] * w), int(FIELD[1] * w), int(FIELD[2] * h), int(FIELD[3] * h)
    colour = card[y0:y1, x0:x1]
    part = cv2.min(cv2.min(colour[:, :, 0], colour[:, :, 1]), colour[:, :, 2])
    paper, dark = (float(v) for v in percentiles(part, (90, 2)))
    if paper - dark < 45 or model is None:
        return None
    level, ink = cv2.threshold(part, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    area = stats[:, cv2.CC_STAT_AREA]
    cut = (stats[:, 0] == 0) | (stats[:, 1] == 0) | (stats[:, 0] + stats[:, 2] >= ink.shape[1]) | (
        stats[:, 1] + stats[:, 3] >= ink.shape[0])  # shapes the field's border cuts
    shapes = [k for k in range(1, n) if area[k] >= 0.0015 * part.size and not cut[k]]  # not specks
    if not 1 <= len(shapes) <= 10:
        return None
    median = float(np.median(area[shapes]))
    # a shape cut by the field's border may be a pip (it could not be counted) or the end of an index glyph or of
    # the card's edge (small beside a pip): only the second is let be
    if any(cut[k] and area[k] >= 0.2 * median for k in range(1, n)):
        return None
    tallest = ACE_H if len(shapes) == 1 else PIP_H[1]
    for k in shapes:
        bw, bh = stats[k, 2], stats[k, 3]
        if not (AREA_RANGE[0] * median <= area[k] <= AREA_RANGE[1] * median
                and PIP_H[0] * h <= bh <= tallest * h and PIP_ASPECT[0] <= bw / bh <= PIP_ASPECT[1]):
            return None
    feats = []
    for k in shapes:
        x, y, bw, bh = stats[k, :4]
        middle = (y0 + y + bh / 2) / h - 0.5
        if abs(middle) < MIDDLE and len(shapes) > 1:
            continue  # (an ace's one pip is upright)
        pip = norm_patch(part, (paper, dark), labels, [k], (x, y, bw, bh), SUIT_SIZE)
        if middle > 0:
            pip = pip[::-1, ::-1]  # a pip in the lower half is printed upside down
        feats.append(np.append(pip.ravel(), np.float32(np.log(bw / bh))).astype(np.float32))
    if not feats:
        return None
    probs = model.suit.probs(np.stack(feats)).mean(axis=0)
    best = int(probs.argmax())
    # the colour from the pips' inside (eroded: their edges are half paper) against the paper between them
    inside = cv2.erode((np.isin(labels, shapes)).view(np.uint8), np.ones((3, 3), np.uint8)) > 0
    between = part > (paper + level) / 2
    if cv2.countNonZero(inside.view(np.uint8)) < 10 or not between.any():
        return None
    red = redness(colour[inside], colour[between].reshape(-1, 3).mean(axis=0))
    centres = np.array([((x0 + stats[k, 0] + stats[k, 2] / 2) / w, (y0 + stats[k, 1] + stats[k, 3] / 2) / h)
                        for k in shapes])
    return Pips(len(shapes), model.suit.classes[best], float(probs[best]), red, laid_out(centres))


#: Two pips' places (fractions of the card's width and height) this near count as mirrored, or as on the centre line.
MIRROR = 0.06


def laid_out(centres: np.ndarray) -> bool:
    """Whether pips at ``centres`` (N x 2, fractions of the card's width and height) lie as every standard layout
    of N pips does: each pip has a twin turned half a turn about the card's centre (a pip at the centre is its own),
    but for a seven's one extra pip on the centre line. Two pips run together, a pip hidden by a card over it, or a
    speck of table among them break it.

    >>> laid_out(np.array([[0.5, 0.2], [0.5, 0.8]])), laid_out(np.array([[0.5, 0.2], [0.3, 0.8]]))
    (True, False)
    """
    n = len(centres)
    if n < 2:
        return False
    turned = 1.0 - centres
    d = np.abs(centres[:, None, :] - turned[None, :, :]).max(axis=2)  # d[i, j]: pip i from pip j's twin place
    # a pip at the centre is its own twin, MIRROR from it at most (some decks set a nine's centre pip a little low)
    np.fill_diagonal(d, np.diag(d) / 2)
    lone = [i for i in range(n) if d[i].min() > MIRROR]
    if not lone:
        return True
    return bool(n == 7 and len(lone) == 1 and abs(centres[lone[0], 0] - 0.5) < MIRROR)
