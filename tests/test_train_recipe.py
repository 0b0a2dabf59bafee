"""tools/train_recipe: a resumed training run refuses another recipe than its checkpoint's (torch-free)."""

from __future__ import annotations

import pytest

from tools.train_recipe import clash, recipe


def test_a_checkpoint_resumed_with_its_own_recipe_goes_on():
    saved = recipe("build/decks", 0.4)
    assert clash(saved, recipe("/elsewhere/decks", 0.4)) is None  # the folder is named, not its path
    assert clash(recipe(None, 0.4), recipe(None, 0.2)) is None  # without decks their share lays nothing


@pytest.mark.parametrize("saved, wanted, said", [
    (recipe("build/decks", 0.2), recipe("build/decks", 0.4), "--deck-share 0.2, this run asks for 0.4"),
    (recipe("build/decks", 0.4), recipe(None, 0.4), "--decks decks, this run asks for none"),
    (recipe(None, 0.4), recipe("build/decks", 0.4), "no --decks, this run asks for decks"),
    (recipe(None, 0.4, "standard"), recipe(None, 0.4, "lean"), "--arch standard, this run asks for lean"),
])
def test_a_checkpoint_resumed_with_another_recipe_is_refused_naming_the_option(saved, wanted, said):
    assert clash(saved, wanted).endswith(said)


def test_a_checkpoint_from_before_recipes_were_kept_is_not_refused():
    assert clash(None, recipe("build/decks", 0.2)) is None
