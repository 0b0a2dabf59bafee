"""Measure a card reader on every real photo set in ../shared/data/real-photos: cards found, misread, unknown.

    python -m tools.eval_real [--reader old|new] [--sets webcam-single,cardcounter] [--part heldout|train|all]
                              [--sample N] [--data ../shared/data] [--model corners.onnx] [--lean L [--top-down]]
                              [--set "detector.NAMER=True"] [-v]

Sets: ``webcam-single`` (one card a photo), ``table-overlap`` (fanned hands), ``card-faces`` (flattened faces that
fill their photo, read as they are), ``card-faces+border`` (the same on a 160 px dark border) and ``cardcounter``
by subset (``webcam-table``, ``phone-novelty-deck``, ``phone-closeup``, ``webcam-held``). ``cardcounter`` is split
by photo (``tools/cardcounter_split.tsv``, made by :func:`split_part`): ``--part heldout`` (the default) measures only
the photos no training or tuning ever used; ``--part val`` the fifth of the train part the reader's acceptance is
chosen on (``tools/real_glyphs.in_slice``), ``--part fit`` the rest of it.

For each set: ``cards`` labelled, ``found`` (labelled cards that were named), ``misread`` (named cards that are not
in the photo's labels; "% of reported" is over all named cards), ``misread after a look`` (less the reads that
``tools/cardcounter_seen.tsv`` lists: a look at the photo showed that card there, the labels omit it or name another
card; only disagreements were looked at, so a card the labels wrongly list is still counted as not found),
``unknown`` (detections reported as "unknown").
Labels list cards whose index is visible; a card read that the labels omit counts as a misread (see the data
README: for table-overlap an "extra" is worth a look before calling it wrong).

``--lean L`` shows every photo as a camera leaning away from straight down would film it (its height squeezed to
``L``), read as it is or, with ``--top-down``, straightened first as the tracker straightens a calibrated mat
(:mod:`companion.vision.topdown`, with the squeeze as the calibration). ``--set`` changes the reader's settings as
``tools.eval_ab`` does, to compare them on the real photos.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from companion.vision.detection import BACK, UNKNOWN

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
SPLIT = Path(__file__).resolve().parent / "cardcounter_split.tsv"
#: Reads the labels call misread that a look at the photo shows are right (the card is there, the labels omit it or
#: name another): counted apart, never as found. Only reads that disagreed with the labels were looked at.
SEEN = Path(__file__).resolve().parent / "cardcounter_seen.tsv"
READERS = {"old": "tools.eval_real:old_reader", "new": "companion.vision.detector:recognize"}
RANKS, SUITS = "A23456789TJQK", "CDHS"
SUBSETS = ("webcam-table", "phone-novelty-deck", "phone-closeup", "webcam-held")


def load_reader(name: str):
    """The reader function ``name`` names: "old", "new", or "module:function" (a module alone: its ``recognize``).
    Raises ValueError, naming the reader, where it cannot be loaded."""
    mod, _, fn = READERS.get(name, name).partition(":")
    try:
        return getattr(importlib.import_module(mod), fn or "recognize")
    except (ImportError, AttributeError) as e:
        raise ValueError(f"cannot load reader {name!r}: {e}") from None


def old_reader(frame):
    """The reader without the learned corner finder (as before issue 14)."""
    from companion.vision.reader import recognize

    return recognize(frame, detector=False)


def split_part(name: str) -> str:
    """The cardcounter photo's part, fixed by its file name alone: a third (sha1 of the name = 0 mod 3) is
    "heldout" (measured on, never trained or tuned on), the rest "train"."""
    return "heldout" if int(hashlib.sha1(name.encode()).hexdigest(), 16) % 3 == 0 else "train"


def load_split() -> dict[str, str]:
    """``tools/cardcounter_split.tsv`` (image -> part); the rule of :func:`split_part` where the file is absent."""
    if not SPLIT.exists():
        return {}
    rows = (line.split("\t") for line in SPLIT.read_text().splitlines() if line and not line.startswith("#"))
    return {r[0]: r[1] for r in rows}


def load_seen(path: Path | None = None) -> set[tuple[str, str]]:
    """(image file name, card code) pairs in :data:`SEEN`: cards a look showed in the photo."""
    path = path or SEEN
    if not path.exists():
        return set()
    rows = (line.split("\t") for line in path.read_text().splitlines() if line and not line.startswith("#"))
    return {(Path(r[0]).name, r[1]) for r in rows if len(r) >= 2}


def is_code(c: str) -> bool:
    return len(c) == 2 and c[0] in RANKS and c[1] in SUITS


def labels(folder: Path) -> list[tuple[str, set[str]]]:
    rows = []
    for line in (folder / "LABELS.tsv").read_text().splitlines():
        if "\t" in line and not line.startswith("#"):
            name, codes = line.split("\t", 1)
            rows.append((name, {c for c in codes.strip().split(",") if is_code(c)}))
    return rows


def sets(photos: Path, part: str) -> dict[str, list[tuple[Path, set[str], int]]]:
    """Set name -> [(image, labelled codes, border px)]."""
    out: dict[str, list] = {}
    for name in ("webcam-single", "table-overlap", "card-faces"):
        if (photos / name / "LABELS.tsv").exists():
            out[name] = [(photos / name / f, codes, 0) for f, codes in labels(photos / name)]
    if "card-faces" in out:
        out["card-faces+border"] = [(p, c, 160) for p, c, _ in out["card-faces"]]
    cc = photos / "cardcounter"
    if (cc / "LABELS.tsv").exists():
        kinds = dict(line.split("\t") for line in (cc / "SUBSETS.tsv").read_text().splitlines() if "\t" in line)
        fixed = load_split()
        for f, codes in labels(cc):
            p = fixed.get(f, split_part(f))
            if p == "train" and part in ("val", "fit"):
                from tools.real_glyphs import in_slice

                p = part if in_slice(f, part == "val") else ""
            if part == "all" or p == part:
                out.setdefault(f"cardcounter/{kinds.get(f, '?')}", []).append((cc / f, codes, 0))
    return out


def leaning(read, lean: float, top_down: bool = False):
    """``read`` given each photo as a camera leaning away from straight down films it: the photo's height squeezed
    to ``lean`` of itself; with ``top_down``, straightened first through that squeeze as the tracker straightens a
    leaning camera's frame through its calibration (the photo's own pixels standing for the mat's millimetres)."""
    from companion.vision.topdown import TopDown

    def read_leaning(img):
        h, w = img.shape[:2]
        seen = cv2.resize(img, (w, max(1, round(h * lean))), interpolation=cv2.INTER_AREA)
        view = None
        if top_down:
            squeeze = np.diag([1.0, seen.shape[0] / h, 1.0])
            view = TopDown.for_view(squeeze, (w, seen.shape[0]), (0, 0, w, h))
        return view.read(read, seen) if view is not None else read(seen)

    return read_leaning


