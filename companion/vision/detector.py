"""A learned index-corner finder (``models/corners.onnx``, run with OpenCV's dnn module) added to the card reader.

The brightness-based reader (``reader.py``) finds cards by telling card stock from the table, which fails on light
tables, under shadows and where a card fills the photo. The network instead marks where in the frame an index
corner (rank over suit) is and how big it is, whatever the table; each marked place is then cut out at a size the
glyph classifier knows and read by the same corner search and classifiers as before (``corners.search``), so a
card is still named only when the careful reading is sure of it ("unknown" over wrong).

>>> import numpy as np
>>> recognize(np.zeros((720, 1280, 3), np.uint8))
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from . import corners as corner_search
from . import namer, onnx_net
from . import paper
from .classifier import GlyphModel
from .detection import BACK, FULL_SIZE, UNKNOWN, Detection
from .geometry import scaled
from .levels import percentiles
from . import reader

MODEL = Path(__file__).resolve().parent / "models" / "corners.onnx"
#: The network sees the frame scaled down to at most this many pixels on its longer side.
MAX_SIDE = 640
STRIDE = 4
#: A cell is part of an index corner above this probability; the corner search looks around cells above LOOSE.
HEAT, LOOSE = 0.5, 0.3
#: An index corner larger than this (its longer side, frame pixels) is scaled down to it before it is read.
NORM = 64.0
#: A card found only by the detector is named at this confidence or more (else it is not reported). Chosen on the
#: TRAIN part of cardcounter: at the reader's usual 0.80 a sixth of the cards it added were misread (3 read as 5
#: in one deck, clubs as spades at webcam resolution), at 0.93 one in 33 (0.95: 1 in 31).
ACCEPT = 0.93
#: In a grey frame (no colour to check the ink against the suit) a card found only by the detector is named at this
#: confidence or more: the red/black check that catches a heart read for a spade is missing there. On the train part
#: of cardcounter, grey photos' detector reads were 9 right at 0.985 or more and 1 wrong (2S at 0.963).
GREY_ACCEPT = 0.97
#: A marked patch is cut to the scale of, and searched for glyphs down to, the smallest corner size the network gives
#: among its sure cells (the tenth percentile), not the median. On a light table the network's map runs over the
#: whole of a small card and says its corner is two or three times too big away from the index itself; cut to the
#: median's size, the rank of a card 140-160 px tall was shrunk to a few pixels and never read.
SMALLEST = True
#: Two corners well apart naming the same card (its two indices) count as two looks agreeing.
AGREE = True


def _net():
    """The network in :data:`MODEL` (None where that file is absent), loaded once."""
    return onnx_net.load(str(MODEL))


#: What :func:`heat_map` gives: each cell's heat and the corner size it says, and the scale the frame was shrunk by.
Maps = tuple[np.ndarray, np.ndarray, float]


def heat_map(img: np.ndarray, net=None) -> Maps:
    """The network's two maps for ``img`` (BGR): the probability that each 4x4 cell of the scaled frame is part of
    an index corner, and the corner's size there (frame pixels); and the scale the frame was shrunk by."""
    net = net if net is not None else _net()
    h, w = img.shape[:2]
    s = min(1.0, MAX_SIDE / max(h, w))
    sw, sh = max(16, round(w * s)), max(16, round(h * s))
    small = cv2.resize(img, (sw, sh), interpolation=cv2.INTER_AREA) if s < 1 else img
    pw, ph = -sw % 16, -sh % 16
    if pw or ph:
        small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    blob = np.ascontiguousarray(small.astype(np.float32).transpose(2, 0, 1)[None] / 255)
    net.setInput(blob)
    out = net.forward()[0]
    gh, gw = sh // STRIDE, sw // STRIDE
    heat = 1 / (1 + np.exp(-out[0, :gh, :gw]))
    size = np.exp(np.clip(out[1, :gh, :gw], 0, 8)) / s
    return heat.astype(np.float32), size.astype(np.float32), s


