"""The search engine's front door: picks the methods a puzzle needs, runs
them interleaved within the time limit and reports one
:class:`~solver.puzzle.result.SolveResult` (verified by :func:`solver.solving.solve`).

- place-all: beam search (heuristic, finds solutions) next to the exhaustive
  search (complete: the only source of INFEASIBLE; compiled: the fill
  kernel with no spare square, the waste search with some). On a puzzle with
  quarter-turn symmetry the symmetric beam runs too (mode ``auto``).
- count: the exhaustive search alone (the compiled kernel when it applies).
- maximize: the exhaustive branch and bound.

Methods are generators that yield every few dozen nodes; the scheduler
gives each its share of the time, so a long beam never starves the proof.
Statuses follow CP-SAT's convention: a place-all puzzle with a solution is
OPTIMAL (nothing better exists); FEASIBLE means a solution is known but the
goal asks for more (a proven optimum, or the full count).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Callable, Iterator

from solver.core.geometry import squares_of
from solver.core.pieces import MONOMINO
from solver.core.scoring import best_bonus
from solver.deadline import Deadline
from solver.errors import OptionError
from solver.kernels.tables import unsupported
from solver.options import choice
from solver.packing.beam import BeamSearch
from solver.packing.exhaustive import Exhaustive
from solver.packing.symmetric import SymmetricBeam
from solver.puzzle.definition import Connect, Goal, Measure, Puzzle, objective_value
from solver.puzzle.edges import no_room
from solver.puzzle.result import Progress, ProgressCallback, Solution, SolveResult, Status
from solver.puzzle.symmetry import symmetry_applies
from solver.puzzle.verify import VerificationError, verify
from solver.puzzle.windows import window_bound


class Mode(StrEnum):
    """How the search engine looks for a place-all packing (``--mode``)."""

    AUTO = "auto"  # the beams, the symmetric one too where the puzzle has a quarter turn
    GENERAL = "general"  # the beams on the whole puzzle
    SYMMETRIC = "symmetric"  # the quarter-turn symmetric beam only
    EXHAUSTIVE = "exhaustive"  # the complete partition search only


MODES = tuple(Mode)
WIDTHS = (1, 4, 16, 64, 256, 1024)
SLICE = 0.05  # seconds a task runs before the scheduler looks again
WASTE_CHUNK = 50_000  # nodes of the compiled waste search between looks (about SLICE at its rate)
QUICK_NODES = 2_000  # nodes of the Python exhaustive search before the compiled one takes over (about 0.4 s) ...
QUICK_SECONDS = 0.5  # ... or its seconds, when its nodes are slow (one colour on a 3 x 43 board: 2 ms each)
MEMO_SPARE = 0.45  # one colour with at most this share of its squares spare: the waste search's memo on
MEMO_SHARE = 0.7  # the complete search's share of the time beside the beams (0.7) when it has the memo (else 0.3)


def solve(
    puzzle: Puzzle,
    time_limit: Deadline | float | None = 60.0,
    seed: int = 0,
    mode: Mode | str = Mode.AUTO,
    count: bool = False,
    progress: ProgressCallback | None = None,
    stop: threading.Event | None = None,
) -> SolveResult:
    """Solve a puzzle with the search engine (see the module docstring);
    ``stop`` set ends the search with what it found so far."""
    mode = choice(Mode, mode, "search mode")
    run = _Run(Deadline.of(time_limit), progress, stop=stop)
    if count or puzzle.goal is Goal.COUNT:
        result = _count(puzzle.with_goal(Goal.COUNT), run)
    elif puzzle.goal is Goal.MAXIMIZE:
        result = _maximize(puzzle, run)
    else:
        result = _place_all(puzzle, run, mode, seed)
    result.seconds = run.clock.elapsed
    result.nodes = run.nodes
    result.interrupted = run.interrupted
    return result


@dataclass
class _Run:
    """One solve's clock, progress callback and what it has to show."""

    clock: Deadline
    progress: ProgressCallback | None
    nodes: int = 0
    text: str = ""  # e.g. "81/84 pieces" or "objective 12"
    last_report: float = 0.0
    stop: threading.Event | None = None  # set (by a Ctrl-C handler): stop, keep what was found
    interrupted: bool = False

    def report(self) -> None:
        elapsed = self.clock.elapsed
        if self.progress and elapsed - self.last_report >= 1.0:
            self.last_report = elapsed
            self.progress(Progress(elapsed, self.nodes, self.text))


