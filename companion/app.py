"""The companion: camera -> tracker -> referee -> game (stored) -> board, screen and speech, in one loop.

pygame owns the main thread. The camera fills a one-frame buffer from its own thread; vision runs on the newest
frame only and skips frames where nothing changed. Every accepted event is in the SQLite log before the board or
the screen shows it. A part that fails (camera, LED chain, screen, disk) becomes a message on the screen and in the
log, and the game carries on with what still works.
"""

from __future__ import annotations

import logging
import queue
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .config import Config
from .demo import DemoGame, demo_table, result_of
from .display.input import Action, ScreenCommand
from .display.newgame import GameChoices
from .display.view import CAMERA_LOST, Message, view_from_state
from .errors import CompanionError, StoreError
from .parts import Board, Controls, Display, FrameSource, Reader, TableTracker
from .paths import database_path
from .referee import Decision, Referee
from .rules.events import NewGame
from .rules.game import replay
from .service import Notifier
from .speech import Speaker
from .store import EventStore, StoredGame
from .table import Phase, Screen, SourceStatus
from .ui import Controller

log = logging.getLogger("companion")


@dataclass
class Timing:
    """When a table change was first visible and when its score reached the LEDs and the screen (for the bench)."""

    first_seen: float
    shown: float
    frame_ms: float
    reason: str


