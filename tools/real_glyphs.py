"""Glyph samples cut from REAL photos: the index corners of cardcounter's TRAIN part, as the reader sees them.

``../shared/data/real-photos/cardcounter/BOXES.tsv`` gives every labelled index corner (rank over suit) of its
photos as a box and a card code. Each box of a photo in the wanted part of ``tools/cardcounter_split.tsv`` is cut
out the way the learned detector's step cuts a marked corner at run time (``detector.find_corners``: the box
and 0.8 of its size round it, scaled so the corner is at most ``detector.NORM`` px), a few times with random
turn, scale, blur, noise, light and JPEG; each cut is searched by the runtime's corner search
(``corners.ink_components`` -> ``candidate_pairs`` -> upright cut -> ``glyphs.extract_indices`` with the anchor),
so the samples are exactly what the classifiers are given then. A pair whose two glyphs lie in one box and whose
direction is the card's "down" is that card's index; the same pair turned away (read upwards or sideways) and
pairs away from every box are "not a rank" (``-``).

Which way is "down" in a box: where the card's other index corner is labelled too, the card's centre lies between
the two and the index sits up and left of it; else the pair that a glyph model (the synthetic-only model trained
first by ``train_vision``) finds likeliest to be the labelled card shows it. Boxes whose "down" is not known give no
index samples.

The photos are read from ../shared and never copied into the repository (CC BY 4.0: "Card Detection" dataset by
cadyzedevelopmenthub on Roboflow Universe, via Ammememe/CardCounterML).

    python -m tools.real_glyphs [--part train] [--per-box 6]     # prints how many samples it makes
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from companion.vision import corners
from companion.vision.detector import glyph_sizes, ink_margin, patch_inks
from companion.vision.classifier import JUNK, GlyphModel
from companion.vision.glyphs import extract_indices, features

CARDCOUNTER = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "real-photos" / "cardcounter"
SPLIT = Path(__file__).resolve().parent / "cardcounter_split.tsv"
RANKS, SUITS = "A23456789TJQK", "CDHS"
#: As in detector.find_corners: the cut round a corner, and the size a corner is scaled down to.
PAD, NORM = 0.8, 64.0
#: Where the index's centre lies from the card's centre, in card heights (right, down) in the card's own frame.
INDEX_TO_CENTRE = (0.30, 0.37)


def split_parts(split: Path = SPLIT) -> dict[str, str]:
    """image -> "train" | "heldout" (``tools/cardcounter_split.tsv``)."""
    rows = (line.split("\t") for line in split.read_text().splitlines() if line and not line.startswith("#"))
    return {r[0]: r[1] for r in rows}


def in_slice(name: str, val: bool) -> bool:
    """A fixed fifth of the train part (by a hash of the name, independent of the train/held-out split's) is the
    validation slice the acceptance thresholds are chosen on."""
    import hashlib

    return (int(hashlib.md5(name.encode()).hexdigest(), 16) % 5 == 0) == val


def load_boxes(folder: Path, names: set[str]) -> dict[str, list[tuple[str, np.ndarray]]]:
    """image -> [(code, (cx, cy, w, h) as fractions)] for the named images; boxes that are not a card code go."""
    out: dict[str, list] = defaultdict(list)
    for line in (folder / "BOXES.tsv").read_text().splitlines():
        if line.startswith("#") or "\t" not in line:
            continue
        name, code, *nums = line.split("\t")
        if name in names and len(code) == 2 and code[0] in RANKS and code[1] in SUITS:
            out[name].append((code, np.array([float(v) for v in nums[:4]])))
    return out


def _right(d: np.ndarray) -> np.ndarray:
    """The card's "right" for its "down" ``d`` (as corners.upright_matrices has it)."""
    return np.array([d[1], -d[0]])


def down_from_centre(box_xy: np.ndarray, centre: np.ndarray) -> np.ndarray | None:
    """The card's "down" at an index corner at ``box_xy`` of a card whose centre is ``centre``."""
    c = centre - box_xy
    n = np.linalg.norm(c)
    if n < 1e-6:
        return None
    c /= n
    a, b = INDEX_TO_CENTRE
    theta = np.arctan2(a, b)
    for sgn in (1, -1):
        cs, sn = np.cos(sgn * theta), np.sin(sgn * theta)
        d = np.array([[cs, -sn], [sn, cs]]) @ c
        pred = a * _right(d) + b * d
        if np.dot(pred / np.linalg.norm(pred), c) > 0.99:
            return d
    return None


def _angle(u: np.ndarray, v: np.ndarray) -> float:
    return float(np.degrees(np.arccos(np.clip(np.dot(u, v) / (np.linalg.norm(u) * np.linalg.norm(v) + 1e-9),
                                              -1, 1))))


def _augment(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Blur, noise, light and JPEG as another camera might give them."""
    out = img
    if rng.random() < 0.5:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.3, 1.3)))
    if rng.random() < 0.5:
        gain, bias = rng.uniform(0.65, 1.2), rng.uniform(-25, 20)
        out = np.clip(out.astype(np.float32) * gain + bias, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        out = np.clip(out + rng.normal(0, rng.uniform(2, 7), out.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return out


def _box_of(px: list, p: np.ndarray, grow: float = 1.0) -> int:
    """The index of the first box of ``px`` (code, centre, size) holding the photo point ``p`` (the box grown by
    ``grow``), or -1."""
    for j, (_, bxy, bwh) in enumerate(px):
        if np.all(np.abs(p - bxy) <= bwh / 2 * grow):
            return j
    return -1


def _patch(img: np.ndarray, xy: np.ndarray, wh: np.ndarray, rep: int, rng: np.random.Generator):
    """Cut ``rep`` of the box at ``xy`` (size ``wh``) as the detector would cut its patch: the first as it is, the
    rest turned, scaled as a misjudged size would scale them and given camera effects. Returns (patch, its map back
    to the photo, the glyph sizes the runtime looks for in it)."""
    turn = 0.0 if rep == 0 else float(rng.uniform(-25, 25))
    scale = 1.0 if rep == 0 else float(np.exp(rng.uniform(np.log(0.7), np.log(1.4))))
    side = float(max(wh)) * scale  # what the detector thinks the corner's size is
    f = min(1.0, NORM / side)
    half = wh / 2 + PAD * side
    # the cut (turned about the box's centre) as an affine map from the photo: crop = m @ photo
    out_w, out_h = max(8, round(2 * half[0] * f)), max(8, round(2 * half[1] * f))
    rot = cv2.getRotationMatrix2D((float(xy[0]), float(xy[1])), turn, f)
    rot[:, 2] += np.array([out_w / 2, out_h / 2]) - xy
    crop = cv2.warpAffine(img, rot, (out_w, out_h), flags=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
    if rep:
        crop = _augment(crop, rng)
    return crop, cv2.invertAffineTransform(rot), glyph_sizes(side * f)


def _pair_cuts(mn: np.ndarray, comps: np.ndarray, pairs: list, back: np.ndarray, box_of, rng: np.random.Generator):
    """The corner cut of each glyph pair in ``mn`` (half as the search's first look, half a little off it), and
    for each the photo boxes its two glyphs fall in (as they are and grown by 1.4) and its step down the card."""
    centres = cv2.transform(comps[None, :, :2].astype(np.float64), back)[0]  # photo coordinates
    cuts, info = [], []
    for i, j in pairs:
        a, b = comps[i, :2], comps[j, :2]
        dist = float(np.linalg.norm(b - a))
        look_s, look_t = (0.95, 0.0) if rng.random() < 0.5 else (rng.uniform(0.88, 1.12), rng.uniform(-0.07, 0.07))
        cs, sn = np.cos(look_t), np.sin(look_t)
        b2 = a + np.array([[cs, -sn], [sn, cs]]) @ (b - a)
        cuts.append(corners.cut(mn, corners.upright_matrix(a, b2, look_s * dist)))
        info.append((box_of(centres[i]), box_of(centres[j]), box_of(centres[i], 1.4), box_of(centres[j], 1.4),
                     centres[j] - centres[i]))
    return cuts, info


def _down_by_oracle(k: int, code: str, info: list, feats: list, oracle: GlyphModel) -> np.ndarray | None:
    """Which way is down in box ``k`` (card ``code``): the step of the pair inside it that ``oracle`` finds likeliest
    that card, None where none is likely at all."""
    best, best_p = None, 0.05
    for (bi, bj, _, _, d), ft in zip(info, feats):
        if ft is None or bi != k or bj != k:
            continue
        pr = oracle.rank.probs(ft[0])[0][oracle.rank.classes.index(code[0])]
        ps = oracle.suit.probs(ft[1])[0][oracle.suit.classes.index(code[1])]
        if pr * ps > best_p:
            best, best_p = d, pr * ps
    return best


def _label(k: int, px: list, downs: list, d_here, info: list, feats: list, out: tuple, stats: dict) -> None:
    """Add the samples of one patch of box ``k`` to ``out``: a pair inside one box read down its card is that
    card's index, read across it junk; a pair outside every index is junk, and so is an index glyph read across
    the card with a shape outside every index."""
    rx, ry, sx, sy = out
    for (bi, bj, gi, gj, d), ft in zip(info, feats):
        if ft is None:
            continue
        dn = (downs[bi] if bi != k else d_here) if bi >= 0 else None
        if bi >= 0 and bi == bj:
            if dn is None:
                continue
            ang = _angle(d, dn)
            if ang < 30:
                code = px[bi][0]
                rx.append(ft[0]), ry.append(code[0]), sx.append(ft[1]), sy.append(code[1])
                stats["index"] += 1
            elif ang > 60:
                rx.append(ft[0]), ry.append(JUNK), sx.append(ft[1]), sy.append(JUNK)
                stats["turned"] += 1
        elif gi < 0 and gj < 0:
            rx.append(ft[0]), ry.append(JUNK)  # pips, art, a neighbour's edge: its suit may be a suit
            stats["junk"] += 1
        elif bi >= 0 and gj < 0 and dn is not None and _angle(d, dn) > 60:
            # an index glyph and a shape outside every index (a pip, the next card's edge), read across or up the
            # card: not an index (read down the card it may look like one: left out)
            rx.append(ft[0]), ry.append(JUNK)
            stats["junk_beside"] += 1


def photo_samples(img: np.ndarray, boxes: list[tuple[str, np.ndarray]], rng: np.random.Generator, per_box: int,
                  oracle: GlyphModel | None, out: tuple[list, list, list, list], stats: dict) -> None:
    """Samples from every box of one photo, ``per_box`` random cuts each (the first without turn or effects)."""
    H, W = img.shape[:2]
    px = [(code, np.array([b[0] * W, b[1] * H]), np.array([b[2] * W, b[3] * H])) for code, b in boxes]
    box_of = partial(_box_of, px)
    downs: list[np.ndarray | None] = []
    for k, (code, xy, wh) in enumerate(px):
        twins = [o for j, (c2, o, _) in enumerate(px) if j != k and c2 == code
                 and np.linalg.norm(o - xy) > 2.0 * max(wh)]
        downs.append(down_from_centre(xy, (xy + twins[0]) / 2) if len(twins) == 1 else None)
    stats["boxes"] += len(px)
    stats["down_by_twin"] += sum(d is not None for d in downs)
    for k, (code, xy, wh) in enumerate(px):
        for rep in range(per_box):
            crop, back, (lo, hi) = _patch(img, xy, wh, rep, rng)
            for mn, _ in patch_inks(crop):  # what the runtime reads in such a patch
                comps = corners.ink_components(mn, np.full(mn.shape, 255, np.uint8), min_h=lo, max_h=hi,
                                               margin=ink_margin(mn))
                pairs = corners.candidate_pairs(comps)
                if not pairs:
                    continue
                cuts, info = _pair_cuts(mn, comps, pairs, back, box_of, rng)
                glyphs = extract_indices(np.stack(cuts), corners.ANCHOR)
                feats = [features(g) if g is not None else None for g in glyphs]
                # which way is down: the twin corner's say, else the pair the oracle finds likeliest this card
                d_here = downs[k]
                if d_here is None and oracle is not None:
                    d_here = _down_by_oracle(k, code, info, feats, oracle)
                    if rep == 0 and d_here is not None:
                        stats["down_by_oracle"] += 1
                _label(k, px, downs, d_here, info, feats, out, stats)


def real_samples(folder: Path = CARDCOUNTER, *, part: str = "train", val: bool | None = None, per_box: int = 6,
                 seed: int = 14, oracle: GlyphModel | None = None) -> tuple[list, list, list, list, dict]:
    """(rank X, rank y, suit X, suit y, counts) from the photos of ``part``; ``val`` True/False: only the validation
    slice of it / all but that slice (None: the whole part)."""
    parts = split_parts()
    names = sorted(n for n, p in parts.items() if p == part and (val is None or in_slice(n, val)))
    boxes = load_boxes(folder, set(names))
    out: tuple[list, list, list, list] = ([], [], [], [])
    stats: dict = defaultdict(int)
    for n, name in enumerate(names):
        img = cv2.imread(str(folder / name))
        if img is None or name not in boxes:
            continue
        stats["photos"] += 1
        photo_samples(img, boxes[name], np.random.default_rng([seed, n]), per_box, oracle, out, stats)
    return (*out, dict(stats))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=CARDCOUNTER)
    ap.add_argument("--part", default="train", choices=("train", "heldout"))
    ap.add_argument("--per-box", type=int, default=6)
    ap.add_argument("--oracle", type=Path, help="a glyphs.npz that says which way is down where no twin does")
    a = ap.parse_args(argv)
    if not (a.data / "BOXES.tsv").exists():
        print(f"real_glyphs: no cardcounter data at {a.data}", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    oracle = GlyphModel.load(a.oracle) if a.oracle else None
    rx, ry, sx, sy, stats = real_samples(a.data, part=a.part, per_box=a.per_box, oracle=oracle)
    print(stats)
    print(f"{len(rx)} rank samples ({sum(y != JUNK for y in ry)} index), {len(sx)} suit samples")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
