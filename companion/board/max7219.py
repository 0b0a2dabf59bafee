"""MAX7219 chains over SPI: the single-colour option (each side its own colour of LED), up to 64 LEDs per chip.

Wiring: DIN to GPIO10 (MOSI), CLK to GPIO11 (SCLK), CS/LOAD to GPIO8 (CE0), through a 74AHCT125 at 5 V; chips
daisy-chained DOUT to DIN. LED ``i`` is chip ``i // 64``, digit register ``(i % 64) // 8 + 1``, bit ``7 - i % 8``
(chip 0 is the one wired to the Pi).

The MAX7219 has one intensity per chip, not per LED: a hole is on (any channel at or over ``threshold``) or off.
Every register write shifts one 16-bit word per chip, the last chip's first, and latches on CS rising.
"""

from __future__ import annotations

from collections.abc import Sequence

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

    >>> from gpiozero import Device
    >>> from gpiozero.pins.mock import MockFactory
    >>> Device.pin_factory = MockFactory()     # on a Pi: leave it to gpiozero
    >>> with MAX7219Chain(2) as chain:
    ...     chain.count
    128
    >>> Device.pin_factory.reset()
    """

    def __init__(self, chips: int = 1, *, intensity: int = 8, threshold: int = 1, rate: int = 1_000_000,
                 pin_factory: object = None, **spi_args: object) -> None:
        if not isinstance(chips, int) or chips < 1:
            raise ValueError(f"chips must be a positive number, got {chips!r}")
        if not 0 <= intensity <= 15:
            raise ValueError(f"intensity must be 0-15, got {intensity!r}")
        self._chips = chips
        self._intensity = intensity
        self._threshold = max(1, threshold)
        self._rows: list[list[int]] = [[-1] * 8 for _ in range(chips)]
        super().__init__(pin_factory=pin_factory, **spi_args)
        try:
            try:
                self._spi.rate = rate
            except (SPIError, AttributeError, NotImplementedError):
                pass
            for reg, value in ((REG_TEST, 0), (REG_DECODE, 0), (REG_SCAN_LIMIT, 7),
                               (REG_INTENSITY, intensity), (REG_SHUTDOWN, 1)):
                self._write_all(reg, [value] * chips)
            for digit in range(8):
                self._write_all(REG_DIGIT0 + digit, [0] * chips)
                for chip in range(chips):
                    self._rows[chip][digit] = 0
        except BaseException:
            self.close()
            raise

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
        for digit in range(8):
            values = [rows[chip][digit] for chip in range(self._chips)]
            if values != [self._rows[chip][digit] for chip in range(self._chips)]:
                self._write_all(REG_DIGIT0 + digit, values)
                for chip in range(self._chips):
                    self._rows[chip][digit] = values[chip]

    def close(self) -> None:
        """Shut the chips down (all dark) and release the bus; safe to call twice."""
        if getattr(self, "_spi", None):
            try:
                self._write_all(REG_SHUTDOWN, [0] * self._chips)
            except Exception:  # closing must not fail on a broken bus
                pass
        super().close()
