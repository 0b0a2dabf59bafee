"""The companion's named errors. Each subclasses a builtin so callers can catch either, and quotes the bad input."""

from __future__ import annotations


class CompanionError(Exception):
    """Base of every error the companion raises on purpose."""


class BadCardCode(CompanionError, ValueError):
    """A token that is not a card code, e.g. ``'ZZ'``."""


class DuplicateCard(CompanionError, ValueError):
    """The same card given twice where cards must be distinct."""


class WrongCardCount(CompanionError, ValueError):
    """A hand or series with too few or too many cards."""


class IllegalMove(CompanionError, ValueError):
    """An event the game refuses (out of turn, over 31, wrong phase...). The message is for a player."""


class ConfigError(CompanionError, ValueError):
    """A configuration key or value that is not allowed; the message names the key and what is expected."""


def check_key(section: str, key: str, known) -> None:
    """Refuse ``key`` of config ``section`` unless it is one of ``known``, naming it and the keys there are.

    >>> check_key("board", "colour", ["layout", "driver"])
    Traceback (most recent call last):
    ...
    companion.errors.ConfigError: board.colour: unknown key (known: layout, driver)
    """
    if key not in known:
        raise ConfigError(f"{section}.{key}: unknown key (known: {', '.join(known)})")


class LayoutError(CompanionError, ValueError):
    """An LED board layout that is inconsistent; the message names the hole and the LED."""


class StoreError(CompanionError, RuntimeError):
    """The event store could not be read or written."""
