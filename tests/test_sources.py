"""Frame sources: one contract every implementation passes, then what is particular to each."""

from __future__ import annotations

import sys
import time
import types

import cv2
import numpy as np
import pytest

from companion.vision import sources
from companion.vision.sources import (BadSourceConfig, FrameSource, PiCameraSource, ReplaySource, ThreadedSource,
                                      WebcamSource, open_source, parse_source)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def picture(i: int, size=(64, 48)) -> np.ndarray:
    img = np.full((size[1], size[0], 3), 40, np.uint8)
    cv2.putText(img, str(i), (5, 35), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (255, 255, 255), 2)
    return img


@pytest.fixture
def folder(tmp_path):
    for i in range(5):
        cv2.imwrite(str(tmp_path / f"{i:04d}.png"), picture(i))
    return tmp_path


class FakeCapture:
    """Stands in for cv2.VideoCapture: a webcam that can be unplugged and plugged back."""

    plugged = True
    garbage = False
    opened: list = []

    def __init__(self, device, *args) -> None:
        self.device = device
        self.props = {cv2.CAP_PROP_FRAME_WIDTH: 640.0, cv2.CAP_PROP_FRAME_HEIGHT: 480.0}
        FakeCapture.opened.append(device)
        self._open = FakeCapture.plugged

    def isOpened(self) -> bool:
        return self._open

    def set(self, prop, value) -> bool:
        if prop in self.props:
            self.props[prop] = float(value)
        return True

    def get(self, prop) -> float:
        return self.props.get(prop, 0.0)

    def read(self):
        if not FakeCapture.plugged:
            return False, None
        if FakeCapture.garbage:
            return True, np.zeros((0,), np.uint8)
        w, h = int(self.props[cv2.CAP_PROP_FRAME_WIDTH]), int(self.props[cv2.CAP_PROP_FRAME_HEIGHT])
        return True, np.full((h, w, 3), 7, np.uint8)

    def release(self) -> None:
        self._open = False


@pytest.fixture
def fake_webcam(monkeypatch):
    FakeCapture.plugged, FakeCapture.garbage, FakeCapture.opened = True, False, []
    monkeypatch.setattr(sources.cv2, "VideoCapture", FakeCapture)
    return FakeCapture


class FakePicamera2:
    """Stands in for picamera2.Picamera2 with a Camera Module 3 (it has autofocus)."""

    present = True
    instances: list = []

    def __init__(self, num=0) -> None:
        if not FakePicamera2.present:
            raise IndexError("list index out of range")
        self.camera_controls = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
        self.controls_set: list[dict] = []
        self.focus_cycles = 0
        self.config = None
        FakePicamera2.instances.append(self)

    def create_preview_configuration(self, main=None, **kw):
        return {"main": dict(main), **kw}

    def configure(self, config) -> None:
        self.config = config

    def start(self) -> None:
        pass

    def capture_array(self, name="main"):
        w, h = self.config["main"]["size"]
        return np.full((h, w, 3), (10, 20, 30), np.uint8)  # RGB888 arrives as B,G,R

    def capture_metadata(self):
        return {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4), "LensPosition": 3.25}

    def autofocus_cycle(self):
        self.focus_cycles += 1
        return True

    def set_controls(self, controls) -> None:
        self.controls_set.append(dict(controls))

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.fixture
def fake_picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    FakePicamera2.present, FakePicamera2.instances = True, []
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return FakePicamera2


