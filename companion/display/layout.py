"""Screen metrics: one place that turns a window size into paddings, font sizes and layout choices.

Sizes are laid out, not just scaled: below 400 pixels high (small SPI screens) the screens drop secondary lines,
and wide screens put more columns side by side.
"""

from __future__ import annotations

from dataclasses import dataclass

SIZES: tuple[tuple[int, int], ...] = ((800, 480), (1024, 600), (1280, 720), (480, 320))


@dataclass(frozen=True, slots=True)
class Layout:
    """Metrics for one window size. ``s`` is the scale against the 800x480 reference."""

    w: int
    h: int

    @property
    def s(self) -> float:
        return min(self.w / 800, self.h / 480)

    @property
    def compact(self) -> bool:
        """A small screen (480x320): fewer, bigger things."""
        return self.h < 400 or self.w < 640

    @property
    def pad(self) -> int:
        return max(4, int(10 * self.s))

    def fs(self, base: int, floor: int = 16) -> int:
        """A font size: ``base`` at 800x480, scaled, never below ``floor``."""
        return max(floor, int(base * self.s))
