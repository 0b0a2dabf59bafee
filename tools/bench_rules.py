"""Benchmark of the rules core: the full show distribution, and one score_hand with its breakdown.

Run with ``make bench`` (all parts) or ``python -m tools.bench_rules``. Figures are medians over repeats, with a
ratio against a baseline measured in the same run so that a busy machine shows up as a busy machine.
"""

from __future__ import annotations

import random
import statistics
import time
from itertools import combinations

from companion.cards import full_deck
from tools.distribution import show_distribution
from companion.rules.show import score_hand


def _naive_total(hand, starter) -> int:
    """A deliberately plain scorer (every subset for fifteens, runs and pairs) used as the baseline."""
    cards = [*hand, starter]
    total = 0
    for k in range(2, 6):
        for combo in combinations(cards, k):
            if sum(c.value for c in combo) == 15:
                total += 2
    for a, b in combinations(cards, 2):
        total += 2 if a.rank == b.rank else 0
    for k in (5, 4, 3):
        found = 0
        for combo in combinations(cards, k):
            ranks = sorted(c.rank for c in combo)
            if len(set(ranks)) == k and ranks[-1] - ranks[0] == k - 1:
                found += k
        if found:
            total += found
            break
    return total


def _median_us(fn, hands, repeats: int = 21) -> float:
    runs = []
    for _ in range(repeats):
        t = time.perf_counter()
        for hand, starter in hands:
            fn(hand, starter)
        runs.append((time.perf_counter() - t) / len(hands) * 1e6)
    return statistics.median(runs)


def main() -> dict:
    rng = random.Random(1)
    deck = full_deck()
    hands = []
    for _ in range(2000):
        cards = rng.sample(deck, 5)
        hands.append((cards[:4], cards[4]))
    single = _median_us(score_hand, hands)
    naive = _median_us(_naive_total, hands)

    dist_runs = []
    for _ in range(3):
        t = time.perf_counter()
        hand, crib = show_distribution()
        dist_runs.append(time.perf_counter() - t)
    dist = statistics.median(dist_runs)
    assert sum(hand.values()) == 12_994_800 and crib[0] == 1_022_208

    print("Rules core (one core)")
    print(f"  score_hand with breakdown     median {single:7.1f} us   (target < 20 us; "
          f"naive baseline {naive:.1f} us, ratio {single / naive:.2f})")
    print(f"  all 12,994,800 hands, hand and crib tables   median {dist:5.2f} s   (target < 2 s; 3 runs)")
    return {"score_hand_us": single, "naive_us": naive, "distribution_s": dist}


if __name__ == "__main__":
    main()
