"""What the card reader reports for one card it saw: the value every later stage (zones, tracker) consumes."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..table import BACK, UNKNOWN  # noqa: F401  (labels that are not card codes, re-exported for the reader)

#: A card at least FULL_SIZE pixels tall in the frame is named at confidence ACCEPT or more. A smaller card has few
#: pixels per glyph (clubs and spades, 6 and 8 blur together) and must be surer, up to SMALL_ACCEPT; below
#: MIN_HEIGHT it is never named. (Synthetic cards 100-170 px tall were misread 1-3% of the time at 0.80.) Stop 37
#: lowered these from 0.97 and 115 px: a card's size is judged from its index (nine rank-to-suit steps), and a
#: 126 px card of a deck whose index sits close was taken for one under 115 px, never named however sure its read.
#: Stop 38 raised SMALL_ACCEPT from stop 37's 0.93 to 0.95 and asks more still under GAME_HEIGHT (TINY_ACCEPT): at
#: 0.93 a bundled 3C was named 3S at 0.933 (126 px, seed 5858) and, on OpenCV 4.6, an AC named AS at 0.933 (110 px).
#: Nine decks at 126 px, seed 5858 (chosen on): 1,301 named, 7 wrong at 0.93 -> 1,293, 6 at 0.95; seed 6464
#: (measured once): 1,261 / 6 -> 1,246 / 5 of 1,620 (before stop 37: 1,163 / 4); at 160 px 1,431 / 1 -> 1,430 / 1.
ACCEPT, FULL_SIZE, SMALL_ACCEPT, MIN_HEIGHT = 0.80, 200.0, 0.95, 100.0

#: Cards shorter than this are named now and then (from MIN_HEIGHT up) but too seldom to follow a game by: the app
#: asks for a closer camera below it (``app.CARDS_TOO_SMALL``; a three-seat mat at 720p gives 110 px cards).
#: Synthetic 720p scenes of the bundled deck, seed 1212, 3 per table: 62% / 72% / 70% / 82% of 180 cards named at
#: 104 / 110 / 118 / 126 px, measured once
#: (``python -m tools.eval_synth --reader new --seed 1212 --sizes 104,110,118,126 --scenes 3``).
GAME_HEIGHT = 115.0

#: A card between MIN_HEIGHT and GAME_HEIGHT must be surer than SMALL_ACCEPT, up to TINY_ACCEPT at MIN_HEIGHT.
TINY_ACCEPT = 0.97


def accept_for(height: float) -> float:
    """The confidence a read of a card ``height`` pixels tall must reach to be named (above 1: never).

    >>> accept_for(300), accept_for(160), accept_for(120), accept_for(100), accept_for(95) > 1
    (0.8, 0.9, 0.95, 0.97, True)
    """
    if height < MIN_HEIGHT:
        return 1.01
    need = min(SMALL_ACCEPT, ACCEPT + max(FULL_SIZE - height, 0.0) * 0.0025)
    if height < GAME_HEIGHT:  # the smallest named: surer still, up to TINY_ACCEPT at MIN_HEIGHT
        part = (height - MIN_HEIGHT) / (GAME_HEIGHT - MIN_HEIGHT)
        need = max(need, TINY_ACCEPT - (TINY_ACCEPT - SMALL_ACCEPT) * part)
    return round(need, 4)


@dataclass(frozen=True)
class Detection:
    """One card seen in one frame.

    ``card`` is a card code such as ``"TH"``, or :data:`BACK` for a face-down card, or :data:`UNKNOWN` when the
    reader could not tell. ``corners`` are image coordinates (x, y): the card's four corners where they are visible,
    otherwise the four corners of the index box that was read. ``confidence`` is in [0, 1].

    >>> d = Detection("TH", 0.97, ((0, 0), (10, 0), (10, 15), (0, 15)))
    >>> d.center
    (5.0, 7.5)
    """

    card: str
    confidence: float
    corners: tuple[tuple[float, float], ...]
    whole_card: bool = True
    extra: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def center(self) -> tuple[float, float]:
        xs = [p[0] for p in self.corners]
        ys = [p[1] for p in self.corners]
        return (sum(xs) / len(xs), sum(ys) / len(ys))

    def to_json(self) -> dict:
        return {
            "card": self.card,
            "confidence": round(float(self.confidence), 3),
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
        }
