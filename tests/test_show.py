"""The show: reference hands, the published distribution, bugs other programs shipped, the spoken count."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import Card, score_hand
from companion.errors import BadCardCode, DuplicateCard, WrongCardCount
from tools.distribution import show_distribution

DATA = Path(__file__).parent / "data" / "show_hands.tsv"


def _reference_hands():
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        hand, starter, crib, total, why = line.split("\t")
        yield pytest.param(hand, starter, crib == "crib", int(total), id=f"{hand}|{starter}|{why}")


@pytest.mark.parametrize("hand,starter,crib,total", list(_reference_hands()))
def test_reference_hands(hand, starter, crib, total):
    score = score_hand(hand, starter, crib=crib)
    breakdown = "\n".join(f"  {i.kind} {' '.join(map(str, i.cards))} {i.points}" for i in score.items)
    assert score.total == total, f"{hand} + {starter}: got {score.total}, want {total}\n{breakdown}"


# The published distribution of all 12,994,800 hands (4 cards + starter).
PUBLISHED_HAND = {0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268, 7: 751324,
                  8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656, 14: 90100, 15: 9168,
                  16: 58248, 17: 11196, 18: 2708, 20: 8068, 21: 2496, 22: 444, 23: 356, 24: 3680, 28: 76, 29: 4}


def test_distribution_matches_the_published_table():
    hand, crib = show_distribution()
    assert hand == PUBLISHED_HAND
    assert sum(hand.values()) == sum(crib.values()) == 12_994_800
    assert sum(t * n for t, n in hand.items()) / 12_994_800 == pytest.approx(4.769152, abs=5e-7)
    assert crib[0] == 1_022_208
    for impossible in (19, 25, 26, 27):
        assert impossible not in hand and impossible not in crib


def test_items_name_the_cards_of_each_combination():
    score = score_hand("4H 5S 6D 6C", "KD")
    kinds = sorted((i.kind, tuple(sorted(map(str, i.cards))), i.points) for i in score.items)
    assert kinds == [
        ("fifteen", ("4H", "5S", "6C"), 2), ("fifteen", ("4H", "5S", "6D"), 2), ("fifteen", ("5S", "KD"), 2),
        ("pair", ("6C", "6D"), 2),
        ("run", ("4H", "5S", "6C"), 3), ("run", ("4H", "5S", "6D"), 3),
    ]


def test_nobs_is_never_scored_on_the_starter_jack():
    score = score_hand("5H 5C 5S 5D", "JD")
    assert [i for i in score.items if i.kind == "nobs"] == []


def test_a_four_card_flush_is_never_made_with_the_starter():
    assert not [i for i in score_hand("2H 4H 6S 8H", "KH").items if i.kind == "flush"]
    assert [i.points for i in score_hand("2H 4H 6H 8H", "KH", crib=True).items if i.kind == "flush"] == [5]


@pytest.mark.parametrize("hand,starter,spoken", [
    ("4H 5S 6D 6C", "KD", "Fifteen two, fifteen four, fifteen six, a pair is eight, "
                          "and a double run of three is fourteen"),
    ("7C 8D QH KS", "2C", "Fifteen two"),
    ("TS QS KD 2H", "7C", "Nineteen: no score"),
    ("5H 5C JS 5D", "5S", "Fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
                          "fifteen fourteen, fifteen sixteen, a double pair royal is twenty-eight, "
                          "and one for his nobs is twenty-nine"),
    ("8H 8S AC 2C", "3D", "A pair is two, and a run of three is five"),
])
def test_spoken_count(hand, starter, spoken):
    assert score_hand(hand, starter).spoken == spoken


def test_fifteens_then_pair_as_players_say_it():
    score = score_hand("7H 8S 8D KC", "5C")
    assert score.spoken == "Fifteen two, fifteen four, fifteen six, and a pair is eight"
    assert score.total == 8


def test_accepts_card_values_as_well_as_codes():
    assert score_hand([Card.parse("5H"), "5C", "5S", "JD"], Card.parse("5D")).total == 29


@pytest.mark.parametrize("hand,starter,error,words", [
    ("5H 5C 5S ZZ", "5D", BadCardCode, "'ZZ'"),
    ("5H 5C 5S 5D", "5D", DuplicateCard, "5D"),
    ("5H 5C", "5D", WrongCardCount, "not 2"),
    ("5H 5C 5S 4D 3D 2D", "5D", WrongCardCount, "not 6"),
])
def test_bad_input_names_the_problem(hand, starter, error, words):
    with pytest.raises(error, match=words):
        score_hand(hand, starter)
