"""The tracker: turns the card reader's noisy frame-by-frame readings into a stable picture of each zone and a list
of timestamped table changes that the referee can trust.

It is two parts with one job each: :class:`FrameReader` decides when a frame is worth reading (the picture changed,
the camera moved, the last reading left doubts), reads it, or only the part that changed, and places what it read
on the mat; :class:`~companion.vision.sightings.TableState` turns those sightings into the stable picture and its
changes (``k`` of ``n`` readings to lay a card, ``hold`` seconds to remove it, conflicts flagged, not guessed).

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
from dataclasses import dataclass, fields
from typing import Any, Callable, Iterable

import cv2
import numpy as np

from ..table import UNKNOWN
from .calibration import AutoCalibrator, Calibration
from .detection import Detection
from .sightings import (CLEARED, FACE_DOWN, LAID, MOVED, REMOVED, TWO_PLACES, UNSURE, Conflict, Sighting,
                        SightingRules, TableChange, TableState)
from .topdown import TopDown
from .zones import ELSEWHERE, card_centres_mm

__all__ = ["CLEARED", "FACE_DOWN", "LAID", "MOVED", "REMOVED", "TWO_PLACES", "UNSURE", "Conflict", "FrameDiffer",
           "FrameReader", "ReadSchedule", "Sighting", "SightingRules", "TableChange", "TableState", "Tracker"]


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
        return bool(np.count_nonzero(cv2.absdiff(a, b) > self.threshold) > self.fraction * b.size)

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


@dataclass(frozen=True)
class ReadSchedule:
    """When a frame is read. While the picture is still, reading is skipped, except every ``recheck`` seconds while
    the last reading disagrees with the stable state (a card in place not seen, a new card not yet confirmed). While
    the picture is moving (hands), reading can wait for it to settle, at most ``max_wait`` seconds (0: no wait). A
    calibration that moves the mat by more than ``moved_px`` means the camera moved: read again. ``partial_reads``
    reads only the part of the picture that changed (plus a card's size around it) when that part is under
    ``partial_max`` of the frame, and the whole frame at least every ``full_every`` seconds; it needs a reader that
    works on any crop (the scripted reader of the simulator does not). ``top_down`` reads a frame whose calibration
    shows the mat obliquely (a camera leaning away from straight down) as a top-down picture of the mat
    (:mod:`.topdown`); it too needs a reader of pixels. Readings under ``min_confidence`` are not placed."""

    recheck: float = 0.2
    max_wait: float = 0.0
    moved_px: float = 1.5
    partial_reads: bool = False
    partial_max: float = 0.6
    full_every: float = 2.0
    min_confidence: float = 0.0
    top_down: bool = False


class FrameReader:
    """Reads the frames worth reading and places what it reads on the mat (:meth:`read`).

    ``recognize(frame) -> list[Detection]`` reads the cards of a frame; ``calibration`` is a :class:`Calibration`,
    an :class:`AutoCalibrator` (re-found from the mat's markers as frames come in) or ``None`` (every card then lies
    ``elsewhere``)."""

    def __init__(self, recognize: Callable[[np.ndarray], list[Detection]] | None,
                 calibration: Calibration | AutoCalibrator | None = None, *,
                 schedule: ReadSchedule = ReadSchedule(), differ: FrameDiffer | None = None) -> None:
        self.recognize = recognize
        self.calibrator = calibration if isinstance(calibration, AutoCalibrator) else None
        self.calibration = calibration if isinstance(calibration, Calibration) else None
        self.schedule = schedule
        self.differ = differ if differ is not None else FrameDiffer()
        self.frames = 0
        self.recognised = 0
        self.partial = 0
        self.frame: np.ndarray | None = None  # the last frame, to look at a card's place
        self.last_detections: list[Detection] = []
        self.last_sightings: list[Sighting] = []
        self._full_read_at = -math.inf
        self._recognised_at = -math.inf
        self._view: tuple[Calibration | None, tuple, tuple[int, int], TopDown | None] = (None, (), (0, 0), None)

    def read(self, frame: np.ndarray, t: float, *, settled: bool = True) -> tuple[list[Sighting], bool]:
        """The sightings of the frame taken at ``t`` and whether they are a fresh reading (``False``: the picture has
        not changed, the last sightings stand). ``settled``: whether the last reading agreed with the stable state."""
        sch = self.schedule
        self.frames += 1
        self.frame = frame
        changed = self.differ.changed(frame)
        if self.calibrator is not None:
            before = self.calibration
            self.calibration = self.calibrator.update(frame, t, changed=changed)
            if before is not None and self.calibration is not None and self.calibration is not before and \
                    self.calibration.moved_px(before) > sch.moved_px:
                changed = True  # the camera moved: cards must be placed again
        if not changed and t - self._recognised_at >= sch.recheck and not settled:
            changed = True  # the picture is still, but the last reading left doubts: read it again
        if changed and sch.max_wait and self.differ.moving and t - self._recognised_at < sch.max_wait:
            changed = False  # hands moving: wait for the picture to settle (cards at rest, no half-seen hands)
        if changed or self.recognize is None:
            self._recognised_at = t
            self.recognised += 1
            box = self.differ.changed_box(frame.shape) if sch.partial_reads else None
            if self.recognize is None:
                self.last_detections = []
            elif box is None or t - self._full_read_at >= sch.full_every or \
                    not self._read_part(frame, box):
                self._full_read_at = t
                self.last_detections = self.recognize_frame(frame)
            self.differ.read_now()
            self.last_sightings = self.place_all(self.last_detections)
        return self.last_sightings, changed

    def _read_part(self, frame: np.ndarray, box: tuple[int, int, int, int]) -> bool:
        """Read only the part of ``frame`` that changed (with a card's size around it), keeping the last reading
        elsewhere. False when the part is most of the frame (then the whole frame is read)."""
        h, w = frame.shape[:2]
        margin = self._card_px(w)
        x0, y0, x1, y1 = box
        cx0, cy0, cx1, cy1 = max(x0 - margin, 0), max(y0 - margin, 0), min(x1 + margin, w), min(y1 + margin, h)
        if (cx1 - cx0) * (cy1 - cy0) > self.schedule.partial_max * w * h:
            return False
        half = margin // 2  # new readings count where whole cards fit in the part read; old ones elsewhere
        ix0, iy0 = (cx0 + half if cx0 > 0 else 0), (cy0 + half if cy0 > 0 else 0)
        ix1, iy1 = (cx1 - half if cx1 < w else w), (cy1 - half if cy1 < h else h)

        def inner(d: Detection) -> bool:
            x, y = d.center
            return ix0 <= x <= ix1 and iy0 <= y <= iy1

        if self.recognize is None:
            return False
        fresh = [Detection(d.card, d.confidence, tuple((x + cx0, y + cy0) for x, y in d.corners), d.whole_card,
                           d.extra) for d in self.recognize_frame(frame[cy0:cy1, cx0:cx1], (cx0, cy0))]
        kept = {d.card for d in fresh if inner(d)}
        if any(inner(d) and d.card not in kept for d in self.last_detections):
            # a card read last time is not in the part read now: gone, covered, or cut badly by the part's edge.
            # Only the whole frame may say a card has gone (a part read for the 2 s between whole ones outlasts
            # the tracker's hold, and a card it missed was taken off the table)
            return False
        self.last_detections = [d for d in self.last_detections if not inner(d)] + [d for d in fresh if inner(d)]
        self.partial += 1
        return True

    def recognize_frame(self, frame: np.ndarray, origin: tuple[int, int] = (0, 0)) -> list[Detection]:
        """The cards read in ``frame``, or in the part of the frame whose top-left corner is at ``origin``: read
        top-down where the schedule asks for it and the calibration shows the mat obliquely (:mod:`.topdown`)."""
        if self.recognize is None:
            return []
        view = self._top_down(frame.shape, origin)
        return view.read(self.recognize, frame) if view is not None else list(self.recognize(frame))

    def _top_down(self, shape: tuple[int, ...], origin: tuple[int, int]) -> TopDown | None:
        """The top-down picture of the mat for a frame (or part) of ``shape`` at ``origin``, kept while the
        calibration stays the same; None where the view is read as it is."""
        cal = self.calibration
        if not self.schedule.top_down or cal is None:
            return None
        seen, size, at, view = self._view
        if seen is not cal or size != shape[:2] or at != origin:
            shift = np.array([[1, 0, -origin[0]], [0, 1, -origin[1]], [0, 0, 1]], np.float64)
            view = TopDown.for_view(shift @ cal.homography, (shape[1], shape[0]), (0.0, 0.0, *cal.zones.size_mm))
            self._view = (cal, shape[:2], origin, view)
        return view

    def _card_px(self, width: int) -> int:
        """About one card's diagonal in pixels (from the calibration), the margin kept around a changed part."""
        if self.calibration is None:
            return int(0.2 * width)
        (ax, ay), (bx, by) = self.calibration.to_image([(0, 0), (100, 0)])
        return int(1.1 * 108 * math.hypot(bx - ax, by - ay) / 100)

    def place_all(self, detections: list[Detection]) -> list[Sighting]:
        """Sightings for ``detections`` through the current calibration (all ``elsewhere`` without one)."""
        dets = [d for d in detections if d.card != UNKNOWN and d.confidence >= self.schedule.min_confidence]
        if not dets:
            return []
        if self.calibration is None:
            return [Sighting(ELSEWHERE, d.card, None, d.confidence) for d in dets]
        pts = card_centres_mm(dets, self.calibration)
        zones = self.calibration.zones
        return [Sighting(zones.zone_at(float(x), float(y)), d.card, (float(x), float(y)), d.confidence,
                         tuple(d.corners)) for d, (x, y) in zip(dets, pts)]


_RULES = {f.name for f in fields(SightingRules)}
_SCHEDULE = {f.name for f in fields(ReadSchedule)}


class Tracker:
    """A :class:`FrameReader` feeding a :class:`TableState`: frames in (:meth:`process`), or already placed
    sightings (:meth:`observe`); the stable picture, its changes and conflicts out.

    Options are those of :class:`SightingRules` (``k``, ``n``, ``hold``, ``still_mm``, ``same_spot_mm``,
    ``ignore``) and of :class:`ReadSchedule` (``recheck``, ``max_wait``, ``moved_px``, ``partial_reads``,
    ``partial_max``, ``full_every``, ``min_confidence``, ``top_down``), given by name.
    """

    def __init__(self, recognize: Callable[[np.ndarray], list[Detection]] | None,
                 calibration: Calibration | AutoCalibrator | None = None, *, differ: FrameDiffer | None = None,
                 **options: Any) -> None:
        unknown = set(options) - _RULES - _SCHEDULE
        if unknown:
            raise TypeError(f"Tracker got unknown option(s) {', '.join(sorted(unknown))}")
        rules = SightingRules(**{k: v for k, v in options.items() if k in _RULES})
        schedule = ReadSchedule(**{k: v for k, v in options.items() if k in _SCHEDULE})
        self.reader = FrameReader(recognize, calibration, schedule=schedule, differ=differ)
        self.table = TableState(rules)

    # -- frames in -----------------------------------------------------------------------------------------------
    def process(self, frame: np.ndarray, t: float) -> list[TableChange]:
        """Look at one frame taken at time ``t``: read it (unless the picture has not changed), place, update."""
        sightings, fresh = self.reader.read(frame, t, settled=self.table.settled())
        return self.table.observe(sightings, t, fresh=fresh, picture=(frame, self.reader.differ.small))

    def observe(self, sightings: Iterable[Sighting], t: float, *, fresh: bool = True) -> list[TableChange]:
        """Update the state with one frame's placed sightings at time ``t`` (see :meth:`TableState.observe`)."""
        return self.table.observe(sightings, t, fresh=fresh,
                                  picture=(self.reader.frame, self.reader.differ.small))

    # -- the stable picture --------------------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, tuple[str, ...]]:
        """Zone -> the face-up cards lying there, in the order they were laid."""
        return self.table.state

    @property
    def face_down(self) -> dict[str, tuple[str, ...]]:
        """Zone -> the cards turned face down there."""
        return self.table.face_down

    @property
    def changes(self) -> list[TableChange]:
        """Every change so far."""
        return self.table.changes

    @property
    def conflicts(self) -> list[Conflict]:
        """Every conflict flagged so far."""
        return self.table.conflicts

    @property
    def unsure(self) -> list[Conflict]:
        """The conflicts still open."""
        return self.table.unsure

    @property
    def k(self) -> int:
        return self.table.k

    # -- the reading ---------------------------------------------------------------------------------------------
    @property
    def calibration(self) -> Calibration | None:
        """The calibration in use (``None`` until the mat is found)."""
        return self.reader.calibration

    @property
    def calibrator(self) -> AutoCalibrator | None:
        """The calibrator that re-finds the mat as frames come in (``None`` with a fixed calibration)."""
        return self.reader.calibrator

    @property
    def differ(self) -> FrameDiffer:
        return self.reader.differ

    @differ.setter
    def differ(self, differ: FrameDiffer) -> None:
        self.reader.differ = differ

    @property
    def frames(self) -> int:
        """Frames looked at."""
        return self.reader.frames

    @property
    def recognised(self) -> int:
        """Frames read (the others were unchanged)."""
        return self.reader.recognised

    @property
    def partial(self) -> int:
        """Frames of which only the part that changed was read."""
        return self.reader.partial

    @property
    def frame(self) -> np.ndarray | None:
        """The last frame looked at (for a view of what the camera sees)."""
        return self.reader.frame

    @property
    def last_detections(self) -> list[Detection]:
        return self.reader.last_detections
