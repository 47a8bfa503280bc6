"""The one way to solve a puzzle: :func:`solve` checks the options, picks
the engine (the search engine, the CP-SAT model, or both with a
cross-check), verifies every solution either engine reports (counted ones
included) with the one independent verifier, and fills the result the same
way for every engine: the play order, the objective checked against the
verifier's, and the count up to symmetry.

The engines are imported only when used (OR-Tools and numba take a while
to load).
"""

from __future__ import annotations

import os
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Iterator

from solver.deadline import Deadline
from solver.errors import OptionError
from solver.options import MAX_WORKERS, check_int, check_time_limit, choice
from solver.packing.driver import Mode
from solver.puzzle.definition import Goal, Puzzle
from solver.puzzle.result import ProgressCallback, Solution, SolveResult
from solver.puzzle.symmetry import count_classes
from solver.puzzle.verify import VerificationError, verify


class Engine(StrEnum):
    """The engines :func:`solve` runs (the command line's ``--engine``)."""

    AUTO = "auto"  # one of the others, picked by the puzzle (solver.engine_choice)
    SEARCH = "search"
    CPSAT = "cpsat"
    BOTH = "both"  # the search engine, then CP-SAT hinted with its answer, cross-checked
    HYBRID = "hybrid"  # search, then CP-SAT large neighbourhood search: place-all only


ENGINES = (Engine.SEARCH, Engine.CPSAT, Engine.BOTH)  # the engines of solo optima (analyze)
NAMED = "named by the caller"  # the engine_reason of a solve whose engine was not auto
SOLVE_ENGINES = tuple(Engine)
MAX_SEED = 2**31 - 1  # CP-SAT's random_seed is a 32-bit int


@dataclass(frozen=True)
class SolveOptions:
    """Options of :func:`solve`, checked when made (CP-SAT checks its
    ``encoding`` and ``cpsat_params`` itself, when it builds the model).
    ``mode`` is the search engine's method choice; ``workers``,
    ``encoding``, ``cpsat_params`` and ``hint`` (a complete solution to
    start from) are CP-SAT's."""

    time_limit: Deadline | float | None = 60.0  # seconds, or a Deadline (one for every engine of the solve)
    seed: int = 0
    count: bool = False
    mode: Mode = Mode.AUTO
    workers: int = 0
    encoding: str = "auto"
    cpsat_params: str = ""
    hint: Solution | None = None
    portfolio: int = 0  # hybrid: this many seeds (from ``seed`` on) on Dask, the best run wins
    scheduler: str | None = None  # hybrid portfolio: an existing Dask cluster (else a LocalCluster)
    jobs: int = 0  # hybrid portfolio: processes of the LocalCluster (0: one per core, at most one per run)
    search_share: float | None = None  # hybrid: share of the limit for the search engine first (None: default)

    def __post_init__(self) -> None:
        object.__setattr__(self, "time_limit", check_time_limit(self.time_limit))
        check_int(self.seed, "seed", 0, MAX_SEED)
        check_int(self.workers, "workers", 0, MAX_WORKERS)
        check_int(self.portfolio, "portfolio", 0, MAX_WORKERS)
        check_int(self.jobs, "jobs", 0, MAX_WORKERS)
        if self.jobs and not self.portfolio:
            raise OptionError("jobs are the processes of a portfolio's local cluster: they need a portfolio")
        if self.jobs and self.scheduler:
            raise OptionError("jobs start a local cluster; scheduler uses an existing one: give one of them")
        object.__setattr__(self, "mode", choice(Mode, self.mode, "mode"))
        share = self.search_share
        if share is not None and (isinstance(share, bool) or not isinstance(share, (int, float))
                                  or not 0 <= share <= 1):
            raise OptionError(f"search share must be a number from 0 to 1, not {share!r}")


