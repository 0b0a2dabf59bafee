"""The simulator's stand-ins for the camera and the card reader: a frame source that renders the scripted table,
and a recogniser that reports what truly lies visible there (with optional misreads), fast enough for many tests."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from ..table import BACK, Change, SourceStatus
from ..vision.detection import Detection
from ..vision.sources import FrameSource
from .cards import card_corners_mm

__all__ = ["CONFUSABLE", "ScriptedRecognizer", "SimSource", "track_video"]

#: names a reader may mix up when a card is turned (6 and 9 look alike upside down)
CONFUSABLE = {"6": "9", "9": "6"}


class SimSource(FrameSource):
    """Frames of a :class:`~companion.sim.table.TableSim` at its frame rate, stamped with video time, then ``None``."""

    _sets_time = True

    def __init__(self, sim) -> None:
        super().__init__()
        self.sim = sim
        self.index = 0
        self.finished = False

    def _open(self) -> None:
        self.size = self.sim.size

    def _live_status(self) -> str:
        return f"simulated table, {self.sim.duration:g} s at {self.sim.fps:g} fps"

    def read(self):
        t = self.index / self.sim.fps
        if self._closed or t > self.sim.duration:
            self.finished = True
            self.status, self.state = "end of replay", SourceStatus.ENDED
            return None
        self.index += 1
        if not self._opened:
            self._try_open()
        self.time = t
        return self.sim.render(t)


class ScriptedRecognizer:
    """Reads a simulated frame from the script: every card whose index corner no hand covers, at its true corners.

    ``dropout`` is the chance a visible card is missed in a frame; ``flap`` maps a card to the name it is misread as
    (``{"6H": "9H"}``) every other reading during the ``flap_for`` seconds after it is laid. Call it right
    after the frame is rendered: it reads the table at the simulator's current time. ``backs=False`` never reports
    a face-down card, like a reader that cannot read backs. ``hidden``: (card, from, to) seconds during which that
    card is never read, as a hand or glare over it makes a real reader sure of it late.
    """

    def __init__(self, sim, *, dropout: float = 0.0, flap: dict[str, str] | None = None,
                 flap_for: float = 1.0, seed: int = 0, carried: bool = True, backs: bool = True,
                 hidden: Sequence[tuple[str, float, float]] = ()) -> None:
        self.sim = sim
        self.dropout = dropout
        self.flap = dict(flap or {})
        self._flips: dict[str, int] = {}
        self.flap_for = flap_for
        self.carried = carried
        self.backs = backs
        self.hidden = tuple(hidden)
        self.calls = 0
        self._rng = np.random.default_rng(seed)
        self._laid = {c.cards[0]: c.time for c in sim.truth if c.kind == Change.LAID}

    def __call__(self, frame: np.ndarray) -> list[Detection]:
        self.calls += 1
        t = self.sim.now
        cam = self.sim.camera_at(t)
        hands = [p.astype(np.float32) for p in self.sim.hand_polygons(t)]
        cards = list(self.sim.table_at(t).values()) + (self.sim.carried(t) if self.carried else [])
        out = []
        for c in cards:
            corners_mm = card_corners_mm(c.pos, c.angle)
            index = tuple(float(v) for v in corners_mm[0] * 0.8 + np.mean(corners_mm, 0) * 0.2)
            if any(cv2.pointPolygonTest(h, index, False) >= 0 for h in hands):
                continue
            if self.dropout and self._rng.random() < self.dropout:
                continue
            if not c.face_up and not self.backs:
                continue  # a reader that cannot see backs
            if c.face_up and any(code == c.card and t0 <= t < t1 for code, t0, t1 in self.hidden):
                continue
            label = c.card if c.face_up else BACK
            if label in self.flap and t - self._laid.get(label, -99) < self.flap_for:
                self._flips[label] = self._flips.get(label, 0) + 1
                if self._flips[label] % 2 == 0:  # every other reading, as a turned 6 read as a 9
                    label = self.flap[label]
            corners = tuple((float(x), float(y)) for x, y in cam.to_image(corners_mm))
            out.append(Detection(label, 0.95, corners))
        return out


def track_video(sim, recognize=None, *, calibrate: bool = True, **tracker_options):
    """Run a :class:`~companion.vision.tracker.Tracker` over every frame of ``sim`` (with the scripted reader unless
    ``recognize`` is given; calibrating from the mat's markers) and return the tracker."""
    from ..vision.calibration import AutoCalibrator
    from ..vision.tracker import Tracker

    recognize = recognize if recognize is not None else sim.recognizer()
    tracker = Tracker(recognize, AutoCalibrator() if calibrate else None, **tracker_options)
    with sim.source() as source:
        while (frame := source.read()) is not None:
            tracker.process(frame, source.time)
    return tracker
