"""Variants and options as data: one :class:`Variant` value per game in RULES.md, no code path per variant.

>>> VARIANTS["five-card"].hand_size, VARIANTS["five-card"].target
(3, 61)
>>> get_variant("six-card").with_target(61).target
61
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..errors import ConfigError


@dataclass(frozen=True, slots=True)
class Variant:
    """The shape of one cribbage game.

    ``players`` seats, ``partners`` when opposite seats share one side, ``dealt`` cards each, ``discard`` each to
    the crib, ``crib_from_deck`` cards dealt straight to the crib, ``target`` to win, ``start_bonus`` points for
    the first non-dealer ("three for last"), ``play_stops_at_first_go`` for the old five-card game.
    """

    name: str
    players: int
    dealt: int
    discard: int
    target: int
    crib_from_deck: int = 0
    partners: bool = False
    start_bonus: int = 0
    play_stops_at_first_go: bool = False
    title: str = ""

    @property
    def hand_size(self) -> int:
        """Cards each player keeps for the play and the show."""
        return self.dealt - self.discard

    @property
    def crib_size(self) -> int:
        return self.players * self.discard + self.crib_from_deck

    @property
    def sides(self) -> int:
        return self.players // 2 if self.partners else self.players

    def side_of(self, seat: int) -> int:
        """The side a seat scores for: partners sit opposite (seats 0 and 2, 1 and 3)."""
        return seat % self.sides

    def with_target(self, target: int) -> Variant:
        if target not in (61, 121, 181):
            raise ConfigError(f"target {target!r} is not allowed: choose 61, 121 or 181")
        return replace(self, target=target)


VARIANTS: dict[str, Variant] = {v.name: v for v in (
    Variant("six-card", 2, 6, 2, 121, title="Six-card (standard)"),
    Variant("five-card", 2, 5, 2, 61, start_bonus=3, play_stops_at_first_go=True, title="Five-card (the old game)"),
    Variant("seven-card", 2, 7, 2, 181, title="Seven-card"),
    Variant("three-hand", 3, 5, 1, 61, crib_from_deck=1, title="Three-hand"),
    Variant("four-hand", 4, 5, 1, 121, partners=True, title="Four-hand partners"),
    Variant("four-individual", 4, 5, 1, 121, title="Four players individually"),
)}


def get_variant(name: str) -> Variant:
    """Look a variant up by name; the error lists the names allowed."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ConfigError(f"unknown variant {name!r}: choose one of {', '.join(VARIANTS)}") from None


@dataclass(frozen=True, slots=True)
class GameWorth:
    """How many games a win, a skunk and a double skunk are worth."""

    win: int = 1
    skunk: int = 2
    double_skunk: int = 4


WORTH_PRESETS = {"standard": GameWorth(1, 2, 4), "acc": GameWorth(2, 3, 3)}


@dataclass(frozen=True, slots=True)
class Options:
    """Settings announced before the game.

    ``lowball``: the first side to reach the target loses. ``muggins``: missed show points may be claimed by an
    opponent. ``skunk_line`` / ``double_skunk_line``: the loser is skunked when their score is at or below the line
    (default: target - 31 and target - 61, i.e. 90 and 60 in a 121 game, 30 in a 61 game, no double skunk there).
    ``stinkhole``: no pegging out from the hole before the game hole on heels or a go. ``no_go_past``: a side past
    this score gets no go point (115 in the house rule).
    """

    muggins: bool = False
    lowball: bool = False
    skunk_line: int | None = None
    double_skunk_line: int | None = None
    worth: GameWorth = field(default_factory=GameWorth)
    stinkhole: bool = False
    no_go_past: int | None = None

    def skunk_lines(self, target: int) -> tuple[int | None, int | None]:
        skunk = self.skunk_line if self.skunk_line is not None else target - 31
        double = self.double_skunk_line if self.double_skunk_line is not None else target - 61
        return (skunk if skunk > 0 else None, double if double > 0 else None)
