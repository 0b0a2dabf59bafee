"""Compare settings of the card reader on the very scenes ``tools.eval_synth`` draws, each scene read once per setting.

    python -m tools.eval_ab --seed 6464 --sizes 126,160 --deck bundled --deck build/unseen/ar-anglo ... \\
        --set "" --set "detection.SMALL_ACCEPT=0.93; detection.TINY_ACCEPT=0.93"

A setting is ``module.NAME=value`` pairs separated by ``;`` (a module of ``companion.vision``, a value as a Python
literal); ``--set ""`` is the reader as it is. The scenes are drawn in eval_synth's order for the same seed, sizes
and decks, so the reader as it is gets the figures ``eval_synth --reader new`` prints; ``--only`` reads just some
of them (``bundled@126``, ``ar-plastic@160``), still drawing the rest so that each scene stays the same. Another
glyph model is a setting too: ``--set "classifier.MODEL_PATH='build/glyphs.npz'"``. Prints,
per setting, the cards named right and wrong at each card height, then every misread (setting, table, deck, height,
the card named, its confidence and how, the cards laid). Why: a change to the reader is judged by what it changes
on the same scenes, and a figure quoted in a README must be reproducible from the repository.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import sys
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from companion.vision import classifier
from companion.vision.detection import BACK, UNKNOWN
from tools import detector_data as D
from tools.eval_real import load_reader
from tools.eval_synth import BUNDLED, deck_faces, scene


def parse_setting(text: str) -> dict[tuple[str, str], object]:
    """``"detection.SMALL_ACCEPT=0.93; detector.ENLARGE=0.0"`` as {(module, name): value}; raises ValueError naming
    the part that is not ``module.NAME=literal`` or names no setting of the reader.

    >>> parse_setting("detection.MIN_HEIGHT=115.0")
    {('detection', 'MIN_HEIGHT'): 115.0}
    >>> parse_setting("")
    {}
    """
    out: dict[tuple[str, str], object] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        key, eq, value = part.partition("=")
        mod, dot, name = key.strip().rpartition(".")
        if not eq or not dot:
            raise ValueError(f"{part!r} is not module.NAME=value")
        try:
            module = importlib.import_module(f"companion.vision.{mod}")
        except ImportError:
            raise ValueError(f"{part!r}: there is no module companion.vision.{mod}") from None
        if not hasattr(module, name):
            raise ValueError(f"{part!r}: companion.vision.{mod} has no {name}")
        try:
            out[(mod, name)] = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            raise ValueError(f"{part!r}: {value.strip()!r} is not a Python literal") from None
    return out


@contextmanager
def applied(setting: dict[tuple[str, str], object]):
    """The reader's module attributes set as ``setting`` says, then put back. The glyph classifiers are loaded
    again either side, so that a setting may name another model file (``classifier.MODEL_PATH='x.npz'``)."""
    saved = []
    try:
        for (mod, name), value in setting.items():
            module = importlib.import_module(f"companion.vision.{mod}")
            saved.append((module, name, getattr(module, name)))
            setattr(module, name, value)
        if saved:
            classifier.default_model.cache_clear()
        yield
    finally:
        for module, name, value in reversed(saved):
            setattr(module, name, value)
        if saved:
            classifier.default_model.cache_clear()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", action="append", dest="settings", default=[], help="a setting; repeat to compare")
    ap.add_argument("--reader", default="new")
    ap.add_argument("--scenes", type=int, default=3, help="scenes per table, size and deck")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--sizes", default="126,160,196", help="card heights, px, comma-separated")
    ap.add_argument("--deck", default=[], action="append", help="as eval_synth's --deck (bundled: the photo deck)")
    ap.add_argument("--only", default="", help="comma-separated deck@height to read (default: every scene)")
    a = ap.parse_args(argv)
    try:
        settings = [parse_setting(s) for s in a.settings or [""]]
        sizes = [int(x) for x in a.sizes.split(",") if x]
        read = load_reader(a.reader)
    except ValueError as e:
        print(f"eval_ab: {e}", file=sys.stderr)
        return 2
    decks = []
    for folder in a.deck or [BUNDLED]:
        faces = None if folder == BUNDLED else deck_faces(Path(folder))
        if faces is not None and len(faces) < 6:
            print(f"eval_ab: --deck {folder}: fewer than 6 card faces (7H.png, ...) in it", file=sys.stderr)
            return 2
        decks.append((Path(folder).name, faces))
    only = {w.strip() for w in a.only.split(",") if w.strip()}
    rng = np.random.default_rng(a.seed)
    tally = [{h: [0, 0, 0] for h in sizes} for _ in settings]  # laid, right, wrong
    misreads = []
    # eval_synth's order: table, height, scene, deck (the rng must draw every scene for the next to be the same)
    for kind in D.TABLES:
        for height in sizes:
            for _ in range(a.scenes):
                for name, faces in decks:
                    frame, cards = scene(rng, kind, height, faces=faces)
                    if only and f"{name}@{height}" not in only:
                        continue
                    for k, setting in enumerate(settings):
                        with applied(setting):
                            dets = read(frame)
                        named = {d.card for d in dets if d.card not in (BACK, UNKNOWN)}
                        t = tally[k][height]
                        t[0], t[1], t[2] = t[0] + len(cards), t[1] + len(named & cards), t[2] + len(named - cards)
                        misreads += [(k, kind, name, height, d.card, round(d.confidence, 3),
                                      "whole" if d.whole_card else d.extra.get("found_by", "index"), sorted(cards))
                                     for d in dets if d.card not in (BACK, UNKNOWN, *cards)]
    print(f"seed {a.seed}, {a.scenes} scenes a table, size and deck; decks: {', '.join(n for n, _ in decks)}")
    print("| setting | " + " | ".join(f"{h} px right / wrong / laid" for h in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for text, per in zip(a.settings or [""], tally):
        print(f"| {text or '(as it is)'} | " + " | ".join(f"{r} / {w} / {n}" for n, r, w in per.values()) + " |")
    for k, *rest in misreads:
        print(f"misread, setting {k + 1}:", *rest)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
