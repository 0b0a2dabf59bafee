"""The zones of the play mat (each seat's play row, the deck, the starter, the crib), in mat millimetres.

Zones are data: :data:`LAYOUTS_PATH` holds one layout per number of seats, and a zone map can be saved beside a
calibration. :func:`place` puts a recognised card in a zone through a calibration (mat -> image homography).

>>> zones = ZoneMap.for_seats(2)
>>> zones.names
('seat1', 'seat2', 'deck', 'starter', 'crib')
>>> zones.zone_at(200, 220), zones.zone_at(5, 5)
('seat1', 'elsewhere')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ConfigError
from ..table import Zone as Place, seat_zone  # noqa: F401  (seat_zone: the one seat -> zone name)
from .detection import Detection

if TYPE_CHECKING:
    from .calibration import Calibration

__all__ = ["CARD_MM", "ELSEWHERE", "INDEX_INSET_MM", "LAYOUTS_PATH", "Zone", "ZoneMap", "card_centres_mm", "place",
           "seat_zone"]

LAYOUTS_PATH = Path(__file__).with_name("mat_layouts.json")
#: a playing card (width, height) in mm: poker size, the card the mats and their zones are drawn for
CARD_MM = (63.0, 88.0)
ELSEWHERE: str = Place.ELSEWHERE.value


def _rect(values) -> tuple[float, float, float, float]:
    x, y, w, h = (float(v) for v in values)  # exactly four numbers, or the ValueError names the zone's key
    return (x, y, w, h)


@dataclass(frozen=True)
class Zone:
    """One rectangular zone of the mat: ``rect`` is (x, y, width, height) in mm; ``facing`` is the angle in degrees
    a card lies at there (0 = upright for seat 1)."""

    name: str
    rect: tuple[float, float, float, float]
    facing: float = 0.0
    label: str = ""

    def contains(self, x: float, y: float) -> bool:
        x0, y0, w, h = self.rect
        return x0 <= x <= x0 + w and y0 <= y <= y0 + h

    @property
    def center(self) -> tuple[float, float]:
        x0, y0, w, h = self.rect
        return (x0 + w / 2, y0 + h / 2)

    @property
    def polygon(self) -> np.ndarray:
        """The four corners (TL, TR, BR, BL) in mm, float32, shape (4, 2)."""
        x0, y0, w, h = self.rect
        return np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], np.float32)


@dataclass(frozen=True)
class ZoneMap:
    """The zones of one mat layout: ``size_mm`` is the play area (width, height) whose corners are the reference for
    a manual calibration."""

    size_mm: tuple[float, float]
    zones: tuple[Zone, ...]
    seats: int = 2

    @classmethod
    def for_seats(cls, seats: int) -> "ZoneMap":
        """The bundled layout for 2, 3 or 4 seats."""
        return _bundled(seats)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(z.name for z in self.zones)

    def __getitem__(self, name: str) -> Zone:
        for zone in self.zones:
            if zone.name == name:
                return zone
        raise KeyError(name)

    def zone_at(self, x: float, y: float) -> str:
        """The name of the zone holding mat point (x, y) in mm, or ``'elsewhere'``."""
        for zone in self.zones:
            if zone.contains(x, y):
                return zone.name
        return ELSEWHERE

    @property
    def corners(self) -> np.ndarray:
        """The play area's corners (TL, TR, BR, BL) in mm, the points a manual calibration clicks."""
        w, h = self.size_mm
        return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)

    def to_json(self) -> dict:
        return {"seats": self.seats, "size_mm": list(self.size_mm),
                "zones": {z.name: {"rect": list(z.rect), "facing": z.facing, "label": z.label} for z in self.zones}}

    @classmethod
    def from_json(cls, data: dict, *, seats: int | None = None) -> "ZoneMap":
        """Build a zone map from its JSON form; a missing or malformed key raises :class:`ConfigError` naming it."""
        try:
            size = tuple(float(v) for v in data["size_mm"])
            zones = tuple(
                Zone(name, _rect(spec["rect"]), float(spec.get("facing", 0)), spec.get("label", ""))
                for name, spec in data["zones"].items())
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"bad zone map: {exc!r} in {json.dumps(data)[:200]!r}; expected size_mm and zones "
                              "{name: {rect: [x, y, w, h]}}") from None
        if len(size) != 2 or any(len(z.rect) != 4 for z in zones):
            raise ConfigError(f"bad zone map {json.dumps(data)[:200]!r}: size_mm needs 2 numbers and each rect 4")
        n = seats if seats is not None else int(data.get("seats", sum(z.name.startswith("seat") for z in zones)))
        return cls(size, zones, n)


@lru_cache(maxsize=None)
def _bundled(seats: int) -> ZoneMap:
    layouts = json.loads(LAYOUTS_PATH.read_text())["layouts"]
    if str(seats) not in layouts:
        raise ConfigError(f"no mat layout for {seats!r} seats: expected one of {', '.join(layouts)}")
    return ZoneMap.from_json(layouts[str(seats)], seats=seats)


def place(detection: Detection, calibration: "Calibration") -> str:
    """The zone a recognised card lies in, seen through ``calibration``: ``'seat1'``..``'seat4'``, ``'deck'``,
    ``'starter'``, ``'crib'`` or ``'elsewhere'``. The card's middle decides (:func:`card_centres_mm`)."""
    x, y = card_centres_mm([detection], calibration)[0]
    return calibration.zones.zone_at(float(x), float(y))


#: how far in (mm) from a card's corner its index box begins
INDEX_INSET_MM = 3.0


def card_centres_mm(detections: list[Detection], calibration: "Calibration") -> np.ndarray:
    """Where on the mat (mm) the middle of each detected card lies: the middle of a whole card, or, for a card
    read by one index corner only, the middle of the card that index belongs to. The zone is decided by the card's
    middle: an index sits at a corner, up to half a card from it, so near a zone's edge (two cut cards side by side
    in the starter spot) it could put the card in the wrong zone.

    An index box's corners run as the card does (its first corner nearest the card's own corner, the second along
    the card's width, the last down its length), so the card lies from there along those two sides."""
    centres = calibration.to_mat([d.center for d in detections])
    boxes = [i for i, d in enumerate(detections) if not d.whole_card and len(d.corners) == 4]
    if not boxes:
        return centres
    corners = calibration.to_mat([p for i in boxes for p in detections[i].corners]).reshape(-1, 4, 2)
    for i, (p0, p1, _, p3) in zip(boxes, corners):
        across, down = p1 - p0, p3 - p0
        a, b = float(np.hypot(*across)), float(np.hypot(*down))
        if a < 1e-3 or b < a:  # not an upright index box (rank over suit is taller than wide): keep its middle
            continue
        w, h = CARD_MM
        centres[i] = p0 + across / a * (w / 2 - INDEX_INSET_MM) + down / b * (h / 2 - INDEX_INSET_MM)
    return centres

