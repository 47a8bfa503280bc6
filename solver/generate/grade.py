"""How hard a one-colour challenge is for a person: the dead ends of the
search a person does.

A person tries pieces where the rules let them go: any piece still in
hand, at any place that covers the start square (first) or touches the
colour at a corner and never at an edge, keeping clear of obstacles and
x squares. Stars and joining the set-up pieces are only checked once
every piece is down, as a person sees whether a finished attempt works.
That search, with no pruning of the engines' kind, is run to the end over
every distinct partial placement (a set of pieces placed, whatever the
order):

- ``dead_ends``: partial placements that cannot be completed (each is a
  place a person may reach and has to back out of);
- ``first_dead`` of ``first_moves``: first pieces put down that lead nowhere;
- ``forced``: pieces with a single place in every attempt (no choice at all).

The grade is ``log2(1 + dead_ends) + 4 * first_dead / first_moves - forced``
(at least 0): each doubling of the dead ends adds a point, a first step
that usually fails adds up to four, a piece with one place takes one off.
Bands:
``easy`` below 6, ``medium`` below 10, ``hard`` from 10. The search stops
after ``budget`` partial placements; its figures are then lower bounds
and the grade is at least ``hard``'s threshold when they reach it.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

from solver.puzzle.definition import Connect, Puzzle

BANDS = (("easy", 6.0), ("medium", 10.0), ("hard", math.inf))
DIFFICULTIES = tuple(name for name, _ in BANDS)
BUDGET = 200_000  # partial placements the person's search visits at most


@dataclass(frozen=True)
class Grade:
    """A challenge's difficulty figures and grade (see the module docstring)."""

    score: float
    band: str
    dead_ends: int
    partials: int  # distinct partial placements visited
    first_moves: int
    first_dead: int
    forced: int
    complete: bool  # False: the search hit its budget (figures are lower bounds)

    def as_json(self) -> dict:
        return {"score": round(self.score, 2), "band": self.band, "dead_ends": self.dead_ends,
                "partials": self.partials, "first_moves": self.first_moves, "first_dead": self.first_dead,
                "forced": self.forced, "complete": self.complete}


class _Budget(Exception):
    pass


def band_of(score: float) -> str:
    return next(name for name, top in BANDS if score < top)


def grade(puzzle: Puzzle, budget: int = BUDGET) -> Grade:
    """The grade of a one-colour place-all challenge (see the module docstring)."""
    if len(puzzle.colors) != 1:
        raise ValueError(f"{puzzle.name}: grading needs one colour to place, not {len(puzzle.colors)}")
    (c,) = puzzle.colors
    t, b, masks = puzzle.table, puzzle.board, puzzle.masks
    free, stars, own0 = masks.free, masks.stars, masks.setup[c]
    start = 0
    for sq in b.starts[c]:
        start |= 1 << sq
    pieces = puzzle.pieces[c]
    options = [[p for p in t.by_piece[i] if not t.mask[p] & ~free] for i in pieces]
    full = (1 << len(pieces)) - 1
    joined = puzzle.connect is Connect.GAME and own0
    memo: dict[tuple[int, int], bool] = {}
    places: list[set[int]] = [set() for _ in pieces]
    dead = 0

    def ok_at_end(own: int) -> bool:
        if stars & ~own:
            return False
        return not joined or b.king_fill(own & -own, own) == own

    def solvable(own: int, edge: int, corner: int, placed: int) -> bool:
        nonlocal dead
        key = (own, placed)
        hit = memo.get(key)
        if hit is not None:
            return hit
        if len(memo) >= budget:
            raise _Budget
        if placed == full:
            ok = ok_at_end(own)
        else:
            ok = False
            touch = corner & ~edge if own else start  # the first piece: the start square, if there is one
            anywhere = not own and not start
            for k, opts in enumerate(options):
                if placed >> k & 1:
                    continue
                for p in opts:
                    m = t.mask[p]
                    if m & (own | edge) or not (anywhere or m & touch):
                        continue
                    places[k].add(p)
                    if solvable(own | m, edge | t.edge[p], corner | t.corner[p], placed | 1 << k):
                        ok = True
        memo[key] = ok
        if not ok and placed:
            dead += 1
        return ok

    edge0, corner0 = b.edge_neighbours(own0), b.corner_neighbours(own0)
    complete = True
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 200 + 4 * len(pieces)))
    try:
        solvable(own0, edge0, corner0, 0)
    except _Budget:
        complete = False
    finally:
        sys.setrecursionlimit(limit)
    firsts = [(own, placed) for (own, placed) in memo if placed and placed & (placed - 1) == 0]
    first_dead = sum(1 for key in firsts if not memo[key])
    forced = sum(1 for seen in places if len(seen) == 1)
    score = max(0.0, math.log2(1 + dead) + (4 * first_dead / len(firsts) if firsts else 0.0) - forced)
    if not complete:
        score = max(score, BANDS[1][1])
    return Grade(score, band_of(score), dead, len(memo), len(firsts), first_dead, forced, complete)
