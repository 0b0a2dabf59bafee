"""The A/B tool that compares reader settings on the same synthetic scenes (tools/eval_ab.py)."""

from __future__ import annotations

import pytest

from tools import eval_ab


@pytest.mark.parametrize("setting, named", [
    ("detection.MIN_HEIGHT", "not module.NAME=value"),
    ("nosuch.X=1", "no module companion.vision.nosuch"),
    ("detection.NO_SUCH=1", "has no NO_SUCH"),
    ("detection.MIN_HEIGHT=high", "'high' is not a Python literal"),
])
def test_a_setting_that_names_nothing_real_is_refused_by_name(setting, named, capsys):
    assert eval_ab.main(["--set", setting]) == 2
    assert named in capsys.readouterr().err


@pytest.mark.slow
def test_each_setting_reads_the_same_scenes_and_is_put_back_after(capsys):
    from companion.vision import detection

    before = detection.MIN_HEIGHT
    assert eval_ab.main(["--seed", "3", "--scenes", "1", "--sizes", "196", "--only", "bundled@196",
                         "--set", "", "--set", "detection.MIN_HEIGHT=1000.0"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")][1:]
    as_is, floored = (row.split("|")[2].split(" / ") for row in rows)
    assert int(as_is[2]) == int(floored[2]) == 60  # ten tables, one scene of six cards each
    assert int(as_is[0]) >= 45 and int(floored[0]) == int(floored[1]) == 0  # no card is named under a 1000 px floor
    assert detection.MIN_HEIGHT == before


def test_a_setting_is_read_as_modules_names_and_literals():
    assert eval_ab.parse_setting(" detection.MIN_HEIGHT=115.0; detector.ENLARGE = 0 ;") == {
        ("detection", "MIN_HEIGHT"): 115.0, ("detector", "ENLARGE"): 0}
    assert eval_ab.parse_setting("") == {}


def test_a_setting_may_name_another_glyph_model_and_the_committed_one_reads_again_after(tmp_path):
    """``--set "classifier.MODEL_PATH='other.npz'"`` reads with that model (loaded afresh, not the one cached
    before), and the committed model is loaded again once the setting is put back."""
    import shutil

    from companion.vision import classifier

    committed = classifier.MODEL_PATH
    other = tmp_path / "other.npz"
    shutil.copy(committed, other)
    before = classifier.default_model()
    with eval_ab.applied(eval_ab.parse_setting(f"classifier.MODEL_PATH='{other}'")):
        assert classifier.MODEL_PATH == str(other)
        inside = classifier.default_model()
        assert inside is not before
    assert classifier.MODEL_PATH == committed
    assert classifier.default_model() is not inside
