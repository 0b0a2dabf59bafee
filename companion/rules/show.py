"""The show: scoring a hand or the crib with the starter, item by item, as RULES.md says.

>>> s = score_hand("5H 5C 5S JD", "5D")
>>> s.total
29
>>> score_hand("4H 5S 6D 6C", "KD").spoken
'Fifteen two, fifteen four, fifteen six, a pair is eight, and a double run of three is fourteen'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations, product

from ..cards import Card, CardLike, as_card, parse_cards
from ..errors import DuplicateCard, WrongCardCount
from .score import Score, ScoreItem
from .words import number_words, sentence

HAND_SIZES = (3, 4, 5)

def _subset_plan(n: int) -> list[tuple[int, int, int, tuple[int, ...]]]:
    """For n cards: every subset as (mask, mask less its lowest card, index of that card, indices), smallest
    subsets first, so each subset's total is one addition to a smaller subset's total."""
    plan = []
    for size in range(1, n + 1):
        for idx in combinations(range(n), size):
            mask = sum(1 << i for i in idx)
            plan.append((mask, mask & (mask - 1), idx[0], idx))
    return plan


_PLANS = {n: _subset_plan(n) for n in range(1, 8)}


def fifteens(cards: Sequence[Card]) -> list[ScoreItem]:
    """Every distinct combination of cards whose values total 15, 2 points each."""
    values = [c.value for c in cards]
    totals = [0] * (1 << len(cards))
    out = []
    for mask, rest, first, idx in _PLANS[len(cards)]:
        total = totals[mask] = totals[rest] + values[first]
        if total == 15:  # one card is at most 10, so this is always two or more cards
            out.append(ScoreItem("fifteen", tuple(cards[i] for i in idx), 2))
    return out


def pairs(cards: Sequence[Card]) -> list[ScoreItem]:
    """Every pair of cards of one rank, 2 points each (three of a kind makes three pairs: 6)."""
    return [ScoreItem("pair", (a, b), 2) for a, b in combinations(cards, 2) if a.rank == b.rank]


def runs(cards: Sequence[Card]) -> list[ScoreItem]:
    """Every distinct run of 3+ consecutive ranks, counted once per combination of cards (a double run is two)."""
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        by_rank.setdefault(c.rank, []).append(c)
    out: list[ScoreItem] = []
    rank = 1
    while rank <= 13:
        if rank not in by_rank:
            rank += 1
            continue
        end = rank
        while end + 1 in by_rank:
            end += 1
        if end - rank >= 2:  # a maximal stretch of three or more ranks: one run per choice of card at each rank
            for choice in product(*(by_rank[r] for r in range(rank, end + 1))):
                out.append(ScoreItem("run", tuple(choice), len(choice)))
        rank = end + 1
    return out


def rank_items(cards: Sequence[Card]) -> list[ScoreItem]:
    """Fifteens, pairs and runs: the part of the show that does not care which card is the starter."""
    return fifteens(cards) + pairs(cards) + runs(cards)


def _flush(hand: Sequence[Card], starter: Card, crib: bool) -> list[ScoreItem]:
    suit = hand[0].suit
    if any(c.suit != suit for c in hand):
        return []
    if starter.suit == suit:
        return [ScoreItem("flush", (*hand, starter), len(hand) + 1)]
    if crib:  # the crib flushes only with the starter
        return []
    return [ScoreItem("flush", tuple(hand), len(hand))]


def _nobs(hand: Sequence[Card], starter: Card) -> list[ScoreItem]:
    return [ScoreItem("nobs", (c,), 1, "his nobs") for c in hand if c.rank == 11 and c.suit == starter.suit]


def score_hand(hand: str | Iterable[CardLike], starter: CardLike, *, crib: bool = False) -> Score:
    """Score a hand (3, 4 or 5 cards) or the crib with the starter: every fifteen, pair, run, flush and his nobs.

    ``hand`` and ``starter`` are card codes or :class:`~companion.cards.Card` values. Raises ``ValueError``
    subclasses naming the problem: a bad card code, a duplicated card, or a hand of the wrong size.

    >>> score_hand(["JD", "5C", "5S", "5H"], "5D").total
    29
    >>> score_hand("2H 4H 6H 8H", "KS", crib=True).total   # a 4-card flush in the crib scores nothing
    0
    """
    cards = parse_cards(hand, what="hand")
    start = as_card(starter)
    if len(cards) not in HAND_SIZES:
        raise WrongCardCount(f"a hand has 3, 4 or 5 cards (before the starter), not {len(cards)}: "
                             f"{' '.join(map(str, cards))}")
    every = [*cards, start]
    seen: set[Card] = set()
    for c in every:
        if c in seen:
            raise DuplicateCard(f"{c} appears twice in the hand and starter")
        seen.add(c)
    items = rank_items(every) + _flush(cards, start, crib) + _nobs(cards, start)
    return Score(tuple(items))  # the spoken form is derived from the items when asked for


# --- the spoken form -------------------------------------------------------------------------------------------

_RUN_MULTIPLES = {1: "a run", 2: "a double run", 3: "a triple run", 4: "a double double run"}
_PAIR_GROUPS = {1: "a pair", 3: "a pair royal", 6: "a double pair royal"}


def _pair_phrase(items: list[ScoreItem]) -> str:
    groups = Counter(i.cards[0].rank for i in items)
    names = [_PAIR_GROUPS[n] for n in groups.values()]
    if len(names) == 1:
        return names[0]
    if all(n == "a pair" for n in names):
        return "two pairs"
    return " and ".join(names)


def _run_phrase(items: list[ScoreItem]) -> str:
    length = len(items[0].cards)
    return f"{_RUN_MULTIPLES.get(len(items), f'{len(items)} runs')} of {number_words(length)}"


def spoken_show(items: Sequence[ScoreItem]) -> str:
    """The count as players say it: "Fifteen two, fifteen four, and a pair is six"."""
    parts: list[str] = []
    running = 0
    for item in (i for i in items if i.kind == "fifteen"):
        running += item.points
        parts.append(f"fifteen {number_words(running)}")
    groups = [
        ("pair", _pair_phrase),
        ("run", _run_phrase),
        ("flush", lambda its: f"a flush of {number_words(its[0].points)}"),
        ("nobs", lambda its: "one for his nobs"),
    ]
    for kind, phrase in groups:
        its = [i for i in items if i.kind == kind]
        if its:
            running += sum(i.points for i in its)
            parts.append(f"{phrase(its)} is {number_words(running)}")
    if not parts:
        return "Nineteen: no score"
    if len(parts) == 1:
        return sentence(parts[0])
    return sentence(", ".join(parts[:-1]) + ", and " + parts[-1])
