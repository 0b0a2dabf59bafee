"""The card reader: every card in a frame, named, or "unknown" when it cannot be named for sure.

>>> import numpy as np
>>> recognize(np.zeros((720, 1280, 3), np.uint8))
[]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

import cv2
import numpy as np

from .classifier import JUNK, GlyphModel, default_model
from .detection import BACK, FULL_SIZE, UNKNOWN, Detection, accept_for
from .frames import as_bgr
from . import corners as corner_search
from .geometry import CARD_H, CARD_W, find_quads, scaled, warp_card
from .glyphs import IndexGlyphs, blank_margin, extract_indices, rank_features, suit_features
from .pips import COUNT, read_pips

#: The part of an upright flattened card searched for the index (fractions of width and height).
CORNER_W, CORNER_H = 0.27, 0.5
#: Redness (see glyphs.IndexGlyphs) below which ink is surely black, and above which it is surely red. RED_MIN was
#: 1.08 until stop 38: under warm light aisleriot's plastic 2S, TS and 6S at 126 px measured 1.09-1.14 and were named
#: 2D, TD, 6D. At 1.15, cardcounter's train part (chosen on) loses 2 of webcam-table's 312 cards (1.3: 54); a seed
#: measured once (8686, nine decks, 126 px) 1,282 named / 1 wrong -> 1,282 / 0; held-out photos unchanged.
BLACK_MAX, RED_MIN = 1.6, 1.15
#: A suit glyph narrower than this share of its height is not named: every suit is about as wide as it is tall (in
#: the synthetic training cuts 0.45% of suits are narrower), while a sliver of a letter or of a line beside a rank is
#: that narrow (the mat's printed "ROW" read as 9C in a simulated game).
SUIT_MIN_ASPECT = 0.35
#: A whole card named by one corner alone, whose index only the second look nearer the paper found
#: (``glyphs.FAINT_WHOLE``), is named only when that corner's read is at least this sure: that look can catch a
#: fragment of a pale rank (the right stroke of a faint Q read as J at 0.90), and the other corner did not confirm it.
FAINT_ALONE = 0.95
#: A whole ace to ten whose pips (``pips.read_pips``) number its rank, and are of its suit at least this sure and of
#: its colour (redness at least PIP_RED for hearts and diamonds, at most PIP_BLACK for clubs and spades), counts the
#: pips as a second look agreeing (confidences joined as for two corners). Where pips that number its rank are of the
#: other colour (redness below RED_MIN for a red read, above BLACK_MAX for a black one) it is "unknown". Chosen on
#: synthetic 720p scenes of the bundled deck and aisleriot's anglo and plastic decks, cards 126-196 px tall: of 504
#: number cards whose pips were read, pips named 5 with the wrong suit (plastic's round spades, as diamonds, 0.50-0.64
#: sure), none at 0.7 or more; their redness was 2.47 or more for every red card, at most 1.08 for every black one.
PIP_SURE, PIP_RED, PIP_BLACK = 0.8, 1.3, 1.15
#: A whole two to ten whose indices were not named at all (a blurred 10 px rank, a corner in glare) is named by its
#: pips alone where they lie as its rank's standard layout does (``pips.laid_out``), are of one suit at least this
#: sure and of its colour (as for PIP_SURE).
PIP_ALONE = 0.95


@dataclass
class CornerRead:
    code: str | None  # None: an index-like pair was found but not named
    confidence: float
    glyphs: IndexGlyphs


def read_corners(corners: np.ndarray, model: GlyphModel, anchor=None, colours=None) -> list[CornerRead | None]:
    """Name the index in each of many corners at once: grey cuts (N x H x W, the darkest channel) of the top-left
    part of an upright card face; None where there is no index. ``anchor``: a pixel the rank glyph must cover.
    ``colours[k]()`` gives corner k in BGR, to check the ink's colour against the suit; it is called only for a
    corner whose glyphs are named (most shapes the corner search tries are not an index, and a grey cut costs a
    fifth of a colour one). Without ``colours`` the colour is not checked."""
    glyphs = extract_indices(corners, anchor)
    found = [k for k, g in enumerate(glyphs) if g is not None]
    out: list[CornerRead | None] = [None] * len(glyphs)
    if not found:
        return out
    pr = model.rank.probs(np.stack([rank_features(glyphs[k]) for k in found]))
    ranked = [n for n, k in enumerate(found) if model.rank.classes[int(pr[n].argmax())] != JUNK]
    for k in found:
        out[k] = CornerRead(None, 0.0, glyphs[k])  # not a rank: the suit need not be looked at
    if ranked:
        ps = model.suit.probs(np.stack([suit_features(glyphs[found[n]]) for n in ranked]))
        for row, n in enumerate(ranked):
            k = found[n]
            out[k] = _name(glyphs[k], pr[n], ps[row], model, colours[k] if colours else None)
    return out


#: Where the ink is surely of one colour (redness above BLACK_MAX, or below RED_MIN), choose the suit among that
#: colour's suits (and "not a suit"), its probability taken among theirs alone: the ink's colour is evidence the suit
#: classifier, which sees only shapes, does not have, and a deck whose spade is drawn unlike the trained ones
#: (aisleriot's plastic spade: 0.5-0.8 spade, the rest diamond) is then named by its index. On since stop 42, once
#: a 6 or 9 whose two indices agree was no longer taken for another card's turned end (TURNED_OWN_PAIR) and a card
#: whose corners disagree kept what its pips rule out (DISAGREE_PIPS). Nine decks' synthetic scenes, two seeds
#: measured once (7171, 3737; 1,620 cards a size), against the reader with the three off: 1,260 / 1,294 -> 1,309 /
#: 1,341 named at 126 px, 1,439 / 1,430 -> 1,474 / 1,473 at 160 px, 1,511 / 1,502 -> 1,531 / 1,522 at 196 px,
#: misreads 9 -> 10 in all; the held-out real photos read the same (vision README, stop 42).
SUIT_BY_COLOUR = True


def _name(g: IndexGlyphs, pr: np.ndarray, ps: np.ndarray, model: GlyphModel, colour) -> CornerRead:
    ri, si = int(pr.argmax()), int(ps.argmax())
    rank, suit = model.rank.classes[ri], model.suit.classes[si]
    if rank == JUNK or suit == JUNK or g.suit_aspect < SUIT_MIN_ASPECT:
        return CornerRead(None, 0.0, g)
    if g.redness is None and colour is None:  # a look that only has to name the card: its colour is not checked
        return CornerRead(rank + suit, float(pr[ri] * ps[si]), g)
    redness = g.redness if g.redness is not None else g.measure_redness(colour())
    if SUIT_BY_COLOUR and (redness > BLACK_MAX or redness < RED_MIN):
        keep = "DH" if redness > BLACK_MAX else "CS"
        mask = np.array([c in keep or c == JUNK for c in model.suit.classes])
        ps = np.where(mask, ps, 0.0) / max(float(ps[mask].sum()), 1e-9)
        si = int(ps.argmax())
        suit = model.suit.classes[si]
        if suit == JUNK:  # the shape is likelier no suit than one of the ink's colour
            return CornerRead(None, 0.0, g)
    conf = float(pr[ri] * ps[si])
    red = suit in "DH"
    if (red and redness < RED_MIN) or (not red and redness > BLACK_MAX):
        conf *= 0.3
    return CornerRead(rank + suit, conf, g)


def _looks_like_back(card: np.ndarray) -> bool:
    """A face-down card: patterned right out to its margins on all four sides. A face, even a court card, has
    plain paper beside its pips or picture (tried on the faces of 17 decks: none of 199 looks like this; of the
    backs of 32 decks, 73%); a patch of table is not patterned with the contrast of a printed back."""
    mn = card.min(axis=2).astype(np.float32)
    h, w = mn.shape
    mean = cv2.blur(mn, (7, 7))
    spread = np.sqrt(np.maximum(cv2.blur(mn * mn, (7, 7)) - mean * mean, 0))
    paper = float(np.percentile(mn, 99))
    busy = (spread > 8) | (mn < 0.75 * paper)

    def share(x0, x1, y0, y1):
        return float(busy[int(y0 * h):int(y1 * h), int(x0 * w):int(x1 * w)].mean())

    sides = (share(.08, .16, .3, .7), share(.84, .92, .3, .7), share(.3, .7, .06, .12), share(.3, .7, .88, .94))
    centre = mn[int(.2 * h):int(.8 * h), int(.2 * w):int(.8 * w)]
    contrast = float(np.percentile(centre, 95) - np.percentile(centre, 5))
    return min(sides) >= 0.9 and share(.2, .8, .2, .8) >= 0.5 and contrast >= 60


def read_cards(frame: np.ndarray, quads: list[np.ndarray], model: GlyphModel,
               colour: bool = True, again: bool = True) -> list[Detection | None]:
    """Read the whole card at each of ``quads`` (corners ordered by geometry.order_corners), their index corners
    in one batch: a Detection, or None where a quad is no card. Without ``colour`` (a frame with no colour in it)
    the ink's colour is not checked against the suit. ``again``: look again at a card whose index may be cut off
    (see :data:`EDGE_AGAIN`)."""
    cw, ch = int(CARD_W * CORNER_W), int(CARD_H * CORNER_H)
    # only the two index corners are flattened: the top-left, and the bottom-right turned upright
    cuts = [warp_card(frame, np.roll(q, -k, axis=0), crop=(cw, ch)) for q in quads for k in (0, 2)]
    if not cuts:
        return []
    darkest = np.stack([cv2.min(cv2.min(c[:, :, 0], c[:, :, 1]), c[:, :, 2]) for c in cuts])
    reads = read_corners(darkest, model, colours=[lambda c=c: c for c in cuts] if colour else None)
    out = [_card(frame, q, reads[2 * n:2 * n + 2], model if colour else None) for n, q in enumerate(quads)]
    if EDGE_AGAIN and again:
        edge = blank_margin(cw) + 1
        cut = [n for n, d in enumerate(out) if d is not None and d.card not in (UNKNOWN, BACK) and any(
            r is not None and r.code == d.card and min(r.glyphs.rank_box[:2]) <= edge for r in reads[2 * n:2 * n + 2])]
        if cut:
            grown = [scaled(quads[n], EDGE_AGAIN).astype(np.float32) for n in cut]
            for n, d in zip(cut, read_cards(frame, grown, model, colour, again=False)):
                if d is None or d.card != out[n].card:
                    was = out[n]
                    out[n] = Detection(UNKNOWN, min(was.confidence, 0.5), was.corners, True, {"guess": was.card})
    return out


#: A whole card named by a rank that touches its cut's top or left edge is read again with its outline this much
#: larger, and stays "unknown" unless it reads the same: an outline a little inside the card's edge cuts off the
#: side of an index printed close to it, and a 3 so cut reads as a J, an 8 as a 3, in both corners (aisleriot's
#: paris deck). None: no second read.
EDGE_AGAIN: float | None = 1.04


def _card(frame: np.ndarray, corners: np.ndarray, reads: list, model: GlyphModel | None = None) -> Detection | None:
    """What the reads of a whole card's two index corners make of it; with ``model``, an ace to ten's pips are
    looked at too (see :data:`PIP_SURE`; not in a grey frame, where their colour says nothing)."""
    named = [r for r in reads if r is not None and r.code is not None]
    pts = tuple((float(x), float(y)) for x, y in corners)
    height = max(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[2] - corners[1]))
    if not named:
        card = warp_card(frame, corners)
        alone = _by_pips(card, pts, height, model)
        if alone is not None:
            return alone
        if _looks_like_back(card):
            return Detection(BACK, 0.9, pts, True)
        if any(r is not None for r in reads):
            return Detection(UNKNOWN, 0.0, pts, True)
        return None
    named.sort(key=lambda r: -r.confidence)
    best = named[0]
    if len(named) == 2:
        other = named[1]
        if other.code == best.code:
            conf = 1 - (1 - best.confidence) * (1 - other.confidence)
        else:
            conf = best.confidence * (1 - other.confidence)
    else:
        conf = best.confidence * (0.95 if reads.count(None) else 0.85)
        if best.glyphs.faint and best.confidence < FAINT_ALONE:
            conf = min(conf, 0.5)  # see FAINT_ALONE: "unknown", its guess kept
    against = None
    looks = sum(r.code == best.code for r in named)  # the corners that name the card
    # (a large card's index is read well in both its shape and colour: its pips are looked at only if it is doubtful)
    ruled_out = None
    if model is not None and best.code[0] in COUNT and (height < FULL_SIZE or conf < accept_for(height)):
        by_index = conf
        pips = read_pips(warp_card(frame, corners), model)
        conf, against = _with_pips(conf, best.code, pips)
        looks += conf > by_index  # and its pips, where they agree
        if (DISAGREE_PIPS and not against and len(named) == 2 and named[1].code != best.code
                and named[1].code[0] in COUNT):
            ruled_out = _with_pips(0.0, named[1].code, pips)[1]  # see DISAGREE_PIPS
    if against:
        return Detection(UNKNOWN, conf, pts, True, {"guess": best.code, "pips": against})
    if conf < accept_for(height):
        return Detection(UNKNOWN, conf, pts, True, {"guess": best.code, **({"pips": ruled_out} if ruled_out else {})})
    return Detection(best.code, conf, pts, True, {"looks": looks})


#: A whole card whose two corners name two cards is "unknown"; where its pips rule out the less sure of the two
#: (pips of the other colour, or as many as a 6's where a 9 is read), the card carries that as ``extra["pips"]``,
#: so that the same corner read again on its own is not named (:func:`pips_allow`). Found on seed 7171's synthetic
#: scenes (stop 42): ar-plastic's 5S under warm light, one corner's ink surely black (5S), the other's of no sure
#: colour, whose spade the shapes call a diamond (5D); the card was "unknown", then that corner read alone named 5D.
DISAGREE_PIPS = True


def _with_pips(conf: float, code: str, pips) -> tuple[float, str | None]:
    """The confidence of a whole card read ``code`` at ``conf`` once its pips (a ``pips.Pips``, or None) are
    seen (see :data:`PIP_SURE`); and the pips' colour ("red" or "black") where it is not the read's, "turned" where
    a 6 or a 9 is read and the pips are as many as the other's (see :data:`TURNED`), else None."""
    if TURNED and pips is not None and code[0] in TURNED_RANKS and pips.count == COUNT[TURNED_RANKS[code[0]]]:
        return min(conf, 0.5), "turned"  # a 6 read where nine pips are, or a 9 where six are: see TURNED
    if pips is None or pips.count != COUNT[code[0]]:
        return conf, None  # no pips read, or not this rank's: they say nothing of it
    red = code[1] in "DH"
    if red and pips.redness < RED_MIN:
        return min(conf, 0.5), "black"
    if not red and pips.redness > BLACK_MAX:
        return min(conf, 0.5), "red"
    if pips.suit == code[1] and pips.confidence >= PIP_SURE and (
            pips.redness >= PIP_RED if red else pips.redness <= PIP_BLACK):
        return 1 - (1 - conf) * (1 - pips.confidence), None
    return conf, None


