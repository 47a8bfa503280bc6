"""The CP-SAT engine, and its cross-check against the search engine."""

import math

import pytest

from solver import cpsat
from solver.core.geometry import Board
from solver.core.pieces import piece_by_name
from solver.formats.puzzle_file import load_puzzle
from solver.puzzle.crosscheck import disagreement
from solver.puzzle.definition import Puzzle
from solver.puzzle.result import SolveResult, Status
from solver.puzzle.verify import verify
from solver.solving import solve
from tests import bruteforce
from tests.puzzlegen import random_puzzle
from tests.util import ROOT

PUZZLES = ROOT / "puzzles"


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
    both = solve(puzzle, "both", time_limit=60, workers=1)
    assert both.disagreement is None
    search, cp = both.engines["search"], both.engines["cpsat"]
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
    counted = solve(puzzle, "cpsat", count=True, workers=1)
    searched = solve(puzzle, count=True)
    assert counted.solution_count == searched.solution_count == len(expected)
    assert counted.count_classes == searched.count_classes
    assert {frozenset(s) for s in counted.solutions} == expected
    assert disagreement(puzzle, counted, searched) is None


@pytest.mark.parametrize("encoding", ["levels", "cuts"])
@pytest.mark.parametrize("seed", SEEDS[:25])
def test_both_encodings_give_the_same_answer(seed, encoding):
    puzzle = _small(seed)
    reference = solve(puzzle, time_limit=60)
    result = solve(puzzle, "cpsat", encoding=encoding, workers=1)
    assert result.status is reference.status
    assert result.objective == reference.objective
    if result.placements:
        verify(puzzle, result.placements)


@pytest.mark.parametrize("name", ["stars-8x8", "avoid-x-7x7", "connect-8x8", "fill-6x6-impossible", "solo-21"])
def test_bundled_puzzles_agree(name):
    puzzle = load_puzzle(PUZZLES / f"{name}.toml")
    both = solve(puzzle, "both", time_limit=120)
    assert both.disagreement is None
    assert both.engines["cpsat"].status is both.engines["search"].status


def test_hint_where_a_start_square_holds_a_set_up_piece():
    """Generated puzzle 1088 (touch rule, a colour's start square under its
    own set-up piece) once crashed the hint; both engines agree on it."""
    puzzle = random_puzzle(1088, max_pieces=3)
    both = solve(puzzle, "both", time_limit=60, workers=1)
    assert both.disagreement is None and both.status.definitive
    for encoding in ("levels", "cuts"):
        m = cpsat.build(puzzle, encoding)
        if both.placements:
            cpsat.add_hint(m, both.placements)
            assert len(m.model.proto.solution_hint.vars) == len(m.model.proto.variables)


def test_cpsat_solves_solo21_from_scratch():
    puzzle = load_puzzle(PUZZLES / "solo-21.toml")
    result = solve(puzzle, "cpsat", time_limit=120)
    assert result.status is Status.OPTIMAL
    assert len(result.order) == 21 and verify(puzzle, result.order).order


@pytest.mark.slow
def test_hint_is_complete_and_solo84_is_confirmed_from_it():
    puzzle = load_puzzle(PUZZLES / "solo-84.toml")
    found = solve(puzzle, time_limit=60, mode="symmetric")
    assert found.status is Status.OPTIMAL
    for encoding in ("cuts", "levels"):
        m = cpsat.build(puzzle, encoding)
        cpsat.add_hint(m, found.placements)
        hinted = {v for v in m.model.proto.solution_hint.vars}
        assert hinted == set(range(len(m.model.proto.variables))), "every variable has a hint"
    result = solve(puzzle, "cpsat", time_limit=120, hint=found.placements)
    assert result.status is Status.OPTIMAL
    verify(puzzle, result.placements)


def test_counts_agree_with_the_search_engine():
    pieces = tuple(sorted(piece_by_name(n).index for n in ("V3", "I3", "2")))
    puzzle = Puzzle(Board.rectangle(4, 6), (0, 1, 2), {c: pieces for c in range(3)}, connect="touch", goal="count")
    counted = solve(puzzle, "cpsat", count=True)
    searched = solve(puzzle, count=True)
    assert counted.count_complete and searched.count_complete
    assert counted.solution_count == searched.solution_count == 24
    assert counted.count_classes == searched.count_classes


def test_a_time_limit_never_says_infeasible():
    """However fast the machine, a solve cut short never claims impossibility
    (solo-84 has solutions)."""
    result = solve(load_puzzle(PUZZLES / "solo-84.toml"), "cpsat", time_limit=1.0)
    assert result.status is not Status.INFEASIBLE
    if result.placements:
        assert len(result.order) == 84


def test_bad_parameters_are_reported():
    with pytest.raises(cpsat.CpsatError, match="bad CP-SAT parameters 'no_such_field:3'"):
        cpsat.solve(load_puzzle(PUZZLES / "stars-8x8.toml"), params="no_such_field:3")


def test_disagreements_are_named():
    puzzle = load_puzzle(PUZZLES / "stars-8x8.toml")
    found = SolveResult(Status.OPTIMAL, "search", placements=[(0, 1)])
    refuted = SolveResult(Status.INFEASIBLE, "cpsat")
    assert disagreement(puzzle, found, refuted) == "cpsat says INFEASIBLE but search found a solution"
    a = SolveResult(Status.OPTIMAL, "search", solution_count=3, count_complete=True)
    b = SolveResult(Status.OPTIMAL, "cpsat", solution_count=4, count_complete=True)
    assert disagreement(puzzle, a, b) == "solution count 3 (search) differs from 4 (cpsat)"
