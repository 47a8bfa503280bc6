"""CP-SAT's own warm start (solver/cpsat/warmstart.py): its
packing search (every piece placed, the monomino last when it scores) gives
legal solutions only, never better than the optimum, and CP-SAT alone,
started from it, still finds the brute-force oracle's optimum or
feasibility on small one-colour puzzles; on the one-colour challenges it
finds a complete packing at once."""

from __future__ import annotations

import math

import pytest

from solver.cpsat import driver
from solver.cpsat.model import build
from solver.cpsat.warmstart import applies, packs, warm_start
from solver.formats.puzzle_file import load_puzzle
from solver.puzzle.definition import Connect, Goal
from solver.puzzle.result import Status
from solver.puzzle.verify import verify
from tests import bruteforce
from tests.puzzlegen import random_puzzle
from tests.util import ROOT

PUZZLES = ROOT / "puzzles"


def _one_color(seed):
    """A small generated one-colour puzzle under the game rule that the warm
    start applies to (None otherwise)."""
    puzzle = random_puzzle(seed, max_pieces=4)
    if len(puzzle.colors) != 1 or puzzle.connect is not Connect.GAME:
        return None
    t = puzzle.table
    if math.prod(len(t.by_piece[i]) + 1 for c in puzzle.colors for i in puzzle.pieces[c]) > 40_000:
        return None
    m = build(puzzle)
    return puzzle if applies(m) or packs(m) else None


SEEDS = [s for s in range(2000, 2600) if _one_color(s) is not None][:40]


def test_enough_generated_puzzles():
    assert len(SEEDS) >= 30
    goals = [_one_color(s).goal for s in SEEDS]
    assert goals.count(Goal.MAXIMIZE) >= 10 and goals.count(Goal.PLACE_ALL) >= 10


@pytest.mark.parametrize("seed", SEEDS)
def test_warm_start_and_cpsat_alone_match_the_oracle(seed):
    puzzle = _one_color(seed)
    hint = warm_start(build(puzzle))
    result = driver.solve(puzzle, time_limit=30, workers=1)
    if puzzle.goal is Goal.MAXIMIZE:
        best, _ = bruteforce.maximize(puzzle)
        assert hint is None or verify(puzzle, hint).objective <= best
        if best is None:  # (a set-up that breaks a rule: nothing is legal)
            assert result.status is Status.INFEASIBLE
            return
        assert result.status is Status.OPTIMAL and result.objective == best
        assert verify(puzzle, result.placements).objective == best
    else:
        solutions = bruteforce.solve_all(puzzle)
        if hint is not None:
            verify(puzzle, hint)
            assert frozenset(hint) in solutions
        assert result.status is (Status.OPTIMAL if solutions else Status.INFEASIBLE)
        if solutions:
            assert frozenset(result.placements) in solutions


@pytest.mark.parametrize("name", ["solo-21", "duo-solo-21", "trigon-solo-22"])
def test_one_colour_challenges_get_a_complete_packing(name):
    puzzle = load_puzzle(PUZZLES / f"{name}.toml")
    m = build(puzzle)
    assert packs(m) and not applies(m)
    hint = warm_start(m)
    assert hint is not None and len(hint) == len(puzzle.pieces[puzzle.colors[0]])
    verify(puzzle, hint)


def test_solo_21_with_cpsat_from_its_own_packing():
    puzzle = load_puzzle(PUZZLES / "solo-21.toml")
    result = driver.solve(puzzle, time_limit=60, workers=2)
    assert result.status is Status.OPTIMAL and len(result.placements) == 21
    verify(puzzle, result.placements)


def test_several_colours_get_no_warm_start():
    m = build(load_puzzle(PUZZLES / "tetromino-8x10.toml"))
    assert not packs(m) and warm_start(m) is None