def _by_pips(card: np.ndarray, pts: tuple, height: float, model: GlyphModel | None) -> Detection | None:
    """A whole card whose indices were not named (``card`` flattened; its corners ``pts`` in the frame, ``height``
    px tall there), named by its pips alone where they are sure (see :data:`PIP_ALONE`); else None."""
    if model is None:
        return None
    pips = read_pips(card, model)
    if pips is None or pips.count < 2 or not pips.laid_out or pips.confidence < PIP_ALONE:
        return None
    if not (pips.redness >= PIP_RED if pips.suit in "DH" else pips.redness <= PIP_BLACK):
        return None
    code = "23456789T"[pips.count - 2] + pips.suit
    if pips.confidence < accept_for(height):
        return Detection(UNKNOWN, pips.confidence, pts, True, {"guess": code})
    return Detection(code, pips.confidence, pts, True, {"found_by": "pips", "looks": 1})


def pips_allow(cards: list[Detection], extra: list[Detection]) -> list[Detection]:
    """``extra`` (index corners read on their own) but for those inside one of ``cards`` (whole cards read) whose
    pips are of the other colour than the corner's read (see :data:`PIP_SURE`), or, for a 6 or a 9, as many as the
    other's (see :data:`TURNED`): such a card's index, read in another look, is as doubtful as its corners were
    (a plastic deck's 5S, both corners read 5D, was so read)."""
    marked = [(np.float32(d.corners), d.extra["pips"]) for d in cards if d.whole_card and d.extra.get("pips")]
    if not marked:
        return extra
    return [e for e in extra if e.card in (UNKNOWN, BACK) or not any(
        cv2.pointPolygonTest(p, e.center, False) >= 0 and (
            e.card[0] in TURNED_RANKS if colour == "turned" else (e.card[1] in "DH") != (colour == "red"))
        for p, colour in marked)]


