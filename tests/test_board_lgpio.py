"""Issue 11: lgpio gets a writable ``$LG_WD`` before gpiozero picks a pin factory (under the service the working
directory is not writable; from a checkout the FIFO was left in it), and when no factory works ``open_board``
reports what each one said instead of "install lgpio".

The fake lgpio below does at import what the real one does (checked against lgpio 0.2.2.0): it makes its FIFO
``.lgd-nfy0`` in ``$LG_WD`` or else the working directory, failing if it cannot, and chdir()s there. The test
with the real library runs where it is installed."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.board.gpio import prepare_pins, runtime_dir

ROOT = Path(__file__).resolve().parents[1]

FAKE_LGPIO = '''
import os
_wd = os.environ.get("LG_WD") or os.getcwd()
os.mkfifo(os.path.join(_wd, ".lgd-nfy0")) if not os.path.exists(os.path.join(_wd, ".lgd-nfy0")) else None
os.chdir(_wd)
'''

OPEN_BOARD = '''
import json, os, sys
from companion.board.pegboard import open_board
board, message = open_board({"layout": "test-strip-30"}, dev_dir=sys.argv[1], model_file=sys.argv[2])
print(json.dumps({"virtual": board.virtual, "message": message, "cwd": os.getcwd(),
                  "lg_wd": os.environ.get("LG_WD")}))
board.close()
'''


@pytest.fixture
def pi(tmp_path):
    """A checkout to run from, a runtime directory, and a /dev and device-tree model that look like a Pi 5's."""
    (tmp_path / "checkout").mkdir()
    (tmp_path / "run").mkdir(mode=0o700)
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "spidev0.0").write_text("")
    (tmp_path / "model").write_text("Raspberry Pi 5 Model B Rev 1.0\x00")
    (tmp_path / "fake").mkdir()
    (tmp_path / "fake" / "lgpio.py").write_text(FAKE_LGPIO)
    return tmp_path


def run_open_board(pi, *, fake: bool, **env_changes):
    env = {k: v for k, v in os.environ.items() if k not in ("LG_WD", "GPIOZERO_PIN_FACTORY", "RUNTIME_DIRECTORY")}
    env["XDG_RUNTIME_DIR"] = str(pi / "run")
    env["PYTHONPATH"] = os.pathsep.join([str(pi / "fake")] * fake + [str(ROOT)])
    env.update(env_changes)
    done = subprocess.run([sys.executable, "-c", OPEN_BOARD, str(pi / "dev"), str(pi / "model")], cwd=pi / "checkout",
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_lgpio_makes_its_fifo_in_the_runtime_directory_not_the_checkout(pi):
    seen = run_open_board(pi, fake=True)
    assert not (pi / "checkout" / ".lgd-nfy0").exists()
    fifo = Path(seen["lg_wd"]) / ".lgd-nfy0"
    assert seen["lg_wd"] == str(pi / "run" / "companion") and stat.S_ISFIFO(fifo.stat().st_mode)
    assert seen["cwd"] == str(pi / "checkout")            # lgpio's chdir is undone: relative paths still work


def test_a_failing_lgpio_is_reported_with_its_own_error_not_install_lgpio(pi):
    seen = run_open_board(pi, fake=True, LG_WD=str(pi / "not-there"))   # the admin's LG_WD is kept, and fails
    assert seen["virtual"]
    message = seen["message"]
    assert message.startswith("no usable gpiozero pin factory (lgpio: ")
    assert "No such file or directory" in message and "not-there" in message
    assert "rpigpio: " in message and "install lgpio" not in message


@pytest.mark.skipif(find_spec("lgpio") is not None or Path("/proc/device-tree/model").exists(),
                    reason="lgpio is installed here, or this is a Pi: the factories do not all fail")
def test_without_lgpio_every_factory_is_named_and_the_fix_given(pi):
    message = run_open_board(pi, fake=False)["message"]
    assert "lgpio: No module named 'lgpio'" in message and "native: " in message
    assert "install lgpio (`sudo apt install python3-lgpio`" in message


def test_the_runtime_directory_is_the_services_then_the_logins_then_a_private_temporary_one(tmp_path):
    service, login = tmp_path / "service", tmp_path / "login"
    service.mkdir()
    login.mkdir()
    assert runtime_dir({"RUNTIME_DIRECTORY": str(service), "XDG_RUNTIME_DIR": str(login)}) == str(service)
    assert runtime_dir({"XDG_RUNTIME_DIR": str(login)}) == str(login / "companion")
    fallback = runtime_dir({"XDG_RUNTIME_DIR": str(tmp_path / "gone")})
    assert fallback.startswith(str(Path(__import__("tempfile").gettempdir()))) and str(os.getuid()) in fallback


def test_lg_wd_is_set_only_when_gpiozero_may_pick_lgpio_and_never_overridden(tmp_path, monkeypatch):
    monkeypatch.setattr(Device, "pin_factory", None)
    env = {"XDG_RUNTIME_DIR": str(tmp_path)}
    prepare_pins(environ=env)
    assert env["LG_WD"] == str(tmp_path / "companion") and os.access(env["LG_WD"], os.W_OK)
    kept = {"LG_WD": "/srv/lg", "XDG_RUNTIME_DIR": str(tmp_path)}
    prepare_pins(environ=kept)
    assert kept["LG_WD"] == "/srv/lg"
    mock = {"GPIOZERO_PIN_FACTORY": "mock", "XDG_RUNTIME_DIR": str(tmp_path)}
    prepare_pins(environ=mock)
    assert "LG_WD" not in mock
    given = {"XDG_RUNTIME_DIR": str(tmp_path)}
    prepare_pins(MockFactory(), environ=given)
    assert "LG_WD" not in given


@pytest.mark.skipif(find_spec("lgpio") is None, reason="lgpio is not installed")  # never imported here: it chdir()s
def test_with_the_real_lgpio_nothing_is_left_in_the_checkout(pi):
    env = {k: v for k, v in os.environ.items() if k not in ("LG_WD", "GPIOZERO_PIN_FACTORY", "RUNTIME_DIRECTORY")}
    env["XDG_RUNTIME_DIR"] = str(pi / "run")
    script = ("import os; from companion.board.gpio import prepare_pins; error = prepare_pins(); "
              "print(error, os.getcwd(), os.environ['LG_WD'])")
    done = subprocess.run([sys.executable, "-c", script], cwd=pi / "checkout", env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    error, cwd, lg_wd = done.stdout.split()
    assert error == "None" and cwd == str(pi / "checkout") and lg_wd == str(pi / "run" / "companion")
    assert not (pi / "checkout" / ".lgd-nfy0").exists() and (pi / "run" / "companion" / ".lgd-nfy0").exists()
