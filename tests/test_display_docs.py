"""The examples in the display modules' docstrings run."""

from __future__ import annotations

import doctest
import importlib
import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

MODULES = ["", ".view", ".screens", ".input", ".window", ".menus", ".samples", ".layout", ".draw", ".desktop", ".newgame"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"companion.display{name}")
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0
