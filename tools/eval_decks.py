"""How well the card reader reads decks it was never trained on: synthetic scenes of chosen SVG decks.

    python -m tools.train_vision --exclude kde-standard,ar-tango --out build/glyphs-heldout.npz \\
        --cache build/samples-heldout.npz
    python -m tools.eval_decks --model build/glyphs-heldout.npz --decks kde-standard,ar-tango

Needs the decks that ``make model`` renders into ``build/decks``. For each deck it lays 4 of its faces in each of
13 scenes apart, 13 rows and 13 fans (cards 200-300 px tall, random tables and light), and prints how many
cards were read and how many misread.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from companion.vision import recognize, synth
from companion.vision.classifier import GlyphModel
from companion.vision.detection import BACK, UNKNOWN


def deck_scenes(deck: Path, layouts: tuple[str, ...], scenes: int = 13, seed: int = 0):
    """(cards laid, frame) for ``scenes`` scenes of each layout, 4 faces of ``deck`` in each."""
    for li, layout in enumerate(layouts):
        for k in range(scenes):
            rng = np.random.default_rng([seed, li, k])
            cards = list(rng.choice(synth.ALL_CARDS, 4, replace=False))
            faces = {c: cv2.imread(str(deck / f"{c}.png"), cv2.IMREAD_UNCHANGED) for c in cards}
            if any(f is None for f in faces.values()):
                continue
            frame, _ = synth.render_scene(cards, rng=rng, layout=layout, faces=faces,
                                          card_height=float(rng.uniform(200, 300)))
            yield cards, frame


def evaluate(deck: Path, model: GlyphModel, layouts: tuple[str, ...]) -> tuple[int, int, int]:
    """(cards laid, read right, misread) for one deck."""
    laid = right = wrong = 0
    for cards, frame in deck_scenes(deck, layouts):
        got = {d.card for d in recognize(frame, model=model) if d.card not in (BACK, UNKNOWN)}
        laid += len(cards)
        right += len(got & set(cards))
        wrong += len(got - set(cards))
    return laid, right, wrong


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--decks", required=True, help="comma-separated deck names under --deck-dir")
    ap.add_argument("--deck-dir", type=Path, default=Path("build/decks"))
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    model = GlyphModel.load(a.model)
    print("| deck | apart: read / laid | misread | overlapping: read / laid | misread |")
    print("|---|---|---|---|---|")
    for name in (d for d in a.decks.split(",") if d):
        deck = a.deck_dir / name
        if not deck.is_dir():
            print(f"{deck}: no such deck (make model renders them)", file=sys.stderr)
            return 2
        apart = evaluate(deck, model, ("spread",))
        overlapping = evaluate(deck, model, ("row", "fan"))
        print(f"| {name} | {apart[1]}/{apart[0]} | {apart[2]} | {overlapping[1]}/{overlapping[0]} |"
              f" {overlapping[2]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
