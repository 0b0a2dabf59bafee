"""The glyph classifiers' real training samples (tools/real_glyphs.py): only the train part of cardcounter is ever
read, each index is labelled the way its card lies, and the reader trained on them holds on held-out photos.

Tests that need the team's photos in ../shared skip when they are absent; no photo is kept in the repository.
"""

from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools import real_glyphs

CC = real_glyphs.CARDCOUNTER


def _need_photos():
    if not (CC / "BOXES.tsv").exists():
        pytest.skip(f"cardcounter's photos are not at {CC} (only the team has ../shared)")


@pytest.mark.parametrize("turn", [0, 90, 180, 270, 33])
def test_down_is_found_from_where_the_card_centre_lies(turn):
    """An index corner up and to the left of its card's centre (in the card's own frame), the card turned any way:
    the card's "down" comes back, so a rank-over-suit pair read upwards is never labelled as that card."""
    t = np.deg2rad(turn)
    down = np.array([-np.sin(t), np.cos(t)])
    right = np.array([down[1], -down[0]])
    corner = np.array([300.0, 200.0])
    centre = corner + 100 * (0.30 * right + 0.37 * down)
    got = real_glyphs.down_from_centre(corner, centre)
    assert got is not None
    assert np.allclose(got, down, atol=1e-6)


def test_real_samples_never_read_a_held_out_photo(monkeypatch):
    _need_photos()
    parts = real_glyphs.split_parts()
    read: list[str] = []

    def fake_imread(path, *args):
        read.append(str(Path(path).relative_to(CC)))
        return None

    monkeypatch.setattr(real_glyphs.cv2, "imread", fake_imread)
    real_glyphs.real_samples(CC, part="train")
    assert read, "no photo read"
    assert {parts[n] for n in read} == {"train"}
    assert len(read) == sum(p == "train" for p in parts.values())
    # the validation slice (where the acceptance is chosen) and the rest split the train part between them
    read.clear()
    real_glyphs.real_samples(CC, part="train", val=True)
    val = set(read)
    read.clear()
    real_glyphs.real_samples(CC, part="train", val=False)
    assert val and not val & set(read)
    assert len(val) + len(read) == sum(p == "train" for p in parts.values())


def test_real_samples_are_labelled_index_or_not_a_rank():
    """One cut per box of a few train photos: index samples are labelled with a box's card, the rest "not a rank"."""
    _need_photos()
    parts = real_glyphs.split_parts()
    names = sorted(n for n, p in parts.items() if p == "train")[:12]
    boxes = real_glyphs.load_boxes(CC, set(names))
    out: tuple[list, list, list, list] = ([], [], [], [])
    stats: dict = defaultdict(int)
    codes = set()
    for k, n in enumerate(names):
        real_glyphs.photo_samples(cv2.imread(str(CC / n)), boxes[n], np.random.default_rng(k), 1, None, out, stats)
        codes |= {c for c, _ in boxes[n]}
    rx, ry, sx, sy = out
    assert stats["index"] > 0 and stats["junk"] > 0
    assert set(ry) - {"-"} <= {c[0] for c in codes}
    assert set(sy) - {"-"} <= {c[1] for c in codes}
    assert sum(r != "-" for r in ry) == sum(s != "-" for s in sy) == stats["index"]
    assert len(rx) == len(ry) and len(sx) == len(sy) and len(sx) <= len(rx)
    assert all(x.shape == rx[0].shape for x in rx)


