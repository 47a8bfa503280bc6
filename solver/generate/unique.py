"""A candidate made to have exactly one solution, proven by both engines.

The search engine's exhaustive search lists up to 64 of the candidate's
solutions; while there is more than one, a solution other than the
draft's answer is ruled out (:func:`solver.generate.build.rule_out`: an
obstacle, an x, a star or a blocked square, where it rules out the most
of those listed) and the search runs again. When it lists one and ends,
both engines count, each through :func:`solver.solving.solve` (every
solution verified): only a candidate that both count exactly 1,
completely, whose one solution verifies, is kept. A count stopped by its time limit, a solution that cannot be ruled
out, or too many rounds drop the candidate: nothing unproven is emitted.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solver.deadline import Deadline
from solver.generate.build import Draft, rule_out
from solver.packing.exhaustive import Exhaustive
from solver.puzzle.definition import Goal, Puzzle
from solver.puzzle.result import Solution
from solver.puzzle.verify import verify
from solver.solving import solve

ROUNDS = 16  # changes tried on one candidate before it is dropped
SEARCH_LIMIT = 10.0  # seconds for one search-engine count
CPSAT_LIMIT = 30.0  # seconds for CP-SAT's count
MOST = 64  # solutions enumerated per round, at most


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


def some_solutions(puzzle: Puzzle, most: int = MOST, limit: float = SEARCH_LIMIT) -> tuple[list[Solution], bool]:
    """Up to ``most`` + 1 solutions from the search engine's exhaustive
    search, and whether they are all there are (a candidate with thousands
    of solutions needs a few to rule out, not a verified count of them all)."""
    search = Exhaustive(puzzle.with_goal(Goal.COUNT))
    clock = Deadline(limit)
    found: list[Solution] = []
    for solution in search.solutions():
        if solution is None:
            if clock.expired():
                return found, False
            continue
        found.append(solution)
        if len(found) > most:
            return found, False
    return found, True


def make_unique(draft: Draft, rng: random.Random, name: str = "generated") -> tuple[Draft, Proof]:
    """``draft`` changed until it has exactly one solution by both engines'
    counts; raises :class:`Dropped` when that fails."""
    draft = draft.copy()
    answer = None
    for rounds in range(ROUNDS + 1):
        puzzle = draft.puzzle(name)
        found, complete = some_solutions(puzzle)
        if complete and len(found) == 1:
            break
        answer = frozenset(draft.solution())
        others = [s for s in found if frozenset(s) != answer]
        if not others:
            raise Dropped("the search engine's count did not finish and found only the answer")
        rng.shuffle(others)
        if rounds == ROUNDS or not rule_out(draft, others, rng):
            raise Dropped("more than one solution, and a change to rule the others out did not fit")
    puzzle = draft.puzzle(name)
    for engine, limit in (("search", SEARCH_LIMIT), ("cpsat", CPSAT_LIMIT)):
        n, found = count(puzzle, engine, limit)
        if n != 1:
            raise Dropped(f"{'CP-SAT' if engine == 'cpsat' else 'the search engine'} counted "
                          f"{n if n is not None else 'no complete count'}, the search engine's enumeration 1")
    verify(puzzle, found[0])
    return draft, Proof(1, n, rounds)
