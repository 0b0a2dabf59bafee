"""Cutting the index (rank glyph over suit glyph) out of a flattened card corner and turning it into features."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable

import cv2
import numpy as np

RANK_SIZE = (16, 24)  # (w, h) of a normalised rank glyph
SUIT_SIZE = (16, 16)


@dataclass
class IndexGlyphs:
    """The index found in one corner: normalised glyph images, their boxes (x, y, w, h) in the corner image,
    and how red the ink is (white-balanced, about 1 for black ink, 2 or more for red). An index found in a grey
    corner has no redness until :meth:`measure_redness` is given the same corner in colour."""

    rank: np.ndarray
    suit: np.ndarray | None  # None until suit_patch() is first asked (a shape that is no rank needs no suit)
    rank_box: tuple[int, int, int, int]
    suit_box: tuple[int, int, int, int]
    redness: float | None
    rank_aspect: float
    suit_aspect: float
    pixels: Callable[[], tuple[np.ndarray, np.ndarray]] | None = None  # () -> (index ink, paper) masks
    make_suit: Callable[[], np.ndarray] | None = None
    faint: bool = False  # found only by the second look nearer the paper (:data:`FAINT`)

    def suit_patch(self) -> np.ndarray:
        """The normalised suit glyph, made when first needed."""
        if self.suit is None:
            self.suit = self.make_suit()
        return self.suit

    def measure_redness(self, corner: np.ndarray) -> float:
        """Measure (once) how red the index's ink is in ``corner``, the BGR image of the corner it was found in."""
        if self.redness is None:
            ink, paper_mask = self.pixels()
            self.redness = redness(corner[ink], np.array(cv2.mean(corner, paper_mask)[:3]))
        return self.redness


def redness(ink: np.ndarray, paper: np.ndarray) -> float:
    """How red ink is (about 1 for black, 2 or more for red): its pixels ``ink`` (BGR, N x 3) against the colour of
    the paper beside it (``paper``, BGR), red against green.

    Red against green alone: under warm or bright light the paper's green and red clip at 255 together while its
    blue does not, and black ink measured against that paper looked red by its blue (a plastic deck's 5S read as 5D
    under such light); the two channels that clip together stay even for black ink.

    >>> round(redness(np.array([[40, 40, 200]]), np.array([230, 235, 240])), 1)
    4.5
    """
    _, g, r = np.median(ink.reshape(-1, 3).astype(np.float32) / (np.asarray(paper, np.float64) + 1), axis=0)
    return float((1.02 - g) / max(1.02 - r, 0.05))


def _histograms(corners: np.ndarray) -> np.ndarray:
    """The grey-level histogram (256 bins) of each of ``corners`` (N x H x W, uint8)."""
    return np.stack([cv2.calcHist([c], [0], None, [256], [0, 256]).ravel() for c in corners])


def _levels(hist: np.ndarray) -> np.ndarray:
    """From histograms (N x 256) of the darkest channel of N corners: for each, the dark, paper-70% and paper
    levels (1%, 70% and 85% of pixels) and the ink threshold; NaN where there is no contrast. The threshold is
    Otsu's, computed as OpenCV computes it, then kept between the dark and paper levels."""
    hist = hist.astype(np.float64)
    cdf = np.cumsum(hist, axis=1)
    total = cdf[:, -1]
    dark, paper70, paper = ((cdf < (total * q)[:, None]).sum(axis=1).astype(np.float64) for q in (.01, .7, .85))
    # Otsu's threshold as OpenCV's C++ code defines it (getThreshVal_Otsu_8u: the first level of greatest
    # between-class variance), computed here so that every platform gets the same threshold whether or not its
    # OpenCV uses IPP, and for many corners at once
    p = hist / total[:, None]
    q1 = np.cumsum(p, axis=1)
    m1 = np.cumsum(p * np.arange(256), axis=1)
    q2 = 1.0 - q1
    eps = float(np.finfo(np.float32).eps)
    with np.errstate(divide="ignore", invalid="ignore"):
        mu1 = m1 / q1
        mu2 = (m1[:, -1:] - m1) / q2
        sigma = q1 * q2 * (mu2 - mu1) ** 2
    sigma[(np.minimum(q1, q2) < eps) | (np.maximum(q1, q2) > 1.0 - eps) | ~np.isfinite(sigma)] = 0.0
    otsu = sigma.argmax(axis=1).astype(np.float64)  # 0 where no level separates anything, as in OpenCV
    t = np.maximum(np.minimum(otsu, dark + 0.75 * (paper - dark)), paper - 0.4 * (paper - dark))
    bad = (paper < 60) | (paper - dark < 45)
    out = np.stack([dark, paper70, paper, t], axis=1)
    out[bad] = np.nan
    return out


