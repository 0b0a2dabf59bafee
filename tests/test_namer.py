"""The index namer: the second look a read below its floor gets (companion/vision/namer.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import corners, detector, namer, synth
from companion.vision.classifier import default_model
from tools import eval_real, eval_synth, index_samples

needs_model = pytest.mark.skipif(not namer.available(), reason="models/namer.onnx is not there")


def _scene(seed: int = 3, height: float = 150.0):
    rng = np.random.default_rng(seed)
    frame, laid = eval_synth.scene_laid(rng, "wood", height)
    return frame, {code: eval_synth.index_boxes(c) for code, c in laid.items()}


def test_a_cut_is_upright_whichever_way_the_card_lies():
    face = cv2.resize(synth.photo_face("7H"), (114, 176))
    box = np.float32([[2, 2], [24, 2], [24, 46], [2, 46]])
    cut = namer.index_crop(face, box)
    turned = cv2.rotate(face, cv2.ROTATE_90_CLOCKWISE)  # (x, y) -> (h - 1 - y, x)
    h = face.shape[0]
    turned_box = np.float32([[h - 1 - y, x] for x, y in box])
    assert cut.shape == (3, namer.CROP_H, namer.CROP_W)
    assert np.abs(namer.index_crop(turned, turned_box) - cut).mean() < 0.1
    assert abs(float(cut.mean())) < 1e-3 and abs(float(cut.std()) - 1) < 0.01  # its own levels, spread


def test_no_boxes_no_names():
    assert namer.name(np.zeros((50, 50, 3), np.uint8), []) == []


@needs_model
def test_it_names_the_indices_the_search_proposes():
    frame, boxes = _scene()
    said = proposed = 0
    for _, pts, centre in index_samples.proposed(frame, default_model()):
        truth = index_samples.label(centre, boxes)
        if truth == namer.NONE:
            continue
        proposed += 1
        got, p = namer.name(frame, [pts])[0]
        said += got == truth
    assert proposed >= 8
    assert said >= 0.9 * proposed


@needs_model
def test_a_read_below_its_floor_is_named_only_where_the_namer_agrees():
    frame, boxes = _scene()
    code, pts, centre = next((c, p, m) for c, p, m in index_samples.proposed(frame, default_model())
                             if index_samples.label(m, boxes) == c)
    wrong = next(k for k in namer.CODES if k != code)
    for read, lifted in ((code, True), (wrong, False)):
        held = [corners.Doubtful(read, 0.9, pts, centre, 0.95, 160.0, (0, 1))]
        best: dict = {}
        detector._second_looks(frame, best, held, detector.ACCEPT)
        assert (read in best) is lifted
        if lifted:
            assert best[read].conf >= 0.95 and best[read].looks == 2


def test_eval_real_names_a_setting_it_cannot_apply(capsys):
    assert eval_real.main(["--set", "detector.NO_SUCH=1"]) == 2
    assert "NO_SUCH" in capsys.readouterr().err


def test_the_reader_leaves_unnamed_the_card_both_looks_misread():
    # a held-out photo: the glyphs read the gold 7 of spades 7C below its floor and the namer agreed (stop 47), so
    # the namer stays off; the reader as committed names the two other cards and not the 7C
    photo = eval_real.DATA / "real-photos" / "cardcounter" / "images" / "phone-novelty-deck_IMG_7823_JPG.jpg"
    if not photo.exists():
        pytest.skip(f"cardcounter's photos are not at {photo.parent} (only the team has ../shared)")
    named = {d.card for d in detector.recognize(cv2.imread(str(photo)))}
    assert "7C" not in named and {"6C", "TD"} <= named
