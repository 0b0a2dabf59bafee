"""The Pi's set-up: ``companion setup`` asks and writes a configuration that starts; ``make install-service`` and the
systemd unit install the program, not a developer's settings, and give the service what it needs at boot."""

from __future__ import annotations

import argparse
import io
import shutil
import subprocess
from pathlib import Path

import pytest

from companion import cli, setup_cmd
from companion.config import load_config

ROOT = Path(__file__).resolve().parents[1]


def setup(tmp_path, answers: str, existing: str | None = None) -> tuple[int, str, Path]:
    out_file = tmp_path / "etc" / "companion.toml"
    if existing is not None:
        out_file.parent.mkdir(parents=True, exist_ok=True)
        out_file.write_text(existing)
    args = argparse.Namespace(output=out_file)
    out = io.StringIO()
    code = setup_cmd.run(args, inp=io.StringIO(answers), out=out)
    return code, out.getvalue(), out_file


def test_enter_through_the_questions_gives_a_pi_camera_and_an_led_strip_not_the_demo(tmp_path):
    code, _, path = setup(tmp_path, "\n\n\n\nAnn, Bob\n")
    assert code == 0
    config = load_config(path)
    assert config.camera.source == "picamera", "a fresh Pi watches its own camera, not the demo"
    assert config.board.driver == "apa102" and config.players == ("Ann", "Bob")
    assert config.game.variant == "six-card"


def test_each_answer_reaches_the_file(tmp_path):
    # camera 3 (none), driver by name, game 5 (four-hand), layout by number, four names
    code, text, path = setup(tmp_path, "3\nmax7219\n5\n1\nAnn, Bob, Cy, Di\n")
    assert code == 0
    config = load_config(path)
    assert config.camera.source == "none" and config.board.driver == "max7219"
    assert config.game.variant == "four-hand" and config.players == ("Ann", "Bob", "Cy", "Di")
    assert f"Written {path}" in text


def test_the_demo_only_when_chosen(tmp_path):
    code, _, path = setup(tmp_path, "4\n4\n\n\n\n")
    assert code == 0 and load_config(path).camera.source == "demo"
    assert load_config(path).board.driver == "virtual"


def test_a_wrong_answer_is_asked_again(tmp_path):
    code, text, path = setup(tmp_path, "9\ncamcorder\n2\n\n\n\nAnn, Bob, Cy\nAnn, Bob\n")
    assert code == 0
    assert "'9' is not one of them" in text and "'camcorder' is not one of them" in text
    assert "six-card is for 2 players, got 3 names" in text
    config = load_config(path)
    assert config.camera.source == "webcam:0" and config.players == ("Ann", "Bob")


def test_an_existing_file_is_replaced_only_when_told(tmp_path):
    code, text, path = setup(tmp_path, "\n\n\n\n\n\n", existing="# mine\n")
    assert code == 0 and path.read_text() == "# mine\n" and "Left as it was" in text
    code, _, path = setup(tmp_path, "\n\n\n\n\ny\n", existing="# mine\n")
    assert code == 0 and load_config(path).camera.source == "picamera"


def test_without_a_terminal_it_says_so_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code = cli.main(["setup", "-o", str(tmp_path / "c.toml")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "standard input is closed" in err
    assert not (tmp_path / "c.toml").exists()


# -- make install-service and the unit ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def install_commands() -> str:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    done = subprocess.run(["make", "-n", "IS_PI=1", "install-service"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.replace("\\\n", " ")  # one line per command


def test_install_service_copies_the_program_not_a_developers_settings(install_commands):
    rsync = next(line for line in install_commands.splitlines() if "rsync" in line)
    assert "--exclude /companion.toml" in rsync and "'*.db'" in rsync
    assert "rm -f /opt/companion/companion.toml" in install_commands


def test_install_service_asks_for_the_configuration_instead_of_copying_the_demo_example(install_commands):
    assert "companion.example.toml" not in install_commands
    assert "companion setup" in install_commands and "/etc/companion/companion.toml" in install_commands


def unit() -> dict[str, list[str]]:
    values: dict[str, list[str]] = {}
    for line in (ROOT / "systemd" / "companion.service").read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            values.setdefault(key.strip(), []).append(value.strip())
    return values


def test_the_unit_starts_after_the_boot_splash_and_reads_etc_companion():
    u = unit()
    after = " ".join(u["After"]).split()
    assert "plymouth-quit-wait.service" in after
    assert u["ExecStart"][0].endswith("companion run --config /etc/companion/companion.toml")


def test_the_service_can_write_where_lgpio_and_the_working_directory_need():
    u = unit()
    assert u["RuntimeDirectory"] == ["companion"]
    assert "LG_WD=%t/companion" in u["Environment"]
    assert u["WorkingDirectory"] == ["/var/lib/companion"] and u["StateDirectory"] == ["companion"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_unit(tmp_path):
    copy = tmp_path / "companion.service"
    copy.write_text((ROOT / "systemd" / "companion.service").read_text())
    done = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    problems = [line for line in (done.stdout + done.stderr).splitlines()
                if line.strip() and "is not executable" not in line and "/opt/companion" not in line]
    assert not problems, problems
