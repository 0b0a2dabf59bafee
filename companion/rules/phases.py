"""Where a game is: the phases of :class:`~companion.rules.game.GameState` (standard library only).

>>> Phase.PLAY == "play", [str(p) for p in Phase][:3]
(True, ['new', 'cut', 'deal'])
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Phase", "Word"]


class Word(StrEnum):
    """A name of the table's vocabulary: it compares, prints, serialises and shows in a ``repr`` as its plain string,
    so logs, JSON and examples read as they always did."""

    def __repr__(self) -> str:
        return repr(self.value)


class Phase(Word):
    """The phase of a game, as the store and the screens have always named it."""

    NEW = "new"
    CUT = "cut"
    DEAL = "deal"
    DISCARD = "discard"
    PLAY = "play"
    SHOW = "show"
    OVER = "over"
