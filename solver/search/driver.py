"""The search engine's front door: picks the methods a puzzle needs, runs
them interleaved within the time limit, verifies every answer and reports
one :class:`~solver.puzzle.SolveResult`.

- place-all: beam search (heuristic, finds solutions) next to the exhaustive
  search (complete: the only source of INFEASIBLE). On a puzzle with
  quarter-turn symmetry the symmetric beam runs too (mode ``auto``).
- count: the exhaustive search alone (the compiled kernel when it applies).
- maximize: the exhaustive branch and bound.

Methods are generators that yield every few hundred nodes; the scheduler
gives each its share of the time, so a long beam never starves the proof.
Statuses follow CP-SAT's convention: a place-all puzzle with a solution is
OPTIMAL (nothing better exists); FEASIBLE means a solution is known but the
goal asks for more (a proven optimum, or the full count).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Callable, Iterator

from ..geometry import mask_of, squares_of
from ..pieces import MONOMINO
from ..puzzle import Puzzle, SolveResult, Status, objective_value
from ..symmetry import count_classes, symmetry_applies
from ..verify import VerificationError, verify
from .beam import BeamSearch
from .exhaustive import Exhaustive
from .symmetric import SymmetricBeam

MODES = ("auto", "general", "symmetric", "exhaustive")
WIDTHS = (1, 4, 16, 64, 256, 1024)


class Progress:
    """What the driver knows while it runs (handed to the progress callback)."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.nodes = 0
        self.best = ""  # e.g. "81/84 pieces" or "objective 12"

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.start


def _beam_task(runner: BeamSearch, seed: int, found: list, name: str) -> Iterator[None]:
    """Beams of growing width with fresh seeds until one succeeds; appends
    (name, placements) to ``found``."""
    round_ = 0
    while True:
        width = WIDTHS[min(round_, len(WIDTHS) - 1)]
        state = yield from runner.steps(width, 1 if width == 1 else 6, seed * 7919 + round_)
        if state is not None:
            found.append((name, list(state.placed)))
            return
        round_ += 1
        yield None


def solve(
    puzzle: Puzzle,
    time_limit: float | None = 60.0,
    seed: int = 0,
    mode: str = "auto",
    count: bool = False,
    progress: Callable[[Progress], None] | None = None,
) -> SolveResult:
    """Solve a puzzle with the search engine (see the module docstring)."""
    if mode not in MODES:
        raise ValueError(f"unknown search mode {mode!r} (known: {', '.join(MODES)})")
    info = Progress()
    deadline = None if time_limit is None else info.start + time_limit
    if count or puzzle.goal == "count":
        result = _count(puzzle.with_goal("count"), deadline, info, progress)
    elif puzzle.goal == "maximize":
        result = _maximize(puzzle, deadline, info, progress)
    else:
        result = _place_all(puzzle, deadline, info, progress, mode, seed)
    result.seconds = info.elapsed
    result.nodes = info.nodes
    return result


class _Scheduler:
    """Round-robin over generator tasks by time share."""

    def __init__(self, deadline, info: Progress, progress, nodes: Callable[[], int]):
        self.deadline, self.info, self.progress, self.nodes = deadline, info, progress, nodes
        self.last_report = info.start

    def run(self, tasks: dict[str, tuple[Iterator, float]], stop: Callable[[], bool], decisive: str = "") -> set[str]:
        """Run until ``stop()``, the deadline, the ``decisive`` task or every
        task has finished; returns the names of the tasks that finished."""
        used = {name: 0.0 for name in tasks}
        finished: set[str] = set()
        live = dict(tasks)
        while live:
            name = min(live, key=lambda n: used[n] / live[n][1])
            gen = live[name][0]
            t0 = time.monotonic()
            try:
                while time.monotonic() - t0 < 0.05:
                    next(gen)
                    if stop():
                        break
            except StopIteration:
                finished.add(name)
                del live[name]
            now = time.monotonic()
            used[name] += now - t0
            self.info.nodes = self.nodes()
            if decisive in finished:
                break
            if self.progress and now - self.last_report >= 1.0:
                self.last_report = now
                self.progress(self.info)
            if stop() or (self.deadline is not None and now > self.deadline):
                break
        return finished


