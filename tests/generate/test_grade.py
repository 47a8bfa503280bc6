"""The difficulty grade: the person's search against a slow independent
one (every partial placement built square by square, level by level), the
bundled challenges graded in the order docs/generate.md shows, and the
budget."""

from __future__ import annotations

import random

import pytest

from solver.formats.puzzle_file import load_puzzle, parse_puzzle
from solver.generate import build
from solver.generate.grade import BANDS, grade
from tests.util import ROOT


def slow_figures(puzzle) -> tuple[int, int, int, int]:
    """(partial placements, dead ends, first moves, first dead) by breadth:
    level k holds every set of k pieces placed by the rules, grown one
    piece at a time, each piece checked square by square."""
    (c,) = puzzle.colors
    b, t = puzzle.board, puzzle.table
    free = {sq for sq in range(b.size) if puzzle.masks.free >> sq & 1}
    own0 = {sq for p in puzzle.setup_of(c) for sq in t.squares[p]}
    starts = set(b.starts[c])
    W = b.width

    def near(sq, steps):
        r, q = divmod(sq, W)
        return {(r + dr) * W + q + dq for dr, dq in steps if 0 <= r + dr < b.height and 0 <= q + dq < W}

    edges = ((0, 1), (0, -1), (1, 0), (-1, 0))
    corners = ((1, 1), (1, -1), (-1, 1), (-1, -1))

    def legal(own, sqs):
        if not set(sqs) <= free or set(sqs) & own:
            return False
        if any(near(s, edges) & own for s in sqs):
            return False
        if not own:
            return not starts or bool(set(sqs) & starts)
        return any(near(s, corners) & own for s in sqs)

    def grows(state):
        own = own0 | {sq for _, p in state for sq in t.squares[p]}
        used = {i for i, _ in state}
        for i in puzzle.pieces[c]:
            if i not in used:
                for p in t.by_piece[i]:
                    if legal(own, t.squares[p]):
                        yield state | {(i, p)}

    def done(state):
        own = own0 | {sq for _, p in state for sq in t.squares[p]}
        if not puzzle.stars <= own:
            return False
        if not own0:
            return True
        seen, todo = set(), [min(own)]
        while todo:
            s = todo.pop()
            if s not in seen:
                seen.add(s)
                todo += [n for n in near(s, edges + corners) if n in own]
        return seen == own

    levels = [{frozenset()}]
    for _ in puzzle.pieces[c]:
        levels.append({child for state in levels[-1] for child in grows(state)})
    good = {s for s in levels[-1] if done(s)}
    for level in reversed(levels[:-1]):
        good |= {s for s in level if any(child in good for child in grows(s))}
    partials = [s for level in levels[1:] for s in level]
    dead = sum(1 for s in partials if s not in good)
    return len(partials), dead, len(levels[1]), sum(1 for s in levels[1] if s not in good)


def small_puzzles():
    rng = random.Random(2)
    for n in range(24):
        kind = list(build.Kind)[n % 4]
        draft = None
        while draft is None:
            draft = build.new_draft(kind, rng, 6, 6, 3 if kind is not build.Kind.CONNECT else 2, (1, 3))
        yield draft.puzzle(f"small-{n}")


def test_the_persons_search_equals_a_slow_count_of_every_partial_placement():
    for puzzle in small_puzzles():
        g = grade(puzzle)
        assert g.complete
        # the fast search visits the root too; the slow count leaves it out
        assert (g.partials - 1, g.dead_ends, g.first_moves, g.first_dead) == slow_figures(puzzle), puzzle.name


ONE_WAY = """
[board]
rows = '''
b . # # #
. # # # #
# # # # #
'''
[pieces]
blue = "V3"
"""


def test_a_piece_with_one_place_is_easy():
    g = grade(parse_puzzle(ONE_WAY))
    assert (g.dead_ends, g.first_moves, g.first_dead, g.forced, g.score, g.band) == (0, 1, 0, 1, 0.0, "easy")


def test_the_bundled_challenges_in_order():
    grades = {name: grade(load_puzzle(ROOT / "puzzles" / f"{name}.toml"))
              for name in ("avoid-x-7x7", "stars-8x8", "connect-8x8")}
    assert [round(g.score, 1) for g in grades.values()] == [7.8, 9.8, 10.3]
    assert [g.band for g in grades.values()] == ["medium", "medium", "hard"]
    assert grade(parse_puzzle(ONE_WAY)).score < min(g.score for g in grades.values())


def test_a_search_over_budget_grades_hard_at_least():
    g = grade(load_puzzle(ROOT / "puzzles" / "stars-8x8.toml"), budget=10)
    assert not g.complete and g.score >= BANDS[1][1] and g.band == "hard"


def test_grading_needs_one_colour():
    with pytest.raises(ValueError, match="grading needs one colour to place, not 4"):
        grade(load_puzzle(ROOT / "puzzles" / "solo-84.toml"))


def test_the_generated_cards_of_the_docs_table():
    folder = ROOT / "puzzles" / "generated"
    got = [(g.dead_ends, g.first_dead, g.first_moves, round(g.score, 1), g.band)
           for g in (grade(load_puzzle(folder / f"stars-8x8-{band}-s{seed}-001.toml"))
                     for band, seed in (("easy", 1), ("medium", 2), ("hard", 3)))]
    assert got == [(31, 0, 1, 4.0, "easy"), (35, 4, 5, 8.4, "medium"), (122, 9, 10, 10.5, "hard")]
