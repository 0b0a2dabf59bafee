"""``companion calibrate [--source SRC] [--seats N] [--corners X,Y X,Y X,Y X,Y] [-o FILE]``: tell the companion where
the play area is in the camera's picture, once.

With the printed mat in view this is automatic (its markers are found). Without one, click the four corners of the
play area in the window — top-left, top-right, bottom-right, bottom-left as seen from seat 1 — or give them with
``--corners``. The result is stored in the calibration file (by default in the user's config folder).
The lead's ``companion/cli.py`` wires it in with ``add_parser(subparsers)`` and calls ``run(args)``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from ..errors import ConfigError
from .calibration import calibrate_from_corners, calibrate_from_markers, default_calibration_path
from .sources import open_source
from .zones import ZoneMap


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser("calibrate",
                              help="Find the play area in the camera's picture, once for each camera position.",
                              description=__doc__.splitlines()[0])
    p.add_argument("--source",
                   help="The frame source: webcam:N, picamera or replay:PATH (default: camera.source in "
                        "companion.toml, else webcam:0).")
    p.add_argument("--config",
                   help="The companion.toml to use (default: ./companion.toml, then the user's, then "
                        "/etc/companion's).")
    p.add_argument("--seats", type=int, choices=(2, 3, 4), default=2,
                   help="The number of seats, which sets the layout of zones when no mat is seen (default 2).")
    p.add_argument("--corners", nargs=4, metavar="X,Y",
                   help="The play area's four corners in the picture, in pixels, e.g. 10,20 (skips the clicking).")
    p.add_argument("--manual", action="store_true",
                   help="Click the corners by hand even if the mat's markers are seen.")
    p.add_argument("-o", "--output", type=Path,
                   help=f"The calibration file to write (default {default_calibration_path()}).")
    p.add_argument("--timeout", type=float, default=10.0,
                   help="How many seconds to wait for a picture from the camera (default 10).")
    p.set_defaults(func=run)
    return p


def _corners(texts: list[str]) -> list[tuple[float, float]]:
    try:
        points = [tuple(float(v) for v in text.split(",")) for text in texts]
    except ValueError:
        points = []
    if len(points) != 4 or any(len(p) != 2 for p in points):
        raise ConfigError(f"bad corners {' '.join(texts)!r}: expected four X,Y pairs in pixels")
    return points  # type: ignore[return-value]


def configured_source(args) -> tuple[str, dict]:
    """``--source``, else the camera ``companion run`` uses (``camera.source``, its size and rate), else
    ``webcam:0``: on a Pi with a CSI camera ``/dev/video0`` is a raw sensor node, not a picture."""
    from ..config import load_config

    config = load_config(getattr(args, "config", None))
    cam = config.camera
    options = {"camera_size": (cam.width, cam.height), "camera_fps": cam.fps}
    if args.source:
        return args.source, options
    return (cam.source if cam.source not in ("demo", "none") else "webcam:0"), options


def first_frame(source: str, timeout: float, **options) -> np.ndarray:
    """A frame from ``source``, waiting up to ``timeout`` seconds; :class:`ConfigError` with the status if none."""
    with open_source(source, **options) as src:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            frame = src.read()
            if frame is not None:
                return frame
            time.sleep(0.05)
        raise ConfigError(f"no picture from {source!r} in {timeout:g} s: {src.status}")


def click_corners(frame: np.ndarray, *, clicks: list | None = None) -> list[tuple[float, float]] | None:
    """Show ``frame`` in a pygame window and collect four clicks (``clicks`` feeds them in tests). ``None`` if the
    window is closed first. Right click or Backspace takes the last click back."""
    import cv2
    import pygame

    pygame.display.init()
    try:
        h, w = frame.shape[:2]
        k = min(1.0, 1280 / w, 720 / h)
        size = (int(w * k), int(h * k))
        screen = pygame.display.set_mode(size)
        pygame.display.set_caption("companion calibrate: click the play area's corners")
        points: list[tuple[float, float]] = []
        names = ("top-left", "top-right", "bottom-right", "bottom-left")
        feed = list(clicks or [])
        while len(points) < 4:
            events = pygame.event.get()
            if feed:
                points.append(feed.pop(0))
            for e in events:
                if e.type == pygame.QUIT or (e.type == pygame.KEYDOWN and e.key == pygame.K_ESCAPE):
                    return None
                if e.type == pygame.MOUSEBUTTONDOWN and e.button == 1:
                    points.append((e.pos[0] / k, e.pos[1] / k))
                if (e.type == pygame.MOUSEBUTTONDOWN and e.button == 3) or \
                        (e.type == pygame.KEYDOWN and e.key == pygame.K_BACKSPACE):
                    points = points[:-1]
            shown = cv2.resize(frame, size).copy()
            for x, y in points:
                cv2.circle(shown, (int(x * k), int(y * k)), 6, (0, 220, 255), 2, cv2.LINE_AA)
            if len(points) > 1:
                cv2.polylines(shown, [np.int32([(x * k, y * k) for x, y in points])], False, (0, 220, 255), 2)
            if len(points) < 4:
                cv2.putText(shown, f"click the {names[len(points)]} corner (as seen from seat 1)", (12, 28),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 220, 255), 2, cv2.LINE_AA)
            rgb = cv2.cvtColor(shown, cv2.COLOR_BGR2RGB)
            screen.blit(pygame.image.frombuffer(rgb.tobytes(), size, "RGB"), (0, 0))
            pygame.display.flip()
            time.sleep(0.02)
        return points
    finally:
        pygame.quit()


def run(args, *, clicks: list | None = None) -> int:
    output = args.output or default_calibration_path()
    zones = ZoneMap.for_seats(args.seats)
    if args.corners:
        corners = _corners(args.corners)
        cal = calibrate_from_corners(corners, zones)
    else:
        source, options = configured_source(args)
        frame = first_frame(source, args.timeout, **options)
        cal = None if args.manual else calibrate_from_markers(frame)
        if cal is not None:
            print(f"found the {cal.mat[0]}-seat mat ({cal.markers} markers, {cal.error_px:.1f} px error): the "
                  "markers keep it calibrated; stored as the fallback")
        else:
            points = click_corners(frame, clicks=clicks)
            if points is None:
                print("companion calibrate: closed before four corners were clicked; nothing saved")
                return 1
            cal = calibrate_from_corners(points, zones, (frame.shape[1], frame.shape[0]))
    path = cal.save(output)
    print(f"calibration saved to {path}")
    return 0
