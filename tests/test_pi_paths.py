"""One place for the companion's files on a Pi: a manual calibration is saved where ``companion run`` looks, and
``companion watch`` / ``calibrate`` use the camera the configuration names."""

from __future__ import annotations

import argparse

import cv2
import numpy as np
import pytest

from companion.app import Companion
from companion.config import load_config
from companion.vision import calibrate_cmd, watch_cmd


def parse(module, argv):
    parser = argparse.ArgumentParser(prog="companion")
    module.add_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """The service's data folder (systemd's StateDirectory)."""
    folder = tmp_path / "state"
    monkeypatch.delenv("COMPANION_DATA_DIR", raising=False)
    monkeypatch.setenv("STATE_DIRECTORY", str(folder))
    monkeypatch.chdir(tmp_path)  # no stray ./companion.toml
    return folder


@pytest.fixture
def frames(tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(3):
        cv2.imwrite(str(folder / f"{i}.png"), np.full((120, 160, 3), 60 + i, np.uint8))
    return folder


def test_a_manual_calibration_is_used_by_companion_run(data_dir, frames, capsys):
    args = parse(calibrate_cmd, ["calibrate", "--corners", "10,20", "150,22", "152,110", "8,112"])
    assert args.func(args) == 0
    assert str(data_dir / "calibration.json") in capsys.readouterr().out
    config = load_config(text=f'[camera]\nsource = "replay:{frames}"\n')
    app = Companion.create(config, headless=True, db_path=data_dir / "games.db", use_controls=False)
    try:
        cal = app.tracker.calibration or app.tracker.calibrator.calibration
        assert cal is not None and cal.method == "manual"
        assert np.allclose(cal.to_image(cal.zones.corners)[0], (10, 20), atol=1e-3)
    finally:
        app.close()


def test_calibrate_and_watch_default_to_the_configured_camera(data_dir, frames, tmp_path):
    toml = tmp_path / "companion.toml"
    toml.write_text(f'[camera]\nsource = "replay:{frames}@20:loop"\nwidth = 640\nheight = 480\n')
    args = parse(calibrate_cmd, ["calibrate", "--config", str(toml)])
    source, options = calibrate_cmd.configured_source(args)
    assert source == f"replay:{frames}@20:loop" and options["camera_size"] == (640, 480)
    clicks = [(10.0, 10.0), (150.0, 12.0), (152.0, 110.0), (8.0, 112.0)]
    assert calibrate_cmd.run(args, clicks=clicks) == 0, "the picture came from the configured replay"
    watch = parse(watch_cmd, ["watch", "--config", str(toml), "--seconds", "0.3", "--scripted"])
    assert watch.func(watch) == 0


def test_without_a_configured_camera_they_fall_back_to_the_first_webcam(data_dir):
    args = parse(calibrate_cmd, ["calibrate"])
    assert calibrate_cmd.configured_source(args)[0] == "webcam:0"  # the default config plays the demo