def solve(puzzle: Puzzle, engine: Engine | str = Engine.AUTO, progress: ProgressCallback | None = None, *,
          time_limit: Deadline | float | None = 60.0, seed: int = 0, count: bool = False, mode: Mode | str = Mode.AUTO,
          workers: int = 0, encoding: str = "auto", cpsat_params: str = "", hint: Solution | None = None,
          portfolio: int = 0, scheduler: str | None = None, jobs: int = 0,
          search_share: float | None = None) -> SolveResult:
    """Solve a puzzle with ``engine`` (``search``, ``cpsat``, ``both`` or
    ``hybrid``, see :mod:`solver.hybrid.engine`; ``auto``, the default,
    picks one of them by the puzzle and the options, see
    :mod:`solver.engine_choice`: the result's ``engine`` says which and
    ``engine_reason`` why); the options are those of
    :class:`SolveOptions`, which says what each does. Raises OptionError
    for a bad option and VerificationError if an engine reports a solution
    that breaks the rules (a bug, never hidden)."""
    engine = choice(Engine, engine, "engine")
    opts = SolveOptions(time_limit, seed, count, mode, workers, encoding, cpsat_params, hint, portfolio, scheduler,
                        jobs, search_share)
    opts = replace(opts, time_limit=Deadline.of(opts.time_limit))  # the one form every engine gets
    reason, restart = NAMED, None
    if engine is Engine.AUTO:
        from solver.engine_choice import choose_engine

        name, reason = choose_engine(puzzle, count=opts.count, hint=opts.hint is not None,
                                     cpsat_options=bool(opts.cpsat_params) or opts.encoding != "auto",
                                     hybrid_options=bool(opts.portfolio) or opts.search_share is not None,
                                     search_options=opts.mode is Mode.EXHAUSTIVE)
        engine = Engine(name)
        if engine is Engine.HYBRID and not opts.portfolio:
            from solver.engine_choice import RESTART_EVERY

            restart = RESTART_EVERY
    if opts.portfolio and engine is not Engine.HYBRID:
        raise OptionError("a portfolio of seeds runs the hybrid engine (--engine hybrid)")
    if engine is Engine.HYBRID and (opts.count or puzzle.goal is not Goal.PLACE_ALL):
        raise OptionError(f"{puzzle.name}: the hybrid engine packs place-all puzzles; it does not count or maximize")
    if opts.count and puzzle.goal is Goal.MAXIMIZE:
        raise OptionError(f"{puzzle.name}: counting counts place-all solutions, and the goal is maximize")
    clock = Deadline()
    with ctrl_c_stops() as stop:
        if engine is Engine.BOTH:
            result = _both(puzzle, opts, progress, stop)
        else:
            result = _run(puzzle, engine, opts, progress, stop, restart)
    result.seconds = clock.elapsed
    result.compile_seconds = clock.held
    result.engine_reason = reason
    return result


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)  # both stop the work and hand in what was found
_active_stop: threading.Event | None = None  # the event of the ctrl_c_stops block the main thread is in


@contextmanager
def ctrl_c_stops() -> Iterator[threading.Event]:
    """While solving, Ctrl-C (SIGINT, and SIGTERM the same: ``kill``,
    ``timeout``) sets an event that the engines watch,
    so that they stop and report what they found instead of losing it to
    KeyboardInterrupt. The event is set at once even while the main thread
    is inside CP-SAT's C++ code (where Python handlers cannot run): a
    thread reads the signal from a wakeup pipe. Only the main thread can
    take signals: elsewhere the event is never set. A block inside another
    (a solve inside an annotation) shares the outer block's event, so the
    outer work hears the Ctrl-C too."""
    global _active_stop
    if threading.current_thread() is not threading.main_thread():
        yield threading.Event()
        return
    if _active_stop is not None:
        yield _active_stop
        return
    stop = _active_stop = threading.Event()
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)

    def listen() -> None:
        while data := os.read(read_end, 16):
            if any(sig in data for sig in STOP_SIGNALS):
                stop.set()

    previous = {sig: signal.signal(sig, lambda signum, frame: stop.set()) for sig in STOP_SIGNALS}
    previous_fd = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    listener = threading.Thread(target=listen, name="ctrl-c", daemon=True)
    listener.start()
    try:
        yield stop
    finally:
        _active_stop = None
        signal.set_wakeup_fd(previous_fd)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        os.close(write_end)  # the listener reads end of file and ends
        listener.join()
        os.close(read_end)


