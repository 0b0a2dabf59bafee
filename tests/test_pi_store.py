"""The game database on a Pi: only real corruption sets a database aside; permissions never do; the login user
reads the service's games.

The permission cases are real: as root (CI, a developer's container) the database is opened by another process
running as ``nobody``, since root ignores file modes; as an ordinary user the file and folder are made read-only.
"""

from __future__ import annotations

import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from companion import paths
from companion.cards import full_deck
from companion.errors import StoreError
from companion.rules.autoplay import script_game
from companion.store import EventStore

ROOT = Path(__file__).resolve().parents[1]
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def finished_game_db(path: Path) -> None:
    rng = random.Random(7)

    def decks():
        while True:
            deck = full_deck()
            rng.shuffle(deck)
            yield deck

    events = script_game("six-card", ("Ann", "Bob"), decks())
    with EventStore(path) as store:
        game = store.start(events[0])
        game.apply_all(events[1:])
        assert game.state.winner is not None


@pytest.fixture
def shared_dir():
    """A folder another user can read (pytest's own tmp folders are private to their owner)."""
    folder = Path(tempfile.mkdtemp(prefix="companion-pi-store-"))
    folder.chmod(0o755)
    yield folder
    for p in [folder, *folder.rglob("*")]:
        p.chmod(stat.S_IRWXU)
    shutil.rmtree(folder, ignore_errors=True)


def as_another_user(code: str, folder: Path, *, folder_writable: bool, file_mode: int = 0o444
                    ) -> subprocess.CompletedProcess:
    """Run ``code`` as a user who owns none of ``folder``'s files and may only read them (and write the folder when
    ``folder_writable``). Root ignores file modes, so under root the files are given to ``nobody`` and the code runs
    without root's capabilities (``setpriv``), which is what an ordinary user is."""
    prefix: list[str] = []
    if AS_ROOT:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: cannot make a file read-only for this process")
        prefix = ["setpriv", "--bounding-set=-all", "--inh-caps=-all"]
        for p in [folder, *folder.rglob("*")]:
            os.chown(p, 65534, 65534)
    for p in folder.rglob("*"):
        p.chmod(0o755 if p.is_dir() else file_mode)
    folder.chmod(0o777 if folder_writable else 0o555)
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(folder), "PYTHONPATH": str(ROOT),
           "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([*prefix, sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=env, cwd=str(folder))


OPEN = """
from companion.store import EventStore
from companion.errors import StoreError
try:
    EventStore({path!r})
except StoreError as exc:
    print("StoreError:", exc)
else:
    print("opened")
"""


@pytest.mark.parametrize("file_mode, folder_writable", [(0o444, True), (0o444, False), (0o000, True)],
                         ids=["read-only-file", "read-only-file-and-folder", "unreadable-file"])
def test_a_database_the_user_may_not_write_is_reported_and_never_moved(shared_dir, file_mode, folder_writable):
    db = shared_dir / "games.db"
    finished_game_db(db)
    before = db.read_bytes()
    done = as_another_user(OPEN.format(path=str(db)), shared_dir, folder_writable=folder_writable,
                           file_mode=file_mode)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stdout.startswith("StoreError:"), done.stdout + done.stderr
    assert "the file was left as it is" in done.stdout and str(db) in done.stdout
    assert sorted(p.name for p in shared_dir.iterdir()) == ["games.db"], "nothing set aside"
    db.chmod(0o644)
    assert db.read_bytes() == before


def test_the_companion_keeps_going_in_memory_when_its_database_is_read_only(shared_dir):
    db = shared_dir / "games.db"
    finished_game_db(db)
    code = f"""
from companion.app import _open_store
messages = {{}}
store = _open_store({str(db)!r}, messages)
print(store.path, "|", messages["store"].text)
"""
    done = as_another_user(code, shared_dir, folder_writable=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(":memory: | Cannot open the game database"), done.stdout
    assert sorted(p.name for p in shared_dir.iterdir()) == ["games.db"]


@pytest.mark.parametrize("damage", [b"this is not a database at all" * 100, None], ids=["not-a-database", "malformed"])
def test_real_corruption_is_still_set_aside(tmp_path, damage):
    db = tmp_path / "games.db"
    if damage is None:
        finished_game_db(db)
        data = bytearray(db.read_bytes())
        data[4096 + 8: 4096 + 200] = b"\xff" * 192  # the games table's page: SQLite calls it malformed
        db.write_bytes(bytes(data))
    else:
        db.write_bytes(damage)
    with EventStore(db) as store:
        assert store.warning and "moved to" in store.warning
        assert store.latest() is None
    assert any(".corrupt-" in p.name for p in tmp_path.iterdir())


def test_history_reads_the_service_database_without_writing_to_it(shared_dir, tmp_path, monkeypatch):
    service = shared_dir / "service"
    service.mkdir()
    finished_game_db(service / "games.db")
    code = f"""
from pathlib import Path
from companion import paths, cli
paths.SERVICE_DATA_DIR = Path({str(service)!r})
raise SystemExit(cli.main(["history"]))
"""
    done = as_another_user(code, shared_dir, folder_writable=False)
    assert done.returncode == 0, done.stderr
    assert "Ann" in done.stdout and "won" in done.stdout, done.stdout
    assert sorted(p.name for p in service.iterdir()) == ["games.db"], "a reader leaves no -wal/-shm behind"


def test_history_prefers_the_users_own_games(tmp_path, monkeypatch):
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "mine"))
    monkeypatch.setattr(paths, "SERVICE_DATA_DIR", tmp_path / "service")
    assert paths.history_database() == tmp_path / "mine" / "games.db"
    monkeypatch.delenv("COMPANION_DATA_DIR")
    monkeypatch.setattr(paths, "user_data_dir", lambda app: str(tmp_path / "home" / app))
    (tmp_path / "service").mkdir()
    assert paths.history_database() == tmp_path / "home" / "companion" / "games.db", "no service games: own"
    finished_game_db(tmp_path / "service" / "games.db")
    assert paths.history_database() == tmp_path / "service" / "games.db"


def test_readonly_of_a_missing_database_is_a_clear_error(tmp_path):
    with pytest.raises(StoreError, match="no game database"):
        EventStore(tmp_path / "none.db", readonly=True)
    assert not (tmp_path / "none.db").exists()
