"""Write PNGs of the main screens to docs/screenshots/ for the README.

Run with ``make screenshots`` (or ``SDL_VIDEODRIVER=dummy python -m tools.screenshots [--size 800x480] [--all]``).
``--all`` writes every sample view at every supported size into a sub-folder per size.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

MAIN = ("scoreboard", "play-run", "show-29", "show-muggins", "history", "game-over-skunk", "messages",
        "correction-choose", "menu-new-game", "camera")


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from companion.display.layout import SIZES
    from companion.display.samples import sample_views
    from companion.display.screens import draw_screen

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/screenshots", help="folder for the PNGs")
    parser.add_argument("--size", default="800x480", help="WIDTHxHEIGHT")
    parser.add_argument("--all", action="store_true", help="every sample at every size")
    args = parser.parse_args(argv)
    pygame.font.init()
    views = sample_views()
    sizes = SIZES if args.all else (tuple(int(v) for v in args.size.split("x")),)
    for size in sizes:
        out = Path(args.out) / (f"{size[0]}x{size[1]}" if args.all else "")
        out.mkdir(parents=True, exist_ok=True)
        surface = pygame.Surface(size)
        for name in (views if args.all else MAIN):
            draw_screen(surface, views[name])
            pygame.image.save(surface, str(out / f"{name}.png"))
    print(f"wrote {len(sizes) * (len(views) if args.all else len(MAIN))} screenshots to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
