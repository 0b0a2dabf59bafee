"""A second look at an index corner the glyph search read: a small network (``models/namer.onnx``, run with OpenCV's
dnn module) that names the whole index box, cut upright, at once.

The glyph search (``corners.search``) names an index from its rank and suit cut apart. On a small, blurred or
tilted index that read is often right but not sure enough for its size, and the reader says nothing. The namer
reads the same box as one picture, without cutting the glyphs apart, so it is a look of another kind: a read below
its floor is named where the namer names the same card (see ``detector.find_corners``), never on the namer's word
alone.

>>> import numpy as np
>>> index_crop(np.full((100, 100, 3), 200, np.uint8), np.float32([[10, 10], [30, 10], [30, 50], [10, 50]])).shape
(3, 48, 32)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from ..cards import RANKS, SUITS
from . import onnx_net

MODEL = Path(__file__).resolve().parent / "models" / "namer.onnx"
#: The upright index box is cut to this many pixels (wide, tall), with MARGIN of its size round it.
CROP_W, CROP_H = 32, 48
MARGIN = 0.12
#: The namer's classes, in the order its outputs come: the 52 cards (by suit, then rank, as ``synth.ALL_CARDS``),
#: then NONE (not an index: a pip, the picture, the table).
CODES = tuple(r + s for s in SUITS for r in RANKS)
NONE = "-"
CLASSES = CODES + (NONE,)


def index_crop(img: np.ndarray, pts: np.ndarray, margin: float = MARGIN) -> np.ndarray:
    """The index box ``pts`` (4 x 2: its upright top left, top right, bottom right and bottom left corners, frame
    coordinates, as ``corners.search`` gives them) of ``img`` (BGR), cut upright to CROP_W x CROP_H with ``margin``
    of its size round it, as the namer reads it: float32, channels first, each crop's own levels spread to mean 0
    and unit spread (a dim photo's index reads as a bright one's)."""
    p = np.asarray(pts, np.float32).reshape(4, 2)
    mid = p.mean(0)
    grown = mid + (p - mid) * (1 + 2 * margin)
    dst = np.array([[0, 0], [CROP_W, 0], [CROP_W, CROP_H], [0, CROP_H]], np.float32)
    m = cv2.getPerspectiveTransform(grown.astype(np.float32), dst)
    crop = cv2.warpPerspective(img, m, (CROP_W, CROP_H), flags=cv2.INTER_AREA if _shrinks(grown) else cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    crop -= crop.mean()
    crop /= max(float(crop.std()), 4.0)
    return np.ascontiguousarray(crop.transpose(2, 0, 1))


def _shrinks(quad: np.ndarray) -> bool:
    return float(np.linalg.norm(quad[3] - quad[0])) > CROP_H


def _net():
    return onnx_net.load(str(MODEL))


def available() -> bool:
    """Whether ``models/namer.onnx`` is there to be asked."""
    return _net() is not None


def name(img: np.ndarray, boxes: Sequence[np.ndarray], net=None) -> list[tuple[str, float]]:
    """What the namer makes of each index box of ``boxes`` in ``img`` (BGR): its likeliest class (a card code, or
    :data:`NONE`) and that class's probability; ``[]`` without the model."""
    net = net if net is not None else _net()
    if net is None or not len(boxes):
        return []
    blob = np.stack([index_crop(img, b) for b in boxes])
    net.setInput(blob)
    z = net.forward().reshape(len(boxes), -1).astype(np.float64)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    top = p.argmax(axis=1)
    return [(CLASSES[k], float(p[i, k])) for i, k in enumerate(top)]
