"""The distribution of show scores over every 4-card hand and starter (12,994,800 of them), hand and crib.

Used by the test suite to check :func:`~companion.rules.show.score_hand` against the published table, and by the
benchmark. It is exact and fast because it splits the score in two:

* fifteens, pairs and runs depend only on the five ranks, so :func:`~companion.rules.show.rank_items` (the very code
  the show uses) is run once per multiset of five ranks (6,175 of them);
* flush and his nobs depend on suits; they are added per hand and starter with numpy.

It lives in tools, not in the rules package, because it needs numpy and the rules core only the standard library.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

from companion.cards import SUITS, Card
from companion.rules.show import rank_items


def _rank_table():
    """points[key] for every multiset of five ranks, key = sum of 5**(rank-1) (unique: at most 4 of a rank)."""
    import numpy as np

    keys, points = [], []
    for ranks in combinations_with_replacement(range(1, 14), 5):
        if max(ranks.count(r) for r in set(ranks)) > 4:
            continue
        seen: dict[int, int] = {}
        cards = []
        for r in ranks:  # distinct suits within a rank; the suits do not matter to fifteens, pairs and runs
            cards.append(Card(r, SUITS[seen.get(r, 0)]))
            seen[r] = seen.get(r, 0) + 1
        keys.append(sum(5 ** (r - 1) for r in ranks))
        points.append(sum(i.points for i in rank_items(cards)))
    order = np.argsort(keys)
    return np.asarray(keys, dtype=np.int64)[order], np.asarray(points, dtype=np.int16)[order]


def show_distribution() -> tuple[dict[int, int], dict[int, int]]:
    """Return ``(hand, crib)``: for each total, how many of the 12,994,800 (hand, starter) deals score it."""
    import numpy as np

    keys, points = _rank_table()
    hands = np.array(list(combinations(range(52), 4)), dtype=np.int16)  # card index = suit * 13 + rank - 1
    hand_rank = hands % 13
    hand_suit = hands // 13
    pow5 = 5 ** np.arange(13, dtype=np.int64)
    hand_key = pow5[hand_rank].sum(axis=1)  # (H,)

    flush_suit = np.where((hand_suit == hand_suit[:, :1]).all(axis=1), hand_suit[:, 0], -1)  # (H,)
    jack_suits = np.zeros((len(hands), 4), dtype=bool)  # suits of the jacks held
    rows, cols = np.nonzero(hand_rank == 10)
    jack_suits[rows, hand_suit[rows, cols]] = True

    hand_hist = np.zeros(32, dtype=np.int64)
    crib_hist = np.zeros(32, dtype=np.int64)
    chunk = 20000  # keeps the (hands x starters) arrays to a few tens of MB
    starters = np.arange(52)
    s_rank, s_suit = starters % 13, starters // 13
    for lo in range(0, len(hands), chunk):
        sl = slice(lo, lo + chunk)
        h = hands[sl]
        valid = ~(h[:, :, None] == starters[None, None, :]).any(axis=1)  # (h, 52): starter not in the hand
        key = hand_key[sl, None] + pow5[s_rank][None, :]
        base = points[np.minimum(np.searchsorted(keys, key), len(keys) - 1)].astype(np.int16)
        fs = flush_suit[sl, None]
        same = fs == s_suit[None, :]
        nobs = jack_suits[sl][:, s_suit].astype(np.int16)
        hand_flush = np.where(fs >= 0, np.where(same, 5, 4), 0)
        crib_flush = np.where(same, 5, 0)
        hand_hist += np.bincount((base + hand_flush + nobs)[valid], minlength=32)
        crib_hist += np.bincount((base + crib_flush + nobs)[valid], minlength=32)
    as_dict = lambda hist: {int(t): int(n) for t, n in enumerate(hist) if n}  # noqa: E731
    return as_dict(hand_hist), as_dict(crib_hist)
