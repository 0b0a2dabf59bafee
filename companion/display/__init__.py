"""The status screens: pygame views a table reads from two metres away, with every score explained.

Data flows one way: the game state becomes a plain view (:func:`view_from_state`), a screen draws the view and
returns what it drew (:class:`Drawn`: texts, cards and touch targets with their rectangles), and events become
:class:`ScreenCommand` values. :class:`Display` owns the window and redraws only when the view changed.

>>> import pygame
>>> from companion.display.samples import sample_views
>>> drawn = draw_screen(pygame.Surface((800, 480)), sample_views()["show-29"])
>>> [t.text for t in drawn.find("total")]
['29']
"""

from .draw import CardItem, Drawn, Target, TextItem
from .input import Action, ScreenCommand, command_for_event
from .layout import SIZES, Layout
from .menus import calibration_menu, new_game_menu, settings_menu
from .screens import (SCREENS, draw_camera, draw_correction, draw_game_over, draw_history, draw_menu, draw_play,
                      draw_scoreboard, draw_screen, draw_show, screen_for)
from .view import (CAMERA_LOST, LED_UNAVAILABLE, CameraView, CorrectionView, HistoryEntry, ItemView, MenuItem,
                   MenuView, Message, ScoreView, SeenCard, SeriesRow, ShowView, SideView, TableView, ZoneView,
                   card_seen_twice, show_view, view_from_state)
from .window import Display, choose_driver, parse_size

__all__ = [
    "CAMERA_LOST", "LED_UNAVAILABLE", "SCREENS", "SIZES", "Action", "CameraView", "CardItem", "CorrectionView",
    "Display", "Drawn", "HistoryEntry", "ItemView", "Layout", "MenuItem", "MenuView", "Message", "ScoreView",
    "ScreenCommand", "SeenCard", "SeriesRow", "ShowView", "SideView", "TableView", "Target", "TextItem",
    "ZoneView", "calibration_menu", "card_seen_twice", "choose_driver", "command_for_event", "draw_camera",
    "draw_correction", "draw_game_over", "draw_history", "draw_menu", "draw_play", "draw_scoreboard", "draw_screen",
    "draw_show",
    "new_game_menu", "parse_size", "screen_for", "settings_menu", "show_view", "view_from_state",
]
