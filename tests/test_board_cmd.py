"""``companion board-test`` on the virtual board, headless."""

from __future__ import annotations

import argparse

import pytest

from companion.board import board_test_cmd
from companion.board.layout import load_layout


@pytest.fixture(autouse=True)
def dummy_video(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


def parse(argv):
    parser = argparse.ArgumentParser()
    board_test_cmd.add_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["board-test", *argv])


@pytest.mark.parametrize("name", ["test-strip-30", "seven-card-181"])
def test_steps_light_each_hole_alone_then_each_track(name):
    layout = load_layout(name)
    steps = list(board_test_cmd.steps(layout))
    holes = list(layout.holes())
    assert len(steps) == len(holes) + len(layout.sides)
    for step, (hole, led) in zip(steps, holes):
        lit = [i for i, c in enumerate(step.frame) if c != (0, 0, 0)]
        assert lit == [led] and step.led == led
        assert step.caption == layout.hole_name(hole) and f"LED {led}" in step.detail
    for step, side in zip(steps[len(holes):], layout.sides):
        lit = {i for i, c in enumerate(step.frame) if c != (0, 0, 0)}
        assert lit == {*side.track, *side.start, *side.laps}
        assert {step.frame[i] for i in lit} == {side.colour}


def test_headless_run_with_a_screenshot(tmp_path, capsys):
    shot = tmp_path / "board.png"
    args = parse(["--layout", "test-strip-30", "--driver", "virtual", "--headless", "--frames", "5",
                  "--screenshot", str(shot)])
    assert args.func(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Red start 1") and "LED 25" in out[0]
    assert out[1].startswith("Red 1 ") and len([line for line in out if "LED" in line]) == 5
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_whole_test_runs_headless(capsys):
    args = parse(["--layout", "test-strip-30", "--driver", "virtual", "--headless", "--quiet"])
    assert args.func(args) == 0


def test_through_the_companion_command(tmp_path, capsys):
    from companion.cli import main
    assert main(["board-test", "--layout", "test-strip-30", "--driver", "virtual", "--headless", "--frames", "2"]) == 0
    assert main(["board-test", "--layout", "nowhere", "--driver", "virtual", "--headless"]) == 2
    assert "no board layout 'nowhere'" in capsys.readouterr().err


def test_the_board_benchmark_runs(capsys):
    from tools.bench_board import main
    assert main(["--repeat", "50", "--writes", "1"]) == 0
    out = capsys.readouterr().out
    assert "bytes per update                           1633" in out and "decoded OK" in out


def test_drilling_templates_are_true_scale_and_up_to_date(tmp_path):
    import xml.etree.ElementTree as ET
    from pathlib import Path

    from tools.drill_template import main

    assert main(["--out", str(tmp_path)]) == 0
    ns = {"s": "http://www.w3.org/2000/svg"}
    for name in ["two-player-121", "seven-card-181", "test-strip-30"]:
        layout = load_layout(name)
        svg = (tmp_path / f"{name}.svg").read_text()
        root = ET.fromstring(svg)
        w, h = layout.size_mm()
        assert root.get("width") == f"{w:.2f}mm" and root.get("viewBox").startswith(f"0 0 {w:.2f} ")
        circles = root.findall("s:circle", ns)
        assert len(circles) == len(list(layout.holes()))
        assert {float(c.get("r")) for c in circles} == {layout.hole_mm / 2}
        committed = Path(__file__).resolve().parents[1] / "hardware" / "drilling" / f"{name}.svg"
        assert committed.read_text() == svg, "run `python -m tools.drill_template` and commit hardware/drilling"


def test_draw_board_paints_lit_holes_where_the_layout_puts_them():
    import pygame

    from companion.board.pegs import PegView, board_frame
    from companion.board.virtual import HOLE, draw_board, screen_colour

    layout = load_layout("two-player-61")
    frame = board_frame(layout, PegView(((70, 64), (3, 0)), target=121))
    surface = pygame.Surface((900, 260))
    where = draw_board(surface, (10, 10, 880, 240), layout, frame)
    assert set(where) == {led for _, led in layout.holes()}
    for led, colour in enumerate(frame):
        if led in where:
            pixel = tuple(surface.get_at(where[led]))[:3]
            assert pixel == (screen_colour(colour) if any(colour) else HOLE)
    # proportions kept: the board is wider than tall as in mm
    xs = [p[0] for p in where.values()]
    ys = [p[1] for p in where.values()]
    assert (max(xs) - min(xs)) / (max(ys) - min(ys)) == pytest.approx(
        (max(p[0] for p in layout.positions.values()) - min(p[0] for p in layout.positions.values()))
        / (max(p[1] for p in layout.positions.values()) - min(p[1] for p in layout.positions.values())), rel=0.05)
