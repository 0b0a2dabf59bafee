"""Reading a tilted camera's frame as if the camera looked straight down on the mat.

A camera that is not straight above the table sees the mat foreshortened: its far side small, its cards squeezed
along the line of sight. The card reader's glyph shapes and sizes are those of an upright card seen from above, and
it loses most cards when a view squeezes them to 0.7 of their height (a camera about 45 degrees off vertical).
Where the mat is calibrated, the homography says exactly how the table is squeezed, so the frame is warped back to
a top-down view of the mat, read there, and every card's corners are mapped back to the frame, where the rest of
the tracker expects them.

>>> import numpy as np
>>> straight = np.diag([3.0, 3.0, 1.0])  # 3 px per mm, straight down: nothing to do
>>> TopDown.for_view(straight, (1280, 720), (0, 0, 400, 230)) is None
True
>>> leaning = np.array([[3.0, 0, 0], [0, 2.0, 0], [0, 0, 1]])  # depth squeezed to two thirds
>>> view = TopDown.for_view(leaning, (1280, 720), (0, 0, 400, 230))
>>> round(obliqueness(leaning, (0, 0, 400, 230)), 2), view.size  # the mat's depth at 3 px per mm too, and below it
(0.67, (1280, 870))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .detection import Detection

#: A view is read top-down when its :func:`obliqueness` is below this: somewhere over the mat the picture squeezes
#: one direction to less than this share of the other (1 for a camera straight above the mat; 0.9 about 26 degrees
#: off vertical; the simulated table's keystone alone 0.86). Read top-down the simulated games' camera missed fewer
#: card-looks (5 against 27), and straightening wins on every measure taken but the demo games at 0.7, whose cards
#: lie square to the camera (27 against 19). (It was 0.8 for a while: on OpenCV 4.6 a three-hand game went wrong
#: at 0.9. The cause was a lead card read late and the plays after it refused, mended in the referee.)
OBLIQUE = 0.9
#: The top-down view covers the mat and this much of the table round it (mm): a card laid at a zone's edge, or just
#: off the mat, is still read whole.
MARGIN_MM = 60.0
#: The top-down view is at most this many pixels on its longer side (the reader shrinks a larger picture anyway).
MAX_SIDE = 2000


def jacobians(homography: np.ndarray, points_mm: np.ndarray) -> np.ndarray:
    """The derivative (N x 2 x 2, pixels per mm) of the map ``homography`` (mm -> image px) at each of
    ``points_mm`` (N x 2): how a small step on the table shows in the picture there."""
    h = np.asarray(homography, np.float64)
    p = np.column_stack([points_mm, np.ones(len(points_mm))]) @ h.T
    w = p[:, 2:3]
    uv = p[:, :2] / w
    j = np.empty((len(p), 2, 2))
    for r in range(2):
        j[:, r, :] = (h[r, :2][None, :] - uv[:, r:r + 1] * h[2, :2][None, :]) / w
    return j


def _samples(extent_mm) -> np.ndarray:
    x0, y0, x1, y1 = extent_mm
    xs, ys = np.linspace(x0, x1, 5), np.linspace(y0, y1, 5)
    return np.array([(x, y) for y in ys for x in xs], np.float64)


def obliqueness(homography: np.ndarray, extent_mm) -> float:
    """How much the picture squeezes the mat ``extent_mm`` (x0, y0, x1, y1) in one direction against the other: the
    smallest, over the mat, of the picture's scale (pixels per mm) across the line of sight divided by its scale
    along it. 1 for a camera straight above the mat; about the cosine of the camera's angle from vertical. (A far
    side merely smaller, as a slight keystone makes it, keeps its cards' shape and counts for nothing here.)"""
    s = np.linalg.svd(jacobians(homography, _samples(extent_mm)), compute_uv=False)
    return float((s[:, 1] / s[:, 0]).min())


@dataclass(frozen=True)
class TopDown:
    """A top-down picture of the table: ``size`` (w, h) pixels whose map to the frame is ``to_frame`` (3x3)."""

    to_frame: np.ndarray
    size: tuple[int, int]

    @classmethod
    def for_view(cls, homography: np.ndarray, image_size: tuple[int, int], extent_mm, *,
                 oblique: float = OBLIQUE) -> TopDown | None:
        """The top-down picture of the mat ``extent_mm`` (x0, y0, x1, y1; with :data:`MARGIN_MM` round it, as far
        as an ``image_size`` (w, h) picture shows it) seen through ``homography`` (mm -> image px), at the frame's
        scale at the mat's middle; ``None`` where the view is even enough to read as it is (:func:`obliqueness` at
        least ``oblique``) or shows no table."""
        x0, y0, x1, y1 = extent_mm
        if obliqueness(homography, extent_mm) >= oblique:
            return None
        area = (x0 - MARGIN_MM, y0 - MARGIN_MM, x1 + MARGIN_MM, y1 + MARGIN_MM)
        # only the part of the table the picture shows (a tilted camera may see past the table's edge: the horizon)
        w, h = image_size
        corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64) @ np.linalg.inv(homography).T
        if (corners[:, 2] * np.sign(np.linalg.det(homography)) > 0).all():
            seen = corners[:, :2] / corners[:, 2:]
            area = (max(area[0], seen[:, 0].min()), max(area[1], seen[:, 1].min()),
                    min(area[2], seen[:, 0].max()), min(area[3], seen[:, 1].max()))
        if area[2] - area[0] < 1 or area[3] - area[1] < 1:
            return None
        # the pixels per mm the frame has at the mat's middle, across the line of sight (the direction it does not
        # squeeze): a card there keeps its width, the far side is enlarged as much as the near side is shrunk, and
        # a part of the frame read alone gets the same scale as the whole (the same sizes, the same size floors)
        middle = np.array([[(x0 + x1) / 2, (y0 + y1) / 2]])
        scale = float(np.linalg.svd(jacobians(homography, middle), compute_uv=False)[0, 0])
        scale = min(scale, MAX_SIDE / max(area[2] - area[0], area[3] - area[1]))
        size = (max(1, round((area[2] - area[0]) * scale)), max(1, round((area[3] - area[1]) * scale)))
        to_mm = np.array([[1 / scale, 0, area[0]], [0, 1 / scale, area[1]], [0, 0, 1]])
        return cls(np.asarray(homography, np.float64) @ to_mm, size)

    def warp(self, frame: np.ndarray) -> np.ndarray:
        """The top-down picture cut from ``frame`` (what lies outside the frame is black, as a dark table)."""
        return cv2.warpPerspective(frame, self.to_frame, self.size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_CONSTANT)

    def to_frame_points(self, points) -> np.ndarray:
        """Points of the top-down picture (N x 2) in the frame."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.to_frame).reshape(-1, 2)

    def read(self, recognize: Callable[[np.ndarray], list[Detection]], frame: np.ndarray) -> list[Detection]:
        """``recognize`` run on the top-down picture of ``frame``, each card's corners given in the frame."""
        out = []
        for d in recognize(self.warp(frame)):
            pts = self.to_frame_points(d.corners)
            out.append(replace(d, corners=tuple((float(x), float(y)) for x, y in pts)))
        return out
