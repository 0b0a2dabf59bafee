"""A demo of the screens: ``python -m companion.display [--size 800x480]`` shows each sample view in turn.

Keys: Right/Left (or a touch on empty space) next/previous screen, Q or Esc to quit. With ``--frames N`` it stops by
itself after N screens (used with ``SDL_VIDEODRIVER=dummy`` to check it runs).
"""

from __future__ import annotations

import argparse
import time

from .input import Action
from .samples import sample_views
from .window import Display


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Show the companion's screens with sample games.")
    parser.add_argument("--size", default="800x480", help="WIDTHxHEIGHT (800x480, 1024x600, 1280x720, 480x320)")
    parser.add_argument("--fullscreen", action="store_true")
    parser.add_argument("--frames", type=int, default=0, help="stop after this many screens (0: run until Q)")
    args = parser.parse_args(argv)
    views = list(sample_views().items())
    shown = 0
    i = 0
    with Display(args.size, fullscreen=args.fullscreen or None, title="Cribbage companion: screens") as display:
        while True:
            name, view = views[i % len(views)]
            if display.render(view):
                shown += 1
                print(f"{name}")
            if args.frames and shown >= args.frames:
                return 0
            for command in display.commands():
                if command.action in (Action.QUIT, Action.MENU):
                    return 0
                if command.action in (Action.NEXT, Action.OK, Action.SELECT):
                    i += 1
                elif command.action is Action.PREV:
                    i -= 1
            if args.frames:
                i += 1
            time.sleep(0.03)


if __name__ == "__main__":
    raise SystemExit(main())
