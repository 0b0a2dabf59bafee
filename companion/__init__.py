"""Cribbage companion: reads the cards, keeps the count, lights the pegs.

>>> from companion import score_hand, score_play
>>> score_hand("5H 5C 5S JD", "5D").total
29
>>> score_play("TH 5C").spoken
'Fifteen two'
"""

import os as _os

_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep stdout clean for --json output
# The card reader multiplies small matrices: a BLAS thread pool would only spin on the other cores (it doubled the
# reader's CPU time on a 2-core machine). This works when companion is imported before numpy, as the console
# script does; where numpy was loaded first, loading the glyph classifiers sets it (vision/classifier.py).
_os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from .cards import Card, parse_cards  # noqa: E402
from .errors import CompanionError  # noqa: E402
from .rules import Score, ScoreItem, score_hand, score_play  # noqa: E402

__all__ = ["Card", "CompanionError", "Score", "ScoreItem", "parse_cards", "score_hand", "score_play"]
__version__ = "0.1.0"
