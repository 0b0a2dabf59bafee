"""Whole games of every variant and many seeds, from the rendered table to the game seen (issue 15).

Each game is dealt by :class:`~companion.demo.DemoGame` from its seed, filmed by the table simulator, read by the
simulator's scripted reader (it reports what truly lies visible, so this checks the tracker and the referee, not
the card reader), refereed and stored, and must end exactly as scripted: every score, its reason and its hand.
Frames are rendered small (320x180) with the simulated camera's own calibration so that a game to 121 takes a
couple of seconds of CPU; the pixels are the card reader's business, checked by the bundled demo in
``test_demo.py`` and by the real-reader games in the slow set below.

Every failure a seed found became a named test in ``test_referee_table.py``.
"""

from __future__ import annotations

import pytest

from companion.app import Companion
from companion.app_cmd import first_difference, watch_to_the_end
from companion.config import build_config
from companion.cards import Card
from companion.demo import DemoGame
from companion.rules.events import Play, Starter
from companion.rules.game import Game
from companion.rules.variants import Options
from companion.table import Change, Zone, seat_zone, zone_seat

pytestmark = pytest.mark.slow

#: seeds 1-10 of every variant in make test; 11-20 with the whole games of make test-games (CI runs both), so that
#: make test stays well under 10 minutes on 2 cores
SEEDS = [seed if seed <= 10 else pytest.param(seed, marks=pytest.mark.games) for seed in range(1, 21)]

#: every variant of RULES.md at its own target, plus the six-card game to 61 and the options that change scoring
GAMES = {
    "six-card-121": dict(variant="six-card", target=None),
    "six-card-61": dict(variant="six-card", target=61),
    "five-card": dict(variant="five-card", target=None),
    "seven-card": dict(variant="seven-card", target=None),
    "three-hand": dict(variant="three-hand", target=None),
    "four-hand-partners": dict(variant="four-hand", target=None),
    "four-individual": dict(variant="four-individual", target=None),
    "low-ball": dict(variant="six-card", target=61, options=Options(lowball=True)),
    "muggins": dict(variant="six-card", target=61, options=Options(muggins=True)),
}


def watch(demo: DemoGame, *, reader: str = "scripted", size=(320, 180), hidden=None) -> dict:
    """The game seen; the game-over screen must not carry a question left over from the game. ``hidden(sim)``: the
    (card, from, to) windows in which the scripted reader does not read a card."""
    config = build_config({"board": {"driver": "virtual"}, "speech": {"enabled": False}}, "test")
    app = Companion.create(config, headless=True, demo=demo, db_path=":memory:", new_game=True,
                           recognize=reader, demo_size=size,
                           calibration="simulated" if reader == "scripted" else None)
    if hidden is not None:
        app.tracker.reader.recognize = app.source.sim.recognizer(hidden=hidden(app.source.sim))
    seen = watch_to_the_end(app)
    assert app.referee.questions == [], [q.text for q in app.referee.questions]
    return seen


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", list(GAMES))
def test_the_game_seen_is_the_game_scripted(game, seed):
    demo = DemoGame.build(seed=seed, **GAMES[game])
    assert demo.final.winner is not None, "the scripted game ends"
    seen = watch(demo)
    assert seen == demo.result, first_difference(seen, demo.result)


#: how long after it is laid each hand's lead is first read: the next player's card is read before it
LATE_S = 1.5