def _run(puzzle: Puzzle, engine: Engine, opts: SolveOptions, progress: ProgressCallback | None,
         stop: threading.Event | None = None, restart: float | None = None) -> SolveResult:
    if engine is Engine.SEARCH:
        from solver.packing import solve as search_solve

        result = search_solve(puzzle, opts.time_limit, opts.seed, opts.mode, opts.count, progress, stop)
    elif engine is Engine.HYBRID:
        from solver.hybrid.engine import solve as hybrid_solve
        from solver.hybrid.portfolio import portfolio, restarts

        symmetric = {Mode.SYMMETRIC: True, Mode.GENERAL: False}.get(opts.mode)
        if opts.portfolio:
            seeds = [(opts.seed + i) % (MAX_SEED + 1) for i in range(opts.portfolio)]
            jobs = opts.jobs or min(len(seeds), os.cpu_count() or 1)
            result = portfolio(puzzle, seeds, opts.time_limit, opts.workers, jobs=jobs, scheduler=opts.scheduler,
                               progress=progress, stop=stop, search_share=opts.search_share, symmetric=symmetric)
        elif restart:  # (auto's choice: a fresh seed when a run is stuck)
            result = restarts(puzzle, opts.seed, restart, opts.time_limit, opts.workers, progress, stop,
                              search_share=opts.search_share, symmetric=symmetric)
        else:
            result = hybrid_solve(puzzle, opts.time_limit, opts.seed, opts.workers, progress, stop,
                                  search_share=opts.search_share, symmetric=symmetric)
    else:
        from solver import cpsat

        result = cpsat.solve(puzzle, opts.time_limit, opts.workers, opts.seed, opts.cpsat_params, opts.encoding,
                             opts.count, opts.hint, progress, stop=stop,
                             symmetric=opts.mode is Mode.SYMMETRIC and not opts.count)
    _check(puzzle, result, opts.count)
    return result


def _check(puzzle: Puzzle, result: SolveResult, count: bool) -> None:
    """Verify what the engine reports and fill the fields that follow from
    it: the play order, and the count up to symmetry of a complete count."""
    counted = puzzle.with_goal(Goal.COUNT) if count else puzzle
    if result.placements:
        verified = verify(counted, result.placements, partial=result.best_partial)
        result.order = verified.order
        if puzzle.goal is Goal.MAXIMIZE and verified.objective != result.objective:
            raise VerificationError(
                f"{puzzle.name}: {result.engine} reports objective {result.objective}, the placements give "
                f"{verified.objective}")
    for solution in result.solutions or ():
        verify(counted, solution)
    if result.count_complete and result.solutions is not None:
        result.count_classes = count_classes(counted, result.solutions)


def _both(puzzle: Puzzle, opts: SolveOptions, progress: ProgressCallback | None,
          stop: threading.Event | None = None) -> SolveResult:
    """The search engine with half the time, then CP-SAT with the rest,
    hinted with the search engine's solution so that it can prove what
    search only found; then the two are compared."""
    from solver.puzzle.crosscheck import combine

    deadline = opts.time_limit
    left = deadline.left()
    first = _run(puzzle, Engine.SEARCH, replace(opts, time_limit=deadline.within(None if left is None else left / 2)),
                 progress, stop)
    if first.interrupted:  # Ctrl-C: report what the search engine has
        return first
    counting = opts.count or puzzle.goal is Goal.COUNT
    hint = first.placements if first.placements and not counting and not first.best_partial else None
    left = deadline.left()
    rest = deadline if left is None else Deadline(max(1.0, left))  # CP-SAT gets a second even when search took all
    second = _run(puzzle, Engine.CPSAT, replace(opts, time_limit=rest, hint=hint), progress, stop)
    return combine(puzzle, first, second)
