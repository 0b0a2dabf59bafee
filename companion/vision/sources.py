"""Frame sources: where the table's pictures come from, all behind one small interface.

Every source hands out BGR ``uint8`` images (ready for OpenCV) from :meth:`FrameSource.read`, ``None`` when it has no
new frame, and says what it is doing in :attr:`FrameSource.status`. A camera that is missing, unplugged mid-game or
returns garbage never raises: the status becomes ``"camera lost — retrying"`` and the source reopens itself with
backoff. Pick one from a configuration string with :func:`open_source`:

==============================  =========================================================================
``picamera``                    Raspberry Pi camera through picamera2 (``picamera@1280x720`` for a size)
``webcam:0``                    USB webcam by index (``webcam`` alone is index 0)
``webcam:/dev/video2``          USB webcam by device path; ``webcam:0@1280x720`` asks for a resolution
``replay:PATH``                 a folder of images (sorted by name) or a video file, at 10 fps
``replay:PATH@15``              ... at 15 frames per second
``replay:PATH@15:loop``         ... looping forever (``replay:PATH:loop`` keeps the default rate)
==============================  =========================================================================

>>> import numpy as np, tempfile, cv2, os
>>> folder = tempfile.mkdtemp()
>>> _ = cv2.imwrite(os.path.join(folder, "0001.png"), np.zeros((4, 6, 3), np.uint8))
>>> with open_source(f"replay:{folder}@5", realtime=False) as source:
...     source.read().shape, source.time, source.read(), source.status
((4, 6, 3), 0.0, None, 'end of replay')

Capture is kept separate from processing (as picamera2's examples do): :class:`ThreadedSource` reads any source on
its own thread and keeps only the newest frame, so the vision loop always works on the latest picture.
"""

from __future__ import annotations

import logging
import math
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..errors import CompanionError, ConfigError
from ..table import SourceStatus
from .frames import as_bgr

__all__ = [
    "BadSourceConfig",
    "FrameSource",
    "PiCameraSource",
    "ReplaySource",
    "SourceGone",
    "ThreadedSource",
    "WebcamSource",
    "open_source",
    "parse_source",
]

log = logging.getLogger(__name__)

LOST = "camera lost — retrying"
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


class BadSourceConfig(ConfigError):
    """A frame-source configuration string that does not parse, e.g. ``'webcam:x'``."""


class SourceGone(CompanionError, RuntimeError):
    """Raised inside a source when its device cannot be opened or stops delivering (caught by the source itself)."""


class _EndOfReplay(Exception):
    """Raised by a replay's ``_grab`` at its end: not a lost device."""


class SourceUnavailable(CompanionError, RuntimeError):
    """The source can never work on this machine (e.g. picamera2 not installed); it is reported, not retried."""


