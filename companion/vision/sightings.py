"""The sighting state machine: one frame's placed sightings in, the table's stable picture and its changes out.

- A card counts as present once it has been read the same way, at the same spot, in ``k`` of the last ``n`` readings.
- A card that disappears stays for ``hold`` seconds (a hand passing over it); after that it is removed.
- Changes: ``laid`` (a card in a zone), ``removed``, ``cleared`` (every card of a zone gone at once), ``face_down``
  (the cards of a zone turned over, e.g. after a 31), ``moved`` (slid from one zone into another).
- Conflicts are flagged, not guessed: the same card in two places; a card that keeps changing name (a 6 read as a
  9) is ``unsure`` until it settles.

It knows nothing of frames, cameras or the game: :class:`~companion.vision.tracker.Tracker` schedules the reading of
frames and feeds it; the referee decides what a change means for the game.

>>> table = TableState(SightingRules(k=2, n=3, hold=1.0))
>>> seen = [Sighting("seat1", "5H", (50.0, 60.0))]
>>> table.observe(seen, 0.0), table.observe(seen, 0.1)
([], [TableChange('laid', 'seat1', ('5H',), 0.0, reported=0.1)])
>>> table.state
{'seat1': ('5H',)}
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from collections.abc import Callable, Iterable

import cv2
import numpy as np

from ..table import BACK, UNKNOWN, Change, Zone

__all__ = ["CLEARED", "FACE_DOWN", "LAID", "MOVED", "REMOVED", "TWO_PLACES", "UNSURE", "Conflict", "Sighting",
           "SightingRules", "TableChange", "TableState", "ZoneState"]

LAID, REMOVED, CLEARED, FACE_DOWN, MOVED = Change.LAID, Change.REMOVED, Change.CLEARED, Change.FACE_DOWN, Change.MOVED
TWO_PLACES, UNSURE = "two_places", "unsure"
_ORDER: dict[str, int] = {REMOVED: 0, CLEARED: 0, FACE_DOWN: 0, MOVED: 1, LAID: 2}


@dataclass(frozen=True)
class Sighting:
    """One card read in one frame and placed on the mat: zone, label (code, ``"back"``), position in mat mm."""

    zone: str
    card: str
    pos: tuple[float, float] | None = None
    confidence: float = 1.0
    corners: tuple[tuple[float, float], ...] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class TableChange:
    """A change of the table. ``time`` is when it happened (the first frame showing it); ``reported`` when the
    tracker was sure of it. ``cards`` are in the order they were laid; ``from_zone`` is set for ``moved``."""

    kind: str
    zone: str
    cards: tuple[str, ...]
    time: float
    from_zone: str | None = None
    reported: float | None = field(default=None, compare=False)

    @property
    def card(self) -> str | None:
        return self.cards[0] if len(self.cards) == 1 else None

    @property
    def key(self) -> tuple[str, str, tuple[str, ...]]:
        """What must match the truth: kind, zone and cards (not the exact time)."""
        return (self.kind, self.zone, self.cards)

    def __repr__(self) -> str:
        extra = f", from_zone={self.from_zone!r}" if self.from_zone else ""
        return f"TableChange({str(self.kind)!r}, {self.zone!r}, {self.cards!r}, {round(self.time, 3)!r}{extra}, " \
               f"reported={self.reported if self.reported is None else round(self.reported, 3)!r})"

    def __str__(self) -> str:
        cards = " ".join(self.cards)
        texts: dict[str, str] = {
            LAID: f"laid {cards} in {self.zone}", REMOVED: f"removed {cards} from {self.zone}",
            CLEARED: f"cleared {self.zone} ({cards})", FACE_DOWN: f"turned {cards} face down in {self.zone}",
            MOVED: f"moved {cards} from {self.from_zone} to {self.zone}"}
        text = texts[self.kind]
        return f"{self.time:7.2f} s  {text}"


@dataclass(frozen=True)
class Conflict:
    """Something the tracker will not guess about: ``two_places`` or ``unsure`` (the card keeps
    changing name, ``cards`` lists the names it was read as)."""

    kind: str
    cards: tuple[str, ...]
    zones: tuple[str, ...]
    time: float

    def __str__(self) -> str:
        return f"{self.time:7.2f} s  {self.words()}"

    def words(self, zone_words: Callable[[str], str] = str) -> str:
        """The conflict in words, each zone named by ``zone_words`` (e.g. "Ann's row" for ``seat1``)."""
        cards, zones = " or ".join(self.cards), " and ".join(zone_words(z) for z in self.zones)
        return {TWO_PLACES: f"{cards} seen in two places: {zones}", UNSURE: f"unsure in {zones}: {cards}?"}[self.kind]



@dataclass
class _Track:
    """The recent history of one label in one zone."""

    hits: deque  # of (time, seen: bool)
    pos: tuple[float, float] | None = None
    last_seen: float = -math.inf
    gone_since: float | None = None
    run_start: float = -math.inf  # when the current run of sightings began (after a time unseen)
    first_seen: float = math.inf  # the first sighting of this track
    corners: tuple | None = None  # where it was last seen in the picture (px)

    def count(self) -> int:
        return sum(1 for _, seen in self.hits if seen)

    def first_hit(self) -> float:
        return next(t for t, seen in self.hits if seen)



@dataclass
class ZoneState:
    """What the tracker holds true of one zone: the cards face up there (in the order laid), those turned face down,
    where backs showed in each of the last ``n`` readings, and the picture corners of cards turned over while no
    back was read (with when their place was first seen bare)."""

    face: list[str] = field(default_factory=list)
    down: list[str] = field(default_factory=list)
    back_spots: deque = field(default_factory=deque)
    blind_down: list[tuple | None] = field(default_factory=list)
    bare_since: float | None = None


@dataclass(frozen=True)
class SightingRules:
    """How sure the tracker must be: ``k`` of the last ``n`` readings to lay a card, ``hold`` seconds unseen to
    remove it; a track moving more than ``still_mm`` between readings starts again; readings within
    ``same_spot_mm`` are the same spot; cards in ``ignore`` zones are not tracked (the deck's top card, cards held
    above the table)."""

    k: int = 3
    n: int = 5
    hold: float = 1.5
    still_mm: float = 35.0
    same_spot_mm: float = 25.0
    ignore: frozenset[str] = frozenset({Zone.DECK, Zone.ELSEWHERE})

    def __post_init__(self) -> None:
        if not 1 <= self.k <= self.n:
            raise ValueError(f"tracker needs 1 <= k <= n, got k={self.k!r}, n={self.n!r}")
        object.__setattr__(self, "ignore", frozenset(self.ignore))


class TableState:
    """The stable state of every zone, from placed sightings (:meth:`observe`), one :class:`ZoneState` a zone."""

    def __init__(self, rules: SightingRules = SightingRules()) -> None:
        self.rules = rules
        self.k, self.n, self.hold = rules.k, rules.n, rules.hold
        self.still_mm, self.same_spot_mm, self.ignore = rules.still_mm, rules.same_spot_mm, rules.ignore
        self.zones: dict[str, ZoneState] = {}
        self.changes: list[TableChange] = []
        self.conflicts: list[Conflict] = []
        self._tracks: dict[tuple[str, str], _Track] = {}
        self._open_conflicts: set[tuple] = set()
        self._closed_at: dict[tuple, float] = {}
        self._picture: tuple[np.ndarray | None, np.ndarray | None] = (None, None)

    def zone(self, name: str) -> ZoneState:
        """The state of zone ``name`` (a new, empty one the first time it is named)."""
        state = self.zones.get(name)
        if state is None:
            state = self.zones[name] = ZoneState(back_spots=deque(maxlen=self.n))
        return state

    @property
    def state(self) -> dict[str, tuple[str, ...]]:
        """Zone -> the face-up cards lying there, in the order they were laid (zones with none are left out)."""
        return {z: tuple(s.face) for z, s in self.zones.items() if s.face}

    @property
    def face_down(self) -> dict[str, tuple[str, ...]]:
        """Zone -> the cards turned face down there."""
        return {z: tuple(s.down) for z, s in self.zones.items() if s.down}

    @property
    def unsure(self) -> list[Conflict]:
        """The conflicts still open (cleared when the cards involved settle or leave)."""
        return [c for c in self.conflicts if (c.kind, c.cards, c.zones) in self._open_conflicts]

    def settled(self) -> bool:
        """Whether the last reading agrees with the stable state: every card in place seen, nothing pending."""
        for key, track in self._tracks.items():
            stable = self._is_stable(*key)
            if stable and track.gone_since is not None:
                return False
            if not stable and track.count() > 0 and key[1] != BACK:
                return False
        return True

    def observe(self, sightings: Iterable[Sighting], t: float, *, fresh: bool = True,
                picture: tuple[np.ndarray | None, np.ndarray | None] = (None, None)) -> list[TableChange]:
        """Update the state with one frame's sightings at time ``t``; return the changes this made sure of.

        ``fresh=False`` says the sightings are the last ones again for an unchanged picture: the cards in them are
        still there at ``t``, but the reading is not new evidence (the ``k`` of ``n`` count is over readings).
        ``picture`` is the frame and its small grey copy, to look at the place of a card that vanished without a
        back being read (turned over, or picked up)."""
        self._picture = picture
        sightings = list(sightings)
        seen: dict[tuple[str, str], tuple[float, float] | None] = {}
        corners: dict[tuple[str, str], tuple] = {}
        for s in sightings:
            if s.zone not in self.ignore and s.card != UNKNOWN:
                seen.setdefault((s.zone, s.card), s.pos)
                if s.corners is not None:
                    corners[(s.zone, s.card)] = s.corners
        if fresh:
            self._record(seen, corners, t)
            self._record_backs(sightings, t)
        else:
            for key in seen:
                if key in self._tracks and self._tracks[key].gone_since is None:
                    self._tracks[key].last_seen = t
        out = self._face_down(t) + self._face_down_unread(t) + self._removals(t) + self._arrivals(t)
        out.sort(key=lambda c: (c.time, _ORDER[c.kind]))
        self.changes.extend(out)
        self._close_settled(t)
        return out

    def _record(self, seen: dict, corners: dict, t: float) -> None:
        for key in set(self._tracks) | set(seen):
            track = self._tracks.get(key)
            if key in seen:
                pos = seen[key]
                if track is None or (track.pos is not None and pos is not None and
                                     math.dist(track.pos, pos) > self.still_mm and not self._is_stable(*key)):
                    track = self._tracks[key] = _Track(deque(maxlen=self.n))  # new, or moving: start again
                if track.count() == 0:
                    track.run_start = t
                track.first_seen = min(track.first_seen, t)
                track.hits.append((t, True))
                track.pos = pos if pos is not None else track.pos
                track.last_seen = t
                track.gone_since = None
                track.corners = corners.get(key, track.corners)
            else:
                track = self._tracks[key]  # not seen now: it has a track, or it would not be in the loop
                track.hits.append((t, False))
                if track.gone_since is None:
                    track.gone_since = t
                if track.count() == 0 and not self._is_stable(*key) and t - track.last_seen > self.hold:
                    del self._tracks[key]

    def _record_backs(self, sightings: list[Sighting], t: float) -> None:
        """Where backs showed in each zone over the last ``n`` frames."""
        spots: dict[str, list[tuple[float, float]]] = {}
        for s in sightings:
            if s.card == BACK and s.zone not in self.ignore and s.pos is not None:
                spots.setdefault(s.zone, []).append(s.pos)
        for zone in set(z for z, state in self.zones.items() if state.back_spots) | set(spots):
            self.zone(zone).back_spots.append(spots.get(zone, []))

    def _covered(self, corners) -> bool | None:
        """Whether something darker than the mat's paper covers most of ``corners`` (px) in the last frame: a card
        lying face down that the reader did not report. ``None`` when it cannot tell (no frame, no corners)."""
        frame, small = self._picture
        if frame is None or small is None or not corners or len(corners) < 3:
            return None
        pts = np.array(corners, np.float32)
        x0, y0 = np.maximum(np.floor(pts.min(0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(pts.max(0)).astype(int) + 1, (frame.shape[1], frame.shape[0]))
        if x1 - x0 < 2 or y1 - y0 < 2:
            return None
        crop = frame[y0:y1, x0:x1]
        gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
        mask = np.zeros(gray.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(pts - (x0, y0)).astype(np.int32), 255)
        inside = gray[mask > 0]
        if inside.size < 4:
            return None
        paper = float(np.percentile(small, 95))
        return float(np.mean(inside < 0.72 * paper)) > 0.5

    def _back_where(self, zone: str, pos: tuple[float, float] | None) -> bool:
        """Whether a back has shown at ``pos`` in ``k`` of the last ``n`` frames (the card there was turned over)."""
        if pos is None:
            return False
        frames = self.zones[zone].back_spots if zone in self.zones else ()
        return sum(any(math.dist(p, pos) <= self.same_spot_mm for p in spots) for spots in frames) >= self.k

    def _is_stable(self, zone: str, card: str) -> bool:
        state = self.zones.get(zone)
        if state is None:
            return False
        return bool(state.down) if card == BACK else card in state.face

    def _where(self, card: str) -> str | None:
        return next((z for z, state in self.zones.items() if card in state.face), None)

    def _face_down(self, t: float) -> list[TableChange]:
        """Face-up cards that vanished from a zone where backs show were turned over: at once when a back shows
        where the card lay, else once the cards have been gone ``hold`` seconds."""
        out = []
        for (zone, card), back in self._tracks.items():
            if card != BACK or back.count() == 0 or not self.zone(zone).face:
                continue
            face = self.zones[zone].face
            tracks = [self._tracks[(zone, c)] for c in face]
            gone = [c for c, tr in zip(face, tracks) if tr.count() == 0]
            if not gone or not any(self._back_where(zone, self._tracks[(zone, c)].pos) or
                                   (t - self._tracks[(zone, c)].last_seen >= self.hold and
                                    back.last_seen > self._tracks[(zone, c)].last_seen) for c in gone):
                continue
            if any(tr.gone_since is not None and tr.count() > 0 for tr in tracks):
                continue  # a card is vanishing right now: decide when it has gone or come back
            for c in gone:
                face.remove(c)
            self.zones[zone].down.extend(gone)
            when = max(self._tracks[(zone, c)].gone_since or t for c in gone)
            out.append(TableChange(FACE_DOWN, zone, tuple(gone), when, reported=t))
        return out

    def _face_down_unread(self, t: float) -> list[TableChange]:
        """Cards gone ``hold`` seconds from a zone showing no backs, whose place is still covered by something that
        is not the mat (a back the reader cannot read), were turned over too."""
        out = []
        for zone, state in self.zones.items():
            face = state.face
            back = self._tracks.get((zone, BACK))
            if not face or (back is not None and back.count() > 0):
                continue
            tracks = [self._tracks[(zone, c)] for c in face]
            due = [c for c, tr in zip(face, tracks) if tr.count() == 0 and t - tr.last_seen >= self.hold]
            if not due or any(tr.gone_since is not None and tr.count() > 0 for tr in tracks):
                continue
            if not all(self._covered(self._tracks[(zone, c)].corners) for c in due):
                continue  # some went bare: a removal, handled below
            went = min(self._tracks[(zone, c)].gone_since or t for c in due)
            turned = [c for c, tr in zip(face, tracks) if c in due or  # hidden by the same hand, turned with them
                      (tr.count() == 0 and tr.gone_since is not None and abs(tr.gone_since - went) <= 1.0 and
                       self._covered(tr.corners))]
            for c in turned:
                face.remove(c)
                state.blind_down.append(self._tracks[(zone, c)].corners)
            state.down.extend(turned)
            when = max(self._tracks[(zone, c)].gone_since or t for c in turned)
            out.append(TableChange(FACE_DOWN, zone, tuple(turned), when, reported=t))
        return out

    def _removals(self, t: float) -> list[TableChange]:
        """Cards gone for ``hold`` seconds are removed; a zone whose every card (and face-down pile) went is
        ``cleared`` in one change (``removed`` if it held a single card)."""
        out = []
        for zone, state in self.zones.items():
            face, down = state.face, state.down
            if not face and not down:
                continue
            back = self._tracks.get((zone, BACK))
            tracks = [self._tracks[(zone, c)] for c in face]
            back_absent = not down or back is None or back.count() == 0
            if down and state.blind_down and (back is None or back.count() == 0):
                bare = all(self._covered(c) is False for c in state.blind_down)
                if not bare:
                    state.bare_since = None
                    back_absent = False
                else:
                    if state.bare_since is None:
                        state.bare_since = t
                    if t - state.bare_since < self.hold / 3:
                        back_absent = False
            if all(tr.count() == 0 for tr in tracks) and back_absent:
                watched = tracks + ([back] if down and back is not None else [])
                if all(t - tr.last_seen >= self.hold for tr in watched):
                    cards = tuple(down) + tuple(face)
                    when = max((tr.gone_since or t for tr in watched), default=t)
                    out.append(TableChange(CLEARED if len(cards) > 1 else REMOVED, zone, cards, when, reported=t))
                    state.face, state.down, state.blind_down, state.bare_since = [], [], [], None
                continue
            for c, tr in list(zip(face, tracks)):
                if t - tr.last_seen >= self.hold:
                    face.remove(c)
                    out.append(TableChange(REMOVED, zone, (c,), tr.gone_since or t, reported=t))
        return out

    def _arrivals(self, t: float) -> list[TableChange]:
        out = []
        ready = sorted(((track.first_hit(), key) for key, track in self._tracks.items()
                        if key[1] != BACK and track.count() >= self.k and not self._is_stable(*key)),
                       key=lambda item: (item[0], self._tracks[item[1]].pos or (0, 0)))
        for since, (zone, card) in ready:
            track = self._tracks[(zone, card)]
            rivals = self._rivals(zone, card, track)
            if rivals:
                if any(self._tracks[(zone, r)].count() >= 2 for r in rivals):
                    self._flag(UNSURE, tuple(sorted({card, *rivals})), (zone,), t)
                continue
            elsewhere = self._where(card)
            if elsewhere is not None:
                if self._tracks[(elsewhere, card)].count() == 0:
                    self.zones[elsewhere].face.remove(card)
                    self.zone(zone).face.append(card)
                    out.append(TableChange(MOVED, zone, (card,), since, from_zone=elsewhere, reported=t))
                else:
                    self._flag(TWO_PLACES, (card,), (elsewhere, zone), t)
                continue
            self.zone(zone).face.append(card)
            out.append(TableChange(LAID, zone, (card,), self._arrived(zone, card, track), reported=t))
        return out

    def _arrived(self, zone: str, card: str, track: _Track) -> float:
        """When a card now laid first showed at its spot, under this name or another it was misread as."""
        first = track.first_seen
        for (z, other), rival in self._tracks.items():
            if z == zone and other not in (card, BACK) and not self._is_stable(z, other) and \
                    rival.pos is not None and track.pos is not None and \
                    math.dist(rival.pos, track.pos) <= self.same_spot_mm and rival.last_seen >= first - self.hold:
                first = min(first, rival.first_seen)
        return first

    def _rivals(self, zone: str, card: str, track: _Track) -> list[str]:
        """Other names read at the same spot of the same zone in the last ``n`` frames (a 6 that is sometimes a 9),
        or lying there: while there are any, the card is not laid."""
        if track.pos is None:
            return []
        out = []
        for (z, other), rival in self._tracks.items():
            if z != zone or other in (card, BACK) or rival.pos is None:
                continue
            if math.dist(rival.pos, track.pos) <= self.same_spot_mm and (rival.count() >= 1 or
                                                                         self._is_stable(z, other)):
                out.append(other)
        return out

    def _flag(self, kind: str, cards: tuple[str, ...], zones: tuple[str, ...], t: float) -> None:
        key = (kind, cards, zones)
        if key not in self._open_conflicts:
            self._open_conflicts.add(key)
            if t - self._closed_at.get(key, -math.inf) > 2 * self.hold:  # the same doubt again soon: one report
                self.conflicts.append(Conflict(kind, cards, zones, t))

    def _close_settled(self, t: float) -> None:
        for key in list(self._open_conflicts):
            if self._settles(key):
                self._open_conflicts.discard(key)
                self._closed_at[key] = t

    def _settles(self, key: tuple) -> bool:
        """Whether an open conflict is over: one name left at the spot, one place left, the card gone."""
        kind, cards, zones = key
        if kind == UNSURE:
            counts = [self._tracks[(zones[0], c)].count() if (zones[0], c) in self._tracks else 0 for c in cards]
            return sum(1 for n in counts if n >= 2) <= 1
        if kind == TWO_PLACES:
            return sum(1 for z in zones if (z, cards[0]) in self._tracks and
                       self._tracks[(z, cards[0])].count() > 0) <= 1
        return (zones[0], cards[0]) not in self._tracks or self._tracks[(zones[0], cards[0])].count() == 0
