"""``companion watch [--source picamera|webcam:0|replay:PATH]``: the live picture with the zones, each card read and
the table's stable state drawn over it, to aim the camera and check the reading.

Frame sources: ``picamera[@WxH]``, ``webcam[:INDEX|PATH][@WxH]``, ``replay:PATH[@FPS][:loop]`` (a folder of images or a
video file). The lead's ``companion/cli.py`` wires it in with ``add_parser(subparsers)`` and calls ``run(args)``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from .sources import parse_source


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser("watch", help="Show what the camera sees and reads, live, in a window.",
                              description=__doc__.splitlines()[0])
    p.add_argument("--source",
                   help="The frame source: webcam:N, picamera, replay:PATH or demo (default: camera.source in "
                        "companion.toml, else webcam:0).")
    p.add_argument("--config",
                   help="The companion.toml to use (default: ./companion.toml, then the user's, then "
                        "/etc/companion's).")
    p.add_argument("--calibration", type=Path, help="A calibration file, used until the mat's markers are seen "
                                                    "(default: the one companion calibrate saved).")
    p.add_argument("--seconds", type=float, help="Stop after this many seconds (default: when the window is closed).")
    p.add_argument("--fullscreen", action="store_true", help="Fill the screen instead of opening a window.")
    p.add_argument("--scripted", action="store_true", help=argparse.SUPPRESS)  # tests: replay:sim without a reader
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from .calibrate_cmd import configured_source
    from .watch import watch

    source, options = configured_source(args)
    if source == "demo":  # the bundled demo game's simulated table, as a camera above it would see it
        from ..demo import DemoGame, demo_table
        source = demo_table(DemoGame.build()).source()
    else:
        parse_source(source)  # a bad string is refused before any window opens
    recognize: Callable[[Any], list[Any]] | None = (lambda frame: []) if args.scripted else None
    if args.seconds is not None and args.seconds <= 0:
        raise ConfigError(f"--seconds must be above 0, got {args.seconds!r}")
    return watch(source, source_options=options, recognize=recognize, calibration=args.calibration,
                 seconds=args.seconds, fullscreen=args.fullscreen)
