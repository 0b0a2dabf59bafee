"""The table's vocabulary, shared by vision, the tracker, the referee, the app, the simulator and the screens.

One numbering of seats everywhere: **seats count from 0**, as the game does (``GameState.players[seat]``); only
the zone *names* printed on the mat count from 1 (``seat1`` is seat 0's play row). :func:`seat_zone` and
:func:`zone_seat` are the one conversion between them.

The names are :class:`~enum.StrEnum` members, so they print, compare and serialise as the plain strings the
tracker, the store and the mat files have always used (``Zone.STARTER == "starter"``), while code that names them
gets a typo caught at import time instead of a silently wrong comparison.

>>> seat_zone(0), zone_seat("seat2"), zone_seat("crib")
('seat1', 1, None)
>>> Change.LAID == "laid", Phase("play") is Phase.PLAY
(True, True)
>>> SourceStatus.LOST.failing, SourceStatus.LIVE.failing
(True, False)
"""

from __future__ import annotations

from .rules.phases import Phase, Word

__all__ = ["BACK", "UNKNOWN", "Change", "Phase", "QuestionKind", "Screen", "SourceStatus", "Zone",
           "seat_zone", "zone_seat", "seat_zones"]

#: what the card reader calls a card seen face down, and a card it found but could not name
BACK, UNKNOWN = "back", "unknown"


class Zone(Word):
    """The zones of the mat that are not a seat's play row (those are ``seat1`` .. ``seat4``: :func:`seat_zone`)."""

    STARTER = "starter"
    CRIB = "crib"
    DECK = "deck"
    ELSEWHERE = "elsewhere"


def seat_zone(seat: int) -> str:
    """The play row of ``seat`` (counted from 0, as in the game): ``seat_zone(0) == 'seat1'``."""
    if seat < 0:
        raise ValueError(f"a seat counts from 0, got {seat}")
    return f"seat{seat + 1}"


def zone_seat(zone: str) -> int | None:
    """The seat (from 0) whose play row ``zone`` is, or ``None`` for any other zone: ``zone_seat('seat1') == 0``."""
    if zone.startswith("seat") and zone[4:].isdigit() and int(zone[4:]) >= 1:
        return int(zone[4:]) - 1
    return None


def seat_zones(players: int) -> tuple[str, ...]:
    """Every play row of a table of ``players`` seats, seat 0 first."""
    return tuple(seat_zone(s) for s in range(players))


class Change(Word):
    """What the tracker says happened on the table."""

    LAID = "laid"  #: a card newly lying face up in a zone
    REMOVED = "removed"  #: one card picked up
    CLEARED = "cleared"  #: every card of a zone picked up at once
    FACE_DOWN = "face_down"  #: the cards of a zone turned over where they lie (after a go or 31)
    MOVED = "moved"  #: a card slid from one zone into another


class QuestionKind(Word):
    """What the referee asks a player instead of guessing."""

    WHOSE_CARD = "whose-card"  #: a card outside every row
    CONFLICT = "conflict"  #: the table contradicts itself (a tie in the cut, a card in two places)
    ILLEGAL = "illegal"  #: a play or a correction the rules refuse, with the reason
    CLAIM = "claim"  #: muggins: how many do you claim?
    MUGGINS = "muggins"  #: missed points an opponent may take
    UNSURE = "unsure"  #: something could not be read (a card, the starter)
    UNFINISHED = "unfinished"  #: the next hand began on the table while this hand's play is not over
    TAKEN_BACK = "taken-back"  #: an undo took back a card that still lies on the table
    OUT_OF_TURN = "out-of-turn"  #: a card laid before the one whose turn it was is read: it waits for it


class Screen(Word):
    """The screens of the controller (what the buttons, keys and touches act on)."""

    GAME = ""  #: the game's own screen (the play, the show)
    MENU = "menu"
    QUESTION = "question"
    CORRECT = "correct"
    POINTS = "points"
    HISTORY = "history"
    SCORE = "score"  #: one score of the history opened: its cards and breakdown
    SCOREBOARD = "scoreboard"
    NEW_GAME = "new-game"
    ABANDON = "abandon"  #: confirm leaving a game in progress


class SourceStatus(Word):
    """How a frame source is doing, as a value rather than a sentence to parse."""

    STARTING = "starting"
    LIVE = "live"
    LOST = "lost"  #: frames stopped coming; the source is retrying
    UNAVAILABLE = "unavailable"  #: gone for good until a restart (a Pi camera's ribbon cable): the status says why
    ENDED = "ended"  #: a replay reached its end
    CLOSED = "closed"

    @property
    def failing(self) -> bool:
        """Whether the screen should say the camera is not sending pictures."""
        return self in (SourceStatus.LOST, SourceStatus.UNAVAILABLE)