def leads(sim) -> list[tuple[str, float, float]]:
    """(card, laid, read) for the first card played in each hand of ``sim``'s script: the first laid in a row after a
    starter, read :data:`LATE_S` after it is laid."""
    out, after_starter = [], False
    for change in sorted(sim.truth, key=lambda c: c.time):
        if change.kind != Change.LAID:
            continue
        if change.zone == Zone.STARTER:
            after_starter = True
        elif after_starter and zone_seat(change.zone) is not None:
            out.append((change.cards[0], change.time, change.time + LATE_S))
            after_starter = False
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("game", list(GAMES))
def test_a_lead_read_late_costs_no_play(game, seed):
    """Each hand's lead is read only after the next player's card (a hand or glare over it): the card laid after it
    waits for it, and the game ends exactly as scripted, with no question left over."""
    def late(sim):
        out = leads(sim)
        assert len(out) >= 2
        return out

    demo = DemoGame.build(seed=seed, **GAMES[game])
    seen = watch(demo, hidden=late)
    assert seen == demo.result, first_difference(seen, demo.result)


def late_past_21(demo: DemoGame, sim) -> list[tuple[str, float, float]]:
    """(card, from, to) for the first card of each hand played at a count over 21 and followed at once by another
    player's card in the same series: not read from a second before it is laid until just after that next card
    is, so the next card is read first and looks like play going on after a go."""
    laid = sorted((c for c in sim.truth if c.kind == Change.LAID), key=lambda c: c.time)

    def when(zone: str, card: Card, after: float) -> float:
        return next(c.time for c in laid if c.zone == zone and c.cards[0] == str(card) and c.time > after)

    out, game, last, hand_start, chosen = [], Game(), -1.0, -1.0, -1
    events = list(demo.events)
    for k, event in enumerate(events):
        state = game.state
        if isinstance(event, Starter):
            hand_start = when(Zone.STARTER, event.card, last)
        if isinstance(event, Play):
            last = when(seat_zone(event.seat), event.card, max(last, hand_start))
            nxt = events[k + 1] if k + 1 < len(events) else None
            if state.count > 21 and chosen != state.hand and isinstance(nxt, Play) and nxt.seat != event.seat \
                    and state.count + event.card.value + nxt.card.value < 31:
                chosen = state.hand
                out.append((str(event.card), last - 1.0, when(seat_zone(nxt.seat), nxt.card, last) + 0.5))
        game.apply(event)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("game", list(GAMES))
def test_a_card_read_late_past_21_costs_no_play(game, seed):
    """In each hand the first card played past 21 is read only after the next player's card, which then looks like
    play going on after a go: the late card shows that go was wrong, and is played where it was laid. The game
    ends exactly as scripted, with no question left over."""
    demo = DemoGame.build(seed=seed, **GAMES[game])

    def late(sim):
        out = late_past_21(demo, sim)
        if not out:
            pytest.skip("no card of this game is played past 21 just before another player's")
        return out

    seen = watch(demo, hidden=late)
    assert seen == demo.result, first_difference(seen, demo.result)


@pytest.mark.parametrize("after", [1, 5, 10, 12, 19, 26, 33, 40, 47, 54, 61, 68, 75, 82])
def test_an_undo_pressed_by_accident_changes_nothing_once_play_goes_on(after):
    """Undo pressed after the ``after``-th decision of the bundled demo (the cut, plays, a 31, counts), and never
    redone: the cards still lie on the table and the players play on, so the table stands and the game ends as
    scripted, with no question left over."""
    from companion.commands import Command
    from companion.display.input import ScreenCommand

    demo = DemoGame.build()
    config = build_config({"board": {"driver": "virtual"}, "speech": {"enabled": False}}, "test")
    app = Companion.create(config, headless=True, demo=demo, db_path=":memory:", new_game=True,
                           recognize="scripted", demo_size=(320, 180), calibration="simulated")
    undone = None
    while app.game.state.phase != "over":
        frame = app.source.read()
        if frame is None:
            break
        app.process_frame(frame, app.source.time)
        if undone is None and len(app.referee.decisions) >= after:
            undone = app.referee.decisions[-1].reason
            app.handle_command(ScreenCommand(Command.UNDO))
    seen = app.result()
    app.close()
    assert undone is not None
    assert seen == demo.result, f"after undoing {undone!r}: {first_difference(seen, demo.result)}"
    assert app.referee.questions == []
