"""Card pictures for the simulator: the vision helper's bundled faces (``companion.vision.synth``) when present,
else simple cards drawn here (white, rounded, rank and suit in the corners), so the simulator never depends on them.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from ..vision.zones import CARD_MM

__all__ = ["card_corners_mm", "card_image", "paste_card"]

CARD_W, CARD_H = CARD_MM
_SUIT_COLOURS = {"H": (30, 30, 200), "D": (30, 30, 200), "C": (20, 20, 20), "S": (20, 20, 20)}


@lru_cache(maxsize=64)
def card_image(code: str, deck: str = "photos") -> np.ndarray:
    """The picture of ``code`` (or ``"back"``) upright, BGR."""
    try:
        from ..vision import synth
    except ImportError:  # pragma: no cover - the helper's module is part of the package today
        synth = None
    if synth is not None:
        try:
            return synth.face(code, deck)
        except (FileNotFoundError, ValueError, KeyError):
            pass
    return _drawn(code)


def _drawn(code: str, width: int = 252) -> np.ndarray:
    h = int(round(width * CARD_H / CARD_W))
    img = np.full((h, width, 3), 248, np.uint8)
    if code == "back":
        cv2.rectangle(img, (14, 14), (width - 14, h - 14), (140, 50, 30), -1)
        for k in range(-h, width, 18):
            cv2.line(img, (k, 14), (k + h, h + 14), (200, 120, 90), 3)
        img[:14], img[-14:], img[:, :14], img[:, -14:] = 248, 248, 248, 248
        return img
    rank, suit = code[:-1], code[-1]
    colour = _SUIT_COLOURS.get(suit, (0, 0, 0))
    text = "10" if rank == "T" else rank
    for flip in (False, True):
        corner = np.full_like(img, 248)
        cv2.putText(corner, text, (10, 50), cv2.FONT_HERSHEY_DUPLEX, 1.5, colour, 3, cv2.LINE_AA)
        cv2.putText(corner, suit, (14, 95), cv2.FONT_HERSHEY_DUPLEX, 1.2, colour, 2, cv2.LINE_AA)
        if flip:
            corner = corner[::-1, ::-1]
        img = np.minimum(img, corner)
    cv2.putText(img, text + suit, (width // 2 - 50, h // 2 + 20), cv2.FONT_HERSHEY_DUPLEX, 2.0, colour, 3,
                cv2.LINE_AA)
    return img


def card_corners_mm(pos, angle_deg: float) -> np.ndarray:
    """The corners (face TL, TR, BR, BL) of a card centred at ``pos`` turned by ``angle_deg``, in mat mm."""
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    pts = np.array([[-CARD_W / 2, -CARD_H / 2], [CARD_W / 2, -CARD_H / 2], [CARD_W / 2, CARD_H / 2],
                    [-CARD_W / 2, CARD_H / 2]])
    return pts @ rot.T + np.asarray(pos, float)


def paste_card(frame: np.ndarray, image: np.ndarray, pos, angle_deg: float, camera) -> None:
    """Draw ``image`` as a card lying at ``pos`` (mm) and ``angle_deg`` on the table seen by ``camera``."""
    corners = camera.to_image(card_corners_mm(pos, angle_deg)).astype(np.float32)
    try:
        from ..vision.synth import paste
    except ImportError:  # pragma: no cover
        paste = None
    if paste is not None:
        paste(frame, image, corners)
        return
    h, w = image.shape[:2]  # pragma: no cover - fallback without the helper's compositor
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), corners)
    warped = cv2.warpPerspective(image, m, (frame.shape[1], frame.shape[0]))
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, (frame.shape[1], frame.shape[0])) > 127
    frame[mask] = warped[mask]