# -- the contract ---------------------------------------------------------------------------------------------------
class SourceContract:
    """What every frame source promises. Subclasses say how to make a working one and a broken one."""

    def make(self, request) -> FrameSource:
        raise NotImplementedError

    def make_broken(self, request) -> FrameSource:
        raise NotImplementedError

    def first_frame(self, source: FrameSource) -> np.ndarray:
        for _ in range(50):
            frame = source.read()
            if frame is not None:
                return frame
        pytest.fail(f"no frame; status {source.status!r}")

    def test_frames_are_bgr_uint8(self, request):
        with self.make(request) as source:
            frame = self.first_frame(source)
            assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
            assert source.size == (frame.shape[1], frame.shape[0])
            assert source.time is not None
            assert "lost" not in source.status

    def test_close_twice_and_read_after_close(self, request):
        source = self.make(request)
        self.first_frame(source)
        source.close()
        source.close()
        assert source.read() is None
        assert source.closed

    def test_context_manager_closes(self, request):
        with self.make(request) as source:
            pass
        assert source.closed

    def test_broken_device_is_a_status_not_an_exception(self, request):
        with self.make_broken(request) as source:
            for _ in range(5):
                assert source.read() is None
            assert source.status.startswith("camera lost — retrying")


@pytest.fixture
def replay_folder(folder):
    return folder


class TestReplayFolder(SourceContract):
    def make(self, request):
        return ReplaySource(request.getfixturevalue("folder"), fps=10, realtime=False)

    def make_broken(self, request):
        return ReplaySource(request.getfixturevalue("tmp_path") / "nowhere", realtime=False)

    def test_video_time_and_end(self, folder):
        with ReplaySource(folder, fps=4, realtime=False) as source:
            times = []
            while source.read() is not None:
                times.append(source.time)
            assert times == [0.0, 0.25, 0.5, 0.75, 1.0]
            assert source.status == "end of replay" and source.finished

    def test_loop(self, folder):
        with open_source(f"replay:{folder}@10:loop", realtime=False) as source:
            frames = [source.read() for _ in range(12)]
        assert all(f is not None for f in frames)
        assert np.array_equal(frames[0], frames[5]) and np.array_equal(frames[1], frames[11])

    def test_realtime_paces_frames(self, folder):
        with ReplaySource(folder, fps=20, realtime=True) as source:
            start = time.monotonic()
            for _ in range(5):
                source.read()
            assert time.monotonic() - start >= 0.19

    def test_unreadable_image_is_skipped(self, folder):
        (folder / "0002.png").write_bytes(b"not a png")
        with ReplaySource(folder, realtime=False) as source:
            frames = [source.read() for _ in range(4)]
        assert sum(f is not None for f in frames) == 4


class TestReplayVideo(SourceContract):
    def make(self, request):
        path = request.getfixturevalue("tmp_path") / "clip.avi"
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 8, (64, 48))
        assert writer.isOpened()
        for i in range(6):
            writer.write(picture(i))
        writer.release()
        return ReplaySource(path, realtime=False)

    def make_broken(self, request):
        path = request.getfixturevalue("tmp_path") / "garbage.avi"
        path.write_bytes(b"\0" * 100)
        return ReplaySource(path, realtime=False)

    def test_rate_from_file(self, request):
        with self.make(request) as source:
            self.first_frame(source)
            assert source.fps == pytest.approx(8)


class TestWebcam(SourceContract):
    def make(self, request):
        request.getfixturevalue("fake_webcam")
        return WebcamSource(0, size=(320, 240))

    def make_broken(self, request):
        request.getfixturevalue("fake_webcam").plugged = False
        return WebcamSource(1)

    def test_requested_and_reported_size(self, fake_webcam):
        with WebcamSource("/dev/null", size=(320, 240)) as cam:
            assert cam.read().shape == (240, 320, 3)
            assert cam.size == (320, 240) and "320x240" in cam.status

    def test_unplugged_mid_game_then_back(self, fake_webcam):
        clock = FakeClock()
        with WebcamSource(0, clock=clock, retry_min=0.5) as cam:
            assert cam.read() is not None
            fake_webcam.plugged = False
            assert all(cam.read() is None for _ in range(3))
            assert cam.status.startswith("camera lost — retrying")
            opened = len(fake_webcam.opened)
            cam.read()
            assert len(fake_webcam.opened) == opened, "retries wait for the backoff"
            clock.now += 0.6
            cam.read()
            assert len(fake_webcam.opened) == opened + 1
            assert cam.status.startswith("camera lost") and "1.0 s" in cam.status, "backoff doubles"
            fake_webcam.plugged = True
            clock.now += 1.1
            assert cam.read() is not None and cam.status.startswith("webcam 0 live")

    def test_garbage_frames(self, fake_webcam):
        fake_webcam.garbage = True
        with WebcamSource(0) as cam:
            assert all(cam.read() is None for _ in range(3))
            assert cam.status.startswith("camera lost — retrying")


