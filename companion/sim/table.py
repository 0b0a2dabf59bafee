"""A simulated cribbage table filmed from above: cards laid one by one in the seat rows, hands passing over, the light
changing, the camera bumped, a card slid after it was laid, piles turned face down after a 31. Every video carries
the list of changes that truly happened (:attr:`TableSim.truth`), in the tracker's own terms.

>>> sim = TableSim(seats=2, size=(640, 360), fps=10, seed=1)
>>> sim.lay("5H", "seat1", at=1.0).lay("TS", "seat2", at=2.5).turn_down("seat1", at=4.0).end(at=6.0)
TableSim(seats=2, paper='a4', actions=3)
>>> [str(c) for c in sim.truth]
['   1.00 s  laid 5H in seat1', '   2.50 s  laid TS in seat2', '   4.00 s  turned 5H face down in seat1']
>>> t, frame = next(iter(sim.frames()))
>>> frame.shape
(360, 640, 3)
"""

from __future__ import annotations

import bisect
import json
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

from ..table import Zone
from ..vision.mat import Mat, make_mat
from ..vision.zones import CARD_MM
from ..vision.tracker import CLEARED, FACE_DOWN, LAID, MOVED, REMOVED, TableChange
from .camera import TableCamera, render_mat_layer
from .cards import card_image, paste_card

__all__ = ["CardState", "TableSim"]

CARD_W, CARD_H = CARD_MM
ROW_STEP = 44.0  #: mm between the cards of a play row (they overlap, the index stays visible)
ROW_RUN = 200.0  #: mm that four cards of a play row take
SKIN = (110, 150, 205)  # BGR
_ROUND = np.linspace(0, 2 * np.pi, 24, endpoint=False)
_PALM = np.stack([55 * np.cos(_ROUND), 45 * np.sin(_ROUND)], 1)  #: a palm (mm), an ellipse along its arm


@dataclass(frozen=True)
class CardState:
    """A card on the simulated table: centre and angle in mat mm / degrees, face up or down."""

    card: str
    zone: str
    pos: tuple[float, float]
    angle: float
    face_up: bool = True


@dataclass(frozen=True)
class _Action:
    at: float
    kind: str
    args: dict = field(default_factory=dict)


@dataclass(frozen=True)
class _Hand:
    """A hand moving from the player's edge to ``target`` (arrives at ``at``), staying ``dwell`` s, and back."""

    start: float
    at: float
    leave: float
    end: float
    edge: tuple[float, float]
    target: tuple[float, float]
    carry: CardState | None = None  # a card held face up until ``at``

    def position(self, t: float) -> tuple[float, float] | None:
        if t < self.start or t > self.end:
            return None
        if t <= self.at:
            f = (t - self.start) / max(self.at - self.start, 1e-6)
        elif t <= self.leave:
            f = 1.0
        else:
            f = 1 - (t - self.leave) / max(self.end - self.leave, 1e-6)
        f = 0.5 - 0.5 * math.cos(math.pi * min(max(f, 0.0), 1.0))  # ease in and out
        return (self.edge[0] + f * (self.target[0] - self.edge[0]), self.edge[1] + f * (self.target[1] - self.edge[1]))


