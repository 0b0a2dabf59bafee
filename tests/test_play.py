"""The play: the points the last card laid earns, from reference series, and the bugs other programs shipped."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import score_play
from companion.errors import BadCardCode, DuplicateCard, WrongCardCount

DATA = Path(__file__).parent / "data" / "play_series.tsv"


def _series():
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        cards, count, points, spoken = line.split("\t")
        yield pytest.param(cards, int(count), int(points), spoken, id=cards)


@pytest.mark.parametrize("cards,count,points,spoken", list(_series()))
def test_reference_series(cards, count, points, spoken):
    if count > 31:
        with pytest.raises(WrongCardCount, match="over 31"):
            score_play(cards)
        return
    score = score_play(cards)
    detail = ", ".join(f"{i.kind} {i.points}" for i in score.items)
    assert (score.count, score.total, score.spoken) == (count, points, spoken), detail


def test_pairs_count_only_consecutive_cards():
    # 5 5 6 5: the last 5 is not next to the other fives, so it makes no pair (a bug other programs shipped)
    assert score_play("5H 5S 6C 5D").total == 0
    assert score_play("5H 6C 5S").total == 0


def test_thirty_one_and_a_run_on_the_same_card_both_score():
    score = score_play("9C TD 3S 4H 5C")
    assert sorted((i.kind, i.points) for i in score.items) == [("run", 3), ("thirty-one", 2)]


def test_run_uses_the_longest_tail_only():
    # 4-2-6-5-3: the 3 makes a run of five, not a run of three and four as well
    score = score_play("4C 2D 6H 5S 3C")
    assert [(i.kind, i.points) for i in score.items] == [("run", 5)]


def test_run_broken_by_a_repeated_rank_does_not_score():
    assert score_play("3C 4D 4H 5S").total == 0  # 3-4-4-5 holds no run of distinct ranks at its end


def test_items_carry_the_cards_that_made_them():
    score = score_play("7H 7S 7D")
    assert [tuple(map(str, i.cards)) for i in score.items] == [("7H", "7S", "7D")]


@pytest.mark.parametrize("cards,error", [("", WrongCardCount), ("5H 5H", DuplicateCard), ("5H XX", BadCardCode)])
def test_bad_input(cards, error):
    with pytest.raises(error):
        score_play(cards)
