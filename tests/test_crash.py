"""Pull the plug: SIGKILL the companion at random moments while it watches the demo game; every restart must pick
the game up where it was, and the finished game must equal an uninterrupted run, event for event."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from companion.demo import DemoGame
from companion.rules.game import replay
from companion.store import EventStore

pytestmark = pytest.mark.slow

KILLS = 20


def companion(db, *extra) -> subprocess.Popen:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--demo", "--headless",
                             "--reader", "scripted", "--db", str(db), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)


def stored_log(db) -> tuple[list, object]:
    with EventStore(db) as store:
        game_ids = [row[0] for row in store._db.execute("SELECT id FROM games ORDER BY id")]
        assert len(game_ids) == 1, "a restart must resume the game, never start another"
        events = store.events(game_ids[0])
    return events, replay(events)


def test_sigkill_at_random_moments_loses_nothing(tmp_path):
    rng = random.Random(int(os.environ.get("CRASH_SEED", "12")))
    straight = companion(tmp_path / "straight.db")  # the uninterrupted run, on the other core meanwhile
    db = tmp_path / "killed.db"
    seen_lengths = []
    for _ in range(KILLS):
        proc = companion(db)
        time.sleep(rng.uniform(2.0, 10.0))  # start-up alone takes a few seconds
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if db.exists():
            events, state = stored_log(db)  # after every kill: the game on disk replays to a legal state
            seen_lengths.append(len(events))
            assert state.phase in ("cut", "deal", "discard", "play", "show", "over")
    assert seen_lengths and seen_lengths[-1] > seen_lengths[0], "the game must move on between kills"
    final = companion(db)
    out, _ = final.communicate(timeout=600)
    assert final.returncode == 0, out
    out_straight, _ = straight.communicate(timeout=600)
    assert straight.returncode == 0
    assert json.loads(out) == json.loads(out_straight) == DemoGame.build().result
    killed_events, killed_state = stored_log(db)
    straight_events, straight_state = stored_log(tmp_path / "straight.db")
    assert killed_events == straight_events
    assert killed_state == straight_state
