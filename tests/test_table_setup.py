"""The mat, the camera's resolution and the card reader agree, or the screen says what to change (issue 15)."""

from __future__ import annotations

import pytest

from companion.app import CARDS_TOO_SMALL, Companion, card_height_px
from companion.config import build_config
from companion.demo import DemoGame, demo_size, demo_table


def first_frames(size, frames: int = 3) -> Companion:
    demo = DemoGame.build(variant="three-hand", target=None, seed=1)
    config = build_config({"board": {"driver": "virtual"}, "speech": {"enabled": False}}, "test")
    app = Companion.create(config, headless=True, demo=demo, db_path=":memory:", new_game=True, demo_size=size)
    for _ in range(frames):
        app.process_frame(app.source.read(), app.source.time)
    return app


def test_a_three_seat_mat_at_720p_says_the_cards_are_too_small():
    app = first_frames((1280, 720))
    try:
        assert app.tracker.calibration is not None, "the mat's markers were found"
        assert CARDS_TOO_SMALL in [m.text for m in app.current_messages()]
    finally:
        app.close()


def test_the_demo_picks_1080p_for_the_three_seat_mat_and_says_nothing():
    assert demo_size(3) == (1920, 1080) and demo_size(2) == (1920, 1080)
    app = first_frames(None)
    try:
        assert app.tracker.calibration is not None
        assert CARDS_TOO_SMALL not in [m.text for m in app.current_messages()]
    finally:
        app.close()


@pytest.mark.parametrize("seats,variant", [(2, "seven-card"), (3, "three-hand"), (4, "four-individual")])
def test_every_card_of_a_row_lies_inside_its_row(seats, variant):
    """Rows are long enough for every card the variant plays (seven-card: five), and the cut fits."""
    demo = DemoGame.build(variant=variant, target=None, seed=2)
    sim = demo_table(demo)
    zones = sim.mat.zones
    placed = 0
    for change in sim.truth:
        if change.kind == "laid":
            state = sim.table_at(change.time)[change.cards[0]]
            assert zones.zone_at(*state.pos) == change.zone, f"{change}: lies in {zones.zone_at(*state.pos)}"
            placed += 1
    assert placed > 20
    assert card_height_px(sim.calibration()) >= 115


def test_a_board_that_cannot_show_the_game_is_refused_at_start_by_name(tmp_path):
    """Four players individually on the two-track board: refused before anything is stored, naming the fix."""
    import subprocess
    import sys

    (tmp_path / "companion.toml").write_text('[game]\nvariant = "four-individual"\n'
                                            'players = ["Ann", "Bob", "Cat", "Dan"]\n'
                                            '[board]\nlayout = "two-player-121"\ndriver = "virtual"\n'
                                            '[camera]\nsource = "none"\n')
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--headless", "--config",
                           str(tmp_path / "companion.toml"), "--db", str(tmp_path / "games.db")],
                          capture_output=True, text=True, timeout=120, env={**__import__("os").environ,
                                                                          "SDL_VIDEODRIVER": "dummy"})
    assert proc.returncode == 2, proc.stderr
    assert "board.layout: 'two-player-121' has 2 sides but the game needs 4 sides" in proc.stderr
    assert "four-player-121" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("variant,board", [("four-individual", "four-player-121"), ("seven-card", "seven-card-181"),
                                           ("three-hand", "three-player-121"), ("six-card", "two-player-121")])
def test_the_demo_lights_a_board_made_for_its_game(variant, board):
    demo = DemoGame.build(variant=variant, target=None, seed=1)
    config = build_config({"board": {"driver": "virtual"}, "speech": {"enabled": False}}, "test")
    app = Companion.create(config, headless=True, demo=demo, db_path=":memory:", new_game=True)
    try:
        assert app.board.layout.name == board
        assert len(app.board.layout.sides) >= len(demo.final.sides)
    finally:
        app.close()
