"""The Pi camera and webcams as a Raspberry Pi runs them: bounded waits, the configured size and rate, V4L2.

picamera2 exists only on Raspberry Pi OS, so a stand-in module takes its place. It follows picamera2's job API as
its sources have it: ``capture_array(..., wait=False)`` returns a job, ``wait(job, timeout)`` raises
``TimeoutError`` when the job does not finish in time, ``cancel_all_and_flush()`` cancels the pending jobs, and
``stop()`` waits for the pending jobs first. It can stall like a camera whose ribbon cable came loose: every job
then stays pending until cancelled.
"""

from __future__ import annotations

import sys
import threading
import time
import types
from concurrent.futures import CancelledError, Future
from concurrent.futures import wait as wait_for

import cv2
import numpy as np
import pytest

from companion.app import Companion
from companion.config import load_config
from companion.vision import sources
from companion.vision.sources import PiCameraSource, ThreadedSource, open_source


class StallingPicamera2:
    """picamera2.Picamera2 stand-in (a Camera Module 3) whose camera can stop answering."""

    stalled = threading.Event()
    instances: list[StallingPicamera2] = []

    def __init__(self, num: int = 0) -> None:
        self.camera_controls = {"AfMode": (0, 2, 0)}
        self.config: dict | None = None
        self.jobs: list[Future] = []
        self.cancelled = 0
        self.closed = False
        self.controls_set: list[dict] = []
        StallingPicamera2.instances.append(self)

    def create_preview_configuration(self, main=None, buffer_count=4, controls=None, **kw):
        return {"main": dict(main or {}), "buffer_count": buffer_count, "controls": dict(controls or {})}

    def configure(self, config) -> None:
        self.config = config

    def start(self) -> None:
        pass

    def _job(self, result, wait):
        job: Future = Future()
        if not StallingPicamera2.stalled.is_set():
            job.set_result(result)
        self.jobs.append(job)
        return job if wait is False else job.result()  # a blocking call on a stalled camera never returns

    def capture_array(self, name="main", wait=None):
        w, h = self.config["main"]["size"]
        return self._job(np.full((h, w, 3), 90, np.uint8), wait)

    def capture_metadata(self, wait=None):
        return self._job({"ExposureTime": 10000, "AnalogueGain": 1.5, "LensPosition": 2.0}, wait)

    def autofocus_cycle(self, wait=None):
        return self._job(True, wait)

    def wait(self, job: Future, timeout=None):
        return job.result(timeout)

    def cancel_all_and_flush(self) -> None:
        self.cancelled += 1
        for job in self.jobs:
            if not job.done():
                job.set_exception(CancelledError())
        self.jobs = []

    def set_controls(self, controls) -> None:
        self.controls_set.append(dict(controls))

    def stop(self) -> None:
        wait_for(self.jobs)  # as picamera2's stop runs on the camera's event loop, behind the pending jobs

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = StallingPicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    StallingPicamera2.instances = []
    StallingPicamera2.stalled = threading.Event()
    yield StallingPicamera2
    StallingPicamera2.stalled.clear()  # let any pending job finish so no thread is left waiting


