"""Play whole hands automatically from a given deck order: scripted games for tests, demos and benchmarks.

The strategy is simple and deterministic (discard the first cards dealt, lay the first card that fits); the deck
order, which the caller shuffles, is the only source of variety, so the rules core stays free of randomness.

>>> from companion.cards import full_deck
>>> events = script_game("six-card", ("Ann", "Bob"), [full_deck()] * 40)
>>> replay(events).winner is not None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import Card
from .events import Crib, Deal, Discard, Go, NewGame, Play, Show, Starter
from .game import Game, replay  # noqa: F401 - the module example uses it
from .phases import Phase
from .play import LIMIT
from .variants import Options


def script_hand(game: Game, deck: Sequence[Card]) -> list:
    """Apply one whole hand to ``game`` (which must be waiting for a deal), dealing from ``deck`` in order, and
    return the events applied. Stops early if the game ends."""
    s = game.state
    v = s.variant
    n = len(s.players)
    events: list = []

    def do(event) -> bool:
        game.apply(event)
        events.append(event)
        return game.state.phase != Phase.OVER

    cards = iter(deck)
    dealt = [[next(cards) for _ in range(v.dealt)] for _ in range(n)]
    crib_extra = [next(cards) for _ in range(v.crib_from_deck)]
    starter = next(cards)
    if not do(Deal()):
        return events
    for seat in range(n):
        do(Discard(seat, tuple(dealt[seat][:v.discard])))
    kept = [dealt[seat][v.discard:] for seat in range(n)]
    if not do(Starter(starter)):
        return events
    left = [list(k) for k in kept]
    while game.state.phase == Phase.PLAY:
        seat = game.state.turn
        playable = [c for c in left[seat] if game.state.count + c.value <= LIMIT]
        if playable:
            left[seat].remove(playable[0])
            if not do(Play(seat, playable[0])):
                return events
        elif not do(Go(seat)):
            return events
    for seat in game.state.show_order:
        if seat is None:
            crib = tuple(c for d in dealt for c in d[:v.discard]) + tuple(crib_extra)
            do(Crib(crib))
        elif not do(Show(seat, tuple(kept[seat]))):
            return events
    return events


def script_game(variant: str, players: Sequence[str], decks: Iterable[Sequence[Card]], *,
                options: Options = Options(), first_dealer: int = 0, target: int | None = None,
                max_hands: int | None = None) -> list:
    """The events of a whole game played from the given deck orders (one per hand), until someone wins or the
    decks or ``max_hands`` run out."""
    game = Game([NewGame(variant, tuple(players), options, first_dealer, target)])
    events = list(game.log)
    for i, deck in enumerate(decks):
        if game.state.phase == Phase.OVER or (max_hands is not None and i >= max_hands):
            break
        events += script_hand(game, deck)
    return events
