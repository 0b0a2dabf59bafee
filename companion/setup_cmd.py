"""``companion setup [-o FILE]``: ask which camera, LED board and game this companion has, and write its
``companion.toml`` (by default ``/etc/companion/companion.toml``, the file the service reads).

Every question has a default (in brackets; Enter takes it) and refuses an answer it does not know, asking again.
The demo table is only configured when it is chosen: a fresh Pi watches its own camera. The file is checked as
``companion run`` checks it before it is written, and an existing file is only replaced when you say so.
``make install-service`` runs it when ``/etc/companion/companion.toml`` does not exist yet; ``make setup`` runs it
again.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import TextIO

from .errors import ConfigError

DEFAULT_OUTPUT = Path("/etc/companion/companion.toml")

CAMERAS = (
    ("picamera", "the Raspberry Pi camera (ribbon cable)"),
    ("webcam:0", "a USB webcam"),
    ("none", "no camera: cards are entered with the buttons or on the screen"),
    ("demo", "the bundled demo table (to try the companion out, no cards needed)"),
)
DRIVERS = (
    ("apa102", "APA102 / DotStar LED strip on SPI"),
    ("sk9822", "SK9822 LED strip on SPI"),
    ("max7219", "MAX7219 LED matrix chips on SPI"),
    ("virtual", "no LED board: the pegs are drawn on the screen"),
)


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser("setup", help="Answer a few questions and write companion.toml (the Pi's set-up).",
                              description=__doc__.splitlines()[0])
    p.add_argument("-o", "--output", type=Path, default=DEFAULT_OUTPUT,
                   help=f"The configuration file to write (default {DEFAULT_OUTPUT}).")
    p.set_defaults(func=run)
    return p


class Asker:
    """Asks on ``out`` and reads answers line by line from ``inp`` (a terminal, or a pipe in tests)."""

    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp, self.out = inp, out

    def line(self, prompt: str, what: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        answer = self.inp.readline()
        if not answer:
            raise ConfigError(f"no answer for the {what} (standard input is closed): run companion setup in a "
                              "terminal")
        return answer.strip()

    def choose(self, what: str, options: Sequence[tuple[str, str]], default: str) -> str:
        """One of ``options`` (value, description), by number or by value."""
        self.out.write(f"\n{what[0].upper()}{what[1:]}:\n")
        for i, (value, text) in enumerate(options, 1):
            self.out.write(f"  {i}. {value:<20} {text}\n")
        number = next(i for i, (value, _) in enumerate(options, 1) if value == default)
        while True:
            answer = self.line(f"Choose 1-{len(options)} [{number}. {default}]: ", what)
            if not answer:
                return default
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1][0]
            if answer in (value for value, _ in options):
                return answer
            self.out.write(f"  {answer!r} is not one of them: answer a number from 1 to {len(options)}\n")

    def names(self, what: str, count: int, check: Callable[[list[str]], None]) -> list[str]:
        while True:
            answer = self.line(f"\nNames of the {count} players by seat, dealer's left first, separated by commas "
                               f"[Player 1 ... Player {count}]: ", what)
            names = [n.strip() for n in answer.split(",") if n.strip()] if answer else []
            try:
                check(names)
            except ConfigError as exc:
                self.out.write(f"  {exc}\n")
                continue
            return names


def default_layout(layouts: Sequence[str], sides: int, target: int) -> str:
    """The preset that suits the game: as many tracks as sides, preferring one as long as the game."""
    from .board.layout import load_layout

    fitting = []
    for name in layouts:
        try:
            if len(load_layout(name).sides) == sides:
                fitting.append(name)
        except Exception:  # a preset that does not load is not offered as the default
            continue
    for name in fitting:
        if str(target) in name:
            return name
    return fitting[0] if fitting else layouts[0]


def toml_text(answers: dict[str, dict[str, object]]) -> str:
    lines = [f"# Written by `companion setup` on {date.today().isoformat()}. Every other key keeps its default: all",
             "# of them are listed in companion.example.toml. Run `companion setup` again to change the answers."]
    for section, values in answers.items():
        lines.append(f"\n[{section}]")
        for key, value in values.items():
            lines.append(f"{key} = {json.dumps(value, ensure_ascii=False)}")  # a JSON string or list is TOML too
    return "\n".join(lines) + "\n"


def ask_config(asker: Asker) -> str:
    """Ask every question; the ``companion.toml`` text, already validated."""
    from .board.layout import list_layouts
    from .config import build_config
    from .rules.variants import VARIANTS

    source = asker.choose("camera", CAMERAS, "picamera")
    driver = asker.choose("LED board", DRIVERS, "apa102")
    variants = [(name, v.title or name) for name, v in VARIANTS.items()]
    variant = asker.choose("game", variants, "six-card")
    v = VARIANTS[variant]
    layouts = list_layouts()
    if not layouts:
        raise ConfigError("no board layouts found: the installation is incomplete")
    sides = 2 if v.partners else v.players
    layout = asker.choose("board layout", [(name, "") for name in layouts], default_layout(layouts, sides, v.target))

    def check(names: list[str]) -> None:
        build_config({"game": {"variant": variant, "players": names}})

    players = asker.names("players", v.players, check)
    answers: dict[str, dict[str, object]] = {"game": {"variant": variant}, "camera": {"source": source},
                                             "board": {"layout": layout, "driver": driver}}
    if players:
        answers["game"]["players"] = players
    text = toml_text(answers)
    build_config(tomllib.loads(text), "companion setup")  # the same checks as at start, before anything is written
    return text


def run(args, *, inp: TextIO | None = None, out: TextIO | None = None) -> int:
    asker = Asker(inp or sys.stdin, out or sys.stdout)
    path: Path = args.output
    asker.out.write(f"Setting up the companion: the answers go to {path}.\n")
    text = ask_config(asker)
    if path.exists():
        answer = asker.line(f"\n{path} exists. Replace it? [y/N]: ", "replace question")
        if answer.lower() not in ("y", "yes"):
            asker.out.write("Left as it was.\n")
            return 0
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write {path}: {exc.strerror or exc} (as the service's set-up: sudo companion "
                          "setup)") from None
    asker.out.write(f"\nWritten {path}:\n{text}")
    return 0
