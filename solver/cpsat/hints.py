"""A complete solution as a CP-SAT hint (:func:`add_hint`): a value for
every variable of the model, auxiliary ones included, since a partial hint
barely helps."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from solver.core.geometry import squares_of
from solver.core.pieces import MONOMINO
from solver.puzzle.definition import Puzzle
from solver.puzzle.result import Solution
from solver.puzzle.verify import VerificationError, verify

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from solver.cpsat.variables import PuzzleModel


def add_hint(m: PuzzleModel, placements: Solution) -> None:
    """Hint a complete solution: the placements and a value for every
    auxiliary variable derived from them (a partial hint barely helps)."""
    puzzle, t = m.puzzle, m.puzzle.table
    m.model.clear_hints()
    chosen = set(placements)
    values: dict[cp_model.IntVar, int | bool] = {}
    for key, v in m.x.items():
        values[v] = key in chosen
    covered = {(c, s) for c, p in placements for s in t.squares[p]}
    for key, v in m.covered.items():
        values[v] = key in covered
    if m.levels:  # only the levels encoding of the game rule has levels, parents and roots
        for c in puzzle.colors:
            _hint_levels(m, c, placements, covered, values)
    for c, v in m.all_placed.items():
        values[v] = all(any(col == c and t.piece[p] == i for col, p in placements) for i in puzzle.pieces[c])
    for c, v in m.mono_last.items():
        values[v] = bool(values.get(m.all_placed.get(c), False)) and _monomino_last_possible(puzzle, c, placements)
    if m.objective is not None:
        values[m.objective] = verify(puzzle, placements).objective
    # in bulk (one add_hint per variable took 0.15 s of solo-21's 30,000)
    hint = m.model.proto.solution_hint
    hint.vars.extend(v.index for v in values)
    hint.values.extend(int(val) for val in values.values())


def _hint_levels(m: PuzzleModel, c: int, placements: Solution, covered: set[tuple[int, int]],
                 values: dict[cp_model.IntVar, int | bool]) -> None:
    """Values for colour c's levels, parents and root literals: levels
    breadth first from the root squares (the fixed ones, or the lowest
    covered start square), the monomino last when it must be."""
    puzzle, t, b = m.puzzle, m.puzzle.table, m.puzzle.board
    mine = {s for col, s in covered if col == c}
    fixed = m.root_mask.get(c, 0)
    # set-up groups other than the root group have levels too, and are joined through the covered squares
    mine |= set(squares_of(puzzle.masks.setup[c] & ~fixed)) if fixed else set()
    roots = {s for s in squares_of(fixed)} if fixed else set()
    if not roots and mine:
        starts = b.start_masks[c]
        roots = {min(s for s in mine if not starts or starts >> s & 1)}
    mono = {s for col, p in placements if col == c and t.piece[p] == MONOMINO for s in t.squares[p]}
    level = _breadth_first_levels(puzzle, roots, mine, mono if puzzle.monomino_last else set())
    for (col, s), v in m.levels.items():
        if col == c:
            hi = list(v.proto.domain)[-1]  # (the proto field takes no negative index: [-1] gave 0)
            values[v] = min(level.get(s, hi), hi)
    for (col, s, n), v in m.parents.items():
        if col == c:
            values[v] = (s in mine and n in mine and level.get(n, 10**6) < level.get(s, -1)
                         and n not in (mono if puzzle.monomino_last else ()))
    for (col, s), v in m.roots.items():
        if col == c:
            values[v] = s in roots and not fixed


def _breadth_first_levels(puzzle: Puzzle, roots: set[int], mine: set[int], last: set[int]) -> dict[int, int]:
    """Levels of the squares ``mine`` by king moves from ``roots``, never
    going on from a square of ``last`` (the monomino played last), whose
    squares, reached only through themselves, come after all the others."""
    b = puzzle.board
    level = {s: 0 for s in roots}
    queue = deque(roots)
    while queue:
        s = queue.popleft()
        for n in b.king_neighbours(s):
            if n in mine and n not in level and s not in last:
                level[n] = level[s] + 1
                queue.append(n)
    for s in mine - set(level):
        level[s] = 1 + max(level.values(), default=0)
    return level


def _monomino_last_possible(puzzle: Puzzle, c: int, placements: Solution) -> bool:
    """Whether the placements can be played with colour c's monomino last."""
    try:
        return verify(puzzle, placements).monomino_last.get(c, False)
    except VerificationError:
        return False
