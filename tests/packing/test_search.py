"""The search engine: bundled challenges, cross-checks against the
brute-force oracle, honest statuses."""

import itertools
import math
from dataclasses import replace

import pytest

from solver.core.geometry import CLASSIC_BOARD, Board
from solver.core.pieces import MONOMINO, piece_by_name
from solver.formats.puzzle_file import load_puzzle
from solver.packing.exhaustive import Exhaustive
from solver.puzzle.definition import Puzzle
from solver.puzzle.result import Status
from solver.puzzle.symmetry import count_classes, quarter_turn
from solver.puzzle.verify import verify
from solver.solving import solve
from tests import bruteforce
from tests.puzzlegen import random_puzzle
from tests.util import ROOT

PUZZLES = ROOT / "puzzles"
ALL = tuple(range(21))


@pytest.mark.parametrize("color", range(4))
def test_solo21_for_every_color(color):
    puzzle = Puzzle(CLASSIC_BOARD, (color,), {color: ALL}, name="solo-21")
    result = solve(puzzle, time_limit=30)
    assert result.status is Status.OPTIMAL
    assert len(result.placements) == 21
    order = verify(puzzle, result.placements).order
    assert len(order) == 21


@pytest.mark.slow
@pytest.mark.parametrize("name", ["solo-84", "solo-84-monomino-last"])
def test_solo84_symmetric_search(name):
    puzzle = load_puzzle(PUZZLES / f"{name}.toml")
    result = solve(puzzle, time_limit=120, mode="symmetric", seed=1)
    assert result.status is Status.OPTIMAL
    assert len(result.placements) == 84
    verified = verify(puzzle, result.placements)
    if puzzle.monomino_last:
        assert all(verified.monomino_last.values())
    # quarter-turn symmetric: yellow's squares are blue's turned by 90 degrees, ...
    t, b = puzzle.table, puzzle.board
    squares = {c: {s for col, p in result.placements if col == c for s in t.squares[p]} for c in range(4)}
    for c in range(3):
        assert {quarter_turn(b, s) for s in squares[c]} == squares[c + 1]


@pytest.mark.parametrize(
    "name,status",
    [("stars-8x8", Status.OPTIMAL), ("avoid-x-7x7", Status.OPTIMAL), ("connect-8x8", Status.OPTIMAL),
     ("fill-6x6-impossible", Status.INFEASIBLE), ("duo-solo-21", Status.OPTIMAL)],
)
def test_bundled_puzzles(name, status):
    puzzle = load_puzzle(PUZZLES / f"{name}.toml")
    result = solve(puzzle, time_limit=60)
    assert result.status is status
    if status is Status.OPTIMAL:
        verify(puzzle, result.placements)
        if puzzle.board.size <= 64:
            assert frozenset(result.placements) in bruteforce.solve_all(puzzle)
    else:
        assert result.placements == []


def test_tetromino_distinct_is_proven_impossible():
    result = solve(load_puzzle(PUZZLES / "tetromino-8x10-distinct.toml"), time_limit=120)
    assert result.status is Status.INFEASIBLE


def _small(seed):
    """Random puzzles the brute-force oracle finishes quickly."""
    puzzle = random_puzzle(seed, max_pieces=3)
    t = puzzle.table
    work = math.prod(len(t.by_piece[i]) + 1 for c in puzzle.colors for i in puzzle.pieces[c])
    return puzzle if work <= 300_000 else None


SEEDS = [s for s in range(160) if _small(s) is not None][:80]


@pytest.mark.parametrize("seed", SEEDS)
def test_exhaustive_search_agrees_with_brute_force(seed):
    puzzle = _small(seed)
    if puzzle.goal == "maximize":
        value, _ = bruteforce.maximize(puzzle)
        result = solve(puzzle, time_limit=60)
        if value is None:
            assert result.status is Status.INFEASIBLE
        else:
            assert result.status is Status.OPTIMAL and result.objective == value
            assert verify(puzzle, result.placements).objective == value
        return
    expected = bruteforce.solve_all(puzzle)
    search = Exhaustive(puzzle.with_goal("count"), symmetry=False)
    found = [frozenset(s) for s in search.solutions() if s is not None]
    assert len(found) == len(set(found)), "a solution was reached twice"
    assert set(found) == expected
    result = solve(puzzle, time_limit=60)
    assert result.status is (Status.OPTIMAL if expected else Status.INFEASIBLE)
    if expected:
        assert frozenset(result.placements) in expected


def _three_color_fill(connect):
    pieces = tuple(sorted(piece_by_name(n).index for n in ("V3", "I3", "2")))
    return Puzzle(Board.rectangle(4, 6), (0, 1, 2), {c: pieces for c in range(3)}, connect=connect, goal="count")


