"""What the card reader reports for one card it saw: the value every later stage (zones, tracker) consumes."""

from __future__ import annotations

from dataclasses import dataclass, field

#: Labels that are not card codes.
BACK = "back"
UNKNOWN = "unknown"


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