def evaluate(read, rows, verbose: bool = False, dump=None, name: str = "") -> dict:
    cards = found = misread = reported = unknown = seen = 0
    looked = load_seen()
    t0 = time.perf_counter()
    for path, codes, border in rows:
        img = cv2.imread(str(path))
        if border:
            img = cv2.copyMakeBorder(img, border, border, border, border, cv2.BORDER_CONSTANT, value=(60, 70, 80))
        dets = read(img)
        named = {d.card for d in dets if d.card not in (BACK, UNKNOWN)}
        cards += len(codes)
        found += len(named & codes)
        misread += len(named - codes)
        seen += sum((path.name, c) in looked for c in named - codes)
        reported += len(named)
        unknown += sum(d.card == UNKNOWN for d in dets)
        if dump is not None:
            for d in dets:
                if d.card not in (BACK, UNKNOWN):
                    how = d.extra.get("found_by", "whole card" if d.whole_card else "corner")
                    dump.write(f"{name}\t{path.name}\t{d.card}\t{d.confidence:.4f}\t{how}\t{int(d.card in codes)}\n")
        if verbose and (named != codes):
            print(f"  {path.name}: labelled {sorted(codes)} read {sorted(named)}"
                  f" wrong {sorted(named - codes)}", file=sys.stderr)
    return {"photos": len(rows), "cards": cards, "found": found, "misread": misread, "reported": reported,
            "seen": seen, "unknown": unknown, "s_per_photo": (time.perf_counter() - t0) / max(len(rows), 1)}


