"""Shared test set-up: gpiozero on mock pins, and where the team's shared data lives (headless SDL is set in the
conftest.py above, for the doctests too)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SHARED_DATA = SHARED / "data"


@pytest.fixture
def shared_data() -> Path:
    """../shared/data beside the project; tests that need it skip where it is absent (outside the team)."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"the team's shared photos are not at {SHARED_DATA} (only the team has ../shared)")
    return SHARED_DATA


class KeepingMockFactory(MockFactory):
    """gpiozero's own MockFactory (real pins in mock mode), which also closes what a test hands to :meth:`keep`."""

    def __init__(self) -> None:
        super().__init__()
        self.opened: list = []

    def keep(self, thing):
        """Close ``thing`` after the test (newest first, before the pins are reset); returns it."""
        self.opened.append(thing)
        return thing


@pytest.fixture
def mock_factory() -> Iterator[KeepingMockFactory]:
    """gpiozero on a fresh MockFactory for one test; afterwards what was kept is closed and the factory reset and
    dropped (gpiozero caches the software SPI bus by pin numbers and keeps the factory process-wide, so either would
    otherwise leak into the next test)."""
    factory = KeepingMockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        for thing in reversed(factory.opened):
            thing.close()
        factory.reset()
        Device.pin_factory = None
