"""Issue 11 packaging: the board presets ship inside the package, so a wheel install (`pip install .`) has them.
Issue 15: the four-track preset for four players individually, with its drilling template and its guide."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

import companion.board
from companion.board.layout import check_fits, list_layouts, load_layout

ROOT = Path(__file__).resolve().parents[1]


def test_the_presets_live_inside_the_package(monkeypatch):
    monkeypatch.delenv("COMPANION_BOARDS", raising=False)
    inside = Path(companion.board.__file__).parent / "presets"
    assert sorted(p.stem for p in inside.glob("*.toml")) == list_layouts()
    assert "two-player-121" in list_layouts() and "four-player-121" in list_layouts()


def test_setuptools_would_put_the_presets_in_the_wheel():
    """What pyproject asks of setuptools, read fast: the presets folder is a package it finds and *.toml is its
    package data (the slow test below builds the wheel itself)."""
    from setuptools import find_namespace_packages

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    find = project["tool"]["setuptools"]["packages"]["find"]
    assert find.get("namespaces", True), "presets/ has no __init__.py: it needs namespace discovery"
    assert "companion.board.presets" in find_namespace_packages(where=str(ROOT), include=find["include"])
    data = project["tool"]["setuptools"]["package-data"]
    patterns = data.get("*", []) + data.get("companion.board.presets", [])
    assert "*.toml" in patterns


@pytest.mark.slow
def test_a_wheel_install_has_the_presets(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "companion", src / "companion", ignore=shutil.ignore_patterns("__pycache__"))
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"),
                            str(src)], capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr[-2000:]
    wheel = next((tmp_path / "dist").glob("*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert {f"companion/board/presets/{n}.toml" for n in list_layouts()} <= set(names)
    # the wheel alone (zip-imported, nothing of the checkout on the path) finds and loads every preset
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); from companion.board.layout import list_layouts, "
             "load_layout; names = list_layouts(); [load_layout(n) for n in names]; print(' '.join(names))")
    run = subprocess.run([sys.executable, "-I", "-c", probe, str(wheel)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == list_layouts()


def test_four_players_individually_have_a_four_track_preset():
    layout = load_layout("four-player-121")
    assert len(layout.sides) == 4 and layout.holes_per_track == 120 and layout.target == 121
    assert len({side.colour for side in layout.sides}) == 4
    check_fits(layout, 4, 121)
    # each track is two rows of the board; no two holes closer than the strip's pitch (a drill would merge them)
    points = [layout.positions[led] for _, led in layout.holes()]
    closest = min(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for i, a in enumerate(points)
                  for b in points[i + 1:])
    assert closest >= 6.9


def test_the_four_track_drilling_template_is_committed_and_current(tmp_path):
    from tools.drill_template import main

    assert main(["four-player-121", "--out", str(tmp_path)]) == 0
    svg = (tmp_path / "four-player-121.svg").read_text()
    circles = ET.fromstring(svg).findall("{http://www.w3.org/2000/svg}circle")
    assert len(circles) == len(list(load_layout("four-player-121").holes())) == 4 * 122 + 1
    committed = ROOT / "hardware" / "drilling" / "four-player-121.svg"
    assert committed.read_text() == svg, "run `python -m tools.drill_template` and commit hardware/drilling"


def test_the_guide_names_every_preset_and_where_the_presets_live():
    guide = (ROOT / "hardware" / "README.md").read_text()
    for name in list_layouts():
        assert f"`{name}`" in guide
    assert "companion/board/presets/" in guide
    assert "## Four players individually" in guide
