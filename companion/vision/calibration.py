"""Calibration: the homography from mat millimetres to image pixels, found from the mat's ArUco markers or from four
corners the user marked once, kept fresh while the game runs so a bumped camera corrects itself.

>>> import numpy as np
>>> from companion.vision.zones import ZoneMap
>>> zones = ZoneMap.for_seats(2)
>>> cal = calibrate_from_corners([(100, 50), (1180, 50), (1180, 690), (100, 690)], zones, (1280, 720))
>>> [round(float(v)) for v in cal.to_image([(210, 139.5)])[0]], cal.method
([640, 370], 'manual')
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from ..errors import ConfigError
from .aruco import MarkerFinder
from .mat import Mat, make_mat, mat_for_marker_ids
from .zones import ZoneMap

__all__ = ["AutoCalibrator", "Calibration", "MarkerDetector", "calibrate_from_corners", "calibrate_from_markers",
           "default_calibration_path"]


def default_calibration_path() -> Path:
    """Where ``companion calibrate`` stores the calibration and ``companion run`` looks for it: beside the games
    (``/var/lib/companion`` for the service, see :func:`companion.paths.calibration_path`)."""
    from ..paths import calibration_path

    return calibration_path()


@dataclass
class Calibration:
    """A mat-to-image homography with the zones it applies to.

    ``method`` is ``"markers"`` or ``"manual"``; ``markers`` is how many markers were used and ``error_px`` their
    mean reprojection error; ``time`` is the frame time it was computed from.
    """

    homography: np.ndarray
    zones: ZoneMap
    image_size: tuple[int, int] | None = None
    method: str = "manual"
    markers: int = 0
    error_px: float = 0.0
    time: float | None = None
    mat: tuple[int, str] | None = None
    _inverse: np.ndarray | None = field(default=None, repr=False, compare=False)

    def to_image(self, points_mm) -> np.ndarray:
        """Mat points (mm) to image points (px), shape (n, 2)."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def to_mat(self, points_px) -> np.ndarray:
        """Image points (px) to mat points (mm), shape (n, 2)."""
        if self._inverse is None:
            self._inverse = np.linalg.inv(self.homography)
        pts = np.asarray(points_px, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self._inverse).reshape(-1, 2)

    def moved_px(self, other: Calibration) -> float:
        """How far (px, the largest over the play area's corners) ``other`` puts the mat from where this one does."""
        corners = self.zones.corners
        return float(np.abs(self.to_image(corners) - other.to_image(corners)).max())

    def to_json(self) -> dict:
        return {"version": 1, "method": self.method, "image_size": list(self.image_size or ()),
                "homography": [[float(v) for v in row] for row in self.homography],
                "mat": list(self.mat) if self.mat else None, "zones": self.zones.to_json(),
                "corners_px": [[round(float(x), 2), round(float(y), 2)] for x, y in self.to_image(self.zones.corners)]}

    @classmethod
    def from_json(cls, data: dict) -> Calibration:
        try:
            h = np.array(data["homography"], np.float64)
            zones = ZoneMap.from_json(data["zones"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"bad calibration: {exc!r}; expected homography (3x3) and zones") from None
        if h.shape != (3, 3) or not np.isfinite(h).all():
            raise ConfigError(f"bad calibration homography {data['homography']!r}: expected 3x3 finite numbers")
        size = tuple(int(v) for v in data.get("image_size") or ()) or None
        mat = tuple(data["mat"]) if data.get("mat") else None
        return cls(h, zones, size, str(data.get("method", "manual")), mat=mat)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=2) + "\n")
        return path

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """Read a calibration file; a missing or malformed file raises :class:`ConfigError` quoting the path."""
        try:
            return cls.from_json(json.loads(Path(path).read_text()))
        except (OSError, json.JSONDecodeError) as exc:
            raise ConfigError(f"cannot read calibration file {str(path)!r}: {exc}") from None