#: Two index corners read on their own, a 6 and a 9 of one suit, that lie as one card's two corners do (facing
#: opposite ways, each down the card from the other, TURNED_SPAN index heights apart) are one card
#: whose lower index is printed upright instead of turned, read upside down (a 6 turned is a 9; a diamond is a
#: diamond either way): neither is named, one "unknown" stands for both. Found on a deck never trained on (KDE's
#: ancient-egyptians; synthetic 720p scenes of seed 9393 with it and aisleriot's atlasnye: 12 of the 13 misreads
#: were 6D / 9D); a real 6 and 9 lying so is rare, and reported "unknown" it costs a look, never a wrong score.
#: The two must also be about one size (the larger at most TURNED_SIZES times the smaller): a real photo of the
#: train part (IMG_7726) holds a 6H and a 9H, two cards seen in perspective, that lie facing so, 63 and 80 px tall;
#: the corners of one card in the synthetic scenes were within 10% of each other.
#: The same doubt holds a whole card read as a 6 or a 9 whose pips are as many as the other's (``_with_pips``): it
#: is "unknown", and an index read alone inside it is not named.
TURNED, TURNED_SPAN, TURNED_SIZES = True, (1.5, 10.0), 1.2
TURNED_RANKS = {"6": "9", "9": "6"}
#: A 6 or 9 read alone whose card's other index, well apart, was read the same (``extra["looks"]`` 2, see
#: ``detector.find_corners``) is a card whose two indices agree, not another card's turned end: it is not made one
#: "unknown" with a 9 or 6 that happens to face it. Table-overlap's deal1 at 8000 px lost its 6D and 9D so: the
#: 6D kept its far index (a hair surer than its near one), which faces the next card's 9D as one card's two
#: ends would (stop 42).
TURNED_OWN_PAIR = True


