"""Set-up for everything pytest collects: the tests in tests/ and the docstring examples in companion/.

``make test`` runs ``pytest --doctest-modules`` over the package (see pyproject.toml), so every ``>>>`` example in a
docstring is a test, with no list of modules to keep up to date. Every module must therefore import on a PC without
the Pi's libraries: one that cannot goes in ``collect_ignore`` below, with the reason.
"""

from __future__ import annotations

import os

import pytest

# Before pygame is imported anywhere: no window, no sound card.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# Modules whose import needs hardware libraries a PC lacks (none today: picamera2 is imported lazily, inside the
# source that uses it). "companion/display/__main__.py" is skipped by pytest itself.
collect_ignore: list[str] = []


@pytest.fixture(autouse=True)
def _release_pins_after_a_doctest(request):
    """The board modules' examples put gpiozero on a MockFactory; gpiozero keeps it (and the pins it reserved)
    process-wide, so it is reset after each example rather than leaking into the next test."""
    yield
    if isinstance(request.node, pytest.DoctestItem):
        from gpiozero import Device

        if Device.pin_factory is not None:
            Device.pin_factory.reset()
        Device.pin_factory = None


def pytest_collection_modifyitems(config, items):
    """The tests marked slow run first (the rest keep their order): with pytest-xdist, a test of a minute or more
    collected near the end (the webcam walk-through is the last file) would start when the rest is nearly done and
    run alone while the other core sits idle."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