def calibrate_from_corners(corners_px, zones: ZoneMap, image_size: tuple[int, int] | None = None) -> Calibration:
    """A manual calibration: ``corners_px`` are the play area's corners in the image, clockwise from the top-left as
    seen from seat 1 (TL, TR, BR, BL)."""
    img = np.asarray(corners_px, np.float32).reshape(4, 2)
    if abs(cv2.contourArea(img)) < 100:
        raise ConfigError(f"the four corners {img.tolist()!r} do not enclose an area: click four distinct corners")
    h = cv2.getPerspectiveTransform(zones.corners, img)
    return Calibration(h.astype(np.float64), zones, tuple(image_size) if image_size else None, "manual")


class MarkerDetector:
    """Finds the mat's ArUco markers in a frame (with OpenCV 4.6's API or the current one: see :mod:`.aruco`)."""

    def __init__(self) -> None:
        self._finder = MarkerFinder()

    def detect(self, frame: np.ndarray) -> dict[int, np.ndarray]:
        """Marker id -> its four corners in the image (TL, TR, BR, BL as printed), float32 (4, 2)."""
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        return self._finder.find(gray)


_DETECTOR: MarkerDetector | None = None


def calibrate_from_markers(frame: np.ndarray, mat: Mat | None = None, *, min_markers: int = 3,
                           min_spread: float = 0.2,
                           detector: MarkerDetector | None = None, t: float | None = None) -> Calibration | None:
    """Find the mat in ``frame`` from its markers; ``None`` if fewer than ``min_markers`` of its markers are seen.

    ``mat`` defaults to the mat the marker ids belong to, so any printed mat is recognised by itself. The markers
    seen must span at least ``min_spread`` of the play area (a few markers bunched together give a poor fit).
    """
    global _DETECTOR
    if detector is None:
        detector = _DETECTOR = _DETECTOR or MarkerDetector()
    found = detector.detect(frame)
    if mat is None:
        mat = mat_for_marker_ids(found)
        if mat is None:
            return None
    ids = [i for i in found if i in mat.markers]
    if len(ids) < min_markers:
        return None
    src = np.array([mat.markers[i] for i in ids], np.float32).reshape(-1, 2)
    w, h = mat.zones.size_mm
    if cv2.contourArea(cv2.convexHull(src)) < min_spread * w * h:
        return None
    dst = np.array([found[i] for i in ids], np.float32).reshape(-1, 2)
    h, inliers = cv2.findHomography(src, dst, cv2.RANSAC, 4.0)
    if h is None or inliers is None or inliers.sum() < max(12, 0.75 * len(src)):
        return None
    h = h / h[2, 2]
    projected = cv2.perspectiveTransform(src.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2)
    error = float(np.linalg.norm(projected - dst, axis=1).mean())
    return Calibration(h, mat.zones, (frame.shape[1], frame.shape[0]), "markers", len(ids), error, t,
                       (mat.seats, mat.paper))


class AutoCalibrator:
    """Keeps a calibration fresh from the mat's markers while frames come in.

    It looks for the markers every ``interval`` seconds, and sooner (at most every ``min_interval`` s) when told the
    picture changed, so a bumped camera is corrected within a fraction of a second; when the markers are hidden (a
    hand over them) the last calibration stays. ``fallback`` (e.g. a manual calibration loaded from the file) is used
    until markers are seen; a mat-less table keeps it.
    """

    def __init__(self, mat: Mat | None = None, *, fallback: Calibration | None = None, interval: float = 3.0,
                 min_interval: float = 0.25, min_markers: int = 3) -> None:
        self.mat = mat
        self.calibration = fallback
        self.interval = interval
        self.min_interval = min_interval
        self.min_markers = min_markers
        self.last_try: float | None = None
        self.tries = 0
        self._detector = MarkerDetector()

    def update(self, frame: np.ndarray, t: float | None = None, *, changed: bool = True) -> Calibration | None:
        """Maybe re-calibrate from ``frame`` (taken at time ``t``); return the current calibration."""
        t = time.monotonic() if t is None else t
        due = self.last_try is None or t - self.last_try >= self.interval or \
            (changed and t - self.last_try >= self.min_interval)
        if due:
            self.last_try = t
            self.tries += 1
            found = calibrate_from_markers(frame, self.mat, min_markers=self.min_markers, detector=self._detector,
                                           t=t)
            if found is not None:
                self.calibration = found
                if self.mat is None and found.mat:
                    self.mat = make_mat(*found.mat)
        return self.calibration