def turned_sixes_and_nines(found: list[Detection]) -> list[Detection]:
    """``found`` with each pair of index corners read alone as a 6 and a 9 of one suit, lying as the two corners of
    one card (see :data:`TURNED_SPAN`), made one "unknown" (its ``extra`` holds both names as ``guess``)."""
    alone = [k for k, d in enumerate(found) if not d.whole_card and d.card[:1] in ("6", "9") and len(d.corners) == 4]
    drop: set[int] = set()
    merged = []
    for i, j in combinations(alone, 2):
        a, b = found[i], found[j]
        if i in drop or j in drop or a.card[0] == b.card[0] or a.card[1] != b.card[1]:
            continue
        if TURNED_OWN_PAIR and max(a.extra.get("looks", 1), b.extra.get("looks", 1)) >= 2:
            continue  # one of them was read the same at its card's other index: a card of its own (TURNED_OWN_PAIR)
        pa, pb = np.float32(a.corners), np.float32(b.corners)
        da, db = pa[3] - pa[0], pb[3] - pb[0]  # each index's "down", rank to suit
        ha, hb = float(np.linalg.norm(da)), float(np.linalg.norm(db))
        if min(ha, hb) < 1 or max(ha, hb) > TURNED_SIZES * min(ha, hb):
            continue  # one card's two indices are printed alike: seen so differently, they are two cards
        step = np.subtract(b.center, a.center)
        dist = float(np.linalg.norm(step))
        apart = dist / ((ha + hb) / 2)
        # facing opposite ways, each lying down the card from the other (one card's diagonal)
        if (float(da @ db) / (ha * hb) < -0.7 and TURNED_SPAN[0] <= apart <= TURNED_SPAN[1]
                and float(step @ da) / (ha * dist) > 0.6):
            drop.update((i, j))
            box = cv2.boxPoints(cv2.minAreaRect(np.concatenate([pa, pb])))
            merged.append(Detection(UNKNOWN, 0.0, tuple((float(x), float(y)) for x, y in box), False,
                                    {"guess": sorted((a.card, b.card)), "turned": True}))
    return [d for k, d in enumerate(found) if k not in drop] + merged if drop else found


