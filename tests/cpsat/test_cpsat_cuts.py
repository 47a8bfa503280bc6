"""The ``cuts`` encoding of the game rule (solver/cpsat/connectivity.py)
when the root is not fixed: two groups, each on a start square of its
own, are not one group."""

from __future__ import annotations

from solver.cpsat import driver
from solver.puzzle.result import Status
from tests import bruteforce
from tests.puzzlegen import random_puzzle


def test_cuts_keep_one_group_across_start_squares():
    """The ``cuts`` encoding with two start squares and no set-up: a domino
    and an L4 each on its own start square are two groups, no solution (the
    cut against the group away from the root square holds only while the
    root square is covered; before, both start squares counted as roots)."""
    puzzle = random_puzzle(2125, max_pieces=4)
    assert len(puzzle.board.starts[puzzle.colors[0]]) == 2 and not puzzle.setup
    assert not bruteforce.solve_all(puzzle)
    assert driver.solve(puzzle, time_limit=30, workers=1, encoding="cuts").status is Status.INFEASIBLE
    counted = driver.solve(puzzle, time_limit=30, workers=1, count=True)
    assert counted.solution_count == 0 and counted.count_complete
