"""MAX7219 chains over SPI: the single-colour option (each side its own colour of LED), up to 64 LEDs per chip.

Wiring: DIN to GPIO10 (MOSI), CLK to GPIO11 (SCLK), CS/LOAD to GPIO8 (CE0), through a 74AHCT125 at 5 V; chips
daisy-chained DOUT to DIN. LED ``i`` is chip ``i // 64``, digit register ``(i % 64) // 8 + 1``, bit ``7 - i % 8``
(chip 0 is the one wired to the Pi).

The MAX7219 has one intensity per chip, not per LED: a hole is on (any channel at or over ``threshold``) or off.
Every register write shifts one 16-bit word per chip, the last chip's first, and latches on CS rising.

A MAX7219 that browns out (a dip on the LED supply, a connector wiggled) comes back up in shutdown with its
registers lost, and would stay dark until the program restarted: the settings and every digit row are therefore
sent again every ``refresh_every`` seconds (at the next :meth:`~MAX7219Chain.show` or
:meth:`~MAX7219Chain.refresh`, which the peg board calls on every tick).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from gpiozero import SPIDevice
from gpiozero.exc import SPIError

from .layout import RGB

REG_DIGIT0 = 0x01
REG_DECODE = 0x09
REG_INTENSITY = 0x0A
REG_SCAN_LIMIT = 0x0B
REG_SHUTDOWN = 0x0C
REG_TEST = 0x0F


class MAX7219Chain(SPIDevice):
    """``chips`` MAX7219s daisy-chained on one SPI bus; ``intensity`` 0-15 for every chip.

    Every ``refresh_every`` seconds of ``clock`` (None: never) the settings and the rows are sent again, so a chip
    that lost them in a supply dip lights again within that time.

    >>> from gpiozero import Device
    >>> from gpiozero.pins.mock import MockFactory
    >>> Device.pin_factory = MockFactory()     # on a Pi: leave it to gpiozero
    >>> with MAX7219Chain(2) as chain:
    ...     chain.count
    128
    >>> Device.pin_factory.reset()
    """

    def __init__(self, chips: int = 1, *, intensity: int = 8, threshold: int = 1, rate: int = 1_000_000,
                 refresh_every: float | None = 5.0, clock: Callable[[], float] = time.monotonic,
                 pin_factory: object = None, **spi_args: object) -> None:
        if not isinstance(chips, int) or chips < 1:
            raise ValueError(f"chips must be a positive number, got {chips!r}")
        if not 0 <= intensity <= 15:
            raise ValueError(f"intensity must be 0-15, got {intensity!r}")
        self._chips = chips
        self._intensity = intensity
        self._threshold = max(1, threshold)
        self._rows: list[list[int]] = [[0] * 8 for _ in range(chips)]
        self.refresh_every = refresh_every
        self._clock = clock
        self._sent_at = clock()
        super().__init__(pin_factory=pin_factory, **spi_args)
        try:
            try:
                self._spi.rate = rate
            except (SPIError, AttributeError, NotImplementedError):
                pass
            self.refresh(force=True)
        except BaseException:
            self.close()
            raise

    def refresh(self, *, force: bool = False) -> bool:
        """Send the settings (test off, no decode, scan limit 7, intensity) and every digit row again, then leave
        shutdown, if ``refresh_every`` has passed since they were last sent (or ``force``). True if sent."""
        self._check_open()
        now = self._clock()
        if not force and (self.refresh_every is None or now - self._sent_at < self.refresh_every):
            return False
        for reg, value in ((REG_TEST, 0), (REG_DECODE, 0), (REG_SCAN_LIMIT, 7), (REG_INTENSITY, self._intensity)):
            self._write_all(reg, [value] * self._chips)
        # the rows before leaving shutdown: a chip that has just powered up holds random rows
        for digit in range(8):
            self._write_all(REG_DIGIT0 + digit, [self._rows[chip][digit] for chip in range(self._chips)])
        self._write_all(REG_SHUTDOWN, [1] * self._chips)
        self._sent_at = now
        return True

    @property
    def count(self) -> int:
        return self._chips * 64

    @property
    def chips(self) -> int:
        return self._chips

    def _write_all(self, reg: int, values: Sequence[int]) -> None:
        """One transaction: register ``reg`` of chip ``k`` gets ``values[k]`` (the farthest chip is sent first)."""
        data: list[int] = []
        for value in reversed(values):
            data += [reg & 0x0F, value & 0xFF]
        self._spi.write(data)

    def encode(self, frame: Sequence[RGB]) -> list[list[int]]:
        """The digit rows for ``frame``: ``rows[chip][digit]`` is the byte of that digit register."""
        if len(frame) > self.count:
            raise ValueError(f"frame has {len(frame)} colours for {self._chips} chips of 64 LEDs")
        rows = [[0] * 8 for _ in range(self._chips)]
        for i, colour in enumerate(frame):
            if max(colour) >= self._threshold:
                rows[i // 64][(i % 64) // 8] |= 0x80 >> (i % 8)
        return rows

    def show(self, frame: Sequence[RGB]) -> None:
        """Light the LEDs of ``frame`` that are on; only digit registers that changed are written."""
        self._check_open()
        rows = self.encode(frame)
        self.refresh()  # when due, a chip that browned out gets its settings and the rows it showed back first
        for digit in range(8):
            values = [rows[chip][digit] for chip in range(self._chips)]
            if values != [self._rows[chip][digit] for chip in range(self._chips)]:
                self._write_all(REG_DIGIT0 + digit, values)
                for chip in range(self._chips):
                    self._rows[chip][digit] = values[chip]

    def close(self) -> None:
        """Clear every row, shut the chips down (all dark, even if they are woken later) and release the bus;
        safe to call twice."""
        if getattr(self, "_spi", None):
            try:
                for digit in range(8):
                    self._write_all(REG_DIGIT0 + digit, [0] * self._chips)
                self._write_all(REG_SHUTDOWN, [0] * self._chips)
            except Exception:  # closing must not fail on a broken bus
                pass
        super().close()
