"""Drawing primitives: text that fits, vector cards, suit symbols, side markers; a :class:`Canvas` records them.

Every text and card drawn through a :class:`Canvas` is recorded with its rectangle, so tests (and touch input) can
ask what is on the screen and where. Suits are drawn as shapes, not glyphs: pygame's default font has none.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from ..cards import Card

Colour = tuple[int, int, int]

BG = (14, 16, 22)
PANEL = (30, 34, 44)
PANEL_HI = (48, 54, 68)
FG = (245, 245, 245)
DIM = (175, 180, 192)
ACCENT = (255, 214, 0)  # highlight: bright yellow, read by every kind of colour vision
CARD_FACE = (250, 250, 246)
CARD_EDGE = (90, 90, 90)
RED = (200, 16, 32)
BLACK = (20, 20, 20)
WARN = (255, 170, 0)
ERROR = (235, 60, 60)
OK_GREEN = (60, 200, 120)

RANK_TEXT = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}


@dataclass(frozen=True, slots=True)
class TextItem:
    """A text on screen: what it says, where, its role (``score``, ``count``, ``name``...) and font size."""

    text: str
    rect: pygame.Rect
    role: str = ""
    size: int = 0


@dataclass(frozen=True, slots=True)
class CardItem:
    """A card on screen, whether it is highlighted, and its role and index (for touch)."""

    card: Card
    rect: pygame.Rect
    highlighted: bool = False
    role: str = ""
    index: int | None = None


@dataclass(frozen=True, slots=True)
class Target:
    """A touch area: touching ``rect`` means ``name`` (e.g. ``rank``, ``suit``, ``owner``, ``item``) at ``index``."""

    rect: pygame.Rect
    name: str
    index: int = 0


@dataclass(frozen=True, slots=True)
class Drawn:
    """What one screen drew: the texts, the cards and the touch targets, in drawing order."""

    screen: str
    size: tuple[int, int]
    texts: tuple[TextItem, ...]
    cards: tuple[CardItem, ...]
    targets: tuple[Target, ...] = ()

    def text_values(self) -> list[str]:
        return [t.text for t in self.texts]

    def find(self, role: str) -> list[TextItem]:
        return [t for t in self.texts if t.role == role]

    def card_at(self, pos: tuple[int, int]) -> CardItem | None:
        """The topmost card under a point (cards drawn later lie on top)."""
        for item in reversed(self.cards):
            if item.rect.collidepoint(pos):
                return item
        return None

    def target_at(self, pos: tuple[int, int]) -> Target | None:
        for item in reversed(self.targets):
            if item.rect.collidepoint(pos):
                return item
        return None


_fonts: dict[int, pygame.font.Font] = {}
_texts: dict[tuple[str, int, Colour], pygame.Surface] = {}


def font(size: int) -> pygame.font.Font:
    """pygame-ce's bundled bold sans font at ``size`` (cached).

    ``pygame.quit()`` (the watch window, a test) invalidates every font made before it, even once the module is
    started again: the caches are emptied whenever the font module was stopped since they were filled.
    """
    if not pygame.font.get_init():
        pygame.font.init()
    live = _font_alive()
    if not live:
        _fonts.clear()
        _texts.clear()
        _widths.clear()
        _fitted.clear()
    f = _fonts.get(size)
    if f is None:
        f = _fonts[size] = pygame.font.Font(None, size)
    return f


def _font_alive() -> bool:
    """Whether the cached fonts still work (a font made before ``pygame.quit()`` raises on use)."""
    probe = next(iter(_fonts.values()), None)
    if probe is None:
        return True
    try:
        probe.size("M")
    except pygame.error:
        return False
    return True


def render_text(text: str, size: int, colour: Colour) -> pygame.Surface:
    key = (text, size, colour)
    surf = _texts.get(key)
    if surf is None:
        if len(_texts) > 2000:
            _texts.clear()
        surf = _texts[key] = font(size).render(text, True, colour)
    return surf


_widths: dict[tuple[str, int], int] = {}


def text_size(text: str, size: int) -> tuple[int, int]:
    """Width and height of ``text`` as drawn (the rendered surface, a little taller than ``Font.size`` says)."""
    key = (text, size)
    w = _widths.get(key)
    if w is None:
        if len(_widths) > 8000:
            _widths.clear()
        w = _widths[key] = font(size).size(text)[0]
    return w, line_height(size)


def line_height(size: int) -> int:
    return font(size).get_linesize()


def fit_size(text: str, size: int, max_width: int, min_size: int | None = None) -> int:
    """The largest font size up to ``size`` (down to ``min_size``) at which ``text`` fits ``max_width``."""
    low = min_size if min_size is not None else max(12, int(size * 0.6))
    while size > low and text_size(text, size)[0] > max_width:
        size = max(low, int(size * 0.92))
    return size


def ellipsize(text: str, size: int, max_width: int) -> str:
    """``text`` cut with "..." to fit ``max_width`` (the longest prefix that fits, found by halving)."""
    if text_size(text, size)[0] <= max_width:
        return text
    f = font(size)
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if f.size(text[:mid].rstrip() + "...")[0] <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "..." if lo else ""


def wrap_lines(text: str, size: int, max_width: int, max_lines: int = 3) -> list[str]:
    """``text`` broken at spaces into lines that fit ``max_width``; only a text longer than ``max_lines`` lines
    loses its end (the last line then ends with "...")."""
    words = text.split()
    lines: list[str] = []
    line = ""
    for k, word in enumerate(words):
        trial = f"{line} {word}" if line else word
        if text_size(trial, size)[0] <= max_width or not line:
            line = trial
            continue
        lines.append(line)
        line = word
        if len(lines) == max_lines:
            lines[-1] = ellipsize(" ".join([lines[-1], *words[k:]]), size, max_width)
            return lines
    if line:
        lines.append(line)
    return [ellipsize(ln, size, max_width) for ln in lines]


_fitted: dict[tuple[str, int, int, int | None], tuple[str, int]] = {}


def clear_caches() -> None:
    """Forget rendered texts and fitted sizes (the fonts stay loaded)."""
    _texts.clear()
    _fitted.clear()
    _widths.clear()


def fit_text(text: str, size: int, max_width: int, min_size: int | None = None) -> tuple[str, int]:
    """The text and font size to draw ``text`` within ``max_width``: smaller type first, then "..." (cached)."""
    key = (text, size, max_width, min_size)
    out = _fitted.get(key)
    if out is None:
        if len(_fitted) > 4000:
            _fitted.clear()
        fitted = fit_size(text, size, max_width, min_size)
        out = _fitted[key] = (ellipsize(text, fitted, max_width), fitted)
    return out


class Canvas:
    """A surface plus the record of what was drawn on it."""

    def __init__(self, surface: pygame.Surface, screen: str = "") -> None:
        self.surface = surface
        self.screen = screen
        self.texts: list[TextItem] = []
        self.cards: list[CardItem] = []
        self.targets: list[Target] = []

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    def drawn(self) -> Drawn:
        return Drawn(self.screen, self.size, tuple(self.texts), tuple(self.cards), tuple(self.targets))

    def text(self, text: str, pos: tuple[int, int], size: int, colour: Colour = FG, *, anchor: str = "topleft",
             role: str = "", max_width: int | None = None, min_size: int | None = None) -> pygame.Rect:
        """Draw one line of text; with ``max_width`` shrink it to fit, and only then cut it with "..."."""
        if max_width is not None:
            text, size = fit_text(text, size, max_width, min_size)
        if not text:
            return pygame.Rect(pos, (0, 0))
        surf = render_text(text, size, colour)
        rect = surf.get_rect(**{anchor: pos})
        self.surface.blit(surf, rect)
        self.texts.append(TextItem(text, rect, role, size))
        return rect

    def wrapped(self, text: str, pos: tuple[int, int], size: int, colour: Colour = FG, *, role: str = "",
                max_width: int, max_lines: int = 3) -> pygame.Rect:
        """Draw ``text`` on as many lines as it needs (up to ``max_lines``) from ``pos``; return the block."""
        x, y = pos
        block = pygame.Rect(x, y, 0, 0)
        for line in wrap_lines(text, size, max_width, max_lines):
            r = self.text(line, (x, y), size, colour, role=role)
            block.union_ip(r)
            y += line_height(size)
        return block

    def card(self, card: Card, rect: pygame.Rect, *, highlighted: bool = False, role: str = "",
             index: int | None = None, dim: bool = False) -> pygame.Rect:
        rect = pygame.Rect(rect)
        if highlighted:  # lifted and ringed: a cue of shape and of colour
            rect = rect.move(0, -max(2, rect.h // 10))
        draw_card(self.surface, card, rect, highlighted=highlighted, dim=dim)
        self.cards.append(CardItem(card, rect, highlighted, role, index))
        return rect

    def target(self, rect: pygame.Rect, name: str, index: int = 0) -> None:
        self.targets.append(Target(pygame.Rect(rect), name, index))


# ---------------------------------------------------------------------------------------------------------------
# Shapes


def suit_colour(suit: str) -> Colour:
    return RED if suit in "DH" else BLACK


_SUPERSAMPLE = 4  # small suits are drawn this much larger and scaled down smoothly
_suits: dict[tuple[str, int, Colour], pygame.Surface] = {}


def draw_suit(surface: pygame.Surface, suit: str, center: tuple[float, float], size: float,
              colour: Colour | None = None) -> None:
    """A filled suit symbol ``size`` pixels tall centred on ``center``.

    Below 64 pixels the shape is drawn four times larger and scaled down with smoothing: pygame's shapes have no
    anti-aliasing, and a small club drawn directly breaks into three dots and a bar (it read as "÷").
    """
    colour = colour or suit_colour(suit)
    if size >= 64:
        _suit_shape(surface, suit, center, size, colour)
        return
    px = max(4, int(round(size)))
    key = (suit, px, colour)
    small = _suits.get(key)
    if small is None:
        if len(_suits) > 512:
            _suits.clear()
        big = pygame.Surface((px * _SUPERSAMPLE, px * _SUPERSAMPLE), pygame.SRCALPHA)
        _suit_shape(big, suit, (px * _SUPERSAMPLE / 2, px * _SUPERSAMPLE / 2), px * _SUPERSAMPLE, colour)
        small = _suits[key] = pygame.transform.smoothscale(big, (px, px))
    surface.blit(small, small.get_rect(center=(round(center[0]), round(center[1]))))


def _suit_shape(surface: pygame.Surface, suit: str, center: tuple[float, float], size: float, colour: Colour) -> None:
    """The suit's shape in plain pygame primitives (no smoothing)."""
    cx, cy = center
    s = size / 2
    if suit == "D":
        pygame.draw.polygon(surface, colour, [(cx, cy - s), (cx + s * 0.72, cy), (cx, cy + s), (cx - s * 0.72, cy)])
    elif suit == "H":
        r = s * 0.5
        pygame.draw.circle(surface, colour, (cx - r * 0.95, cy - s + r * 1.15), r)
        pygame.draw.circle(surface, colour, (cx + r * 0.95, cy - s + r * 1.15), r)
        pygame.draw.polygon(surface, colour, [(cx - s * 0.94, cy - s * 0.3), (cx + s * 0.94, cy - s * 0.3),
                                              (cx, cy + s)])
    elif suit == "S":
        r = s * 0.46
        pygame.draw.polygon(surface, colour, [(cx, cy - s), (cx + s * 0.9, cy + s * 0.12),
                                              (cx - s * 0.9, cy + s * 0.12)])
        pygame.draw.circle(surface, colour, (cx - r * 0.98, cy + s * 0.18), r)
        pygame.draw.circle(surface, colour, (cx + r * 0.98, cy + s * 0.18), r)
        pygame.draw.polygon(surface, colour, [(cx, cy + s * 0.2), (cx + s * 0.32, cy + s), (cx - s * 0.32, cy + s)])
    else:  # clubs: three leaves that overlap the centre (apart, they read as a division sign) and a flared stem
        r = s * 0.42
        pygame.draw.circle(surface, colour, (cx, cy - s + r), r)
        pygame.draw.circle(surface, colour, (cx - r * 1.05, cy + s * 0.1), r)
        pygame.draw.circle(surface, colour, (cx + r * 1.05, cy + s * 0.1), r)
        pygame.draw.circle(surface, colour, (cx, cy - s * 0.05), r * 0.8)
        pygame.draw.polygon(surface, colour, [(cx, cy - s * 0.1), (cx + s * 0.36, cy + s), (cx - s * 0.36, cy + s)])