@dataclass
class Companion:
    """One companion at one table. Build it with :meth:`create`; drive it with :meth:`step` or :meth:`run`."""

    config: Config
    store: EventStore
    game: StoredGame
    referee: Referee
    controller: Controller
    board: Board | None = None
    source: FrameSource | None = None
    tracker: TableTracker | None = None
    display: Display | None = None
    controls: Controls | None = None
    speaker: Speaker | None = None
    notifier: Notifier = field(default_factory=Notifier)
    messages: dict[str, Message] = field(default_factory=dict)
    commands: queue.Queue = field(default_factory=queue.Queue)
    decisions: list[Decision] = field(default_factory=list)
    timings: list[Timing] = field(default_factory=list)
    clock: Callable[[], float] = time.monotonic
    frame_index: int = 0
    reads_pixels: bool = False  # the card reader reads the picture (not the simulator's script)
    _sized_for: Any = None  # the calibration the card size was last checked for
    pace: float | None = None  # a replay read at this many video seconds per wall second (None: as fast as read)
    stop_requested: bool = False  # set by a signal handler (SIGTERM): the loop ends and closes everything
    display_retry: float = 10.0  # seconds between attempts to open a screen that failed (kmsdrm busy at boot)
    vision: Any = None  # a VisionWorker reading a live camera off the main thread (None: read in step itself)
    _display_due: float | None = None
    _started: float | None = None
    _scores_seen: int = 0
    _phase_seen: str = ""  # the phase the last decisions left, to log "game over" once

    # --- building -------------------------------------------------------------------------------------------------
    @classmethod
    def create(cls, config: Config, *, headless: bool = False, demo: DemoGame | None = None,
               db_path: str | Path | None = None, new_game: bool = False, recognize: Callable | str | None = None,
               pin_factory: Any = None, source: Any = None, use_controls: bool | None = None,
               clock: Callable[[], float] = time.monotonic, demo_size: tuple[int, int] | None = None,
               calibration: Any = None) -> Companion:
        """Open every part the configuration names, falling back to what works, each fallback a message."""
        messages: dict[str, Message] = {}
        store = _open_store(db_path or config.store.path or database_path(), messages)
        first_start = store.latest() is None  # nothing ever played here: the new-game screen opens (issue 12)
        game = None if new_game else _resume(store, messages)
        if game is None:
            event = _new_game_event(config, demo, has_camera=config.camera.source != "none")
            config = _board_for_game(config, replay([event]), demo is not None)  # refused before it is stored
            game = store.start(event)
        else:
            config = _board_for_game(config, game.state, demo is not None)
        referee = Referee(game)
        app = cls(config=config, store=store, game=game, referee=referee, controller=Controller(referee),
                  messages=messages, clock=clock)
        app._open_board(pin_factory)
        if use_controls is None:  # buttons work without an LED chain: use them wherever there are GPIO pins
            from .service import has_gpio
            use_controls = not headless and (pin_factory is not None or config.board.driver != "virtual" or
                                             has_gpio())
        if use_controls:
            app._open_controls(pin_factory)
        app._open_camera(demo, recognize, source, demo_size=demo_size, calibration=calibration)
        app.controller.manual = app.source is None  # no camera: cards are entered with the buttons or keys
        if not headless:
            app._open_display()
        first = game.game.log[0]
        if first_start and demo is None and app.display is not None and isinstance(first, NewGame):
            app.controller.open_new_game(GameChoices.from_event(first))
        app.speaker = Speaker(enabled=config.speech.enabled, voice=config.speech.voice, rate=config.speech.rate)
        if app.speaker.status:
            app.messages["speech"] = Message("Speech unavailable: espeak-ng is not installed", "info")
        app._phase_seen = game.state.phase
        app._scores_seen = len(game.state.scores)
        app._show_board()
        caught_up = referee.catch_up()  # a restart in the middle of the show: count what is already known
        if caught_up:
            app.after(caught_up)
        return app

    def _open_board(self, pin_factory: Any) -> None:
        from .board.pegboard import open_board

        try:
            self.board, problem = open_board(self.config.board, pin_factory=pin_factory)
        except CompanionError:
            raise  # an inconsistent layout is the builder's to fix: refused at start, by name
        except Exception as exc:  # the LED chain failing must not stop the game
            log.error("LED board unavailable: %s", exc)
            self.board, problem = None, f"LED board unavailable ({exc}): scores on screen only"
        if problem:
            log.warning("%s", problem)
            self.messages["board"] = Message(problem.splitlines()[0][:120], "warning")

    def _open_controls(self, pin_factory: Any) -> None:
        try:
            from .board.controls import Controls
            self.controls = Controls.from_config(self.config.controls, on_command=self.commands.put,
                                                 pin_factory=pin_factory)
        except Exception as exc:
            log.warning("buttons unavailable: %s", exc)
            self.messages["controls"] = Message("Buttons unavailable: use the keyboard or touch", "info")

    def _open_camera(self, demo: DemoGame | None, recognize: Callable | str | None, source: Any, *,
                     demo_size: tuple[int, int] | None = None, calibration: Any = None) -> None:
        from .vision.calibration import AutoCalibrator
        from .vision.tracker import Tracker

        cam = self.config.camera
        live = False
        if source is None and demo is not None:
            sim = demo_table(demo, fps=cam.fps, size=demo_size)
            source = sim.source()
            if calibration == "simulated":  # small frames for fast tests: the camera's own mapping, no markers
                calibration = sim.calibration()
            resume_at = self.store.last_meta(self.game.game_id) if len(self.game.game.log) > 1 else None
            if resume_at and "frame" in resume_at:  # after a restart the camera sees the table as it is now
                source.index = int(resume_at["frame"]) + 1
                log.info("demo resumed at frame %d", source.index)
        elif source is None and cam.source not in ("none", "demo"):
            from .vision.sources import open_source
            try:
                source = open_source(cam.source, threaded=True, camera_size=(cam.width, cam.height),
                                     camera_fps=cam.fps)
                # the loop waits at most a frame period for a picture: the screen and buttons come first
                source.timeout = min(0.1, 1.0 / cam.fps)
                live = True
            except CompanionError as exc:
                self.messages["camera"] = Message(str(exc), "error")
                source = None
        if source is None:
            self.messages.setdefault("camera", Message("No camera: press OK to enter each card", "info"))
            return
        real_reader = False
        reader: Reader
        if recognize == "scripted" and hasattr(source, "sim"):
            reader = source.sim.recognizer()
        elif recognize is None or isinstance(recognize, str):
            from .vision.reader import recognize as real_recognize
            reader, real_reader = real_recognize, True
        else:
            reader = recognize
        t = self.config.tracker
        self.source = source
        # the card reader reads crops, so only what changed is read again, and a leaning camera's frame is read as a
        # top-down picture of the mat (the simulator's scripted reader reads neither: it knows where its cards are)
        calibrator = calibration if calibration is not None else \
            AutoCalibrator(fallback=_manual_calibration(cam.calibration))
        self.tracker = Tracker(reader, calibrator, k=t.k, n=t.n, hold=t.hold, partial_reads=real_reader,
                               top_down=real_reader)
        self.reads_pixels = real_reader
        if live:  # the configured camera is read on its own thread (the demo table stays frame-exact on this one)
            from .vision.worker import VisionWorker
            tracker = self.tracker
            self.vision = VisionWorker(lambda frame, t: tracker.process(frame, t), clock=self.clock)

    def _open_display(self) -> None:
        try:
            from .display.desktop import open_window  # on a PC: camera, board and status side by side (issue 12)
            d = self.config.display
            self.display = open_window((d.width, d.height), fullscreen=d.fullscreen or None, app=self)
            log.info("screen: %dx%d on SDL's %s driver", d.width, d.height, self.display.driver)
            if self.display.driver in ("dummy", "offscreen"):
                log.warning("no screen found (SDL driver %s): the game runs without a window; on a desktop set "
                            "DISPLAY, on the Pi console SDL_VIDEODRIVER=kmsdrm", self.display.driver)
        except Exception as exc:  # no screen: the board and the log carry on, and the screen is tried again
            log.error("display unavailable: %s (trying again in %g s)", exc, self.display_retry)
            self.messages["display"] = Message(f"Display unavailable: {exc}", "error")
            self.display = None
            self._display_due = self.clock() + self.display_retry
            return
        self._display_due = None
        self.messages.pop("display", None)

    # --- the loop ---------------------------------------------------------------------------------------------------
    def step(self) -> bool:
        """One pass of the loop: a frame, the commands, the board and the screen. Returns False to stop."""
        keep_going = True
        if self.display is None and self._display_due is not None and self.clock() >= self._display_due:
            self._open_display()
        if self.source is not None and self._frame_due():
            frame = self.source.read()
            if frame is not None:
                t = self.source.time if self.source.time is not None else self.clock()
                if self.vision is not None:
                    self.frame_index += 1
                    self.vision.submit(frame, t, self._frame_meta())
                else:
                    self.process_frame(frame, t)
            self._camera_status()
        if self.vision is not None:
            for done in self.vision.results():
                if done.error is not None:
                    log.warning("a frame was skipped: %s", done.error)
                else:
                    self.apply_changes(done.changes, done.t, done.started, done.meta)
        if self.display is not None:
            for command in self.display.commands():
                if command.action is Action.QUIT:
                    keep_going = False
                else:
                    self.commands.put(command)
        while not self.commands.empty():
            self.handle_command(self.commands.get_nowait())
        if self.controller.wants_new_game:
            self.start_new_game()
        if self.board is not None:
            try:
                self.board.tick(self.clock())
            except Exception as exc:
                self._board_failed(exc)
        self.render()
        self.notifier.ping()
        return keep_going

    def _frame_due(self) -> bool:
        """With ``pace`` set, a replay is shown at the speed it was filmed (a live camera is always due)."""
        sim = getattr(self.source, "sim", None)
        if self.pace is None or sim is None:
            return True
        filmed = getattr(self.source, "index", 0) / sim.fps  # video seconds shown so far
        now = self.clock()
        if self._started is None:
            self._started = now - filmed / self.pace
        return (now - self._started) * self.pace >= filmed

    def run(self, *, until_demo_ends: bool = False, fps: float = 30.0) -> None:
        """Run until the window is closed (or, with a replay, until it ends)."""
        self.notifier.ready("watching the table")
        period = 1.0 / fps
        try:
            while not self.stop_requested:
                started = time.monotonic()
                if not self.step() or self.stop_requested:
                    break
                if until_demo_ends and getattr(self.source, "finished", False):
                    break
                # with or without a screen (kmsdrm can fail at boot), never spin: wait out the rest of the period
                time.sleep(max(0.0, period - (time.monotonic() - started)))
        finally:
            self.notifier.stopping()
            self.close()

    def process_frame(self, frame, t: float) -> list[Decision]:
        """Look at one frame taken at video time ``t``; apply what the table changes mean."""
        started = self.clock()
        self.frame_index += 1
        meta = self._frame_meta()
        if self.tracker is None:
            return []
        try:
            changes = self.tracker.process(frame, t)
        except Exception as exc:  # a bad frame must never stop the game
            log.warning("frame %d skipped: %s", self.frame_index, exc)
            return []
        return self.apply_changes(changes, t, started, meta)

    def _frame_meta(self) -> dict | None:
        position = getattr(self.source, "index", None)
        return {"frame": position - 1} if isinstance(position, int) else None

    def apply_changes(self, changes: list, t: float, started: float, meta: dict | None = None) -> list[Decision]:
        """Apply what the tracker saw in the frame taken at ``t`` (read from ``started`` on, by the loop's clock)."""
        self.game.meta = meta
        decisions: list[Decision] = []
        for change in changes:
            log.debug("table: %s", change)
            decisions += self.handle_change(change)
        self._conflicts()
        self._check_card_size()
        if decisions:
            self.after(decisions)
            shown = self.clock()
            for change in changes:
                self.timings.append(Timing(change.time, t + (shown - started), (shown - started) * 1000,
                                           decisions[-1].reason))
        return decisions

    def handle_change(self, change) -> list[Decision]:
        try:
            return self.referee.on_change(change)
        except StoreError as exc:
            self._store_failed(exc)
            return []

    def handle_command(self, command) -> list[Decision]:
        if not isinstance(command, ScreenCommand):
            command = ScreenCommand.of(command)
        try:
            decisions = self.controller.handle(command)
        except StoreError as exc:
            self._store_failed(exc)
            return []
        except CompanionError as exc:
            self.messages["input"] = Message(str(exc)[:120], "warning")
            return []
        self.after(decisions)
        return decisions

    def after(self, decisions: list[Decision]) -> None:
        """The game changed: log, speak, follow the hand, peg. (The store already has every event.)"""
        state = self.game.state
        for d in decisions:
            log.info("%s", d.reason)
            self.decisions.append(d)
        notes = [d.note for d in decisions if d.note]
        if notes:  # plays mended: said on the screen until the next decision, so the pegs moving back make sense
            self.messages["referee"] = Message(notes[-1][:120], "info")
        elif decisions:
            self.messages.pop("referee", None)
        if self.speaker is not None and len(state.scores) > self._scores_seen:
            self.speaker.say(state.scores[-1].spoken)  # the newest score only; an undo says nothing
        self._scores_seen = len(state.scores)
        if state.phase == Phase.OVER and self._phase_seen != Phase.OVER and state.winner is not None:
            log.info("game over: %s won %s", state.sides[state.winner].name,
                     {s.name: min(s.front, state.target) for s in state.sides})
        self._phase_seen = state.phase
        self._show_board()

    def start_new_game(self) -> None:
        self.controller.wants_new_game = False
        if self.game.state.winner is None:
            self.store.abandon(self.game.game_id)
        chosen = self.controller.chosen_game  # the players' choices on the new-game screen (issue 12)
        self.game = self.store.start(chosen or _new_game_event(self.config, None, self.source is not None))
        self._scores_seen = 0
        self.referee = Referee(self.game)
        self.controller = Controller(self.referee, manual=self.source is None)
        self._show_board()

    # --- outputs ------------------------------------------------------------------------------------------------
    def _show_board(self) -> None:
        if self.board is None:
            return
        from .board.pegs import peg_view_from_state
        try:
            self.board.show_view(peg_view_from_state(self.game.state), self.clock())
        except Exception as exc:
            self._board_failed(exc)

    def _board_failed(self, exc: Exception) -> None:
        log.error("LED board failed: %s", exc)
        self.messages["board"] = Message("LED board unavailable: scores on screen only", "warning")
        try:
            if self.board is not None:
                self.board.close()
        except Exception:
            pass
        self.board = None

    def _store_failed(self, exc: Exception) -> None:
        log.error("%s", exc)
        self.messages["store"] = Message("Cannot save the game (disk full?): nothing new is counted", "error")

    def _camera_status(self) -> None:
        state = getattr(self.source, "state", None)
        if state == SourceStatus.UNAVAILABLE:  # e.g. a Pi camera that stopped: its status says what to do
            self.messages["camera"] = Message(getattr(self.source, "status", "") or "Camera unavailable", "error")
        elif state == SourceStatus.LOST:
            self.messages["camera"] = Message(CAMERA_LOST.text, "error")
        elif "camera" in self.messages and self.messages["camera"].text == CAMERA_LOST.text:
            del self.messages["camera"]

    def _check_card_size(self) -> None:
        """Say so on the screen when the camera sees cards smaller than the reader can read (a 3- or 4-seat mat
        at 720p, a camera set too high), instead of sitting silent while nothing is read."""
        calibration = getattr(self.tracker, "calibration", None)
        if calibration is None or calibration is self._sized_for or not self.reads_pixels:
            return
        self._sized_for = calibration
        height = card_height_px(calibration)
        if height < reader_min_card_px():
            log.warning("cards are %.0f px tall in the picture; the reader needs %.0f", height, reader_min_card_px())
            self.messages["card-size"] = Message(CARDS_TOO_SMALL, "warning")
        else:
            self.messages.pop("card-size", None)

    def _conflicts(self) -> None:
        for key in [k for k in self.messages if k.startswith("conflict:")]:
            del self.messages[key]
        for conflict in getattr(self.tracker, "unsure", [])[:2]:
            self.messages[f"conflict:{conflict.kind}:{conflict.cards}"] = Message(
                conflict.words(self.referee.zone_words), "warning")

    def current_messages(self) -> tuple[Message, ...]:
        out = list(self.messages.values())
        if self.referee.questions and self.controller.screen != Screen.QUESTION:
            out.insert(0, Message(f"{self.referee.questions[0].text} (OK to answer)", "warning"))
        return tuple(out[:3])

    def view(self):
        """What the screen shows now: an overlay (menu, correction, question) or the table view."""
        messages = self.current_messages()
        overlay = self.controller.overlay(messages)
        if overlay is not None:
            return overlay
        return view_from_state(self.game.state, messages=messages, screen=self.controller.table_screen(),
                               selected=self.controller.selected, colours=self.side_colours())

    def side_colours(self) -> tuple | None:
        """The sides' colours on the LED board, so the screen and the pegs agree."""
        layout = getattr(self.board, "layout", None)
        if layout is None or len(layout.sides) < len(self.game.state.sides):
            return None
        return tuple(side.colour for side in layout.sides)

    def render(self) -> None:
        if self.display is None:
            return
        try:
            self.display.render(self.view())
        except Exception as exc:
            log.error("display failed: %s", exc)
            self.display = None
            self._display_due = self.clock() + self.display_retry

    def result(self) -> dict:
        return result_of(self.game.state)

    def close(self) -> None:
        for part in (self.vision, self.source, self.board, self.controls, self.display, self.speaker):
            try:
                if part is not None:
                    part.close()
            except Exception as exc:  # closing must not hide what happened before it
                log.debug("closing %r: %s", part, exc)
        self.store.close()


