"""The CP-SAT engine, and its cross-check against the search engine."""

import math
from pathlib import Path

import pytest

from solver import cpsat
from solver.crosscheck import disagreement, solve_both
from solver.geometry import Board
from solver.pieces import piece_by_name
from solver.puzzle import Puzzle, SolveResult, Status
from solver.puzzle_file import load_puzzle
from solver.search import solve as search_solve
from solver.verify import verify

from . import bruteforce
from .puzzlegen import random_puzzle

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def _small(seed):
    puzzle = random_puzzle(seed, max_pieces=3)
    t = puzzle.table
    work = math.prod(len(t.by_piece[i]) + 1 for c in puzzle.colors for i in puzzle.pieces[c])
    return puzzle if work <= 300_000 else None


SEEDS = [s for s in range(1000, 1200) if _small(s) is not None][:60]


def test_enough_generated_puzzles():
    assert len(SEEDS) >= 50
    kinds = {(_small(s).goal, _small(s).connect) for s in SEEDS}
    assert len(kinds) >= 5  # place-all and maximize under every connection rule


@pytest.mark.parametrize("seed", SEEDS)
def test_engines_agree_on_generated_puzzles(seed):
    """Status, optimum and solution count agree; every solution verifies;
    the brute-force oracle says the same."""
    puzzle = _small(seed)
    check = solve_both(puzzle, time_limit=60, cpsat_options={"workers": 1})
    assert check.disagreement is None
    search, cp = check.results["search"], check.results["cpsat"]
    assert search.status is cp.status
    assert search.status in (Status.OPTIMAL, Status.INFEASIBLE)
    for r in (search, cp):
        if r.placements:
            verify(puzzle, r.placements)
    if puzzle.goal == "maximize":
        value, _ = bruteforce.maximize(puzzle)
        assert search.objective == cp.objective == value
        return
    expected = bruteforce.solve_all(puzzle)
    assert (cp.status is Status.OPTIMAL) == bool(expected)
    counted = cpsat.solve(puzzle, count=True, workers=1)
    searched = search_solve(puzzle, count=True)
    assert counted.solution_count == searched.solution_count == len(expected)
    assert {frozenset(s) for s in counted.solutions} == expected
    assert disagreement(puzzle, counted, searched) is None


@pytest.mark.parametrize("encoding", ["levels", "cuts"])
@pytest.mark.parametrize("seed", SEEDS[:25])
def test_both_encodings_give_the_same_answer(seed, encoding):
    puzzle = _small(seed)
    reference = search_solve(puzzle, time_limit=60)
    result = cpsat.solve(puzzle, encoding=encoding, workers=1)
    assert result.status is reference.status
    assert result.objective == reference.objective
    if result.placements:
        verify(puzzle, result.placements)


@pytest.mark.parametrize("name", ["stars-8x8", "avoid-x-7x7", "connect-8x8", "fill-6x6-impossible", "solo-21"])
def test_bundled_puzzles_agree(name):
    puzzle = load_puzzle(PUZZLES / f"{name}.toml")
    check = solve_both(puzzle, time_limit=120)
    assert check.disagreement is None
    assert check.results["cpsat"].status is check.results["search"].status


def test_cpsat_solves_solo21_from_scratch():
    puzzle = load_puzzle(PUZZLES / "solo-21.toml")
    result = cpsat.solve(puzzle, time_limit=120)
    assert result.status is Status.OPTIMAL
    assert len(verify(puzzle, result.placements).order) == 21


def test_hint_is_complete_and_solo84_is_confirmed_from_it():
    puzzle = load_puzzle(PUZZLES / "solo-84.toml")
    found = search_solve(puzzle, time_limit=60, mode="symmetric")
    assert found.status is Status.OPTIMAL
    for encoding in ("cuts", "levels"):
        m = cpsat.build(puzzle, encoding)
        cpsat.add_hint(m, found.placements)
        hinted = {v for v in m.model.proto.solution_hint.vars}
        assert hinted == set(range(len(m.model.proto.variables))), "every variable has a hint"
    result = cpsat.solve(puzzle, time_limit=120, hint=found.placements)
    assert result.status is Status.OPTIMAL
    verify(puzzle, result.placements)


def test_counts_agree_with_the_search_engine():
    pieces = tuple(sorted(piece_by_name(n).index for n in ("V3", "I3", "2")))
    puzzle = Puzzle(Board.rectangle(4, 6), (0, 1, 2), {c: pieces for c in range(3)}, connect="touch", goal="count")
    counted = cpsat.solve(puzzle, count=True)
    searched = search_solve(puzzle, count=True)
    assert counted.stats["count_complete"] and searched.stats["count_complete"]
    assert counted.solution_count == searched.solution_count == 24


def test_a_time_limit_is_unknown_not_infeasible():
    result = cpsat.solve(load_puzzle(PUZZLES / "solo-84.toml"), time_limit=1.0)
    assert result.status is Status.UNKNOWN


def test_bad_parameters_are_reported():
    with pytest.raises(cpsat.CpsatError, match="bad CP-SAT parameters 'no_such_field:3'"):
        cpsat.solve(load_puzzle(PUZZLES / "stars-8x8.toml"), params="no_such_field:3")


def test_disagreements_are_named():
    puzzle = load_puzzle(PUZZLES / "stars-8x8.toml")
    found = SolveResult(Status.OPTIMAL, "search", placements=[(0, 1)])
    refuted = SolveResult(Status.INFEASIBLE, "cpsat")
    assert disagreement(puzzle, found, refuted) == "cpsat says INFEASIBLE but search found a solution"
    a = SolveResult(Status.OPTIMAL, "search", solution_count=3, stats={"count_complete": True})
    b = SolveResult(Status.OPTIMAL, "cpsat", solution_count=4, stats={"count_complete": True})
    assert disagreement(puzzle, a, b) == "solution count 3 (search) differs from 4 (cpsat)"
