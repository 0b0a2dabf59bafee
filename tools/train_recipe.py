"""What a training run of the corner detector is made from, kept in its checkpoint so that a resumed run cannot
quietly mix two recipes (torch-free, so that the check is tested where the ``train`` extra is not installed).

A run resumed with another recipe would train its last steps on other samples (or fail on another network's
weights) and still write one ONNX file, with nothing to tell it from a clean run: the SVG decks' share of the faces
(``--deck-share``) is not in the weights.

>>> saved = recipe(decks="build/decks", deck_share=0.2)
>>> clash(saved, recipe(decks="build/decks", deck_share=0.2)) is None
True
>>> print(clash(saved, recipe(decks="build/decks", deck_share=0.4)))
the checkpoint was trained with --deck-share 0.2, this run asks for 0.4
"""

from __future__ import annotations

from pathlib import Path

#: The options of ``tools.train_detector`` that choose the network and its samples, as the checkpoint stores them.
OPTIONS = {"arch": "--arch", "decks": "--decks", "deck_share": "--deck-share"}


def recipe(decks: str | Path | None, deck_share: float, arch: str = "standard") -> dict:
    """The recipe of a run: the network (``arch``), the decks' folder by its name (None: no SVG decks) and their
    share of the faces laid, which only counts where decks are laid."""
    name = Path(decks).name if decks else None
    return {"arch": arch, "decks": name, "deck_share": float(deck_share) if name else None}


def clash(saved: dict | None, wanted: dict) -> str | None:
    """What differs between a checkpoint's recipe (``saved``; None for a checkpoint from before recipes were kept)
    and this run's, said as the option to change; None where they agree or the checkpoint keeps none."""
    if saved is None:
        return None
    for key, option in OPTIONS.items():
        old, new = saved.get(key), wanted.get(key)
        if old != new:
            return f"the checkpoint was trained with {_say(option, old)}, this run asks for {_value(new)}"
    return None


def _value(v) -> str:
    return "none" if v is None else f"{v:g}" if isinstance(v, float) else str(v)


def _say(option: str, v) -> str:
    return f"no {option}" if v is None else f"{option} {_value(v)}"