def wait_until(condition, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def close_within(source, seconds: float) -> bool:
    """Close ``source`` on another thread; True if it returned within ``seconds`` (a hung close fails the test
    instead of hanging the suite)."""
    closer = threading.Thread(target=source.close, daemon=True)
    closer.start()
    closer.join(seconds)
    return not closer.is_alive()


def test_a_pi_camera_that_stops_answering_says_check_the_ribbon_cable_and_closes(picamera2):
    source = ThreadedSource(PiCameraSource(size=(64, 48), settle=60.0, frame_timeout=0.2, close_timeout=0.5),
                            timeout=0.05)
    assert wait_until(lambda: source.read() is not None), source.status
    picamera2.stalled.set()  # the cable comes loose mid-game
    assert wait_until(lambda: "ribbon cable, then restart" in source.status, timeout=3.0), source.status
    cam = picamera2.instances[0]
    assert cam.cancelled >= 1, "the stuck request is cancelled, as picamera2's docs prescribe"
    source.read()  # the last frame grabbed before the stall may still be waiting (a loaded machine reads late)
    assert source.read() is None, "no frame comes from a stalled camera"
    assert len(picamera2.instances) == 1, "a CSI camera is not hot-pluggable: no reopening"
    assert close_within(source, 3.0), "closing (Ctrl-C, systemctl stop) must not hang behind the stuck request"
    assert cam.closed


def test_closing_while_a_request_is_stuck_does_not_hang(picamera2):
    source = PiCameraSource(size=(64, 48), settle=60.0, frame_timeout=30.0, close_timeout=0.5)
    assert source.read() is not None
    picamera2.stalled.set()
    grabber = threading.Thread(target=source.read, daemon=True)  # the capture thread, stuck waiting for a frame
    grabber.start()
    assert wait_until(lambda: any(not job.done() for job in picamera2.instances[0].jobs))
    assert close_within(source, 3.0)
    assert picamera2.instances[0].closed


def test_the_settling_controls_are_bounded_too(picamera2):
    clock = [0.0]
    source = PiCameraSource(size=(64, 48), settle=1.0, frame_timeout=0.2, clock=lambda: clock[0])
    assert source.read() is not None
    picamera2.stalled.set()
    clock[0] = 2.0  # exposure is due to be locked: its metadata request stalls as well
    assert source.read() is None
    assert "ribbon cable" in source.status
    assert close_within(source, 3.0)


def test_the_configured_size_and_rate_reach_the_pi_camera(picamera2):
    with open_source("picamera", camera_size=(640, 480), camera_fps=15) as source:
        frame = source.read()
        config = picamera2.instances[0].config
    assert frame.shape == (480, 640, 3)
    assert config["main"] == {"format": "RGB888", "size": (640, 480)}
    assert config["controls"]["FrameDurationLimits"] == (66667, 66667), "held at 15 fps, not free-running"


def test_a_size_in_the_source_string_wins_over_the_configured_one(picamera2):
    with open_source("picamera@320x240", camera_size=(640, 480), camera_fps=10) as source:
        assert source.read().shape == (240, 320, 3)


def test_companion_run_opens_the_pi_camera_as_configured_and_shows_a_stall(picamera2, tmp_path):
    config = load_config(text='[camera]\nsource = "picamera"\nwidth = 800\nheight = 600\nfps = 5.0\n')
    app = Companion.create(config, headless=True, db_path=tmp_path / "games.db", use_controls=False)
    try:
        inner = app.source.source
        inner.frame_timeout = 0.2
        assert wait_until(lambda: picamera2.instances and picamera2.instances[0].config is not None)
        config = picamera2.instances[0].config
        assert config["main"]["size"] == (800, 600)
        assert config["controls"]["FrameDurationLimits"] == (200000, 200000)
        picamera2.stalled.set()
        assert wait_until(lambda: "ribbon cable" in app.source.status, timeout=3.0)
        app._camera_status()
        assert "check the ribbon cable, then restart" in app.messages["camera"].text
    finally:
        assert close_within(app, 5.0)


class RecordingCapture:
    """cv2.VideoCapture stand-in that records the backend and the properties asked for."""

    made: list[RecordingCapture] = []

    def __init__(self, device, *backend) -> None:
        self.device, self.backend = device, backend
        self.props: dict[int, float] = {cv2.CAP_PROP_FRAME_WIDTH: 640.0, cv2.CAP_PROP_FRAME_HEIGHT: 480.0}
        RecordingCapture.made.append(self)

    def isOpened(self) -> bool:
        return True

    def set(self, prop, value) -> bool:
        self.props[prop] = float(value)
        return True

    def get(self, prop) -> float:
        return self.props.get(prop, 0.0)

    def read(self):
        w, h = int(self.props[cv2.CAP_PROP_FRAME_WIDTH]), int(self.props[cv2.CAP_PROP_FRAME_HEIGHT])
        return True, np.zeros((h, w, 3), np.uint8)

    def release(self) -> None:
        pass


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="V4L2 is Linux's")
def test_a_webcam_is_opened_through_v4l2_at_the_configured_size_and_rate(monkeypatch):
    RecordingCapture.made = []
    monkeypatch.setattr(sources.cv2, "VideoCapture", RecordingCapture)
    with open_source("webcam:0", camera_size=(1024, 576), camera_fps=12) as source:
        assert source.read().shape == (576, 1024, 3)
    cap = RecordingCapture.made[0]
    assert cap.backend == (cv2.CAP_V4L2,), "Debian's OpenCV would try GStreamer first"
    assert cap.props[cv2.CAP_PROP_FPS] == 12.0
