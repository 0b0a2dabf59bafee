"""The virtual board: an LED chain that only remembers its frame, and a function drawing a board with pygame.

>>> chain = VirtualChain(30)
>>> chain.show([(9, 9, 9)] * 30); chain.frame[0]
(9, 9, 9)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .layout import RGB, Layout, Point

if TYPE_CHECKING:  # pygame is imported only when drawing
    import pygame

WOOD = (122, 84, 48)
WOOD_EDGE = (86, 58, 32)
HOLE = (38, 26, 16)


class VirtualChain:
    """An LED chain with no hardware: it keeps the last frame for the screen to draw. Same interface as
    :class:`~.apa102.APA102` (``count``, ``show``, ``off``, ``close``)."""

    def __init__(self, count: int) -> None:
        if count < 1:
            raise ValueError(f"count must be a positive number of LEDs, got {count!r}")
        self.count = count
        self.frame: list[RGB] = [(0, 0, 0)] * count
        self.closed = False
        self.updates = 0

    def show(self, frame: Sequence[RGB]) -> None:
        if self.closed:
            raise RuntimeError("virtual chain is closed")
        if len(frame) != self.count:
            raise ValueError(f"frame has {len(frame)} colours for a chain of {self.count} LEDs")
        self.frame = list(frame)
        self.updates += 1

    def off(self) -> None:
        self.show([(0, 0, 0)] * self.count)

    def close(self) -> None:
        self.closed = True

    def __enter__(self) -> VirtualChain:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<VirtualChain of {self.count} LEDs{' closed' if self.closed else ''}>"


def hole_positions(layout: Layout) -> dict[int, Point]:
    """LED -> position in mm for every hole: the layout's own, or a plain grid (one row per half-track)."""
    if layout.has_positions:
        return {led: layout.positions[led] for _, led in layout.holes()}
    row = max(1, (layout.holes_per_track + 1) // 2)
    return {led: (10.0 + 7.0 * (k % row), 10.0 + 10.0 * (k // row)) for k, (_, led) in enumerate(layout.holes())}


def screen_colour(colour: RGB) -> RGB:
    """An LED colour as it looks to the eye: dim LEDs are brighter than their linear value (gamma 2.2)."""
    return tuple(round(255 * (c / 255) ** (1 / 2.2)) for c in colour)


def draw_board(surface: pygame.Surface, rect: pygame.Rect | tuple[int, int, int, int], layout: Layout,
               frame: Sequence[RGB], *, highlight: int | None = None) -> dict[int, tuple[int, int]]:
    """Draw ``layout`` showing ``frame`` onto ``surface`` inside ``rect``, keeping the board's proportions.

    ``highlight``: an LED whose hole gets a white ring (the board-test's current hole). Returns the screen
    position of every hole's LED, for captions.
    """
    import pygame

    rect = pygame.Rect(rect)
    pos = hole_positions(layout)
    width, height = layout.size_mm() if layout.has_positions else (
        max(p[0] for p in pos.values()) + 10, max(p[1] for p in pos.values()) + 10)
    k = min(rect.width / width, rect.height / height)
    board = pygame.Rect(0, 0, round(width * k), round(height * k))
    board.center = rect.center
    pygame.draw.rect(surface, WOOD, board, border_radius=max(2, round(6 * k)))
    pygame.draw.rect(surface, WOOD_EDGE, board, width=max(1, round(k)), border_radius=max(2, round(6 * k)))
    radius = max(2, round(layout.hole_mm * k / 2))
    screen: dict[int, tuple[int, int]] = {}
    for led, (x, y) in pos.items():
        centre = (board.x + round(x * k), board.y + round(y * k))
        screen[led] = centre
        colour = frame[led] if led < len(frame) else (0, 0, 0)
        if any(colour):
            shown = screen_colour(colour)
            glow = pygame.Surface((radius * 6, radius * 6), pygame.SRCALPHA)
            pygame.draw.circle(glow, (*shown, 70), (radius * 3, radius * 3), radius * 3)
            surface.blit(glow, (centre[0] - radius * 3, centre[1] - radius * 3))
            pygame.draw.circle(surface, shown, centre, radius + 1)
        else:
            pygame.draw.circle(surface, HOLE, centre, radius)
        if led == highlight:
            pygame.draw.circle(surface, (255, 255, 255), centre, radius + 4, width=2)
    return screen
