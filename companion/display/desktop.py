"""The desktop window: the camera view, the virtual LED board and the status screen side by side.

On a PC there is room for more than the Pi's 800x480 status screen, and a newcomer needs to see what the companion
reads and lights: the camera picture with every card outlined and named (unknown ones marked), the peg board as its
LEDs would light, and the status screen. Keys C, B and S (or F1, F2, F3) hide and show each part; the window can
be resized and everything is laid out again for its size. On the Pi's console the status screen alone is shown.

:func:`open_window` picks: :class:`DesktopDisplay` on a desktop with room for it, else the plain
:class:`~companion.display.window.Display`. Both have the same interface (``render``, ``commands``,
``screenshot``, ``close``, ``drawn``, ``driver``), so the app does not care which it has.

>>> import os; os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
'dummy'
>>> from companion.display.samples import sample_views, sample_camera_view
>>> with DesktopDisplay((1280, 800), feed=lambda: (sample_camera_view(), None)) as window:
...     _ = window.render(sample_views()["play-run"])
...     sorted(window.panes)
['board', 'camera', 'status']
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pygame

from ..cards import Card
from ..table import Screen
from .draw import BG, DIM, FG, PANEL, Canvas, Drawn, text_size
from .input import Action, ScreenCommand, command_at, command_for_event
from .layout import Layout
from .screens import draw_camera, draw_screen
from .view import CameraView, SeenCard, ZoneView
from .window import Display, PygameWindow, choose_driver, parse_size

DESKTOP_SIZE = (1280, 800)
STATUS_ASPECT = 800 / 480  # the status screen keeps the Pi screen's shape, so it looks as it will on the table
PANES = ("camera", "board", "status")
TOGGLE_KEYS = {pygame.K_c: "camera", pygame.K_F1: "camera", pygame.K_b: "board", pygame.K_F2: "board",
               pygame.K_s: "status", pygame.K_F3: "status"}

Feed = Callable[[], tuple]
"""What the window shows beside the status screen: the camera view (or None), the board (anything with
``layout`` and ``frame``, such as :class:`~companion.board.pegboard.PegBoard`, or None) and, optionally, the last
lines of the game's log (what the companion decided, newest last)."""