# --- helpers ---------------------------------------------------------------------------------------------------

CARDS_TOO_SMALL = "Cards are too small for the reader: raise the camera resolution or lower the camera"


def card_height_px(calibration) -> float:
    """How tall (px) the smallest-looking card on the mat is through ``calibration``: a card's long side in the
    middle of each zone, laid the way that zone faces (the far side of a tilted camera's picture is smallest)."""
    heights = []
    for zone in calibration.zones.zones:
        cx, cy = zone.center
        dx, dy = (0.0, 44.0) if int(zone.facing) % 180 == 0 else (44.0, 0.0)
        a, b = calibration.to_image([(cx - dx, cy - dy), (cx + dx, cy + dy)])
        heights.append(float(((a - b) ** 2).sum() ** 0.5))
    return min(heights)


def reader_min_card_px() -> float:
    """The smallest card height (px) the card reader reads often enough to follow a game by (it names some
    smaller cards, from ``detection.MIN_HEIGHT`` up, but misses too many)."""
    from .vision import detection

    return float(getattr(detection, "GAME_HEIGHT", 0.0))


def _open_store(path: str | Path, messages: dict[str, Message]) -> EventStore:
    try:
        store = EventStore(path)
    except (StoreError, OSError) as exc:
        log.error("cannot open the game database %s: %s", path, exc)
        messages["store"] = Message("Cannot open the game database: this game will not survive a restart", "error")
        return EventStore(":memory:")
    if store.warning:
        messages["store"] = Message("The game database was damaged and set aside: a new game starts", "error")
    return store


