"""The event log on disk: SQLite (standard library), append-only, one transaction per event.

Each accepted event is committed (WAL journal, ``synchronous=FULL``) before anything shows it, so a power cut loses
nothing that was shown. On start the unfinished game is resumed by replaying its events. Finished games are kept
as history with per-player statistics.

>>> from companion.rules.events import Deal
>>> store = EventStore(":memory:")
>>> game = store.start(NewGame("six-card", ("Ann", "Bob")))
>>> _ = game.apply(Deal())
>>> [type(e).__name__ for e in store.events(game.game_id)]
['NewGame', 'Deal']
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, UTC
from pathlib import Path

from .errors import StoreError
from .rules.events import NewGame, event_from_dict, event_to_dict
from .rules.game import Game, GameState

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    variant TEXT NOT NULL,
    players TEXT NOT NULL,
    finished TEXT,
    winner TEXT,
    scores TEXT,
    skunk TEXT,
    games_won INTEGER
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    at TEXT NOT NULL,
    type TEXT NOT NULL,
    version INTEGER NOT NULL,
    data TEXT NOT NULL,
    meta TEXT,
    PRIMARY KEY (game_id, seq)
);
"""


@dataclass(frozen=True)
class GameSummary:
    """One finished game in the history."""

    game_id: int
    started: str
    finished: str
    variant: str
    players: tuple[str, ...]
    winner: str
    scores: dict[str, int]
    skunk: str | None
    games_won: int


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class EventStore:
    """The SQLite event log. ``path`` is a file or ``":memory:"``.

    A corrupt database (SQLite says "file is not a database" or "malformed", or its integrity check fails) is moved
    aside (``NAME.corrupt-TIMESTAMP``) and a new one started; the reason is kept in :attr:`warning` for the screen.
    Any other problem (no permission, a read-only file or disk, a locked database) leaves the file where it is and
    raises :class:`StoreError` saying what to check: a healthy game log is never set aside. ``readonly=True`` opens
    an existing database for reading only (``companion history`` on the service's games), writing nothing to it.
    Use as a context manager or call :meth:`close`.
    """

    def __init__(self, path: str | os.PathLike = ":memory:", *, readonly: bool = False) -> None:
        self.path = str(path)
        self.readonly = readonly
        self.warning: str | None = None
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            if self.path == ":memory:":
                raise StoreError(f"cannot open the in-memory database: {exc}") from None
            if readonly or not _is_corruption(exc):
                raise StoreError(_cannot_open(self.path, exc)) from None
            aside = self._set_aside(exc)
            self.warning = (f"The game database {self.path} could not be read ({exc}); it was moved to {aside} "
                            f"and a new one started.")
            log.error(self.warning)
            self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        if self.readonly:
            return self._open_readonly()
        if self.path != ":memory:":
            try:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(_cannot_open(self.path, exc)) from None
            # SQLite quietly opens a file it may not write read-only, and would only fail at the first score: say
            # so now (a read-only file or file system is not corruption, so nothing is moved)
            if os.path.exists(self.path) and not os.access(self.path, os.W_OK):
                raise StoreError(_cannot_open(self.path, "the file is read-only for this user"))
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("integrity check failed")
            db.executescript(SCHEMA)
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _open_readonly(self) -> sqlite3.Connection:
        if not os.path.isfile(self.path):
            raise StoreError(f"no game database at {self.path}")
        uri = Path(self.path).resolve().as_uri()
        try:
            db = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
            db.execute("SELECT count(*) FROM games").fetchone()
        except sqlite3.OperationalError:
            # a WAL database whose writer is not running has no -shm file, and a reader without write access to
            # the folder cannot make one: nothing is writing it then, so read it as an unchanging file
            db = sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None, check_same_thread=False)
            db.execute("SELECT count(*) FROM games").fetchone()
        return db

    def _set_aside(self, exc: Exception) -> str:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        aside = f"{self.path}.corrupt-{stamp}"
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(self.path + suffix):
                os.replace(self.path + suffix, aside + suffix)
        return aside

    # --- writing --------------------------------------------------------------------------------------------------
    def create_game(self, new_game: NewGame) -> int:
        """Record a new game and its first event; return its id."""
        with self._tx():
            cur = self._db.execute("INSERT INTO games (started, variant, players) VALUES (?, ?, ?)",
                                   (_now(), new_game.variant, json.dumps(list(new_game.players))))
            game_id = cur.lastrowid
            self._insert(game_id, 0, new_game)
        return game_id

    def append(self, game_id: int, seq: int, event, meta: dict | None = None) -> None:
        """Commit one event at position ``seq``; a second write at the same place fails loudly. ``meta`` is what
        the table looked like when it happened (e.g. the replay frame), kept beside the event, never in it."""
        with self._tx():
            self._insert(game_id, seq, event, meta)

    def _insert(self, game_id: int, seq: int, event, meta: dict | None = None) -> None:
        data = event_to_dict(event)
        self._db.execute("INSERT INTO events (game_id, seq, at, type, version, data, meta) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (game_id, seq, _now(), data["type"], data["v"], json.dumps(data),
                          json.dumps(meta) if meta else None))

    def last_meta(self, game_id: int) -> dict | None:
        """The ``meta`` of the newest event of a game that has one."""
        row = self._db.execute("SELECT meta FROM events WHERE game_id=? AND meta IS NOT NULL ORDER BY seq DESC "
                               "LIMIT 1", (game_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def finish(self, game_id: int, state: GameState) -> None:
        """Record the result of a finished game in the history."""
        if state.winner is None:
            return
        scores = {side.name: side.front for side in state.sides}
        with self._tx():
            self._db.execute("UPDATE games SET finished=?, winner=?, scores=?, skunk=?, games_won=? WHERE id=?",
                             (_now(), state.sides[state.winner].name, json.dumps(scores), state.skunk,
                              state.games_won, game_id))

    def reopen(self, game_id: int) -> None:
        """Take a game out of the history again (its winning score was undone)."""
        with self._tx():
            self._db.execute("UPDATE games SET finished=NULL, winner=NULL, scores=NULL, skunk=NULL, games_won=NULL "
                             "WHERE id=?", (game_id,))

    def abandon(self, game_id: int) -> None:
        """Mark a game as ended without a winner (a new game was started instead)."""
        with self._tx():
            self._db.execute("UPDATE games SET finished=? WHERE id=? AND finished IS NULL", (_now(), game_id))

    def _tx(self):
        return _Transaction(self._db)

    # --- reading --------------------------------------------------------------------------------------------------
    def events(self, game_id: int) -> list:
        rows = self._db.execute("SELECT data FROM events WHERE game_id=? ORDER BY seq", (game_id,)).fetchall()
        return [event_from_dict(json.loads(r[0])) for r in rows]

    def latest(self) -> int | None:
        """The id of the newest game, finished or not."""
        row = self._db.execute("SELECT id FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return row[0] if row else None

    def unfinished(self) -> int | None:
        """The id of the newest game that has not finished, if any."""
        row = self._db.execute("SELECT id FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        return row[0] if row else None

    def history(self, limit: int = 50) -> list[GameSummary]:
        rows = self._db.execute(
            "SELECT id, started, finished, variant, players, winner, scores, skunk, games_won FROM games "
            "WHERE winner IS NOT NULL ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        return [GameSummary(r[0], r[1], r[2], r[3], tuple(json.loads(r[4])), r[5], json.loads(r[6]), r[7], r[8])
                for r in rows]

    def player_stats(self) -> dict[str, dict[str, int]]:
        """Per player name: games played, won, and games (match points) won."""
        stats: dict[str, dict[str, int]] = {}
        for g in self.history(limit=1_000_000):
            for name in g.scores:
                row = stats.setdefault(name, {"played": 0, "won": 0, "games_won": 0, "skunks": 0})
                row["played"] += 1
                if name == g.winner:
                    row["won"] += 1
                    row["games_won"] += g.games_won or 0
                    row["skunks"] += 1 if g.skunk else 0
        return stats

    # --- games --------------------------------------------------------------------------------------------------
    def start(self, new_game: NewGame) -> StoredGame:
        """Start a new game (its first event is validated before it is stored)."""
        game = Game([new_game])
        return StoredGame(self, self.create_game(new_game), game)

    def resume(self, game_id: int | None = None) -> StoredGame | None:
        """The unfinished game (or ``game_id``) rebuilt by replaying its log, or None if there is none."""
        game_id = self.unfinished() if game_id is None else game_id
        if game_id is None:
            return None
        events = self.events(game_id)
        return StoredGame(self, game_id, Game(events))

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _is_corruption(exc: sqlite3.DatabaseError) -> bool:
    """True only for a damaged file: SQLITE_CORRUPT, SQLITE_NOTADB or a failed integrity check. Permissions, a
    read-only file system, a locked database or a full disk are ``OperationalError``s and are not corruption."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return True
    text = str(exc).lower()
    return "not a database" in text or "malformed" in text or "integrity check failed" in text


def _cannot_open(path: str, exc: Exception) -> str:
    return (f"cannot open the game database {path}: {exc} (check that the user running the companion may write "
            f"to the file and its folder; the file was left as it is)")


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.db.execute("COMMIT")
        else:
            self.db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"could not save the game: {exc}") from exc


class StoredGame:
    """A :class:`~companion.rules.game.Game` whose every accepted event is on disk before :meth:`apply` returns."""

    def __init__(self, store: EventStore, game_id: int, game: Game) -> None:
        self.store = store
        self.game_id = game_id
        self.game = game
        self.meta: dict | None = None  # stored beside each event applied (the app sets the replay frame here)

    @property
    def state(self) -> GameState:
        return self.game.state

    def apply(self, event) -> GameState:
        """Validate, store, then apply; raises IllegalMove (nothing stored) or StoreError (nothing applied)."""
        state = self.game.preview(event)
        was_over = self.game.state.winner is not None
        self.store.append(self.game_id, len(self.game.log), event, self.meta)
        self.game.commit(event, state)
        if state.winner is not None:
            self.store.finish(self.game_id, state)
        elif was_over:  # the winning score was undone: the game goes on
            self.store.reopen(self.game_id)
        return state

    def apply_all(self, events: Iterable) -> GameState:
        for e in events:
            self.apply(e)
        return self.state
