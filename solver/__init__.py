"""blokus-solver: exact Blokus puzzle solving, endgame analysis and records.

The rules core (pieces, geometry, placements, position, sgf) imports neither
OR-Tools nor matplotlib; the engines and the renderer import it.
"""

__version__ = "0.1.0"

from .errors import BlokusError, IllegalMoveError, NotationError, PuzzleError, RecordError
from .geometry import CLASSIC, COLORS, Board
from .pieces import PIECES, Piece, piece_by_name
from .placements import PlacementTable, placement_table
from .position import Move, Position

__all__ = [
    "BlokusError", "IllegalMoveError", "NotationError", "PuzzleError", "RecordError",
    "CLASSIC", "COLORS", "Board", "PIECES", "Piece", "piece_by_name",
    "PlacementTable", "placement_table", "Move", "Position",
]
