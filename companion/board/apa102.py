"""APA102 / SK9822 LED chains over SPI, as a gpiozero :class:`~gpiozero.SPIDevice` whose one job is turning a frame
into bytes.

Wiring (Raspberry Pi, SPI0): strip DI (data) to GPIO10 (MOSI, pin 19) and CI (clock) to GPIO11 (SCLK, pin 23),
both through a 74AHCT125 level shifter powered at 5 V; strip GND to a Pi GND; the strip's 5 V from its own supply.
Chip select is not used by the strip (GPIO8 stays claimed by the SPI interface).

On the wire an update is a start frame of 32 zero bits, one 32-bit frame per LED (``111`` + 5 bits of global
brightness, then blue, green, red), and an end frame of zeros: 32 bits for the SK9822's latch plus half a clock per
LED for the APA102's data to reach the end of the chain.

>>> APA102.encode_frame([(255, 0, 0), (0, 0, 8)], brightness=31).hex(" ", -4)
'00000000 ff0000ff ff080000 00000000 00'
"""

from __future__ import annotations

from collections.abc import Sequence

from gpiozero import SPIDevice
from gpiozero.exc import SPIError

from .layout import RGB

ORDERS = ("bgr", "brg", "gbr", "grb", "rbg", "rgb")


class APA102(SPIDevice):
    """A chain of ``count`` APA102 or SK9822 LEDs on an SPI bus.

    ``brightness`` is the 5-bit global brightness (0-31) sent with every LED; ``order`` the colour order on the
    wire (``"bgr"`` for genuine APA102 and SK9822); ``rate`` the SPI clock in Hz, where the interface allows it.
    Other keyword arguments select the bus as for any gpiozero SPI device (``port``/``device`` or the pins).

    >>> from gpiozero import Device
    >>> from gpiozero.pins.mock import MockFactory
    >>> Device.pin_factory = MockFactory()     # on a Pi: leave it to gpiozero
    >>> chain = APA102(3)
    >>> chain.show([(255, 255, 255)] * 3)
    >>> chain.close(); chain.close()
    >>> Device.pin_factory.reset()
    """

    def __init__(self, count: int, *, brightness: int = 31, order: str = "bgr", rate: int = 8_000_000,
                 max_transfer: int = 4096, pin_factory: object = None, **spi_args: object) -> None:
        if not isinstance(count, int) or count < 1:
            raise ValueError(f"count must be a positive number of LEDs, got {count!r}")
        if not 0 <= brightness <= 31:
            raise ValueError(f"brightness is 5 bits: 0-31, got {brightness!r}")
        if order not in ORDERS:
            raise ValueError(f"order must be one of {', '.join(ORDERS)}, got {order!r}")
        self._count = count
        self._brightness = brightness
        self._order = order
        self._max_transfer = max(16, int(max_transfer))
        self._frame: list[RGB] = [(0, 0, 0)] * count
        super().__init__(pin_factory=pin_factory, **spi_args)
        try:
            try:
                self._spi.rate = rate
            except (SPIError, AttributeError, NotImplementedError):
                pass  # software SPI has no rate control
        except BaseException:
            self.close()
            raise

    @property
    def count(self) -> int:
        """The number of LEDs in the chain."""
        return self._count

    @property
    def brightness(self) -> int:
        """The 5-bit global brightness sent with every LED."""
        return self._brightness

    @property
    def frame(self) -> list[RGB]:
        """The last frame shown."""
        return list(self._frame)

    @staticmethod
    def encode_frame(frame: Sequence[RGB], *, brightness: int = 31, order: str = "bgr") -> bytes:
        """The bytes of one update for ``frame``: start frame, LED frames, end frame."""
        header = 0xE0 | (brightness & 0x1F)
        idx = tuple("rgb".index(c) for c in order)
        out = bytearray(4)
        for led in frame:
            out += bytes((header, led[idx[0]], led[idx[1]], led[idx[2]]))
        out += bytes(4 + (len(frame) + 15) // 16)
        return bytes(out)

    def encode(self, frame: Sequence[RGB]) -> bytes:
        """The bytes this chain needs to show ``frame`` (which must have one colour per LED)."""
        if len(frame) != self._count:
            raise ValueError(f"frame has {len(frame)} colours for a chain of {self._count} LEDs")
        return self.encode_frame(frame, brightness=self._brightness, order=self._order)

    def show(self, frame: Sequence[RGB]) -> None:
        """Send ``frame`` to the chain (in transfers of at most ``max_transfer`` bytes: spidev's buffer)."""
        self._check_open()
        data = self.encode(frame)
        for i in range(0, len(data), self._max_transfer):
            self._spi.write(list(data[i:i + self._max_transfer]))
        self._frame = list(frame)

    def off(self) -> None:
        """All LEDs dark."""
        self.show([(0, 0, 0)] * self._count)

    def close(self) -> None:
        """Darken every LED, then release the bus; safe to call twice. The strip has its own supply and keeps
        the last frame lit after the program has gone, so it is cleared first."""
        if getattr(self, "_spi", None) is not None:
            try:
                self.off()
            except Exception:  # closing must not fail on a broken bus
                pass
        super().close()
