"""Issue 11: `companion board-test` drives the board the configuration describes, and board and controls values
out of range are refused at start by name (one line, exit 2), `board.port = 1` included."""

from __future__ import annotations

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.board.controls import ControlsConfig
from companion.board.emulators import APA102Chip
from companion.board.pegboard import BoardConfig
from companion.cli import main
from companion.errors import ConfigError


@pytest.fixture(autouse=True)
def dummy_video(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


@pytest.mark.parametrize("key, value", [
    ("port", 1), ("device", 2), ("brightness", 32), ("brightness", -1), ("rate", 0), ("rate", 100_000_000),
    ("order", "rgbw"), ("order", "rrg"), ("chips", -1), ("supply_a", 0), ("ma_per_channel", -5.0),
    ("idle_ma", -1.0), ("layout", ""),
])
def test_a_board_value_out_of_range_is_refused_by_name(key, value):
    with pytest.raises(ConfigError, match=rf"^board\.{key}: (expected|only port 0 works)"):
        BoardConfig.from_mapping({key: value})


@pytest.mark.parametrize("key, value", [
    ("ok", 28), ("encoder_a", 40), ("menu", 5.0), ("undo", -1), ("hold_time", 0), ("hold_time", 60.0),
    ("bounce_time", 11),
])
def test_a_controls_value_out_of_range_is_refused_by_name(key, value):
    with pytest.raises(ConfigError, match=rf"^controls\.{key}: expected"):
        ControlsConfig.from_mapping({key: value} if not key.startswith("encoder") else {key: value, "encoder_b": 21})


def test_values_in_range_are_accepted():
    config = BoardConfig.from_mapping({"port": 0, "device": 1, "brightness": 0, "rate": 2_000_000, "order": "grb",
                                       "chips": 3, "supply_a": 6, "idle_ma": 0})
    assert config.device == 1 and config.order == "grb" and config.supply_a == 6.0
    assert ControlsConfig.from_mapping({"ok": 27, "undo": 0, "encoder_a": 17, "encoder_b": 22}).ok == 27


@pytest.mark.parametrize("command", [["board-test", "--headless", "--frames", "1"], ["run", "--demo", "--headless"]])
def test_board_port_1_stops_every_command_at_start_with_one_line(tmp_path, capsys, command):
    config = tmp_path / "companion.toml"
    config.write_text('[board]\nlayout = "test-strip-30"\ndriver = "apa102"\nport = 1\n')
    assert main([*command, "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "board.port: only port 0 works" in err and "Traceback" not in err


class RecordingChip(APA102Chip):
    """The emulated strip, keeping every whole frame it was sent: (global brightness, r, g, b) per LED."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.history: list[list[tuple[int, int, int, int]]] = []

    def _latch(self, frame):
        super()._latch(frame)
        if self._index == self.count:
            self.history.append(list(self.leds))


def test_board_test_drives_the_board_of_the_configuration(tmp_path, capsys):
    config = tmp_path / "companion.toml"
    config.write_text('[board]\nlayout = "test-strip-30"\ndriver = "apa102"\norder = "rgb"\nbrightness = 7\n'
                      'rate = 4000000\n')
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        chip = RecordingChip(30, order="rgb")   # a strip wired red-green-blue: decodes what an "rgb" chain sends
        assert main(["board-test", "--config", str(config), "--headless", "--frames", "1"]) == 0
        chip.close()
    finally:
        factory.reset()
        Device.pin_factory = None
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Red start 1") and "LED 25" in out[0]           # the test strip's first hole
    first_hole = next(frame for frame in chip.history if any(r or g or b for _, r, g, b in frame))
    gb, r, g, b = first_hole[25]
    assert gb == 7 and (r, g, b) == (232, 32, 42)                             # Red, in the right order
    assert all(gb == 7 for gb, *_ in chip.history[-1]) and chip.lit() == {}   # dark at the end


def test_the_command_line_overrides_the_configuration(tmp_path, capsys):
    config = tmp_path / "companion.toml"
    config.write_text('[board]\nlayout = "two-player-121"\ndriver = "apa102"\n')
    assert main(["board-test", "--config", str(config), "--layout", "test-strip-30", "--driver", "virtual",
                 "--headless", "--frames", "1"]) == 0
    assert "LED 25" in capsys.readouterr().out


def test_a_missing_config_file_is_one_line(tmp_path, capsys):
    assert main(["board-test", "--config", str(tmp_path / "nowhere.toml"), "--headless"]) == 2
    assert "no such configuration file" in capsys.readouterr().err
