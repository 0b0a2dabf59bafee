"""A score with its reasons: the value the show, the play and the game all return, and the screen renders."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from ..cards import Card


class ScoreItem(NamedTuple):
    """One scoring combination: ``kind`` (``fifteen``, ``pair``, ``run``, ``flush``, ``nobs``, ``thirty-one``,
    ``go``, ``last card``, ``heels``...), the cards that made it, and its points.

    A named tuple rather than a dataclass: the show makes up to 15 of these per hand, and tuples are cheap to make.
    """

    kind: str
    cards: tuple[Card, ...]
    points: int
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": [str(c) for c in self.cards], "points": self.points,
                **({"label": self.label} if self.label else {})}


@dataclass(frozen=True, slots=True)
class Score:
    """The points for one hand, crib or played card: ``total``, the ``items`` that make it, and ``spoken``, the
    words players say aloud."""

    items: tuple[ScoreItem, ...]
    text: str | None = None  # the spoken form when it is not derived from the items (heels, go, corrections)
    count: int | None = None  # the running count after a played card; None for the show

    @property
    def total(self) -> int:
        return sum(i.points for i in self.items)

    @property
    def spoken(self) -> str:
        """The words players say: given, or derived from the items (the show's count or the play's call)."""
        if self.text is not None:
            return self.text
        if self.count is None:
            from .show import spoken_show
            return spoken_show(self.items)
        from .play import spoken_play
        return spoken_play(self.count, list(self.items))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"total": self.total, "items": [i.to_json() for i in self.items], "spoken": self.spoken}
        if self.count is not None:
            out["count"] = self.count
        return out
