"""Spoken counts through ``espeak-ng`` when it is installed and enabled; silent otherwise.

Speaking never blocks the game: phrases go to a small queue read by one worker thread, and a phrase that would
wait behind more than a few others is dropped (the screen still shows it).

>>> s = Speaker(enabled=False)
>>> s.say("Fifteen two")
False
>>> s.close()
"""

from __future__ import annotations

import logging
import queue
import shutil
import subprocess
import threading

log = logging.getLogger(__name__)


class Speaker:
    """Says phrases aloud with espeak-ng (``voice``, ``rate`` in words per minute)."""

    def __init__(self, *, enabled: bool = True, voice: str = "en", rate: int = 160, program: str = "espeak-ng",
                 backlog: int = 3) -> None:
        self.program = shutil.which(program) if enabled else None
        self.voice, self.rate = voice, rate
        self.status = None
        if enabled and not self.program:
            self.status = f"speech is on but {program} is not installed (sudo apt install {program}): silent"
            log.warning(self.status)
        self._queue: queue.Queue[str | None] = queue.Queue(maxsize=backlog)
        self._thread = None
        if self.program:
            self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
            self._thread.start()

    @property
    def enabled(self) -> bool:
        return self.program is not None

    def say(self, text: str) -> bool:
        """Queue ``text``; return whether it will be spoken."""
        if not self.program or not text:
            return False
        try:
            self._queue.put_nowait(text)
        except queue.Full:
            return False
        return True

    def _run(self) -> None:
        while True:
            text = self._queue.get()
            if text is None:
                return
            try:
                subprocess.run([self.program, "-v", self.voice, "-s", str(self.rate), text],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20, check=False)
            except (OSError, subprocess.SubprocessError) as exc:
                log.warning("speech failed: %s", exc)

    def close(self) -> None:
        if self._thread is not None:
            try:
                self._queue.put(None, timeout=1)
            except queue.Full:
                pass
            self._thread.join(timeout=2)
            self._thread = None
