"""The edge budget (solver.puzzle.edges): it never rules out a puzzle that
has a solution (checked against the search engine's exhaustive search
with the budget switched off, on small boards of squares and triangles,
one colour and two), both engines agree wherever it decides, and it
proves one colour's 21 pieces too many for a 10 x 10 board at once. The
spare squares' sides (one colour): the same total in every packing,
counted on the packings themselves, and bounded by both engines as they
search, which proves 11 x 12 too small."""

from __future__ import annotations

import random

import pytest

from solver.core.geometry import Board, mask_of, squares_of
from solver.core.pieces import CLASSIC_PIECES, TRIGON_PIECES
from solver.packing import driver
from solver.packing.exhaustive import Exhaustive
from solver.puzzle.definition import Connect, Goal, Puzzle
from solver.puzzle.edges import capacity, degrees, leaning, lightest, no_room, sides, spare_sides
from solver.solving import solve


def one_colour(width: int, height: int, pieces=CLASSIC_PIECES) -> Puzzle:
    starts = (frozenset([0]), frozenset(), frozenset(), frozenset())
    return Puzzle(Board(width, height, frozenset(), starts), (0,), {0: tuple(pieces)}, name=f"one-{width}x{height}")


def has_solution(puzzle: Puzzle) -> bool:
    return any(s is not None for s in Exhaustive(puzzle).solutions())


def small_puzzles():
    rng = random.Random(4)
    for n in range(60):
        w, h = rng.randint(3, 6), rng.randint(3, 7)
        colours = (0,) if n % 3 else (0, 2)
        starts = [frozenset()] * 4
        starts[0] = frozenset([0])
        if 2 in colours:
            starts[2] = frozenset([w * h - 1])
        blocked = frozenset(rng.sample(range(1, w * h - 1), rng.randint(0, 3)))
        board = Board(w, h, blocked, tuple(starts))
        pieces = {c: tuple(sorted(rng.sample(CLASSIC_PIECES, rng.randint(2, 5)))) for c in colours}
        connect = [Connect.GAME, Connect.TOUCH, Connect.FREE][n % 3]
        yield Puzzle(board, colours, pieces, connect=connect, name=f"small-{n}")


def test_the_budget_never_rules_out_a_puzzle_with_a_solution():
    ruled_out = 0
    for puzzle in small_puzzles():
        if no_room(puzzle) is not None:
            ruled_out += 1
            assert not has_solution(puzzle), puzzle.name
    assert ruled_out >= 10


def test_on_triangles_too():
    rng = random.Random(6)
    ruled_out = 0
    for n in range(30):
        board = Board.hexagon(2 + n % 2)
        board = Board(board.width, board.height, board.blocked, (frozenset(),) * 4, board.grid, board.parity,
                      board.outside)
        puzzle = Puzzle(board, (0,), {0: tuple(rng.sample(TRIGON_PIECES, rng.randint(2, 6)))}, name=f"tri-{n}")
        if no_room(puzzle) is not None:
            ruled_out += 1
            assert not has_solution(puzzle), puzzle.name
    assert ruled_out >= 3


def test_both_engines_agree_where_the_budget_decides():
    for puzzle in list(small_puzzles())[:30]:
        search = solve(puzzle, "search", time_limit=30)
        cpsat = solve(puzzle, "cpsat", time_limit=30)
        assert search.status == cpsat.status, puzzle.name
        if no_room(puzzle) is not None:
            assert search.status.value == "INFEASIBLE" and search.method == "edge budget"


def test_twenty_one_pieces_are_too_many_for_ten_by_ten():
    puzzle = one_colour(10, 10)
    deg = degrees(puzzle.board)
    assert (leaning(puzzle.table, puzzle.pieces[0], puzzle.masks.free, deg), capacity(puzzle.board, deg)) == (246, 180)
    assert lightest(puzzle.table, puzzle.pieces[0], puzzle.masks.free, deg) == 246
    for engine in ("search", "cpsat"):
        assert solve(puzzle, engine, time_limit=60).status.value == "INFEASIBLE"


@pytest.mark.parametrize("size", [(3, 51), (6, 26)])
def test_boards_the_pieces_fit_are_not_ruled_out(size):
    puzzle = one_colour(*size)
    assert no_room(puzzle) is None
    result = solve(puzzle, "search", time_limit=60)
    assert result.status.value == "OPTIMAL" and len(result.placements) == 21


def test_without_the_budget_the_exhaustive_search_runs(monkeypatch):
    """The budget is what decides 10 x 10 at once (the search alone does not, in seconds)."""
    monkeypatch.setattr(driver, "no_room", lambda puzzle: None)
    assert driver._complete_search(one_colour(10, 10)).name != "edge budget"


@pytest.mark.parametrize("size", [(4, 28), (3, 39)])
def test_cp_sat_proves_the_budget_by_propagation(size):
    """Boards where a single weighted sum over the placements left CP-SAT
    searching for over 10 s: the pieces' weights as integers, and the sides
    leaned on as one, prove them at once."""
    result = solve(one_colour(*size), "cpsat", time_limit=60)
    assert result.status.value == "INFEASIBLE"