#: Whether :func:`recognize` also looks for index corners with the learned detector (``detector.py``).
USE_DETECTOR = True
#: A larger photo (its longer side, pixels) is read scaled down to this: the ink thresholds are tuned to glyphs a
#: few dozen pixels high, and a card gains nothing from more (a 1200 px photo of fanned hands read 42 of 44
#: cards, the same photo at 4000 px 37).
READ_MAX_SIDE = 2000


def recognize(frame, *, model: GlyphModel | None = None, detector: bool | None = None) -> list[Detection]:
    """Every card seen in ``frame`` (a BGR image as numpy array, any size): its code, ``"back"`` or ``"unknown"``,
    a confidence and its corners in image coordinates. Bad frames (empty, wrong shape or type) give ``[]``.
    ``detector``: also read the index corners the learned detector finds (default :data:`USE_DETECTOR`)."""
    img = as_bgr(frame, min_side=32, convert=True)
    if img is None:
        return []
    scale = READ_MAX_SIDE / max(img.shape[:2])
    if scale < 1:
        small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        return [replace(d, corners=tuple((x / scale, y / scale) for x, y in d.corners))
                for d in recognize(small, model=model, detector=detector)]
    model = model or default_model()
    colour = not is_grey(img)
    found = _recognize_bright(img, model, colour)
    if USE_DETECTOR if detector is None else detector:
        from . import detector as learned  # it builds on this module

        found = learned.add_corners(img, found, model, colour=colour)
    return turned_sixes_and_nines(found) if TURNED else found


