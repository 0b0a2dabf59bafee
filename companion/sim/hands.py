"""Whole simulated hands of cribbage's play, dealt at random, with the disturbances of a real table.

>>> sim = play_hand(seed=4, seats=2, extras=False)
>>> [str(c.kind) for c in sim.truth][:3]
['laid', 'laid', 'laid']
>>> sim.truth[0].zone
'starter'
"""

from __future__ import annotations

import numpy as np

from ..cards import RANKS, SUITS, Card
from ..rules.autoplay import script_hand
from ..rules.events import Go, NewGame, Play
from ..rules.game import Game
from ..rules.phases import Phase
from ..table import Zone, seat_zone
from .table import TableSim

__all__ = ["play_hand", "card_value"]

#: the variant whose play a hand of ``seats`` players follows: four cards each to play in every one of them
_VARIANT = {2: "six-card", 3: "three-hand", 4: "four-individual"}


def card_value(card: str) -> int:
    """The counting value of a card in the play: ace 1, face cards 10."""
    return Card.parse(card).value


def _deck_for(game: Game, kept: dict[int, list[str]], starter: str, spare: list[str]) -> list[Card]:
    """A deck order that deals each seat (from 1) the cards in ``kept`` to keep and turns ``starter``: the
    discards and the crib's card from the deck come from ``spare``."""
    v = game.state.variant
    assert v is not None, "the game was started"
    order: list[str] = []
    for seat in range(1, len(kept) + 1):
        order += [spare.pop() for _ in range(v.discard)] + kept[seat]
    order += [spare.pop() for _ in range(v.crib_from_deck)] + [starter]
    return [Card.parse(c) for c in order]


def play_hand(seed: int = 0, *, seats: int = 2, extras: bool = True, size=(1280, 720), fps: float = 10.0,
              gap: float = 1.6, deck: str = "photos", cards: dict[int, list[str]] | None = None,
              starter: str | None = None, **sim_options) -> TableSim:
    """A simulated hand: the starter turned, then the play (seats lay in turn, ``go`` and 31 reset the count and the
    round's cards are turned face down), then every row picked up. ``extras`` adds a hand passing over the cards, a
    change of light, a bump of the camera and a card slid after it was laid. ``cards`` fixes each seat's four
    cards (``{1: [...], 2: [...]}``) instead of dealing at random. The play itself is the rules engine's
    (:func:`companion.rules.autoplay.script_hand`: each seat lays the first of its cards that fits)."""
    rng = np.random.default_rng(seed)
    deck_cards = [r + s for r in RANKS for s in SUITS]
    rng.shuffle(deck_cards)
    hands = {s: list(cards[s]) if cards else [deck_cards.pop() for _ in range(4)] for s in range(1, seats + 1)}
    starter = starter or deck_cards.pop()
    spare = [c for c in deck_cards if c != starter and all(c not in h for h in hands.values())]
    sim = TableSim(seats=seats, size=size, fps=fps, seed=seed, deck=deck, **sim_options)
    dealer = seats
    script: list[tuple[float, int, tuple]] = []

    def at(t: float, *call) -> None:
        script.append((round(t, 2), len(script), call))

    at(0.3, "lay", "back", Zone.DECK, {"face_up": False, "by": f"seat{dealer}"})
    at(1.2, "lay", "back2", Zone.CRIB, {"face_up": False, "by": f"seat{dealer}"})
    at(2.4, "lay", starter, Zone.STARTER, {"by": f"seat{dealer}"})
    game = Game([NewGame(_VARIANT[seats], tuple(f"P{i}" for i in range(seats)), first_dealer=dealer - 1,
                         target=121)])
    played = [e for e in script_hand(game, _deck_for(game, hands, starter, spare)) if isinstance(e, (Play, Go))]
    t = 4.0
    laid_times: list[tuple[float, str, str]] = []
    replay = Game(game.log[:game.log.index(played[0])])
    round_seats: set[int] = set()
    for event in played:
        before = replay.state
        replay.apply(event)
        if isinstance(event, Play):
            zone = seat_zone(event.seat)
            at(t, "lay", str(event.card), zone, {})
            laid_times.append((t, str(event.card), zone))
            round_seats.add(event.seat)
            t += gap + float(rng.uniform(-0.2, 0.3))
        after = replay.state
        if after.phase == Phase.PLAY and before.series and not after.series:  # a go or 31: the round is over
            t += 0.4
            for seat in sorted(round_seats):
                at(t, "turn_down", seat_zone(seat))
                t += 0.9
            round_seats = set()
            t += 0.8
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
