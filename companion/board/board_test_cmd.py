"""``companion board-test``: the check a builder runs after soldering.

It lights each hole in order, alone, in its side's colour (white for the shared game hole) with the hole's name and
LED number on the screen and on stdout, then each side's whole track in its colour. A hole that stays dark, lights
in the wrong place or in the wrong colour shows the fault: a bad joint, a wrong LED index in the layout, or the
colour order (``board.order``).

It drives the board as ``companion run`` would: the ``[board]`` section of ``companion.toml`` (found as ``run``
finds it, or ``--config``) gives the layout, driver, colour order, SPI rate, brightness, device and chips; the
options override it. Without a configuration file the driver is ``apa102`` (the board is being tested, not drawn).

    companion board-test --layout two-player-61
    companion board-test --config /etc/companion/companion.toml
    companion board-test --driver virtual --headless --frames 40 --screenshot board.png
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass

from .layout import Layout, load_layout
from .pegboard import DRIVERS, BoardConfig, open_board
from .pegs import Frame
from .virtual import draw_board

BACKGROUND = (22, 22, 26)
TEXT = (235, 235, 235)
DIM_TEXT = (150, 150, 160)


@dataclass(frozen=True)
class Step:
    """One picture of the test: the frame, what it shows, and the LED to ring on screen (None for a track)."""

    frame: Frame
    caption: str
    detail: str
    led: int | None


def steps(layout: Layout) -> Iterator[Step]:
    """Every hole alone, in order, then each side's track (with its start and lap holes) in its colour."""
    holes = list(layout.holes())
    for k, (hole, led) in enumerate(holes, 1):
        frame: Frame = [(0, 0, 0)] * layout.leds
        frame[led] = (255, 255, 255) if hole.side is None else layout.sides[hole.side].colour
        yield Step(frame, layout.hole_name(hole), f"LED {led}  ·  hole {k} of {len(holes)}", led)
    for side in layout.sides:
        frame = [(0, 0, 0)] * layout.leds
        for led in (*side.start, *side.track, *side.laps):
            frame[led] = side.colour
        yield Step(frame, f"{side.name}'s track", f"{len(side.track)} holes, {len(side.start)} start, "
                   f"{len(side.laps)} lap", None)


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "board-test", help="Light each hole of the LED board in order, then each side's track.",
        description=__doc__.split("\n\n")[1] if __doc__ else None)
    p.add_argument("--config",
                   help="The companion.toml to use (default: ./companion.toml, then the user's, then "
                        "/etc/companion's).")
    p.add_argument("--layout", help="A preset layout's name or a layout .toml file (default: board.layout of the "
                                    "configuration).")
    p.add_argument("--driver", choices=DRIVERS,
                   help="The LED chain's driver; without SPI the virtual board stands in (default: board.driver of "
                        "the configuration, or apa102).")
    p.add_argument("--step", type=float, default=0.3, metavar="SECONDS",
                   help="How long each hole stays lit, in seconds (default: %(default)s).")
    p.add_argument("--supply", type=float, metavar="AMPS",
                   help="The power supply's limit in amps, which caps the brightness (default: board.supply_a of "
                        "the configuration).")
    p.add_argument("--headless", action="store_true",
                   help="Open no window and do not wait between steps (for tests, CI or ssh).")
    p.add_argument("--frames", type=int, default=None, metavar="N",
                   help="Stop after this many steps (default: every hole and track).")
    p.add_argument("--screenshot", metavar="PATH", help="Save a PNG of the screen as it is at the last step shown.")
    p.add_argument("--size", default="1280x400", metavar="WxH",
                   help="The window's size in pixels (default: %(default)s).")
    p.add_argument("--quiet", action="store_true", help="Do not print a line for each step.")
    p.set_defaults(func=run)
    return p


def draw_step(surface: object, layout: Layout, step: Step, shown: Frame, title: str) -> None:
    """The board-test screen: title, the board showing ``shown``, the hole's name and LED in large type."""
    import pygame

    assert isinstance(surface, pygame.Surface)
    w, h = surface.get_size()
    surface.fill(BACKGROUND)
    if not pygame.font.get_init():
        pygame.font.init()
    small, big = pygame.font.Font(None, max(18, h // 16)), pygame.font.Font(None, max(28, h // 7))
    surface.blit(small.render(title, True, DIM_TEXT), (16, 12))
    board_rect = pygame.Rect(16, 16 + h // 14, w - 32, h - h // 14 - h // 5 - 40)
    where = draw_board(surface, board_rect, layout, shown, highlight=step.led)
    if step.led is not None and step.led in where:
        x, y = where[step.led]
        label = small.render(step.caption.split()[-1] if step.caption[-1].isdigit() else "", True, TEXT)
        surface.blit(label, label.get_rect(midbottom=(x, y - 8)))
    caption = big.render(step.caption, True, TEXT)
    surface.blit(caption, (16, h - caption.get_height() - 14))
    detail = small.render(step.detail, True, DIM_TEXT)
    surface.blit(detail, (32 + caption.get_width(), h - detail.get_height() - 18))


def board_config(args: argparse.Namespace) -> BoardConfig:
    """The ``[board]`` section of the configuration with the command line's overrides, checked as ``run`` checks
    it (a bad value is a :class:`~companion.errors.ConfigError` naming the key)."""
    from ..config import load_config

    config = load_config(getattr(args, "config", None))
    given = config.raw.get("board", {}) if isinstance(config.raw, dict) else {}
    settings = {**asdict(config.board), "animate": False}
    if "driver" not in given:
        settings["driver"] = "apa102"  # the app draws the board on screen by default; this tests the real one
    overrides = {"layout": args.layout, "driver": args.driver, "supply_a": args.supply}
    settings.update({key: value for key, value in overrides.items() if value is not None})
    return BoardConfig.from_mapping(settings)


def run(args: argparse.Namespace) -> int:
    config = board_config(args)
    layout = load_layout(config.layout)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        raise ValueError(f"--size must read WIDTHxHEIGHT like 1280x400, got {args.size!r}") from None
    if args.headless:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    board, message = open_board(config)
    if message:
        print(f"board-test: {message}", file=sys.stderr)
    pygame.display.init()
    pygame.font.init()
    try:
        if args.headless:
            surface = pygame.Surface((width, height))
        else:
            surface = pygame.display.set_mode((width, height))
            pygame.display.set_caption(f"Board test: {layout.name}")
        title = f"Board test · {layout.title} · {layout.leds} LEDs · " + (
            "virtual board" if board.virtual else f"{config.driver} chain")
        shown_steps = 0
        for step in steps(layout):
            if args.frames is not None and shown_steps >= args.frames:
                break
            sent = board.show(step.frame)
            shown_steps += 1
            if not args.quiet:
                print(f"{step.caption:<24} {step.detail}")
            draw_step(surface, layout, step, sent, title)
            if not args.headless:
                pygame.display.flip()
                if _wait(args.step):
                    break
        if args.screenshot:
            pygame.image.save(surface, args.screenshot)
            print(f"board-test: screenshot saved to {args.screenshot}")
    finally:
        board.close()
        pygame.display.quit()
    return 0


def _wait(seconds: float) -> bool:
    """Wait while handling window events; True if the user asked to stop (Esc, Q or closing the window)."""
    import pygame

    end = time.monotonic() + seconds
    while True:
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE,
                                                                                            pygame.K_q)):
                return True
        if time.monotonic() >= end:
            return False
        time.sleep(0.01)
