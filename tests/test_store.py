"""The event store: one contract every backend passes (a file and :memory:), resume, history, corruption."""

from __future__ import annotations

import sqlite3

import pytest

from companion.cards import Card, full_deck
from companion.errors import IllegalMove, StoreError
from companion.rules.autoplay import script_game
from companion.rules.events import Deal, NewGame, Play, Starter, Undo
from companion.rules.game import replay
from companion.store import EventStore

C = Card.parse


def _decks():
    import random
    rng = random.Random(7)
    while True:
        d = full_deck()
        rng.shuffle(d)
        yield d


class StoreContract:
    """Behaviour every event store must have; subclasses say how to make one."""

    def make(self, tmp_path) -> EventStore:
        raise NotImplementedError

    def test_events_round_trip_in_order(self, tmp_path):
        with self.make(tmp_path) as store:
            events = script_game("six-card", ("Ann", "Bob"), _decks())
            game = store.start(events[0])
            game.apply_all(events[1:])
            assert store.events(game.game_id) == events
            assert replay(store.events(game.game_id)) == game.state

    def test_a_refused_event_is_not_stored(self, tmp_path):
        with self.make(tmp_path) as store:
            game = store.start(NewGame("six-card", ("Ann", "Bob")))
            game.apply(Deal())
            with pytest.raises(IllegalMove):
                game.apply(Play(0, C("5H")))  # before the starter
            assert len(store.events(game.game_id)) == 2

    def test_a_double_write_at_one_place_fails_loudly(self, tmp_path):
        with self.make(tmp_path) as store:
            game = store.start(NewGame("six-card", ("Ann", "Bob")))
            with pytest.raises(StoreError):
                store.append(game.game_id, 0, Deal())

    def test_finished_games_make_the_history_and_stats(self, tmp_path):
        with self.make(tmp_path) as store:
            events = script_game("six-card", ("Ann", "Bob"), _decks())
            game = store.start(events[0])
            game.apply_all(events[1:])
            assert store.unfinished() is None
            (summary,) = store.history()
            winner = game.state.sides[game.state.winner].name
            assert summary.winner == winner
            assert summary.scores == {s.name: s.front for s in game.state.sides}
            assert store.player_stats()[winner]["won"] == 1

    def test_undoing_the_winning_score_reopens_the_game(self, tmp_path):
        with self.make(tmp_path) as store:
            events = script_game("six-card", ("Ann", "Bob"), _decks())
            game = store.start(events[0])
            game.apply_all(events[1:])
            game.apply(Undo())
            assert store.history() == [] and store.unfinished() == game.game_id


class TestMemoryStore(StoreContract):
    def make(self, tmp_path):
        return EventStore(":memory:")


class TestFileStore(StoreContract):
    def make(self, tmp_path):
        return EventStore(tmp_path / "games.db")


def test_the_unfinished_game_resumes_where_it_was(tmp_path):
    path = tmp_path / "games.db"
    with EventStore(path) as store:
        game = store.start(NewGame("six-card", ("Ann", "Bob")))
        game.apply_all([Deal(), Starter(C("JH")), Play(1, C("TH")), Play(0, C("5S"))])
        state = game.state
    with EventStore(path) as store:  # a new process after a power cut
        resumed = store.resume()
        assert resumed is not None and resumed.state == state
        assert (resumed.state.count, resumed.state.sides[0].front) == (15, 4)


def test_the_file_is_in_wal_mode_with_full_sync(tmp_path):
    path = tmp_path / "games.db"
    with EventStore(path) as store:
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_corrupt_database_is_set_aside_with_a_clear_message(tmp_path):
    path = tmp_path / "games.db"
    path.write_bytes(b"this is not a database" * 100)
    with EventStore(path) as store:
        assert store.warning and "could not be read" in store.warning and "moved to" in store.warning
        game = store.start(NewGame("six-card", ("Ann", "Bob")))
        assert game.game_id == 1
    aside = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not")


def test_old_events_still_replay(tmp_path):
    """Version-1 events as stored by the first release must keep replaying."""
    path = tmp_path / "games.db"
    with EventStore(path) as store:
        store.start(NewGame("six-card", ("Ann", "Bob"))).apply_all([Deal(), Starter(C("JH"))])
    db = sqlite3.connect(path)
    rows = db.execute("SELECT data FROM events ORDER BY seq").fetchall()
    db.close()
    assert '"v": 1' in rows[0][0]
    with EventStore(path) as store:
        assert store.resume().state.sides[0].front == 2
