"""The rules core: pure Python, standard library only, no I/O, no clock."""

from .play import score_play
from .score import Score, ScoreItem
from .show import score_hand

__all__ = ["Score", "ScoreItem", "score_hand", "score_play"]