def _resume(store: EventStore, messages: dict[str, Message]) -> StoredGame | None:
    try:
        game = store.resume()
    except CompanionError as exc:  # a log that no longer replays: keep it, start afresh
        log.error("the unfinished game could not be resumed: %s", exc)
        messages["store"] = Message("The last game could not be resumed: a new game starts", "error")
        unfinished = store.unfinished()
        if unfinished is not None:
            store.abandon(unfinished)
        return None
    if game is not None:
        log.info("resumed game %d at hand %d (%s)", game.game_id, game.state.hand, game.state.phase)
    return game


def _board_for_game(config: Config, state, demo: bool) -> Config:
    """The configuration with a board that can show this game: a layout with fewer sides than the game or too short
    for its target is refused at start by name; the demo picks the preset made for its game instead."""
    from dataclasses import replace

    from .board.layout import check_fits, load_layout, preset_for

    sides, target = len(state.sides), state.target
    try:
        check_fits(load_layout(config.board.layout), sides, target)
    except CompanionError:
        preset = preset_for(sides, target) if demo else None
        if preset is None:
            raise
        log.info("board: %s for the demo (%s does not fit %d sides to %d)", preset, config.board.layout, sides,
                 target)
        return replace(config, board=replace(config.board, layout=preset))
    return config


def _new_game_event(config: Config, demo: DemoGame | None, has_camera: bool) -> NewGame:
    if demo is not None:
        return demo.events[0]
    g = config.game
    first = g.first_dealer if g.first_dealer >= 0 else (None if has_camera else 0)
    return NewGame(g.variant, config.players, config.options, first, g.target or None)


def _manual_calibration(path: str):
    from .vision.calibration import Calibration, default_calibration_path

    if not path:  # the one companion calibrate saved, if any (the mat's markers replace it when seen)
        saved = default_calibration_path()
        if not saved.is_file():
            return None
        path = str(saved)
    try:
        return Calibration.load(path)
    except Exception as exc:
        log.warning("calibration file %s not used: %s", path, exc)
        return None
