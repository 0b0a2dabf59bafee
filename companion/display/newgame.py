"""The new-game screen: what the players choose before a game (names, variant, target, low-ball, muggins, skunk
rules, who deals) as one plain value, :class:`GameChoices`, and the menu that shows and changes it.

Every line works with the board's buttons alone: Next/Prev move to a line, OK changes its value (the next name,
the next variant, on/off), and the last lines start the game or cancel. The app turns the choices into the
game's first event with :meth:`GameChoices.new_game`.

>>> choices = GameChoices(names=("Ann", "Bob"))
>>> choices.new_game().players, choices.new_game().first_dealer
(('Ann', 'Bob'), None)
>>> choices.change("variant").variant, choices.change("variant").names
('five-card', ('Ann', 'Bob'))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..rules.events import NewGame
from ..rules.variants import VARIANTS, Options
from .view import MenuItem, MenuView, Message

SKUNK_RULES = ("standard", "single only", "off")
"""standard: skunk 31 and double skunk 61 points behind the target; single only: no double skunk; off: neither."""

TARGETS = (61, 121, 181)


@dataclass(frozen=True, slots=True)
class GameChoices:
    """The options of the next game. ``target`` None is the variant's own; ``first_dealer`` None cuts for it."""

    variant: str = "six-card"
    names: tuple[str, ...] = ()
    target: int | None = None
    muggins: bool = False
    lowball: bool = False
    skunk: str = "standard"
    first_dealer: int | None = None
    pool: tuple[str, ...] = ()  # the names to choose from (players seen before), beside "Player N"

    @property
    def players(self) -> int:
        return VARIANTS[self.variant].players

    def name(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) and self.names[seat] else f"Player {seat + 1}"

    def seat_names(self) -> tuple[str, ...]:
        return tuple(self.name(i) for i in range(self.players))

    def options(self) -> Options:
        skunk = {"standard": (None, None), "single only": (None, 0), "off": (0, 0)}[self.skunk]
        return Options(muggins=self.muggins, lowball=self.lowball, skunk_line=skunk[0],
                       double_skunk_line=skunk[1])

    def new_game(self) -> NewGame:
        """The game's first event."""
        dealer = self.first_dealer if self.first_dealer is None or self.first_dealer < self.players else None
        return NewGame(self.variant, self.seat_names(), self.options(), dealer, self.target)

    def with_name(self, seat: int, name: str) -> GameChoices:
        """The choices with seat ``seat`` named ``name`` (typed on a keyboard)."""
        names = list(self.seat_names())
        names[seat] = name
        return replace(self, names=tuple(names))

    def change(self, key: str) -> GameChoices:
        """The choices with the line ``key`` moved on to its next value."""
        if key == "variant":
            names = list(VARIANTS)
            variant = names[(names.index(self.variant) + 1) % len(names)]
            return replace(self, variant=variant, target=None, first_dealer=None)
        if key == "target":
            own = VARIANTS[self.variant].target
            current = self.target or own
            later = [t for t in TARGETS if t > current]
            target = later[0] if later else TARGETS[0]
            return replace(self, target=None if target == own else target)
        if key == "muggins":
            return replace(self, muggins=not self.muggins)
        if key == "lowball":
            return replace(self, lowball=not self.lowball)
        if key == "skunk":
            return replace(self, skunk=SKUNK_RULES[(SKUNK_RULES.index(self.skunk) + 1) % len(SKUNK_RULES)])
        if key == "dealer":
            order: list[int | None] = [None, *range(self.players)]
            return replace(self, first_dealer=order[(order.index(self.first_dealer) + 1) % len(order)])
        if key.startswith("name-"):
            seat = int(key[5:])
            return replace(self, names=_next_name(self.seat_names(), seat, self.pool))
        return self

    def summary(self) -> str:
        """One line for a confirmation: "Six-card to 121: Ann, Bob"."""
        v = VARIANTS[self.variant]
        return f"{v.title or v.name} to {self.target or v.target}: {', '.join(self.seat_names())}"

    @classmethod
    def from_game(cls, state: Any, pool: Iterable[str] = ()) -> GameChoices:
        """The choices a game was started with (a new game proposes the same set-up again)."""
        variant = getattr(getattr(state, "variant", None), "name", "six-card") or "six-card"
        options = getattr(state, "options", None) or Options()
        names = tuple(getattr(state, "players", ()) or ())
        own = VARIANTS[variant].target if variant in VARIANTS else 121
        target = getattr(state, "target", None)
        skunk = ("off" if options.skunk_line == 0 else "single only" if options.double_skunk_line == 0
                 else "standard")
        return cls(variant if variant in VARIANTS else "six-card", names,
                   target if target and target != own else None, options.muggins, options.lowball, skunk,
                   None, _pool(names, pool))

    @classmethod
    def from_event(cls, event: NewGame, pool: Iterable[str] = ()) -> GameChoices:
        """The choices that would start ``event`` (the configured game, at first start)."""
        o = event.options
        skunk = "off" if o.skunk_line == 0 else "single only" if o.double_skunk_line == 0 else "standard"
        own = VARIANTS[event.variant].target
        return cls(event.variant, tuple(event.players), event.target if event.target != own else None, o.muggins,
                   o.lowball, skunk, event.first_dealer, _pool(event.players, pool))


