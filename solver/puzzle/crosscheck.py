"""What two engines' answers to one puzzle contradict each other on, and the
combined answer of the two.

Where both engines finish, they must agree on feasibility, the optimum and
the solution count; anything else is a bug, reported as a disagreement and
never smoothed over. :func:`solver.solving.solve` runs the engines (and
verifies every answer) before these functions compare them.
"""

from __future__ import annotations

from solver.core.text import counted
from solver.puzzle.definition import Goal, Puzzle
from solver.puzzle.result import SolveResult, Status


def disagreement(puzzle: Puzzle, a: SolveResult, b: SolveResult) -> str | None:
    """What two verified answers to the same puzzle contradict each other on."""
    counting = a.solution_count is not None and b.solution_count is not None
    maximize = puzzle.goal is Goal.MAXIMIZE
    for x, y in ((a, b), (b, a)):
        found = (bool(x.placements) and not x.best_partial) or (counting and x.solution_count)
        if y.status is Status.INFEASIBLE and found:
            return f"{y.engine} says INFEASIBLE but {x.engine} found a solution"
        if maximize and x.objective is not None and y.status is Status.OPTIMAL and x.objective > y.objective:
            return f"{x.engine} found objective {x.objective} above {y.engine}'s proven optimum {y.objective}"
        if maximize and x.objective is not None and y.bound is not None and x.objective > y.bound:
            return f"{x.engine} found objective {x.objective} above {y.engine}'s bound {y.bound}"
    if a.status.definitive and b.status.definitive and a.status is not b.status:
        return f"{a.engine} says {a.status.value}, {b.engine} says {b.status.value}"
    if maximize and a.status is b.status is Status.OPTIMAL and a.objective != b.objective:
        return f"optimum {a.objective} ({a.engine}) differs from {b.objective} ({b.engine})"
    if counting:
        complete = [r for r in (a, b) if r.count_complete]
        if len(complete) == 2 and a.solution_count != b.solution_count:
            return f"solution count {a.solution_count} ({a.engine}) differs from {b.solution_count} ({b.engine})"
        for full in complete:
            other = b if full is a else a
            if other.solution_count > full.solution_count:
                return (f"{other.engine} found {counted(other.solution_count, 'solution')}, more than {full.engine}'s "
                        f"complete count {full.solution_count}")
    return None


def _final(r: SolveResult, counting: bool) -> bool:
    return r.status.definitive and (not counting or r.count_complete)


def _counting(a: SolveResult, b: SolveResult) -> bool:
    return a.solution_count is not None or b.solution_count is not None


def both_final(a: SolveResult, b: SolveResult) -> bool:
    """Whether both engines reached a final answer (a proven one, and a
    complete count where counting), so that agreeing confirms it twice."""
    counting = _counting(a, b)
    return _final(a, counting) and _final(b, counting)


def agreement(puzzle: Puzzle, a: SolveResult, b: SolveResult) -> str:
    """One line on how two verified answers relate: a disagreement, a final
    answer both engines reached, or no contradiction because one or both
    engines ended without a final answer."""
    found = disagreement(puzzle, a, b)
    if found:
        return f"DISAGREEMENT: {found}"
    if both_final(a, b):
        return "The engines agree."
    counting = _counting(a, b)
    open_ = [r for r in (a, b) if not _final(r, counting)]
    why = ", ".join(f"{r.engine} {r.status.value}" + (" with the count not complete" if counting and r.status.definitive
                                                        else "") for r in open_)
    if len(open_) == 2:
        return f"No contradiction, but neither engine reached a final answer ({why})."
    other = a if open_[0] is b else b
    return f"No contradiction, but only {other.engine} reached a final answer ({why})."


def _rank(r: SolveResult) -> tuple:
    order = {Status.OPTIMAL: 3, Status.INFEASIBLE: 3, Status.FEASIBLE: 2, Status.UNKNOWN: 1}
    return (order[r.status], r.objective if r.objective is not None else -(10**9))


def combine(puzzle: Puzzle, first: SolveResult, second: SolveResult) -> SolveResult:
    """One answer from two verified ones: the better of the two, with the
    tighter bound (which may prove the other's objective optimal), both
    results under ``engines`` and what they disagree on, if anything."""
    best = max((first, second), key=_rank)
    combined = SolveResult(
        best.status, "both", f"{best.engine}: {best.method}", seconds=first.seconds + second.seconds,
        nodes=first.nodes + second.nodes, placements=best.placements, order=best.order,
        objective=best.objective, bound=best.bound, solution_count=best.solution_count,
        count_complete=best.count_complete, count_classes=best.count_classes, solutions=best.solutions,
        engines={first.engine: first, second.engine: second}, disagreement=disagreement(puzzle, first, second),
        best_partial=best.best_partial, interrupted=first.interrupted or second.interrupted,
    )
    bounds = [r.bound for r in (first, second) if r.bound is not None]
    if bounds and combined.objective is not None:
        combined.bound = min(bounds)
        if combined.bound == combined.objective:
            combined.status = Status.OPTIMAL
    return combined
