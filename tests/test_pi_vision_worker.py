"""Vision off the main thread: on a Pi a slow frame must not freeze the screen and the buttons."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np

from companion.app import Companion
from companion.config import load_config
from companion.display.input import Action, ScreenCommand
from companion.vision.worker import VisionWorker


def test_submit_never_waits_and_the_newest_frame_wins():
    gate = threading.Event()
    seen = []

    def slow(frame, t):
        gate.wait(5)
        seen.append(frame)
        return [frame]

    worker = VisionWorker(slow)
    try:
        started = time.monotonic()
        for i in range(4):  # the first is being read; 2 and 3 replace each other while it is
            worker.submit(i, float(i))
            time.sleep(0.02)
        assert time.monotonic() - started < 0.5, "submit returned at once each time"
        gate.set()
        assert worker.wait_idle(5)
        assert seen == [0, 3] and worker.dropped == 2
        assert [r.changes for r in worker.results()] == [[0], [3]]
    finally:
        worker.close()


def test_work_for_the_tracker_runs_between_frames_on_its_thread():
    threads = []
    worker = VisionWorker(lambda frame, t: threads.append(threading.current_thread()) or [])
    try:
        worker.call(lambda: threads.append(threading.current_thread()))
        worker.submit("f", 0.0)
        assert worker.wait_idle(5)
        assert len(threads) == 2 and threads[0] is threads[1] is not threading.current_thread()
    finally:
        worker.close()


def test_an_error_comes_back_with_the_result_and_the_worker_goes_on():
    def process(frame, t):
        if frame == "bad":
            raise ValueError("garbled frame")
        return ["ok"]

    worker = VisionWorker(process)
    try:
        worker.submit("bad", 0.0)
        assert worker.wait_idle(5)
        worker.submit("good", 0.1)
        assert worker.wait_idle(5)
        first, second = worker.results()
        assert isinstance(first.error, ValueError) and second.changes == ["ok"]
    finally:
        worker.close()


def test_a_slow_frame_leaves_the_loop_free_for_the_screen_and_buttons(tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(3):
        cv2.imwrite(str(folder / f"{i}.png"), np.full((48, 64, 3), 80 + 40 * i, np.uint8))
    config = load_config(text=f'[camera]\nsource = "replay:{folder}@50:loop"\n')
    app = Companion.create(config, headless=True, db_path=tmp_path / "games.db", use_controls=False)
    reading = threading.Event()

    def slow_read(frame, t):  # a frame with a change, read at a Pi 4's pace
        reading.set()
        time.sleep(0.4)
        return []

    try:
        app.tracker.process = slow_read
        deadline = time.monotonic() + 5
        while not reading.is_set() and time.monotonic() < deadline:
            app.step()
            time.sleep(0.01)
        assert reading.is_set(), "the camera's frames reach the tracker"
        app.commands.put(ScreenCommand(Action.MENU))
        started = time.monotonic()
        app.step()
        assert time.monotonic() - started < 0.15, "a pass of the loop waited for the card reader"
        assert app.commands.empty(), "the button press was handled while the frame was being read"
    finally:
        app.close()
