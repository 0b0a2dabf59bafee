"""Playing cards: values, codes, parsing and formatting, and the deck.

A card is written as rank + suit, rank in ``A 2 3 4 5 6 7 8 9 T J Q K`` and suit in ``C D H S``. On input, ``10``
for ten, lower case and the suit symbols ``♣ ♦ ♥ ♠`` are accepted too.

>>> Card.parse("10h")
Card.parse('TH')
>>> str(Card.parse("j♦"))
'JD'
>>> [str(c) for c in parse_cards("5H 10h T♠ jd")]
['5H', 'TH', 'TS', 'JD']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import BadCardCode, DuplicateCard

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {
    1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
    8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king",
}
_ALLOWED = "rank A,2-9,T (or 10),J,Q,K then suit C,D,H,S (or ♣♦♥♠), e.g. 5H, 10h, T♥"


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card. ``rank`` is 1 (ace) to 13 (king); ``suit`` is one of ``C D H S``.

    >>> Card(5, "H").value, Card(12, "S").value
    (5, 10)
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 1 <= self.rank <= 13) or self.suit not in SUITS:
            raise BadCardCode(f"no such card: rank {self.rank!r}, suit {self.suit!r}")

    @property
    def value(self) -> int:
        """The count value: ace 1, two to nine face value, ten and court cards 10."""
        return min(self.rank, 10)

    @property
    def code(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    @property
    def name(self) -> str:
        """Spoken name, e.g. ``"five of hearts"``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card code; raise :class:`BadCardCode` (a ``ValueError``) naming the token if it is not one."""
        if not isinstance(text, str):
            raise BadCardCode(f"unknown card code {text!r}: expected a string, {_ALLOWED}")
        token = text.strip()
        tok = token.upper()
        if len(tok) >= 2 and tok[-1] in SUIT_SYMBOLS:
            tok = tok[:-1] + SUIT_SYMBOLS[tok[-1]]
        m = re.fullmatch(r"(10|[A2-9TJQK])([CDHS])", tok)
        if not m:
            raise BadCardCode(f"unknown card code {token!r}: {_ALLOWED}")
        rank = "T" if m.group(1) == "10" else m.group(1)
        return cls(RANKS.index(rank) + 1, m.group(2))

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


CardLike = Card | str


def as_card(card: CardLike) -> Card:
    """Accept a :class:`Card` or a code and return a :class:`Card`."""
    return card if isinstance(card, Card) else Card.parse(card)


def parse_cards(cards: str | Iterable[CardLike], *, distinct: bool = False, what: str = "cards") -> list[Card]:
    """Read several cards from a string (split on spaces or commas) or an iterable of codes / cards.

    With ``distinct=True`` a card given twice raises :class:`DuplicateCard` naming it.

    >>> parse_cards("as, 2c")
    [Card.parse('AS'), Card.parse('2C')]
    >>> parse_cards("5H 5H", distinct=True)
    Traceback (most recent call last):
    ...
    companion.errors.DuplicateCard: 5H appears twice in the cards
    """
    if isinstance(cards, str):
        tokens: Iterable[CardLike] = [t for t in re.split(r"[\s,]+", cards.strip()) if t]
    else:
        tokens = cards
    out = [as_card(t) for t in tokens]
    if distinct:
        seen: set[Card] = set()
        for c in out:
            if c in seen:
                raise DuplicateCard(f"{c} appears twice in the {what}")
            seen.add(c)
    return out


def full_deck() -> list[Card]:
    """The 52 cards, clubs to spades, ace to king."""
    return [Card(r, s) for s in SUITS for r in range(1, 14)]


def format_cards(cards: Iterable[Card]) -> str:
    """``"5H 5C JD"`` — the inverse of :func:`parse_cards`."""
    return " ".join(str(c) for c in cards)
