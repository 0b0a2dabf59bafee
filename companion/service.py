"""systemd integration without extra packages: ``READY=1`` and watchdog pings over ``$NOTIFY_SOCKET``.

Outside systemd (no ``NOTIFY_SOCKET``) every call does nothing, so the same main loop runs on a PC.

>>> Notifier(env={}).ready()
False
"""

from __future__ import annotations

import os
import signal
import socket
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path


class Notifier:
    """Tells systemd the companion is ready, and pings its watchdog at half the interval it asked for."""

    def __init__(self, env: Mapping[str, str] | None = None, clock=time.monotonic) -> None:
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):  # an abstract socket
            address = "\0" + address[1:]
        self.address = address or None
        usec = env.get("WATCHDOG_USEC", "")
        self.interval = int(usec) / 2e6 if usec.isdigit() and int(usec) > 0 else None
        self.clock = clock
        self._last = float("-inf")

    def _send(self, message: str) -> bool:
        if not self.address:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.connect(self.address)
                sock.sendall(message.encode())
            return True
        except OSError:
            return False

    def ready(self, status: str = "") -> bool:
        return self._send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def status(self, text: str) -> bool:
        return self._send(f"STATUS={text}")

    def ping(self) -> bool:
        """Call from the main loop as often as you like; sends WATCHDOG=1 only when it is due."""
        if self.interval is None:
            return False
        now = self.clock()
        if now - self._last < self.interval:
            return False
        self._last = now
        return self._send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self._send("STOPPING=1")


def has_gpio(dev: Path = Path("/dev")) -> bool:
    """True on a machine with GPIO pins (a Raspberry Pi: ``/dev/gpiochip*``), where the buttons are worth opening."""
    return any(dev.glob("gpiochip*"))


@contextmanager
def stop_on_signals(stop: Callable[[int], None], signals=(signal.SIGTERM, signal.SIGHUP)) -> Iterator[None]:
    """While inside, ``SIGTERM`` (``systemctl stop``, shutdown) and ``SIGHUP`` call ``stop(signum)`` instead of
    killing the process, so the main loop ends and its ``finally`` runs: the LED chain is blanked (APA102 and
    MAX7219 chains keep their last frame lit on their own supply otherwise) and the database closed. The handler
    only asks; an event being written is finished first. A second signal of the same kind, if the loop is stuck,
    ends the process the usual way. The previous handlers come back on the way out."""
    previous = {}

    def handler(signum, frame) -> None:
        signal.signal(signum, signal.SIG_DFL)  # a second one is not ignored
        stop(signum)

    for signum in signals:
        previous[signum] = signal.signal(signum, handler)
    try:
        yield
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)
