"""Reading real cards from camera frames: find every card, name it, or say "unknown" when unsure.

>>> import numpy as np
>>> from companion.vision import recognize
>>> recognize(np.zeros((480, 640, 3), np.uint8))
[]
"""

from .detection import BACK, UNKNOWN, Detection
from .reader import recognize

__all__ = ["BACK", "UNKNOWN", "Detection", "recognize"]
