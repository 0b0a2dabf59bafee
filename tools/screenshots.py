"""Write PNGs of the main screens to docs/screenshots/ for the README, and the desktop window at 1280x800.

Run with ``make screenshots`` (or ``SDL_VIDEODRIVER=dummy python -m tools.screenshots [--size 800x480] [--all]``).
``--all`` writes every sample view at every supported size into a sub-folder per size. ``desktop.png`` is the
window ``make run`` opens on a PC: the bundled demo game watched (with the simulator's scripted reader, for speed)
up to the play of its second hand, then the camera view, the virtual LED board and the status screen drawn together.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

MAIN = ("scoreboard", "play-run", "play-go", "show-29", "show-muggins", "history", "history-open",
        "game-over-skunk", "messages", "correction-choose", "new-game", "abandon", "camera")
DESKTOP = "desktop.png"


def desktop_screenshot(path: Path, size: tuple[int, int] = (1280, 800)) -> None:
    """The desktop window over the demo game in its second hand's play, saved to ``path``."""
    from companion.app import Companion
    from companion.config import load_config
    from companion.demo import DemoGame
    from companion.display.desktop import DesktopDisplay, app_feed

    config = load_config(text='[board]\ndriver = "virtual"\nanimate = false\n')
    app = Companion.create(config, headless=True, demo=DemoGame.build(), db_path=":memory:", new_game=True,
                           recognize="scripted")
    try:
        while (frame := app.source.read()) is not None:
            app.process_frame(frame, app.source.time)
            state = app.game.state
            if state.phase == "play" and len(state.series) >= 3 and state.hand >= 2:
                break
        with DesktopDisplay(size, feed=lambda: app_feed(app)) as window:
            window.render(app.view())
            window.screenshot(path)
    finally:
        app.close()


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from companion.display.layout import SIZES
    from companion.display.samples import sample_views
    from companion.display.screens import draw_screen

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/screenshots", help="The folder for the PNGs.")
    parser.add_argument("--size", default="800x480", help="The status screen's size, WIDTHxHEIGHT.")
    parser.add_argument("--all", action="store_true", help="Write every sample at every size.")
    parser.add_argument("--no-desktop", action="store_true", help="Leave out the desktop window (it plays the demo "
                                                                  "for a few seconds first).")
    args = parser.parse_args(argv)
    pygame.font.init()
    views = sample_views()
    sizes = SIZES if args.all else (tuple(int(v) for v in args.size.split("x")),)
    written = 0
    for size in sizes:
        out = Path(args.out) / (f"{size[0]}x{size[1]}" if args.all else "")
        out.mkdir(parents=True, exist_ok=True)
        surface = pygame.Surface(size)
        for name in (views if args.all else MAIN):
            draw_screen(surface, views[name])
            pygame.image.save(surface, str(out / f"{name}.png"))
            written += 1
    if not args.no_desktop:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        desktop_screenshot(Path(args.out) / DESKTOP)
        written += 1
    print(f"wrote {written} screenshots to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
