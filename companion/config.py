"""Configuration as data: defaults merged with the user's ``companion.toml``, unknown keys refused by name.

Looked for in the working directory, then the user's config directory, then ``/etc/companion/``. Every key and its
default is in :data:`DEFAULTS` (and documented in ``companion.example.toml``). A wrong key or value raises
:class:`~companion.errors.ConfigError` naming the key and what is allowed — before any hardware is touched.

>>> cfg = load_config(text='[game]\\nplayers = ["Ann", "Bob"]')
>>> cfg.game.variant, cfg.board.driver
('six-card', 'virtual')
>>> load_config(text="[board]\\ncolour = 1")
Traceback (most recent call last):
...
companion.errors.ConfigError: board.colour: unknown key (known: layout, driver, port, device, rate, ...)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ConfigError, check_key
from .paths import config_candidates
from .rules.variants import VARIANTS, WORTH_PRESETS, Options

CAMERA_SOURCES = "demo, none, picamera, webcam:N, webcam:/dev/videoN, replay:PATH[@FPS][:loop]"

DEFAULTS: dict[str, dict[str, Any]] = {
    "game": {
        "variant": "six-card",  # six-card, five-card, seven-card, three-hand, four-hand, four-individual
        "players": [],  # names by seat, dealer's left first; empty: "Player 1", "Player 2", ...
        "target": 0,  # 0: the variant's (121, 61 or 181)
        "first_dealer": -1,  # -1: cut for the deal with the camera (or seat 0 without one)
        "muggins": False,
        "lowball": False,
        "stinkhole": False,
        "no_go_past": 0,  # 0: off; 115 for the house rule
        "skunk_line": 0,  # 0: target - 31
        "double_skunk_line": 0,  # 0: target - 61
        "worth": "standard",  # standard (1/2/4 games) or acc (2/3/3)
    },
    "camera": {
        "source": "demo",
        "width": 1920,
        "height": 1080,
        "fps": 10.0,
        "calibration": "",  # a calibration file; empty: find the mat's markers
    },
    "tracker": {"k": 3, "n": 5, "hold": 1.5},
    "display": {
        "width": 800,
        "height": 480,
        "fullscreen": False,
        "theme": "dark",
    },
    "speech": {"enabled": False, "voice": "en", "rate": 160},
    "store": {"path": ""},  # empty: the user's data directory (/var/lib/companion as a service)
    "log": {"level": "info"},
}

# Sections validated by the part of the program that owns them (board, controls): only their presence is known here.
DELEGATED = ("board", "controls")
_BOARD_DEFAULT_DRIVER = "virtual"


@dataclass(frozen=True)
class Section:
    """One validated section, keys as attributes."""

    name: str
    values: dict[str, Any]

    def __getattr__(self, key: str) -> Any:
        try:
            return self.values[key]
        except KeyError:
            raise AttributeError(f"{self.name}.{key}") from None


@dataclass(frozen=True)
class Config:
    """The whole configuration, validated."""

    game: Section
    camera: Section
    tracker: Section
    display: Section
    speech: Section
    store: Section
    log: Section
    board: Any  # companion.board.pegboard.BoardConfig
    controls: Any  # companion.board.controls.ControlsConfig
    source: str = "defaults"
    raw: dict = field(default_factory=dict, repr=False)

    @property
    def options(self) -> Options:
        g = self.game
        return Options(muggins=g.muggins, lowball=g.lowball, stinkhole=g.stinkhole,
                       no_go_past=g.no_go_past or None, skunk_line=g.skunk_line or None,
                       double_skunk_line=g.double_skunk_line or None, worth=WORTH_PRESETS[g.worth])

    @property
    def players(self) -> tuple[str, ...]:
        n = VARIANTS[self.game.variant].players
        names = list(self.game.players)
        return tuple(names[i] if i < len(names) else f"Player {i + 1}" for i in range(n))


def _check_type(where: str, value: Any, default: Any) -> None:
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, list):
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    else:
        ok = isinstance(value, type(default))
    if not ok:
        kind = {bool: "true or false", int: "a whole number", float: "a number", str: "a string",
                list: "a list of names"}[type(default)]
        raise ConfigError(f"{where}: expected {kind}, got {value!r}")


def _validate_values(sections: dict[str, dict[str, Any]]) -> None:
    g, cam, disp = sections["game"], sections["camera"], sections["display"]
    if g["variant"] not in VARIANTS:
        raise ConfigError(f"game.variant: expected one of {', '.join(VARIANTS)}, got {g['variant']!r}")
    players = VARIANTS[g["variant"]].players
    if len(g["players"]) > players:
        raise ConfigError(f"game.players: {g['variant']} is for {players} players, got {len(g['players'])} names")
    if g["target"] not in (0, 61, 121, 181):
        raise ConfigError(f"game.target: expected 61, 121 or 181 (or 0 for the variant's), got {g['target']!r}")
    if not -1 <= g["first_dealer"] < players:
        raise ConfigError(f"game.first_dealer: expected -1 (cut) or a seat from 0 to {players - 1}, "
                          f"got {g['first_dealer']!r}")
    if g["worth"] not in WORTH_PRESETS:
        raise ConfigError(f"game.worth: expected one of {', '.join(WORTH_PRESETS)}, got {g['worth']!r}")
    src = cam["source"]
    if not (src in ("demo", "none", "picamera") or src.startswith(("webcam:", "replay:"))):
        raise ConfigError(f"camera.source: expected one of {CAMERA_SOURCES}, got {src!r}")
    if not (160 <= disp["width"] <= 7680 and 120 <= disp["height"] <= 4320):
        raise ConfigError(f"display.width/height: expected a screen size such as 800 x 480, got "
                          f"{disp['width']} x {disp['height']}")
    if disp["theme"] != "dark":  # no light palette was ever drawn: refuse it rather than ignore it
        raise ConfigError(f"display.theme: only \"dark\" is available, got {disp['theme']!r}")
    t = sections["tracker"]
    if not 1 <= t["k"] <= t["n"]:
        raise ConfigError(f"tracker.k: expected 1 <= k <= n (n = {t['n']}), got {t['k']}")
    if sections["log"]["level"] not in ("debug", "info", "warning", "error"):
        raise ConfigError(f"log.level: expected debug, info, warning or error, got {sections['log']['level']!r}")


def build_config(data: dict[str, Any], source: str = "defaults") -> Config:
    """Merge ``data`` (parsed TOML) over the defaults and validate every key and value."""
    from .board.controls import ControlsConfig
    from .board.pegboard import BoardConfig

    if not isinstance(data, dict):
        raise ConfigError("the configuration must be a TOML table")
    known = set(DEFAULTS) | set(DELEGATED)
    for name in data:
        if name not in known:
            raise ConfigError(f"{name}: unknown section (known: {', '.join(sorted(known))})")
    sections: dict[str, dict[str, Any]] = {}
    for name, defaults in DEFAULTS.items():
        given = data.get(name, {})
        if not isinstance(given, dict):
            raise ConfigError(f"{name}: expected a [{name}] section, got {given!r}")
        for key, value in given.items():
            check_key(name, key, defaults)
            _check_type(f"{name}.{key}", value, defaults[key])
        sections[name] = {**defaults, **given}
        for key, default in defaults.items():
            if isinstance(default, float):
                sections[name][key] = float(sections[name][key])
    _validate_values(sections)
    board_data = dict(data.get("board", {}))
    board_data.setdefault("driver", _BOARD_DEFAULT_DRIVER)
    board = BoardConfig.from_mapping(board_data)
    controls = ControlsConfig.from_mapping(data.get("controls", {}))
    return Config(**{name: Section(name, values) for name, values in sections.items()}, board=board,
                  controls=controls, source=source, raw=data)


def load_config(path: str | Path | None = None, *, text: str | None = None) -> Config:
    """Read the configuration: ``text``, or ``path``, or the first ``companion.toml`` found, or the defaults."""
    if text is not None:
        return build_config(_parse(text, "the configuration"), "text")
    candidates = [Path(path)] if path else config_candidates()
    for candidate in candidates:
        if candidate.is_file():
            try:
                content = candidate.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise ConfigError(f"{candidate}: cannot read it ({exc})") from None
            return build_config(_parse(content, str(candidate)), str(candidate))
        if path:
            raise ConfigError(f"{candidate}: no such configuration file")
    return build_config({}, "defaults")


def _parse(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML ({exc})") from None