class Patch(NamedTuple):
    """One place the network marks as an index corner: its cells' bounding box and middle (frame pixels), the
    corner's size (its longer side, frame pixels), the smallest size its sure cells give (see SMALLEST), which of
    the cells in its box are marked (uint8, one per cell; None: all of them), and the size the network says (the
    median of its cells'; ``side`` is at least the patch's width)."""

    box: tuple[float, float, float, float]
    middle: tuple[float, float]
    side: float
    small: float
    cells: np.ndarray | None = None
    said: float = 0.0


def marked_patches(maps: Maps, known: Sequence[np.ndarray] = ()) -> list[Patch]:
    """The places :func:`heat_map`'s ``maps`` mark as index corners, but for those whose middle lies inside one of
    the ``known`` polygons (cards named already) and those too small to cut."""
    heat, size, s = maps
    # the cells of one corner, joined across small gaps (a weak cell between two sure ones)
    loose = cv2.dilate((heat > LOOSE).astype(np.uint8), np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(loose, connectivity=8)
    cell = STRIDE / s  # frame pixels per cell
    out = []
    for k in range(1, n):
        cx, cy, cw, chh, _ = stats[k]
        mine = labels == k
        if heat[mine].max() <= HEAT:
            continue
        # the corner's size: as the network says, or at least the narrow side of the marked patch (a row of
        # corners along a fan is one long patch, one corner wide)
        middle = ((cx + cw / 2) * cell, (cy + chh / 2) * cell)
        if any(cv2.pointPolygonTest(p, middle, False) >= 0 for p in known):
            continue  # read already (reading it again costs most of the time this step takes)
        said = float(np.median(size[mine]))
        side = max(said, 0.8 * min(cw, chh) * cell)
        if side < 8:
            continue
        small = min(side, max(8.0, float(np.percentile(size[mine & (heat > HEAT)], 10)))) if SMALLEST else side
        out.append(Patch((cx * cell, cy * cell, (cx + cw) * cell, (cy + chh) * cell), middle, side, small,
                         mine[cy:cy + chh, cx:cx + cw].view(np.uint8), said))
    return out


class CornerFound(NamedTuple):
    """One index corner :func:`find_corners` names: its code and confidence, the index box's 4 corners and the
    rank's centre (frame coordinates), and how many looks name it: 2 where the card's other index, well apart, was
    read the same (its two indices agree), else 1."""

    code: str
    conf: float
    pts: np.ndarray
    centre: np.ndarray
    looks: int = 1


def find_corners(img: np.ndarray, model: GlyphModel, net=None, known: Sequence[np.ndarray] = (),
                 colour: bool = True, floor: bool = True,
                 maps: Maps | None = None, enlarge: bool = True) -> list[CornerFound]:
    """Index corners the network marks in ``img`` and the corner search names (:class:`CornerFound`), in frame
    coordinates; one read per code, none where two names clash. A marked
    patch whose centre lies inside one of the ``known`` polygons (cards already named) is not read again.
    ``floor=False`` lifts the corner search's size floor (see :func:`corners.search`). ``maps``: what
    :func:`heat_map` gave for ``img``, where the caller has it already. A read below its floor is named where a
    read of the card's other index, in this patch or another, confirms it (``corners.PAIRED``)."""
    darkest: list[np.ndarray] = []  # the frame's darkest channel, made the first time a patch needs it
    best: dict[str, CornerFound] = {}
    every: dict[str, list] = {}
    held_all: list[corner_search.Doubtful] = []  # reads below their floor, for another patch's read to confirm
    for patch in marked_patches(maps or heat_map(img, net), known):
        side, small = patch.side, patch.small
        box = patch_cut(patch, img.shape)
        x0, y0, x1, y1 = box
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        near = near_marks(patch, box) if NEAR_MARKS else None
        f = min(1.0, NORM / small)
        reads, held = _read_patch(img, box, f, small, side, known, model, colour, floor, darkest, near)
        if not reads and enlarge and ENLARGE and f == 1 and small < ENLARGE:
            # a small corner where nothing was read, on a table of small cards: looked at again enlarged (ENLARGE),
            # for glyphs no larger than its smallest size says
            reads, more = _read_patch(img, box, min(ENLARGE / small, ENLARGE_MAX), small, small, known, model,
                                      colour, floor, darkest, near)
            held += more
        for code, conf, pts, centre in reads:
            if corner_search.off_frame(pts, img.shape) <= corner_search.OFF_FRAME:
                every.setdefault(code, []).append((code, conf, pts, centre))
        held_all += [d for d in held if corner_search.off_frame(d.pts, img.shape) <= corner_search.OFF_FRAME]
    for code, reads in every.items():
        reads.sort(key=lambda r: -r[1])
        top = reads[0]
        # the same name read in another corner well apart (a card's other index): two looks agreeing, as for a
        # whole card whose two corners agree (reader._card)
        other = corner_search.other_index(reads[1:], top)
        conf = 1 - (1 - top[1]) * (1 - other[0][1]) if (AGREE and other) else top[1]
        best[code] = CornerFound(code, conf, top[2], top[3], 2 if other else 1)
    # a read below its floor that a read of the card's other index, in this patch or another, confirms
    # (corners.PAIRED; its confidence holds both looks already, so it is not combined again above)
    for code, conf, pts, centre in corner_search.paired([r for rs in every.values() for r in rs], held_all):
        if code not in best or conf > best[code].conf:
            best[code] = CornerFound(code, conf, pts, centre, 2)
    if NAMER and floor and namer.available():
        _second_looks(img, best, held_all, ACCEPT if colour else GREY_ACCEPT)
    return corner_search.one_name_a_place(list(best.values()))


#: A read below its floor (the size floor, ``corners.Doubtful``, or the detector's own, :data:`ACCEPT`) is given a
#: second look by the index namer (``namer.py``), which reads the same box as one picture: where it names the same
#: card at NAMER_AGREE or more, the two looks' confidences combine (as two corners' do) against that floor.
#: Off: measured at stop 47 (vision README) it found more cards everywhere (synthetic scenes of eight unseen decks
#: 4,314 -> 4,375 of 4,860, no more misread; cardcounter's held-out part 290 -> 299 of 359) but named one held-out
#: card wrong that the reader had left unnamed (a gold 7 of spades read 7C by both looks at once): the two looks'
#: mistakes can agree, and a wrong card costs the table more than a missing one.
NAMER = False
NAMER_AGREE = 0.9


def _second_looks(img: np.ndarray, best: dict[str, CornerFound], held: Sequence[corner_search.Doubtful],
                  floor: float) -> None:
    """Reads of ``held`` (below their size floor) and of ``best`` (below ``floor``) that the namer confirms, put
    in ``best`` (see :data:`NAMER`)."""
    weak = [c for c in best.values() if c.conf < floor]
    held = [d for d in held if d.code not in best or best[d.code].conf < floor]
    if not weak and not held:
        return
    said = namer.name(img, [c.pts for c in weak] + [d.pts for d in held])
    for c, (code, p) in zip(weak, said):
        if code == c.code and p >= NAMER_AGREE:
            best[c.code] = c._replace(conf=1 - (1 - c.conf) * (1 - p), looks=2)
    for d, (code, p) in zip(held, said[len(weak):]):
        conf = 1 - (1 - d.conf) * (1 - p)
        if code == d.code and p >= NAMER_AGREE and conf >= d.need and (
                d.code not in best or conf > best[d.code].conf):
            best[d.code] = CornerFound(d.code, conf, d.pts, np.asarray(d.centre), 2)


def _read_patch(img: np.ndarray, box: tuple[int, int, int, int], f: float, small: float, side: float,
                known: Sequence[np.ndarray], model: GlyphModel, colour: bool, floor: bool,
                darkest: list[np.ndarray], near: np.ndarray | None = None) -> tuple[list, list[corner_search.Doubtful]]:
    """The corner search's reads in one marked patch (``box``: x0, y0, x1, y1 in ``img``) scaled by ``f``, and
    its reads below their floor (see :func:`find_corners`), both in frame coordinates. ``small`` and ``side``: the
    corner sizes the network gives there (frame pixels). ``darkest`` holds the frame's darkest channel once made.
    ``near`` (uint8, the box's size): where in the box shapes are looked for (:func:`near_marks`; None: all of it)."""
    x0, y0, x1, y1 = box
    crop = img[y0:y1, x0:x1]
    if f != 1:
        crop = cv2.resize(crop, (max(8, round((x1 - x0) * f)), max(8, round((y1 - y0) * f))),
                          interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_CUBIC)
        mn = cv2.min(cv2.min(crop[:, :, 0], crop[:, :, 1]), crop[:, :, 2])
    else:
        if not darkest:
            darkest.append(cv2.min(cv2.min(img[:, :, 0], img[:, :, 1]), img[:, :, 2]))
        mn = np.ascontiguousarray(darkest[0][y0:y1, x0:x1])
        crop = np.ascontiguousarray(crop)
    # the cut is searched near its marks (NEAR_MARKS: the network has said an index corner is there) but for the
    # cards named already: a long patch along a fan or a row holds many of them, and reading them again costs most
    stock: np.ndarray
    if near is None:
        stock = np.full(mn.shape, 255, np.uint8)
    else:
        stock = near if f == 1 else cv2.resize(near, mn.shape[::-1], interpolation=cv2.INTER_NEAREST)
    skip = None
    for p in known:
        q = (p - (x0, y0)) * f
        if (q.max(0) >= 0).all() and q[:, 0].min() < mn.shape[1] and q[:, 1].min() < mn.shape[0]:
            if skip is None:
                skip = np.zeros(mn.shape, np.uint8)
            cv2.fillPoly(skip, [np.round(q).astype(np.int32)], 1)
    reads = []
    held: list[corner_search.Doubtful] = []
    sizes = (glyph_sizes(small * f)[0], glyph_sizes(side * f)[1])
    # (an enlarged patch's floor is still the one its size in the frame asks for)
    scale = max(f, 1.0)
    inks = patch_inks(crop, mn)
    for ink, checked in inks:
        reads += corner_search.search(crop, ink, stock, model, reader.read_corners, glyph_range=sizes,
                                      colour=colour and checked, skip=skip, floor=floor, margin=ink_margin(ink),
                                      doubtful=held, scale=scale)
    if not reads and HAT and small * min(f, 1.0) < HAT_BELOW:
        # thin strokes beside dark pips (see HAT): the shapes are found in the darkest channel's black top-hat,
        # the glyphs still cut and read from that channel itself
        ink = inks[0][0]
        k = max(3, int(HAT * small * f) | 1)
        hat = cv2.bitwise_not(cv2.morphologyEx(ink, cv2.MORPH_BLACKHAT,
                                               cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))))
        reads += corner_search.search(crop, ink, stock, model, reader.read_corners, glyph_range=sizes,
                                      colour=colour, skip=skip, floor=floor, margin=ink_margin(hat),
                                      shapes_in=hat, doubtful=held, scale=scale)
    reads = [(code, conf, pts / f + (x0, y0), np.asarray(centre) / f + (x0, y0)) for code, conf, pts, centre in reads]
    held = [d._replace(pts=d.pts / f + (x0, y0), centre=np.asarray(d.centre) / f + (x0, y0), tall=d.tall / f)
            for d in held]
    return reads, held