def test_red_cards_in_a_grey_photo_are_named_by_their_shape():
    """A grey photo (stored as BGR) has no red: the reader names hearts and diamonds by their glyphs' shape instead
    of calling every red card "unknown" (before, the ink's colour check cut their confidence to a third), also when
    its channels differ by a few levels (before, one level's difference anywhere made it a colour photo)."""
    from companion.vision import recognize, synth
    from companion.vision.reader import is_grey

    rng = np.random.default_rng(5)
    cards = ["QH", "8D", "6D", "KS", "2H", "9C"]
    got: set[str] = set()
    for _ in range(2):
        frame, _ = synth.render_scene(cards, rng=rng, card_height=300)
        grey = cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        # a grey photo that went through a JPEG encoder or a phone's filter: its channels a few levels apart
        grey = np.clip(grey + rng.integers(-3, 4, grey.shape), 0, 255).astype(np.uint8)
        assert is_grey(grey) and not is_grey(frame)
        named = {d.card for d in recognize(grey) if d.card not in ("unknown", "back")}
        assert named <= set(cards), f"misread {sorted(named - set(cards))}"
        got |= named
    assert {"QH", "8D", "6D", "2H"} & got, f"no red card named: {sorted(got)}"
    assert len(got) >= 5


@pytest.mark.slow
def test_held_out_webcam_table_photos_are_named_not_misread():
    """cardcounter's held-out webcam photos of a table (18 photos, 135 cards with 8-12 px indices; never trained or
    tuned on): the reader trained on real index corners names most and misreads at most one (the glyph
    classifiers trained on synthetic scenes alone named 36% and misread 4: clubs as spades, 3 as 5)."""
    _need_photos()
    from companion.vision import recognize

    parts = real_glyphs.split_parts()
    kinds = dict(line.split("\t") for line in (CC / "SUBSETS.tsv").read_text().splitlines() if "\t" in line)
    rows = [line.split("\t") for line in (CC / "LABELS.tsv").read_text().splitlines()
            if "\t" in line and not line.startswith("#")]
    found = wrong = total = 0
    for name, codes in rows:
        if parts.get(name) != "heldout" or kinds.get(name) != "webcam-table":
            continue
        truth = {c for c in codes.split(",") if c}
        named = {d.card for d in recognize(cv2.imread(str(CC / name))) if d.card not in ("unknown", "back")}
        found += len(named & truth)
        wrong += len(named - truth)
        total += len(truth)
    assert total > 100
    assert wrong <= 1
    assert found >= 0.75 * total, f"found {found} of {total}"


def test_an_index_cut_by_the_frames_edge_is_not_named():
    """A webcam photo of the play (cardcounter's train part): the AD at the top has its index cut in half by the
    frame's top edge, and the corner cut repeats the frame's first row where the A's apex was; it was read as a TD at
    0.85. An index whose box runs off the frame by more than a quarter of its size (``corners.OFF_FRAME``) is not
    named; every card named here is on the table, the AD too (by its other index)."""
    _need_photos()
    from companion.vision import recognize

    name = "images/webcam-table_WIN_20240627_12_52_01_Pro_jpg.jpg"
    truth = {"3S", "9C", "AS", "4S", "JC", "AD"}
    named = {d.card for d in recognize(cv2.imread(str(CC / name))) if d.card not in ("unknown", "back")}
    assert named <= truth, f"misread {sorted(named - truth)}"
    assert len(named) >= 5


@pytest.mark.parametrize("code", ["8D", "5C", "KS", "3H", "TC"])
def test_an_index_in_shade_is_found_when_the_rest_of_the_corner_is_bright(code):
    """Light falling unevenly on a corner cut (the index in a shadow, the paper below it bright): the threshold
    that suits the whole cut makes the shaded paper ink, joined to the rank; the rows round the rank alone give
    the right one. Before, no index was found in any of these."""
    corner, (x, y, w, h) = _face_corner(code)
    shaded = corner.astype(np.float32)
    shaded[:y + 3 * h] *= 0.55
    _rank_found_at(shaded, (x, y, w, h))


@pytest.mark.parametrize("code", ["7H", "KD", "5S", "7C", "9D", "TS", "QH"])
def test_a_pale_rank_beside_dark_ink_is_found(code):
    """A rank printed in pale or washed-out ink (a webcam's overexposed card) beside a dark suit: the threshold the
    dark ink sets for the whole cut leaves the rank unseen, and a second look nearer the paper finds it. Before,
    none of these was found. (8C faded so is not found either way: its first look takes a fragment of the 8.)"""
    corner, (x, y, w, h) = _face_corner(code)
    pale = corner.astype(np.float32)
    paper = np.percentile(pale, 90, axis=(0, 1))
    rank = np.s_[y - 2:y + h + 2, x - 2:x + w + 2]
    pale[rank] = paper - (paper - pale[rank]) * 0.4  # the rank at 40% of its contrast; the suit as printed
    _rank_found_at(pale, (x, y, w, h))