def _schedule(run: _Run, tasks: dict[str, tuple[Iterator, float]], nodes: Callable[[], int],
              stop: Callable[[], bool], decisive: str = "", deadline: Deadline | None = None) -> set[str]:
    """Round-robin over generator tasks, each getting its share of the time,
    until ``stop()``, the deadline (the run's, or an earlier one), the
    ``decisive`` task finishing, or every task finishing; returns the names
    of the tasks that finished."""
    clock = deadline or run.clock
    used = {name: 0.0 for name in tasks}
    finished: set[str] = set()
    live = dict(tasks)
    while live:
        name = min(live, key=lambda n: used[n] / live[n][1])
        part = clock.within(SLICE)  # (a kernel compile inside the slice is not counted)
        try:
            while True:
                next(live[name][0])
                if stop() or part.expired():
                    break
        except StopIteration:
            finished.add(name)
            del live[name]
        used[name] += part.elapsed
        run.interrupted = run.stop is not None and run.stop.is_set()
        run.nodes = nodes()
        run.report()
        if run.interrupted or decisive in finished or stop() or clock.expired():
            break
    return finished


# -- place-all ---------------------------------------------------------------------

def beam_task(runner: BeamSearch, seed: int, found: list[tuple[str, Solution]], name: str,
              cap: int = 0) -> Iterator[None]:
    """Beams of growing width with fresh seeds until one succeeds; appends
    (name, placements) to ``found``. ``cap``: the widths stop growing there
    (then beams of that width, each with a fresh seed; 0: no cap)."""
    round_ = 0
    while True:
        width = WIDTHS[min(round_, len(WIDTHS) - 1)]
        if cap:
            width = min(width, cap)
        state = yield from runner.steps(width, 1 if width == 1 else 6, seed * 7919 + round_)
        if state is not None:
            found.append((name, list(state.placed)))
            return
        round_ += 1
        yield None


def _collect(search, found: list, labelled: bool = False) -> Iterator[None]:
    """Run an exhaustive search, appending each solution to ``found`` (as
    (the search's name, solution) when ``labelled``)."""
    for solution in search.solutions():
        if solution is not None:
            found.append((search.name, solution) if labelled else solution)
        yield None


def _place_all(puzzle: Puzzle, run: _Run, mode: Mode, seed: int, deadline: Deadline | None = None) -> SolveResult:
    found: list[tuple[str, Solution]] = []
    runners: list[BeamSearch] = []
    tasks: dict[str, tuple[Iterator, float]] = {}
    game = puzzle.connect is Connect.GAME  # beams play in play order
    symmetric = game and mode in (Mode.AUTO, Mode.SYMMETRIC) and symmetry_applies(puzzle) is None
    if mode is Mode.SYMMETRIC and not symmetric:
        why = symmetry_applies(puzzle) or "it plays in play order, which only the game rule has"
        raise OptionError(f"--mode symmetric does not apply to {puzzle.name}: {why}")
    if symmetric:
        runners.append(SymmetricBeam(puzzle))
        tasks["symmetric beam"] = (beam_task(runners[-1], seed, found, "symmetric beam"), 0.5)
    if game and mode in (Mode.AUTO, Mode.GENERAL):
        runners.append(BeamSearch(puzzle))
        tasks["beam"] = (beam_task(runners[-1], seed, found, "beam"), 0.4 if symmetric else 0.7)
    exhaustive = None
    if mode in (Mode.AUTO, Mode.GENERAL, Mode.EXHAUSTIVE):
        exhaustive = _complete_search(puzzle, stop_after=1)
        share = MEMO_SHARE if getattr(exhaustive, "memo", False) else 0.2 if symmetric else 0.3
        tasks["exhaustive"] = (_collect(exhaustive, found, labelled=True), share)

    def nodes() -> int:
        return sum(r.nodes for r in runners) + (exhaustive.nodes if exhaustive else 0)

    def stop() -> bool:
        most = max((len(r.best) for r in runners), default=0)
        run.text = f"{most}/{sum(len(puzzle.pieces[c]) for c in puzzle.colors)} pieces"
        return bool(found)

    finished = _schedule(run, tasks, nodes, stop, decisive="exhaustive", deadline=deadline)
    if found:
        method, placements = found[0]
        return SolveResult(Status.OPTIMAL, "search", method, placements=placements)
    if "exhaustive" in finished:
        return SolveResult(Status.INFEASIBLE, "search", exhaustive.name)
    partial = max((r.best for r in runners), key=len, default=[])
    return SolveResult(Status.UNKNOWN, "search", "beam and exhaustive", placements=list(partial),
                       best_partial=bool(partial))


