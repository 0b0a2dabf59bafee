"""Cards: parsing every accepted spelling, formatting, and errors that quote the bad token."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cards import Card, format_cards, full_deck, parse_cards
from companion.errors import BadCardCode, DuplicateCard


def test_the_issues_example():
    assert [str(c) for c in parse_cards("5H 10h T♥ jd")] == ["5H", "TH", "TH", "JD"]


@pytest.mark.parametrize("text,code", [("as", "AS"), ("10C", "TC"), ("q♠", "QS"), ("K♦", "KD"), ("7♣", "7C"),
                                        (" 2h ", "2H"), ("t♡", "TH")])
def test_spellings(text, code):
    assert str(Card.parse(text)) == code


def test_values_and_ranks():
    assert [Card.parse(c).value for c in ("AH", "5H", "TH", "JH", "QH", "KH")] == [1, 5, 10, 10, 10, 10]
    assert Card.parse("QH").rank == 12


@pytest.mark.parametrize("token", ["ZZ", "1H", "11C", "5X", "", "H5", "10", "♥"])
def test_bad_token_is_named(token):
    with pytest.raises(BadCardCode) as err:
        Card.parse(token)
    assert repr(token.strip()) in str(err.value)
    assert "rank" in str(err.value) and "suit" in str(err.value)
    assert isinstance(err.value, ValueError)


def test_duplicates_are_an_error_only_when_asked():
    assert len(parse_cards("5H 5H")) == 2
    with pytest.raises(DuplicateCard, match="5H"):
        parse_cards("5H 5h", distinct=True)


def test_deck():
    deck = full_deck()
    assert len(deck) == len(set(deck)) == 52


@given(st.sampled_from(full_deck()))
def test_parse_format_round_trip(card):
    assert Card.parse(str(card)) == card
    assert eval(repr(card)) == card  # the repr reads as code


@given(st.lists(st.sampled_from(full_deck()), max_size=8))
def test_list_round_trip(cards):
    assert parse_cards(format_cards(cards)) == cards
