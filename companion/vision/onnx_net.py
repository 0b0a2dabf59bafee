"""The reader's ONNX networks (the corner finder, the index namer), loaded with OpenCV's dnn module once each."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2


@lru_cache(maxsize=4)
def load(path: str):
    """The network in ``path`` (None where that file is absent), loaded once."""
    if not Path(path).exists():
        return None
    # OpenCV 5.0's classic engine is the one OpenCV 4.6 (the Pi's) has, and here a fifth faster than the new one it
    # picks by default (21 against 26 ms a 640x360 frame on one core; outputs within 3e-5). OpenCV 5.1 has no
    # classic engine left to ask for (ENGINE_AUTO, ENGINE_OPENCV and ENGINE_ORT all build the new graph): there the
    # default runs, 25-33 ms a frame on one core here (2026-12-03)
    classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    return cv2.dnn.readNetFromONNX(path) if classic is None else cv2.dnn.readNetFromONNX(path, engine=classic)
