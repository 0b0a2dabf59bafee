"""End to end, all hardware simulated: a rendered table video -> tracker -> referee -> stored game -> the APA102
chain (emulated on gpiozero's MockFactory pins) and the screen (SDL's dummy driver).

Each scenario is a hand written as game events; the table video is scripted from them, so what the companion must
end with is known. The card reader here is the simulator's scripted one (fast, and exact unless told to misread),
so these tests check the pipeline; the real reader is measured on real photos and run on the demo game.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.app import Companion
from companion.board.emulators import APA102Chip
from companion.board.layout import load_layout
from companion.cards import Card
from companion.config import load_config
from companion.demo import DemoGame, demo_table, result_of
from companion.display.input import Action, ScreenCommand
from companion.rules.events import Correction, Crib, Deal, Go, NewGame, Play, Show, Starter
from companion.rules.game import Game, replay
from companion.rules.variants import Options
from companion.store import EventStore

pytestmark = pytest.mark.slow

C = Card.parse
LAYOUT = "two-player-121"


@pytest.fixture
def chip():
    """The LED chain the companion drives: an APA102 chip emulated on MockFactory pins, reset after the test."""
    factory = MockFactory()
    Device.pin_factory = factory
    layout = load_layout(LAYOUT)
    emulated = APA102Chip(layout.leds)
    emulated.factory = factory
    yield emulated
    emulated.close()
    factory.reset()
    Device.pin_factory = None


def scenario(events: list, seats: int = 2) -> DemoGame:
    return DemoGame(events, replay(events), seed=1)


def play(events_text: str) -> list:
    """'1 TH, 0 5S, 1 go' -> Play/Go events."""
    out = []
    for move in events_text.split(","):
        seat, what = move.split()
        out.append(Go(int(seat)) if what == "go" else Play(int(seat), C(what)))
    return out


def run_table(demo: DemoGame, tmp_path, chip, *, misread: dict[str, str] | None = None, before=(),
              layout: str = LAYOUT, hidden=None) -> Companion:
    """Play ``demo``'s table video through a companion with the emulated chain (or, without a chip, the virtual
    board) and a dummy-driver window. ``before``: events already in the log when the video starts. ``hidden(sim)``:
    the (card, from, to) windows in which the reader does not read a card."""
    new = demo.events[0]
    driver = "apa102" if chip is not None else "virtual"
    config = load_config(text=f'[board]\ndriver = "{driver}"\nlayout = "{layout}"\nanimate = false\n'
                              f'[game]\nvariant = "{new.variant}"\n')
    sim = demo_table(demo, extras=True)
    reader = sim.recognizer(hidden=hidden(sim) if hidden is not None else ())

    def recognize(frame):
        found = reader(frame)
        if misread:
            found = [replace(d, card=misread.get(d.card, d.card)) for d in found]
        return found

    store_path = tmp_path / "games.db"
    with EventStore(store_path) as store:  # the game as it stood before the video starts
        store.start(demo.events[0]).apply_all(list(before))
    app = Companion.create(config, db_path=store_path, source=sim.source(), recognize=recognize,
                           pin_factory=getattr(chip, "factory", None), use_controls=False)
    assert app.game.state.players == new.players  # the stored game was resumed
    while (frame := app.source.read()) is not None:
        app.process_frame(frame, app.source.time)
        app.render()
    return app


def lit_leds(chip) -> dict[int, tuple[int, int, int]]:
    return {i: (r, g, b) for i, (_, r, g, b) in enumerate(chip.leds) if (r, g, b) != (0, 0, 0)}


def expected_leds(state) -> dict[int, str]:
    """Which LEDs the board must light for ``state``: each side's front peg bright and back peg dim, in the two
    start holes before the first score (front in the first), on the game hole at or past the target."""
    layout = load_layout(LAYOUT)

    def hole(i: int, score: int, back: bool) -> int:
        side = layout.sides[i]
        if score <= 0:
            return side.start[1 if back else 0]
        if score >= state.target:
            return layout.game_led(i)
        return side.track[score - 1]

    out = {}
    for i, side in enumerate(state.sides):
        out[hole(i, side.back, True)] = f"side {i} back"
        out[hole(i, side.front, False)] = f"side {i} front"
    return out


def check_board(app, chip) -> None:
    state = app.game.state
    lit = lit_leds(chip)
    want = expected_leds(state)
    assert set(lit) == set(want), f"lit {sorted(lit)} want {want}"
    for led, what in want.items():
        r, g, b = lit[led]
        side = int(what.split()[1])
        assert (r > b) if side == 0 else (b > r), f"LED {led} ({what}) has the wrong colour {lit[led]}"
        if "front" in what:
            back_led = next(k for k, v in want.items() if v == f"side {side} back")
            if back_led != led:
                assert max(lit[led]) > max(lit[back_led]), "the front peg is brighter than the back peg"


def screen_texts(app) -> str:
    app.display.render(app.view(), force=True)
    return " | ".join(app.display.drawn.text_values())


NEW = NewGame("six-card", ("Ann", "Bob"), Options(), 0)


def test_a_jack_starter_a_go_inferred_a_thirty_one_and_the_show(tmp_path, chip):
    events = [NEW, Deal(), Starter(C("JH")),
              *play("1 TH, 0 KS, 1 9C, 0 go, 1 go, 0 5H, 1 6H, 0 4C, 1 9D, 0 7S"),  # a go, then 31 on the last card
              Show(1, (C("TH"), C("9C"), C("6H"), C("9D"))), Show(0, (C("KS"), C("5H"), C("4C"), C("7S"))),
              Crib((C("2S"), C("3D"), C("QC"), C("8H")))]
    truth = Game()
    for e in events:
        truth.apply(e)
    app = run_table(scenario(events), tmp_path, chip)
    state = app.game.state
    assert result_of(state) == result_of(truth.state)
    assert state.scores[0].reason == "heels"
    assert ("go", 1) in [(e.reason, e.seat) for e in state.scores]  # Bob laid the last card before the restart
    assert ("play", 2, "Thirty-one for two") in [(e.reason, e.points, e.spoken) for e in state.scores]
    assert "last card" not in [e.reason for e in state.scores]  # never a point on top of 31
    assert state.phase == "deal" and len(state.shows) == 3  # both hands and the crib counted; the next deal awaits
    # the log on disk is the game: replaying it gives the same state
    with EventStore(tmp_path / "games.db") as store:
        assert replay(store.events(app.game.game_id)) == state
    check_board(app, chip)
    shown = screen_texts(app)
    assert str(state.sides[0].front) in shown and str(state.sides[1].front) in shown
    app.close()


def test_a_misread_card_is_corrected_with_the_buttons_and_its_score_recomputed(tmp_path, chip):
    # 5S read as 6S: Ann's fifteen two is missed until the players correct the card
    events = [NEW, Deal(), Starter(C("2D")), *play("1 TH, 0 5S")]
    app = run_table(scenario(events), tmp_path, chip, misread={"5S": "6S"})
    assert [s.front for s in app.game.state.sides] == [0, 0] and app.game.state.count == 16
    app.handle_command(ScreenCommand(Action.MENU))
    while app.view().items[app.view().selected].key != "correct":  # the encoder down to "Correct a card"
        app.handle_command(ScreenCommand(Action.NEXT))
    app.handle_command(ScreenCommand(Action.OK))
    view = app.view()
    assert view.mode == "pick" and Card.parse("6S") in view.cards
    while app.view().cards[app.view().selected] != Card.parse("6S"):
        app.handle_command(ScreenCommand(Action.NEXT))
    app.handle_command(ScreenCommand(Action.OK))  # this card: now choose the rank
    app.handle_command(ScreenCommand(Action.PREV))  # 6 -> 5
    app.handle_command(ScreenCommand(Action.OK))  # the suit stays spades
    app.handle_command(ScreenCommand(Action.OK))
    state = app.game.state
    assert [s.front for s in state.sides] == [2, 0] and state.count == 15
    assert state.scores[-1].spoken == "Fifteen two"
    check_board(app, chip)
    assert "Fifteen two" in screen_texts(app)
    app.close()


def test_one_press_of_undo_takes_the_last_decision_back_and_the_pegs_with_it(tmp_path, chip):
    events = [NEW, Deal(), Starter(C("2D")), *play("1 TH, 0 5S")]
    app = run_table(scenario(events), tmp_path, chip)
    assert [s.front for s in app.game.state.sides] == [2, 0]
    app.handle_command(ScreenCommand(Action.UNDO))
    state = app.game.state
    assert [s.front for s in state.sides] == [0, 0] and state.count == 10
    check_board(app, chip)
    app.handle_command(ScreenCommand(Action.REDO))
    assert [s.front for s in app.game.state.sides] == [2, 0]
    app.close()


def test_counting_out_in_the_middle_of_the_show_ends_the_game_there(tmp_path, chip):
    before = [Correction(0, 110, "carried over"), Correction(1, 100, "carried over")]
    events = [NEW, *before, Deal(), Starter(C("5D")),
              *play("1 JD, 0 4H, 1 5H, 0 4S, 1 5C, 0 go, 1 go, 0 6C, 1 5S, 0 6D"),
              Show(1, (C("JD"), C("5H"), C("5C"), C("5S")))]  # Bob's 29 takes him out before Ann counts
    truth = replay(events)
    assert truth.phase == "over"
    app = run_table(scenario(events), tmp_path, chip, before=before)
    state = app.game.state
    assert state.phase == "over" and state.winner == 1 and len(state.shows) == 1
    assert [s.front for s in state.sides] == [s.front for s in truth.sides]
    shown = screen_texts(app)
    assert "Bob" in shown and ("won" in shown.lower() or "wins" in shown.lower()), shown
    check_board(app, chip)
    app.close()


def test_a_card_read_late_past_21_is_mended_on_the_board_and_said_on_the_screen(tmp_path, chip):
    """At 25 Ann lays 5H (30, a pair), then Bob the AD (31). A hand over the 5H keeps it from being read until the AD
    is: first the AD looks like Bob playing on after Ann's go, then the 5H shows that go was wrong. The pegs end
    where the table's play puts them, and the screen says why they moved."""
    events = [NEW, Deal(), Starter(C("2D")), *play("1 TH, 0 KS, 1 5C, 0 5H, 1 AD")]

    def late(sim):
        laid = {c.cards[0]: c.time for c in sim.truth if c.kind == "laid"}
        return [("5H", laid["5H"] - 1.0, laid["AD"] + 0.5)]

    app = run_table(scenario(events), tmp_path, chip, hidden=late)
    state = app.game.state
    assert result_of(state) == result_of(replay(events))
    assert [s.front for s in state.sides] == [2, 2]
    check_board(app, chip)
    assert "Ann's 5H was read late: played before Bob's AD" in screen_texts(app)
    app.close()


def test_a_three_player_go_sequence(tmp_path):
    events = [NewGame("three-hand", ("Ann", "Bob", "Cy"), Options(), 2), Deal(), Starter(C("2D")),
              *play("0 TH, 1 TS, 2 5C, 0 go, 1 4C, 2 AH, 1 go, 2 go, 0 3S")]  # Ann's go is not seen: inferred
    truth = replay(events)
    app = run_table(scenario(events), tmp_path, None, layout="three-player-121")
    assert result_of(app.game.state) == result_of(truth)
    go_points = [e for e in app.game.state.scores if e.reason == "go"]
    assert [(e.seat, e.points) for e in go_points] == [(2, 1)]  # Cy laid the last card before the restart
    assert any(d.reason.startswith("go inferred for Ann") for d in app.decisions)
    app.close()