def draw_marker(surface: pygame.Surface, marker: str, center: tuple[float, float], size: float, colour: Colour,
                *, filled: bool = True) -> None:
    """A side's marker shape (circle, square, triangle, diamond), filled or outlined, ``size`` pixels across."""
    cx, cy = center
    s = size / 2
    width = 0 if filled else max(2, int(size / 7))
    if marker == "square":
        pygame.draw.rect(surface, colour, pygame.Rect(cx - s * 0.88, cy - s * 0.88, s * 1.76, s * 1.76), width)
    elif marker == "triangle":
        pygame.draw.polygon(surface, colour, [(cx, cy - s), (cx + s, cy + s * 0.8), (cx - s, cy + s * 0.8)], width)
    elif marker == "diamond":
        pygame.draw.polygon(surface, colour, [(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], width)
    else:
        pygame.draw.circle(surface, colour, (cx, cy), s, width)


def draw_card(surface: pygame.Surface, card: Card, rect: pygame.Rect, *, highlighted: bool = False,
              dim: bool = False) -> None:
    """A plain vector card: big rank, suit shape, red or black, and the suit letter as a second cue.

    A card wider than it is tall is drawn as a chip: rank and suit side by side.
    """
    radius = max(3, rect.h // 12)
    if highlighted:
        ring = max(3, rect.h // 20)
        pygame.draw.rect(surface, ACCENT, rect.inflate(ring * 2 + 2, ring * 2 + 2), border_radius=radius + ring)
    pygame.draw.rect(surface, CARD_FACE if not dim else (170, 170, 165), rect, border_radius=radius)
    pygame.draw.rect(surface, CARD_EDGE, rect, 1, border_radius=radius)
    colour = suit_colour(card.suit)
    rank = RANK_TEXT.get(card.rank, str(card.rank))
    if rect.w >= rect.h:
        size = max(12, int(rect.h * 0.9))
        surf = render_text(rank, size, colour)
        pip = rect.h * 0.5
        total = surf.get_width() + pip * 1.15
        x = rect.centerx - total / 2
        surface.blit(surf, surf.get_rect(midleft=(x, rect.centery + 1)))
        draw_suit(surface, card.suit, (x + surf.get_width() + pip * 0.65, rect.centery), pip, colour)
        return
    size = int(rect.h * 0.4)
    surf = render_text(rank, size, colour)
    pad = max(3, rect.w // 14)
    surface.blit(surf, (rect.x + pad, rect.y + pad))
    draw_suit(surface, card.suit, (rect.centerx + rect.w * 0.08, rect.y + rect.h * 0.64), rect.h * 0.42, colour)
    letter = render_text(card.suit, max(12, int(rect.h * 0.2)), colour)
    surface.blit(letter, letter.get_rect(topleft=(rect.x + pad + 1, rect.y + pad + surf.get_height() - 2)))


def card_size_for(height: float) -> tuple[int, int]:
    """Card width and height for a height (poker proportions 5:7)."""
    h = int(height)
    return int(h * 5 / 7), h


def panel(surface: pygame.Surface, rect: pygame.Rect, colour: Colour = PANEL, *, border: Colour | None = None,
          width: int = 3, radius: int = 10) -> None:
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    if border is not None:
        pygame.draw.rect(surface, border, rect, width, border_radius=radius)
