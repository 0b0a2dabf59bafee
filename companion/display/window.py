"""The window: owns pygame's display, draws a view only when it changed, turns events into commands.

SDL picks the video driver from ``SDL_VIDEODRIVER`` when it is set (``dummy`` in tests); on a Raspberry Pi console
with no desktop it is set to ``kmsdrm`` and the window fills the screen.

>>> import os; os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
'dummy'
>>> from companion.display.samples import sample_views
>>> with Display((800, 480)) as display:
...     display.render(sample_views()["scoreboard"]), display.render(sample_views()["scoreboard"])
(True, False)
"""

from __future__ import annotations

import glob
import os
from typing import Self
from collections.abc import Mapping

import pygame

from ..errors import ConfigError
from .draw import Drawn
from .input import ScreenCommand, command_for_event
from .screens import draw_screen


def choose_driver(env: Mapping[str, str] = os.environ, *, has_drm: bool | None = None) -> str | None:
    """The SDL video driver to ask for: None to keep ``SDL_VIDEODRIVER`` (or SDL's own choice on a desktop),
    ``kmsdrm`` on a console with a DRM device and no desktop session.

    >>> choose_driver({"SDL_VIDEODRIVER": "dummy"}), choose_driver({"DISPLAY": ":0"}, has_drm=True)
    (None, None)
    >>> choose_driver({}, has_drm=True)
    'kmsdrm'
    """
    if env.get("SDL_VIDEODRIVER") or env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    if has_drm is None:
        has_drm = bool(glob.glob("/dev/dri/card*"))
    return "kmsdrm" if has_drm else None


def parse_size(size: str | tuple[int, int]) -> tuple[int, int]:
    """``"800x480"`` or ``(800, 480)`` to a size; raises :class:`ConfigError` quoting anything else."""
    if isinstance(size, str):
        try:
            w, h = (int(v) for v in size.lower().split("x"))
        except ValueError:
            raise ConfigError(f"display size {size!r} is not WIDTHxHEIGHT, e.g. 800x480") from None
    else:
        w, h = size
    if not (160 <= w <= 7680 and 120 <= h <= 4320):
        raise ConfigError(f"display size {w}x{h} is out of range: use e.g. 800x480")
    return w, h


class PygameWindow:
    """What every companion window does the same way: save a screenshot, close once (twice is safe), and work as a
    context manager. A subclass sets ``surface`` and ``_closed = False`` when it opens."""

    surface: pygame.Surface
    _closed: bool = True

    def screenshot(self, path: str | os.PathLike) -> None:
        """Save what is on screen as a PNG (or any format pygame knows from the file name)."""
        pygame.image.save(self.surface, os.fspath(path))

    def close(self) -> None:
        """Close the window; safe to call twice."""
        if not self._closed:
            self._closed = True
            pygame.display.quit()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Display(PygameWindow):
    """The game screen. ``render(view)`` draws a view (skipping it when nothing changed) and ``commands()``
    returns what the keys and touches since the last call mean.

    ``fullscreen`` defaults to on with the ``kmsdrm`` driver (the Pi console) and off elsewhere. Full screen opens
    at the screen's own size (``pygame.display.get_desktop_sizes``), whatever size was asked for: on kmsdrm a size
    the panel lacks would switch its mode or letterbox the picture, and touches (which SDL reports across the whole
    panel) would land off their targets. Touches are mapped to the panel in any case.
    """

    def __init__(self, size: str | tuple[int, int] = (800, 480), *, fullscreen: bool | None = None,
                 title: str = "Cribbage companion") -> None:
        self.size = parse_size(size)
        driver = choose_driver()
        if driver:
            os.environ["SDL_VIDEODRIVER"] = driver
        pygame.display.init()
        try:
            if not pygame.font.get_init():
                # fonts loaded before a pygame.quit() (companion watch and calibrate end with one) are dead now
                from . import draw
                draw._fonts.clear()
                draw.clear_caches()
            pygame.font.init()
            driver = pygame.display.get_driver()
            if fullscreen is None:
                fullscreen = driver == "kmsdrm"
            self.panel = _desktop_size() if fullscreen else None
            self.surface = pygame.display.set_mode(self.panel or self.size, pygame.FULLSCREEN if fullscreen else 0)
            self.size = self.surface.get_size()
            pygame.display.set_caption(title)
            if driver == "kmsdrm":
                pygame.mouse.set_visible(False)
        except Exception:
            pygame.display.quit()
            raise
        self.driver = driver
        self.drawn: Drawn | None = None
        self.frames = 0
        self._last: tuple | None = None
        self._closed = False

    def render(self, view, screen: str | None = None, *, force: bool = False) -> bool:
        """Draw ``view`` (on ``screen`` for a table view) if it differs from the last one drawn; return whether
        it drew."""
        key = (view, screen)
        if not force and self._last is not None and self._last == key:
            return False
        self.drawn = draw_screen(self.surface, view, screen)
        pygame.display.flip()
        self._last = key
        self.frames += 1
        return True

    def commands(self) -> list[ScreenCommand]:
        """The commands from the events waiting (keys, clicks, touches, closing the window)."""
        out = []
        for event in pygame.event.get():
            if event.type in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE):
                self._last = None  # the window needs drawing again
                continue
            if event.type in (pygame.FINGERDOWN, pygame.FINGERUP, pygame.FINGERMOTION):
                event = self._on_surface(event)
            command = command_for_event(event, self.drawn)
            if command is not None:
                out.append(command)
        return out

    def _on_surface(self, event: pygame.event.Event) -> pygame.event.Event:
        """A touch event with ``x``/``y`` as fractions of the drawn surface. SDL gives them as fractions of the touch
        panel; when the surface is smaller than the panel it sits centred on it."""
        if not self.panel or self.panel == self.size:
            return event
        (pw, ph), (w, h) = self.panel, self.size
        x = (event.x * pw - (pw - w) / 2) / w
        y = (event.y * ph - (ph - h) / 2) / h
        return pygame.event.Event(event.type, {**event.dict, "x": x, "y": y})



def _desktop_size() -> tuple[int, int] | None:
    """The first screen's size as the desktop (or the console) has it, None if SDL does not know it."""
    try:
        sizes = pygame.display.get_desktop_sizes()
    except (AttributeError, pygame.error):
        return None
    return (int(sizes[0][0]), int(sizes[0][1])) if sizes and min(sizes[0]) > 0 else None


__all__ = ["Display", "choose_driver", "parse_size"]