#: A marked patch is searched for shapes only within 0.8 times the corner size the network says of its marked
#: cells, not in the whole of its box: a row of overlapping cards seen at a slant makes one long diagonal patch
#: whose box is mostly the cards' faces and the table, and reading all of it cost the benchmark's row frames a
#: fifth of their time for nothing (the faces' pips read as no index).
NEAR_MARKS = True


def patch_cut(patch: Patch, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The part (x0, y0, x1, y1) of a frame of ``shape`` that is read for ``patch``: its cells' box with a pad of 0.8
    times its corner's size round it."""
    pad = 0.8 * patch.side
    bx0, by0, bx1, by1 = patch.box
    return (int(max(bx0 - pad, 0)), int(max(by0 - pad, 0)), int(min(bx1 + pad, shape[1])),
            int(min(by1 + pad, shape[0])))


def near_marks(patch: Patch, box: tuple[int, int, int, int]) -> np.ndarray | None:
    """Where in ``box`` (:func:`patch_cut`) shapes are looked for: within 0.8 times the corner size the network says
    of the patch's marked cells (uint8, 255 there, the box's size), or None where that is all of it."""
    cells, pad = patch.cells, 0.8 * (patch.said or patch.side)
    if cells is None or cells.all():
        return None
    x0, y0, x1, y1 = box
    bx0, by0, bx1, by1 = patch.box
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cw, chh = round(bx1) - round(bx0), round(by1) - round(by0)
    if cw < 1 or chh < 1:
        return None
    grown = cv2.resize(cells, (cw, chh), interpolation=cv2.INTER_NEAREST)
    ox, oy = round(bx0) - x0, round(by0) - y0
    part = mask[max(oy, 0):oy + chh, max(ox, 0):ox + cw]
    part[:] = grown[max(-oy, 0):max(-oy, 0) + part.shape[0], max(-ox, 0):max(-ox, 0) + part.shape[1]]
    # (the distance to the nearest marked pixel: one pass, where dilating by a disc the pad's size costs many)
    far = cv2.distanceTransform(cv2.bitwise_not(mask * 255), cv2.DIST_L2, 3)
    near = (far <= pad).view(np.uint8) * 255
    return None if near.all() else near


#: In a marked patch, ink is this share of the patch's contrast (its 2nd to 98th percentile grey levels) darker
#: than the mean round it, at least MARGIN_MIN grey levels and at most ``corners.INK_MARGIN`` (the 25 the corner
#: search uses on card stock). A fixed 25 broke the thin strokes of a washed-out or blurred 10-12 px rank into
#: specks on a light table. Chosen on synthetic 720p scenes of the bundled deck (seed 77: cards 126 / 160 px tall
#: 64 -> 72 / 127 -> 140 of 180 at 0.1, 72 / 135 at 0.15; none misread) and the train part of cardcounter.
MARGIN_SHARE, MARGIN_MIN = 0.1, 6.0
#: A marked patch whose index corner is under HAT_BELOW px (as cut) and where no index is read is searched again
#: for shapes in its ink's black top-hat, a square HAT times the corner's size: what is darker than the paper just
#: round it. The thin strokes of a blurred 10 px court rank beside its solid suit and the picture's dark frame fall
#: under the local mean those set, and the threshold leaves specks. The glyphs are still cut and read from the ink:
#: read from the top-hat, whose suits lose their solid middles, a spade was read as a club at 0.97-0.999 (synthetic
#: 720p, bundled deck: 126 / 160 px 97 / 150 -> 103 / 158 of 180, none misread; 0.5 or 0.9 the same). Under 48 px
#: it cost an overlapping row of 200-290 px cards a fifth more time (its hidden corners read nothing), for one card
#: more of 540 than under 36.
HAT, HAT_BELOW = 0.9, 36.0
#: On a table of small cards, a marked corner the network sizes under ENLARGE px where the corner search reads
#: nothing (its top-hat look too) is searched again enlarged to ENLARGE px (at most ENLARGE_MAX times; cubic), for
#: glyphs no larger than that size. A 126 px card's rank is 8-10 px tall: the local threshold breaks its thin strokes
#: into specks under the shapes' size floor, and a court card's joins the picture's frame; twice as large they keep
#: their shapes. Most cards it adds are court cards. Chosen on synthetic 720p scenes (seeds 5151 and 3939). With the
#: lower size floor (``detection.MIN_HEIGHT``), on a seed measured once after (7272, nine decks), cards named at
#: 126 / 160 / 196 px: 1,208 / 1,423 / 1,495 -> 1,298 / 1,433 / 1,499 of 1,620, misread 1 / 2 / 0 -> 2 / 3 / 0 (vision
#: README, stop 37). 64 px found 1-2 more for more time; enlarging instead of the first look lost cards on real
#: photos (webcam-held 46 -> 44 of 79), and enlarging instead of the top-hat look lost more than it found among the
#: four decks of seed 3939.
ENLARGE, ENLARGE_MAX = 48.0, 2.0
#: ... only where the cards the reader has found in the frame (outlined, or named by an index corner alone) are
#: under this many px tall by their median, or where it has found none. A row of large cards has many marked corners
#: too small to read (the corners the next card hides): enlarging them cost the benchmark's row frames a third more
#: time for no card more.
ENLARGE_CARDS = FULL_SIZE
#: A card is about this many times as tall as its index box's diagonal (the bundled deck's: 4.6).
CARD_PER_INDEX = 4.5


def ink_margin(ink: np.ndarray) -> float:
    """How much darker than the mean round it a pixel of the marked patch ``ink`` (grey) must be to be ink."""
    lo, hi = percentiles(ink, (2, 98))
    return float(np.clip(MARGIN_SHARE * (hi - lo), MARGIN_MIN, corner_search.INK_MARGIN))


def glyph_sizes(corner: float) -> tuple[int, int]:
    """The glyph heights (pixels) the corner search looks for in a patch whose index corner is ``corner`` pixels."""
    return max(5, int(0.15 * corner)), int(1.1 * corner) + 1


def patch_inks(crop: np.ndarray, darkest: np.ndarray | None = None) -> list[tuple[np.ndarray, bool]]:
    """The grey images the corner search reads in a marked patch (BGR), each with whether its ink's colour may be
    checked against the suit: the patch's darkest channel (``darkest``, where the caller has it already),
    brightened where dim; and, where the patch may hold light ink on dark stock, that ink's negative, whose gold
    says nothing of red or black. ``tools/real_glyphs.py`` cuts the classifiers' real samples from the same."""
    if darkest is None:
        darkest = cv2.min(cv2.min(crop[:, :, 0], crop[:, :, 1]), crop[:, :, 2])
    inks = [(brightened(darkest), True)]
    neg = light_ink(crop)
    if neg is not None:
        inks.append((neg, False))
    return inks


#: A marked patch whose paper (its brightest pixels, darkest channel) is darker than this is brightened first.
DIM = 100


def brightened(mn: np.ndarray) -> np.ndarray:
    """A marked patch's darkest channel, brightened where the photo is so dim (or its light so coloured) that the
    paper is darker than :data:`DIM`: the glyph cut would find no contrast to read there. The network has said an
    index is in the patch, so its faint ink is worth the look."""
    paper = int(np.searchsorted(np.cumsum(cv2.calcHist([mn], [0], None, [256], [0, 256]).ravel()), 0.99 * mn.size))
    if paper >= DIM or paper < 12:
        return mn
    return cv2.convertScaleAbs(mn, alpha=200 / paper)


#: A marked patch is also read as light ink on dark stock when at least this share of it is dark ...
DARK_SHARE = 0.3
#: ... where "dark" is below this share of the patch's brightest level. A black card lit from the side looks dark
#: grey beside a white table (0.4-0.5 of it): at 0.35 such cards were never read as light ink. Chosen on
#: cardcounter's train part (black deck 99 / 103 / 104 of 143 found at 0.35 / 0.45 / 0.55, other sets the same)
#: and its validation slice (20 / 22 / 23 of 36).
DARK_LEVEL = 0.55


def light_ink(crop: np.ndarray) -> np.ndarray | None:
    """For a marked patch (BGR) that may hold an index printed in light ink on dark card stock (a black deck
    with gold indices), the negative of its brightest channel, where that ink is dark on light as the corner
    search expects; else None. Such a patch has a good part far darker than its brightest pixels (a white card's
    patch is mostly paper, its ink a small share), its middle, where the network marked the index, among it."""
    mx = cv2.max(cv2.max(crop[:, :, 0], crop[:, :, 1]), crop[:, :, 2])
    below = np.cumsum(cv2.calcHist([mx], [0], None, [256], [0, 256]).ravel())  # pixels at or below each level
    top = int(np.searchsorted(below, 0.95 * mx.size))  # (the 95th percentile, a tenth of numpy's time)
    if top < 60 or below[int(DARK_LEVEL * top)] < DARK_SHARE * mx.size:
        return None
    h, w = mx.shape
    middle = mx[h // 3:h - h // 3, w // 3:w - w // 3]
    if cv2.countNonZero((middle < DARK_LEVEL * top).view(np.uint8)) < 0.15 * middle.size:
        return None  # the marked middle is all light paper: a white card's corner on a dark table
    neg = cv2.bitwise_not(mx)
    # a light table round the card is darker than the ink in the negative and would hide the ink from the search's
    # local threshold: the large light parts running out of the patch are made the card's colour
    dark = int(np.searchsorted(below, 0.05 * mx.size))
    light = (mx > (dark + top) // 2).view(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(light, connectivity=4)
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    table = [k for k in edge if k and stats[k, cv2.CC_STAT_AREA] >= 0.05 * mx.size]
    if table:
        paper = int(np.median(neg[light == 0]))
        neg[np.isin(labels, table)] = paper
    return neg


def recognize(frame, *, model: GlyphModel | None = None) -> list[Detection]:
    """:func:`reader.recognize` with the detector, whatever ``reader.USE_DETECTOR`` says."""
    return reader.recognize(frame, model=model, detector=True)


def named_places(dets: Sequence[Detection], indices: bool = True) -> list[np.ndarray]:
    """Where the cards named in ``dets`` lie (4 x 2 polygons): a whole card's outline, and with ``indices`` an index
    box read alone, grown 1.5 times (a little round it too). A mark whose middle lies in one is not read again."""
    return [np.asarray(d.corners, np.float32) if d.whole_card else scaled(np.asarray(d.corners, np.float32), 1.5)
            for d in dets if d.card not in (UNKNOWN, BACK) and (indices or d.whole_card)]


def add_corners(img: np.ndarray, dets: list[Detection], model: GlyphModel, colour: bool = True) -> list[Detection]:
    """``dets`` (what the brightness-based reader found in ``img``) plus the cards whose index corners the
    network finds and the corner search names where that reader named nothing. Without ``models/corners.onnx``
    it is ``dets``. Without ``colour`` (a grey frame) the ink's colour is not checked against the suit."""
    if _net() is None:
        return dets
    maps = heat_map(img)
    if PAPER:
        dets = _whole_cards_near(img, dets, maps, model, colour)
    named = {d.card for d in dets if d.card != UNKNOWN}
    polys = [(d, np.asarray(d.corners, np.float32)) for d in dets]
    extra = []
    known = named_places(dets)  # (a "back" may be a busy face: its corners are read)
    floor = ACCEPT if colour else GREY_ACCEPT
    enlarge = _cards_small(dets)
    for code, conf, pts, centre, looks in find_corners(img, model, known=known, colour=colour, maps=maps,
                                                       enlarge=enlarge):
        if code in named or conf < floor:
            continue
        inside = [d for d, p in polys if cv2.pointPolygonTest(p, (float(centre[0]), float(centre[1])), False) >= 0]
        if any(d.card not in (UNKNOWN, BACK) for d in inside):
            continue  # a card the reader named already holds this corner: its reading stands
        extra.append(Detection(code, conf, tuple((float(x), float(y)) for x, y in pts), False,
                               {"found_by": "detector", "looks": looks}))
    extra = reader.pips_allow(dets, extra)
    if not extra:
        return dets
    keep = []
    for d, p in polys:
        if d.card == UNKNOWN and any(cv2.pointPolygonTest(p, e.center, False) >= 0 for e in extra):
            continue  # an "unknown" holding a corner read now was that card (or several)
        if d.card == BACK and any(_at_a_corner(p, e.center) for e in extra):
            continue  # a face: a court card's busy picture, or glare, can look like a printed back
        keep.append(d)
    return keep + extra


def _cards_small(dets: Sequence[Detection]) -> bool:
    """Whether the cards of ``dets`` (named or not) are under :data:`ENLARGE_CARDS` px tall by their median, or
    there are none (see :data:`ENLARGE`). A whole card's height is its diagonal over 1.23; an index read alone
    says :data:`CARD_PER_INDEX` times its box's diagonal.

    >>> big = Detection("5H", 1.0, ((0, 0), (200, 0), (200, 280), (0, 280)))
    >>> index = Detection("5H", 1.0, ((0, 0), (14, 0), (14, 24), (0, 24)), whole_card=False)
    >>> _cards_small([big]), _cards_small([]), _cards_small([index])
    (False, True, True)
    """
    tall = [float(np.linalg.norm(np.subtract(d.corners[0], d.corners[2])))
            * (1 / 1.23 if d.whole_card else CARD_PER_INDEX) for d in dets]
    return not tall or float(np.median(tall)) < ENLARGE_CARDS


#: Whether whole cards are also looked for round the marked corners, by their paper's colour (``paper.py``).
PAPER = True
#: A whole card found round a marked corner whose indices are not named is named by its pips alone, where they are
#: sure and lie as a two to ten's do (``reader._by_pips``, as for a card the brightness split outlines). Before,
#: such a card needed two looks agreeing, which a small ten on a light table (a pale 9 px "10" in both corners) never
#: had. Synthetic 720p scenes of a seed measured once, after the change (4646: the bundled deck and eight decks never
#: trained on, ``tools.eval_synth --deck bundled --deck ...``), cards 126 / 160 / 196 px tall: 1,192 / 1,446 / 1,502
#: -> 1,219 / 1,449 / 1,503 of 1,620, the same 5 misreads; cardcounter's train and held-out parts and the
#: benchmark's rows the same (vision README, stop 36).
PAPER_PIPS = True
#: A marked corner whose middle lies in (or just round) an index named already is not looked round for a whole
#: card: the paper there is that card's, already named.
PAPER_SKIPS_INDICES = True


def _whole_cards_near(img: np.ndarray, dets: list[Detection], maps: Maps, model: GlyphModel,
                      colour: bool) -> list[Detection]:
    """``dets`` plus the whole cards found round the marked corners that no named card holds (``paper.
    quads_near``) and read as whole cards are, where they name a card not named yet by two looks that agree, or by
    their pips alone (:data:`PAPER_PIPS`); an "unknown" holding one of those is dropped (it was that card, or a
    patch of table round it)."""
    quads = paper.quads_near(img, marked_patches(maps, named_places(dets, indices=PAPER_SKIPS_INDICES)))
    named = {d.card for d in dets if d.card not in (UNKNOWN, BACK)}
    new: list[Detection] = []
    for d in reader.read_cards(img, quads, model, colour):
        # named by two looks that agree (both corners, or a corner and the pips): a row of overlapping cards can
        # make one card-shaped patch of paper, whose two corners are two cards' and whose middle holds no pips; or
        # by pips alone, which must lie as one card's do
        if d is not None and d.card not in (UNKNOWN, BACK) and d.card not in named and (
                d.extra.get("looks", 0) >= 2 or (PAPER_PIPS and d.extra.get("found_by") == "pips")):
            named.add(d.card)
            new.append(replace(d, extra={**d.extra, "found_by": "paper"}))
    if not new:
        return dets
    return [d for d in dets if d.card != UNKNOWN or not any(
        cv2.pointPolygonTest(np.asarray(d.corners, np.float32), n.center, False) >= 0 for n in new)] + new


def _at_a_corner(quad: np.ndarray, point: tuple[float, float]) -> bool:
    """Whether ``point`` lies in the whole card ``quad`` (4 x 2) near one of its corners, where an index is."""
    if cv2.pointPolygonTest(quad, point, False) < 0:
        return False
    short = min(float(np.linalg.norm(quad[k] - quad[k - 1])) for k in range(4))
    return float(np.min(np.linalg.norm(quad - np.asarray(point, np.float32), axis=1))) < 0.45 * short
