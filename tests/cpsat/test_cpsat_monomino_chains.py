"""The monomino-last chains of the CP-SAT model (model._monomino_last_chains):
with the monomino claimed last, the other placements must be
reached from the root by chains without it, and the claim is dropped when
the other pieces cannot all fit that way. They must never cut off a real
optimum: on small seeded puzzles (maximize the advanced score, the
monomino and one to four other pieces in hand) CP-SAT alone, with them,
finds the brute-force oracle's optimum; and they do add constraints."""

from __future__ import annotations

import pytest

from solver.core.pieces import MONOMINO
from solver.cpsat import driver, model
from solver.puzzle.definition import Goal, Measure
from solver.puzzle.verify import verify
from tests import bruteforce
from tests.puzzlegen import random_puzzle

# seeds of tests/puzzlegen.py (max_pieces=5) whose puzzle maximizes the score
# under the game rule with the monomino and another piece in hand, and
# whose model the chains change (found by a scan of seeds 3000-12000)
SEEDS = [3175, 3253, 3672, 3861, 3910, 3936, 4286, 4312, 4712, 5369, 5372, 6216, 6500, 6551,
         8067, 8174, 8183, 8221, 8441, 8446, 9173, 9186, 9224, 9225, 9240, 9398, 9757, 9908,
         10629, 10785, 10957, 11447, 11612]


def _puzzle(seed):
    puzzle = random_puzzle(seed, max_pieces=5)
    assert puzzle.goal is Goal.MAXIMIZE and puzzle.measure is Measure.SCORE
    assert MONOMINO in puzzle.pieces[puzzle.target[0]]
    return puzzle


def _constraints(puzzle, chains: bool) -> int:
    return model.build(puzzle, monomino_chains=chains).size["constraints"]


def test_the_chains_add_constraints():
    assert all(_constraints(_puzzle(s), True) > _constraints(_puzzle(s), False) for s in SEEDS)


@pytest.mark.parametrize("seed", SEEDS)
def test_cpsat_with_the_chains_finds_the_oracle_optimum(seed):
    puzzle = _puzzle(seed)
    best, _ = bruteforce.maximize(puzzle)
    for workers in (1, 2):  # the play-order search alone, and beside the default search
        result = driver.solve(puzzle, time_limit=30, workers=workers)
        assert result.objective == best
        if best is not None:
            assert verify(puzzle, result.placements).objective == best


def test_monomino_last_rule_places_nothing_without_the_monomino():
    """Under the monomino-last rule a colour that places any piece ends with
    its monomino: on random-10629 (maximize, red holds 1, O and T4, the
    monomino must cover a star) the O alone (-5) is no solution; before,
    CP-SAT reported it, and only the verifier caught it."""
    puzzle = _puzzle(10629)
    assert puzzle.monomino_last
    best, _ = bruteforce.maximize(puzzle)
    result = driver.solve(puzzle, time_limit=30, workers=1)
    assert best == result.objective == -8
    assert verify(puzzle, result.placements).objective == -8