class TestPiCamera(SourceContract):
    def make(self, request):
        request.getfixturevalue("fake_picamera2")
        return PiCameraSource(size=(320, 240), settle=0.0)

    def make_broken(self, request):
        request.getfixturevalue("fake_picamera2").present = False
        return PiCameraSource()

    def test_rgb888_and_locks_after_settling(self, fake_picamera2):
        clock = FakeClock()
        with PiCameraSource(size=(320, 240), settle=1.0, clock=clock) as cam:
            frame = cam.read()
            cam_obj = fake_picamera2.instances[0]
            assert cam_obj.config["main"] == {"format": "RGB888", "size": (320, 240)}
            assert tuple(frame[0, 0]) == (10, 20, 30), "RGB888 is already B,G,R: no conversion"
            assert cam_obj.controls_set == []
            clock.now += 1.0
            cam.read()
            cam.read()
            assert cam_obj.focus_cycles == 1
            assert cam_obj.controls_set == [{"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4),
                                             "AeEnable": False, "AwbEnable": False, "AfMode": 0,
                                             "LensPosition": 3.25}]
            assert "locked" in cam.status


class TestThreaded(SourceContract):
    def make(self, request):
        return ThreadedSource(ReplaySource(request.getfixturevalue("folder"), fps=100, realtime=True))

    def make_broken(self, request):
        return ThreadedSource(ReplaySource(request.getfixturevalue("tmp_path") / "gone"), timeout=0.01)

    def test_keeps_only_the_newest_frame(self, folder):
        with ThreadedSource(ReplaySource(folder, fps=1000, realtime=False)) as source:
            source._thread.join(timeout=10)  # the capture thread runs through all five frames, then stops
            assert not source._thread.is_alive(), "the capture thread stops at the end of a replay"
            frame = source.read()
            assert np.array_equal(frame, picture(4)) and source.time == pytest.approx(0.004)
            assert source.dropped == 4
            assert source.read() is None


# -- hardware absent ------------------------------------------------------------------------------------------------
def test_picamera2_absent(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import picamera2 -> ImportError
    with open_source("picamera") as cam:
        assert cam.read() is None and cam.read() is None
        assert "picamera2 is not installed" in cam.status


def test_webcam_index_that_does_not_exist():
    with open_source("webcam:57", retry_min=60) as cam:
        assert cam.read() is None
        assert cam.status.startswith("camera lost — retrying")


@pytest.mark.parametrize("config, expected", [
    ("picamera", ("picamera", {})),
    ("picamera@640x480", ("picamera", {"size": (640, 480)})),
    ("webcam", ("webcam", {"device": 0})),
    ("webcam:0", ("webcam", {"device": 0})),
    ("webcam:/dev/video2", ("webcam", {"device": "/dev/video2"})),
    ("webcam:1@1920x1080", ("webcam", {"device": 1, "size": (1920, 1080)})),
    ("replay:demo.mp4", ("replay", {"path": "demo.mp4"})),
    ("replay:frames/@12.5", ("replay", {"path": "frames/", "fps": 12.5})),
    ("replay:frames:loop", ("replay", {"path": "frames", "loop": True})),
    ("replay:me@home/x.mp4", ("replay", {"path": "me@home/x.mp4"})),
])
def test_parse_source(config, expected):
    assert parse_source(config) == expected


@pytest.mark.parametrize("config", ["", "tv:1", "webcam:abc", "webcam:0@big", "replay:", "replay:x@0",
                                    "picamera:1"])
def test_bad_source_config_quotes_the_input(config):
    with pytest.raises(BadSourceConfig) as err:
        parse_source(config)
    assert repr(config) in str(err.value) and isinstance(err.value, ValueError)
