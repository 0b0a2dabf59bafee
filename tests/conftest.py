"""Shared test set-up: headless SDL, and where the team's shared data lives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SHARED_DATA = SHARED / "data"


@pytest.fixture
def shared_data() -> Path:
    """../shared/data beside the project; tests that need it skip where it is absent (outside the team)."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"the team's shared photos are not at {SHARED_DATA} (only the team has ../shared)")
    return SHARED_DATA
