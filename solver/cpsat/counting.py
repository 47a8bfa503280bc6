"""Counting with symmetry broken. While counting, the model keeps at least
one solution of each class of symmetric solutions, and each solution found
is expanded back to its images under the puzzle's symmetries:

- interchangeable colours (the 8x10 tetromino puzzles) appear in order:
  colour k first covers a square after colour k-1 did, in square order
  (:func:`add_colour_order`);
- in a fill puzzle the placement on the first square has the lowest index
  among its images under the turns and mirrors that map the puzzle onto
  itself (:func:`add_board_order`).

Counting searches like an exact cover: placements in order of their lowest
square, the first one not yet decided set true (so the lowest empty
square's options in turn).
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

from ortools.sat.python import cp_model

from solver.core.geometry import COLORS
from solver.core.placements import Placement
from solver.puzzle.definition import Goal, Puzzle
from solver.puzzle.result import Solution
from solver.puzzle.symmetry import puzzle_symmetries

if TYPE_CHECKING:
    from solver.cpsat.variables import BoolVar, PuzzleModel


def add_color_order(m: PuzzleModel) -> None:
    """Colours in order of first appearance: colour k covers a square only
    if colour k-1 covers an earlier one. Every colour covers some square and
    no square has two colours, so one relabelling of each solution passes."""
    puzzle, model = m.puzzle, m.model
    size = puzzle.board.size
    upto: dict[tuple[int, int], BoolVar | None] = {}  # (c, s) -> colour c covers a square <= s (None: it cannot)
    for c in puzzle.colors:
        prev = None
        for s in range(size):
            cov = m.covered.get((c, s))
            if cov is not None and prev is not None:
                now = model.new_bool_var(f"upto_{COLORS[c]}_{s}")
                model.add_bool_or([now.Not(), prev, cov])
                model.add_implication(prev, now)
                model.add_implication(cov, now)
                prev = now
            elif cov is not None:
                prev = cov
            upto[c, s] = prev
    for a, c in zip(puzzle.colors, puzzle.colors[1:]):
        for s in range(size):
            cov, before = m.covered.get((c, s)), upto.get((a, s - 1))
            if cov is not None:
                model.add_implication(cov, before) if before is not None else model.add_bool_or([cov.Not()])


def _board_maps(puzzle: Puzzle) -> list[list[int]]:
    """Square maps of the puzzle's turns and mirrors, identity excluded."""
    maps = {tuple(sq) for sq, _ in puzzle_symmetries(puzzle)}
    maps.discard(tuple(range(puzzle.board.size)))
    return [list(sq) for sq in sorted(maps)]


def first_square(puzzle: Puzzle) -> int | None:
    """The lowest square every solution of a fill puzzle covers, when the
    puzzle has turns or mirrors to break (else None)."""
    if puzzle.goal is Goal.MAXIMIZE or puzzle.spare_squares != 0 or not _board_maps(puzzle):
        return None
    free = puzzle.masks.free
    return (free & -free).bit_length() - 1 if free else None


def add_board_order(m: PuzzleModel, first: int) -> None:
    """Square ``first`` is covered in every solution: the placement on it
    has an index at most that of the placement on it in each turned or
    mirrored image of the solution (colours aside)."""
    puzzle, t, model = m.puzzle, m.puzzle.table, m.model
    by_place: dict[Placement, list[BoolVar]] = {}
    for (c, p), v in m.x.items():
        by_place.setdefault(p, []).append(v)
    used: dict[Placement, BoolVar] = {}

    def used_var(p: Placement) -> BoolVar:
        if p not in used:
            vs = by_place[p]
            used[p] = vs[0] if len(vs) == 1 else model.new_bool_var(f"used_{p}")
            if len(vs) > 1:
                model.add(used[p] == sum(vs))
        return used[p]

    here = [p for p in by_place if first in t.squares[p]]
    for sq in _board_maps(puzzle):
        source = sq.index(first)  # the square the map takes onto ``first``
        for q in [q for q in by_place if source in t.squares[q]]:
            image = t.find(sq[s] for s in t.squares[q])
            for p in here:
                if image is not None and image < p:
                    model.add_bool_or([used_var(p).Not(), used_var(q).Not()] if p != q else [used_var(p).Not()])


def images(puzzle: Puzzle, found: list[Solution], all_relabellings: bool) -> list[Solution]:
    """Every distinct image of the solutions found under the puzzle's
    symmetries (and under every relabelling of interchangeable colours)."""
    t = puzzle.table
    if all_relabellings:
        maps = [list(range(puzzle.board.size))] + _board_maps(puzzle)
        group = [(sq, dict(zip(puzzle.colors, perm))) for sq in maps for perm in permutations(puzzle.colors)]
    else:
        group = puzzle_symmetries(puzzle)
    distinct: dict[frozenset, Solution] = {}
    moved: list[dict[Placement, Placement]] = [{} for _ in group]
    for sol in found:
        for (sq, cmap), pmap in zip(group, moved):
            image = []
            for c, p in sol:
                if p not in pmap:
                    pmap[p] = t.find(sq[s] for s in t.squares[p])
                image.append((cmap[c], pmap[p]))
            distinct.setdefault(frozenset(image), sorted(image))
    return list(distinct.values())


def add_exact_cover_branching(m: PuzzleModel) -> None:
    """Decide placements in order of their lowest square, each set true
    first: the search branches on the lowest empty square's options."""
    t = m.puzzle.table
    order = sorted(m.x, key=lambda cp: (min(t.squares[cp[1]]), cp))
    m.model.add_decision_strategy([m.x[cp] for cp in order], cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