class TableSim:
    """Build a scripted table with the chaining methods, then take :meth:`frames`, a :meth:`source`, the
    :attr:`truth`, a :meth:`recognizer` that reads the cards from the script, or :meth:`save` it to disk."""

    def __init__(self, *, seats: int = 2, paper: str = "a4", size=(1280, 720), fps: float = 10.0, seed: int = 0,
                 tilt: float = 0.12, angle_deg: float = 2.0, deck: str = "photos", table: str = "wood",
                 noise: float = 3.0, fill: float = 0.8, lean: float = 1.0) -> None:
        self.mat: Mat = make_mat(seats, paper)
        self.seats, self.paper = seats, paper
        self.size = tuple(size)
        self.fps = fps
        self.seed = seed
        self.deck = deck
        x0, y0, x1, y1 = self.mat.extent
        self.camera = TableCamera.looking_at((x0, y0, x1 - x0, y1 - y0), self.size, tilt=tilt, angle_deg=angle_deg,
                                             fill=fill, lean=lean)
        self.duration = 0.0
        self.actions: list[_Action] = []
        self.truth: list[TableChange] = []
        self.now = 0.0  #: time of the frame last rendered (the scripted recogniser reads the table at this time)
        self._table_kind = table
        self._noise = noise
        self._layers: dict = {}
        self._bases: dict = {}
        self._noises: list[np.ndarray] | None = None
        self._state: dict[str, CardState] = {}
        self._rows: dict[str, int] = {}
        self._down: dict[str, list[str]] = {}
        self._order: dict[str, list[str]] = {}
        self._hands: list[_Hand] = []
        self._cameras: list[tuple[float, TableCamera]] = [(-math.inf, self.camera)]
        self._light: list[tuple[float, float, float, float]] = []  # (start, end, from, to)
        self._changes: list[tuple[float, int, dict]] = []  # (time, seq, state snapshot)
        self._change_times: list[float] | None = None
        self._spans: np.ndarray | None = None
        self._lays: tuple[int, dict[str, tuple[list[float], list[int]]]] | None = None
        self._snapshot(-math.inf)

    def __repr__(self) -> str:
        return f"TableSim(seats={self.seats}, paper={self.paper!r}, actions={len(self.actions)})"

    # -- the script ------------------------------------------------------------------------------------------------
    def lay(self, card: str, zone: str, *, at: float, face_up: bool = True, offset=(0.0, 0.0),
            by: str | None = None) -> "TableSim":
        """A player lays ``card`` in ``zone`` (the next place in a seat row); it touches the table at ``at``."""
        state = CardState(card, zone, self._slot(zone, offset), self._facing(zone), face_up)
        self._hand(by or zone, state.pos, at, carry=state if face_up else None)
        self._state[card] = state
        self._order.setdefault(zone, []).append(card)
        if face_up:
            self.truth.append(TableChange(LAID, zone, (card,), at))
        return self._act(at, "lay", card=card, zone=zone)

    def pass_hand(self, zone: str, *, at: float, duration: float = 0.8, by: str | None = None) -> "TableSim":
        """A hand passes over ``zone``, covering it for about ``duration`` seconds from ``at``."""
        z = self.mat.zones[zone]
        self._hands.append(self._make_hand(by or zone, z.center, at, dwell=duration, approach=0.35))
        return self._act(at, "pass_hand", zone=zone)

    def change_light(self, *, at: float, to: float, over: float = 1.5) -> "TableSim":
        """The light changes to ``to`` times the first light, ramping over ``over`` seconds from ``at``."""
        start = self._light[-1][3] if self._light else 1.0
        self._light.append((at, at + over, start, to))
        return self._act(at, "light", to=to)

    def bump(self, *, at: float, dx_mm: float = 4.0, dy_mm: float = -3.0, angle_deg: float = 0.8) -> "TableSim":
        """Someone knocks the camera at ``at``: the picture shifts by a few mm and turns a little."""
        w, h = self.mat.zones.size_mm
        cam = self._cameras[-1][1].bumped(dx_mm=dx_mm, dy_mm=dy_mm, angle_deg=angle_deg, about=(w / 2, h / 2))
        self._cameras.append((at, cam))
        return self._act(at, "bump")

    def slide(self, card: str, *, at: float, dx_mm: float = 10.0, dy_mm: float = 4.0) -> "TableSim":
        """A card already laid is pushed by (dx, dy) mm at ``at`` (a hand comes to do it)."""
        old = self._state[card]
        pos = (old.pos[0] + dx_mm, old.pos[1] + dy_mm)
        zone = self.mat.zones.zone_at(*pos)
        self._hand(old.zone, old.pos, at)
        self._state[card] = replace(old, pos=pos, zone=zone)
        if zone != old.zone:
            self._order[old.zone].remove(card)
            self._order.setdefault(zone, []).append(card)
            self.truth.append(TableChange(MOVED, zone, (card,), at, from_zone=old.zone))
        return self._act(at, "slide", card=card)

    def turn_down(self, zone: str, *, at: float) -> "TableSim":
        """The face-up cards of ``zone`` are turned face down where they lie (after a 31 or a go)."""
        up = [c for c in self._order.get(zone, []) if self._state[c].face_up]
        self._hand(zone, self._pile_center(zone), at, dwell=0.3)
        for c in up:
            self._state[c] = replace(self._state[c], face_up=False)
        self._down.setdefault(zone, []).extend(up)
        if up:
            self.truth.append(TableChange(FACE_DOWN, zone, tuple(up), at))
        return self._act(at, "turn_down", zone=zone)

    def clear(self, zone: str, *, at: float) -> "TableSim":
        """Every card of ``zone`` is picked up at ``at``."""
        self._hand(zone, self._pile_center(zone), at, dwell=0.3)
        down = self._down.pop(zone, [])
        up = [c for c in self._order.get(zone, []) if self._state[c].face_up]
        for c in self._order.pop(zone, []):
            del self._state[c]
        self._rows[zone] = 0
        cards = tuple(down) + tuple(up)
        if len(cards) > 1:
            self.truth.append(TableChange(CLEARED, zone, cards, at))
        elif cards:
            self.truth.append(TableChange(REMOVED, zone, cards, at))
        return self._act(at, "clear", zone=zone)

    def end(self, *, at: float) -> "TableSim":
        """The video ends at ``at`` seconds."""
        self.duration = max(self.duration, at)
        return self

    def _act(self, at: float, kind: str, **args) -> "TableSim":
        if self.actions and at < self.actions[-1].at:
            raise ValueError(f"{kind} at {at!r} s comes before the previous action at {self.actions[-1].at!r} s: "
                             "script the table in time order")
        self.actions.append(_Action(at, kind, args))
        self.duration = max(self.duration, at + 1.0)
        self._snapshot(at)
        return self

    def _snapshot(self, at: float) -> None:
        self._changes.append((at, len(self._changes), dict(self._state)))
        self._changes.sort(key=lambda c: (c[0], c[1]))

    # -- geometry ----------------------------------------------------------------------------------------------------
    def _facing(self, zone: str) -> float:
        return self.mat.zones[zone].facing if zone in self.mat.zones.names else 0.0

    def _slot(self, zone: str, offset) -> tuple[float, float]:
        z = self.mat.zones[zone]
        x, y, w, h = z.rect
        i = self._rows.get(zone, 0)
        if zone.startswith("seat"):
            self._rows[zone] = i + 1
            # a player lays the first card in front of them: four cards' run (200 mm) centred in a longer row, the
            # fifth and later (the seven-card game) reach into the rest of it
            length = w if int(z.facing) % 180 == 0 else h
            along = max(0.0, (length - ROW_RUN) / 2) + 4 + CARD_W / 2 + i * ROW_STEP
            pos = {0: (x + along, y + h / 2), 180: (x + w - along, y + h / 2), 90: (x + w / 2, y + along),
                   270: (x + w / 2, y + h - along)}[int(z.facing) % 360]
        else:
            pos = z.center
        return (pos[0] + offset[0], pos[1] + offset[1])

    def _pile_center(self, zone: str) -> tuple[float, float]:
        cards = [self._state[c].pos for c in self._order.get(zone, [])]
        return tuple(np.mean(cards, axis=0)) if cards else self.mat.zones[zone].center

    def _edge(self, zone: str, target) -> tuple[float, float]:
        w, h = self.mat.zones.size_mm
        facing = self._facing(zone) if zone.startswith("seat") else 0
        return {0: (target[0], h + 160), 180: (target[0], -160), 90: (-160, target[1]),
                270: (w + 160, target[1])}[int(facing) % 360]

    def _make_hand(self, who: str, target, at: float, *, dwell: float = 0.15, approach: float = 0.6,
                   carry: CardState | None = None) -> _Hand:
        edge = self._edge(who, target)
        # the palm rests beside the card, towards the player, covering its near half
        toward = np.subtract(edge, target)
        toward = toward / (np.linalg.norm(toward) or 1)
        palm = (target[0] + toward[0] * 45, target[1] + toward[1] * 45)
        return _Hand(at - approach, at, at + dwell, at + dwell + 0.5, edge, palm, carry)

    def _hand(self, zone: str, target, at: float, *, dwell: float = 0.15, carry=None) -> None:
        self._hands.append(self._make_hand(zone, target, at, dwell=dwell, carry=carry))

    def _active_hands(self, t: float) -> list[_Hand]:
        """The hands over the table at ``t`` (a whole game scripts hundreds: look only at those moving now)."""
        if self._spans is None or len(self._spans) != len(self._hands):
            self._spans = np.array([(h.start, h.end) for h in self._hands], np.float64).reshape(-1, 2)
        live = np.nonzero((self._spans[:, 0] <= t) & (self._spans[:, 1] >= t))[0]
        return [self._hands[i] for i in live]

    def hand_polygons(self, t: float) -> list[np.ndarray]:
        """The hands over the table at ``t`` as polygons in mat mm (arm and palm)."""
        out = []
        for hand in self._active_hands(t):
            p = hand.position(t)
            if p is None:
                continue
            d = np.subtract(hand.edge, p)
            d = d / (np.linalg.norm(d) or 1)
            n = np.array([-d[1], d[0]])
            arm = np.array([p + n * 38, p - n * 38, np.add(hand.edge, d * 200) - n * 45,
                            np.add(hand.edge, d * 200) + n * 45])
            ang = math.atan2(d[1], d[0])
            palm = _PALM @ np.array(
                [[math.cos(ang), math.sin(ang)], [-math.sin(ang), math.cos(ang)]]) + p
            out += [arm, palm]
        return out

    def carried(self, t: float) -> list[CardState]:
        """Cards held in a hand, face up, on their way to the table at ``t``."""
        out = []
        for hand in self._active_hands(t):
            if hand.carry is not None and hand.start <= t < hand.at:
                p = hand.position(t)
                if p is None:
                    continue
                toward = np.subtract(hand.edge, hand.target)
                toward = toward / (np.linalg.norm(toward) or 1)
                out.append(replace(hand.carry, pos=(p[0] - toward[0] * 45, p[1] - toward[1] * 45), zone=Zone.ELSEWHERE))
        return out

    def camera_at(self, t: float) -> TableCamera:
        return [cam for start, cam in self._cameras if start <= t][-1]

    def light_at(self, t: float) -> float:
        gain = 1.0
        for start, end, a, b in self._light:
            if t >= start:
                gain = b if t >= end else a + (b - a) * (t - start) / (end - start)
        return gain

    def table_at(self, t: float) -> dict[str, CardState]:
        """The cards lying on the table at ``t`` (card -> state)."""
        if self._change_times is None or len(self._change_times) != len(self._changes):
            self._change_times = [at for at, _, _ in self._changes]
        i = bisect.bisect_right(self._change_times, t)
        return self._changes[i - 1][2] if i else {}

    # -- pictures ---------------------------------------------------------------------------------------------------
    def render(self, t: float) -> np.ndarray:
        """The camera's picture at ``t`` (BGR)."""
        self.now = t
        cam = self.camera_at(t)
        cards = self.table_at(t)
        key = (id(cam), tuple(sorted(cards.values(), key=lambda c: c.card)))
        layer = self._layers.get(key)
        if layer is None:
            layer = self._base(cam).copy()
            for c in sorted(cards.values(), key=lambda c: self._lay_index(c, t)):
                paste_card(layer, card_image(c.card if c.face_up else "back", self.deck), c.pos, c.angle, cam)
            if len(self._layers) > 8:
                self._layers.clear()
            self._layers[key] = layer
        frame = layer.copy()
        for c in self.carried(t):
            paste_card(frame, card_image(c.card, self.deck), c.pos, c.angle, cam)
        for poly in self.hand_polygons(t):
            pts = np.round(cam.to_image(poly) * 16).astype(np.int32)
            cv2.fillPoly(frame, [pts], SKIN, cv2.LINE_AA, 4)
        gain = self.light_at(t)
        if gain != 1.0:
            frame = cv2.convertScaleAbs(frame, alpha=gain)
        if self._noise:
            frame = self._add_noise(frame, int(round(t * self.fps)))
        return frame

    def _lay_index(self, c: CardState, t: float = math.inf) -> int:
        """The place of the card's latest lay up to ``t`` among all lays: cards laid later lie on top (a card
        code can be laid again in a later hand, dealt from a new deck)."""
        if self._lays is None or self._lays[0] != len(self.actions):
            # each card's lays in time order (actions are scripted in time order): a whole game sorts cards by
            # this thousands of times, and scanning every action each time was a tenth of a game's CPU
            by_card: dict[str, tuple[list[float], list[int]]] = {}
            for i, a in enumerate(a for a in self.actions if a.kind == "lay"):
                ats, places = by_card.setdefault(a.args["card"], ([], []))
                ats.append(a.at)
                places.append(i)
            self._lays = (len(self.actions), by_card)
        ats, places = self._lays[1].get(c.card, ([], []))
        k = bisect.bisect_right(ats, t)
        return places[k - 1] if k else -1

    def _base(self, cam: TableCamera) -> np.ndarray:
        base = self._bases.get(id(cam))
        if base is None:
            from ..vision import synth

            base = synth.background(self.size, self._table_kind, self.seed)
            render_mat_layer(base, self.mat, cam)
            self._bases[id(cam)] = base
        return base

    def _add_noise(self, frame: np.ndarray, i: int) -> np.ndarray:
        if self._noises is None:
            rng = np.random.default_rng(self.seed)
            self._noises = [np.clip(rng.normal(0, self._noise, frame.shape), 0, 255).astype(np.uint8)
                            for _ in range(3)]
        plus = self._noises[i % 3]
        minus = self._noises[(i + 1) % 3]
        return cv2.subtract(cv2.add(frame, plus), minus)

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        """Every frame of the video as (time, picture)."""
        for i in range(int(self.duration * self.fps) + 1):
            t = i / self.fps
            yield t, self.render(t)

    def source(self):
        """The video as a :class:`companion.vision.sources.FrameSource` (frames rendered on demand, video time)."""
        from .reader import SimSource

        return SimSource(self)

    def calibration(self):
        """The calibration a camera that never moves would find: the simulated camera's own mat -> image mapping
        (for tests that read the table with the scripted reader and need no markers found in small frames)."""
        from ..vision.calibration import Calibration

        return Calibration(self.camera.homography, self.mat.zones, self.size, "simulated")

    def recognizer(self, **kw):
        """A scripted card reader that reports what truly lies visible on the table at the frame's time."""
        from .reader import ScriptedRecognizer

        return ScriptedRecognizer(self, **kw)

    def save(self, folder: str | Path, *, video: bool = True) -> Path:
        """Write the video (``video.avi``, MJPG) or its frames (``frames/0000.png``...) and ``truth.json``."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        if video:
            fourcc = cv2.VideoWriter_fourcc(*"MJPG")  # type: ignore[attr-defined]  # not in OpenCV's stubs
            writer = cv2.VideoWriter(str(folder / "video.avi"), fourcc, self.fps, self.size)
            for _, frame in self.frames():
                writer.write(frame)
            writer.release()
        else:
            (folder / "frames").mkdir(exist_ok=True)
            for i, (_, frame) in enumerate(self.frames()):
                cv2.imwrite(str(folder / "frames" / f"{i:04d}.png"), frame)
        truth = [{"kind": c.kind, "zone": c.zone, "cards": list(c.cards), "time": c.time,
                  **({"from_zone": c.from_zone} if c.from_zone else {})} for c in self.truth]
        (folder / "truth.json").write_text(json.dumps({"seats": self.seats, "paper": self.paper, "fps": self.fps,
                                                       "duration": self.duration, "changes": truth}, indent=1))
        return folder
