"""The window count (solver.puzzle.windows): on every packing found (by
the brute force, or by the search engine without the count), its spare squares' weights and crowded windows come to
exactly 4 x spare - 2 x windows + the pieces' realised surplus, within
the slack, and every six-square group holds a spare square; the bound
never rules out a puzzle that has a packing; both engines search with it
and lose no packing; and it decides rectangles for one colour's 21
pieces that no search had decided."""

from __future__ import annotations

import functools
import random
from dataclasses import replace

import pytest

from solver.core.geometry import Board, mask_of, squares_of
from solver.core.pieces import CLASSIC_PIECES, PIECE_SIZES, TRIGON_PIECES, piece_by_name
from solver.packing import wastekernel
from solver.packing.wastefast import CompiledWasteSearch
from solver.puzzle.definition import Connect, Goal, Puzzle
from solver.puzzle.windows import (
    border_ring,
    piece_excess,
    ring_spares,
    spare_groups,
    window_bound,
    window_count_binds,
    window_slack,
    window_weights,
    windows,
)
from solver.solving import solve
from tests.bruteforce import solve_all
from tests.puzzlegen import random_puzzle


def one_colour(width: int, height: int, pieces=CLASSIC_PIECES, blocked=frozenset(), connect=Connect.GAME) -> Puzzle:
    starts = (frozenset([0]), frozenset(), frozenset(), frozenset())
    return Puzzle(Board(width, height, frozenset(blocked), starts), (0,), {0: tuple(pieces)}, connect=connect,
                  name=f"one-{width}x{height}")


