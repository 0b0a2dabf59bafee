"""The examples in the board modules' docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest
from gpiozero import Device

MODULES = ["__init__", "layout", "pegs", "animation", "apa102", "max7219", "virtual", "pegboard", "controls", "gpio",
           "emulators"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module("companion.board" + ("" if name == "__init__" else f".{name}"))
    try:
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.reset()
        Device.pin_factory = None
    assert result.failed == 0
