"""A table simulator: renders videos of a cribbage table with the list of changes that truly happened.

>>> from companion.sim import TableSim, track_video
>>> sim = TableSim(size=(640, 360)).lay("5H", "seat1", at=0.5).lay("KD", "seat2", at=2.0).end(at=4.0)
>>> [c.key for c in track_video(sim).changes] == [c.key for c in sim.truth]
True
"""

from .camera import TableCamera, render_mat_layer
from .hands import play_hand
from .reader import ScriptedRecognizer, SimSource, track_video
from .table import CardState, TableSim

__all__ = ["CardState", "ScriptedRecognizer", "SimSource", "TableCamera", "TableSim", "play_hand",
           "render_mat_layer", "track_video"]