class NoRoom:
    """The complete search of a puzzle whose pieces a count already shows
    cannot all fit: the edge budget (:mod:`solver.puzzle.edges`) or the
    window count (:mod:`solver.puzzle.windows`), its ``name``. No solutions."""

    nodes = 0
    multiplier = 1

    def __init__(self, name: str) -> None:
        self.name = name

    def solutions(self) -> Iterator[Solution | None]:
        return iter(())


def _complete_search(puzzle: Puzzle, stop_after: int | None = None):
    """The exhaustive search for the puzzle: none when the edge budget or
    the window count rules it out, the compiled fill kernel when it
    applies, the compiled waste search for place-all puzzles with spare
    squares (numba's kernels are
    imported only then: loading numba costs 0.25 s), else the Python one
    (same interface: ``name``, ``nodes``, ``solutions()``, and
    ``multiplier`` for counts). The waste search remembers dead frontiers
    when it looks for one packing on a tight board (MEMO_SPARE): there
    the memo proves strips of one colour impossible 10x sooner, where on
    a roomy board searching without the game rule's corner contact (the
    memo's price) loses more than the memo wins."""
    if no_room(puzzle) is not None:
        return NoRoom("edge budget")
    if (bound := window_bound(puzzle)) is not None and bound < 0:
        return NoRoom("window count")
    if puzzle.goal is not Goal.MAXIMIZE and puzzle.spare_squares == 0:
        from solver.packing.fillkernel import KernelSearch, supported

        if supported(puzzle) is None:
            return KernelSearch(puzzle, stop_after=stop_after)
    if puzzle.goal is Goal.PLACE_ALL and puzzle.spare_squares > 0 and unsupported(puzzle.board) is None:
        tight = puzzle.spare_squares <= MEMO_SPARE * puzzle.free_squares
        return QuickThenCompiled(puzzle, memo=stop_after == 1 and tight)
    return Exhaustive(puzzle)


class QuickThenCompiled:
    """The Python exhaustive search for its first QUICK_NODES nodes or
    QUICK_SECONDS of its own (small puzzles end there, in less time than
    the compiled kernel takes to load), then, unless it found a packing,
    the compiled waste search from the start (complete on its own, some
    250x the node rate), with its memo of dead frontiers if ``memo``."""

    multiplier = 1

    def __init__(self, puzzle: Puzzle, memo: bool = False):
        self.puzzle = puzzle
        self.memo = memo
        self.search = Exhaustive(puzzle)
        self.name = self.search.name
        self.before = 0  # nodes of the Python search, once it handed over

    @property
    def nodes(self) -> int:
        return self.before + self.search.nodes

    def solutions(self) -> Iterator[Solution | None]:
        found, spent, end = False, 0.0, object()
        solutions = self.search.solutions()
        while True:
            start = time.perf_counter()
            solution = next(solutions, end)
            spent += time.perf_counter() - start
            if solution is end:
                return
            found = found or solution is not None
            yield solution
            if not found and (self.search.nodes >= QUICK_NODES or spent >= QUICK_SECONDS):
                break
        from solver.packing.wastefast import CompiledWasteSearch

        self.before = self.search.nodes
        self.search = CompiledWasteSearch(self.puzzle, chunk=WASTE_CHUNK, memo=self.memo)
        self.name = self.search.name
        yield from self.search.solutions()


# -- count ---------------------------------------------------------------------------

def _count(puzzle: Puzzle, run: _Run) -> SolveResult:
    """Every solution; with interchangeable colours the search meets one of
    each set of colour relabellings and ``multiplier`` counts the rest."""
    search = _complete_search(puzzle)
    solutions: list[Solution] = []

    def stop() -> bool:
        run.text = f"{len(solutions)} found"
        return False

    finished = _schedule(run, {"exhaustive": (_collect(search, solutions), 1.0)}, lambda: search.nodes, stop)
    raw = len(solutions) * search.multiplier
    done = "exhaustive" in finished
    status = (Status.OPTIMAL if raw else Status.INFEASIBLE) if done else (Status.FEASIBLE if raw else Status.UNKNOWN)
    return SolveResult(status, "search", search.name, placements=solutions[0] if solutions else [],
                       solution_count=raw, count_complete=done, solutions=solutions)


# -- maximize ------------------------------------------------------------------------

def _value(puzzle: Puzzle, placements: Solution) -> int:
    """The objective of a solution found: counted directly, except when a
    target colour placed everything and the +5 of a monomino played last
    depends on the play order, which the verifier works out."""
    for c in puzzle.target:
        if MONOMINO in puzzle.pieces[c] and sum(1 for col, _ in placements if col == c) == len(puzzle.pieces[c]):
            return verify(puzzle, placements).objective
    return objective_value(puzzle, placements)


