"""``companion run`` as a Pi service runs it: stopped by SIGTERM, without a screen, with buttons but no LED chain."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.app import Companion
from companion.config import load_config
from companion.store import EventStore

ROOT = Path(__file__).resolve().parents[1]


def events_in(db: Path) -> int:
    if not db.exists():
        return 0
    con = None
    try:
        con = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        return con.execute("SELECT count(*) FROM events").fetchone()[0]
    except sqlite3.Error:
        return 0
    finally:
        if con is not None:
            con.close()  # the companion's own close must be the last, to checkpoint its log


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is how systemd stops a service")
def test_sigterm_closes_everything_and_keeps_the_game(tmp_path):
    config = tmp_path / "companion.toml"
    config.write_text('[camera]\nsource = "none"\n[game]\nplayers = ["Ann", "Bob"]\n')
    db = tmp_path / "games.db"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "COMPANION_DATA_DIR": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--headless", "--config", str(config),
                             "--db", str(db)], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 60
        while events_in(db) < 1 and proc.poll() is None and time.monotonic() < end:
            time.sleep(0.05)
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.3)  # into the main loop
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, f"killed by the signal instead of stopping ({proc.returncode}): {err}"
    assert "SIGTERM: stopping" in err and "Traceback" not in err
    assert not Path(f"{db}-wal").exists(), "the database was closed (its write-ahead log checkpointed)"
    with EventStore(db) as store:
        game = store.resume()
        assert game is not None and game.state.players == ("Ann", "Bob")


def test_without_a_screen_the_loop_waits_out_each_frame_period(tmp_path):
    config = load_config(text='[camera]\nsource = "none"\n')
    app = Companion.create(config, headless=True, db_path=tmp_path / "games.db")
    assert app.display is None
    steps = []
    step = app.step
    end = time.monotonic() + 0.5

    def counted() -> bool:
        steps.append(time.monotonic())
        return step() and time.monotonic() < end

    app.step = counted
    app.run(fps=20)
    assert len(steps) <= 0.5 * 20 + 3, f"{len(steps)} passes in 0.5 s: a busy loop"


def test_buttons_work_without_an_led_chain(tmp_path):
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    config = load_config(text='[camera]\nsource = "none"\n[board]\ndriver = "virtual"\n')
    app = Companion.create(config, db_path=tmp_path / "games.db", pin_factory=factory)
    try:
        assert app.controls is not None, "buttons are opened whenever there are pins, LED chain or not"
        pin = factory.pin(config.controls.ok)
        pin.drive_low()
        pin.drive_high()
        assert not app.commands.empty()
    finally:
        app.close()


def test_has_gpio_looks_for_gpio_chips(tmp_path):
    from companion.service import has_gpio

    assert not has_gpio(tmp_path)
    (tmp_path / "gpiochip0").touch()
    assert has_gpio(tmp_path)


def test_a_screen_that_fails_at_boot_is_tried_again(tmp_path, monkeypatch):
    from companion.display import desktop

    real = desktop.open_window
    attempts = []

    def flaky(*args, **kw):
        attempts.append(1)
        if len(attempts) == 1:
            raise RuntimeError("kmsdrm not available")  # the boot splash still holds the screen
        return real(*args, **kw)

    monkeypatch.setattr(desktop, "open_window", flaky)
    now = [1000.0]
    config = load_config(text='[camera]\nsource = "none"\n')
    app = Companion.create(config, db_path=tmp_path / "games.db", use_controls=False, clock=lambda: now[0])
    try:
        assert app.display is None and "display" in app.messages
        app.step()
        assert len(attempts) == 1, "not hammered every frame"
        now[0] += app.display_retry
        app.step()
        assert app.display is not None and "display" not in app.messages
    finally:
        app.close()