#: A pixel whose channels differ by more than this has colour; a grey photo saved as JPEG differs by a few levels.
GREY_TOLERANCE = 8


def is_grey(img: np.ndarray) -> bool:
    """Whether ``img`` (BGR) holds no colour at all: a grey photo stored as BGR. Its hearts and diamonds are as
    grey as its clubs and spades, so the ink's colour cannot be checked against the suit (it would make every red
    card "unknown"); the glyphs' shapes alone name the card. A colour camera's frame always has some colour; a
    grey photo that went through JPEG has channels a few levels apart (:data:`GREY_TOLERANCE`), never more."""
    small = img[::4, ::4]
    chroma = cv2.subtract(cv2.max(cv2.max(small[:, :, 0], small[:, :, 1]), small[:, :, 2]),
                          cv2.min(cv2.min(small[:, :, 0], small[:, :, 1]), small[:, :, 2]))
    return cv2.countNonZero((chroma > GREY_TOLERANCE).view(np.uint8)) <= 0.002 * chroma.size


def _recognize_bright(img: np.ndarray, model: GlyphModel, colour: bool = True) -> list[Detection]:
    """The cards found by telling bright card stock from the table: whole cards, then index corners on stock."""
    quads, loose, stock = find_quads(img)
    found = []
    solid = []  # quads that were read as one card (named or back): no corner search inside them
    for q, det in zip(quads, read_cards(img, quads, model, colour)):
        if det is not None:
            found.append(det)
            if det.card != UNKNOWN:
                solid.append(q)
    if loose is not None or len(solid) < len(found):
        extra = pips_allow(found, _partly_hidden(img, stock, solid, found, model, colour))
        if extra:
            # an "unknown" quad holding index corners read on their own was several cards, not one
            found = [d for d in found if d.card != UNKNOWN or not any(
                cv2.pointPolygonTest(np.float32(d.corners), e.center, False) >= 0 for e in extra)]
            found += extra
    return found


def _partly_hidden(img, stock, quads, found, model, colour: bool = True) -> list[Detection]:
    """Cards read by their index corner alone, in card stock that is not one whole card."""
    stock = stock.copy()
    for q in quads:
        cv2.fillPoly(stock, [np.round(scaled(q, 1.06)).astype(np.int32)], 0)
    # only patches of card stock big enough to hold an index corner (outlines, not labelling: 10x faster here)
    card_area = float(np.median([cv2.contourArea(q) for q in quads])) if quads else 0.0
    min_area = max(0.15 * card_area, 0.002 * stock.size)
    outlines, tree = cv2.findContours(stock, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    patches = [c for c, t in zip(outlines, tree[0] if tree is not None else []) if t[3] < 0]  # not holes
    small = [c for c in patches if cv2.contourArea(c) < min_area]
    if len(small) == len(patches):
        return []
    if small:
        cv2.drawContours(stock, small, -1, 0, cv2.FILLED)
    b, g, r = cv2.split(img)
    mn = cv2.min(cv2.min(b, g), r)
    have = {d.card for d in found}
    every: dict[str, list[tuple]] = {}
    widths = [np.linalg.norm(q[1] - q[0]) for q in quads]
    card_w = float(np.median(widths)) if len(widths) >= 2 else None
    for code, conf, pts, centre in corner_search.search(img, mn, stock, model, read_corners, card_width=card_w,
                                                             colour=colour):
        if code in have or corner_search.off_frame(pts, img.shape) > corner_search.OFF_FRAME:
            continue
        every.setdefault(code, []).append((code, conf, pts, centre))
    out = []
    for read in corner_search.one_name_a_place([max(rs, key=lambda r: r[1]) for rs in every.values()]):
        code, conf, pts, _ = read
        # read the same well apart too (the card's other index): two looks, as detector.find_corners counts them
        looks = 2 if corner_search.other_index(every[code], read) else 1
        out.append(Detection(code, conf, tuple((float(x), float(y)) for x, y in pts), False, {"looks": looks}))
    return out