def test_a_pale_rank_with_black_ink_lower_in_the_cut_is_found():
    """A pale rank over its suit, with black below them in the cut (a black card's stock beside a light table, the
    next card's picture): the threshold is set by the rows round the rank, not by the whole cut, whose black would
    set it below the rank's ink. Before, 32 of the 52 bundled faces were found so; now 51 (7D: only its 7's stem)."""
    faces = sorted((Path(__file__).resolve().parents[1] / "companion" / "assets" / "card-faces").glob("*.jpg"))
    found = 0
    for face in faces:
        corner, (x, y, w, h) = _face_corner(face.stem)
        pale = corner.astype(np.float32)
        paper = np.percentile(pale, 90, axis=(0, 1))
        rank = np.s_[y - 2:y + h + 2, x - 2:x + w + 2]
        pale[rank] = paper - (paper - pale[rank]) * 0.35
        pale[int(0.62 * len(pale)):] = 20
        found += _rank_found(pale, (x, y, w, h))
    assert len(faces) == 52
    assert found >= 50, f"{found} of 52"


def _face_corner(code: str):
    """The top-left corner of a bundled face, flattened as the reader flattens a card, and its rank's box there."""
    from companion.vision import glyphs
    from companion.vision.geometry import CARD_H, CARD_W

    face = cv2.imread(str(Path(__file__).resolve().parents[1] / "companion" / "assets" / "card-faces" / f"{code}.jpg"))
    flat = cv2.resize(face, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
    corner = flat[:int(CARD_H * 0.5), :int(CARD_W * 0.27)].copy()
    return corner, glyphs.extract_index(corner).rank_box


def _rank_found_at(corner: np.ndarray, box) -> None:
    """The corner search's cut of ``corner`` (anchored on the rank's middle) finds the rank where ``box`` is."""
    assert _rank_found(corner, box)


def _rank_found(corner: np.ndarray, box) -> bool:
    from companion.vision import glyphs

    x, y, w, h = box
    got = glyphs.extract_index(corner.astype(np.uint8), (x + w // 2, y + h // 2))
    if got is None:
        return False
    gx, gy, gw, gh = got.rank_box
    return abs(gx - x) <= 2 and abs(gy - y) <= 2 and abs(gw - w) <= 3 and abs(gh - h) <= 3


def test_a_read_seen_in_the_photo_is_counted_apart_from_misreads(tmp_path, monkeypatch):
    """eval_real's second misread figure leaves out only the reads tools/cardcounter_seen.tsv lists for that photo;
    such a read is never counted as found."""
    from companion.vision.detection import Detection
    from tools import eval_real

    photo = tmp_path / "a.png"
    cv2.imwrite(str(photo), np.zeros((40, 40, 3), np.uint8))
    seen = tmp_path / "seen.tsv"
    seen.write_text("# image\tcard\twhat\nimages/a.png\t5H\tlabels omit it\n")
    monkeypatch.setattr(eval_real, "SEEN", seen)
    box = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    reads = [Detection("5H", 0.99, box, False), Detection("KC", 0.99, box, False), Detection("2D", 0.99, box, False)]
    r = eval_real.evaluate(lambda img: reads, [(photo, {"2D", "9S"}, 0)])
    assert (r["found"], r["misread"], r["seen"], r["reported"]) == (1, 2, 1, 3)


def test_the_cards_seen_by_eye_are_in_cardcounter_and_not_in_its_labels():
    """A look can only add a card the labels lack, in a photo that exists: never hide a labelled card."""
    _need_photos()
    from tools import eval_real

    labelled = {Path(name).name: codes for name, codes in eval_real.labels(CC)}
    seen = eval_real.load_seen()
    assert seen
    for name, code in seen:
        assert name in labelled, name
        assert code not in labelled[name], (name, code)
