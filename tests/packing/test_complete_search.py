"""The search engine's complete search on place-all puzzles with spare
squares: the Python exhaustive search for its first nodes, then the
compiled waste search from the start. Either way it finds exactly the
brute force's packings, and decides impossible puzzles the Python search
alone left open for minutes."""

from __future__ import annotations

import pytest

from solver.core.geometry import Board
from solver.core.pieces import piece_by_name
from solver.packing import driver
from solver.puzzle.definition import Puzzle
from solver.solving import solve
from tests.bruteforce import solve_all
from tests.puzzlegen import random_puzzle


def _spare_puzzles(n: int) -> list[Puzzle]:
    found = []
    seed = 0
    while len(found) < n:
        puzzle = random_puzzle(seed, max_pieces=4, goals=("place-all",))
        seed += 1
        if puzzle.spare_squares > 0:
            found.append(puzzle)
    return found


@pytest.mark.parametrize("quick", [0, 10**9], ids=["compiled", "python"])
def test_both_halves_find_exactly_the_brute_force_packings(quick, monkeypatch):
    monkeypatch.setattr(driver, "QUICK_NODES", quick)
    packed = impossible = 0
    names = set()
    for puzzle in _spare_puzzles(40):
        search = driver._complete_search(puzzle)
        if isinstance(search, driver.NoRoom):
            continue
        got = [frozenset(s) for s in search.solutions() if s is not None]
        want = solve_all(puzzle)
        assert len(got) == len(set(got)) and set(got) == want, puzzle.name
        names.add(search.name)
        packed += bool(want)
        impossible += not want
    assert packed >= 5 and impossible >= 5
    assert "compiled waste search" in names if quick == 0 else names == {"exhaustive"}


def test_a_tight_two_colour_board_is_decided():
    """7 x 8, two colours with 2, L5, P, V5, X and Z5 each: 54 of 56
    squares. The Python search alone and CP-SAT were still searching after
    90 s; the compiled waste search proves it impossible."""
    pieces = tuple(sorted(piece_by_name(n).index for n in ("2", "L5", "P", "V5", "X", "Z5")))
    starts = (frozenset([0]), frozenset(), frozenset([55]), frozenset())
    puzzle = Puzzle(Board(7, 8, frozenset(), starts), (0, 2), {0: pieces, 2: pieces}, name="tight-7x8")
    result = solve(puzzle, "search", time_limit=60)
    assert (result.status.value, result.method) == ("INFEASIBLE", "compiled waste search")


def test_looking_for_one_packing_on_a_tight_one_colour_board_uses_the_memo(monkeypatch):
    """With the memo of dead frontiers (one colour, at most MEMO_SPARE of
    the squares spare, one packing wanted) the complete search still
    finds a packing exactly where the compiled search without it finds
    any (itself checked against the brute force in test_wastefast.py);
    counting never uses it."""
    from solver.packing import wastekernel
    from solver.packing.wastefast import CompiledWasteSearch

    monkeypatch.setattr(driver, "QUICK_NODES", 0)
    starts = (frozenset([0]), frozenset(), frozenset(), frozenset())
    pieces = tuple(sorted(piece_by_name(n).index for n in ("1", "2", "I3", "V3", "L4", "T4", "P")))
    strips = [Puzzle(Board(w, h, frozenset(), starts), (0,), {0: pieces}, name=f"{w}x{h}")
              for w, h in ((3, 10), (3, 11), (3, 12), (4, 8), (4, 9), (5, 6), (5, 7))]
    randoms = [random_puzzle(seed, max_pieces=5, goals=("place-all",)) for seed in range(800)]
    packed = impossible = compiled = memoised = 0
    for puzzle in strips + randoms:
        if len(puzzle.colors) != 1 or not 0 < puzzle.spare_squares <= driver.MEMO_SPARE * puzzle.free_squares:
            continue
        search = driver._complete_search(puzzle, stop_after=1)
        if isinstance(search, driver.NoRoom):
            continue
        first = next((s for s in search.solutions() if s is not None), None)
        want = {frozenset(s) for s in CompiledWasteSearch(puzzle).solutions() if s is not None}
        assert (first is None) == (not want) and (first is None or frozenset(first) in want), puzzle.name
        assert not driver._complete_search(puzzle).memo
        if search.name == "compiled waste search":
            compiled += 1
            memoised += bool(search.search.options & wastekernel.MEMO)
        packed += bool(want)
        impossible += not want
    assert packed >= 5 and impossible >= 5 and memoised == compiled >= 5
