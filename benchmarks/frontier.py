"""Frontier packings: the search engine alone against the hybrid
(search, then CP-SAT large neighbourhood search), on each frontier puzzle
over a few seeds, with a time limit per run.

For each run: the status, the seconds to the first complete packing (the
solve's time when it found one, else -), and the pieces placed by the best
(partial) packing at the limit; for the hybrid also the pieces the search
engine had placed when the LNS took over, and its steps and gains. Every
packing is verified (a complete one as a solution, the others as partial
packings) before it is counted.

    python benchmarks/frontier.py --limit 60                 # every frontier puzzle, 3 seeds
    python benchmarks/frontier.py --limit 120 --puzzles frontier-19x19 --seeds 1 2 3
    python benchmarks/frontier.py --limit 60 --jobs 2        # two runs at a time (Dask LocalCluster)

With ``--jobs N`` the runs go through :func:`solver.cluster.run_tasks`
(one process per run); without it they run one after the other here.
CP-SAT gets ``--cpsat-workers`` (default 2: with one worker it barely
leaves the hint it is given) in each LNS step.
"""

from __future__ import annotations

import argparse
import os
import sys
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PUZZLES = ("frontier-19x19", "frontier-18x20", "frontier-21x17",
           "frontier-2c-13x14", "frontier-2c-12x15", "frontier-2c-12x15-side", "frontier-2c-10x18")
ENGINES = ("search", "hybrid")


def run_one(job: tuple[str, str, int], limit: float, cpsat_workers: int, search_share: float | None = None) -> dict:
    """One run: (puzzle name, engine, seed) -> its figures (verified)."""
    from solver.formats.puzzle_file import load_puzzle
    from solver.hybrid import engine as hybrid
    from solver.hybrid.settings import Settings
    from solver.puzzle.result import Status
    from solver.puzzle.verify import verify
    from solver.solving import solve

    name, engine, seed = job
    puzzle = load_puzzle(ROOT / "puzzles" / f"{name}.toml")
    if search_share is not None and engine == "hybrid":  # the search phase's share, with no cap
        settings = Settings(search_share=search_share, search_max=float("inf"))
        r = hybrid.solve(puzzle, limit, seed, cpsat_workers, settings=settings)
    else:
        r = solve(puzzle, engine, time_limit=limit, seed=seed, workers=cpsat_workers)
    complete = r.status is Status.OPTIMAL
    verify(puzzle, r.placements, partial=not complete)
    return {
        "puzzle": name, "engine": engine, "seed": seed, "status": r.status.value,
        "first": round(r.seconds, 1) if complete else None, "seconds": round(r.seconds, 1),
        "pieces": len(r.placements), "total": sum(len(puzzle.pieces[c]) for c in puzzle.colors),
        "start": r.stats.get("start_pieces"), "steps": r.stats.get("lns_steps"), "gains": r.stats.get("lns_gains"),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per run (default 60)")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3], help="seeds (default 1 2 3)")
    ap.add_argument("--puzzles", nargs="+", default=list(PUZZLES), help="puzzle names (default: all frontier ones)")
    ap.add_argument("--engines", nargs="+", default=list(ENGINES), choices=ENGINES)
    ap.add_argument("--jobs", type=int, default=0, help="runs at a time on a Dask LocalCluster (default: serial)")
    ap.add_argument("--cpsat-workers", type=int, default=2, 
                    help="CP-SAT workers per LNS step (default 2)")
    ap.add_argument("--search-share", type=float, default=None,
                    help="share of the limit the hybrid gives the search engine first (default: the engine's own)")
    args = ap.parse_args(argv)

    from solver.cluster import run_serial, run_tasks

    jobs = [(name, engine, seed) for name in args.puzzles for seed in args.seeds for engine in args.engines]
    task = partial(run_one, limit=args.limit, cpsat_workers=args.cpsat_workers, search_share=args.search_share)
    inputs = [(f"{n}/{e}/{s}", job) for job in jobs for n, e, s in [job]]
    stream = run_tasks(task, inputs, workers=args.jobs) if args.jobs else run_serial(task, inputs)
    results = {}
    for outcome in stream:
        if not outcome.ok:
            print(f"  {outcome.name}: FAILED {outcome.error}", flush=True)
            continue
        v = outcome.value
        results[v["puzzle"], v["engine"], v["seed"]] = v
        print(f"  done {outcome.name}: {v['status']} {v['pieces']}/{v['total']} in {v['seconds']} s", file=sys.stderr,
              flush=True)
    share = "" if args.search_share is None else f", hybrid search share {args.search_share:g}"
    print(f"limit {args.limit:g} s per run, seeds {' '.join(map(str, args.seeds))}{share}, "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    head = "  ".join(f"{e + ': status, first, best':<32}" for e in args.engines)
    print(f"{'puzzle':<18} {'seed':>4}  {head}")
    for name in args.puzzles:
        for seed in args.seeds:
            cells = []
            for e in args.engines:
                v = results.get((name, e, seed))
                if v is None:
                    cells.append(f"{'failed':<32}")
                    continue
                first = f"{v['first']:.1f} s" if v["first"] is not None else "-"
                extra = f" (from {v['start']}, {v['gains']}/{v['steps']} steps)" if v["start"] is not None else ""
                cells.append(f"{v['status']:<8} {first:>7} {v['pieces']:>2}/{v['total']}{extra}".ljust(32))
            print(f"{name:<18} {seed:>4}  {'  '.join(cells)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
