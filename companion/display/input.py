"""Keys, clicks and touches to screen commands.

The one command vocabulary of :mod:`companion.commands` (``OK``, ``GO``, ``UNDO``, ``REDO``, ``MENU``, ``NEXT``,
``PREV``), plus ``SELECT`` for a touch on something drawn (a card, a menu line, a rank) and ``QUIT``. An action's
``value`` is its lower-case name, the same word the board's controls use, so the app can treat both alike.

>>> import pygame
>>> command_for_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_u, mod=0))
ScreenCommand(action=<Command.UNDO: 'undo'>, index=None, card=None, target=None, text=None)
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from ..cards import Card
from ..commands import Command
from .draw import Drawn


Action = Command  # the screen's name for the one command vocabulary


@dataclass(frozen=True, slots=True)
class ScreenCommand:
    """An action; for ``SELECT``, what was touched: a card (with its index on screen) or a named target. ``text``
    is the character a key typed, if any (a name being typed on the new-game screen uses it; every other screen
    goes by the action): a letter with no action of its own is ``SELECT`` with ``target="text"``."""

    action: Action
    index: int | None = None
    card: Card | None = None
    target: str | None = None
    text: str | None = None

    @classmethod
    def of(cls, command) -> ScreenCommand:
        """The screen command for a board button's command (anything whose ``value`` is an action's word)."""
        return cls(Action(getattr(command, "value", command)))


KEYS: dict[int, Action] = {
    pygame.K_RETURN: Action.OK, pygame.K_KP_ENTER: Action.OK, pygame.K_SPACE: Action.OK,
    pygame.K_g: Action.GO,
    pygame.K_u: Action.UNDO, pygame.K_BACKSPACE: Action.UNDO,
    pygame.K_r: Action.REDO,
    pygame.K_m: Action.MENU, pygame.K_ESCAPE: Action.MENU, pygame.K_TAB: Action.MENU,
    pygame.K_RIGHT: Action.NEXT, pygame.K_DOWN: Action.NEXT, pygame.K_n: Action.NEXT,
    pygame.K_LEFT: Action.PREV, pygame.K_UP: Action.PREV, pygame.K_p: Action.PREV,
    pygame.K_q: Action.QUIT,
}
"""Keys for a keyboard at the table: Enter/Space OK, G go, U/Backspace undo, R redo, M/Esc/Tab menu, arrows
next/prev, Q quit. Ctrl+Z and Ctrl+Y (or Ctrl+Shift+Z) undo and redo too; 1-9 select the n-th card."""


def command_for_key(key: int, mod: int = 0, text: str = "") -> ScreenCommand | None:
    """The command for a key; ``text`` is what the key typed (pygame's ``unicode``), kept on the command."""
    typed = text if text and (text.isprintable() or text == "\b") else None
    if key == pygame.K_BACKSPACE:
        typed = "\b"
    if mod & pygame.KMOD_CTRL:
        if key == pygame.K_z:
            return ScreenCommand(Action.REDO if mod & pygame.KMOD_SHIFT else Action.UNDO)
        if key == pygame.K_y:
            return ScreenCommand(Action.REDO)
        if key == pygame.K_q:
            return ScreenCommand(Action.QUIT)
        return None
    if pygame.K_1 <= key <= pygame.K_9:
        return ScreenCommand(Action.SELECT, index=key - pygame.K_1, text=typed)
    action = KEYS.get(key)
    if action:
        return ScreenCommand(action, text=typed)
    return ScreenCommand(Action.SELECT, target="text", text=typed) if typed else None


def command_at(pos: tuple[int, int], drawn: Drawn | None) -> ScreenCommand | None:
    """What a touch at ``pos`` selects on the drawn screen: the topmost card, else a target, else nothing."""
    if drawn is None:
        return None
    card = drawn.card_at(pos)
    if card is not None:
        return ScreenCommand(Action.SELECT, index=card.index, card=card.card, target=card.role or "card")
    target = drawn.target_at(pos)
    if target is not None:
        return ScreenCommand(Action.SELECT, index=target.index, target=target.name)
    return None


def command_for_event(event: pygame.event.Event, drawn: Drawn | None = None) -> ScreenCommand | None:
    """The command for one pygame event, or None. Touches and clicks are hit-tested against ``drawn``."""
    if event.type == pygame.KEYDOWN:
        return command_for_key(event.key, getattr(event, "mod", 0), getattr(event, "unicode", "") or "")
    if event.type == pygame.QUIT:
        return ScreenCommand(Action.QUIT)
    if event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 1) == 1:
        if getattr(event, "touch", False):
            return None  # SDL also sends FINGERDOWN for a touch: handle it once, there
        return command_at(event.pos, drawn)
    if event.type == pygame.FINGERDOWN and drawn is not None:
        w, h = drawn.size
        return command_at((int(event.x * w), int(event.y * h)), drawn)
    if event.type == pygame.MOUSEWHEEL:  # a rotary encoder seen as a wheel, or a real wheel
        return ScreenCommand(Action.PREV if event.y > 0 else Action.NEXT) if event.y else None
    return None


__all__ = ["KEYS", "Action", "ScreenCommand", "command_at", "command_for_event", "command_for_key"]
