"""The play (pegging): the points the last card laid earns, from the cards laid since the count last restarted.

The go and the last card are scored by the game (it knows who can still play); this module scores fifteen,
thirty-one, pairs and runs only.

>>> score_play("7H 7S 7D").spoken
'Twenty-one for six'
>>> score_play("4C 2D 6H 5S 3C").total   # 4-2-6-5-3: the 3 makes a run of five
5
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import CardLike, parse_cards
from ..errors import DuplicateCard, WrongCardCount
from .score import Score, ScoreItem
from .words import number_words, sentence

LIMIT = 31
_PAIR_POINTS = {2: 2, 3: 6, 4: 12}
_PAIR_NAMES = {2: "a pair", 3: "a pair royal", 4: "a double pair royal"}


def score_play(cards: str | Iterable[CardLike]) -> Score:
    """Score the last of ``cards`` (the series since the count last restarted, in the order laid).

    Raises ``ValueError`` subclasses for a bad code, a duplicated card, an empty series or a count over 31.
    """
    series = parse_cards(cards, what="series")
    if not series:
        raise WrongCardCount("no cards laid: the play needs at least one card")
    if len(set(series)) != len(series):
        dup = next(c for c in series if series.count(c) > 1)
        raise DuplicateCard(f"{dup} appears twice in the series")
    count = sum(c.value for c in series)
    if count > LIMIT:
        raise WrongCardCount(f"the count would be {count}, over 31: {' '.join(map(str, series))}")
    last = series[-1]
    items: list[ScoreItem] = []
    if count == 15:
        items.append(ScoreItem("fifteen", tuple(series), 2))
    if count == LIMIT:
        items.append(ScoreItem("thirty-one", tuple(series), 2))

    same = 1  # consecutive cards of the last card's rank, ending with it
    while same < len(series) and series[-same - 1].rank == last.rank:
        same += 1
    if same >= 2:
        items.append(ScoreItem("pair", tuple(series[-same:]), _PAIR_POINTS[same], _PAIR_NAMES[same]))

    for n in range(len(series), 2, -1):  # the longest run ending with the last card
        ranks = sorted(c.rank for c in series[-n:])
        if ranks[-1] - ranks[0] == n - 1 and len(set(ranks)) == n:
            items.append(ScoreItem("run", tuple(series[-n:]), n, f"a run of {number_words(n)}"))
            break
    return Score(tuple(items), None, count)


def spoken_play(count: int, items: list[ScoreItem]) -> str:
    """"Fifteen two and a run of three is five", "Twenty-one for six", "Twelve"."""
    total = sum(i.points for i in items)
    if not items:
        return sentence(number_words(count))
    lead = [i for i in items if i.kind in ("fifteen", "thirty-one")]
    rest = [i for i in items if i not in lead]
    if not lead:
        return sentence(f"{number_words(count)} for {number_words(total)}")
    words = f"{number_words(count)} {'two' if count == 15 else 'for two'}"
    running = lead[0].points
    for item in rest:
        running += item.points
        words += f" and {item.label or item.kind} is {number_words(running)}"
    return sentence(words)
