"""The examples in the docstrings of the table-watching modules are real: run them."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["companion.sim", "companion.vision.sources", "companion.vision.mat", "companion.vision.zones",
           "companion.vision.calibration", "companion.vision.tracker", "companion.vision.watch",
           "companion.sim.camera", "companion.sim.table", "companion.sim.hands"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no examples"
