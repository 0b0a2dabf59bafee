"""Where a game is: the phases of :class:`~companion.rules.game.GameState` (standard library only).

>>> Phase.PLAY == "play", [str(p) for p in Phase][:3]
(True, ['new', 'cut', 'deal'])
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Phase"]


class Phase(StrEnum):
    """The phase of a game; the values are the plain strings the store and the screens have always used."""

    NEW = "new"
    CUT = "cut"
    DEAL = "deal"
    DISCARD = "discard"
    PLAY = "play"
    SHOW = "show"
    OVER = "over"
