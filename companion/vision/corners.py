"""Reading cards that are partly hidden (a fanned hand, a row laid in the play) from their index corner alone.

Where card stock does not form one whole card, every small dark shape on it is a possible rank glyph; a shape of
similar size just beside it is a possible suit glyph, and the direction from the first to the second is the card's
"down". The corner is cut out upright along that direction and read by the same code and classifiers as the corner
of a whole card.
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from .classifier import GlyphModel
from .detection import ACCEPT, accept_for
from .geometry import CARD_H, CARD_W

#: The upright corner cut around a candidate rank glyph: its size, where the glyph's centre goes, and the glyph
#: height it is scaled to (as in a flattened whole card).
CROP_W, CROP_H = int(CARD_W * 0.27), int(CARD_H * 0.5)
ANCHOR = (20, 40)
GLYPH_H = 22.0
#: At most this many candidate pairs are read per frame (the nearest pairs first), to bound the time.
MAX_PAIRS = 400
#: On card stock, ink is this many grey levels darker than the mean of the 31x31 pixels round it.
INK_MARGIN = 25


def ink_components(mn: np.ndarray, stock: np.ndarray, *, min_h: int, max_h: int, margin: float = INK_MARGIN):
    """Small dark shapes lying on card stock: arrays (cx, cy, w, h) for each. A pixel is ink where it is
    ``margin`` grey levels darker than the mean round it (see :data:`INK_MARGIN`)."""
    # only inside the box round the card stock: the rest of the frame is table
    bx, by, bw, bh = cv2.boundingRect(stock)
    if bw == 0 or bh == 0:
        return np.zeros((0, 4), np.float32)
    bx, by = max(bx - 20, 0), max(by - 20, 0)
    bw, bh = min(bw + 40, mn.shape[1] - bx), min(bh + 40, mn.shape[0] - by)
    sub = np.s_[by:by + bh, bx:bx + bw]
    ink = cv2.adaptiveThreshold(mn[sub], 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 31, margin)
    ink &= cv2.dilate(stock[sub], np.ones((9, 9), np.uint8))
    _, labels, stats, cents = cv2.connectedComponentsWithStatsWithAlgorithm(ink, 8, cv2.CV_32S, cv2.CCL_BBDT)
    stats[:, 0] += bx
    stats[:, 1] += by
    cents += (bx, by)
    x, y, w, h, a = stats[1:].T
    side = np.maximum(w, h)
    keep = (side >= min_h) & (side <= max_h) & (a >= 15) & (a >= 0.12 * w * h)
    # mostly surrounded by card stock
    idx = np.nonzero(keep)[0]
    good = []
    for i in idx:
        x0, y0 = max(x[i] - w[i] // 3, 0), max(y[i] - h[i] // 3, 0)
        box = stock[y0:y[i] + h[i] + h[i] // 3, x0:x[i] + w[i] + w[i] // 3]
        if box.size and cv2.mean(box)[0] > 0.35 * 255:  # (cv2.mean: the same mean, a tenth of numpy's time)
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


def upright_matrices(a: np.ndarray, b: np.ndarray, rank_h: np.ndarray) -> np.ndarray:
    """The affine maps (N x 2 x 3) from the frame to upright corner cuts, each with rank centre ``a[k]`` at
    :data:`ANCHOR` and suit centre ``b[k]`` straight below it, the rank scaled from ``rank_h[k]`` frame pixels to
    :data:`GLYPH_H`."""
    a, b = np.asarray(a, np.float64).reshape(-1, 2), np.asarray(b, np.float64).reshape(-1, 2)
    d = b - a
    d /= np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-6)  # the card's "down" in the frame
    r = np.column_stack([d[:, 1], -d[:, 0]])  # its "right"
    k = (GLYPH_H / np.asarray(rank_h, np.float64)).reshape(-1, 1)  # crop pixels per frame pixel
    m = np.empty((len(a), 2, 3))
    m[:, 0, :2], m[:, 1, :2] = r * k, d * k
    m[:, 0, 2] = ANCHOR[0] - k[:, 0] * (a * r).sum(1)
    m[:, 1, 2] = ANCHOR[1] - k[:, 0] * (a * d).sum(1)
    return m


def upright_matrix(a: np.ndarray, b: np.ndarray, rank_h: float) -> np.ndarray:
    """:func:`upright_matrices` for one pair (2x3)."""
    return upright_matrices(a, b, [rank_h])[0]


def cut(image: np.ndarray, m: np.ndarray) -> np.ndarray:
    """The corner cut out of ``image`` (BGR or grey) by the map ``m`` from :func:`upright_matrix`."""
    return cv2.warpAffine(image, m, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def read_pairs(frame: np.ndarray, mn: np.ndarray, pairs, model: GlyphModel, read_corners, *, colour=True):
    """Read the corner cuts for glyph pairs ``(a, b, rank_h)`` (rank centre, suit centre, rank height) from ``mn``
    (the frame's darkest channel), all at once; the colour frame is cut only where glyphs are named, and not at
    all without ``colour`` (then the ink's colour is not checked against the suit). Returns (reads, crop-to-frame
    maps)."""
    if not pairs:
        return [], []
    a, b, rank_h = zip(*pairs)
    mats = upright_matrices(np.array(a), np.array(b), np.array(rank_h))
    crops = np.stack([cut(mn, m) for m in mats])
    colours = [lambda m=m: cut(frame, m) for m in mats] if colour else None
    return read_corners(crops, model, anchor=ANCHOR, colours=colours), mats


#: A card is about this many times as tall as the distance from its rank's centre to its suit's (median 8.4 over 16
#: decks, 4.5 for decks with big indices: for those a card is judged by its glyphs, as it should be).
CARD_PER_DIST = 9.0
#: A read this sure but not sure enough (a small or blurred index, a neighbour's edge in the cut) gets more looks,
#: a little smaller, larger and turned; see :func:`_more_looks`.
BORDERLINE = 0.3
LOOKS = ((0.88, 0.0), (1.02, 0.0), (1.05, 0.05), (1.05, -0.05), (0.92, 0.04), (0.92, -0.04))


def _turn(v: np.ndarray, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]]) @ v


def _more_looks(first, looks) -> float:
    """The confidence of ``first`` (a borderline read) after more ``looks`` at it: the mean of the three surest
    reads naming its card, or 0 when fewer than three do or any look names another card."""
    confs = [first.confidence]
    for got in looks:
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


def search(frame: np.ndarray, mn: np.ndarray, stock: np.ndarray, model: GlyphModel, read_corners,
           *, card_width: float | None = None, glyph_range: tuple[int, int] | None = None, colour: bool = True,
           skip: np.ndarray | None = None, floor: bool = True, margin: float = INK_MARGIN,
           shapes_in: np.ndarray | None = None, doubtful: list | None = None, scale: float = 1.0):
    """Index corners read in ``frame`` where ``stock`` (uint8 mask) marks card stock not yet explained by whole
    cards. ``card_width`` (pixels), when known from whole cards, bounds the glyph size. Returns (code,
    confidence, 4 corners of the index box in frame coordinates, rank centre). A read is kept at the confidence
    detection.accept_for asks of a card CARD_PER_DIST times as tall as its rank-to-suit distance. ``glyph_range``
    (pixels) overrides the glyph sizes looked for, which are otherwise guessed from the frame's height. Without
    ``colour`` (a frame with no colour in it) the ink's colour is not checked against the suit. ``skip`` (uint8 mask,
    the frame's size): shapes whose centre it marks are not read (they belong to cards named already). With
    ``floor=False`` the size floor is lifted: every read that survives its second look is returned, however small
    its index (for ``tools/eval_misses``, which asks where a card was lost, never for naming a card). ``margin``: how
    much darker than its surroundings ink is (see :func:`ink_components`). ``shapes_in`` (grey, ``mn``'s size): where
    the shapes are found, when not in ``mn`` itself; they are cut and read from ``mn`` all the same. Reads below
    their floor that another read of the same card may confirm (see :data:`PAIRED`) are confirmed among this
    search's reads, or, given a ``doubtful`` list, added to it for the caller to confirm (:func:`paired`) among
    several searches' reads."""
    h = frame.shape[0]
    lo, hi = glyph_range or (max(6, h // 120), max(20, h // 12))
    if card_width:
        lo, hi = max(lo, int(0.05 * card_width)), min(hi, int(0.25 * card_width) + 1)
    comps = ink_components(mn if shapes_in is None else shapes_in, stock, min_h=lo, max_h=hi, margin=margin)
    if skip is not None and len(comps):
        cx = np.clip(comps[:, 0].astype(int), 0, skip.shape[1] - 1)
        cy = np.clip(comps[:, 1].astype(int), 0, skip.shape[0] - 1)
        comps = comps[skip[cy, cx] == 0]
    pairs = candidate_pairs(comps)
    # every pair is read in one batch; then, nearest pairs first, a glyph already part of an index is not reused
    ij = np.array(pairs, int).reshape(-1, 2)
    step = comps[ij[:, 1], :2] - comps[ij[:, 0], :2]
    dists = np.sqrt((step * step).sum(axis=1)).astype(float).tolist()
    first, mats = read_pairs(frame, mn, [(comps[i, :2], comps[j, :2], 0.95 * d) for (i, j), d in zip(pairs, dists)],
                             model, read_corners, colour=colour)
    need = [accept_for(CARD_PER_DIST * d / scale) if floor else 0.0 for d in dists]
    # a read must survive a second look, a little larger and turned a little, that only has to name the same
    # card; a borderline one gets six more looks (LOOKS) whose confidence counts. All are read in two batches.
    again_of: dict[int, list] = {}
    more_of: dict[int, list] = {}
    for batch, in_colour in ((again_of, False), (more_of, colour)):
        extra, owner = [], []
        for k, ((i, j), dist, got) in enumerate(zip(pairs, dists, first)):
            if got is None or got.code is None or got.confidence < BORDERLINE:
                continue
            looks = [(1.12, 0.07)] if batch is again_of else list(LOOKS) if got.confidence < need[k] else []
            a, b = comps[i, :2], comps[j, :2]
            extra += [(a, a + _turn(b - a, angle), scale * dist) for scale, angle in looks]
            owner += [k] * len(looks)
        for k, got in zip(owner, read_pairs(frame, mn, extra, model, read_corners, colour=in_colour)[0]):
            batch.setdefault(k, []).append(got)
    reads = []
    held = []  # named, but below the floor its size asks for: see PAIRED
    used: set[int] = set()
    for k, ((i, j), got, m) in enumerate(zip(pairs, first, mats)):
        if k not in again_of or i in used or j in used:
            continue
        (again,) = again_of[k]
        if again is not None and again.code not in (None, got.code):  # a second look that reads another card
            continue
        if got.confidence < need[k]:
            conf = _more_looks(got, more_of.get(k, []))
            if conf < need[k]:
                if PAIRED and conf >= ACCEPT:
                    held.append(Doubtful(got.code, conf, _index_box(got, m), comps[i, :2], need[k],
                                         CARD_PER_DIST * dists[k], (i, j)))
                continue
            got.confidence = conf
        reads.append((got.code, got.confidence, _index_box(got, m), comps[i, :2]))
        used.update((i, j))
    held = [d for d in held if not used.intersection(d.glyphs)]
    if doubtful is None:
        reads += paired(reads, held)
    else:
        doubtful += held
    return _outsized_dropped(reads)


#: A read below the floor its size asks for (``detection.accept_for``; at least ACCEPT after its more looks) is
#: still named where another read of the same card lies about a card's diagonal away (its other index): the two
#: corners' confidences combine as a whole card's two corners do (``reader._card``), against the same floor.
PAIRED = True
#: The other index lies this many (min, max) card heights away (a card is CARD_PER_DIST rank-to-suit steps tall).
PAIRED_SPAN = (0.75, 1.45)


class Doubtful(NamedTuple):
    """A read below its floor (see PAIRED): as :func:`search` gives a read, with that floor, the height of the card
    its index says (pixels) and the two shapes it was read from."""

    code: str
    conf: float
    pts: np.ndarray
    centre: np.ndarray
    need: float
    tall: float
    glyphs: tuple[int, int]


def paired(reads: list, doubtful: list[Doubtful]) -> list:
    """The ``doubtful`` reads, as (code, confidence, box, centre), that another read of the same code (among
    ``reads`` or ``doubtful``) confirms: it lies where the card's other index would (see PAIRED)."""
    out = []
    others = [(r[0], r[1], np.asarray(r[3], np.float64)) for r in reads]
    others += [(d.code, d.conf, np.asarray(d.centre, np.float64)) for d in doubtful]
    for d in doubtful:
        here = np.asarray(d.centre, np.float64)
        best = max((conf for code, conf, at in others if code == d.code and
                    PAIRED_SPAN[0] * d.tall <= float(np.linalg.norm(at - here)) <= PAIRED_SPAN[1] * d.tall),
                   default=0.0)
        conf = 1 - (1 - d.conf) * (1 - best)
        if best and conf >= d.need:
            out.append((d.code, conf, d.pts, d.centre))
    return out


def other_index(reads: list, top) -> list:
    """Those of ``reads`` (code, confidence, box, centre; one code) that lie well apart from ``top``, more than twice
    its index box's diagonal: the card's other index read the same, a second look agreeing (in ``reads``' order).

    >>> box = np.float32([[0, 0], [10, 0], [10, 20], [0, 20]])
    >>> near, far = ("6D", 0.9, box, np.float32([5, 8])), ("6D", 0.8, box + 100, np.float32([105, 108]))
    >>> [r[1] for r in other_index([near, far], near)]
    [0.8]
    """
    span = float(np.linalg.norm(top[2][2] - top[2][0]))
    return [r for r in reads if np.linalg.norm(r[3] - top[3]) > 2 * span]


def one_name_a_place(reads: list) -> list:
    """``reads`` (code, confidence, box, centre; one a code) but those where another name was read at the same
    place (centres within a quarter of the index box's diagonal): two names clash there, neither is kept."""
    out = []
    for k, r in enumerate(reads):
        span = float(np.linalg.norm(r[2][2] - r[2][0]))
        if not any(np.linalg.norm(r[3] - o[3]) < 0.25 * span for j, o in enumerate(reads) if j != k):
            out.append(r)
    return out


#: An index read whose box runs off the frame by more than this share of its size is not named: the frame's edge cuts
#: its rank, and the cut repeats the frame's last row where the rest of it was (an AD's index, its A half gone at
#: the top of a webcam frame, read as TD at 0.85). On cardcounter's train part the 641 index reads that named a card
#: on the table ran off by 0.13 of their size at most; the one over 0.25 was that TD (0.66).
OFF_FRAME = 0.25


def off_frame(pts: np.ndarray, shape: tuple[int, ...]) -> float:
    """How far the index box ``pts`` (4 x 2, frame coordinates) runs off a frame of ``shape`` (height, width, ...),
    as a share of the box's size.

    >>> off_frame(np.float32([[10, -5], [30, -5], [30, 35], [10, 35]]), (480, 640))
    0.1667
    """
    h, w = shape[:2]
    c = np.asarray(pts, np.float64)
    out = max(0.0, -c[:, 0].min(), -c[:, 1].min(), c[:, 0].max() - (w - 1), c[:, 1].max() - (h - 1))
    return round(float(out) / max(float(np.ptp(c[:, 0]) + np.ptp(c[:, 1])) / 2, 1.0), 4)


def _index_box(got, m: np.ndarray) -> np.ndarray:
    """The 4 corners (frame coordinates) of the index ``got`` read in the cut made by the map ``m``."""
    g = got.glyphs
    x0 = min(g.rank_box[0], g.suit_box[0]) - 2
    y0 = g.rank_box[1] - 2
    x1 = max(g.rank_box[0] + g.rank_box[2], g.suit_box[0] + g.suit_box[2]) + 2
    y1 = g.suit_box[1] + g.suit_box[3] + 2
    box = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    return cv2.transform(box[None], cv2.invertAffineTransform(m))[0]


#: An index read more than OUTSIZE times as large as the median of the others read in the same search (at least
#: three others) is named only at OUTSIZE_ACCEPT or more: such a "rank" over a "suit" is more often two pips of a
#: card's face (a club pip cut by the next card's edge read as an A) than an index, the cards of one table being
#: about one size.
OUTSIZE, OUTSIZE_ACCEPT = 1.6, 0.97


def _outsized_dropped(reads: list) -> list:
    if len(reads) < 4:
        return reads
    spans = np.array([float(np.linalg.norm(pts[2] - pts[0])) for _, _, pts, _ in reads])
    keep = []
    for k, read in enumerate(reads):
        if spans[k] > OUTSIZE * float(np.median(np.delete(spans, k))) and read[1] < OUTSIZE_ACCEPT:
            continue
        keep.append(read)
    return keep
