"""Whole simulated hands of cribbage's play, dealt at random, with the disturbances of a real table.

>>> sim = play_hand(seed=4, seats=2, extras=False)
>>> [c.kind for c in sim.truth][:3]
['laid', 'laid', 'laid']
>>> sim.truth[0].zone
'starter'
"""

from __future__ import annotations

import numpy as np

from .table import TableSim

__all__ = ["play_hand", "card_value"]

RANKS = "A23456789TJQK"
SUITS = "CDHS"


def card_value(card: str) -> int:
    """The counting value of a card in the play: ace 1, face cards 10."""
    return min(RANKS.index(card[0]) + 1, 10)


def play_hand(seed: int = 0, *, seats: int = 2, extras: bool = True, size=(1280, 720), fps: float = 10.0,
              gap: float = 1.6, deck: str = "photos", cards: dict[int, list[str]] | None = None,
              starter: str | None = None, **sim_options) -> TableSim:
    """A simulated hand: the starter turned, then the play (seats lay in turn, ``go`` and 31 reset the count and the
    round's cards are turned face down), then every row picked up. ``extras`` adds a hand passing over the cards, a
    change of light, a bump of the camera and a card slid after it was laid. ``cards`` fixes each seat's four
    cards (``{1: [...], 2: [...]}``) instead of dealing at random."""
    rng = np.random.default_rng(seed)
    deck_cards = [r + s for r in RANKS for s in SUITS]
    rng.shuffle(deck_cards)
    hands = {s: list(cards[s]) if cards else [deck_cards.pop() for _ in range(4)] for s in range(1, seats + 1)}
    starter = starter or deck_cards.pop()
    sim = TableSim(seats=seats, size=size, fps=fps, seed=seed, deck=deck, **sim_options)
    dealer = seats
    script: list[tuple[float, int, tuple]] = []

    def at(t: float, *call) -> None:
        script.append((round(t, 2), len(script), call))

    at(0.3, "lay", "back", "deck", {"face_up": False, "by": f"seat{dealer}"})
    at(1.2, "lay", "back2", "crib", {"face_up": False, "by": f"seat{dealer}"})
    at(2.4, "lay", starter, "starter", {"by": f"seat{dealer}"})
    t = 4.0
    count, turn, last_played, passed = 0, 1, None, set()
    laid_times: list[tuple[float, str, str]] = []
    round_cards: dict[int, list[str]] = {s: [] for s in hands}
    while any(hands.values()):
        playable = [c for c in hands[turn] if count + card_value(c) <= 31]
        if playable:
            card = playable[0]
            hands[turn].remove(card)
            count += card_value(card)
            at(t, "lay", card, f"seat{turn}", {})
            laid_times.append((t, card, f"seat{turn}"))
            round_cards[turn].append(card)
            last_played = turn
            passed.discard(turn)
            t += gap + float(rng.uniform(-0.2, 0.3))
        else:
            passed.add(turn)
        round_over = count == 31 or len(passed | {s for s in hands if not hands[s]}) >= seats
        if round_over and any(hands.values()):
            t += 0.4
            for s in hands:
                if round_cards[s]:
                    at(t, "turn_down", f"seat{s}")
                    t += 0.9
            round_cards = {s: [] for s in hands}
            count, passed = 0, set()
            turn = last_played % seats + 1
            t += 0.8
            continue
        turn = turn % seats + 1
    t += 0.8
    for s in hands:
        at(t, "clear", f"seat{s}")
        t += 1.0
    end = t + 1.0
    if extras:
        busy = [time for time, _, _ in script]

        def quiet(lo: float, hi: float) -> float:
            """A time in [lo, hi] at least 0.9 s from every scripted move."""
            for _ in range(200):
                x = round(float(rng.uniform(lo, hi)), 2)
                if all(abs(x - b) > 0.9 for b in busy):
                    busy.append(x)
                    return x
            return round(hi, 2)

        first, second = laid_times[1], laid_times[len(laid_times) // 2]
        at(quiet(first[0] + 1.0, first[0] + 6), "pass_hand", first[2], {"duration": 0.8})
        at(quiet(5.0, end - 3), "change_light", {"to": float(rng.uniform(0.7, 0.85)), "over": 1.5})
        at(quiet(6.0, end - 3), "bump", {"dx_mm": float(rng.uniform(2, 5)), "dy_mm": float(rng.uniform(-4, -1)),
                                         "angle_deg": float(rng.uniform(0.4, 1.0))})
        at(second[0] + 0.9, "slide", second[1], {"dx_mm": 9.0, "dy_mm": 3.0})
    for t, _, call in sorted(script):
        _apply(sim, call, t)
    return sim.end(at=end)


def _apply(sim: TableSim, call: tuple, t: float) -> None:
    name, *args = call
    kw = args.pop() if args and isinstance(args[-1], dict) else {}
    if name == "lay" and args[0].startswith("back"):
        # a face-down card (the deck, the crib): any card code will do, it is never shown
        args = [{"back": "XX", "back2": "XY"}[args[0]], *args[1:]]
    getattr(sim, name)(*args, at=t, **kw)
