"""The bundled demo game through the whole pipeline, as `companion run --demo --headless` plays it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from companion.demo import DemoGame

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("reader", ["scripted", pytest.param("camera", marks=pytest.mark.games)])
def test_the_demo_game_seen_equals_the_game_scripted(tmp_path, reader):
    """With the real card reader ("camera") this is the check that the reader, the tracker and the referee
    together see a whole game of cribbage exactly (every 1920x1080 frame read: three and a half minutes of CPU,
    so in ``make test-games``, which CI runs); the scripted reader checks the pipeline alone."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--demo", "--headless", "--new-game",
                           "--reader", reader, "--db", str(tmp_path / "demo.db")],
                          capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    seen = json.loads(proc.stdout)
    assert seen == DemoGame.build().result
    assert seen["winner"] == "Bob" and seen["scores"] == {"Ann": 44, "Bob": 66}
    assert len(seen["events"]) == 41


@pytest.mark.games
def test_a_three_player_game_with_the_real_reader_plays_from_the_cut_to_the_winner(tmp_path):
    """Three-hand on the 3-seat mat, filmed at 1920x1080 as the companion advises for that mat, read by the real card
    reader: each player cuts in their own row, the crib takes a card from the deck, and the game ends as scripted.
    Four minutes of CPU (every frame read at 1920 px, the longest test of all): ``make test-games`` (and CI)."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--demo", "--headless", "--new-game",
                           "--variant", "three-hand", "--seed", "1", "--db", str(tmp_path / "demo.db")],
                          capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    seen = json.loads(proc.stdout)
    assert seen == DemoGame.build(variant="three-hand", target=None, seed=1).result
    assert set(seen["scores"]) == {"Ann", "Bob", "Cat"} and seen["winner"] is not None


@pytest.mark.games
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_two_player_game_to_121_with_the_real_reader_ends_as_scripted(tmp_path, seed):
    """Whole two-player games to 121 (twelve to fifteen hands each), filmed at 1920x1080 as the companion advises, read
    by the real card reader: every score of every hand as scripted. Minutes each: ``make test-games`` (and CI)."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--demo", "--headless", "--new-game",
                           "--variant", "six-card", "--seed", str(seed), "--db", str(tmp_path / "demo.db")],
                          capture_output=True, text=True, env=env, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-2000:]
    seen = json.loads(proc.stdout)
    assert seen == DemoGame.build(variant="six-card", target=None, seed=seed).result
    assert max(seen["scores"].values()) >= 121
