"""The seams between the companion's parts, as :class:`typing.Protocol` s: what the app needs of a frame source, a
card reader, a tracker, an LED board, a display and the controls, whichever real or simulated part fills it.

Each real part (``vision.sources.PiCameraSource``, ``board.pegboard.PegBoard``, ``display.window.Display`` ...)
and each stand-in (``sim.reader.SimSource``, the scripted reader) satisfies these structurally; nothing inherits
from them. They are what :class:`companion.app.Companion` is typed by, so a part that drifts from its seam is caught
by the type checker rather than at the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from .display.input import ScreenCommand
from .vision.detection import Detection

__all__ = ["Board", "Controls", "Display", "FrameSource", "Reader", "TableTracker"]

#: a card reader: one BGR frame in, the cards it found out (``vision.reader.recognize``, the scripted reader)
Reader = Callable[[np.ndarray], list[Detection]]


class FrameSource(Protocol):
    """A camera, a video or the simulated table: the newest frame, when it was taken, and how it is doing."""

    time: float | None
    status: str  #: how it is doing, in words (``state`` is the same as a value, on the real sources)

    def read(self) -> np.ndarray | None: ...

    def close(self) -> None: ...


class TableTracker(Protocol):
    """Frames in, the table's changes out (``vision.tracker.Tracker``)."""

    @property
    def calibration(self) -> Any: ...

    @property
    def unsure(self) -> Sequence[Any]: ...

    def process(self, frame: np.ndarray, t: float) -> list[Any]: ...


class Board(Protocol):
    """An LED peg board, real or virtual (``board.pegboard.PegBoard``)."""

    layout: Any

    def show_view(self, view: Any, now: float | None = None) -> Any: ...

    def tick(self, now: float) -> Any: ...

    def close(self) -> None: ...


class Display(Protocol):
    """The screen (``display.window.Display``)."""

    driver: str

    def render(self, view: Any, screen: str | None = None, *, force: bool = False) -> bool: ...

    def commands(self) -> list[ScreenCommand]: ...

    def close(self) -> None: ...


class Controls(Protocol):
    """Buttons and the encoder (``board.controls.Controls``)."""

    def close(self) -> None: ...
