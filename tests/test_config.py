"""Configuration: defaults, the documented example, and errors that name the key."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import DEFAULTS, load_config
from companion.errors import ConfigError

EXAMPLE = Path(__file__).resolve().parents[1] / "companion.example.toml"


def test_the_example_documents_every_key_with_its_default():
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    for section, defaults in DEFAULTS.items():
        assert data[section] == defaults, f"[{section}] in companion.example.toml differs from the defaults"
    config = load_config(EXAMPLE)
    assert config.board.driver == "virtual" and config.controls.ok == 5
    from dataclasses import asdict
    assert data["board"] == asdict(config.board) and data["controls"] == asdict(config.controls)


def test_defaults_give_a_game_without_any_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    config = load_config()
    assert config.players == ("Player 1", "Player 2") and config.camera.source == "demo"


@pytest.mark.parametrize("text,words", [
    ('[game]\nvariant = "crazy eights"', "game.variant: expected one of six-card"),
    ('[game]\nplayers = ["A", "B", "C"]', "game.players"),
    ('[camera]\nsource = "usb"', "camera.source"),
    ('[board]\ndriver = "ws2812"', "board.driver"),
    ('[board]\ncolour = "red"', "board.colour: unknown key"),
    ('[controls]\nok = 5\nundo = 5', "pin is used twice"),
    ('[display]\nwidth = "wide"', "display.width: expected a whole number"),
    ('[speach]\nenabled = true', "speach: unknown section"),
    ("[game\n", "not valid TOML"),
])
def test_a_wrong_key_or_value_is_named(text, words):
    with pytest.raises(ConfigError, match=words.replace("(", r"\(").replace(")", r"\)")):
        load_config(text=text)


def test_a_broken_config_stops_the_companion_with_one_line(tmp_path, capsys):
    bad = tmp_path / "companion.toml"
    bad.write_text('[board]\ndriver = "neopixel"\n')
    code = main(["run", "--config", str(bad), "--headless"])
    err = capsys.readouterr().err
    assert code == 2 and "board.driver" in err and "neopixel" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
