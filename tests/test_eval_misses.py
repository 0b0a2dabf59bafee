"""tools/eval_misses: the stage at which the reader lost each card it missed, on cardcounter's photos."""

from __future__ import annotations


import numpy as np
import pytest

from companion.vision import detector, synth
from tools import eval_misses, eval_real, eval_synth

CARDCOUNTER = eval_real.DATA / "real-photos" / "cardcounter"


def test_a_card_too_small_to_be_named_is_lost_under_the_size_floor():
    # 85 px tall: read as 7H, but below the 100 px under which no card is named (a card's size is judged from its
    # index: at 95 px, OpenCV 4.6 judged this one a little over 100 px and named it)
    frame, placed = synth.render_scene(["7H"], rng=1, size=(640, 480), table="dark", card_height=85, effects=False)
    dets = detector.recognize(frame)
    assert "7H" not in {d.card for d in dets}
    boxes = {"7H": eval_synth.index_boxes(placed[0].corners)}
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
    boxes = {"9S": eval_synth.index_boxes(placed[0].corners)}
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


def test_eval_synth_says_where_each_card_it_missed_was_lost(capsys, monkeypatch):
    """``tools.eval_synth --misses``: every card laid and not named is given one stage, per table and per deck.
    At 90 px no card is named (the size floor is 100 px), so every card laid is missed."""
    monkeypatch.setattr(eval_synth.D, "TABLES", ("dark", "white"))
    assert eval_synth.main(["--reader", "new", "--sizes", "90", "--scenes", "1", "--seed", "5", "--misses"]) == 0
    out = capsys.readouterr().out
    assert "| dark | 6 | 0 (0%) | 0 |" in out and "| white | 6 | 0 (0%) | 0 |" in out
    rows = {line.split(" | ")[0].strip("| "): [int(v) for v in line.strip("| ").split(" | ")[1:]]
            for line in out.split("Where the cards missed")[1].splitlines() if line.startswith("| ") and "px" in line}
    assert sorted(rows) == ["bundled, 90 px", "dark, 90 px", "white, 90 px"]
    for key, (missed, *stages) in rows.items():
        assert missed == (12 if key.startswith("bundled") else 6) == sum(stages), key


def test_eval_synth_misses_needs_the_reader_it_follows(capsys):
    assert eval_synth.main(["--reader", "old", "--misses"]) == 2
    assert "--misses follows the reader with the corner finder" in capsys.readouterr().err
