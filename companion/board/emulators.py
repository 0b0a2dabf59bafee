"""LED chips emulated on gpiozero's mock pins, for tests and benchmarks: each decodes what it receives.

Create the chip *before* the device that claims its pins (the chip marks the clock and select pins as SPI pins)::

    factory = MockFactory()
    Device.pin_factory = factory
    chip = APA102Chip(30)            # listens on GPIO11 (clock), GPIO10 (MOSI), GPIO8 (CE0)
    chain = APA102(30)
    chain.show(frame)
    assert chip.colours() == frame

Close the chip and the device, and reset the factory, after each test: gpiozero caches the software SPI bus.
"""

from __future__ import annotations

from gpiozero.pins.mock import MockPin, MockSPIDevice

from .layout import RGB


class DebouncingMockPin(MockPin):
    """A mock pin that honours ``bounce_time`` as a debouncing GPIO library does (gpiozero's own MockPin ignores
    it): a change less than ``bounce_time`` after the last one reported is not reported. lgpio filters by how long
    a level lasts rather than by the gap between reports, but a pulse shorter than the bounce time is lost either
    way, and that is what a fast-turned encoder produces. Use ``MockFactory(pin_class=DebouncingMockPin)``."""

    _reported: float | None = None

    def _call_when_changed(self) -> None:
        bounce = self.bounce
        if bounce and self._reported is not None and self._last_change - self._reported < bounce:
            return
        self._reported = self._last_change
        super()._call_when_changed()


class APA102Chip(MockSPIDevice):
    """A chain of ``count`` APA102 LEDs listening on SPI pins. Like the real chips it ignores chip select: a start
    frame (32 zero bits at a frame boundary) rewinds it to the first LED; each frame ``111bbbbb B G R`` then lands
    on the next LED; frames past the last LED fall off the end.

    ``leds[i]`` is ``(global_brightness, r, g, b)``; ``updates`` counts the times every LED was written.
    """

    def __init__(self, count: int, clock_pin: int = 11, mosi_pin: int = 10, select_pin: int = 8, *,
                 order: str = "bgr", pin_factory: object = None) -> None:
        super().__init__(clock_pin, mosi_pin, None, select_pin, pin_factory=pin_factory)
        self.count = count
        self.order = order
        self.leds: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)] * count
        self.updates = 0
        self.bytes_received = 0
        self.bad_frames = 0
        self._byte = 0
        self._nbits = 0
        self._zeros = 0
        self._index: int | None = None
        self._led_bytes: list[int] = []

    def on_start(self) -> None:  # chip select means nothing to an APA102
        pass

    def on_bit(self) -> None:
        bit = self.rx_buf.pop()
        self._byte = (self._byte << 1) | bool(bit)
        self._nbits += 1
        if self._nbits == 8:
            self._feed(self._byte)
            self._byte = 0
            self._nbits = 0

    def _feed(self, byte: int) -> None:
        self.bytes_received += 1
        if self._led_bytes:                       # inside an LED frame
            self._led_bytes.append(byte)
            if len(self._led_bytes) == 4:
                self._latch(self._led_bytes)
                self._led_bytes = []
            return
        if byte == 0:
            self._zeros += 1
            if self._zeros >= 4:
                self._index = 0
            return
        self._zeros = 0
        if byte & 0xE0 != 0xE0:
            self.bad_frames += 1
            return
        self._led_bytes = [byte]

    def _latch(self, frame: list[int]) -> None:
        if self._index is None or self._index >= self.count:
            return
        gb = frame[0] & 0x1F
        channels = dict(zip(self.order, frame[1:]))
        self.leds[self._index] = (gb, channels["r"], channels["g"], channels["b"])
        self._index += 1
        if self._index == self.count:
            self.updates += 1

    def colours(self) -> list[RGB]:
        """The colour of every LED, without the global brightness."""
        return [(r, g, b) for _, r, g, b in self.leds]

    def lit(self) -> dict[int, RGB]:
        """The LEDs that are not dark: index -> colour."""
        return {i: (r, g, b) for i, (gb, r, g, b) in enumerate(self.leds) if gb and (r or g or b)}


class MAX7219Chip(MockSPIDevice):
    """``chips`` daisy-chained MAX7219s: 16-bit words shift through every chip while CS is low, and each chip
    latches the word it holds when CS rises. ``registers[chip][reg]`` is the last value latched."""

    def __init__(self, chips: int = 1, clock_pin: int = 11, mosi_pin: int = 10, select_pin: int = 8, *,
                 pin_factory: object = None) -> None:
        self.chips = chips
        self.registers: list[dict[int, int]] = [{} for _ in range(chips)]
        self.latches = 0
        self._bits: list[int] = []
        super().__init__(clock_pin, mosi_pin, None, select_pin, pin_factory=pin_factory)

    def on_select(self) -> None:
        if self.select_pin.state == self.select_high:
            self._bits = []
        else:
            self._latch()

    def on_bit(self) -> None:
        self._bits.append(int(bool(self.rx_buf.pop())))

    def _latch(self) -> None:
        words = [int("".join(map(str, self._bits[i:i + 16])), 2) for i in range(0, len(self._bits) - 15, 16)]
        self._bits = []
        if not words:
            return
        self.latches += 1
        for chip in range(min(self.chips, len(words))):
            word = words[-1 - chip]
            reg, value = (word >> 8) & 0x0F, word & 0xFF
            if reg:  # register 0 is no-op
                self.registers[chip][reg] = value

    def power_cycle(self, garbage: int = 0xA5) -> None:
        """What a supply dip does to real chips: the control registers reset (shutdown, intensity 0, scan limit 0,
        no decode) and the digit rows come back holding ``garbage``."""
        for chip in range(self.chips):
            self.registers[chip] = {0x09: 0, 0x0A: 0, 0x0B: 0, 0x0C: 0, 0x0F: 0,
                                    **{digit: garbage for digit in range(1, 9)}}

    def lit(self) -> set[int]:
        """LED indices lit, numbered as :class:`~.max7219.MAX7219Chain` numbers them (the rows past the scan
        limit are not displayed)."""
        on = set()
        for chip, regs in enumerate(self.registers):
            if not regs.get(0x0C, 0):
                continue  # shut down
            for digit in range(regs.get(0x0B, 7) + 1):
                row = regs.get(digit + 1, 0)
                on |= {chip * 64 + digit * 8 + bit for bit in range(8) if row & (0x80 >> bit)}
        return on
