"""Memory of a CP-SAT solve: an estimate made before the model is built,
and what the process may still take, so that a model too large for the
machine (or for a limit on the process) gets a clean error, or fewer
workers, instead of CP-SAT aborting the whole command with
``std::bad_alloc`` part way through (C++ aborts cannot be caught).

The estimate counts the candidate placements the model could have (every
placement of the board's table for every colour taking part: the model's
own count is at most that, and close to it on open boards) and was
measured on place-all solves of 30,000 to 333,000 placements, the peak
virtual size over 60 s (benchmarks/cpsat_memory.py; figures in
benchmarks/RESULTS.md): each worker's search keeps its own copy of the
model and its learnt clauses. It errs on the large side: a model refused
here might have fitted, one let through should.

What the process may take is the least of: its address-space limit
(``ulimit -v``, RLIMIT_AS) less what it uses now, its cgroup's memory
limit less its cgroup's use, and the memory the machine has available.
Where none can be read (not Linux), nothing is checked.
"""

from __future__ import annotations

import os
import resource

from solver.puzzle.definition import Puzzle

# Measured peaks (virtual size, 60 s): solo-21 (30k placements) 398 / 420 MB with one / two workers,
# solo-84 (121k) 813 / 1,489 MB, 84 pieces on 26x26 (214k) 1,145 / 2,414 MB, on 32x32 (333k) 1,592 / 3,558 MB.
BASE = 400 << 20  # bytes: the interpreter, OR-Tools and the solver's fixed tables
PER_PLACEMENT = 6 << 10  # bytes per candidate placement: the model and the first worker's search
PER_WORKER = 512 << 20  # bytes at least for each further worker
PER_WORKER_PLACEMENT = 6 << 10  # bytes per placement for each further worker, when more than PER_WORKER


def candidate_placements(puzzle: Puzzle) -> int:
    """An upper bound on the model's placement booleans."""
    return len(puzzle.table.squares) * len(puzzle.colors)


def estimate(puzzle: Puzzle, workers: int) -> int:
    """Bytes a solve with ``workers`` workers may reach at its peak."""
    placements = candidate_placements(puzzle)
    more = max(PER_WORKER, PER_WORKER_PLACEMENT * placements)
    return BASE + PER_PLACEMENT * placements + (max(1, workers) - 1) * more


def _meminfo(name: str) -> int | None:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith(name + ":"):
                    return int(line.split()[1]) << 10
    except (OSError, ValueError, IndexError):
        pass
    return None


def _used_address_space() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _cgroup_room() -> int | None:
    """The cgroup (v2) memory limit less its use, if it has a limit."""
    try:
        with open("/proc/self/cgroup") as f:
            path = next((line.split(":", 2)[2].strip() for line in f if line.startswith("0::")), None)
        if path is None:
            return None
        folder = os.path.join("/sys/fs/cgroup", path.lstrip("/"))
        with open(os.path.join(folder, "memory.max")) as f:
            limit = f.read().strip()
        if limit == "max":
            return None
        with open(os.path.join(folder, "memory.current")) as f:
            return int(limit) - int(f.read().strip())
    except (OSError, ValueError, StopIteration):
        return None


def available() -> tuple[int, str] | None:
    """(bytes the process may still take, what limits it), or None when
    nothing can be read."""
    found = []
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        found.append((soft - _used_address_space(), "the process's address-space limit (ulimit -v)"))
    room = _cgroup_room()
    if room is not None:
        found.append((room, "the memory limit of the process's cgroup"))
    free = _meminfo("MemAvailable")
    if free is not None:
        found.append((free, "the memory available on this machine"))
    return min(found) if found else None


def _gb(n: int) -> str:
    return f"{n / 2**30:.1f} GB"


def fit_workers(puzzle: Puzzle, workers: int) -> tuple[int, str | None]:
    """The workers a solve can have within the memory the process may take:
    (``workers``, None), or (fewer, why). A model that does not fit with
    one worker raises CpsatError (before it is built)."""
    from solver.cpsat.variables import CpsatError

    room = available()
    if room is None:
        return workers, None
    left, why = room
    one = estimate(puzzle, 1)
    if one > left:
        raise CpsatError(
            f"{puzzle.name}: the CP-SAT model ({candidate_placements(puzzle):,} candidate placements) needs about "
            f"{_gb(one)}, and {why} leaves {_gb(max(0, left))}: use the search engine (--engine search), a "
            "smaller board, or more memory")
    fitted = workers
    while fitted > 1 and estimate(puzzle, fitted) > left:
        fitted -= 1
    if fitted == workers:
        return workers, None
    return fitted, (f"{fitted} CP-SAT worker{'s' if fitted > 1 else ''}, not {workers}: each needs about "
                    f"{_gb(estimate(puzzle, 2) - one)} more and {why} leaves {_gb(left)}")