def _strength(mn: np.ndarray, levels) -> np.ndarray:
    """Ink strength in [0, 1] per pixel of ``mn`` (a part of the corner)."""
    paper_level, dark_level = levels
    s = (paper_level - mn.astype(np.float32)) / max(paper_level - dark_level, 1)
    # (np.clip's values, without its Python-level dispatch: this runs for every glyph the corner search assembles)
    return np.minimum(np.maximum(s, 0, out=s), 1, out=s)


_DILATE = np.ones((3, 3), np.uint8)


def _shapes(labels: np.ndarray, ids) -> np.ndarray:
    """Where ``labels`` holds one of the (one or more) shapes ``ids``: np.isin's mask, without its dispatch, for the
    few shapes of one glyph."""
    mask = labels == ids[0]
    for i in ids[1:]:
        mask |= labels == i
    return mask


def norm_patch(mn: np.ndarray, levels, labels: np.ndarray, ids, box, size) -> np.ndarray:
    """The glyph of the shapes ``ids`` of ``labels`` in ``box`` (x, y, w, h) of ``mn``, as the classifiers take it:
    its ink strength against ``levels`` (paper, dark) scaled to ``size`` (w, h), less its mean, of unit norm."""
    x, y, w, h = box
    sub = _strength(mn[y:y + h, x:x + w], levels)
    lab = labels[y:y + h, x:x + w]
    keep = cv2.dilate(_shapes(lab, ids).view(np.uint8), _DILATE)
    patch = cv2.resize(sub * keep, size, interpolation=cv2.INTER_AREA)
    patch = patch - patch.mean()
    flat = patch.ravel()
    n = np.sqrt(flat.dot(flat))  # (np.linalg.norm's own sum, without its checks)
    return patch / n if n > 1e-6 else patch


#: A rank of two glyphs is a "10": its left glyph, the "1", is at most this wide for its height (0.09-0.33 in
#: the decks trained on; a "J" is about 0.5) and narrower than ONE_MAX_SHARE of the glyph right of it. (OpenCV 4.6
#: draws the flagged Hershey "1" of the drawn deck 0.39 wide after blur: at 0.38 its "0" alone was read as Q.)
ONE_MAX_ASPECT, ONE_MAX_SHARE = 0.45, 0.7


def _rank_group(group: list, top: tuple, margin: int) -> list:
    """The glyphs that make the rank: ``top`` alone, or a "1" and the glyph right of it. In a fanned hand the next
    card's rank sits just beside this one ("5K"), and the cut edge of a card under it makes a thin dark bar at the
    left: neither is part of this rank."""
    if len(group) == 1:
        return group
    row = sorted(group, key=lambda c: c[0])
    k = row.index(top)
    narrow = [c[2] <= ONE_MAX_ASPECT * c[3] and c[0] > margin for c in row]
    if k + 1 < len(row) and narrow[k] and top[2] <= ONE_MAX_SHARE * row[k + 1][2]:
        return [top, row[k + 1]]
    if k > 0 and narrow[k - 1] and row[k - 1][2] <= ONE_MAX_SHARE * top[2]:
        return [row[k - 1], top]
    return [top]


