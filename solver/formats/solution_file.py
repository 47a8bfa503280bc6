"""Solution files: the JSON object that ``blokus solve --json``
prints, read back and checked against its puzzle by ``blokus solve PUZZLE
--check FILE``.

Only ``placements`` ([{``color``, ``piece``, ``squares``}], squares as
Pentobi writes them: ``a20,b20,b19``) is needed; ``puzzle`` (the puzzle's
name), when present, must match. The placements are checked from scratch by
:func:`solver.puzzle.verify.verify`: as a solution (every piece placed) unless
the file says ``"best_partial": true``, then as a legal partial packing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from solver.core.geometry import NUM_COLORS
from solver.core.pieces import PIECES
from solver.core.placements import Placement, PlacementTable
from solver.errors import BlokusError
from solver.files import read_input
from solver.puzzle.definition import Puzzle
from solver.puzzle.result import Solution
from solver.puzzle.verify import verify

MAX_SOLUTION_FILE = 1 << 20  # bytes


class SolutionFileError(BlokusError):
    """A solution file that cannot be read, or that does not verify."""


@dataclass
class Checked:
    placements: Solution
    partial: bool  # the file claims a partial packing only
    complete: bool  # every piece placed (a solution)
    pieces: int  # pieces placed
    total: int  # pieces of the puzzle


def placement_json(table: PlacementTable, color: str, p: Placement) -> dict:
    """One placement as every JSON output writes it: colour, piece, squares."""
    return {"color": color, "piece": PIECES[table.piece[p]].name, "squares": table.name(p)}


def solution_to_json(puzzle: Puzzle, placements: Solution, partial: bool = False) -> dict:
    """A solution file's object (the fields ``--check`` reads); ``blokus
    solve --json`` prints it with the solve's other fields."""
    return {"puzzle": puzzle.name, "best_partial": partial,
            "placements": [placement_json(puzzle.table, puzzle.color_name(c), p) for c, p in placements]}


def read_solution(puzzle: Puzzle, path) -> tuple[Solution, bool]:
    """The placements of a solution file and whether it claims only a partial packing."""
    path = Path(path)
    raw = read_input(path, MAX_SOLUTION_FILE, SolutionFileError)
    if len(raw) > MAX_SOLUTION_FILE:
        raise SolutionFileError(f"{path}: over {MAX_SOLUTION_FILE} bytes, not a solution file")
    try:
        obj = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SolutionFileError(f"{path}: cannot read a solution file: {e}") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("placements"), list):
        raise SolutionFileError(f"{path}: expected a JSON object with a list of placements")
    name = obj.get("puzzle")
    if name is not None and name != puzzle.name:
        raise SolutionFileError(f"{path}: a solution of {name!r}, not of {puzzle.name!r}")
    colors = {puzzle.color_name(c): c for c in range(NUM_COLORS)}
    t = puzzle.table
    placements: Solution = []
    for i, item in enumerate(obj["placements"], start=1):
        if not isinstance(item, dict) or not all(isinstance(item.get(k), str) for k in ("color", "squares")):
            raise SolutionFileError(f"{path}: placement {i} needs a color and squares (strings)")
        if item["color"] not in colors:
            raise SolutionFileError(f"{path}: placement {i}: unknown colour {item['color']!r}")
        try:
            p = t.parse(item["squares"])
        except BlokusError as e:
            raise SolutionFileError(f"{path}: placement {i}: {e}") from None
        piece = item.get("piece")
        if piece is not None and piece != PIECES[t.piece[p]].name:
            raise SolutionFileError(f"{path}: placement {i}: squares {item['squares']} form piece "
                                    f"{PIECES[t.piece[p]].name}, not {piece}")
        placements.append((colors[item["color"]], p))
    return placements, bool(obj.get("best_partial", False))


def check_solution(puzzle: Puzzle, path) -> Checked:
    """Read and verify a solution file; raises SolutionFileError (unreadable)
    or VerificationError (a rule broken) naming the problem."""
    placements, partial = read_solution(puzzle, path)
    verify(puzzle, placements, partial=partial)
    total = sum(len(puzzle.pieces[c]) for c in puzzle.colors)
    return Checked(placements, partial, _all_placed(puzzle, placements), len(placements), total)


def _all_placed(puzzle: Puzzle, placements: Solution) -> bool:
    t = puzzle.table
    placed = {(c, t.piece[p]) for c, p in placements}
    return all((c, i) in placed for c in puzzle.colors for i in puzzle.pieces[c])
