"""systemd integration without extra packages: ``READY=1`` and watchdog pings over ``$NOTIFY_SOCKET``.

Outside systemd (no ``NOTIFY_SOCKET``) every call does nothing, so the same main loop runs on a PC.

>>> Notifier(env={}).ready()
False
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Mapping


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