def _place_all(puzzle, deadline, info, progress, mode, seed) -> SolveResult:
    found: list = []
    runners: list[BeamSearch] = []
    tasks: dict[str, tuple[Iterator, float]] = {}
    game = puzzle.connect == "game"  # beams play in play order
    symmetric = game and mode in ("auto", "symmetric") and symmetry_applies(puzzle) is None
    if mode == "symmetric" and not symmetric:
        raise ValueError(f"symmetric search does not apply to {puzzle.name}: {symmetry_applies(puzzle)}")
    if symmetric:
        runners.append(SymmetricBeam(puzzle))
        tasks["symmetric beam"] = (_beam_task(runners[-1], seed, found, "symmetric beam"), 0.5)
    if game and mode in ("auto", "general"):
        runners.append(BeamSearch(puzzle))
        tasks["beam"] = (_beam_task(runners[-1], seed, found, "beam"), 0.4 if symmetric else 0.7)
    exhaustive = None
    if mode in ("auto", "general", "exhaustive"):
        exhaustive = _complete_search(puzzle, stop_after=1)
        proof = (s for s in exhaustive.solutions() if s is None or not found.append((exhaustive.name, s)))
        tasks["exhaustive"] = (proof, 0.2 if symmetric else 0.3)

    def nodes():
        return sum(r.nodes for r in runners) + (exhaustive.nodes if exhaustive else 0)

    def best():
        most = max((len(r.best) for r in runners), default=0)
        info.best = f"{most}/{sum(len(puzzle.pieces[c]) for c in puzzle.colors)} pieces"

    def stop():
        best()
        return bool(found)

    finished = _Scheduler(deadline, info, progress, nodes).run(tasks, stop, decisive="exhaustive")
    if found:
        method, placements = found[0]
        verify(puzzle, placements)
        return SolveResult(Status.OPTIMAL, "search", placements=placements, stats={"method": method})
    if "exhaustive" in finished:
        return SolveResult(Status.INFEASIBLE, "search", stats={"method": exhaustive.name})
    return SolveResult(Status.UNKNOWN, "search", stats={"best": info.best})


def _complete_search(puzzle: Puzzle, stop_after: int | None = None):
    """The exhaustive search for the puzzle: the compiled fill kernel when it
    applies (imported only then: loading numba costs 0.25 s), else the Python
    one (same interface: ``name``, ``nodes``, ``multiplier``, ``solutions()``)."""
    if puzzle.goal != "maximize" and puzzle.spare_squares == 0:
        from .fillkernel import KernelSearch, supported

        if supported(puzzle) is None:
            return KernelSearch(puzzle, stop_after=stop_after)
    return Exhaustive(puzzle)


def _count(puzzle, deadline, info, progress) -> SolveResult:
    search = _complete_search(puzzle)
    solutions: list = []
    task = (s for s in search.solutions() if s is None or not solutions.append(s))
    finished = _Scheduler(deadline, info, progress, lambda: search.nodes).run(
        {"exhaustive": (task, 1.0)}, lambda: _note(info, f"{len(solutions)} found")
    )
    for sol in solutions:
        verify(puzzle, sol)
    raw = len(solutions) * search.multiplier
    done = "exhaustive" in finished
    result = SolveResult(
        (Status.OPTIMAL if raw else Status.INFEASIBLE) if done else (Status.FEASIBLE if raw else Status.UNKNOWN),
        "search",
        placements=solutions[0] if solutions else [],
        solution_count=raw,
        stats={"method": search.name, "count_complete": done},
    )
    if done:
        result.count_classes = count_classes(puzzle, solutions)
    return result


def _note(info: Progress, text: str) -> bool:
    info.best = text
    return False


def _value(puzzle: Puzzle, placements) -> int:
    """The objective of a solution found: counted directly, except when a
    target colour placed everything and the +5 of a monomino played last
    depends on the play order, which the verifier works out."""
    for c in puzzle.target:
        if MONOMINO in puzzle.pieces[c] and sum(1 for col, _ in placements if col == c) == len(puzzle.pieces[c]):
            return verify(puzzle, placements).objective
    return objective_value(puzzle, placements)


