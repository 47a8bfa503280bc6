"""``blokus warm-up``: compile every kernel ahead of time, so that the
first ``analyze``, ``annotate`` or packing solve after an install starts
at once instead of compiling for a minute or two.

Three small jobs between them call every compiled kernel: a game-tree
search from the start of a Duo game (the game-tree engine, with the
reach tables and bit helpers it calls), an exhaustive packing of
tetromino-8x10 (the fill kernel) and a chunk of each mode of the waste
search on frontier-21x17 (a timed hybrid start did not always reach
it). Each runs in a process of its own, as many at once as there are
cores (numba compiles one kernel at a time per process), and each
writes its kernels to the kernel cache that later commands read; then
each runs once more, one after the other, to compile what a concurrent
save of a shared kernel's cache index may have lost.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Callable

from solver.deadline import Deadline
from solver.endgame.trees import compile_game_tree
from solver.puzzle.result import Progress, ProgressCallback


def _packing(name: str, engine: str, mode: str) -> None:
    from solver.formats.bundled import find
    from solver.formats.puzzle_file import load_puzzle
    from solver.solving import solve

    solve(load_puzzle(find(name, ".toml")), engine, time_limit=1.0, mode=mode)


def _fill_kernel() -> None:
    _packing("tetromino-8x10", "search", "exhaustive")


def _waste_search() -> None:
    """A chunk of the waste search in each of its modes, as the hybrid runs
    it on a frontier board (a timed hybrid run need not reach it)."""
    from solver.formats.bundled import find
    from solver.formats.puzzle_file import load_puzzle
    from solver.packing.wastefast import CompiledWasteSearch

    puzzle = load_puzzle(find("frontier-21x17", ".toml"))
    for symmetric in (False, True):
        next(iter(CompiledWasteSearch(puzzle, chunk=1000, symmetric=symmetric).solutions()))


@dataclass(frozen=True)
class Job:
    name: str  # what it compiles, for people
    run: Callable[[], None]


JOBS = (Job("the game-tree engine", compile_game_tree), Job("the fill kernel", _fill_kernel),
        Job("the waste search", _waste_search))


def _compiled_in(run: Callable[[], None]) -> tuple[float, int]:
    """Run on a worker process: seconds taken and kernels compiled."""
    from solver.kernels.compiles import compile_watch

    start = time.monotonic()  # a wall clock: a Deadline's stands still while kernels compile
    compiled = []
    with compile_watch(lambda module, started: started and compiled.append(module)):
        run()
    return time.monotonic() - start, len(compiled)


@dataclass(frozen=True)
class WarmUp:
    """What a warm-up did: per job, (name, seconds, kernels compiled)."""

    jobs: list[tuple[str, float, int]]
    seconds: float

    @property
    def compiled(self) -> int:
        return sum(n for _, _, n in self.jobs)


def warm_up(progress: ProgressCallback | None = None, processes: int | None = None) -> WarmUp:
    """Compile every kernel (see the module docstring); ``processes``
    (default: the cores, at most one per job) run the jobs at once.
    Kernels already in the cache are loaded, not compiled again."""
    clock = Deadline()
    processes = max(1, min(len(JOBS), processes or os.cpu_count() or 1))
    done: list[tuple[str, float, int]] = []

    def report(text: str) -> None:
        if progress is not None:
            progress(Progress(clock.elapsed, 0, text, notice=True, done=len(done), total=len(JOBS)))

    report(f"warm-up: compiling {', '.join(job.name for job in JOBS)}")
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {pool.submit(_compiled_in, job.run): job for job in JOBS}
        for future in as_completed(futures):
            seconds, compiled = future.result()
            done.append((futures[future].name, seconds, compiled))
            report(f"warm-up: {futures[future].name} ready ({compiled} kernels compiled in {seconds:.1f} s)")
        # jobs that ran at once may have saved the same shared kernel's cache index over each other (the
        # bit helpers: numba's index is one file per kernel), losing an entry: each job once more, one after
        # the other, loads what is kept and compiles what was lost
        report("warm-up: checking the cache")
        for i, (name, seconds, compiled) in enumerate(list(done)):
            again, more = pool.submit(_compiled_in, next(job.run for job in JOBS if job.name == name)).result()
            done[i] = (name, seconds + again, compiled + more)
    order = [job.name for job in JOBS]
    return WarmUp(sorted(done, key=lambda item: order.index(item[0])), clock.elapsed)
