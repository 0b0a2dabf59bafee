"""The glyph classifiers: two small multilayer perceptrons (rank, suit) run with numpy.

Weights live in ``models/glyphs.npz``, made by ``make model`` (``tools/train_vision.py``). Each classifier has one
extra class, ``"-"``, for shapes that are not a rank (or not a suit): pips, art, dirt.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

MODEL_PATH = Path(__file__).resolve().parent / "models" / "glyphs.npz"
JUNK = "-"


@dataclass(frozen=True)
class Mlp:
    """One hidden layer, ReLU, softmax. ``classes`` names the outputs."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    classes: tuple[str, ...]

    def probs(self, x: np.ndarray) -> np.ndarray:
        x = np.atleast_2d(np.asarray(x, np.float32))
        h = np.maximum(x @ self.w1 + self.b1, 0)
        z = h @ self.w2 + self.b2
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def to_arrays(self, prefix: str) -> dict[str, np.ndarray]:
        return {f"{prefix}_w1": self.w1, f"{prefix}_b1": self.b1, f"{prefix}_w2": self.w2,
                f"{prefix}_b2": self.b2, f"{prefix}_classes": np.array(self.classes)}

    @classmethod
    def from_arrays(cls, data, prefix: str) -> Mlp:
        return cls(*(np.asarray(data[f"{prefix}_{k}"], np.float32) for k in ("w1", "b1", "w2", "b2")),
                   tuple(str(c) for c in data[f"{prefix}_classes"]))


@dataclass(frozen=True)
class GlyphModel:
    rank: Mlp
    suit: Mlp

    def save(self, path: Path, made_with: str = "") -> None:
        """Write the model to ``path``; ``made_with`` (the library versions that cut its samples) is kept beside
        the weights, as the same code on other versions makes another model."""
        arrays = {**self.rank.to_arrays("rank"), **self.suit.to_arrays("suit")}
        if made_with:
            arrays["made_with"] = np.array(made_with)
        np.savez_compressed(path, **{k: (v.astype(np.float16) if v.dtype == np.float32 else v)
                                     for k, v in arrays.items()})

    @classmethod
    def load(cls, path: Path | str = MODEL_PATH) -> GlyphModel:
        one_blas_thread()
        with np.load(path, allow_pickle=False) as data:
            return cls(Mlp.from_arrays(data, "rank"), Mlp.from_arrays(data, "suit"))


@lru_cache(maxsize=1)
def one_blas_thread() -> None:
    """Let numpy's BLAS run on the calling thread alone, for the whole process. The classifiers multiply matrices of
    a few hundred glyphs by a few hundred weights: large enough for OpenBLAS to wake its thread pool, too small to
    gain from it, and the pool spins on every other core (on 2 cores the reader took 1.6 times the CPU for the same
    wall time; on the Pi it takes the cores the screen and the buttons need). ``OPENBLAS_NUM_THREADS=1`` (set in
    ``companion/__init__.py``) only works where it is set before numpy is loaded; threadpoolctl changes it after."""
    threadpool_limits(1, user_api="blas")


@lru_cache(maxsize=1)
def default_model() -> GlyphModel:
    """The committed model, loaded once."""
    return GlyphModel.load(MODEL_PATH)
