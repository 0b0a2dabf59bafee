"""Frames as the rest of vision wants them: 3-channel ``uint8`` BGR, or ``None`` for garbage.

>>> import numpy as np
>>> as_bgr(np.zeros((40, 60), np.uint8)).shape, as_bgr(np.zeros((0, 3)))
((40, 60, 3), None)
>>> as_bgr(np.ones((40, 60, 3), np.float32)) is None, int(as_bgr(np.ones((40, 60, 3), np.float32), convert=True).max())
(True, 255)
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

__all__ = ["as_bgr"]


def as_bgr(frame: Any, *, min_side: int = 2, convert: bool = False) -> np.ndarray | None:
    """``frame`` as a 3-channel ``uint8`` BGR image, or ``None`` if it is garbage: not an image array, empty, a
    side under ``min_side`` pixels, or (unless ``convert``) not ``uint8``. ``convert`` scales numbers to 0-255
    (floats up to 1.0 as fractions), as a photo loaded by another library may come; a camera that sends anything
    but bytes is broken, so frame sources leave it off."""
    if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) or frame.size == 0:
        return None
    if frame.ndim == 3 and frame.shape[2] not in (1, 3, 4):
        return None
    if min(frame.shape[:2]) < min_side:
        return None
    if frame.dtype != np.uint8:
        if not convert or frame.dtype == bool or not np.issubdtype(frame.dtype, np.number):
            return None
        f = np.nan_to_num(frame.astype(np.float32))
        if np.issubdtype(frame.dtype, np.floating) and f.max() <= 1.0:
            f = f * 255
        frame = np.clip(f, 0, 255).astype(np.uint8)
    if frame.ndim == 2 or frame.shape[2] == 1:
        return cv2.cvtColor(frame.reshape(frame.shape[:2]), cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return np.ascontiguousarray(frame)