def _pool(names: Iterable[str], more: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(n for n in (*names, *more) if n and not n.startswith("Player ")))


def _next_name(names: Sequence[str], seat: int, pool: Sequence[str]) -> tuple[str, ...]:
    """``names`` with seat ``seat`` given the next name of the pool not taken by another seat (then "Player N")."""
    taken = {n for i, n in enumerate(names) if i != seat}
    candidates = [n for n in pool if n not in taken] + [f"Player {seat + 1}"]
    current = names[seat]
    nxt = candidates[(candidates.index(current) + 1) % len(candidates)] if current in candidates else candidates[0]
    out = list(names)
    out[seat] = nxt
    return tuple(out)


def new_game_view(choices: GameChoices, selected: int = 0, messages: tuple[Message, ...] = (), *,
                  typing: bool = False) -> MenuView:
    """The new-game screen for ``choices``: each line's key is what :meth:`GameChoices.change` takes. With
    ``typing`` the chosen line is a name being typed: it shows a cursor."""
    v = VARIANTS[choices.variant]
    items = [MenuItem("Variant", v.title or v.name, "variant"),
             MenuItem("Play to", str(choices.target or v.target), "target")]
    items += [MenuItem(f"Player {i + 1}" + (" (partners with 3)" if v.partners and i == 0 else
                                            " (partners with 4)" if v.partners and i == 1 else ""),
                       (choices.names[i] if i < len(choices.names) else "") + "_"
                       if typing and i + 2 == selected else choices.name(i), f"name-{i}")
              for i in range(v.players)]
    dealer = "cut for it" if choices.first_dealer is None else choices.name(choices.first_dealer)
    items += [MenuItem("First deal", dealer, "dealer"),
              MenuItem("Muggins", "on" if choices.muggins else "off", "muggins"),
              MenuItem("Low-ball (first out loses)", "on" if choices.lowball else "off", "lowball"),
              MenuItem("Skunks", choices.skunk, "skunk"),
              MenuItem("Start the game", "", "start"),
              MenuItem("Cancel", "", "cancel")]
    hint = ("Type the name   Enter: done" if typing else
            "Next/Prev: move   OK: change (or type a name)   Menu: cancel")
    return MenuView("New game", tuple(items), selected, hint=hint, messages=messages)


def abandon_view(choices: GameChoices, in_progress: str, selected: int = 0,
                 messages: tuple[Message, ...] = ()) -> MenuView:
    """The confirmation before a game in progress is abandoned; "keep playing" comes first, so a stray OK is safe."""
    return MenuView(f"Abandon the game in progress ({in_progress})?",
                    (MenuItem("Keep playing this game", "", "keep"),
                     MenuItem("Abandon it and start", choices.summary(), "abandon")), selected,
                    hint="Next/Prev: move   OK: choose   Menu: keep playing", messages=messages)


__all__ = ["SKUNK_RULES", "GameChoices", "abandon_view", "new_game_view"]
