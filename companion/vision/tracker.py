"""The tracker: turns the card reader's noisy frame-by-frame sightings into a stable picture of each zone and a list of
timestamped table changes that the referee can trust.

- A card counts as present once it has been read the same way, at the same spot, in ``k`` of the last ``n`` frames.
- A card that disappears stays for ``hold`` seconds (a hand passing over it); after that it is removed.
- Changes: ``laid`` (a card in a zone), ``removed``, ``cleared`` (every card of a zone gone at once), ``face_down``
  (the cards of a zone turned over, e.g. after a 31), ``moved`` (slid from one zone into another).
- Conflicts are flagged, not guessed: the same card in two places; a card that keeps changing name (a 6 read as a 9) is ``unsure`` until it settles.
- When the picture has not changed (:class:`FrameDiffer`), recognition is skipped and the last sightings are reused.

>>> from companion.vision.detection import Detection
>>> tracker = Tracker(recognize=None, k=2, n=3, hold=1.0)
>>> seen = [Sighting("seat1", "5H", (50.0, 60.0))]
>>> tracker.observe(seen, 0.0), tracker.observe(seen, 0.1)
([], [TableChange('laid', 'seat1', ('5H',), 0.0, reported=0.1)])
>>> tracker.state
{'seat1': ('5H',)}
>>> [str(c) for c in tracker.observe([], 0.2) + tracker.observe([], 1.3)]
['   0.20 s  removed 5H from seat1']
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Iterable

import cv2
import numpy as np

from .calibration import AutoCalibrator, Calibration
from .detection import BACK, UNKNOWN, Detection
from .zones import ELSEWHERE

__all__ = ["Conflict", "FrameDiffer", "Sighting", "TableChange", "Tracker"]

LAID, REMOVED, CLEARED, FACE_DOWN, MOVED = "laid", "removed", "cleared", "face_down", "moved"
TWO_PLACES, UNSURE = "two_places", "unsure"
_ORDER = {REMOVED: 0, CLEARED: 0, FACE_DOWN: 0, MOVED: 1, LAID: 2}


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
        return f"TableChange({self.kind!r}, {self.zone!r}, {self.cards!r}, {round(self.time, 3)!r}{extra}, " \
               f"reported={self.reported if self.reported is None else round(self.reported, 3)!r})"

    def __str__(self) -> str:
        cards = " ".join(self.cards)
        text = {LAID: f"laid {cards} in {self.zone}", REMOVED: f"removed {cards} from {self.zone}",
                CLEARED: f"cleared {self.zone} ({cards})", FACE_DOWN: f"turned {cards} face down in {self.zone}",
                MOVED: f"moved {cards} from {self.from_zone} to {self.zone}"}[self.kind]
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
        cards, zones = " or ".join(self.cards), " and ".join(self.zones)
        return {TWO_PLACES: f"{self.time:7.2f} s  {cards} seen in two places: {zones}",
                UNSURE: f"{self.time:7.2f} s  unsure in {zones}: {cards}?"}[self.kind]


class FrameDiffer:
    """Says whether a frame differs from the last one that was read, and whether the picture is moving.

    Frames are compared gray, shrunk to ``size`` and blurred, so sensor noise does not count: a frame has *changed*
    if more than ``fraction`` of its pixels moved by more than ``threshold`` levels since the last frame that was read
    (:meth:`read_now`), and is *moving* if as much changed since the frame just before it (a hand in motion).
    """

    def __init__(self, *, size=(160, 90), threshold: int = 14, fraction: float = 0.002) -> None:
        self.size = size
        self.threshold = threshold
        self.fraction = fraction
        self.moving = False
        self._ref: np.ndarray | None = None
        self._prev: np.ndarray | None = None
        self._small: np.ndarray | None = None

    def changed_box(self, shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
        """The box (x0, y0, x1, y1), in the pixels of a frame of ``shape``, holding every change since the last frame
        read; ``None`` when there is no reference yet."""
        if self._ref is None or self._small is None or self._ref.shape != self._small.shape:
            return None
        ys, xs = np.nonzero(cv2.absdiff(self._small, self._ref) > self.threshold)
        if xs.size == 0:
            return None
        kx, ky = shape[1] / self._small.shape[1], shape[0] / self._small.shape[0]
        return (int(xs.min() * kx), int(ys.min() * ky), int((xs.max() + 1) * kx), int((ys.max() + 1) * ky))

    def _differs(self, a: np.ndarray | None, b: np.ndarray) -> bool:
        if a is None or a.shape != b.shape:
            return True
        return np.count_nonzero(cv2.absdiff(a, b) > self.threshold) > self.fraction * b.size

    def changed(self, frame: np.ndarray) -> bool:
        """Whether ``frame`` differs from the last frame read; also sets :attr:`moving`."""
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        small = cv2.GaussianBlur(cv2.resize(gray, self.size, interpolation=cv2.INTER_AREA), (3, 3), 0)
        self.moving = self._prev is not None and self._differs(self._prev, small)
        self._prev = self._small = small
        return self._differs(self._ref, small)

    @property
    def small(self) -> np.ndarray | None:
        """The last frame as compared: gray, shrunk and blurred."""
        return self._small

    def read_now(self) -> None:
        """The frame last given to :meth:`changed` is being read: later frames are compared with it."""
        self._ref = self._small

    def reset(self) -> None:
        self._ref = self._prev = self._small = None


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


class Tracker:
    """The stable state of every zone, from frames (:meth:`process`) or from placed sightings (:meth:`observe`).

    ``recognize(frame) -> list[Detection]`` reads the cards of a frame; ``calibration`` is a :class:`Calibration`,
    an :class:`AutoCalibrator` (re-found from the mat's markers as frames come in) or ``None`` (every card then lies
    ``elsewhere``). Cards in ``ignore`` zones are not tracked (the deck's top card, cards held above the table).
    While the picture is still, recognition is skipped, except every ``recheck`` seconds while the last reading
    disagrees with the stable state (a card in place not seen, a new card not yet confirmed). While the picture is
    moving (hands), reading can wait for it to settle, at most ``max_wait`` seconds (0, the default: no wait).
    ``partial_reads=True`` reads only the part of the picture that changed (plus a card's size around it) when that
    part is under ``partial_max`` of the frame, and the whole frame at least every ``full_every`` seconds; it needs
    a reader that works on any crop (the scripted reader of the simulator does not).
    """

    def __init__(self, recognize: Callable[[np.ndarray], list[Detection]] | None,
                 calibration: Calibration | AutoCalibrator | None = None, *, k: int = 3, n: int = 5,
                 hold: float = 1.5, still_mm: float = 35.0, same_spot_mm: float = 25.0,
                 ignore: Iterable[str] = ("deck", ELSEWHERE), differ: FrameDiffer | None = None,
                 min_confidence: float = 0.0, recheck: float = 0.2,
                 max_wait: float = 0.0, moved_px: float = 1.5, partial_reads: bool = False,
                 partial_max: float = 0.6, full_every: float = 2.0) -> None:
        if not 1 <= k <= n:
            raise ValueError(f"tracker needs 1 <= k <= n, got k={k!r}, n={n!r}")
        self.recognize = recognize
        self.calibrator = calibration if isinstance(calibration, AutoCalibrator) else None
        self.calibration = calibration if isinstance(calibration, Calibration) else None
        self.k, self.n, self.hold = k, n, hold
        self.still_mm, self.same_spot_mm = still_mm, same_spot_mm
        self.ignore = frozenset(ignore)
        self.differ = differ if differ is not None else FrameDiffer()
        self.min_confidence = min_confidence
        self.recheck = recheck
        self.max_wait = max_wait
        self.moved_px = moved_px
        self.partial_reads, self.partial_max, self.full_every = partial_reads, partial_max, full_every
        self.partial = 0
        self._full_read_at = -math.inf
        self._recognised_at = -math.inf
        self.changes: list[TableChange] = []
        self.conflicts: list[Conflict] = []
        self.frames = 0
        self.recognised = 0
        self.last_detections: list[Detection] = []
        self.last_sightings: list[Sighting] = []
        self._tracks: dict[tuple[str, str], _Track] = {}
        self._stable: dict[str, list[str]] = {}  # zone -> cards face up, in the order laid
        self._down: dict[str, list[str]] = {}  # zone -> cards turned face down there
        self._open_conflicts: set[tuple] = set()
        self._closed_at: dict[tuple, float] = {}
        self._back_spots: dict[str, deque] = {}
        self._corners: dict[tuple[str, str], tuple] = {}
        self._frame: np.ndarray | None = None  # the last frame, to look at a card's place
        self._blind_down: dict[str, list[tuple]] = {}  # zone -> picture corners of cards turned without backs seen
        self._bare_since: dict[str, float] = {}

    # -- the stable picture ------------------------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, tuple[str, ...]]:
        """Zone -> the face-up cards lying there, in the order they were laid (zones with none are left out)."""
        return {z: tuple(cards) for z, cards in self._stable.items() if cards}

    @property
    def face_down(self) -> dict[str, tuple[str, ...]]:
        """Zone -> the cards turned face down there."""
        return {z: tuple(cards) for z, cards in self._down.items() if cards}

    @property
    def unsure(self) -> list[Conflict]:
        """The conflicts still open (cleared when the cards involved settle or leave)."""
        return [c for c in self.conflicts if (c.kind, c.cards, c.zones) in self._open_conflicts]

    # -- frames in -----------------------------------------------------------------------------------------------
    def process(self, frame: np.ndarray, t: float) -> list[TableChange]:
        """Look at one frame taken at time ``t``: recognise (unless the picture has not changed), place, update."""
        self.frames += 1
        self._frame = frame
        changed = self.differ.changed(frame)
        if self.calibrator is not None:
            before = self.calibration
            self.calibration = self.calibrator.update(frame, t, changed=changed)
            if before is not None and self.calibration is not before and \
                    self.calibration.moved_px(before) > self.moved_px:
                changed = True  # the camera moved: cards must be placed again
        if not changed and t - self._recognised_at >= self.recheck and not self._settled():
            changed = True  # the picture is still, but the last reading left doubts: read it again
        if changed and self.max_wait and self.differ.moving and t - self._recognised_at < self.max_wait:
            changed = False  # hands moving: wait for the picture to settle (cards at rest, no half-seen hands)
        if changed or self.recognize is None:
            self._recognised_at = t
            self.recognised += 1
            box = self.differ.changed_box(frame.shape) if self.partial_reads else None
            if self.recognize is None:
                self.last_detections = []
            elif box is None or t - self._full_read_at >= self.full_every or \
                    not self._read_part(frame, box):
                self._full_read_at = t
                self.last_detections = list(self.recognize(frame))
            self.differ.read_now()
            self.last_sightings = self.place_all(self.last_detections)
        return self.observe(self.last_sightings, t, fresh=changed)

    def _read_part(self, frame: np.ndarray, box: tuple[int, int, int, int]) -> bool:
        """Read only the part of ``frame`` that changed (with a card's size around it), keeping the last reading
        elsewhere. False when the part is most of the frame (then the whole frame is read)."""
        h, w = frame.shape[:2]
        margin = self._card_px(w)
        x0, y0, x1, y1 = box
        cx0, cy0, cx1, cy1 = max(x0 - margin, 0), max(y0 - margin, 0), min(x1 + margin, w), min(y1 + margin, h)
        if (cx1 - cx0) * (cy1 - cy0) > self.partial_max * w * h:
            return False
        half = margin // 2  # new readings count where whole cards fit in the part read; old ones elsewhere
        ix0, iy0 = (cx0 + half if cx0 > 0 else 0), (cy0 + half if cy0 > 0 else 0)
        ix1, iy1 = (cx1 - half if cx1 < w else w), (cy1 - half if cy1 < h else h)

        def inner(d: Detection) -> bool:
            x, y = d.center
            return ix0 <= x <= ix1 and iy0 <= y <= iy1

        fresh = [Detection(d.card, d.confidence, tuple((x + cx0, y + cy0) for x, y in d.corners), d.whole_card,
                           d.extra) for d in self.recognize(frame[cy0:cy1, cx0:cx1])]
        self.last_detections = [d for d in self.last_detections if not inner(d)] + [d for d in fresh if inner(d)]
        self.partial += 1
        return True

    def _card_px(self, width: int) -> int:
        """About one card's diagonal in pixels (from the calibration), the margin kept around a changed part."""
        if self.calibration is None:
            return int(0.2 * width)
        (ax, ay), (bx, by) = self.calibration.to_image([(0, 0), (100, 0)])
        return int(1.1 * 108 * math.hypot(bx - ax, by - ay) / 100)

    def _settled(self) -> bool:
        """Whether the last reading agrees with the stable state: every card in place seen, nothing pending."""
        for key, track in self._tracks.items():
            stable = self._is_stable(*key)
            if stable and track.gone_since is not None:
                return False
            if not stable and track.count() > 0 and key[1] != BACK:
                return False
        return True

    def place_all(self, detections: list[Detection]) -> list[Sighting]:
        """Sightings for ``detections`` through the current calibration (all ``elsewhere`` without one)."""
        dets = [d for d in detections if d.card != UNKNOWN and d.confidence >= self.min_confidence]
        if not dets:
            return []
        if self.calibration is None:
            return [Sighting(ELSEWHERE, d.card, None, d.confidence) for d in dets]
        pts = self.calibration.to_mat([d.center for d in dets])
        zones = self.calibration.zones
        return [Sighting(zones.zone_at(float(x), float(y)), d.card, (float(x), float(y)), d.confidence,
                         tuple(d.corners)) for d, (x, y) in zip(dets, pts)]

    # -- the state machine -----------------------------------------------------------------------------------------
    def observe(self, sightings: Iterable[Sighting], t: float, *, fresh: bool = True) -> list[TableChange]:
        """Update the state with one frame's sightings at time ``t``; return the changes this made sure of.

        ``fresh=False`` says the sightings are the last ones again for an unchanged picture: the cards in them are
        still there at ``t``, but the reading is not new evidence (the ``k`` of ``n`` count is over readings)."""
        sightings = list(sightings)
        seen: dict[tuple[str, str], tuple[float, float] | None] = {}
        for s in sightings:
            if s.zone not in self.ignore and s.card != UNKNOWN:
                seen.setdefault((s.zone, s.card), s.pos)
                if s.corners is not None:
                    self._corners[(s.zone, s.card)] = s.corners
        if fresh:
            self._record(seen, t)
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

    def _record(self, seen: dict, t: float) -> None:
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
                track.corners = self._corners.get(key, track.corners)
            else:
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
        for zone in set(self._back_spots) | set(spots):
            self._back_spots.setdefault(zone, deque(maxlen=self.n)).append(spots.get(zone, []))

    def _covered(self, corners) -> bool | None:
        """Whether something darker than the mat's paper covers most of ``corners`` (px) in the last frame: a card
        lying face down that the reader did not report. ``None`` when it cannot tell (no frame, no corners)."""
        frame, small = self._frame, self.differ.small
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
        frames = self._back_spots.get(zone, ())
        return sum(any(math.dist(p, pos) <= self.same_spot_mm for p in spots) for spots in frames) >= self.k

    def _is_stable(self, zone: str, card: str) -> bool:
        if card == BACK:
            return bool(self._down.get(zone))
        return card in self._stable.get(zone, ())

    def _where(self, card: str) -> str | None:
        return next((z for z, cards in self._stable.items() if card in cards), None)

    def _face_down(self, t: float) -> list[TableChange]:
        """Face-up cards that vanished from a zone where backs show were turned over: at once when a back shows
        where the card lay, else once the cards have been gone ``hold`` seconds."""
        out = []
        for (zone, card), back in self._tracks.items():
            if card != BACK or back.count() == 0 or not self._stable.get(zone):
                continue
            face = self._stable[zone]
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
            self._down.setdefault(zone, []).extend(gone)
            when = max(self._tracks[(zone, c)].gone_since or t for c in gone)
            out.append(TableChange(FACE_DOWN, zone, tuple(gone), when, reported=t))
        return out

    def _face_down_unread(self, t: float) -> list[TableChange]:
        """Cards gone ``hold`` seconds from a zone showing no backs, whose place is still covered by something that
        is not the mat (a back the reader cannot read), were turned over too."""
        out = []
        for zone, face in self._stable.items():
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
                self._blind_down.setdefault(zone, []).append(self._tracks[(zone, c)].corners)
            self._down.setdefault(zone, []).extend(turned)
            when = max(self._tracks[(zone, c)].gone_since or t for c in turned)
            out.append(TableChange(FACE_DOWN, zone, tuple(turned), when, reported=t))
        return out

    def _removals(self, t: float) -> list[TableChange]:
        """Cards gone for ``hold`` seconds are removed; a zone whose every card (and face-down pile) went is
        ``cleared`` in one change (``removed`` if it held a single card)."""
        out = []
        for zone in set(self._stable) | set(self._down):
            face, down = self._stable.get(zone, []), self._down.get(zone, [])
            if not face and not down:
                continue
            back = self._tracks.get((zone, BACK))
            tracks = [self._tracks[(zone, c)] for c in face]
            back_absent = not down or back is None or back.count() == 0
            if down and self._blind_down.get(zone) and (back is None or back.count() == 0):
                bare = all(self._covered(c) is False for c in self._blind_down[zone])
                if not bare:
                    self._bare_since.pop(zone, None)
                    back_absent = False
                elif t - self._bare_since.setdefault(zone, t) < self.hold / 3:
                    back_absent = False
            if all(tr.count() == 0 for tr in tracks) and back_absent:
                watched = tracks + ([back] if down and back is not None else [])
                if all(t - tr.last_seen >= self.hold for tr in watched):
                    cards = tuple(down) + tuple(face)
                    when = max((tr.gone_since or t for tr in watched), default=t)
                    out.append(TableChange(CLEARED if len(cards) > 1 else REMOVED, zone, cards, when, reported=t))
                    self._stable[zone] = []
                    self._down[zone] = []
                    self._blind_down.pop(zone, None)
                    self._bare_since.pop(zone, None)
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
                    self._stable[elsewhere].remove(card)
                    self._stable.setdefault(zone, []).append(card)
                    out.append(TableChange(MOVED, zone, (card,), since, from_zone=elsewhere, reported=t))
                else:
                    self._flag(TWO_PLACES, (card,), (elsewhere, zone), t)
                continue
            self._stable.setdefault(zone, []).append(card)
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
