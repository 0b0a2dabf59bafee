"""The tracker's state machine, fed sightings directly (fast and exact about timing)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.detection import Detection
from companion.vision.tracker import Conflict, FrameDiffer, Sighting, TableChange, Tracker

FPS = 10


def S(card, zone="seat1", pos=(50.0, 50.0)):
    return Sighting(zone, card, pos)


def feed(tracker, frames, start=0.0):
    """``frames`` is a list of sighting lists, one per frame at 10 fps; returns every change made."""
    out = []
    for i, seen in enumerate(frames):
        out += tracker.observe(seen, start + i / FPS)
    return out


def kinds(changes):
    return [c.key for c in changes]


def test_card_counts_after_k_of_n_readings():
    tracker = Tracker(None, k=3, n=5)
    changes = feed(tracker, [[S("5H")], [], [S("5H")], [S("5H")]])
    assert kinds(changes) == [("laid", "seat1", ("5H",))]
    assert changes[0].time == 0.0 and changes[0].reported == pytest.approx(0.3)
    assert tracker.state == {"seat1": ("5H",)}


def test_a_glimpse_is_not_a_card():
    tracker = Tracker(None, k=3, n=5)
    assert feed(tracker, [[S("5H")], [], [], [S("5H")], [], [], [], [S("5H")]]) == []


def test_a_hand_passing_over_does_not_remove_the_card():
    tracker = Tracker(None, k=3, n=5, hold=1.5)
    frames = [[S("5H")]] * 5 + [[]] * 12 + [[S("5H")]] * 5  # hidden 1.2 s
    assert kinds(feed(tracker, frames)) == [("laid", "seat1", ("5H",))]


def test_a_card_gone_longer_than_hold_is_removed_with_the_time_it_went():
    tracker = Tracker(None, k=3, n=5, hold=1.5)
    changes = feed(tracker, [[S("5H")]] * 5 + [[]] * 20)
    assert kinds(changes) == [("laid", "seat1", ("5H",)), ("removed", "seat1", ("5H",))]
    assert changes[1].time == pytest.approx(0.5) and changes[1].reported == pytest.approx(0.4 + 1.5), "hold counts from when it was last seen"


def test_a_zone_swept_at_once_is_cleared_in_one_change():
    tracker = Tracker(None, k=2, n=3, hold=1.0)
    both = [S("5H", pos=(40, 50)), S("9C", pos=(84, 50))]
    frames = [both] * 4 + [[S("9C", pos=(84, 50))]] * 3 + [[]] * 15  # 5H goes a little before 9C
    assert kinds(feed(tracker, frames)) == [("laid", "seat1", ("5H",)), ("laid", "seat1", ("9C",)),
                                            ("cleared", "seat1", ("5H", "9C"))]
    assert tracker.state == {}


def test_cards_turned_face_down_where_they_lie():
    tracker = Tracker(None, k=3, n=5, hold=1.5)
    up = [S("5H", pos=(40, 50)), S("9C", pos=(84, 50))]
    down = [S("back", pos=(40, 50)), S("back", pos=(84, 50))]
    changes = feed(tracker, [up] * 5 + [[]] * 4 + [down] * 8)
    assert kinds(changes)[-1] == ("face_down", "seat1", ("5H", "9C"))
    assert changes[-1].reported < 0.5 + 0.4 + 0.8, "turned over at once when backs show where the cards were"
    assert tracker.state == {} and tracker.face_down == {"seat1": ("5H", "9C")}
    later = feed(tracker, [[S("KD", pos=(128, 50)), *down]] * 5 + [[]] * 20, start=2.0)
    assert kinds(later) == [("laid", "seat1", ("KD",)), ("cleared", "seat1", ("5H", "9C", "KD"))]


def test_a_second_round_turned_onto_the_old_backs():
    tracker = Tracker(None, k=3, n=5, hold=1.5)
    old_backs = [S("back", pos=(40, 50))]
    frames = [old_backs + [S("KD", pos=(84, 50))]] * 5 + [old_backs] * 25  # KD vanishes, no back at its spot
    changes = feed(tracker, frames)
    assert kinds(changes) == [("laid", "seat1", ("KD",)), ("face_down", "seat1", ("KD",))]
    assert changes[-1].reported == pytest.approx(0.4 + 1.5), "without a back at its spot, after the hold time"


def test_a_card_slid_within_its_row_is_no_change():
    tracker = Tracker(None, k=3, n=5)
    frames = [[S("5H", pos=(50 + min(i, 10) * 2, 50))] for i in range(20)]
    assert kinds(feed(tracker, frames)) == [("laid", "seat1", ("5H",))]


def test_a_card_slid_into_another_zone_is_moved():
    tracker = Tracker(None, k=3, n=5)
    changes = feed(tracker, [[S("5H")]] * 5 + [[S("5H", zone="crib")]] * 6)
    assert kinds(changes) == [("laid", "seat1", ("5H",)), ("moved", "crib", ("5H",))]
    assert changes[1].from_zone == "seat1" and tracker.state == {"crib": ("5H",)}


def test_a_card_carried_across_a_zone_is_not_laid_there():
    tracker = Tracker(None, k=3, n=5)
    path = [[S("5H", zone="crib", pos=(40 * i, 50))] for i in range(6)]  # 40 mm a frame: moving
    assert feed(tracker, path) == []


def test_same_card_in_two_places_is_flagged_not_guessed():
    tracker = Tracker(None, k=3, n=5)
    feed(tracker, [[S("5H")]] * 5)
    changes = feed(tracker, [[S("5H"), S("5H", zone="seat2")]] * 5, start=0.5)
    assert changes == [] and tracker.state == {"seat1": ("5H",)}
    [conflict] = tracker.conflicts
    assert (conflict.kind, conflict.cards, conflict.zones) == ("two_places", ("5H",), ("seat1", "seat2"))
    assert "5H seen in two places: seat1 and seat2" in str(conflict)


def test_a_card_picked_up_and_laid_again_is_reported_again():
    """The tracker reports the table as it is; whether a card laid again is new (the next hand's starter) or the
    same card lifted and put back is the referee's to judge, from the game."""
    tracker = Tracker(None, k=3, n=5, hold=1.0)
    feed(tracker, [[S("5H")]] * 5)
    assert kinds(feed(tracker, [[]] * 15, start=0.5)) == [("removed", "seat1", ("5H",))]
    assert kinds(feed(tracker, [[S("5H", zone="starter")]] * 5, start=2.0)) == [("laid", "starter", ("5H",))]
    assert tracker.conflicts == []


def test_a_card_that_keeps_changing_name_is_unsure_until_it_settles():
    tracker = Tracker(None, k=3, n=5)
    flapping = [[S("6H" if i % 2 else "9H")] for i in range(10)]
    assert feed(tracker, flapping) == []
    assert [(c.kind, c.cards) for c in tracker.unsure] == [("unsure", ("6H", "9H"))]
    changes = feed(tracker, [[S("6H")]] * 6, start=1.0)
    assert kinds(changes) == [("laid", "seat1", ("6H",))]
    assert tracker.unsure == [] and len(tracker.conflicts) == 1, "reported once"


def test_ignored_zones_and_unknown_cards():
    tracker = Tracker(None, k=2, n=3)
    frames = [[S("back", zone="deck"), S("5H", zone="elsewhere"), S("unknown")]] * 5
    assert feed(tracker, frames) == [] and tracker.state == {}


def test_bad_settings():
    with pytest.raises(ValueError, match="k=6"):
        Tracker(None, k=6, n=5)


def test_changes_read_well():
    change = TableChange("laid", "seat2", ("TH",), 12.3, reported=12.9)
    assert str(change) == "  12.30 s  laid TH in seat2"
    assert eval(repr(change)) == change
    assert change.card == "TH" and change.key == ("laid", "seat2", ("TH",))
    assert str(Conflict("unsure", ("6H", "9H"), ("seat1",), 1.0)) == "   1.00 s  unsure in seat1: 6H or 9H?"


def test_frame_differ_ignores_noise_and_sees_a_card():
    rng = np.random.default_rng(0)
    base = np.full((720, 1280, 3), 120, np.uint8)
    differ = FrameDiffer()
    assert differ.changed(base)
    differ.read_now()
    for _ in range(5):
        noisy = np.clip(base + rng.normal(0, 4, base.shape), 0, 255).astype(np.uint8)
        assert not differ.changed(noisy) and not differ.moving
    with_card = base.copy()
    with_card[300:420, 600:690] = 250
    assert differ.changed(with_card) and differ.moving
    assert differ.changed(with_card) and not differ.moving, "changed since the last read, but still now"
    differ.read_now()
    assert not differ.changed(with_card)


def test_recognition_is_skipped_on_a_still_picture():
    calls = []
    det = Detection("5H", 0.9, ((10, 10), (20, 10), (20, 20), (10, 20)))

    def recognize(frame):
        calls.append(frame)
        return [det]

    tracker = Tracker(recognize, None, k=3, n=5)
    frame = np.full((90, 160, 3), 100, np.uint8)
    for i in range(50):
        tracker.process(frame, i / FPS)
    assert len(calls) == 1 and tracker.frames == 50
