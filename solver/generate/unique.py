"""A candidate made to have exactly one solution, proven by both engines.

The search engine counts the candidate's solutions (every one, each
verified); while there is more than one, a solution other than the
draft's answer is ruled out (:func:`solver.generate.build.rule_out`: an
obstacle, an x, a star or a blocked square) and the count runs again.
When it reaches one, CP-SAT counts as well: only a candidate that both
engines count exactly 1, completely, whose one solution verifies, is
kept. A count stopped by its time limit, a solution that cannot be ruled
out, or too many rounds drop the candidate: nothing unproven is emitted.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solver.generate.build import Draft, rule_out
from solver.puzzle.definition import Puzzle
from solver.puzzle.result import Solution
from solver.puzzle.verify import verify
from solver.solving import solve

ROUNDS = 16  # changes tried on one candidate before it is dropped
SEARCH_LIMIT = 10.0  # seconds for one search-engine count
CPSAT_LIMIT = 30.0  # seconds for CP-SAT's count


@dataclass(frozen=True)
class Proof:
    """What proved a challenge unique: each engine's complete count (both 1)
    and the rounds of changes it took."""

    search_count: int
    cpsat_count: int
    rounds: int


class Dropped(Exception):
    """The candidate cannot be made unique within the limits (the reason says why)."""


def count(puzzle: Puzzle, engine: str, limit: float) -> tuple[int | None, list[Solution]]:
    """The engine's complete solution count (None: not complete in time)
    and the solutions it found, each verified by :func:`solver.solving.solve`."""
    result = solve(puzzle, engine, count=True, time_limit=limit, workers=1 if engine == "cpsat" else 0)
    return (result.solution_count if result.count_complete else None), list(result.solutions or ())


def make_unique(draft: Draft, rng: random.Random, name: str = "generated") -> tuple[Draft, Proof]:
    """``draft`` changed until it has exactly one solution by both engines'
    counts; raises :class:`Dropped` when that fails."""
    draft = draft.copy()
    for rounds in range(ROUNDS + 1):
        puzzle = draft.puzzle(name)
        n, found = count(puzzle, "search", SEARCH_LIMIT)
        if n == 0:
            raise Dropped("no solution (a change ruled out the answer too)")  # cannot happen: changes keep it
        if n == 1:
            break
        answer = frozenset(draft.solution())
        others = [s for s in found if frozenset(s) != answer]
        if not others:
            raise Dropped("the search engine's count did not finish and found only the answer")
        if rounds == ROUNDS or not rule_out(draft, rng.choice(others), rng):
            raise Dropped("more than one solution, and a change to rule the others out did not fit")
    puzzle = draft.puzzle(name)
    m, found = count(puzzle, "cpsat", CPSAT_LIMIT)
    if m != 1:
        raise Dropped(f"CP-SAT counted {m if m is not None else 'no complete count'}, the search engine 1")
    verify(puzzle, found[0])
    return draft, Proof(1, m, rounds)