def test_a_piece_with_no_place_rules_the_puzzle_out_at_once():
    """Two colours on 2 x 89: 178 squares for 178, but the X has no place
    (the search engine searched on for its whole limit before)."""
    starts = (frozenset([0]), frozenset(), frozenset([177]), frozenset())
    puzzle = Puzzle(Board(2, 89, frozenset(), starts), (0, 2), {0: CLASSIC_PIECES, 2: CLASSIC_PIECES})
    assert no_room(puzzle) == 0
    result = solve(puzzle, "search", time_limit=60)
    assert (result.status.value, result.method) == ("INFEASIBLE", "edge budget")
    assert solve(puzzle, "cpsat", time_limit=60).status.value == "INFEASIBLE"


def test_the_smallest_one_colour_packing_in_the_docs():
    """docs/smallest-one-colour.json: all 21 pieces on 3 x 49 by the rules."""
    from solver.formats.solution_file import read_solution
    from solver.puzzle.verify import verify
    from tests.util import ROOT

    puzzle = one_colour(3, 49)
    placements, partial = read_solution(puzzle, ROOT / "docs" / "smallest-one-colour.json")
    assert not partial and len(verify(puzzle, placements).order) == 21


def spare_side_count(puzzle: Puzzle, placements) -> int:
    """Counted on a packing: the edges between two of its spare squares
    plus their sides facing out of the free region."""
    b, t, free = puzzle.board, puzzle.table, puzzle.masks.free
    spare = free & ~mask_of(s for _, p in placements for s in t.squares[p])
    n = 0
    for s in squares_of(spare):
        near = b.edge_neighbours(1 << s)
        n += sides(b) - (near & free).bit_count() + (near & spare & ~((2 << s) - 1)).bit_count()
    return n


def test_the_spare_squares_sides_come_to_the_same_total_in_every_packing():
    """Every packing the brute force finds, on one-colour puzzles of every
    connection rule, with blocked squares and set-ups: the count equals
    spare_sides, which is None for two colours and for a maximize goal."""
    from tests.bruteforce import solve_all
    from tests.puzzlegen import random_puzzle

    puzzles = [p for p in small_puzzles() if len(p.colors) == 1]
    puzzles += [p for seed in range(200) if len((p := random_puzzle(seed, max_pieces=4, goals=("place-all",))).colors) == 1]
    packings = 0
    for puzzle in puzzles:
        total = spare_sides(puzzle)
        for packing in solve_all(puzzle):
            packings += 1
            assert spare_side_count(puzzle, packing) == total, puzzle.name
    assert packings >= 1000
    assert spare_sides(next(p for p in small_puzzles() if len(p.colors) == 2)) is None
    assert spare_sides(random_puzzle(1, goals=("maximize",)).with_goal(Goal.MAXIMIZE)) is None


def test_the_spare_squares_sides_on_triangles_too():
    rng = random.Random(6)
    packings = 0
    for n in range(30):
        board = Board.hexagon(2)
        board = Board(board.width, board.height, board.blocked, (frozenset(),) * 4, board.grid, board.parity,
                      board.outside)
        puzzle = Puzzle(board, (0,), {0: tuple(rng.sample(TRIGON_PIECES, rng.randint(2, 4)))}, connect=Connect.FREE,
                        name=f"tri-{n}")
        for packing in Exhaustive(puzzle).solutions():
            if packing is not None:
                packings += 1
                assert spare_side_count(puzzle, packing) == spare_sides(puzzle), puzzle.name
    assert packings >= 50


def test_eleven_by_twelve_is_too_small_by_the_spare_squares_sides():
    """132 squares: the edge budget allows it (1 edge to spare), the spare
    squares' sides leave 1 for 43 spare squares, and both engines prove it
    impossible bounding them as they search."""
    puzzle = one_colour(11, 12)
    assert no_room(puzzle) is None and spare_sides(puzzle) == 1
    for engine in ("search", "cpsat"):
        assert solve(puzzle, engine, time_limit=60).status.value == "INFEASIBLE"


@pytest.mark.parametrize("names, size", [("1 2 I3 V3 L4 T4", (4, 7)), ("2 V3 L4 P Y", (5, 6))])
def test_cp_sat_with_the_spare_squares_sides_counts_every_packing(names, size):
    """Boards where the constraint goes into CP-SAT's model (the total
    below the spare squares): it counts the packings the search engine
    counts (19 and 33)."""
    from tests.puzzle.test_small_sweep import boards

    puzzle = next(p for p in boards(names) if (p.board.width, p.board.height) == size)
    assert 0 <= spare_sides(puzzle) < puzzle.spare_squares
    search = solve(puzzle, "search", count=True, time_limit=60)
    cpsat = solve(puzzle, "cpsat", count=True, time_limit=60)
    assert search.solution_count == cpsat.solution_count > 0
