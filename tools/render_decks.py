"""Render the freely licensed SVG card decks that Debian ships into PNG faces for training the card reader.

Needs ``rsvg-convert`` (Debian: librsvg2-bin) and the deck packages ``kdegames-card-data-kf5`` and
``gnome-cards-data``; ``make model`` installs them. Only used at training time: nothing here is needed to run.

    python -m tools.render_decks build/decks
    python -m tools.render_decks --unseen build/unseen    # decks never trained on, for tools.eval_synth --deck

``--unseen`` renders :data:`UNSEEN` instead: Anglo-American decks that training never uses, to measure the reader on
decks it has not seen. Some of their faces render as the wrong element (the SVG names them otherwise);
``tools.eval_synth`` leaves out any face that is not card-shaped.
"""

from __future__ import annotations

import gzip
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

#: Decks with Anglo-American indices (A K Q J 10..2, four standard suit shapes in red and black) that render
#: cleanly element by element (aisleriot's neoclassical does not: its elements come out as fragments).
#: Path relative to /usr/share.
DECKS = {
    "kde-standard": "carddecks/svg-standard/standard.svgz",
    "kde-nicu-white": "carddecks/svg-nicu-white/white.svgz",
    "kde-tigullio": "carddecks/svg-tigullio-international/tigullio-international.svgz",
    "ar-anglo-poker": "aisleriot/cards/anglo_poker.svgz",
    "ar-berlin": "aisleriot/cards/berlin.svgz",
    "ar-guyenne": "aisleriot/cards/guyenne-classic.svgz",
    "ar-lattmann": "aisleriot/cards/lattmann.svgz",
    "ar-orell": "aisleriot/cards/orell.svgz",
    "ar-ornamental": "aisleriot/cards/ornamental.svgz",
    "ar-rheinland": "aisleriot/cards/rheinland.svgz",
    "ar-simplistic": "aisleriot/cards/simplistic.svgz",
    "ar-swiss-xvii": "aisleriot/cards/swiss-xvii.svgz",
    "ar-tango": "aisleriot/cards/tango.svgz",
    "ar-tango-nuevo": "aisleriot/cards/tango_nuevo.svgz",
    "ar-tigullio": "aisleriot/cards/tigullio.svgz",
}
#: Decks never trained on (not in :data:`DECKS`), whose faces render card-shaped for 36-40 of the 52 cards here.
#: anglo and plastic were chosen on at stop 26, bellot and paris measured once (companion/vision/README.md); the
#: last four measured first at stop 35 (nicu-ornamental 52 faces, gnomangelo 36, ancient-egyptians 40, atlasnye 40).
UNSEEN = {
    "ar-anglo": "aisleriot/cards/anglo.svgz",
    "ar-plastic": "aisleriot/cards/plastic.svgz",
    "ar-bellot": "aisleriot/cards/bellot.svgz",
    "ar-paris": "aisleriot/cards/paris.svgz",
    # first rendered at stop 35 (2026-12-03); ancient-egyptians prints its lower indices upright (reader.TURNED)
    "kde-nicu-ornamental": "carddecks/svg-nicu-ornamental/ornamental.svgz",
    "ar-gnomangelo": "aisleriot/cards/gnomangelo.svgz",
    "kde-ancient-egyptians": "carddecks/svg-ancient-egyptians/Ancient_Egyptians.svgz",
    "ar-atlasnye": "aisleriot/cards/atlasnye.svgz",
}
RANK_NAMES = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
SUIT_NAMES = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
HEIGHT = 352


def element_id(svg_text: str, rank: str, suit: str) -> str:
    r = RANK_NAMES.get(rank, rank)
    s = SUIT_NAMES[suit]
    return f"{r}_{s}" if f'id="{r}_{s}"' in svg_text else f"{s}_{r}"


def render_deck(name: str, svgz: Path, out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    text = gzip.decompress(svgz.read_bytes()).decode("utf-8", "replace")
    with tempfile.NamedTemporaryFile("w", suffix=".svg", delete=False) as tmp:
        tmp.write(text)
    jobs = []
    for suit in SUIT_NAMES:
        for rank in "A23456789TJQK":
            jobs.append((element_id(text, rank, suit), out / f"{rank}{suit}.png"))
    for back in ("back", "card_back"):
        if f'id="{back}"' in text:
            jobs.append((back, out / "back.png"))
            break
    done = 0
    for ident, path in jobs:
        if path.exists():
            done += 1
            continue
        r = subprocess.run(["rsvg-convert", "-i", ident, "-h", str(HEIGHT), tmp.name, "-o", str(path)],
                           capture_output=True)
        done += r.returncode == 0
    Path(tmp.name).unlink()
    return done


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    decks = DECKS
    if argv and argv[0] == "--unseen":
        decks, argv = UNSEEN, argv[1:]
    out = Path(argv[0] if argv else "build/unseen" if decks is UNSEEN else "build/decks")
    root = Path("/usr/share")
    todo = [(n, root / p) for n, p in decks.items() if (root / p).exists()]
    if not todo:
        print("no SVG decks found: apt-get install kdegames-card-data-kf5 gnome-cards-data librsvg2-bin",
              file=sys.stderr)
        return 1
    with ThreadPoolExecutor(2) as pool:
        counts = list(pool.map(lambda t: render_deck(t[0], t[1], out / t[0]), todo))
    for (n, _), c in zip(todo, counts):
        print(f"{n:20s} {c} images")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