@functools.cache
def crowded_puzzles() -> tuple[tuple[Puzzle, frozenset, int], ...]:
    """One colour, 4 to 7 pieces, every board of a width from 3 to 6 whose
    slack is below its spare squares (where the count binds), each with
    its packings and the nodes the search engine spends on them without
    the count (the first 40 the count rules out, then only the others)."""
    rng = random.Random(5)
    without = wastekernel.ONLY_ONE | wastekernel.FIT | wastekernel.EDGES
    found, ruled_out = [], 0
    for n in range(200):
        pieces = tuple(sorted(rng.sample(CLASSIC_PIECES, rng.randint(4, 7))))
        area = sum(PIECE_SIZES[i] for i in pieces)
        width = rng.randint(3, 6)
        for height in range(max(width, -(-area // width)), 4 * area):
            puzzle = one_colour(width, height, pieces, connect=[Connect.GAME, Connect.TOUCH, Connect.FREE][n % 3])
            if window_slack(puzzle) >= puzzle.spare_squares:
                break
            if window_bound(puzzle) < 0:
                ruled_out += 1
                if ruled_out > 40:
                    continue
            search = CompiledWasteSearch(puzzle, options=without)
            packings = frozenset(frozenset(s) for s in search.solutions() if s is not None)
            found.append((puzzle, packings, search.nodes))
    return tuple(found)


def counted(puzzle: Puzzle, packing) -> tuple[int, int, bool]:
    """Counted on a packing: the spare squares' weights plus each window's
    spare squares beyond two; the surplus the pieces realise (each
    window's covered squares beyond two); whether every spare group
    holds the spare squares it must."""
    b, t, free = puzzle.board, puzzle.table, puzzle.masks.free
    spare = free & ~mask_of(s for _, p in packing for s in t.squares[p])
    wins = windows(b, free)
    weights = window_weights(b, free, wins)
    left = sum(weights.get(s, 0) for s in squares_of(spare))
    left += sum(max(0, sum(spare >> s & 1 for s in w) - 2) for w in wins)
    realised = sum(max(0, sum(not spare >> s & 1 for s in w) - 2) for w in wins)
    groups = all(sum(spare >> s & 1 for s in g) >= need for g, need, _ in spare_groups(puzzle))
    return left, realised, groups


def test_the_pieces_surplus_is_counted_window_by_window():
    surplus = {name: piece_excess(piece_by_name(name).index) for name in ("1", "I5", "V3", "O", "P", "X", "W")}
    assert surplus == {"1": 0, "I5": 0, "V3": 1, "O": 2, "P": 3, "X": 4, "W": 3}
    assert sum(piece_excess(i) for i in CLASSIC_PIECES) == 33


def test_the_count_is_exact_on_every_packing():
    """On every packing the brute force finds on small random puzzles,
    and on every packing of the crowded puzzles."""
    cases = [(p, solve_all(p)) for seed in range(50)
             if len((p := random_puzzle(seed, max_pieces=4, goals=("place-all",))).colors) == 1]
    cases += [(p, packings) for p, packings, _ in crowded_puzzles()]
    checked = 0
    for puzzle, packings in cases:
        slack = window_slack(puzzle)
        n = len(windows(puzzle.board, puzzle.masks.free))
        for packing in packings:
            checked += 1
            left, realised, groups = counted(puzzle, packing)
            assert left == 4 * puzzle.spare_squares - 2 * n + realised, puzzle.name
            assert left <= slack and groups, puzzle.name
    assert checked >= 450


def test_the_bound_never_rules_out_a_puzzle_with_a_packing():
    ruled_out = 0
    for puzzle, packings, _ in crowded_puzzles():
        if window_bound(puzzle) < 0:
            ruled_out += 1
            assert not packings, puzzle.name
    assert ruled_out >= 20


def test_the_border_ring_goes_once_round_a_whole_rectangle():
    board = one_colour(4, 3).board
    ring = border_ring(board, board.open_mask)
    assert ring == (0, 1, 2, 3, 7, 11, 10, 9, 8, 4)
    assert all(board.edge_neighbours(1 << ring[k - 1]) >> ring[k] & 1 for k in range(len(ring)))
    blocked = one_colour(4, 3, blocked={5}).board
    assert border_ring(blocked, blocked.open_mask & ~(1 << 5)) is None
    puzzle = one_colour(4, 3, blocked={5}, pieces=CLASSIC_PIECES[:3])
    assert all(need == 1 and len(g) == 6 for g, need, _ in spare_groups(puzzle))


def test_the_ring_asks_more_than_its_six_square_groups_would():
    """On many crowded puzzles the runs round the ring ask for more spare
    squares than its runs of six (the packings hold them: the count test)."""
    more = 0
    for puzzle, _, _ in crowded_puzzles():
        ring = border_ring(puzzle.board, puzzle.masks.free)
        assert ring is not None and ring_spares(puzzle, ring) >= len(ring) // 6
        more += ring_spares(puzzle, ring) > -(-len(ring) // 6)
    assert more >= 10


def test_the_engines_take_the_count_where_it_binds():
    """3 x 46: the border leaves a weight of 1 of the slack; duo-solo-21:
    101 of 107 spare squares, where it would only slow CP-SAT down."""
    from solver.formats.puzzle_file import load_puzzle
    from tests.util import ROOT

    assert window_count_binds(one_colour(3, 46)) and window_bound(one_colour(3, 46)) == 1
    duo = load_puzzle(ROOT / "puzzles" / "duo-solo-21.toml")
    assert window_bound(duo) >= 0 and not window_count_binds(duo)


def test_none_where_the_count_does_not_hold():
    two = next(p for seed in range(50) if len((p := random_puzzle(seed, goals=("place-all",))).colors) == 2)
    assert window_slack(two) is None
    assert window_slack(replace(one_colour(5, 6), goal=Goal.MAXIMIZE, target=(0,))) is None
    assert window_bound(Puzzle(Board.hexagon(2), (0,), {0: TRIGON_PIECES[:2]}, connect=Connect.FREE)) is None


def test_the_packed_rectangle_in_the_docs_keeps_the_bound():
    from solver.formats.solution_file import read_solution
    from tests.util import ROOT

    puzzle = one_colour(3, 49)
    placements, _ = read_solution(puzzle, ROOT / "docs" / "smallest-one-colour.json")
    left, realised, groups = counted(puzzle, placements)
    assert groups and left <= window_slack(puzzle) and window_bound(puzzle) >= 0


def test_the_compiled_search_with_the_count_loses_no_packing():
    """The waste kernel with WINDOWS and without: the same packings on the
    crowded puzzles, in fewer nodes where it binds."""
    packings = fewer = on = 0
    for puzzle, plain, plain_nodes in crowded_puzzles():
        bounded = CompiledWasteSearch(puzzle)
        if not bounded.options & wastekernel.WINDOWS:
            continue
        on += 1
        got = {frozenset(s) for s in bounded.solutions() if s is not None}
        assert got == plain, puzzle.name
        packings += len(got)
        fewer += bounded.nodes < plain_nodes
    assert on >= 20 and packings >= 50 and fewer >= 5


def test_cp_sat_with_the_count_counts_what_the_search_engine_counts():
    counted_puzzles = 0
    for puzzle, packings, _ in crowded_puzzles():
        if 0 < len(packings) <= 40:
            cpsat = solve(puzzle, "cpsat", count=True, time_limit=60)
            assert cpsat.solution_count == len(packings), puzzle.name
            counted_puzzles += 1
    assert counted_puzzles >= 3


@pytest.mark.parametrize("size", [(12, 12), (9, 16), (8, 18), (10, 14), (6, 24), (5, 28), (4, 35), (3, 45)])
def test_rectangles_ruled_out_by_the_count(size):
    """One colour's 21 pieces: the slack allows a few spare squares on the
    border, the runs the pieces can make round it need more; both engines
    answer at once (without the ring, 6 x 24 takes the search engine over a
    minute and CP-SAT more than 400 s)."""
    puzzle = one_colour(*size)
    assert window_slack(puzzle) >= 0 > window_bound(puzzle)
    search = solve(puzzle, "search", time_limit=60)
    assert (search.status.value, search.method) == ("INFEASIBLE", "window count")
    assert solve(puzzle, "cpsat", time_limit=60).status.value == "INFEASIBLE"

