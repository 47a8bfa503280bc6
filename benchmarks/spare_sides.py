"""A count of one colour's spare squares side by side: each engine with the
bound and without, on one colour's 21 pieces on rectangles near the
smallest that hold them, the arms alternating board by board (which goes
first alternates too). ``--bound sides``: the spare squares' sides
(solver/puzzle/edges.py, ``spare_sides``); ``--bound windows``: the window
count (solver/puzzle/windows.py). The other count is in both arms.

- search: the compiled waste search alone (solver/packing/wastefast.py)
  with the kernel's EDGES (or WINDOWS) test and without it: the answer (a
  packing, none, or open at the limit), nodes and seconds.
- cpsat: CP-SAT (two workers, through solver.solving.solve) with the
  constraint in its model and without it.

    python benchmarks/spare_sides.py [--limit 60] [--engines search,cpsat] [--bound sides|windows]
                                     [--boards 3x41 11x12 ...]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from smallest_boards import one_colour

from solver.cpsat import model as cpsat_model
from solver.packing import wastekernel
from solver.packing.wastefast import CompiledWasteSearch
from solver.puzzle.edges import spare_sides
from solver.puzzle.windows import window_bound
from solver.solving import solve

# impossible near the counting bound, then three that pack
BOARDS = ["3x41", "3x42", "3x43", "4x32", "5x26", "6x22", "7x19", "9x15", "11x12", "3x49", "3x50", "4x38"]
BASE = wastekernel.ONLY_ONE | wastekernel.FIT
# per bound: the kernel test, the model's constraint, the figure shown per board
BOUNDS = {
    "sides": (wastekernel.EDGES, "_add_spare_sides", spare_sides),
    "windows": (wastekernel.WINDOWS, "_add_window_count", window_bound),
}


def run_search(puzzle, options: int, limit: float) -> tuple[str, int, float]:
    """The compiled waste search alone: packed, none or open, nodes, seconds."""
    t0 = time.monotonic()
    search = CompiledWasteSearch(puzzle, options=options)
    while not search.finished and time.monotonic() - t0 < limit:
        if search.step(200_000) is not None:
            return "packed", search.nodes, time.monotonic() - t0
    return ("none" if search.finished else "open"), search.nodes, time.monotonic() - t0


def run_cpsat(puzzle, constraint: str | None, limit: float) -> tuple[str, int, float]:
    """CP-SAT through solve, its model without ``constraint`` when one is named."""
    kept = getattr(cpsat_model, constraint) if constraint else None
    if constraint:
        setattr(cpsat_model, constraint, lambda m: None)
    try:
        r = solve(puzzle, "cpsat", time_limit=limit, workers=2)
    finally:
        if constraint:
            setattr(cpsat_model, constraint, kept)
    answer = {"OPTIMAL": "packed", "INFEASIBLE": "none"}.get(r.status.value, "open")
    return answer, 0, r.seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--engines", default="search,cpsat")
    ap.add_argument("--boards", nargs="*", default=BOARDS)
    ap.add_argument("--bound", default="sides", choices=sorted(BOUNDS))
    args = ap.parse_args()
    engines = args.engines.split(",")
    test, constraint, figure = BOUNDS[args.bound]
    base = BASE | sum(t for name, (t, _, _) in BOUNDS.items() if name != args.bound)
    CompiledWasteSearch(one_colour(3, 41)).step(1000)  # the kernel compiled or loaded before any clock
    print(f"load {os.getloadavg()[0]:.2f}; {args.limit:.0f} s per run")
    print(f"{'board':>6} {'spare':>5} {args.bound:>7}  {'engine':<7} {'with the bound':<30} {'without':<30}",
          flush=True)
    totals = {e: [0.0, 0.0] for e in engines}
    for n, name in enumerate(args.boards):
        w, h = (int(x) for x in name.split("x"))
        puzzle = one_colour(w, h)
        for engine in engines:
            arms = [True, False] if n % 2 == 0 else [False, True]
            got = {}
            for bounded in arms:
                if engine == "search":
                    got[bounded] = run_search(puzzle, base | test if bounded else base, args.limit)
                else:
                    got[bounded] = run_cpsat(puzzle, None if bounded else constraint, args.limit)
            cells = []
            for i, bounded in enumerate((True, False)):
                answer, nodes, seconds = got[bounded]
                totals[engine][i] += seconds
                cells.append(f"{answer} {seconds:.1f}s" + (f" {nodes / 1e6:.2f}M nodes" if engine == "search" else ""))
            print(f"{name:>6} {puzzle.spare_squares:>5} {figure(puzzle):>7}  {engine:<7} {cells[0]:<30} {cells[1]:<30}",
                  flush=True)
    for engine, (a, b) in totals.items():
        print(f"{engine}: {a:.1f} s with the bound, {b:.1f} s without (runs at the limit count the limit)")


if __name__ == "__main__":
    main()
