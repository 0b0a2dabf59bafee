"""The LED peg board: layouts (holes -> LEDs), pegs -> LED frames, animations, LED drivers, controls.

>>> from companion.board import PegView, board_frame, load_layout
>>> layout = load_layout("two-player-121")
>>> frame = board_frame(layout, PegView(sides=((12, 5), (0, 0))))
>>> sum(1 for c in frame if c != (0, 0, 0))       # Red's two pegs, Blue's two start holes
4

The drivers (:class:`APA102`, :class:`MAX7219Chain`) import gpiozero; the rest needs only the standard library
(pygame for :func:`draw_board`, imported when drawing).
"""

from .animation import BoardAnimator
from .apa102 import APA102
from .controls import Command, Controls, ControlsConfig
from .layout import Hole, Layout, Side, check_fits, list_layouts, load_layout, parse_layout, parse_leds
from .max7219 import MAX7219Chain
from .pegboard import BoardConfig, PegBoard, open_board, spi_problem
from .pegs import (Frame, PegView, PowerBudget, board_frame, cap_frame, lap_of, peg_led, peg_view_from_state,
                   peg_views_from_scores)
from .virtual import VirtualChain, draw_board

__all__ = [
    "APA102", "BoardAnimator", "BoardConfig", "Command", "Controls", "ControlsConfig", "Frame", "Hole", "Layout",
    "MAX7219Chain", "PegBoard", "PegView", "PowerBudget", "Side", "VirtualChain", "board_frame", "cap_frame",
    "check_fits",
    "draw_board", "lap_of", "list_layouts", "load_layout", "open_board",
    "parse_layout", "parse_leds", "peg_led", "peg_view_from_state", "peg_views_from_scores", "spi_problem",
]
