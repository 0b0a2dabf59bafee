"""tools/eval_misses: the stage at which the reader lost each card it missed, on cardcounter's photos."""

from __future__ import annotations


import numpy as np
import pytest

from companion.vision import detector, synth
from tools import eval_misses, eval_real

CARDCOUNTER = eval_real.DATA / "real-photos" / "cardcounter"


def index_boxes(corners, height: float) -> list[tuple[float, float, float, float]]:
    """Boxes round the two index corners of a synthetic card (as cardcounter's labels box them)."""
    c = np.asarray(corners, float)
    out = []
    for a, b, d in ((c[0], c[1], c[3]), (c[2], c[3], c[1])):
        centre = a + 0.12 * (b - a) + 0.13 * (d - a)
        out.append((float(centre[0]), float(centre[1]), 0.25 * height, 0.25 * height))
    return out


def test_a_card_too_small_to_be_named_is_lost_under_the_size_floor():
    # 85 px tall: read as 7H, but below the 100 px under which no card is named (a card's size is judged from its
    # index: at 95 px, OpenCV 4.6 judged this one a little over 100 px and named it)
    frame, placed = synth.render_scene(["7H"], rng=1, size=(640, 480), table="dark", card_height=85, effects=False)
    dets = detector.recognize(frame)
    assert "7H" not in {d.card for d in dets}
    boxes = {"7H": index_boxes(placed[0].corners, 85)}
    assert eval_misses.lost_where(frame, {"7H"}, boxes, dets) == {"7H": "under the size floor"}


def test_a_card_with_no_index_in_view_is_not_marked_and_one_without_a_box_cannot_be_told():
    frame = synth.background((640, 480), "wood", np.random.default_rng(2))
    lost = eval_misses.lost_where(frame, {"KS", "2D"}, {"KS": [(320.0, 240.0, 40.0, 50.0)]})
    assert lost == {"KS": "not marked", "2D": "no box"}


def test_a_card_named_where_another_was_labelled_is_misnamed_there():
    frame, placed = synth.render_scene(["9C"], rng=4, size=(1280, 720), table="cloth", card_height=300,
                                       effects=False)
    assert "9C" in {d.card for d in detector.recognize(frame)}
    # the labels (wrongly) say a 9S lies there: the reader's 9C is the only name near its boxes
    boxes = {"9S": index_boxes(placed[0].corners, 300)}
    assert eval_misses.lost_where(frame, {"9S"}, boxes) == {"9S": "misnamed there"}


def test_bad_arguments_are_named(tmp_path, capsys):
    assert eval_misses.main(["--data", str(tmp_path)]) == 2
    assert "no cardcounter photos with boxes" in capsys.readouterr().err
    if (CARDCOUNTER / "BOXES.tsv").exists():
        assert eval_misses.main(["--sets", "webcam-hand"]) == 2
        assert "no such subset 'webcam-hand'" in capsys.readouterr().err


@pytest.mark.skipif(not (CARDCOUNTER / "BOXES.tsv").exists(),
                    reason="../shared/data/real-photos/cardcounter is not beside the project")
def test_every_card_the_reader_missed_on_real_photos_gets_one_stage(capsys):
    assert eval_misses.main(["--part", "val", "--sets", "webcam-held"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("| webcam-held"))
    cards, missed, *stages = (int(v) for v in row.strip("| ").split(" | ")[1:])
    found = eval_real.evaluate(detector.recognize, eval_real.sets(eval_real.DATA / "real-photos", "val")
                               ["cardcounter/webcam-held"])["found"]
    assert missed == cards - found > 0
    assert sum(stages) == missed
