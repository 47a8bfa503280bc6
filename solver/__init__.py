"""blokus-solver: exact Blokus puzzle solving, endgame analysis and records.

The library's face, in the order a user meets it (docs/library.md walks
through it): read a game record or a puzzle file, take positions and moves
from it, solve a puzzle, analyse a position, annotate a game, draw either.
Importing the package loads neither OR-Tools, numba, matplotlib nor Dask:
each engine loads its libraries when it first runs.
"""

from solver.core.geometry import CLASSIC_BOARD, COLORS, Board
from solver.core.pieces import PIECES, Piece, piece_by_name
from solver.core.placements import PlacementTable, placement_table
from solver.core.position import Move, Position
from solver.core.variants import VARIANTS, Variant
from solver.deadline import Deadline
from solver.drawing.render import render_position, render_solution
from solver.endgame.analysis import Analysis, analyze
from solver.endgame.annotate import annotate
from solver.endgame.annotation import GameAnnotation
from solver.errors import (
    BlokusError,
    BoardError,
    IllegalMoveError,
    NotationError,
    OptionError,
    PuzzleError,
    RecordError,
)
from solver.formats.puzzle_file import load_puzzle, parse_puzzle
from solver.formats.sgf import GameRecord, load_record, read_record, write_record
from solver.puzzle.definition import Puzzle
from solver.puzzle.result import SolveResult, Status
from solver.solving import Engine, solve
from solver.version import __version__

__all__ = [
    "__version__",
    # records and puzzles
    "GameRecord", "load_record", "read_record", "write_record", "Puzzle", "load_puzzle", "parse_puzzle",
    # the rules core
    "Position", "Move", "Variant", "VARIANTS", "Board", "CLASSIC_BOARD", "COLORS", "PIECES", "Piece",
    "piece_by_name", "PlacementTable", "placement_table",
    # solving, analysing, annotating, drawing
    "solve", "Engine", "Deadline", "SolveResult", "Status", "analyze", "Analysis", "annotate", "GameAnnotation",
    "render_position", "render_solution",
    # errors
    "BlokusError", "BoardError", "IllegalMoveError", "NotationError", "OptionError", "PuzzleError", "RecordError",
]