@dataclass
class _Incumbent:
    value: int | None = None
    placements: Solution | None = None


def _best(puzzle: Puzzle, run: _Run, cap: int | None = None) -> tuple[_Incumbent, bool, int]:
    """The exhaustive branch and bound. Returns the best solution found, whether
    it is proven best (the search finished, or reached ``cap``, a proven
    upper bound), and the upper bound known before the search started."""
    search = Exhaustive(puzzle)
    best = _Incumbent()

    def capped() -> bool:
        return cap is not None and best.value is not None and best.value >= cap

    def task() -> Iterator[None]:
        for sol in search.solutions():
            if sol is not None:
                value = _value(puzzle, sol)
                search.report_value(value)
                if best.value is None or value > best.value:
                    best.value, best.placements = value, sol
                    run.text = f"objective {value}"
            yield None

    bound = search.upper_bound() if cap is None else min(cap, search.upper_bound())
    finished = _schedule(run, {"exhaustive": (task(), 1.0)}, lambda: search.nodes, capped)
    return best, "exhaustive" in finished or capped(), bound


def _monomino_last(puzzle: Puzzle, run: _Run, deadline: Deadline) -> tuple[Solution | None, int | None]:
    """One colour maximising its score with the monomino in hand: the best
    conceivable score (20) needs every other piece placed and the monomino
    last. The branch and bound would enumerate every full packing to rule
    that out, so ask first whether the other pieces can all be placed:
    returns (placements scoring 20, None), or (None, 15) when they cannot
    (a proven cap), or (None, None) when undecided."""
    (c,) = puzzle.target
    others = tuple(i for i in puzzle.pieces[c] if i != MONOMINO)
    sub = replace(puzzle, pieces={c: others}, goal=Goal.PLACE_ALL, target=(),
                  name=f"{puzzle.name} without the monomino")
    result = _place_all(sub, run, Mode.AUTO, 0, deadline)
    if result.status is Status.INFEASIBLE:
        return None, best_bonus(False)
    if result.status is not Status.OPTIMAL:
        return None, None
    t, b = puzzle.table, puzzle.board
    own = puzzle.masks.setup[c]
    taken = puzzle.masks.taken
    for _, p in result.placements:
        own |= t.mask[p]
        taken |= t.mask[p]
    for sq in squares_of(b.corner_neighbours(own) & b.open_mask & ~taken & ~b.edge_neighbours(own)):
        sol = list(result.placements) + [(c, t.find([sq]))]
        try:
            if verify(puzzle, sol).objective == best_bonus(True):
                return sol, None
        except VerificationError:
            continue
    return None, None


def _monomino_last_applies(puzzle: Puzzle) -> bool:
    return (len(puzzle.target) == 1 and puzzle.colors == puzzle.target and puzzle.measure is Measure.SCORE
            and puzzle.connect is Connect.GAME and MONOMINO in puzzle.pieces[puzzle.target[0]]
            and len(puzzle.pieces[puzzle.target[0]]) >= 2 and not puzzle.stars)


def best_value(puzzle: Puzzle, time_limit: Deadline | float | None = None) -> int | None:
    """The proven optimum of a maximize puzzle, or None when the time ran
    out: for callers that need the number only, many times over (the
    endgame tree search); nothing is reported, so nothing is verified."""
    best, done, _ = _best(puzzle, _Run(Deadline.of(time_limit), None))
    return best.value if done else None


def _maximize(puzzle: Puzzle, run: _Run) -> SolveResult:
    cap = None
    top = best_bonus(True)
    if _monomino_last_applies(puzzle) and Exhaustive(puzzle).upper_bound() >= top:
        left = run.clock.left()
        sol, cap = _monomino_last(puzzle, run, run.clock.within(None if left is None else left / 4))
        if sol is not None:
            return SolveResult(Status.OPTIMAL, "search", "monomino-last packing", placements=sol,
                               objective=top, bound=top)
    best, done, bound = _best(puzzle, run, cap)
    if best.value is None:
        status = Status.INFEASIBLE if done else Status.UNKNOWN
        return SolveResult(status, "search", "exhaustive", bound=None if done else bound)
    return SolveResult(
        Status.OPTIMAL if done else Status.FEASIBLE, "search", "exhaustive", placements=best.placements,
        objective=best.value, bound=best.value if done else max(bound, best.value),
    )
