"""Game events: frozen values, one per thing that happens at the table. The game is a fold of these.

Each event has a ``type`` name and round-trips through :func:`event_to_dict` / :func:`event_from_dict`, which is how
the store keeps them (with a version, so old games still replay after an upgrade).

>>> e = Play(0, Card.parse("5H"))
>>> event_from_dict(event_to_dict(e)) == e
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ..cards import Card
from ..errors import CompanionError
from .variants import GameWorth, Options

EVENT_VERSION = 1


@dataclass(frozen=True, slots=True)
class NewGame:
    """Start a game: the variant by name, one name per seat, the options, and the first dealer's seat (or None to
    cut for it). ``target`` overrides the variant's (61/121/181)."""

    variant: str
    players: tuple[str, ...]
    options: Options = Options()
    first_dealer: int | None = 0
    target: int | None = None
    type = "new-game"


@dataclass(frozen=True, slots=True)
class Cut:
    """The cut for the deal: one card per seat. Lowest deals; a tie for lowest is cut again."""

    cards: tuple[Card, ...]
    type = "cut"


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards are dealt for a new hand (the companion does not see them)."""

    type = "deal"


@dataclass(frozen=True, slots=True)
class Discard:
    """A seat lays its discards in the crib. ``cards`` may be empty when they were laid face down unseen."""

    seat: int
    cards: tuple[Card, ...] = ()
    type = "discard"


@dataclass(frozen=True, slots=True)
class Starter:
    """The starter is turned. A jack pegs 2 for the dealer (his heels)."""

    card: Card
    type = "starter"


@dataclass(frozen=True, slots=True)
class Play:
    """A seat lays a card in the play."""

    seat: int
    card: Card
    type = "play"


@dataclass(frozen=True, slots=True)
class Go:
    """The seat whose turn it is cannot play without passing 31. ``inferred``: nobody said it, the table showed it
    (the next player laid a card, the rows were turned down); a corrected card re-infers such goes."""

    seat: int
    inferred: bool = False
    type = "go"


@dataclass(frozen=True, slots=True)
class Show:
    """A seat lays out its hand for the show; ``claimed`` is the count the player says (muggins)."""

    seat: int
    cards: tuple[Card, ...]
    claimed: int | None = None
    type = "show"


@dataclass(frozen=True, slots=True)
class Crib:
    """The crib is turned up and counted for the dealer; ``claimed`` as for :class:`Show`."""

    cards: tuple[Card, ...]
    claimed: int | None = None
    type = "crib"


@dataclass(frozen=True, slots=True)
class Muggins:
    """``seat`` claims ``points`` that the last counter missed (muggins on)."""

    seat: int
    points: int
    type = "muggins"


@dataclass(frozen=True, slots=True)
class Correction:
    """Points added to (or, negative, taken from) a side by hand, with the reason the players agreed."""

    side: int
    points: int
    reason: str
    type = "correction"


@dataclass(frozen=True, slots=True)
class ReplaceCard:
    """A card was misread: every earlier event that named ``old`` names ``new`` instead, and every score that
    depended on it is recomputed."""

    old: Card
    new: Card
    type = "replace-card"


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last event still in effect."""

    type = "undo"


@dataclass(frozen=True, slots=True)
class Redo:
    """Put back the last event undone, if nothing was done since."""

    type = "redo"


Event = (NewGame | Cut | Deal | Discard | Starter | Play | Go | Show | Crib | Muggins | Correction | ReplaceCard
         | Undo | Redo)
EVENT_TYPES: dict[str, type[Event]] = {cls.type: cls for cls in (
    NewGame, Cut, Deal, Discard, Starter, Play, Go, Show, Crib, Muggins, Correction, ReplaceCard, Undo, Redo)}


class BadEvent(CompanionError, ValueError):
    """A stored event that cannot be read back."""


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if isinstance(value, (Options, GameWorth)):
        return {f.name: _encode(getattr(value, f.name)) for f in fields(value)}
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready dict: ``{"type": "play", "v": 1, "seat": 0, "card": "5H"}``."""
    out: dict[str, Any] = {"type": event.type, "v": EVENT_VERSION}
    for f in fields(event):
        out[f.name] = _encode(getattr(event, f.name))
    return out


def event_from_dict(data: dict[str, Any]) -> Event:
    """Read an event back from :func:`event_to_dict`'s form; raises :class:`BadEvent` naming what is wrong."""
    try:
        cls = EVENT_TYPES[data["type"]]
        kwargs = {f.name: data[f.name] for f in fields(cls) if f.name in data}
        for key in ("card", "old", "new"):
            if key in kwargs:
                kwargs[key] = Card.parse(kwargs[key])
        if "cards" in kwargs:
            kwargs["cards"] = tuple(Card.parse(c) for c in kwargs["cards"])
        if "players" in kwargs:
            kwargs["players"] = tuple(kwargs["players"])
        if "options" in kwargs:
            opts = dict(kwargs["options"])
            opts["worth"] = GameWorth(**opts.get("worth", {}))
            kwargs["options"] = Options(**opts)
        return cls(**kwargs)
    except (KeyError, TypeError, ValueError) as exc:
        raise BadEvent(f"cannot read stored event {data!r}: {exc}") from None
