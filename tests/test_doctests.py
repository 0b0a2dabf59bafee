"""The examples in the docstrings are real: run them."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["companion", "companion.cards", "companion.rules.show", "companion.rules.play", "companion.rules.game",
           "companion.rules.variants", "companion.rules.events", "companion.rules.words", "companion.rules.autoplay",
           "companion.store", "companion.referee", "companion.config", "companion.speech", "companion.service",
           "companion.commands", "companion.demo"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no examples"
