"""blokus-solver: exact Blokus puzzle solving, endgame analysis and records.

The rules core (pieces, geometry, placements, position, sgf) imports neither
OR-Tools nor matplotlib; the engines and the renderer import it.
"""

from solver.core.geometry import CLASSIC_BOARD, COLORS, Board
from solver.core.pieces import PIECES, Piece, piece_by_name
from solver.core.placements import PlacementTable, placement_table
from solver.core.position import Move, Position
from solver.errors import (
    BlokusError,
    BoardError,
    IllegalMoveError,
    NotationError,
    OptionError,
    PuzzleError,
    RecordError,
)
from solver.puzzle.definition import Puzzle
from solver.puzzle.result import SolveResult, Status
from solver.solving import solve
from solver.version import __version__

__all__ = [
    "__version__",
    "BlokusError", "BoardError", "IllegalMoveError", "NotationError", "OptionError", "PuzzleError", "RecordError",
    "CLASSIC_BOARD", "COLORS", "Board", "PIECES", "Piece", "piece_by_name",
    "PlacementTable", "placement_table", "Move", "Position", "Puzzle", "SolveResult", "Status", "solve",
]