def test_canonical_colors_count_each_relabelling_once():
    puzzle = _three_color_fill("free")
    plain = [s for s in Exhaustive(puzzle, symmetry=False).solutions() if s is not None]
    canon = Exhaustive(puzzle, symmetry=True)
    reps = [s for s in canon.solutions() if s is not None]
    assert canon.multiplier == 6
    assert len(plain) == 6 * len(reps) > 0
    result = solve(puzzle, time_limit=60)
    assert result.solution_count == len(plain) and result.count_complete


def _classes_by_hand(puzzle, solutions):
    """Orbits under the 4 turns/mirrors of a rectangle and colour
    relabellings, computed on (row, col) squares without the symmetry module."""
    b, t = puzzle.board, puzzle.table
    h, w = b.height, b.width
    moves = [lambda r, c: (r, c), lambda r, c: (h - 1 - r, w - 1 - c), lambda r, c: (r, w - 1 - c), lambda r, c: (h - 1 - r, c)]
    seen, classes = set(), 0
    for sol in solutions:
        key = frozenset((c, frozenset(b.row_col(s) for s in t.squares[p])) for c, p in sol)
        if key in seen:
            continue
        classes += 1
        for f in moves:
            for perm in itertools.permutations(puzzle.colors):
                relabel = dict(zip(puzzle.colors, perm))
                seen.add(frozenset((relabel[c], frozenset(f(*rc) for rc in sq)) for c, sq in key))
    return classes


def test_counts_up_to_symmetry():
    puzzle = _three_color_fill("touch")
    solutions = [s for s in Exhaustive(puzzle, symmetry=False).solutions() if s is not None]
    assert len(solutions) == 24
    for sol in solutions:
        verify(puzzle, sol)
    assert count_classes(puzzle, solutions) == _classes_by_hand(puzzle, solutions)
    result = solve(puzzle, time_limit=60)
    assert result.solution_count == 24
    assert result.count_classes == _classes_by_hand(puzzle, solutions)


def test_a_time_limit_never_turns_into_impossible():
    puzzle = load_puzzle(PUZZLES / "solo-84.toml")
    result = solve(puzzle, time_limit=0.3, mode="general")
    assert result.status is not Status.INFEASIBLE
    if result.placements:
        assert len(result.order) == (len(result.placements) if result.best_partial else 84)
    tetromino = load_puzzle(PUZZLES / "tetromino-8x10.toml")
    counted = solve(tetromino, time_limit=0.5, count=True)
    assert counted.status in (Status.FEASIBLE, Status.UNKNOWN)
    assert counted.count_complete is False
    if counted.placements:
        verify(tetromino, counted.placements)


def test_maximize_reports_feasible_with_a_bound_when_cut_short():
    puzzle = replace(load_puzzle(PUZZLES / "solo-21.toml"), goal="maximize", target=(0,), measure="score")
    result = solve(puzzle, time_limit=1.0)
    assert result.status in (Status.FEASIBLE, Status.OPTIMAL)
    assert verify(puzzle, result.placements).objective == result.objective
    assert result.bound >= result.objective


def _solo_with_monomino(seed: int) -> Puzzle | None:
    """A one-colour maximize puzzle under the game rule holding the monomino
    (where the search first asks whether the monomino can go last)."""
    base = random_puzzle(seed, max_pieces=4, goals=("maximize",))
    c = base.target[0]
    t = base.table
    if any(t.piece[p] == MONOMINO for p in base.setup_of(c)):
        return None
    pieces = tuple(sorted(set(base.pieces[c]) | {MONOMINO}))
    puzzle = replace(base, colors=(c,), pieces={c: pieces}, connect="game", stars=frozenset(), monomino_last=False)
    work = math.prod(len(t.by_piece[i]) + 1 for i in pieces)
    return puzzle if len(pieces) >= 2 and work <= 300_000 else None


MONO_SEEDS = [s for s in range(300) if _solo_with_monomino(s) is not None][:30]


def test_monomino_last_shortcut_agrees_with_brute_force():
    outcomes = set()
    for seed in MONO_SEEDS:
        puzzle = _solo_with_monomino(seed)
        value, _ = bruteforce.maximize(puzzle)
        result = solve(puzzle, time_limit=60)
        if value is None:  # the set-up already breaks a rule
            assert result.status is Status.INFEASIBLE, seed
            continue
        assert result.status is Status.OPTIMAL and result.objective == value, seed
        assert verify(puzzle, result.placements).objective == value
        outcomes.add(value if value in (15, 20) else "less")
    assert outcomes == {15, 20, "less"}  # each path of the shortcut is exercised
