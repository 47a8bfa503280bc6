"""The symmetric CP-SAT model (``build(..., symmetric=True)``): on small
boards its solutions are exactly the symmetric ones among all the search
engine counts, under the quarter turn (colours shifted) and the half turn
(opposite colours swapped), and the half-turn waste search finds the same
ones; where no symmetric solution exists it says UNKNOWN, never that the
puzzle has none."""

from __future__ import annotations

import pytest

from solver import cpsat
from solver.formats.puzzle_file import parse_puzzle
from solver.packing.wastefast import CompiledWasteSearch
from solver.puzzle.result import Status
from solver.puzzle.symmetry import turn_symmetry
from solver.puzzle.verify import verify
from solver.solving import solve
from solver.cli import main
from tests.util import ROOT

FOUR = ("blue", "yellow", "red", "green")


def _puzzle(size: str, pieces: str, colors: tuple[str, ...] = FOUR) -> object:
    """All colours with ``pieces`` under the game rule, from the corners
    (four colours) or from opposite corners (blue top left, red bottom right)."""
    width, height = size.split("x")
    starts = '"corners"' if len(colors) == 4 else f'{{blue = "a{height}", red = "{"abcdefgh"[int(width) - 1]}1"}}'
    hands = "\n".join(f'{c} = "{pieces}"' for c in colors)
    return parse_puzzle(f"""
name = "sym-{size}"
[board]
size = "{size}"
starts = {starts}
[pieces]
{hands}
[rules]
connect = "game"
""")


def _symmetric(puzzle, packings: set[frozenset]) -> set[frozenset]:
    pmap, cmap = turn_symmetry(puzzle)
    return {s for s in packings if all((cmap[c], pmap[p]) in s for c, p in s)}


CASES = [  # (board, pieces, colours, turn)
    ("5x5", "1 2 V3", FOUR, "quarter"),
    ("6x6", "2 V3 L4", FOUR, "quarter"),
    ("4x4", "1 V3", FOUR, "quarter"),
    ("5x4", "1 2", FOUR, "half"),
    ("5x3", "1 2 V3", ("blue", "red"), "half"),
    ("5x4", "1 2 I3 V3", ("blue", "red"), "half"),
]


@pytest.mark.parametrize("size,pieces,colors,turn", CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_the_symmetric_model_counts_exactly_the_symmetric_solutions(size, pieces, colors, turn):
    puzzle = _puzzle(size, pieces, colors)
    every = solve(puzzle, "search", count=True, time_limit=60)
    assert every.count_complete
    want = _symmetric(puzzle, {frozenset(s) for s in every.solutions})
    assert 0 < len(want) < len(every.solutions)  # a real selection
    counted = cpsat.solve(puzzle, 60, count=True, symmetric=True)
    assert counted.count_complete and f"{turn}-turn symmetric" in counted.method
    got = {frozenset(s) for s in counted.solutions}
    assert got == want and counted.solution_count == len(want)
    for s in got:
        verify(puzzle, list(s))


def test_the_half_turn_model_and_the_half_turn_waste_search_find_the_same_packings():
    puzzle = _puzzle("6x5", "1 2 V3 T4", ("blue", "red"))
    searched = {frozenset(s) for s in CompiledWasteSearch(puzzle, symmetric=True).solutions() if s is not None}
    counted = cpsat.solve(puzzle, 60, count=True, symmetric=True)
    assert counted.count_complete
    assert {frozenset(s) for s in counted.solutions} == searched and len(searched) == 352


@pytest.mark.parametrize("size,pieces,colors", [("4x4", "1 I3", FOUR), ("5x3", "I3 L4", ("blue", "red"))])
def test_no_symmetric_solution_is_unknown_not_impossible(size, pieces, colors):
    puzzle = _puzzle(size, pieces, colors)
    general = cpsat.solve(puzzle, 30)
    assert general.status is Status.OPTIMAL  # the puzzle has solutions, none of them symmetric
    assert not _symmetric(puzzle, {frozenset(s) for s in solve(puzzle, "search", count=True).solutions})
    result = cpsat.solve(puzzle, 30, symmetric=True)
    assert result.status is Status.UNKNOWN and not result.placements
    assert result.method.endswith("symmetric (none exists; other solutions may)")


def test_the_symmetric_mode_reaches_the_cpsat_engine():
    puzzle = _puzzle("5x4", "1 2 I3 V3", ("blue", "red"))
    pmap, cmap = turn_symmetry(puzzle)
    result = solve(puzzle, "cpsat", mode="symmetric", time_limit=30)
    assert result.status is Status.OPTIMAL and "half-turn symmetric" in result.method
    assert all((cmap[c], pmap[p]) in result.placements for c, p in result.placements)


def test_the_symmetric_model_is_refused_where_no_turn_applies(capsys):
    code = main(["solve", str(ROOT / "puzzles" / "solo-21.toml"), "--engine", "cpsat", "--mode", "symmetric"])
    assert code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "blokus: error: the symmetric model does not apply to solo-21: no quarter turn (not all four colours "
        "take part) and no half turn (the start squares do not turn into each other's)")
