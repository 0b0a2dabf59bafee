"""The play mat: layout sanity for every size, the files it writes, and calibration from its markers."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import cv2
import numpy as np
import pytest

from companion.errors import ConfigError
from companion.vision.calibration import (AutoCalibrator, Calibration, MarkerDetector, calibrate_from_corners,
                                          calibrate_from_markers)
from companion.vision.detection import Detection
from companion.vision.mat import PAPERS, make_mat, mat_for_marker_ids
from companion.vision.synth import background
from companion.vision.zones import ZoneMap, place
from companion.sim.camera import TableCamera, render_mat_layer

ALL = list(itertools.product((2, 3, 4), PAPERS))


def rects_overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("seats, paper", ALL)
def test_layout_is_sound(seats, paper):
    mat = make_mat(seats, paper)
    w, h = mat.zones.size_mm
    x0, y0, x1, y1 = mat.extent
    assert x0 <= 0 and y0 <= 0 and x1 >= w and y1 >= h, "the sheets cover the play area"
    assert [z.name for z in mat.zones.zones if z.name.startswith("seat")] == [f"seat{i}" for i in
                                                                             range(1, seats + 1)]
    assert {"starter", "crib", "deck"} <= set(mat.zones.names)
    for a, b in itertools.combinations(mat.zones.zones, 2):
        assert not rects_overlap(a.rect, b.rect), (a.name, b.name)
    for zone in mat.zones.zones:
        zx, zy, zw, zh = zone.rect
        assert 0 <= zx and zx + zw <= w and 0 <= zy and zy + zh <= h, zone.name
        assert min(zw, zh) >= 63 + 2 and max(zw, zh) >= 88 + 2, "a card fits"
        for corners in mat.markers.values():
            (mx, my), (mx1, my1) = corners[0], corners[2]
            assert not rects_overlap((mx, my, mx1 - mx, my1 - my), zone.rect), zone.name
    assert len(mat.markers) >= 4
    for sheet in mat.sheets:
        inside = [c for c in mat.markers.values() if rects_overlap((*c[0], 1, 1), sheet.rect)]
        assert len(inside) >= 2, f"sheet {sheet.number} keeps at least two markers"
    assert mat_for_marker_ids(list(mat.markers)[:2]) == mat


def test_marker_ids_are_unique_across_mats():
    ids = [i for s, p in ALL for i in make_mat(s, p).markers]
    assert len(ids) == len(set(ids)) and max(ids) < 250


def test_paper_choice():
    assert [len(make_mat(2, p).sheets) for p in PAPERS] == [2, 1, 2]
    assert [len(make_mat(4, p).sheets) for p in PAPERS] == [4, 2, 4]


@pytest.mark.parametrize("seats, paper", [(5, "a4"), (2, "a5")])
def test_bad_mat_arguments(seats, paper):
    with pytest.raises(ConfigError, match=repr(seats) if seats == 5 else repr(paper)):
        make_mat(seats, paper)


def test_pdf_has_a_true_scale_page_per_sheet(tmp_path):
    [path] = make_mat(4, "a4").save(tmp_path / "mat.pdf", dpi=100)
    data = path.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    assert data.count(b"/Type /Page ") == 4
    assert b"/MediaBox [0 0 841.890 595.276]" in data  # A4 landscape in points
    startxref = int(data.rsplit(b"startxref", 1)[1].split()[0])
    assert data[startxref:].startswith(b"xref")


def test_png_per_sheet_with_dpi_and_readable_markers(tmp_path):
    paths = make_mat(2, "a4").save(tmp_path / "mat.png", dpi=150)
    assert [p.name for p in paths] == ["mat-1.png", "mat-2.png"]
    img = cv2.imread(str(paths[0]), cv2.IMREAD_GRAYSCALE)
    assert img.shape == (round(297 * 150 / 25.4), round(210 * 150 / 25.4))
    assert b"pHYs" in paths[0].read_bytes()[:80]
    found = MarkerDetector().detect(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR))
    assert set(found) == {i for i in make_mat(2, "a4").markers if i < 4}


def test_svg_is_valid_and_in_millimetres(tmp_path):
    [path] = make_mat(2, "a3").save(tmp_path / "mat.svg")
    root = ET.parse(path).getroot()
    assert root.get("width") == "420mm" and root.get("height") == "297mm"
    assert len(root.findall("{http://www.w3.org/2000/svg}path")) == 4


def test_unknown_extension(tmp_path):
    with pytest.raises(ConfigError, match="mat.jpg"):
        make_mat().save(tmp_path / "mat.jpg")


def scene(mat, camera, seed=1):
    frame = background(camera.size, "wood", seed)
    return render_mat_layer(frame, mat, camera)


def camera_for(mat, **kw):
    x0, y0, x1, y1 = mat.extent
    return TableCamera.looking_at((x0, y0, x1 - x0, y1 - y0), (1280, 720), fill=0.8, **kw)


@pytest.mark.parametrize("seats, paper", ALL)
def test_mat_found_and_calibrated_in_a_scene_at_an_angle(seats, paper):
    mat = make_mat(seats, paper)
    camera = camera_for(mat, tilt=0.2, angle_deg=8)
    cal = calibrate_from_markers(scene(mat, camera))
    assert cal is not None and cal.mat == (seats, paper) and cal.method == "markers"
    assert np.abs(cal.to_image(mat.zones.corners) - camera.to_image(mat.zones.corners)).max() < 3.0
    for zone in mat.zones.zones:  # a card at each zone's centre is placed in that zone
        cx, cy = camera.to_image([zone.center])[0]
        assert place(Detection("5H", 0.9, ((cx - 5, cy - 5), (cx + 5, cy + 5))), cal) == zone.name
    outside = camera.to_image([(-30, -30)])[0]
    assert place(Detection("5H", 0.9, (tuple(outside),)), cal) == "elsewhere"


def test_taped_sheets_a_little_off_still_calibrate():
    mat = make_mat(2, "a4")
    camera = camera_for(mat, tilt=0.1)
    frame = background(camera.size, "wood", 2)
    # sheet 2 taped 2 mm low and 1.5 mm to the right of where it should be
    for sheet, off in zip(mat.sheets, ((0, 0), (1.5, 2.0))):
        x, y, w, h = sheet.rect
        ppm = 4.0
        img = cv2.cvtColor(mat.render(ppm, rect=sheet.rect), cv2.COLOR_GRAY2BGR)
        m = camera.homography @ np.array([[1 / ppm, 0, x + off[0]], [0, 1 / ppm, y + off[1]], [0, 0, 1]])
        warped = cv2.warpPerspective(img, m, camera.size, flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full(img.shape[:2], 255, np.uint8), m, camera.size) > 128
        frame[mask] = warped[mask]
    cal = calibrate_from_markers(frame)
    assert cal is not None and cal.markers == 4
    assert np.abs(cal.to_image(mat.zones.corners) - camera.to_image(mat.zones.corners)).max() < 6.0


def test_bumped_camera_recalibrates_within_a_second():
    mat = make_mat(2, "a4")
    camera = camera_for(mat, tilt=0.15, angle_deg=3)
    bumped = camera.bumped(dx_mm=5, dy_mm=-3, angle_deg=1.0, about=(210, 140))
    before, after = scene(mat, camera), scene(mat, bumped)
    calibrator = AutoCalibrator(interval=3.0, min_interval=0.25)
    fps = 10
    fixed_at = None
    previous = None
    for i in range(60):  # 6 s of video, bumped at 2.0 s
        t = i / fps
        frame = after if t >= 2.0 else before
        changed = previous is None or frame is not previous
        previous = frame
        cal = calibrator.update(frame, t, changed=changed)
        truth = bumped if t >= 2.0 else camera
        ok = np.abs(cal.to_image(mat.zones.corners) - truth.to_image(mat.zones.corners)).max() < 3.0
        if t >= 2.0 and ok and fixed_at is None:
            fixed_at = t
        if t < 2.0:
            assert ok
    assert fixed_at is not None and fixed_at - 2.0 <= 1.0
    assert calibrator.tries <= 6, "a quiet table does not look for markers on every frame"


def test_manual_calibration_file_round_trip(tmp_path):
    zones = ZoneMap.for_seats(3)
    cal = calibrate_from_corners([(80, 40), (1200, 60), (1220, 700), (60, 690)], zones, (1280, 720))
    path = cal.save(tmp_path / "cfg" / "calibration.json")
    back = Calibration.load(path)
    assert back.method == "manual" and back.zones == zones and back.image_size == (1280, 720)
    assert np.allclose(back.to_image(zones.corners), [(80, 40), (1200, 60), (1220, 700), (60, 690)], atol=0.01)
    assert np.allclose(back.to_mat([(80, 40)]), [(0, 0)], atol=1e-6)


def test_bad_calibration_files(tmp_path):
    with pytest.raises(ConfigError, match="nowhere.json"):
        Calibration.load(tmp_path / "nowhere.json")
    (tmp_path / "bad.json").write_text('{"homography": [[1, 0], [0, 1]], "zones": {"size_mm": [1, 1], "zones": {}}}')
    with pytest.raises(ConfigError, match="3x3"):
        Calibration.load(tmp_path / "bad.json")
    with pytest.raises(ConfigError, match="four corners"):
        calibrate_from_corners([(0, 0)] * 4, ZoneMap.for_seats(2))
