"""A portfolio of hybrid runs with different seeds on Dask: the first
complete packing wins, else the best partial one."""

from __future__ import annotations

import threading
from dataclasses import replace

from solver.core.text import counted
from solver.deadline import Deadline
from solver.errors import OptionError
from solver.hybrid.engine import solve
from solver.hybrid.lns import squares_placed
from solver.hybrid.settings import DEFAULT, Settings
from solver.puzzle.definition import Puzzle
from solver.puzzle.result import Progress, ProgressCallback, SolveResult, Status
from solver.puzzle.verify import verify


def _portfolio_task(seed: int, puzzle: Puzzle, time_limit: float | None, workers: int,
                    search_share: float | None = None, symmetric: bool | None = None,
                    stop: threading.Event | None = None, settings: Settings = DEFAULT) -> SolveResult:
    """One hybrid run of the portfolio (module level: Dask pickles it)."""
    return solve(puzzle, time_limit, seed, workers, stop=stop, search_share=search_share, symmetric=symmetric,
                 settings=settings)


class _Halt(threading.Event):
    """The portfolio's stop: set by the portfolio once a run has a complete
    packing, and set whenever the caller's stop (Ctrl-C) is."""

    def __init__(self, caller: threading.Event | None):
        super().__init__()
        self.caller = caller

    def is_set(self) -> bool:
        return super().is_set() or (self.caller is not None and self.caller.is_set())


def portfolio(puzzle: Puzzle, seeds: list[int], time_limit: Deadline | float | None = 60.0, workers: int = 0,
              jobs: int | None = None, scheduler: str | None = None, progress: ProgressCallback | None = None,
              stop: threading.Event | None = None, search_share: float | None = None,
              symmetric: bool | None = None, settings: Settings = DEFAULT) -> SolveResult:
    """Hybrid runs with different seeds on Dask (:func:`solver.cluster.run_tasks`:
    a LocalCluster of ``jobs`` processes, one per seed by default, or the
    cluster of ``scheduler``, where runs beyond its workers wait their turn;
    ``jobs`` 1 runs them one after the other here), each with the whole
    ``time_limit``. The first complete packing wins (the runs still going
    are stopped), else the best partial one (most squares placed). When
    ``stop`` is set (Ctrl-C), the runs going stop and report their best
    partials, the runs not started are skipped, and the best so far is
    returned, ``interrupted``. ``progress`` hears of each run as it ends.
    ``workers`` are CP-SAT's per LNS step; ``search_share``, ``symmetric``
    and ``settings`` as in :func:`solver.hybrid.engine.solve`."""
    from functools import partial as bind

    from solver.cluster import run_serial, run_tasks

    clock = Deadline()
    seconds = Deadline.of(time_limit).left()  # (other processes, maybe other machines: a Deadline stays here)
    task = bind(_portfolio_task, puzzle=puzzle, time_limit=seconds, workers=workers,
                search_share=search_share, symmetric=symmetric, settings=settings)
    inputs = [(f"seed {s}", s) for s in seeds]
    halt = _Halt(stop)

    def ready(workers: int) -> None:
        if progress is not None:
            progress(Progress(clock.elapsed, 0, f"portfolio: {counted(len(seeds), 'run')} on {counted(workers, 'worker')}", notice=True))

    if jobs == 1 and scheduler is None:
        stream = run_serial(task, inputs, stop=halt)
    else:
        stream = run_tasks(task, inputs, workers=jobs or len(seeds), scheduler=scheduler, stop=halt, ready=ready)
    total = sum(len(puzzle.pieces.get(c, ())) for c in puzzle.colors)
    best: SolveResult | None = None
    errors = []
    ended = 0
    for outcome in stream:
        if outcome.skipped:
            continue
        ended += 1
        if not outcome.ok:
            errors.append(f"{outcome.name}: {outcome.error}")
            continue
        r = outcome.value
        verify(puzzle, r.placements, partial=r.status is not Status.OPTIMAL)
        key = (r.status is Status.OPTIMAL, squares_placed(puzzle, r.placements))
        if best is None or key > (best.status is Status.OPTIMAL, squares_placed(puzzle, best.placements)):
            best = r
            best.method = f"portfolio of {len(seeds)} seeds, best {outcome.name}: {r.method}"
        if progress is not None:
            progress(Progress(clock.elapsed, 0, f"{outcome.name}: {r.status.value} {len(r.placements)}/{total} pieces;"
                                                f" {ended} of {len(seeds)} runs done, best {len(best.placements)}/{total}",
                              done=ended, total=len(seeds)))
        if r.status is Status.OPTIMAL:  # the first complete packing wins: the other runs are stopped
            halt.set()
    stream.close()  # (shuts down a cluster started here)
    if best is None:
        if stop is not None and stop.is_set() and not errors:
            return SolveResult(Status.UNKNOWN, "hybrid", f"portfolio of {len(seeds)} seeds, stopped before a run ended",
                               interrupted=True)
        raise OptionError(f"{puzzle.name}: every run of the portfolio failed: {'; '.join(errors)}")
    best.stats["portfolio_failed"] = len(errors)
    best.interrupted = stop is not None and stop.is_set()
    return best


def restarts(puzzle: Puzzle, seed: int, every: float, time_limit: Deadline | float | None = 60.0, workers: int = 0,
             progress: ProgressCallback | None = None, stop: threading.Event | None = None,
             search_share: float | None = None, symmetric: bool | None = None,
             settings: Settings = DEFAULT) -> SolveResult:
    """Hybrid runs one after the other in this process, seeds ``seed``,
    ``seed + 1``, ..., each for ``every`` seconds at most, until one packs
    the puzzle, the limit runs out or ``stop`` (Ctrl-C) is set; the best
    partial packing otherwise. A run's time to a packing varies a lot
    with the seed (frontier 18x20 and 19x19, 30 s runs, seeds 0-5: 8 of
    11 packed, in 1.7 to 22 s; the others not in 60 s either), so a fresh
    seed does better than more time for a stuck one."""
    deadline = Deadline.of(time_limit)
    clock = Deadline()
    best: SolveResult | None = None
    runs = 0
    while True:
        run_seed = (seed + runs) % (2**31)
        offset = clock.elapsed  # each run's reports count from its own start: shifted to the whole's

        def heard(info: Progress, offset: float = offset) -> None:
            progress(replace(info, elapsed=info.elapsed + offset))

        r = solve(puzzle, deadline.within(every), run_seed, workers, heard if progress else None, stop,
                  search_share=search_share, symmetric=symmetric, settings=settings)
        runs += 1
        if best is None or r.status is not Status.UNKNOWN or (
                squares_placed(puzzle, r.placements) > squares_placed(puzzle, best.placements)):
            best = r
            best.method = f"restarts every {every:g} s, run {runs} (seed {run_seed}): {r.method}"
        left = deadline.left()
        if r.status is not Status.UNKNOWN or r.interrupted or (left is not None and left < 1.0):
            break
        if progress is not None:
            progress(Progress(clock.elapsed, 0, f"restart {runs}: seed {run_seed + 1} (best so far "
                                                f"{len(best.placements)} pieces)", notice=True))
    best.stats["restarts"] = runs - 1
    return best
