"""Watch the table live: the camera's picture in a pygame window with the zones, each card read and the tracker's
stable state drawn over it — the tool a player aims their camera with.

>>> import numpy as np
>>> from companion.vision.tracker import Tracker
>>> overlay(np.zeros((360, 640, 3), np.uint8), Tracker(None), status="camera lost — retrying").shape
(360, 640, 3)
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from collections.abc import Callable

import cv2
import numpy as np

from .calibration import AutoCalibrator, Calibration, default_calibration_path
from .detection import BACK, UNKNOWN
from .sources import FrameSource, open_source
from .topdown import OBLIQUE, obliqueness
from .tracker import Tracker

__all__ = ["calibration_line", "overlay", "watch"]

GREEN, ORANGE, RED, WHITE, YELLOW, CYAN = (60, 200, 60), (0, 150, 255), (40, 40, 230), (255, 255, 255), \
    (0, 230, 255), (255, 220, 0)


def _text(img, text, org, scale=0.5, color=WHITE, thick=1) -> None:
    """Text on a dark box, readable over any table."""
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    x, y = org
    x0, y0, x1, y1 = max(x - 3, 0), max(y - th - 4, 0), min(x + tw + 3, img.shape[1]), min(y + base + 2, img.shape[0])
    if x1 > x0 and y1 > y0:
        img[y0:y1, x0:x1] = (img[y0:y1, x0:x1] * 0.35).astype(np.uint8)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, color, thick, cv2.LINE_AA)


def overlay(frame: np.ndarray, tracker: Tracker, *, status: str = "", fps: float | None = None) -> np.ndarray:
    """A copy of ``frame`` with the zones (and what lies in each), every card read in the last reading, the open
    conflicts and a status line."""
    out = frame.copy()
    h, w = out.shape[:2]
    scale = max(0.4, w / 1600)
    cal = tracker.calibration
    if cal is not None:
        for zone in cal.zones.zones:
            pts = np.round(cal.to_image(zone.polygon) * 4).astype(np.int32)
            cv2.polylines(out, [pts], True, CYAN, 2, cv2.LINE_AA, 2)
            x, y = (pts.min(0) // 4).tolist()
            cards = tracker.state.get(zone.name, ())
            down = tracker.face_down.get(zone.name, ())
            label = zone.name + (": " + " ".join(cards) if cards else "") + (f" +{len(down)} down" if down else "")
            _text(out, label, (x + 4, max(y - 6, 12)), scale, CYAN if not cards else YELLOW, 1)
    for d in tracker.last_detections:
        color = GREEN if d.card not in (BACK, UNKNOWN) else ORANGE if d.card == BACK else RED
        pts = np.round(np.array(d.corners)).astype(np.int32)
        cv2.polylines(out, [pts], True, color, 2, cv2.LINE_AA)
        x, y = (int(v) for v in d.center)
        _text(out, f"{d.card} {d.confidence:.2f}", (x - 30, y), scale * 1.1, color, 2)
    lines = [status or "", calibration_line(tracker)]
    lines += [str(c).strip() for c in tracker.unsure[-3:]]
    lines += [str(c).strip() for c in tracker.changes[-3:]]
    if fps is not None:
        lines[0] += f"   {fps:.1f} fps, {tracker.recognised}/{tracker.frames} frames read"
    for i, line in enumerate(lines):
        _text(out, line, (10, int(22 * scale / 0.5) * (i + 1)), scale, RED if "lost" in line or "unsure" in line
              else WHITE, 1)
    return out


def calibration_line(tracker: Tracker) -> str:
    """The status line about the calibration: how it was found and, for a camera leaning away from straight down,
    about how far and whether its picture is read straightened (what a player aiming the camera wants to know).

    >>> calibration_line(Tracker(None))
    'calibration: none (print the mat, or run companion calibrate)'
    """
    cal = tracker.calibration
    if cal is None:
        return "calibration: none (print the mat, or run companion calibrate)"
    line = f"calibration: {cal.method} ({cal.markers} markers)"
    lean = obliqueness(cal.homography, (0.0, 0.0, *cal.zones.size_mm))
    if lean < OBLIQUE:
        line += f", camera about {math.degrees(math.acos(min(1.0, lean))):.0f} degrees from straight down"
        line += ": read straightened" if tracker.reader.schedule.top_down else ""
    return line


def _load_calibration(path: str | Path | None) -> Calibration | None:
    path = Path(path) if path else default_calibration_path()
    try:
        return Calibration.load(path) if path.is_file() else None
    except Exception:
        return None


def watch(source: str | FrameSource, *, recognize: Callable | None = None, calibration: str | Path | None = None,
          window: tuple[int, int] = (1280, 720), seconds: float | None = None, max_frames: int | None = None,
          fullscreen: bool = False, tracker_options: dict | None = None, source_options: dict | None = None) -> int:
    """Show ``source`` (a configuration string such as ``"webcam:0"``, or an open source) with the tracker's view
    drawn over it until the window is closed, Escape or Q is pressed, or ``seconds`` / ``max_frames`` run out.

    ``recognize`` defaults to the card reader (``companion.vision.reader.recognize``); ``calibration`` is the
    manual calibration file used until the mat's markers are seen. Returns 0.
    """
    import pygame

    options = dict(tracker_options or {})
    if recognize is None:
        from .reader import recognize
        options.setdefault("partial_reads", True)  # the card reader reads crops: read only what changed
        options.setdefault("top_down", True)  # and any picture: a leaning camera's frame is read straightened
    src = open_source(source, threaded=True, **(source_options or {})) if isinstance(source, str) else source
    tracker = Tracker(recognize, AutoCalibrator(fallback=_load_calibration(calibration)), **options)
    pygame.display.init()
    try:
        flags = pygame.FULLSCREEN if fullscreen else pygame.RESIZABLE
        screen = pygame.display.set_mode(window, flags)
        pygame.display.set_caption("companion watch")
        start, frames, last, shown = time.monotonic(), 0, None, None
        fps = 0.0
        while True:
            if any(e.type == pygame.QUIT or (e.type == pygame.KEYDOWN and e.key in (pygame.K_ESCAPE, pygame.K_q))
                   for e in pygame.event.get()):
                break
            frame = src.read()
            if frame is not None:
                t = src.time if src.time is not None else time.monotonic()
                tracker.process(frame, t)
                frames += 1
                now = time.monotonic()
                if last is not None:
                    fps = 0.9 * fps + 0.1 / max(now - last, 1e-6)
                last = now
                shown = frame
            elif getattr(src, "finished", False) or getattr(getattr(src, "source", None), "finished", False):
                break
            picture = overlay(shown if shown is not None else np.zeros((window[1], window[0], 3), np.uint8),
                              tracker, status=src.status, fps=fps)
            _blit(screen, picture)
            pygame.display.flip()
            if (seconds is not None and time.monotonic() - start >= seconds) or \
                    (max_frames is not None and frames >= max_frames):
                break
            if frame is None:
                time.sleep(0.02)
    finally:
        src.close()
        pygame.quit()
    return 0


def _blit(screen, bgr: np.ndarray) -> None:
    import pygame

    sw, sh = screen.get_size()
    h, w = bgr.shape[:2]
    k = min(sw / w, sh / h)
    size = (max(1, int(w * k)), max(1, int(h * k)))
    rgb = cv2.cvtColor(cv2.resize(bgr, size, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2RGB)
    surface = pygame.image.frombuffer(rgb.tobytes(), size, "RGB")
    screen.fill((0, 0, 0))
    screen.blit(surface, ((sw - size[0]) // 2, (sh - size[1]) // 2))


if __name__ == "__main__":  # pragma: no cover
    import sys

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    sys.exit(watch(sys.argv[1] if len(sys.argv) > 1 else "webcam:0"))
