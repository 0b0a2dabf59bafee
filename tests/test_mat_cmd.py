"""The mat and calibrate commands, run as the lead's CLI runs them (add_parser + run), headless."""

from __future__ import annotations

import argparse
import json

import cv2
import numpy as np
import pytest

from companion.errors import ConfigError
from companion.vision import calibrate_cmd, mat_cmd, watch_cmd
from companion.vision.calibration import Calibration
from companion.vision.mat import make_mat
from companion.vision.synth import background
from companion.sim.camera import TableCamera, render_mat_layer


def parse(module, argv):
    parser = argparse.ArgumentParser(prog="companion")
    module.add_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def test_mat_command_writes_pages_and_zones(tmp_path, capsys):
    args = parse(mat_cmd, ["mat", "--seats", "4", "--paper", "letter", "-o", str(tmp_path / "m.pdf"), "--zones",
                           "--dpi", "72"])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "4 LETTER sheets" in out and "100%" in out
    assert (tmp_path / "m.pdf").read_bytes().count(b"/Type /Page ") == 4
    zones = json.loads((tmp_path / "m-zones.json").read_text())
    assert set(zones["zones"]) == {"seat1", "seat2", "seat3", "seat4", "deck", "starter", "crib"}


def test_calibrate_with_corners_given(tmp_path, capsys):
    out = tmp_path / "cal.json"
    args = parse(calibrate_cmd, ["calibrate", "--corners", "10,20", "600,25", "610,340", "5,330", "-o", str(out)])
    assert args.func(args) == 0
    cal = Calibration.load(out)
    assert cal.method == "manual" and np.allclose(cal.to_image([(0, 0)]), [(10, 20)], atol=1e-3)
    bad = parse(calibrate_cmd, ["calibrate", "--corners", "1,2", "3", "4,5", "6,7"])
    with pytest.raises(ConfigError, match="X,Y"):
        bad.func(bad)


def scene_folder(tmp_path, with_mat: bool):
    folder = tmp_path / ("mat" if with_mat else "plain")
    folder.mkdir()
    frame = background((960, 540), "wood", 3)
    if with_mat:
        mat = make_mat(2, "a4")
        x0, y0, x1, y1 = mat.extent
        render_mat_layer(frame, mat, TableCamera.looking_at((x0, y0, x1 - x0, y1 - y0), (960, 540), tilt=0.15,
                                                            fill=0.85))
    cv2.imwrite(str(folder / "0.png"), frame)
    return folder


def test_calibrate_finds_the_mat_by_itself(tmp_path, capsys):
    out = tmp_path / "cal.json"
    args = parse(calibrate_cmd, ["calibrate", "--source", f"replay:{scene_folder(tmp_path, True)}", "-o", str(out)])
    assert args.func(args) == 0
    assert "found the 2-seat mat" in capsys.readouterr().out
    assert Calibration.load(out).mat == (2, "a4")


def test_calibrate_by_clicking_four_corners(tmp_path):
    out = tmp_path / "cal.json"
    args = parse(calibrate_cmd, ["calibrate", "--source", f"replay:{scene_folder(tmp_path, False)}", "--seats", "3",
                                 "-o", str(out)])
    clicks = [(100.0, 50.0), (860.0, 60.0), (880.0, 500.0), (90.0, 490.0)]
    assert calibrate_cmd.run(args, clicks=clicks) == 0
    cal = Calibration.load(out)
    assert cal.zones.seats == 3 and cal.image_size == (960, 540)
    assert np.allclose(cal.to_image(cal.zones.corners), clicks, atol=1e-3)


def test_calibrate_without_a_picture_says_why(tmp_path):
    args = parse(calibrate_cmd, ["calibrate", "--source", "webcam:61", "--timeout", "0.2"])
    with pytest.raises(ConfigError, match="camera lost"):
        args.func(args)


def test_watch_command_runs_headless_on_a_replay(tmp_path):
    folder = scene_folder(tmp_path, True)
    args = parse(watch_cmd, ["watch", "--source", f"replay:{folder}@20:loop", "--seconds", "0.5", "--scripted"])
    assert args.func(args) == 0
    bad = parse(watch_cmd, ["watch", "--source", "tv:1"])
    with pytest.raises(ConfigError, match="tv:1"):
        bad.func(bad)