class FrameSource:
    """A source of BGR frames with a status line; closes safely twice; a context manager.

    Subclasses implement ``_open`` (raise :class:`SourceGone` if the device is absent), ``_grab`` (return an image
    or ``None``) and ``_release``. This base class turns failures into the ``"camera lost — retrying"`` status and
    reopens with exponential backoff (``retry_min`` doubling up to ``retry_max`` seconds). :attr:`time` is the
    capture time of the frame last returned (``time.monotonic()`` for cameras, video time for replays).
    """

    #: consecutive bad grabs before the device is dropped and reopened
    max_failures = 3

    def __init__(self, *, retry_min: float = 0.5, retry_max: float = 8.0, clock=time.monotonic) -> None:
        self.status = "starting"  #: in words, for a person
        self.state = SourceStatus.STARTING  #: the same as a value, for the program
        self.time: float | None = None
        self.size: tuple[int, int] | None = None
        self._clock = clock
        self._retry_min = retry_min
        self._retry_max = retry_max
        self._backoff = retry_min
        self._next_try = 0.0
        self._opened = False
        self._closed = False
        self._failures = 0
        self._unavailable = False

    # -- the interface -------------------------------------------------------------------------------------------
    def read(self) -> np.ndarray | None:
        """The next frame (BGR ``uint8``), or ``None`` when there is none right now; never raises for a bad device."""
        if self._closed or self._unavailable:
            return None
        if not self._opened and not self._try_open():
            return None
        try:
            frame = as_bgr(self._grab())
        except _EndOfReplay:
            return None
        except SourceUnavailable as exc:  # a device that cannot come back by itself: said once, not retried
            self._opened = False
            self._unavailable = True
            self.status, self.state = str(exc), SourceStatus.UNAVAILABLE
            self._safe_release()
            return None
        except SourceGone as exc:
            self._lose(str(exc))
            return None
        except Exception as exc:  # a driver error mid-game must not end the game
            self._lose(f"{type(exc).__name__}: {exc}")
            return None
        if frame is None:
            self._failures += 1
            if self._failures >= self.max_failures:
                self._lose("no picture")
            return None
        self._failures = 0
        self._backoff = self._retry_min
        self.size = (frame.shape[1], frame.shape[0])
        if self.time is None or not self._sets_time:
            self.time = self._clock()
        return frame

    def close(self) -> None:
        """Release the device; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self._safe_release()
        self.status, self.state = "closed", SourceStatus.CLOSED

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:  # pragma: no cover - best effort at interpreter exit
        try:
            self.close()
        except Exception:
            pass

    # -- for subclasses -----------------------------------------------------------------------------------------
    _sets_time = False  # True when _grab sets self.time itself (replays use video time)

    def _open(self) -> None:
        raise NotImplementedError

    def _grab(self) -> Any:
        raise NotImplementedError

    def _release(self) -> None:
        pass

    def _live_status(self) -> str:
        return "live"

    # -- retry machinery ----------------------------------------------------------------------------------------
    def _try_open(self) -> bool:
        now = self._clock()
        if now < self._next_try:
            return False
        try:
            self._open()
        except SourceUnavailable as exc:
            self._unavailable = True
            self.status, self.state = str(exc), SourceStatus.UNAVAILABLE
            self._safe_release()
            return False
        except Exception as exc:
            self._safe_release()
            self._schedule_retry(f"{exc}")
            return False
        self._opened = True
        self._failures = 0
        self.status, self.state = self._live_status(), SourceStatus.LIVE
        return True

    def _lose(self, why: str) -> None:
        self._opened = False
        self._safe_release()
        self._schedule_retry(why)

    def _schedule_retry(self, why: str) -> None:
        wait = self._backoff
        self._next_try = self._clock() + wait
        self._backoff = min(self._backoff * 2, self._retry_max)
        self.status = f"{LOST} in {wait:.1f} s ({why})" if why else f"{LOST} in {wait:.1f} s"
        self.state = SourceStatus.LOST

    def _safe_release(self) -> None:
        try:
            self._release()
        except Exception:
            pass


class WebcamSource(FrameSource):
    """A USB webcam through OpenCV's ``VideoCapture``, by index (``0``) or device path (``"/dev/video2"``).

    ``size`` is the resolution asked for; :attr:`size` reports what the camera delivers.

    >>> with WebcamSource(97, retry_min=60) as cam:  # no such camera: a status, not an exception
    ...     cam.read() is None, cam.status.startswith("camera lost")
    (True, True)
    """

    def __init__(self, device: int | str = 0, *, size: tuple[int, int] | None = (1280, 720),
                 fps: float | None = None, **kw) -> None:
        super().__init__(**kw)
        self.device = device
        self.requested_size = size
        self.requested_fps = fps
        self._cap: cv2.VideoCapture | None = None

    def _open(self) -> None:
        if isinstance(self.device, str) and not os.path.exists(self.device):
            raise SourceGone(f"no device {self.device!r}")
        # Debian's OpenCV tries GStreamer before V4L2, which on a Pi can grab the raw camera node: ask for V4L2.
        cap = cv2.VideoCapture(self.device, cv2.CAP_V4L2) if sys.platform.startswith("linux") else \
            cv2.VideoCapture(self.device)
        self._cap = cap
        if not cap.isOpened():
            raise SourceGone(f"cannot open webcam {self.device!r}")
        if self.requested_size:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.requested_size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.requested_size[1])
        if self.requested_fps:
            cap.set(cv2.CAP_PROP_FPS, float(self.requested_fps))
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self.size = (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))

    def _grab(self) -> Any:
        ok, frame = self._cap.read()
        return frame if ok else None

    def _release(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None

    def _live_status(self) -> str:
        return f"webcam {self.device} live at {self.size[0]}x{self.size[1]}" if self.size else "live"


class PiCameraSource(FrameSource):
    """The Raspberry Pi camera through picamera2 (apt's ``python3-picamera2``; optional, imported when opened).

    Asks for ``RGB888`` (which picamera2 delivers in B,G,R order, ready for OpenCV) at ``size``, and holds the sensor
    to ``fps`` frames a second (``FrameDurationLimits``) instead of letting it free-run at its fastest mode. After
    ``settle`` seconds it locks exposure, gain and white balance to the values the camera settled on, so a passing
    cloud does not make the cards change colour; on a camera with autofocus (Camera Module 3) it runs one autofocus
    cycle and then holds the lens. Without picamera2 the status says so and :meth:`read` returns ``None``.

    Every request to the camera waits at most ``frame_timeout`` seconds. A camera that stops answering (a ribbon
    cable knocked loose) would otherwise hang the capture thread, and ``close()`` behind it, for ever: its pending
    jobs are cancelled (picamera2's ``cancel_all_and_flush``) and the source gives up with a status telling the user
    what to do, because a CSI camera is not hot-pluggable: retrying cannot bring it back.
    """

    STALLED = "Pi camera stopped sending pictures: check the ribbon cable, then restart"

    def __init__(self, *, size: tuple[int, int] = (1280, 720), fps: float | None = 10.0, settle: float = 1.0,
                 autofocus: bool = True, camera_num: int = 0, frame_timeout: float = 3.0,
                 close_timeout: float = 2.0, **kw) -> None:
        super().__init__(**kw)
        self.requested_size = size
        self.requested_fps = fps
        self.settle = settle
        self.autofocus = autofocus
        self.camera_num = camera_num
        self.frame_timeout = frame_timeout
        self.close_timeout = close_timeout
        self.locked: dict[str, Any] = {}
        self._cam = None
        self._started = 0.0

    def _open(self) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise SourceUnavailable(
                "picamera2 is not installed (on the Pi: apt install python3-picamera2, and make the venv with "
                f"--system-site-packages): {exc}") from None
        try:
            self._cam = Picamera2(self.camera_num)
        except Exception as exc:
            raise SourceGone(f"no Pi camera {self.camera_num}: {exc}") from None
        controls = {}
        if self.requested_fps:
            period_us = int(round(1e6 / self.requested_fps))
            controls["FrameDurationLimits"] = (period_us, period_us)
        config = self._cam.create_preview_configuration(
            main={"format": "RGB888", "size": tuple(self.requested_size)}, buffer_count=2, controls=controls)
        self._cam.configure(config)
        self._cam.start()
        self._started = self._clock()
        self.locked = {}
        self.size = tuple(self.requested_size)

    def _bounded(self, method: str, *args: Any) -> Any:
        """``camera.method(*args)`` waiting at most ``frame_timeout`` s (picamera2's job API: ``wait=False``, then
        ``wait(job, timeout)``); a camera that does not answer in time raises :class:`SourceUnavailable`."""
        cam = self._cam
        if not hasattr(cam, "wait"):  # a picamera2 without the job API can only block
            return getattr(cam, method)(*args)
        job = getattr(cam, method)(*args, wait=False)
        try:
            return cam.wait(job, timeout=self.frame_timeout)
        except TimeoutError:
            self._flush()
            raise SourceUnavailable(self.STALLED) from None

    def _flush(self) -> None:
        cancel = getattr(self._cam, "cancel_all_and_flush", None)
        if cancel is not None:
            try:
                cancel()
            except Exception:  # pragma: no cover - tidying up after a dead camera must not raise
                pass

    def _grab(self) -> Any:
        frame = self._bounded("capture_array", "main")
        if not self.locked and self._clock() - self._started >= self.settle:
            self._lock_controls()
        return frame

    def _lock_controls(self) -> None:
        metadata = self._bounded("capture_metadata")
        locked: dict[str, Any] = {k: metadata[k] for k in ("ExposureTime", "AnalogueGain", "ColourGains")
                                  if k in metadata}
        locked.update(AeEnable=False, AwbEnable=False)
        if self.autofocus and "AfMode" in getattr(self._cam, "camera_controls", {}):
            self._bounded("autofocus_cycle")
            lens = self._bounded("capture_metadata").get("LensPosition")
            locked["AfMode"] = 0  # libcamera AfModeEnum.Manual: hold the lens where the cycle left it
            if lens is not None:
                locked["LensPosition"] = lens
        self._cam.set_controls(locked)
        self.locked = locked
        self.status = "Pi camera live, exposure, white balance" + (" and focus" if "AfMode" in locked else "") + \
            " locked"

    def _release(self) -> None:
        cam, self._cam = self._cam, None
        if cam is None:
            return
        # A camera that stopped answering can leave stop() waiting behind its stuck requests: cancel them first, and
        # never let closing hold up the program's exit (Ctrl-C, systemctl stop) for more than close_timeout.
        cancel = getattr(cam, "cancel_all_and_flush", None)

        def shut() -> None:
            try:
                if cancel is not None:
                    cancel()
                cam.stop()
            except Exception as exc:
                log.debug("stopping the Pi camera: %s", exc)
            finally:
                try:
                    cam.close()
                except Exception as exc:
                    log.debug("closing the Pi camera: %s", exc)

        closer = threading.Thread(target=shut, name="picamera-close", daemon=True)
        closer.start()
        closer.join(self.close_timeout)

    def _live_status(self) -> str:
        return "Pi camera live, settling exposure"


class ReplaySource(FrameSource):
    """Replays a folder of images (sorted by name) or a video file at ``fps``, optionally looping.

    :attr:`time` is video time (``frame index / fps``), so a replay gives the same timestamps on every machine. With
    ``realtime=True`` :meth:`read` waits until each frame is due; with ``False`` it hands frames out as fast as asked.
    ``cache=True`` keeps a folder's decoded images in memory (for short loops such as benchmarks). At the end of a
    non-looping replay :meth:`read` returns ``None`` and the status is ``"end of replay"``.
    """

    _sets_time = True

    def __init__(self, path: str | os.PathLike, *, fps: float | None = None, loop: bool = False,
                 realtime: bool = True, cache: bool = False, **kw) -> None:
        super().__init__(**kw)
        self.path = Path(path)
        self.fps = fps
        self.loop = loop
        self.realtime = realtime
        self.cache = cache
        self.finished = False
        self.index = 0  # frames handed out so far
        self._files: list[Path] = []
        self._frames: dict[int, np.ndarray] = {}
        self._cap: cv2.VideoCapture | None = None
        self._t0 = 0.0
        self._pos = 0  # position inside the current pass

    def _open(self) -> None:
        if self.path.is_dir():
            self._files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._files:
                raise SourceGone(f"no images in {str(self.path)!r}")
            self.fps = self.fps or 10.0
        elif self.path.is_file():
            self._cap = cv2.VideoCapture(str(self.path))
            if not self._cap.isOpened():
                raise SourceGone(f"cannot read video {str(self.path)!r}")
            file_fps = self._cap.get(cv2.CAP_PROP_FPS)
            self.fps = self.fps or (file_fps if file_fps and math.isfinite(file_fps) and file_fps > 0 else 10.0)
        else:
            raise SourceGone(f"replay not found: {str(self.path)!r}")
        self._t0 = self._clock()

    def _live_status(self) -> str:
        return f"replaying {self.path.name} at {self.fps:g} fps" + (" (looping)" if self.loop else "")

    def read(self) -> np.ndarray | None:
        if self.finished:
            return None
        return super().read()

    def _grab(self) -> Any:
        if self.realtime:
            due = self._t0 + self.index / self.fps
            delay = due - self._clock()
            if delay > 0:
                time.sleep(delay)
        frame = self._next_frame()
        if frame is None and self.loop and self._pos > 0:
            self._rewind()
            frame = self._next_frame()
        if frame is None:
            self.finished = True
            self.status, self.state = "end of replay", SourceStatus.ENDED
            raise _EndOfReplay
        self.time = self.index / self.fps
        self.index += 1
        return frame

    def _next_frame(self) -> np.ndarray | None:
        if self._cap is not None:
            ok, frame = self._cap.read()
            if not ok:
                return None
            self._pos += 1
            return frame
        while self._pos < len(self._files):
            i = self._pos
            self._pos += 1
            frame = self._frames.get(i)
            if frame is None:
                frame = cv2.imread(str(self._files[i]), cv2.IMREAD_COLOR)
                if frame is not None and self.cache:
                    self._frames[i] = frame
            if frame is not None:
                return frame
        return None

    def _rewind(self) -> None:
        self._pos = 0
        if self._cap is not None:
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)

    def _release(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class ThreadedSource(FrameSource):
    """Reads another source on its own thread and keeps only the newest frame (a one-frame buffer).

    :meth:`read` returns the newest frame not handed out yet, waiting up to ``timeout`` seconds for one, else
    ``None``; frames the consumer was too slow for are dropped, never queued. Closing it closes the inner source.
    """

    def __init__(self, source: FrameSource, *, timeout: float = 0.5, idle: float = 0.005) -> None:
        super().__init__()
        self.source = source
        self.timeout = timeout
        self.dropped = 0
        self._idle = idle
        self._cond = threading.Condition()
        self._latest: tuple[np.ndarray, float | None] | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="frame-capture", daemon=True)
        self._thread.start()

    @property
    def status(self) -> str:  # type: ignore[override]
        return self.source.status

    @status.setter
    def status(self, value: str) -> None:
        pass  # the inner source owns the status

    @property
    def state(self) -> SourceStatus:  # type: ignore[override]
        return self.source.state

    @state.setter
    def state(self, value: SourceStatus) -> None:
        pass  # and its value

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                frame = self.source.read()
            except Exception:  # pragma: no cover - sources do not raise, but the thread must not die
                frame = None
            if frame is None:
                if isinstance(self.source, ReplaySource) and self.source.finished:
                    return
                if self.source._unavailable:  # gave up for good (no picamera2, a stalled Pi camera): nothing to poll
                    return
                self._stop.wait(self._idle)
                continue
            with self._cond:
                if self._latest is not None:
                    self.dropped += 1
                self._latest = (frame, self.source.time)
                self._cond.notify_all()

    def read(self) -> np.ndarray | None:
        if self._closed:
            return None
        with self._cond:
            if self._latest is None and self._thread.is_alive():
                self._cond.wait(self.timeout)
            if self._latest is None:
                return None
            frame, self.time = self._latest
            self._latest = None
        self.size = (frame.shape[1], frame.shape[0])
        return frame

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        with self._cond:
            self._latest = None
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        self.source.close()


# -- configuration strings ----------------------------------------------------------------------------------------
def _parse_size(text: str, config: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise BadSourceConfig(f"bad size {text!r} in frame source {config!r}: expected WIDTHxHEIGHT, e.g. 1280x720")
    if w <= 0 or h <= 0:
        raise BadSourceConfig(f"bad size {text!r} in frame source {config!r}: both sides must be positive")
    return w, h


def parse_source(config: str) -> tuple[str, dict[str, Any]]:
    """Split a frame-source string into a kind and keyword arguments (see the module docstring for the syntax).

    >>> parse_source("webcam:/dev/video2@640x480")
    ('webcam', {'device': '/dev/video2', 'size': (640, 480)})
    >>> parse_source("replay:clips/hand 1@15:loop")
    ('replay', {'path': 'clips/hand 1', 'loop': True, 'fps': 15.0})
    >>> parse_source("tv:1")
    Traceback (most recent call last):
    ...
    companion.vision.sources.BadSourceConfig: unknown frame source 'tv:1': expected picamera, webcam:INDEX|PATH or ...
    """
    kind, _, rest = config.strip().partition(":")
    kind = kind.lower()
    if kind.startswith("picamera"):
        kind, _, size = kind.partition("@")
        if kind != "picamera" or rest:
            raise BadSourceConfig(f"bad Pi camera source {config!r}: expected picamera or picamera@WIDTHxHEIGHT")
        return "picamera", ({"size": _parse_size(size, config)} if size else {})
    if kind.startswith("webcam"):
        spec = rest if kind == "webcam" else ("0" + kind[6:] if kind.startswith("webcam@") and not rest else None)
        if spec is None:
            raise BadSourceConfig(f"bad webcam source {config!r}: expected webcam:INDEX|PATH[@WIDTHxHEIGHT]")
        device, at, size = spec.rpartition("@")
        if not at:
            device, size = spec, ""
        device = device or "0"
        kwargs: dict[str, Any] = {"device": int(device) if device.isdigit() else device}
        if isinstance(kwargs["device"], str) and not kwargs["device"].startswith("/"):
            raise BadSourceConfig(f"bad webcam {device!r} in frame source {config!r}: expected an index or a path")
        if size:
            kwargs["size"] = _parse_size(size, config)
        return "webcam", kwargs
    if kind == "replay":
        if not rest:
            raise BadSourceConfig(f"replay needs a path in frame source {config!r}: replay:PATH[@FPS][:loop]")
        kwargs = {}
        if rest.endswith(":loop"):
            rest, kwargs["loop"] = rest[: -len(":loop")], True
        path, at, fps = rest.rpartition("@")
        if at:
            try:
                kwargs["fps"] = float(fps)
            except ValueError:
                path = rest  # an @ that is part of the path
            else:
                if not (kwargs["fps"] > 0 and math.isfinite(kwargs["fps"])):
                    raise BadSourceConfig(f"bad frame rate {fps!r} in frame source {config!r}: must be above 0")
        else:
            path = rest
        return "replay", {"path": path, **kwargs}
    raise BadSourceConfig(f"unknown frame source {config!r}: expected picamera, webcam:INDEX|PATH or "
                          "replay:PATH[@FPS][:loop]")


def open_source(config: str, *, threaded: bool = False, camera_size: tuple[int, int] | None = None,
                camera_fps: float | None = None, **options: Any) -> FrameSource:
    """Open the frame source a configuration string names; ``threaded=True`` wraps it in :class:`ThreadedSource`.

    ``camera_size`` and ``camera_fps`` are ``[camera] width/height`` and ``fps``: what a Pi camera or a webcam is
    asked for (a size in the string itself, ``picamera@640x480``, wins); a replay keeps its own rate. Extra keyword
    ``options`` go to the source's constructor (e.g. ``realtime=False`` for a replay). The string is validated before
    any device is touched; a missing device is a status, not an exception.
    """
    kind, kwargs = parse_source(config)
    if kind != "replay":
        if camera_size is not None:
            kwargs.setdefault("size", tuple(camera_size))
        if camera_fps is not None:
            kwargs["fps"] = float(camera_fps)
    kwargs.update(options)
    cls = {"picamera": PiCameraSource, "webcam": WebcamSource, "replay": ReplaySource}[kind]
    if kind != "replay":
        for key in ("realtime", "cache", "loop"):
            kwargs.pop(key, None)
    source = cls(**kwargs)
    return ThreadedSource(source) if threaded else source