def _best(puzzle: Puzzle, deadline, info: Progress, progress, cap: int | None = None) -> tuple[dict, bool, int]:
    """The exhaustive branch and bound: (best {value, placements} found,
    whether the search finished or reached ``cap``, a proven upper bound,
    its upper bound before starting)."""
    search = Exhaustive(puzzle)
    best: dict = {}

    def capped() -> bool:
        return cap is not None and bool(best) and best["value"] >= cap

    def task():
        for sol in search.solutions():
            if sol is not None:
                value = _value(puzzle, sol)
                search.report_value(value)
                if not best or value > best["value"]:
                    best.update(value=value, placements=sol)
                    info.best = f"objective {value}"
            yield None

    bound = search.upper_bound() if cap is None else min(cap, search.upper_bound())
    finished = _Scheduler(deadline, info, progress, lambda: search.nodes).run(
        {"exhaustive": (task(), 1.0)}, capped
    )
    return best, "exhaustive" in finished or capped(), bound


def _monomino_last(puzzle: Puzzle, deadline, info: Progress, progress) -> tuple[list | None, int | None]:
    """One colour maximising its score with the monomino in hand: the best
    conceivable score (20) needs every other piece placed and the monomino
    last. The branch and bound would enumerate every full packing to rule
    that out, so ask first whether the other pieces can all be placed:
    returns (placements scoring 20, None), or (None, 15) when they cannot
    (a proven cap), or (None, None) when undecided."""
    (c,) = puzzle.target
    others = tuple(i for i in puzzle.pieces[c] if i != MONOMINO)
    sub = replace(puzzle, pieces={c: others}, goal="place-all", target=(), name=f"{puzzle.name} without the monomino")
    result = _place_all(sub, deadline, info, progress, "auto", 0)
    if result.status is Status.INFEASIBLE:
        return None, 15
    if result.status is not Status.OPTIMAL:
        return None, None
    t, b = puzzle.table, puzzle.board
    placed = [(col, p) for col, ps in puzzle.setup.items() for p in ps] + list(result.placements)
    own = taken = 0
    for col, p in placed:
        taken |= t.mask[p]
        own |= t.mask[p] if col == c else 0
    free = b.open_mask & ~taken & ~b.edge_neighbours(own) & ~mask_of(puzzle.empty)
    for sq in squares_of(b.corner_neighbours(own) & free):
        sol = list(result.placements) + [(c, t.find([sq]))]
        try:
            if verify(puzzle, sol).objective == 20:
                return sol, None
        except VerificationError:
            continue
    return None, None


def _monomino_last_applies(puzzle: Puzzle) -> bool:
    return (len(puzzle.target) == 1 and puzzle.colors == puzzle.target and puzzle.measure == "score"
            and puzzle.connect == "game" and MONOMINO in puzzle.pieces[puzzle.target[0]]
            and len(puzzle.pieces[puzzle.target[0]]) >= 2 and not puzzle.stars)


def best_value(puzzle: Puzzle, time_limit: float | None = None) -> int | None:
    """The proven optimum of a maximize puzzle, or None when the time ran
    out: for callers that need the number only, many times over (the
    endgame tree search); nothing is reported, so nothing is verified."""
    info = Progress()
    deadline = None if time_limit is None else info.start + time_limit
    best, done, _ = _best(puzzle, deadline, info, None)
    return best["value"] if done and best else None


def _maximize(puzzle, deadline, info, progress) -> SolveResult:
    cap = None
    if _monomino_last_applies(puzzle) and Exhaustive(puzzle).upper_bound() >= 20:
        left = None if deadline is None else deadline - time.monotonic()
        sol, cap = _monomino_last(puzzle, None if left is None else time.monotonic() + left / 4, info, progress)
        if sol is not None:
            return SolveResult(Status.OPTIMAL, "search", placements=sol, objective=20, bound=20,
                               stats={"method": "monomino-last packing"})
    best, done, bound = _best(puzzle, deadline, info, progress, cap)
    if not best:
        status = Status.INFEASIBLE if done else Status.UNKNOWN
        return SolveResult(status, "search", bound=None if done else bound, stats={"method": "exhaustive"})
    status = Status.OPTIMAL if done else Status.FEASIBLE
    verify(puzzle, best["placements"])  # the answer reported, checked from scratch
    return SolveResult(
        status, "search", placements=best["placements"], objective=best["value"],
        bound=best["value"] if done else max(bound, best["value"]), stats={"method": "exhaustive"},
    )
