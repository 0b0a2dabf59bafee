"""Vision off the main thread: the tracker runs on the newest frame in its own thread, the loop collects results.

On a Raspberry Pi 4 reading a frame with a change takes several times the x86 figures; on the main thread that
froze the screen and the buttons for as long. :class:`VisionWorker` takes frames with :meth:`~VisionWorker.submit`
(which never waits), keeps only the newest one not yet started (a frame that arrives while the tracker is busy
replaces the one waiting: the table as it is now matters, not its history), runs ``process`` on it in a thread and
hands each result back through :meth:`~VisionWorker.results`. Everything that changes the game stays on the main
thread: the worker only looks. Work the tracker must do between frames (``forget_played`` at a new hand) is queued
with :meth:`~VisionWorker.call` and runs on the worker's thread before the next frame, so the tracker is only ever
touched by one thread.

>>> import time
>>> worker = VisionWorker(lambda frame, t: [f"saw {frame} at {t}"])
>>> worker.submit("frame 1", 0.1)
>>> worker.wait_idle(2.0)
True
>>> [r.changes for r in worker.results()]
[['saw frame 1 at 0.1']]
>>> worker.close()
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["VisionResult", "VisionWorker"]


@dataclass(frozen=True)
class VisionResult:
    """What the tracker made of one frame: its ``changes`` (or the ``error`` it raised), the frame's time ``t``,
    the ``meta`` given with it, and when the work ``started`` and ``finished`` (on the worker's clock)."""

    changes: list
    t: float
    meta: Any
    started: float
    finished: float
    error: Exception | None = None


class VisionWorker:
    """Runs ``process(frame, t)`` on the newest submitted frame in a daemon thread; see the module docstring."""

    def __init__(self, process: Callable[[Any, float], list], *, clock: Callable[[], float] = time.monotonic,
                 name: str = "vision") -> None:
        self.process = process
        self.clock = clock
        self.dropped = 0  # frames replaced before the tracker got to them
        self._cond = threading.Condition()
        self._pending: tuple[Any, float, Any] | None = None
        self._calls: list[Callable[[], Any]] = []
        self._busy = False
        self._stop = False
        self._done: queue.SimpleQueue[VisionResult] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def submit(self, frame: Any, t: float, meta: Any = None) -> None:
        """Hand a frame over; returns at once. A frame still waiting is replaced (and counted in :attr:`dropped`)."""
        with self._cond:
            if self._pending is not None:
                self.dropped += 1
            self._pending = (frame, t, meta)
            self._cond.notify()

    def call(self, fn: Callable[[], Any]) -> None:
        """Run ``fn`` on the worker's thread before the next frame (for work that touches the tracker)."""
        with self._cond:
            self._calls.append(fn)
            self._cond.notify()

    def results(self) -> list[VisionResult]:
        """The results finished since the last call, oldest first; never waits."""
        out = []
        while True:
            try:
                out.append(self._done.get_nowait())
            except queue.Empty:
                return out

    @property
    def idle(self) -> bool:
        with self._cond:
            return self._pending is None and not self._calls and not self._busy

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every submitted frame and call is done (for tests and a clean stop); False on timeout."""
        end = time.monotonic() + timeout
        with self._cond:
            while self._pending is not None or self._calls or self._busy:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def close(self, timeout: float = 2.0) -> None:
        """Stop the thread (a frame being read is finished first, up to ``timeout`` seconds); safe to call twice."""
        with self._cond:
            self._stop = True
            self._pending = None
            self._cond.notify_all()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._stop and self._pending is None and not self._calls:
                    self._cond.wait()
                if self._stop:
                    return
                calls, self._calls = self._calls, []
                job, self._pending = self._pending, None
                self._busy = True
            try:
                for fn in calls:
                    try:
                        fn()
                    except Exception:  # pragma: no cover - a failing call must not stop the reading
                        pass
                if job is not None:
                    frame, t, meta = job
                    started = self.clock()
                    try:
                        changes, error = list(self.process(frame, t)), None
                    except Exception as exc:  # a bad frame must never stop the game: reported with the result
                        changes, error = [], exc
                    self._done.put(VisionResult(changes, t, meta, started, self.clock(), error))
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()
