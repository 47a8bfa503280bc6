"""How two engines' answers are read together: a disagreement, a final
answer both reached, or no contradiction because one did not finish."""

from __future__ import annotations

from solver.formats.puzzle_file import load_puzzle
from solver.puzzle.crosscheck import agreement, both_final
from solver.puzzle.result import SolveResult, Status
from tests.util import ROOT

PUZZLE = load_puzzle(ROOT / "puzzles" / "stars-8x8.toml")


def _result(engine: str, status: Status, **kw) -> SolveResult:
    return SolveResult(status, engine, **kw)


def test_both_proven_is_agreement():
    a, b = _result("search", Status.INFEASIBLE), _result("cpsat", Status.INFEASIBLE)
    assert both_final(a, b)
    assert agreement(PUZZLE, a, b) == "The engines agree."


def test_one_engine_unfinished_is_no_contradiction_only():
    a, b = _result("search", Status.INFEASIBLE), _result("cpsat", Status.UNKNOWN)
    assert not both_final(a, b)
    assert agreement(PUZZLE, a, b) == "No contradiction, but only search reached a final answer (cpsat UNKNOWN)."
    assert agreement(PUZZLE, b, a) == "No contradiction, but only search reached a final answer (cpsat UNKNOWN)."


def test_neither_finished():
    a, b = _result("search", Status.FEASIBLE), _result("cpsat", Status.UNKNOWN)
    assert agreement(PUZZLE, a, b) == ("No contradiction, but neither engine reached a final answer "
                                       "(search FEASIBLE, cpsat UNKNOWN).")


def test_an_incomplete_count_is_not_final():
    a = _result("search", Status.OPTIMAL, solution_count=3, count_complete=True)
    b = _result("cpsat", Status.OPTIMAL, solution_count=2, count_complete=False)
    assert not both_final(a, b)
    assert agreement(PUZZLE, a, b) == ("No contradiction, but only search reached a final answer "
                                       "(cpsat OPTIMAL with the count not complete).")


def test_contradiction_wins_over_everything():
    a, b = _result("search", Status.OPTIMAL), _result("cpsat", Status.INFEASIBLE)
    assert agreement(PUZZLE, a, b) == "DISAGREEMENT: search says OPTIMAL, cpsat says INFEASIBLE"
