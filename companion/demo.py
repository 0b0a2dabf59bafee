"""The bundled demo game: a scripted game of cribbage and the table video that shows it being played.

The game is played by :mod:`companion.rules.autoplay` from seeded deals; :func:`demo_table` turns its events into a
:class:`~companion.sim.table.TableSim` script (cards cut, the starter turned, every card laid in its player's row,
rows turned down after a go or 31, the crib turned up, the table cleared), rendered at run time from the bundled card
faces, so no video file is shipped. :func:`expected_result` is what a companion watching the video must end with.

>>> demo = DemoGame.build(target=61, seed=3)
>>> demo.final.winner is not None, demo.final.target
(True, 61)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, full_deck
from .rules.autoplay import script_hand
from .rules.events import Crib, Cut, Discard, Go, NewGame, Play, Show, Starter
from .rules.game import Game, GameState
from .rules.variants import Options, get_variant
from .table import Phase, Zone, seat_zone, seat_zones

PLAYERS = ("Ann", "Bob")
NAMES = ("Ann", "Bob", "Cat", "Dan")  #: the players of a demo for more seats, in seat order


@dataclass
class DemoGame:
    """A scripted game: its events and the state they end in."""

    events: list
    final: GameState
    seed: int

    @classmethod
    def build(cls, *, target: int | None = 61, seed: int = 3, variant: str = "six-card",
              players: Sequence[str] | None = None, options: Options = Options(),
              max_hands: int = 60) -> DemoGame:
        """A whole game of ``variant`` between ``players`` (the variant's number of the demo's names when None)
        to ``target`` (the variant's own when None), dealt from decks shuffled by ``seed``: the same arguments
        always give the same game."""
        v = get_variant(variant)
        players = tuple(players) if players else (PLAYERS if v.players == 2 else NAMES[:v.players])
        rng = random.Random(seed)
        deck = full_deck()
        rng.shuffle(deck)
        # the cut: one card each, the lowest deals; draw again on a tie
        cut = deck[:len(players)]
        while len({c.rank for c in cut}) < len(cut) or [c.rank for c in cut].count(min(c.rank for c in cut)) > 1:
            rng.shuffle(deck)
            cut = deck[:len(players)]
        game = Game([NewGame(variant, tuple(players), options, None, target)])
        game.apply(Cut(tuple(cut)))
        for _ in range(max_hands):
            if game.state.phase == Phase.OVER:
                break
            hand_deck = full_deck()
            rng.shuffle(hand_deck)
            script_hand(game, hand_deck)
        return cls(list(game.log), game.state, seed)

    @property
    def result(self) -> dict:
        return result_of(self.final)


def result_of(state: GameState) -> dict:
    """The JSON-ready result of a game: winner, scores by side, and every score with its side, points and reason."""
    return {
        "winner": state.sides[state.winner].name if state.winner is not None else None,
        "scores": {side.name: side.front for side in state.sides},
        "skunk": state.skunk,
        "events": [{"side": state.sides[e.side].name, "points": e.points, "reason": e.reason,
                    "spoken": e.spoken, "hand": e.hand} for e in state.scores],
    }


def demo_size(seats: int) -> tuple[int, int]:
    """The camera resolution a user should pick for a mat of ``seats``: 1920x1080 for every mat. On the 3- and
    4-seat mat 720p puts the cards under the reader's smallest card height; on the 2-seat mat its cards are about
    160 px tall at 720p, where the reader still misses cards whose index is crowded (the bundled deck's QH, whose
    suit touches the picture's frame), and whole games to 121 went wrong; at 1080p (about 240 px) they end exactly
    (README, "Every game refereed exactly")."""
    return (1920, 1080)


def demo_table(demo: DemoGame, *, size=None, fps: float = 10.0, step: float = 0.9, extras: bool = True,
               lean: float = 1.0):
    """The table video of ``demo``: a :class:`~companion.sim.table.TableSim` ready to render.

    Two players cut side by side in the starter spot; three or four each lay their cut card in their own row, where
    it says whose it is. Rows are turned down after a go or 31; a card not played (the five-card game stops at the
    first go) is laid in its row for the show; the dealer turns the crib up in his row and the crib spot. ``lean``:
    the camera's lean away from straight down (see :meth:`~companion.sim.camera.TableCamera.looking_at`)."""
    from .sim.table import TableSim

    players = len(demo.final.players)
    sim = TableSim(seats=players, size=size or demo_size(players), fps=fps, seed=demo.seed, lean=lean)
    t = 0.5
    replay = Game()
    passed_once = False

    def turn_down_rows(at: float) -> float:
        for seat in range(players):
            if any(card for card in replay.state.played[seat]):
                sim.turn_down(seat_zone(seat), at=at)
                at += 0.5
        return at

    for event in demo.events:
        before: GameState = replay.state
        replay.apply(event)
        after = replay.state
        if isinstance(event, Cut):
            in_rows = len(event.cards) > 2
            for seat, card in enumerate(event.cards):  # side by side, each index corner in view
                offset = (0.0, 0.0) if in_rows else ((seat - (len(event.cards) - 1) / 2) * 34.0, 0.0)
                sim.lay(str(card), seat_zone(seat) if in_rows else Zone.STARTER, at=t, by=seat_zone(seat),
                        offset=offset)
                t += step
            t += 0.6
            for zone in seat_zones(players) if in_rows else (Zone.STARTER,):
                sim.clear(zone, at=t)
                t += 0.3
            t += step
        elif isinstance(event, Discard):
            for card in event.cards:
                sim.lay(str(card), Zone.CRIB, at=t, face_up=False, by=seat_zone(event.seat))
                t += 0.4
        elif isinstance(event, Starter):
            sim.lay(str(event.card), Zone.STARTER, at=t)
            t += step
        elif isinstance(event, Play):
            sim.lay(str(event.card), seat_zone(event.seat), at=t)
            t += step
            if extras and not passed_once and len(after.series) == 2:
                sim.pass_hand(seat_zone(event.seat), at=t - 0.3, duration=0.5)  # a hand reaching across
                passed_once = True
        elif isinstance(event, Show):
            for card in event.cards:  # cards the play never reached (the five-card game) are laid for the show
                if card not in before.played[event.seat]:
                    sim.lay(str(card), seat_zone(event.seat), at=t)
                    t += step
        series_over = after.phase == Phase.PLAY and bool(before.series) and not after.series  # a go or 31
        play_stopped = isinstance(event, Go) and after.phase != Phase.PLAY  # the five-card game stops at a go
        if isinstance(event, (Play, Go)) and (series_over or play_stopped):
            t = turn_down_rows(t + 0.3) + 0.3  # the rows are turned down
        if isinstance(event, Crib):
            # the hands are gathered, then the dealer turns the crib up and spreads it in his row and the crib spot
            assert before.dealer is not None, "the crib is counted after a deal"
            dealer_row = seat_zone(before.dealer)
            for zone in list(seat_zones(players)) + [Zone.CRIB]:
                sim.clear(zone, at=t)
                t += 0.3
            t += 0.5
            facing = int(sim.mat.zones[dealer_row].facing) % 360
            along = {0: (1, 0), 180: (-1, 0), 90: (0, 1), 270: (0, -1)}[facing]
            for i, card in enumerate(event.cards):
                if i < 3:  # three side by side in the row, not overlapping (the play's rows overlap by 19 mm)
                    gap = 21.0 * i
                    sim.lay(str(card), dealer_row, at=t, offset=(along[0] * gap, along[1] * gap))
                else:  # and the last one in the crib spot
                    sim.lay(str(card), Zone.CRIB, at=t, by=dealer_row)
                t += step * 0.8
            t += 0.8
            for zone in (dealer_row, Zone.CRIB, Zone.STARTER):
                sim.clear(zone, at=t)
                t += 0.3
            t += 0.8
    sim.end(at=t + 3.0)
    return sim


def expected_result(demo: DemoGame) -> dict:
    return demo.result


__all__ = ["Card", "DemoGame", "demo_table", "expected_result", "result_of"]
