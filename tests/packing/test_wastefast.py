"""The compiled waste-budget search: on small random place-all
puzzles it finds exactly the packings a brute force finds, each once,
whatever the seed and however the search is cut into chunks; its
half-turn mode finds exactly the symmetric ones; bounding the spare
squares' sides (one colour) loses no packing; every packing and every
best partial passes the verifier."""

from __future__ import annotations

import pytest

from solver.formats.puzzle_file import load_puzzle
from solver.packing import wastefast, wastekernel
from solver.packing.waste import WasteSearch
from solver.packing.wastefast import CompiledWasteSearch
from solver.puzzle.verify import verify
from tests.bruteforce import solve_all
from tests.puzzlegen import random_puzzle
from tests.util import ROOT

PUZZLES = ROOT / "puzzles"
# game, touch and free rules, set-ups, stars, same-shape and monomino-last rules, 1 to 1088 packings
SEEDS = [4, 5, 13, 16, 17, 24, 25, 27, 31, 32, 39, 41, 45, 52, 53, 60, 68]


def _packings(search) -> list[frozenset]:
    got = [frozenset(s) for s in search.solutions() if s is not None]
    assert len(set(got)) == len(got)  # each packing once
    return got


def _one_colour_puzzles(heights: tuple[int, ...]) -> list:
    """The one-colour puzzles among 300 random ones, and seven pieces (22
    squares) on 3 x h boards."""
    from solver.core.geometry import Board
    from solver.core.pieces import piece_by_name
    from solver.puzzle.definition import Puzzle

    randoms = (random_puzzle(seed, max_pieces=5, goals=("place-all",)) for seed in range(300))
    puzzles = [p for p in randoms if len(p.colors) == 1]
    starts = (frozenset([0]), frozenset(), frozenset(), frozenset())
    pieces = tuple(sorted(piece_by_name(n).index for n in ("1", "2", "I3", "V3", "L4", "T4", "P")))
    return puzzles + [Puzzle(Board(3, h, frozenset(), starts), (0,), {0: pieces}, name=f"3x{h}") for h in heights]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_compiled_search_finds_exactly_the_brute_force_packings(seed):
    puzzle = random_puzzle(seed, max_pieces=5, goals=("place-all",))
    want = solve_all(puzzle)
    assert want  # the seeds are puzzles with packings
    search = CompiledWasteSearch(puzzle)
    got = _packings(search)
    for s in got:
        verify(puzzle, list(s))
    assert set(got) == want and search.finished


@pytest.mark.parametrize("seed", [4, 17, 53])
def test_seeds_options_and_chunks_change_the_order_not_the_packings(seed):
    puzzle = random_puzzle(seed, max_pieces=5, goals=("place-all",))
    want = set(_packings(WasteSearch(puzzle)))  # the plain-Python search
    assert set(_packings(CompiledWasteSearch(puzzle, seed=seed, chunk=7))) == want
    assert set(_packings(CompiledWasteSearch(puzzle, seed=seed + 1, options=0))) == want


def test_bounding_the_spare_squares_sides_loses_no_packing():
    """One-colour puzzles (random, and seven pieces on 3 x 12 and 3 x 13,
    thousands of packings): the same packings with the bound and without,
    in fewer nodes where it binds."""
    puzzles = _one_colour_puzzles((12, 13))
    without = wastekernel.ONLY_ONE | wastekernel.FIT
    packings = fewer = 0
    for puzzle in puzzles:
        bounded, plain = CompiledWasteSearch(puzzle), CompiledWasteSearch(puzzle, options=without)
        got = set(_packings(bounded))
        assert got == set(_packings(plain)), puzzle.name
        packings += len(got)
        fewer += bounded.nodes < plain.nodes
    assert packings >= 300 and fewer >= 10


def test_the_best_partial_on_a_frontier_board_is_a_legal_partial_packing():
    puzzle = load_puzzle(PUZZLES / "frontier-2c-13x14.toml")
    search = CompiledWasteSearch(puzzle, seed=2)
    assert search.step(20_000) is None and search.nodes == 20_000
    partial = search.best_partial()
    assert 10 <= len(partial) <= search.deepest
    verify(puzzle, partial, partial=True)  # legal, connected, nothing overlapping


def test_spread_out_spare_squares_still_give_verified_packings():
    puzzle = random_puzzle(4, max_pieces=5, goals=("place-all",))
    got = _packings(CompiledWasteSearch(puzzle, spread=1.0))
    assert got and set(got) <= solve_all(puzzle)


def test_the_half_turn_mode_finds_exactly_the_symmetric_packings():
    from solver.formats.puzzle_file import parse_puzzle
    from solver.puzzle.symmetry import half_turn

    puzzle = parse_puzzle("""
name = "two-5x4"
[board]
size = "5x4"
starts = {blue = "a4", red = "e1"}
[pieces]
blue = "1 2 I3 V3"
red = "1 2 I3 V3"
[rules]
connect = "game"
""")
    pmap, cmap = half_turn(puzzle)
    every = set(_packings(CompiledWasteSearch(puzzle)))
    assert len(every) == 24  # all packings (the same search, checked against the brute force above)
    want = {s for s in every if all((cmap[c], pmap[p]) in s for c, p in s)}
    got = set(_packings(CompiledWasteSearch(puzzle, symmetric=True)))
    assert got == want and len(want) == 4


def test_the_memo_of_dead_frontiers_loses_no_packing(monkeypatch):
    """One-colour puzzles (random ones with set-ups, blocked squares and
    stars, and seven pieces on 3 x 12, hundreds of packings): the same
    packings with the memo and without, the memo consulted, and a board
    no packing fits (3 x 11) proven so both ways; the memo's table
    starting at 16 entries and growing to 1024 on the way (the search
    cut into chunks of 997 nodes, the table grows between them)."""
    monkeypatch.setattr(wastefast, "MEMO_START_BITS", 4)
    puzzles = _one_colour_puzzles((11, 12))
    packings = memoised = hits = grown = 0
    for puzzle in puzzles:
        memo, plain = CompiledWasteSearch(puzzle, chunk=997, memo=True, memo_bits=10), CompiledWasteSearch(puzzle)
        got = set(_packings(memo))
        assert got == set(_packings(plain)) and memo.finished, puzzle.name
        for s in got:
            verify(puzzle, list(s))
        packings += len(got)
        memoised += bool(memo.options & wastekernel.MEMO)
        hits += int(memo.ctl[wastekernel.C_MEMO_HITS])
        if puzzle.name == "3x11":
            assert not got
        grown += len(memo.memo_table) > 16
    assert packings >= 300 and memoised >= 20 and hits >= 1000 and grown >= 5
