"""The ink's colour picks the suit among its colour's suits: a spade drawn unlike the trained ones, which the suit
classifier half takes for a diamond, is still named a spade when its ink is surely black."""
from __future__ import annotations

import numpy as np
import pytest

from companion.vision import reader
from companion.vision.classifier import JUNK, default_model
from companion.vision.glyphs import IndexGlyphs

MODEL = default_model()
BLACK, RED, BETWEEN = 1.0, 2.2, 1.3  # redness of black ink, red ink, and ink that is surely neither


def _glyphs(redness: float | None) -> IndexGlyphs:
    blank = np.zeros((32, 32), np.uint8)
    return IndexGlyphs(rank=blank, suit=blank, rank_box=(2, 2, 8, 12), suit_box=(2, 16, 8, 8),
                       redness=redness, rank_aspect=0.6, suit_aspect=0.9)


def _probs(classes, **share) -> np.ndarray:
    """A classifier's output: ``share`` by class (JUNK spelt ``junk``), the rest spread evenly."""
    p = np.array([share.get("junk" if c == JUNK else c, 0.0) for c in classes], np.float32)
    rest = [n for n, c in enumerate(classes) if ("junk" if c == JUNK else c) not in share]
    p[rest] = (1.0 - p.sum()) / max(len(rest), 1)
    return p


def _read(redness, suit_share, colour=None, by_colour=True, monkeypatch=None):
    if monkeypatch is not None:
        monkeypatch.setattr(reader, "SUIT_BY_COLOUR", by_colour)
    pr = _probs(MODEL.rank.classes, **{"7": 0.98})
    ps = _probs(MODEL.suit.classes, **suit_share)
    return reader._name(_glyphs(redness), pr, ps, MODEL, colour)


def test_black_ink_names_a_black_suit_the_shapes_half_call_red(monkeypatch):
    got = _read(BLACK, {"S": 0.55, "D": 0.40}, monkeypatch=monkeypatch)
    assert got.code == "7S"
    assert got.confidence > 0.9


def test_red_ink_names_the_red_suit_of_the_same_shapes(monkeypatch):
    got = _read(RED, {"S": 0.55, "D": 0.40}, monkeypatch=monkeypatch)
    assert got.code == "7D"
    assert got.confidence > 0.9


def test_black_ink_whose_shape_is_likelier_no_suit_is_unknown(monkeypatch):
    # a red-looking shape in black ink, likelier no suit at all than a club or spade: no guess
    got = _read(BLACK, {"D": 0.6, "junk": 0.3}, monkeypatch=monkeypatch)
    assert got.code is None


def test_ink_of_no_sure_colour_keeps_the_shapes_read_with_its_doubt(monkeypatch):
    on = _read(BETWEEN, {"S": 0.55, "D": 0.40}, monkeypatch=monkeypatch)
    off = _read(BETWEEN, {"S": 0.55, "D": 0.40}, by_colour=False, monkeypatch=monkeypatch)
    assert on.code == off.code == "7S"
    assert on.confidence == pytest.approx(off.confidence)
    assert on.confidence < 0.6


def test_a_grey_frame_names_by_shape_alone(monkeypatch):
    got = _read(None, {"S": 0.55, "D": 0.40}, monkeypatch=monkeypatch)
    assert got.code == "7S"
    assert got.confidence == pytest.approx(0.98 * 0.55, rel=1e-3)


def test_switched_off_the_colour_only_lowers_a_mismatch(monkeypatch):
    # the old behaviour, kept as an option: black ink on a red-shaped read is named red at a third of the doubt
    got = _read(BLACK, {"D": 0.55, "S": 0.40}, by_colour=False, monkeypatch=monkeypatch)
    assert got.code == "7D"
    assert got.confidence == pytest.approx(0.98 * 0.55 * 0.3, rel=1e-3)
    assert _read(BLACK, {"D": 0.55, "S": 0.40}, monkeypatch=monkeypatch).code == "7S"
