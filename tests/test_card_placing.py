"""A card read by one index corner is placed by the middle of its card, not by the corner (issue 15: two cut cards
side by side in the starter spot put the second one "elsewhere", and the game never began)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.demo import DemoGame, demo_table
from companion.vision.calibration import Calibration
from companion.vision.detection import Detection
from companion.vision.mat import make_mat
from companion.vision.tracker import FrameReader
from companion.vision.zones import CARD_MM, INDEX_INSET_MM, card_centres_mm, place


def mm_calibration() -> Calibration:
    """A camera looking straight down at 2 px a millimetre."""
    mat = make_mat(2, "a4")
    return Calibration(np.diag([2.0, 2.0, 1.0]), mat.zones, (1280, 720), "simulated")


def index_box(centre_mm, angle_deg: float) -> Detection:
    """The index box (px) of a card whose middle is ``centre_mm``, turned by ``angle_deg``, as the reader reports it:
    first the corner nearest the card's own corner, then along the width, then the far one, then down the length."""
    w, h = CARD_MM
    a = math.radians(angle_deg)
    across, down = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    corner = np.array(centre_mm) - across * w / 2 - down * h / 2
    p0 = corner + (across + down) * INDEX_INSET_MM
    box = [p0, p0 + across * 7, p0 + across * 7 + down * 17, p0 + down * 17]
    return Detection("QH", 0.97, tuple((float(x) * 2, float(y) * 2) for x, y in box), whole_card=False)


@pytest.mark.parametrize("angle", [0, 90, 180, 270, 33])
def test_a_card_read_by_its_index_is_placed_by_its_middle(angle):
    [centre] = card_centres_mm([index_box((150.0, 120.0), angle)], mm_calibration())
    assert np.allclose(centre, (150.0, 120.0), atol=0.01)


def test_a_whole_card_is_placed_by_its_middle():
    card = Detection("5H", 0.99, ((200, 200), (326, 200), (326, 376), (200, 376)))
    [centre] = card_centres_mm([card], mm_calibration())
    assert np.allclose(centre, (131.5, 144.0))


@pytest.mark.slow
def test_two_cut_cards_side_by_side_both_lie_in_the_starter_spot():
    """Seed 10's cut, filmed at 1080p and read by the real reader: QH is read by its index alone, at the corner
    farthest from the starter spot's middle."""
    from companion.vision.reader import recognize

    sim = demo_table(DemoGame.build(variant="six-card", target=None, seed=10))
    frame = sim.render(2.3)
    reader = FrameReader(recognize, sim.calibration())
    sightings = reader.place_all(recognize(frame))
    assert {s.card: s.zone for s in sightings} == {"TD": "starter", "QH": "starter"}
    truth = {c.card: c.pos for c in sim.table_at(2.3).values()}
    for s in sightings:  # the index's own place is some 40 mm from the card's middle
        assert math.dist(s.pos, truth[s.card]) < 10.0, (s.card, s.pos, truth[s.card])


@pytest.mark.parametrize("angle", [0, 90, 180, 270])
def test_place_puts_a_card_read_by_its_index_in_its_middle_s_zone(angle):
    """zones.place decides as the tracker does: a card whose middle lies in the starter spot, near its edge, is in
    the starter spot whichever way it lies, though its index may lie outside (in seat1's row, or nowhere)."""
    assert place(index_box((200.0, 150.0), angle), mm_calibration()) == "starter"