def extract_index(corner: np.ndarray, anchor: tuple[int, int] | None = None) -> IndexGlyphs | None:
    """Find the rank glyph and the suit glyph under it in ``corner``, the top-left part of an upright card face
    (BGR; or grey, the darkest of its channels, and then the redness is measured later). With ``anchor``
    (x, y), the rank glyph must cover that pixel. Returns None when there is no such pair."""
    if corner.ndim not in (2, 3) or corner.shape[0] < 20 or corner.shape[1] < 12:
        return None
    if corner.ndim == 3:
        if corner.shape[2] != 3:
            return None
        b, g, r = cv2.split(corner)
        mn = cv2.min(cv2.min(b, g), r)
    else:
        mn = corner
    found = extract_indices(mn[None], anchor)[0]
    if found is not None and corner.ndim == 3:
        found.measure_redness(corner)
    return found


def blank_margin(width: int) -> int:
    """The rows and columns at a corner cut's top and left (``width`` px wide) that are left out of its ink: they
    hold the card's edge or the next card, and keep the cuts apart when labelled as one tall image."""
    return max(2, int(width * 0.07))


def extract_indices(corners: np.ndarray, anchor: tuple[int, int] | None = None) -> list[IndexGlyphs | None]:
    """:func:`extract_index` for many grey corners of one size at once (N x H x W, uint8): one histogram pass,
    one threshold pass and one labelling of all of them, which is what makes the corner search affordable."""
    corners = np.ascontiguousarray(corners, dtype=np.uint8)
    n, H, W = corners.shape
    out: list[IndexGlyphs | None] = [None] * n
    if n == 0:
        return out
    # with an anchor, the ink threshold is set by the rows round it alone (the rank, its suit and the paper between):
    # lower in the cut, shade, a dark pip or the next card would set it for the index (a pale rank lost beside a
    # dark heart, light ink on black stock beside the table)
    rows = corners if anchor is None else corners[:, max(0, anchor[1] - H // 6):anchor[1] + H // 3]
    levels = _levels(_histograms(rows))
    live = np.nonzero(~np.isnan(levels[:, 3]))[0]
    if live.size == 0:
        return out
    m = blank_margin(W)
    cuts, cut_levels = corners[live], levels[live]  # the corners with contrast enough to read
    got, odd = _read_at(cuts, cut_levels, anchor, m)
    if anchor is not None:
        # no glyph at the anchor with the rows round it (nothing there, a speck, or a shape too big: the rank joined
        # to a court picture's frame): the whole cut's levels, which the picture's darker ink sets, may part them
        again = [t for t, g in enumerate(got) if g is None and odd[t]]
        if again:
            whole = _levels(_histograms(cuts[again]))
            # (where the two thresholds are about the same, so is what they find)
            fine = np.nonzero(np.abs(whole[:, 3] - cut_levels[again, 3]) >= 3)[0]
            which = [again[k] for k in fine]
            if which:
                for t, g in zip(which, _read_at(cuts[which], whole[fine], anchor, m)[0]):
                    got[t] = g
    for t, g in zip(live, got):
        out[t] = g
    return out


#: A corner with no ink at its anchor is looked at again with the threshold this share of its paper-to-dark range
#: below the paper (the first threshold is at least 0.25 below it). Chosen on cardcounter's train part.
FAINT = 0.22
#: A whole card's corner (cut with no anchor) where no index is found gets that second look too: the dark suit and
#: pips below set the threshold for the whole cut, and a pale or blurred rank beside them (a card 140-160 px tall in
#: a 720p frame) was left as specks. With it, synthetic 720p scenes of the bundled deck, cards 126 / 160 / 196 px
#: tall, read 68 / 126 / 161 of 180 cards instead of 54 / 108 / 157, none misread (the classifiers of stop 20). A read
#: only this look made is held to ``reader.FAINT_ALONE`` where the card's other corner does not confirm it.
FAINT_WHOLE = True


def _read_at(cuts: np.ndarray, levels: np.ndarray, anchor, m: int) -> tuple[list[IndexGlyphs | None], np.ndarray]:
    """The index in each of ``cuts`` below the threshold of its ``levels`` (see :func:`_levels`); and, with an
    ``anchor``, whether the ink there was no glyph (too big, too small, or none). A cut with no ink there but a
    speck, a rank in pale or washed-out ink (thin strokes, an overexposed webcam frame) beside a dark suit, is
    looked at again with a threshold nearer the paper (:data:`FAINT`); without an ``anchor`` (a whole card's
    corner), any cut where no index is found is (:data:`FAINT_WHOLE`). With an ``anchor``, a cut where that look
    finds the rank but still no index gets a third (:data:`FAINT_RANK`); without one, a cut where still no index is
    found gets a third with its big shapes parted (:data:`PIP_SPLIT`)."""
    first = _ink(cuts, levels[:, 3], m)
    joined: dict | None = {} if SUIT_JOINED and anchor is not None else None
    got, merged, faint = _indices_in(cuts, first, levels, anchor, m, joined)
    again = [t for t, g in enumerate(got) if g is None and (faint[t] or (anchor is None and FAINT_WHOLE))]
    if again:
        lv = levels[again]
        thresholds = lv[:, 2] - FAINT * (lv[:, 2] - lv[:, 0])
        ranks: dict | None = {} if FAINT_RANK and anchor is not None else None
        _look_again(got, again, cuts, thresholds, lv, anchor, m, ranks)
        if ranks:
            _faint_rank(got, again, cuts[again], first[again], ranks, lv, anchor, m)
        if PIP_SPLIT and anchor is None:
            still = [t for t in again if got[t] is None]
            parted = _parted(first[still]) if still else None
            if parted is not None:
                _look(got, still, cuts[still], parted, levels[still], anchor, m)
    below = _joined_below(got, joined) if joined else None
    if below:
        # a rank at the anchor but no suit below it, the shape there too big for a glyph: the suit may be joined to
        # a court picture's frame beside it
        _faint_rank(got, list(range(len(got))), cuts, first, below, levels, anchor, m)
    if DARKER and anchor is not None:
        joined_rank = [t for t, g in enumerate(got) if g is None and merged[t]]
        if joined_rank:
            lv = levels[joined_rank]
            _look_again(got, joined_rank, cuts, lv[:, 3] - DARKER * (lv[:, 3] - lv[:, 0]), lv, anchor, m)
    return got, merged | faint


#: A cut round an anchor where the shape at the anchor is too big for a glyph, and no look finds an index, is
#: looked at once more with its threshold this share of the way from the first look's down to the dark level. A
#: rank beside a shadow or the next card's edge (a webcam's grey table photo: the shadow of the card above falls
#: on the rank's top) is one shape with that shade at the first threshold and parts from it a little darker.
DARKER = 0.25


def _look_again(got: list, which: list[int], corners: np.ndarray, thresholds: np.ndarray, levels: np.ndarray,
                anchor, m: int, ranks: dict | None = None) -> None:
    """Replace ``got[t]`` for each ``t`` of ``which`` by the index found in ``corners[t]`` below the matching one of
    ``thresholds`` (``levels`` as :func:`_levels` gives them, one row per ``which``). ``ranks``: see
    :func:`_indices_in`."""
    if not which:
        return
    redo = corners[which]
    _look(got, which, redo, _ink(redo, thresholds, m), levels, anchor, m, ranks)


def _look(got: list, which, cuts: np.ndarray, ink: np.ndarray, levels: np.ndarray, anchor, m: int,
          ranks: dict | None = None) -> None:
    """A later look: the index found in each of ``cuts`` from its ``ink`` (``levels`` one row a cut) becomes
    ``got[which[k]]`` where there is one, marked as found by a later look (``IndexGlyphs.faint``; a whole card's
    corner read only so is held to ``reader.FAINT_ALONE``). ``ranks``: see :func:`_indices_in`."""
    for t, g in zip(which, _indices_in(cuts, ink, levels, anchor, m, ranks)[0]):
        if g is not None:
            g.faint = True
            got[t] = g


#: A cut round an anchor where neither look finds an index, but the second look (:data:`FAINT`) finds a glyph over
#: the anchor, gets a third: that glyph as the second look sees it, over the shapes of the first look, opened
#: (:data:`FAINT_RANK_OPEN`). A small court card's rank is thin strokes, pale after blur, beside a solid suit: the
#: first threshold leaves the rank in pieces, and the second joins the suit to the big pip beside it and to the
#: picture's frame. An opening of 3 x 3 parts a suit from a line 2 px wide (the frame's, at the cut's scale) and
#: keeps it. On synthetic 720p scenes of the bundled deck (seed 4242, chosen on), jacks 160 px tall: 7 of 20
#: named before, 16 after; the spread frames of ``tools.bench_vision`` (seed 124): 308 -> 314 of 320; none misread.
FAINT_RANK = True
FAINT_RANK_OPEN = 3


def _joined_below(got: list, ranks: dict) -> dict | None:
    """Of the cuts whose first look found a glyph over the anchor (``ranks``, see :func:`_indices_in`) but no index
    (``got`` None), those where just below that glyph (half its height under it) lies a shape too big for a glyph:
    ``ranks`` for those alone, or None where there are none (see :data:`SUIT_JOINED`)."""
    tiles, rank, labels = ranks["tiles"], ranks["rank"], ranks["labels"]
    x, y, w, h = ranks["boxes"]
    H = labels.shape[1]
    keep = []
    for k, (t, r) in enumerate(zip(tiles.tolist(), rank.tolist())):
        if got[t] is not None:
            continue
        px, py = x[r] + w[r] // 2, y[r] + h[r] + max(1, h[r] // 2)
        if py < H:
            under = labels[t, py, px]
            if under and not ranks["glyph"][under]:
                keep.append(k)
    if not keep:
        return None
    return {**ranks, "tiles": tiles[keep], "rank": rank[keep]}


def _faint_rank(got: list, which: list[int], cuts: np.ndarray, first: np.ndarray, ranks: dict, levels: np.ndarray,
                anchor: tuple[int, int], m: int) -> None:
    """The third look of :data:`FAINT_RANK` at ``cuts`` (``got[which[k]]`` is ``cuts[k]``'s index), where it is
    still None: ``first`` holds their first looks' ink masks, ``ranks`` what their second looks' labelling kept
    (see :func:`_indices_in`), ``levels`` their levels."""
    sel = np.array([k for k, t in enumerate(ranks["tiles"]) if got[which[t]] is None], int)
    if sel.size == 0:
        return
    tiles, rank = ranks["tiles"][sel], ranks["rank"][sel]
    _, H, W = cuts.shape
    kernel = np.ones((FAINT_RANK_OPEN, FAINT_RANK_OPEN), np.uint8)
    # (opened as one tall image, as the cuts are labelled: their blank top rows keep them apart)
    ink = cv2.morphologyEx(first[tiles].reshape(-1, W), cv2.MORPH_OPEN, kernel).reshape(-1, H, W)
    ink |= np.isin(ranks["labels"][tiles], rank).view(np.uint8)
    _look(got, [which[t] for t in tiles], cuts[tiles], ink, levels[tiles], anchor, m)


#: A cut round an anchor where the first look finds a glyph over the anchor but no index (no suit below it) gets
#: the third look of :data:`FAINT_RANK` over the first look's shapes: that glyph, over the other shapes opened. A
#: court card's turned index, the rest of the card hidden by the next one in a row, has its suit touching the thin
#: line of the picture's frame, and through it the picture's big pip.
SUIT_JOINED = True


#: A whole card's corner where no look finds an index gets one more: the first look's shapes too big for a glyph, or
#: running off the cut, are parted where an erosion this many pixels square parts them, each pixel going to the
#: nearest part. Where a deck prints a corner pip right beside the index (aisleriot's paris), the index's suit
#: overlaps that pip once the card is scaled down and blurred (a 7C and a 9C 196 px tall: their clubs one shape
#: with the pips'); a 3 x 3 erosion did not part them. A read only this look made is held to
#: ``reader.FAINT_ALONE`` where the other corner does not confirm it. Synthetic 720p scenes (seed 4242, tuned on),
#: cards named at 126 / 160 / 196 px: anglo + paris 273 / 320 / 331 -> 278 / 323 / 334 of 360, bundled 176 -> 177
#: of 180 at 196 px, none misread; cardcounter's train part the same.
PIP_SPLIT = 5


def _parted(mask: np.ndarray) -> np.ndarray | None:
    """``mask`` (N x H x W ink of N cuts) with its shapes that are too big for a glyph, or run off their cut, parted
    where an erosion of :data:`PIP_SPLIT` parts them; None where there is no such shape to part."""
    n, H, W = mask.shape
    flat = mask.reshape(-1, W)
    _, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(flat, 8, cv2.CV_32S, cv2.CCL_BBDT)
    x, y, w, h, a = stats.T
    big = ~_within(x, y - (y // H) * H, w, h, H, W) & (a >= 20)
    big[0] = False
    if not big.any():
        return None
    joined = np.isin(labels, np.nonzero(big)[0]).view(np.uint8)
    seeds = cv2.erode(joined, np.ones((PIP_SPLIT, PIP_SPLIT), np.uint8))
    if not seeds.any():
        return None
    _, nearest = cv2.distanceTransformWithLabels(1 - seeds, cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_CCOMP)
    nearest = nearest.astype(np.float32)  # (dilate and erode take no 32-bit integers)
    k = np.ones((3, 3), np.uint8)
    parted = flat.copy()
    parted[(joined > 0) & (cv2.dilate(nearest, k) != cv2.erode(nearest, k))] = 0
    return parted.reshape(n, H, W)


def _within(x: np.ndarray, y: np.ndarray, w: np.ndarray, h: np.ndarray, H: int, W: int) -> np.ndarray:
    """Which shapes (boxes x, y, w, h in a cut H x W) are no bigger than a glyph and do not run off the cut (a
    shape that does is art or a frame, not an index)."""
    return (h <= H * 0.45) & (w <= W * 0.75) & (x + w < W - 1) & (y + h < H - 1)


def _ink(corners: np.ndarray, thresholds: np.ndarray, m: int) -> np.ndarray:
    """The ink masks (N x H x W, 0/1) of ``corners`` below their ``thresholds``, blank in the first ``m`` rows and
    columns (these rows also keep the corners apart when labelled as one tall image)."""
    mask = (corners < thresholds[:, None, None]).view(np.uint8)
    mask[:, :m, :] = 0
    mask[:, :, :m] = 0
    return mask


def _indices_in(corners: np.ndarray, mask: np.ndarray, levels: np.ndarray, anchor, m: int,
                ranks: dict | None = None) -> tuple[list[IndexGlyphs | None], np.ndarray, np.ndarray]:
    """The index in each of ``corners`` (N x H x W) from its ink ``mask`` and ``levels`` (see :func:`_levels`),
    labelled all at once; and, with an ``anchor``, for each corner whether the ink there is part of a shape that is
    no glyph (too big or too small: ``merged``), and whether there is at most a speck of ink there (``faint``).
    With an ``anchor`` and a ``ranks`` dict, it is given the labels (N x H x W), and for each corner with a glyph
    over the anchor (``"tiles"``, their indices) the label of the smallest such glyph (``"rank"``)."""
    n, H, W = corners.shape
    out: list[IndexGlyphs | None] = [None] * n
    # (Grana's block-based labelling: here about 2.5x faster than OpenCV's default, the same components)
    _, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(mask.reshape(-1, W), 8, cv2.CV_32S,
                                                                        cv2.CCL_BBDT)
    labels = labels.reshape(n, H, W)
    x, y, w, h, a = stats.T
    tile = y // H
    y = y - tile * H
    ok = (a >= 10) & (h >= H * 0.06) & (a >= 0.12 * w * h) & _within(x, y, w, h, H, W)
    ok[0] = False  # the background
    merged = np.zeros(n, bool)
    faint = np.zeros(n, bool)
    if anchor is not None:  # the rank must cover the anchor: nothing else to do without one there
        ax, ay = anchor
        under = labels[:, ay, ax]
        merged = (under > 0) & ~ok[under]
        faint = (under == 0) | ((under > 0) & ((a[under] < 10) | (h[under] < H * 0.06)))
        at = ok & (x <= ax) & (ax < x + w) & (y <= ay) & (ay < y + h)
        if ranks is not None:
            over = np.nonzero(at)[0]
            over = over[np.lexsort((w[over] * h[over], tile[over]))]  # per corner, the smallest first (as _assemble)
            tiles, first_of = np.unique(tile[over], return_index=True)
            ranks.update(labels=labels, tiles=tiles, rank=over[first_of], boxes=(x, y, w, h), glyph=ok.copy())
        with_glyph = np.zeros(n, bool)  # the corners with a glyph at the anchor
        with_glyph[tile[at]] = True
        ok &= with_glyph[tile]
    ids = np.nonzero(ok)[0]
    ids = ids[np.lexsort((x[ids], y[ids], tile[ids]))]  # by corner, then top to bottom, then left to right
    bounds = np.searchsorted(tile[ids], np.arange(n + 1)).tolist()
    # (as Python ints, read once: _assemble compares them many times)
    boxes = np.column_stack([x[ids], y[ids], w[ids], h[ids], ids]).tolist()
    for t in range(n):
        lo, hi = bounds[t], bounds[t + 1]
        if hi - lo < 2:
            continue
        comps = [tuple(b) for b in boxes[lo:hi]]
        out[t] = _assemble(corners[t], labels[t], comps, levels[t], anchor, m)
    return out, merged, faint


def _assemble(mn: np.ndarray, labels: np.ndarray, comps: list, levels, anchor, m: int) -> IndexGlyphs | None:
    """The rank over the suit among ``comps`` (x, y, w, h, label), top to bottom, in one corner."""
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
        scale = (float(levels[2]), float(levels[0]))  # (paper, dark)
        rank = norm_patch(mn, scale, labels, ids, rbox, RANK_SIZE)
        paper70 = float(levels[1])

        def pixels(ids=tuple(ids) + (suit[4],)):
            return _shapes(labels, ids), (mn >= paper70).view(np.uint8)

        def make_suit(label=suit[4]):
            return norm_patch(mn, scale, labels, [label], sbox, SUIT_SIZE)

        return IndexGlyphs(rank, None, rbox, sbox, None, rbox[2] / rbox[3], sbox[2] / sbox[3], pixels, make_suit)
    return None


def rank_features(g: IndexGlyphs) -> np.ndarray:
    """The rank classifier's input."""
    return np.append(g.rank.ravel(), np.float32(np.log(g.rank_aspect))).astype(np.float32)


def suit_features(g: IndexGlyphs) -> np.ndarray:
    """The suit classifier's input."""
    return np.append(g.suit_patch().ravel(), np.float32(np.log(g.suit_aspect))).astype(np.float32)


def features(g: IndexGlyphs) -> tuple[np.ndarray, np.ndarray]:
    """Feature vectors (rank, suit) for the classifiers."""
    return rank_features(g), suit_features(g)