def row(name: str, r: dict) -> str:
    pct = lambda a, b: f"{100 * a / b:.1f}%" if b else "-"  # noqa: E731
    wrong = r["misread"] - r["seen"]
    return (f"| {name} | {r['photos']} | {r['cards']} | {r['found']} ({pct(r['found'], r['cards'])}) |"
            f" {r['misread']} ({pct(r['misread'], r['reported'])}) | {wrong} ({pct(wrong, r['reported'])}) |"
            f" {r['unknown']} | {r['s_per_photo']:.2f} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reader", default="old", help="old, new, or module:function")
    ap.add_argument("--sets", default="", help="comma-separated set names or prefixes (default: all)")
    ap.add_argument("--part", default="heldout", choices=("heldout", "train", "val", "fit", "all"),
                    help="cardcounter's part: heldout, train (= val + fit: the glyph classifiers learn from fit; "
                         "the acceptance is chosen on val), or all")
    ap.add_argument("--sample", type=int, default=0, help="read only about N photos of each set (evenly spread)")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--model", type=Path, help="the detector's ONNX file (default: the committed one)")
    ap.add_argument("--glyphs", type=Path, help="the glyph classifiers' .npz (default: the committed one)")
    ap.add_argument("--dump", type=Path, help="write every named card (set, photo, card, confidence, how, right) here"
                                             " to draw the found/misread trade-off (tools/tradeoff.py)")
    ap.add_argument("--lean", type=float, default=1.0,
                    help="show each photo as a camera leaning to this would (its height squeezed; 1: as it is)")
    ap.add_argument("--top-down", action="store_true", help="with --lean: straighten each photo before reading it")
    ap.add_argument("--set", default="", help="reader settings, as tools.eval_ab takes them: \"detector.NAMER=True\"")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    from tools.eval_ab import applied, parse_setting

    try:
        setting = parse_setting(a.set)
    except ValueError as e:
        print(f"eval_real: --set: {e}", file=sys.stderr)
        return 2
    with applied(setting):
        return _measure(a)


def _measure(a) -> int:
    if not 0.1 <= a.lean <= 1:
        print(f"eval_real: --lean must be between 0.1 and 1, not {a.lean:g}", file=sys.stderr)
        return 2
    if a.model:
        from companion.vision import detector

        detector.MODEL = a.model
    if a.glyphs:
        from companion.vision import classifier

        classifier.MODEL_PATH = a.glyphs
        classifier.default_model.cache_clear()
    try:
        read = load_reader(a.reader)
    except ValueError as e:
        print(f"eval_real: {e}", file=sys.stderr)
        return 2
    if a.lean < 1 or a.top_down:
        read = leaning(read, a.lean, a.top_down)
    photos = a.data / "real-photos"
    if not photos.is_dir():
        print(f"eval_real: no real photos at {photos}", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    want = [s for s in a.sets.split(",") if s]
    dump = a.dump.open("w") if a.dump else None
    print(f"reader {a.reader}, cardcounter part {a.part}" + (f", set {a.set}" if a.set else "")
          + (f", about {a.sample} photos a set" if a.sample else "")
          + (f", camera leaning to {a.lean:g}{', read top-down' if a.top_down else ''}"
             if a.lean < 1 or a.top_down else ""))
    print("| set | photos | cards | found | misread (of reported) | misread after a look (see SEEN) | unknown |"
          " s/photo |")
    print("|---|---|---|---|---|---|---|---|")
    for name, rows in sets(photos, a.part).items():
        if want and not any(name == w or name.startswith(w) for w in want):
            continue
        if a.sample and a.sample < len(rows):
            rows = rows[:: max(1, len(rows) // a.sample)][:a.sample]
        print(row(name, evaluate(read, rows, a.verbose, dump, name)), flush=True)
    if dump is not None:
        dump.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
