"""tools/train_vision: the glyph classifiers' training data (only what runs without the SVG decks)."""

from __future__ import annotations

import numpy as np

from companion.vision.classifier import GlyphModel, default_model
from tools import train_vision


def test_ink_weight_makes_a_faces_ink_bolder_or_thinner_and_grows_no_rim_from_a_transparent_margin():
    face = np.zeros((352, 250, 4), np.uint8)  # transparent (black) round a white card with one stroke of ink
    face[20:332, 20:230] = (255, 255, 255, 255)
    face[100:120, 100:110, :3] = 0
    inks = []
    for seed in range(8):
        out = train_vision.ink_weight(face, np.random.default_rng(seed))
        assert out.shape == face.shape and (out[:, :, 3] == face[:, :, 3]).all()
        card = out[20:332, 20:230, 0]
        assert (card[:8] > 128).all() and (card[:, :8] > 128).all(), "a dark rim grew in from the margin"
        inks.append(int((card < 128).sum()))
    assert min(inks) < 200 < max(inks)  # the 10 x 20 stroke thinner in some, bolder in others



def test_a_saved_model_says_which_library_versions_made_it_and_reads_the_same(tmp_path):
    model = default_model()
    path = tmp_path / "glyphs.npz"
    model.save(path, made_with="OpenCV 4.6.0, numpy 1.24.2")
    again = GlyphModel.load(path)
    with np.load(path, allow_pickle=False) as data:
        assert str(data["made_with"]) == "OpenCV 4.6.0, numpy 1.24.2"
    x = np.random.default_rng(0).random((3, model.rank.w1.shape[0]), dtype=np.float32)
    np.testing.assert_allclose(again.rank.probs(x), model.rank.probs(x), rtol=1e-5)
    assert again.suit.classes == model.suit.classes
