"""The menus as views: new game (variant, target, players, names, colours, rules options), settings, calibration.

Each builder turns current choices into a :class:`MenuView`; the app changes a choice when a line is chosen (its
``key`` says which) and builds the menu again. The variants and options come from the rules engine.

>>> [item.key for item in new_game_menu().items][:3]
['variant', 'target', 'players']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..rules.variants import VARIANTS, Options
from .view import SIDE_COLOURS, SIDE_MARKERS, MenuItem, MenuView

COLOUR_NAMES: dict[tuple[int, ...], str] = {SIDE_COLOURS[0]: "blue", SIDE_COLOURS[1]: "orange",
                                            SIDE_COLOURS[2]: "purple", SIDE_COLOURS[3]: "yellow"}


def _on(flag: bool) -> str:
    return "on" if flag else "off"


def new_game_menu(variant: str = "six-card", names: Sequence[str] = ("Alice", "Bob"), *,
                  options: Options = Options(), target: int | None = None,
                  colours: Sequence[tuple[int, int, int]] = SIDE_COLOURS, selected: int = 0) -> MenuView:
    """The new-game menu for the current choices."""
    v = VARIANTS[variant]
    sides = v.sides
    look = ", ".join(f"{COLOUR_NAMES.get(tuple(colours[i]), 'custom')} {SIDE_MARKERS[i % len(SIDE_MARKERS)]}"
                     for i in range(sides))
    items = [MenuItem("Variant", v.title or v.name, "variant"),
             MenuItem("Target", str(target or v.target), "target"),
             MenuItem("Players", f"{v.players}" + (" (partners)" if v.partners else ""), "players")]
    items += [MenuItem(f"Player {i + 1}", names[i] if i < len(names) else f"Player {i + 1}", f"name-{i}")
              for i in range(v.players)]
    items += [MenuItem("Sides", look, "colours"),
              MenuItem("Muggins", _on(options.muggins), "muggins"),
              MenuItem("Low-ball", _on(options.lowball), "lowball"),
              MenuItem("Stinkhole", _on(options.stinkhole), "stinkhole"),
              MenuItem("Games for win / skunk / double",
                       f"{options.worth.win} / {options.worth.skunk} / {options.worth.double_skunk}", "worth"),
              MenuItem("Start the game", "", "start")]
    return MenuView("New game", tuple(items), selected)


def settings_menu(settings: Mapping[str, str] | None = None, *, selected: int = 0) -> MenuView:
    """Settings: each key of ``settings`` (e.g. ``{"Screen size": "800x480"}``) with its value, then the
    calibration entry."""
    settings = settings or {"Screen size": "800x480", "Speech": "on", "LED brightness": "40%"}
    items = tuple(MenuItem(k, str(v), f"setting:{k}") for k, v in settings.items())
    return MenuView("Settings", items + (MenuItem("Calibration", "", "calibration"),), selected)


def calibration_menu(*, selected: int = 0) -> MenuView:
    """The calibration entry points: camera and mat, LEDs one by one, buttons."""
    return MenuView("Calibration", (MenuItem("Camera and mat", "", "calibrate-camera"),
                                    MenuItem("Show the camera view", "", "camera-view"),
                                    MenuItem("Light each LED in turn", "", "calibrate-leds"),
                                    MenuItem("Test the buttons", "", "calibrate-buttons")), selected)


__all__ = ["calibration_menu", "new_game_menu", "settings_menu"]