def layout_panes(size: tuple[int, int], shown: tuple[str, ...]) -> dict[str, pygame.Rect]:
    """The rectangle of each shown part: camera and status side by side on top (the status screen in the Pi
    screen's shape), the board across the bottom in the height that is left (a peg board is long and low).

    >>> sorted((k, tuple(r)) for k, r in layout_panes((1280, 800), ("camera", "board", "status")).items())
    [('board', (0, 384, 1280, 416)), ('camera', (0, 0, 640, 384)), ('status', (640, 0, 640, 384))]
    >>> layout_panes((1280, 800), ("status",))["status"]
    Rect(0, 0, 1280, 800)
    """
    w, h = size
    top_parts = [p for p in ("camera", "status") if p in shown]
    out: dict[str, pygame.Rect] = {}
    board_min = max(120, w // 7 + 40) if "board" in shown else 0
    if not top_parts:
        top_h = 0
    elif "board" not in shown:
        top_h = h
    elif top_parts == ["camera", "status"]:
        top_h = min(h - board_min, int(w / 2 / STATUS_ASPECT))
    else:  # one of them across the top, in its own shape
        top_h = min(h - board_min, int(w / (STATUS_ASPECT if top_parts == ["status"] else 16 / 9)))
    if "board" in shown:
        out["board"] = pygame.Rect(0, top_h, w, h - top_h)
    if top_parts == ["camera", "status"]:
        status_w = min(int(top_h * STATUS_ASPECT), w // 2) if "board" in shown else min(int(top_h * STATUS_ASPECT),
                                                                                           int(w * 0.625))
        out["camera"] = pygame.Rect(0, 0, w - status_w, top_h)
        out["status"] = pygame.Rect(w - status_w, 0, status_w, top_h)
    elif top_parts:
        out[top_parts[0]] = pygame.Rect(0, 0, w, top_h)
    return out


class DesktopDisplay(PygameWindow):
    """A resizable window with the camera view, the LED board and the status screen. ``feed`` is called on each
    render for the camera view and the board; ``render(view)`` draws the status view as the plain display does."""

    def __init__(self, size: str | tuple[int, int] = DESKTOP_SIZE, *, feed: Feed | None = None,
                 title: str = "Cribbage companion", shown: tuple[str, ...] = PANES,
                 typing: Callable[[], bool] | None = None) -> None:
        self.size = parse_size(size)
        driver = choose_driver()
        if driver:
            os.environ["SDL_VIDEODRIVER"] = driver
        pygame.display.init()
        try:
            pygame.font.init()
            self.surface = pygame.display.set_mode(self.size, pygame.RESIZABLE)
            pygame.display.set_caption(title)
        except Exception:
            pygame.display.quit()
            raise
        self.driver = pygame.display.get_driver()
        self.feed = feed or (lambda: (None, None))
        self.typing = typing or (lambda: False)  # while a name is typed, C, B and S are letters (F1-F3 still work)
        self.shown = tuple(shown)
        self.panes: dict[str, pygame.Rect] = {}
        self.drawn: Drawn | None = None  # the status screen's, in its own coordinates (for touches)
        self.camera_drawn: Drawn | None = None  # what the camera pane drew (its labels), for tests
        self.frames = 0
        self._last: tuple | None = None
        self._status: pygame.Surface | None = None
        self._status_key: tuple | None = None
        self._closed = False

    # --- drawing ---------------------------------------------------------------------------------------------------
    def render(self, view, screen: str | None = None, *, force: bool = False) -> bool:
        """Draw the window if the status view, the camera picture or the board's LEDs changed; return whether it
        drew."""
        camera, board, *rest = self.feed()
        log = tuple(rest[0]) if rest else ()
        leds = tuple(getattr(board, "frame", ()) or ()) if board is not None else ()
        key = (view, screen, camera, leds, log, self.shown, self.surface.get_size())
        if not force and self._last == key:
            return False
        self.surface.fill(BG)
        self.panes = layout_panes(self.surface.get_size(), self.shown)
        for name, rect in self.panes.items():
            sub = self.surface.subsurface(rect)
            if name == "status":
                self._draw_status(sub, view, screen)
            elif name == "camera":
                self._draw_camera(sub, camera)
            else:
                self._draw_board(sub, board, log)
        self._draw_keys()
        pygame.display.flip()
        self._last = key
        self.frames += 1
        return True

    def _draw_status(self, sub: pygame.Surface, view, screen: str | None) -> None:
        size = sub.get_size()
        key = (view, screen, size)
        if self._status is None or self._status_key != key:  # the status screen is redrawn only when it changed
            self._status = pygame.Surface(size)
            self.drawn = draw_screen(self._status, view, screen)
            self._status_key = key
        sub.blit(self._status, (0, 0))

    def _draw_camera(self, sub: pygame.Surface, camera: CameraView | None) -> None:
        if camera is None:
            _caption(sub, "No camera: cards are entered with the keys (Enter, arrows)")
            self.camera_drawn = None
            return
        self.camera_drawn = draw_camera(sub, camera)

    def _draw_board(self, sub: pygame.Surface, board, log: tuple[str, ...] = ()) -> None:
        """The peg board as its LEDs light, and under it the last things the companion decided."""
        sub.fill(PANEL)
        canvas = Canvas(sub)
        w, h = sub.get_size()
        pad = Layout(*self.surface.get_size()).pad
        size = Layout(*self.surface.get_size()).fs(20, 14)
        line = text_size("Mg", size)[1]
        shown_log = log[-max(0, (h - line - 2 * pad - 60) // 2 // line):] if log else ()
        board_h = h - line - 2 * pad - (len(shown_log) * line + pad if shown_log else 0)
        layout = getattr(board, "layout", None)
        if layout is None:
            canvas.text("No LED board", (pad, pad // 2), size, DIM, role="board-label")
        else:
            from ..board.virtual import draw_board

            label = "The LED board" + (" (virtual: no LEDs connected)" if getattr(board, "virtual", False) else "")
            canvas.text(label, (pad, pad // 2), size, DIM, role="board-label")
            draw_board(sub, pygame.Rect(2 * pad, line + pad, w - 4 * pad, board_h), layout,
                       list(getattr(board, "frame", ())))
        y = h - len(shown_log) * line - pad
        for k, text in enumerate(shown_log):  # newest last, brightest
            canvas.text(text, (2 * pad, y + k * line), size, FG if k == len(shown_log) - 1 else DIM, role="log",
                        max_width=w - 4 * pad)

    def _draw_keys(self) -> None:
        """The toggles, in the corner of the window: which part each key hides or shows."""
        if self.size[1] < 300:
            return
        size = Layout(*self.surface.get_size()).fs(18, 13)
        text = "   ".join(f"{k}: {'hide' if p in self.shown else 'show'} {p}"
                          for k, p in (("C", "camera"), ("B", "board"), ("S", "status")))
        w, h = text_size(text, size)
        x, y = self.surface.get_width() - w - 8, self.surface.get_height() - h - 4
        pygame.draw.rect(self.surface, BG, (x - 6, y - 2, w + 12, h + 4), border_radius=4)
        Canvas(self.surface).text(text, (x, y), size, DIM, role="keys")

    # --- input -------------------------------------------------------------------------------------------------------
    def toggle(self, pane: str) -> None:
        """Hide ``pane`` if shown, show it if hidden (the last shown part cannot be hidden)."""
        if pane in self.shown:
            if len(self.shown) > 1:
                self.shown = tuple(p for p in self.shown if p != pane)
        else:
            self.shown = tuple(p for p in PANES if p in self.shown or p == pane)
        self._last = None

    def commands(self) -> list[ScreenCommand]:
        """The commands from the events waiting; the toggles and resizing are handled here."""
        out = []
        for event in pygame.event.get():
            command = self.handle_event(event)
            if command is not None:
                out.append(command)
        return out

    def handle_event(self, event: pygame.event.Event) -> ScreenCommand | None:
        if event.type in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE, pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self._last = None  # drawn again, laid out for the new size
            return None
        if event.type == pygame.KEYDOWN and event.key in TOGGLE_KEYS and not getattr(event, "mod", 0) & (
                pygame.KMOD_CTRL | pygame.KMOD_ALT) and (event.key in (pygame.K_F1, pygame.K_F2, pygame.K_F3)
                                                         or not self.typing()):
            self.toggle(TOGGLE_KEYS[event.key])
            return None
        if event.type == pygame.KEYDOWN and event.key == pygame.K_q and self.typing() and getattr(event, "unicode", ""):
            # a "q" in a name is a letter, not "quit" (closing the window still quits)
            return ScreenCommand(Action.SELECT, target="text", text=event.unicode)
        status = self.panes.get("status")
        if event.type == pygame.MOUSEBUTTONDOWN:
            if status is None or not status.collidepoint(event.pos) or getattr(event, "button", 1) != 1:
                return None
            if getattr(event, "touch", False):
                return None
            return command_at((event.pos[0] - status.x, event.pos[1] - status.y), self.drawn)
        if event.type == pygame.FINGERDOWN:
            if status is None:
                return None
            w, h = self.surface.get_size()
            pos = (int(event.x * w), int(event.y * h))
            if not status.collidepoint(pos):
                return None
            return command_at((pos[0] - status.x, pos[1] - status.y), self.drawn)
        return command_for_event(event, None)



def _caption(sub: pygame.Surface, text: str) -> None:
    sub.fill(PANEL)
    lay = Layout(*sub.get_size())
    Canvas(sub).text(text, sub.get_rect().center, lay.fs(24, 14), FG, anchor="center", role="caption",
                     max_width=sub.get_width() - 2 * lay.pad)


# ---------------------------------------------------------------------------------------------------------------
# Choosing the window, and what the app feeds it


def wants_desktop(driver: str, desktop: tuple[int, int] | None, status: tuple[int, int],
                  env: dict[str, str] | os._Environ = os.environ) -> bool:
    """Whether to open the desktop window: ``COMPANION_WINDOW`` (``desktop`` or ``status``) if set, else on a
    windowing system (not the Pi console, not a headless driver) whose screen is larger than the status screen.

    >>> wants_desktop("x11", (1920, 1080), (800, 480), {}), wants_desktop("kmsdrm", (800, 480), (800, 480), {})
    (True, False)
    >>> wants_desktop("dummy", (1024, 768), (800, 480), {}), wants_desktop("dummy", None, (800, 480),
    ...                                                                    {"COMPANION_WINDOW": "desktop"})
    (False, True)
    """
    choice = env.get("COMPANION_WINDOW", "").strip().lower()
    if choice in ("desktop", "status"):
        return choice == "desktop"
    if driver in ("kmsdrm", "fbcon", "directfb", "dummy", "offscreen", ""):
        return False
    return desktop is not None and desktop[0] > status[0] and desktop[1] > status[1]


def open_window(status_size: tuple[int, int], *, fullscreen: bool | None = None, app: Any = None):
    """The window for this machine: the desktop window (fed from ``app``) where there is room for it, else the
    status screen alone (the Pi's touch screen)."""
    driver = choose_driver()
    if driver:
        os.environ["SDL_VIDEODRIVER"] = driver
    pygame.display.init()
    driver = pygame.display.get_driver()
    try:
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        sizes = []
    desktop = sizes[0] if sizes else None
    if fullscreen or not wants_desktop(driver, desktop, (int(status_size[0]), int(status_size[1]))):
        return Display(status_size, fullscreen=fullscreen)
    size = DESKTOP_SIZE
    if desktop is not None:  # a window that fits the screen with room for its frame and the task bar
        size = (min(size[0], int(desktop[0] * 0.92)), min(size[1], int(desktop[1] * 0.88)))
    if app is None:
        return DesktopDisplay(size)
    return DesktopDisplay(size, feed=lambda: app_feed(app),
                          typing=lambda: getattr(app.controller, "screen", "") == Screen.NEW_GAME)


def zone_label(zone: str, players: tuple[str, ...]) -> str:
    """A zone of the mat as a player says it: ``seat1`` -> "Ann's row"; ``starter`` -> "starter".

    >>> zone_label("seat2", ("Ann", "Bob")), zone_label("crib", ("Ann", "Bob"))
    ("Bob's row", 'crib')
    """
    if zone.startswith("seat") and zone[4:].isdigit():
        seat = int(zone[4:]) - 1
        return f"{players[seat]}'s row" if 0 <= seat < len(players) else f"seat {seat + 1}"
    return zone


def camera_view(frame, detections, calibration=None, *, players: tuple[str, ...] = (), frame_id: int = 0,
                status: str = "") -> CameraView:
    """A :class:`CameraView` from a BGR camera frame, the reader's detections and the calibration's zones: every
    card outlined, named when read, "unknown" when not, "face down" for a back."""
    from ..table import BACK, UNKNOWN

    rgb = frame[:, :, ::-1] if frame is not None and frame.ndim == 3 else frame
    cards = []
    for d in detections or ():
        points = tuple((float(x), float(y)) for x, y in d.corners)
        if d.card == BACK:
            cards.append(SeenCard(points, None, float(d.confidence), "face down"))
        elif d.card == UNKNOWN:
            cards.append(SeenCard(points, None, float(d.confidence), "unknown"))
        else:
            try:
                cards.append(SeenCard(points, Card.parse(d.card), float(d.confidence)))
            except ValueError:
                cards.append(SeenCard(points, None, float(d.confidence), "unknown"))
    zones = []
    if calibration is not None:
        for zone in calibration.zones.zones:
            pts = calibration.to_image(zone.polygon)
            zones.append(ZoneView(zone_label(zone.name, players), tuple((float(x), float(y)) for x, y in pts)))
    return CameraView(rgb, frame_id, tuple(zones), tuple(cards), status)


def app_feed(app) -> tuple[CameraView | None, Any, tuple[str, ...]]:
    """The camera view, the board and the last decisions of a running :class:`~companion.app.Companion`."""
    tracker = getattr(app, "tracker", None)
    frame = getattr(tracker, "frame", None)  # the last frame the tracker looked at
    camera = None
    if frame is not None and tracker is not None:
        status = getattr(getattr(app, "source", None), "status", "") or ""
        camera = camera_view(frame, tracker.last_detections, tracker.calibration,
                             players=tuple(app.game.state.players), frame_id=tracker.frames, status=status)
    log = tuple(getattr(d, "reason", "") for d in getattr(app, "decisions", ())[-6:])
    return camera, getattr(app, "board", None), log


__all__ = ["DESKTOP_SIZE", "PANES", "DesktopDisplay", "app_feed", "camera_view", "layout_panes", "open_window",
           "wants_desktop", "zone_label"]
