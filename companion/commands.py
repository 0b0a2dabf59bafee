"""What a player asks of the companion, whatever it came from: a gpiozero button, the rotary encoder, a key, a
touch. One vocabulary for the board's controls and the screen's input.

>>> Command("undo") is Command.UNDO
True
"""

from __future__ import annotations

import enum


class Command(str, enum.Enum):
    OK = "ok"  # the OK / Go button: confirm, or "go" during the play
    GO = "go"
    UNDO = "undo"  # the Undo button (held: REDO)
    REDO = "redo"
    MENU = "menu"
    NEXT = "next"  # the encoder turned clockwise, or an arrow key
    PREV = "prev"
    SELECT = "select"  # a touch on a card or a button of the screen
    QUIT = "quit"  # closing the window (a PC only)
