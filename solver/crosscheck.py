"""Run both engines on one puzzle and check that they agree.

The search engine runs first; whatever it finds is handed to CP-SAT as a
complete hint, so CP-SAT proves (or refutes) what the search only found.
Where both finish, they must agree on feasibility, the optimum and the
solution count; anything else is a bug, reported as a disagreement and
never smoothed over. Every answer is verified before it is compared.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .puzzle import Puzzle, SolveResult, Status
from .verify import verify

DEFINITIVE = (Status.OPTIMAL, Status.INFEASIBLE)


@dataclass
class CrossCheck:
    combined: SolveResult  # the best answer of the two
    results: dict[str, SolveResult]  # per engine
    disagreement: str | None  # what differs, or None


def disagreement(puzzle: Puzzle, a: SolveResult, b: SolveResult) -> str | None:
    """What two verified answers to the same puzzle contradict each other on."""
    counting = a.solution_count is not None and b.solution_count is not None
    for x, y in ((a, b), (b, a)):
        found = bool(x.placements) or (counting and x.solution_count)
        if y.status is Status.INFEASIBLE and found:
            return f"{y.engine} says INFEASIBLE but {x.engine} found a solution"
        if puzzle.goal == "maximize" and x.objective is not None and y.status is Status.OPTIMAL:
            if x.objective > y.objective:
                return f"{x.engine} found objective {x.objective} above {y.engine}'s proven optimum {y.objective}"
        if puzzle.goal == "maximize" and x.objective is not None and y.bound is not None and x.objective > y.bound:
            return f"{x.engine} found objective {x.objective} above {y.engine}'s bound {y.bound}"
    if a.status in DEFINITIVE and b.status in DEFINITIVE and a.status is not b.status:
        return f"{a.engine} says {a.status.value}, {b.engine} says {b.status.value}"
    if puzzle.goal == "maximize" and a.status is b.status is Status.OPTIMAL and a.objective != b.objective:
        return f"optimum {a.objective} ({a.engine}) differs from {b.objective} ({b.engine})"
    if counting:
        complete = [r for r in (a, b) if r.stats.get("count_complete")]
        if len(complete) == 2 and a.solution_count != b.solution_count:
            return f"solution count {a.solution_count} ({a.engine}) differs from {b.solution_count} ({b.engine})"
        for full in complete:
            other = b if full is a else a
            if other.solution_count > full.solution_count:
                return (f"{other.engine} found {other.solution_count} solutions, more than {full.engine}'s "
                        f"complete count {full.solution_count}")
    return None


def _rank(r: SolveResult) -> tuple:
    order = {Status.OPTIMAL: 3, Status.INFEASIBLE: 3, Status.FEASIBLE: 2, Status.UNKNOWN: 1}
    return (order[r.status], r.objective if r.objective is not None else -(10**9))


def solve_both(puzzle: Puzzle, time_limit: float = 60.0, seed: int = 0, count: bool = False,
               mode: str = "auto", cpsat_options: dict | None = None, progress=None) -> CrossCheck:
    """Search engine first (half the time), then CP-SAT hinted with its answer."""
    from . import cpsat
    from .search import solve as search_solve

    start = time.monotonic()
    first = search_solve(puzzle, time_limit=time_limit / 2, seed=seed, mode=mode, count=count, progress=progress)
    left = max(1.0, time_limit - (time.monotonic() - start))
    hint = first.placements if first.placements and not (count or puzzle.goal == "count") else None
    second = cpsat.solve(puzzle, time_limit=left, seed=seed, count=count, hint=hint, **(cpsat_options or {}))
    for r in (first, second):
        if r.placements:
            verify(puzzle, r.placements)
    results = {"search": first, "cpsat": second}
    best = max((first, second), key=_rank)
    combined = SolveResult(best.status, "both", seconds=time.monotonic() - start, placements=best.placements,
                           objective=best.objective, bound=best.bound, solution_count=best.solution_count,
                           count_classes=first.count_classes, nodes=first.nodes + second.nodes,
                           stats=dict(best.stats, method=f"{best.engine}: {best.stats.get('method', '')}"))
    bounds = [r.bound for r in (first, second) if r.bound is not None]
    if bounds and combined.objective is not None:
        combined.bound = min(bounds)
        if combined.bound == combined.objective:
            combined.status = Status.OPTIMAL
    return CrossCheck(combined, results, disagreement(puzzle, first, second))
