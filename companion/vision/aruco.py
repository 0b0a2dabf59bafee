"""ArUco markers through either OpenCV API: the one Raspberry Pi OS Bookworm ships (4.6) and the current one.

OpenCV 4.7 moved ArUco detection into the main module and changed its Python API: a ``cv2.aruco.ArucoDetector``
object, ``DetectorParameters()`` built directly, and ``generateImageMarker``. OpenCV 4.6 (apt's ``python3-opencv``
on Bookworm, which the Pi's venv uses through ``--system-site-packages``) only has the older free functions:
``DetectorParameters_create()``, ``detectMarkers(image, dictionary, parameters=...)`` and ``drawMarker``. Calling the
new API there raises ``AttributeError`` (or crashes inside OpenCV), so every ArUco call in the companion goes
through this module, which picks the API by what the installed OpenCV has, not by its version string.

>>> marker = marker_image(dictionary(), 7, 6)
>>> marker.shape, marker.dtype.name, sorted({int(v) for v in marker.ravel()})
((6, 6), 'uint8', [0, 255])
>>> ids = MarkerFinder().find(cv2.copyMakeBorder(cv2.resize(marker, (60, 60), interpolation=cv2.INTER_NEAREST),
...                                             20, 20, 20, 20, cv2.BORDER_CONSTANT, value=255))
>>> list(ids)
[7]
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["DICT", "NEW_API", "MarkerFinder", "dictionary", "marker_image"]

#: The dictionary every printed mat uses: 4x4 bits, 250 ids.
DICT = cv2.aruco.DICT_4X4_250

#: True with OpenCV >= 4.7's object API (``ArucoDetector``), False with 4.6's free functions.
NEW_API = hasattr(cv2.aruco, "ArucoDetector")


def dictionary():
    """The mat's marker dictionary (``cv2.aruco.Dictionary``)."""
    return cv2.aruco.getPredefinedDictionary(DICT)


def marker_image(dictionary, marker_id: int, side: int) -> np.ndarray:
    """Marker ``marker_id`` as a ``side`` x ``side`` grayscale image (black 0, white 255), border included."""
    if hasattr(cv2.aruco, "generateImageMarker"):
        return cv2.aruco.generateImageMarker(dictionary, marker_id, side)
    return cv2.aruco.drawMarker(dictionary, marker_id, side)  # type: ignore[attr-defined]  # OpenCV 4.6


def _parameters(subpixel: bool):
    params = cv2.aruco.DetectorParameters() if NEW_API else \
        cv2.aruco.DetectorParameters_create()  # type: ignore[attr-defined]  # OpenCV 4.6
    if subpixel:
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return params


class MarkerFinder:
    """Finds the mat dictionary's markers in a grayscale image, with sub-pixel corners by default."""

    def __init__(self, *, subpixel: bool = True) -> None:
        self._dictionary = dictionary()
        self._params = _parameters(subpixel)
        self._detector = cv2.aruco.ArucoDetector(self._dictionary, self._params) if NEW_API else None

    def find(self, gray: np.ndarray) -> dict[int, np.ndarray]:
        """Marker id -> its four corners in the image (TL, TR, BR, BL as printed), float32 (4, 2)."""
        if self._detector is not None:
            corners, ids, _ = self._detector.detectMarkers(gray)
        else:
            corners, ids, _ = cv2.aruco.detectMarkers(  # type: ignore[attr-defined]  # OpenCV 4.6
                gray, self._dictionary, parameters=self._params)
        if ids is None:
            return {}
        return {int(i): np.asarray(c, np.float32).reshape(4, 2) for i, c in zip(np.asarray(ids).ravel(), corners)}
