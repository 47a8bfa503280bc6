"""LNS ideas side by side on the same seeds, in one run (the
machine is shared: compare only within one run; the load averages are
printed at the start and the end).

Each variant is the hybrid engine with some of its module settings
changed (solver/hybrid/settings.py: hole_windows, restart, symmetric, ...); the
variants of one seed run one after the other, then the next seed, so that
a change of load hits all variants alike. For each run: the status, the
seconds to the first complete packing, the best pieces at the limit, the
pieces the LNS started from, steps / gains / restarts, and when each new
best was reached.

    python benchmarks/frontier_ideas.py --puzzle frontier-2c-13x14 --limit 60 --variants base holes sym
    python benchmarks/frontier_ideas.py --puzzle frontier-18x20 --limit 120 --seeds 1 2 3 --variants base sym
    python benchmarks/frontier_ideas.py --puzzle frontier-2c-13x14 --limit 75 --seeds 1 --variants base holes \
        --start benchmarks/data/frontier-2c-13x14-stall-s1.json     # the LNS alone, from a stalled packing
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

VARIANTS: dict[str, dict] = {
    "base": {},  # the defaults (the quarter turn where it applies)
    "general": {"SYMMETRIC": False},  # no symmetry (the default before 2026-12-01)
    "holes": {"HOLE_WINDOWS": 0.5},  # half the steps free the pieces near a few close holes
    "restart": {"RESTART": 40},  # after 40 steps without a gain, the LNS starts again from nothing
    "holes+restart": {"HOLE_WINDOWS": 0.5, "RESTART": 40},
    "lns-only": {"SEARCH_SHARE": 0.0, "QUARTER_SHARE": 0.0},  # no search phase: the LNS from nothing
    "sym": {"SYMMETRIC": True},  # symmetric beam (quarter turn, else half turn), then symmetric LNS
    "clump": {"CLUMP": True},  # among equals, holes that touch (instead of the sink)
    "long-steps": {"STEP_MAX": 24.0},  # steps of 3 s, 6 s, ... up to 24 s while stuck
    "sym-lns-only": {"SYMMETRIC": True, "SEARCH_SHARE": 0.0, "QUARTER_SHARE": 0.0},
    "sym+holes": {"SYMMETRIC": True, "HOLE_WINDOWS": 0.5},
    "sym+restart": {"SYMMETRIC": True, "RESTART": 40},
    "scatter": {"SCATTER": 0.5},  # half the steps free the pieces next to holes all over the board
    "scatter-all": {"SCATTER": 1.0},
    "sym+scatter": {"SYMMETRIC": True, "SCATTER": 0.5},
    "beam64": {"BEAM_CAP": 64},  # symmetric beams of width 64 with new seeds instead of 256, 1024
    "beam64-long": {"BEAM_CAP": 64, "QUARTER_SHARE": 0.9},  # ... for 90% of the limit
    "beam32-long": {"BEAM_CAP": 32, "QUARTER_SHARE": 0.9},
    "long": {"QUARTER_SHARE": 0.9},  # quarter turn: the symmetric beams for 90% of the limit (the default now)
    "short": {"QUARTER_SHARE": 0.5},  # quarter turn: the beams for half the limit (the default before)
}


def run_one(name: str, seed: int, variant: str, limit: float, workers: int, start: str | None = None) -> dict:
    from solver.formats.puzzle_file import load_puzzle
    from solver.hybrid import engine as hybrid
    from solver.hybrid.lns import LnsStats
    from solver.hybrid.settings import Settings
    from solver.puzzle.result import Status
    from solver.puzzle.verify import verify

    changes = dict(VARIANTS[variant])
    symmetric = changes.pop("SYMMETRIC", None)
    settings = Settings(**{k.lower(): v for k, v in changes.items()})
    puzzle = load_puzzle(ROOT / "puzzles" / f"{name}.toml")
    stats = LnsStats()
    placements = None
    if start is not None:
        from solver.formats.solution_file import read_solution

        placements, _ = read_solution(puzzle, start)
    r = hybrid.solve(puzzle, limit, seed, workers, stats=stats, start=placements, symmetric=symmetric,
                     settings=settings)
    complete = r.status is Status.OPTIMAL
    verify(puzzle, r.placements, partial=not complete)
    return {"status": r.status.value, "seconds": r.seconds if hasattr(r, "seconds") else None,
            "pieces": len(r.placements), "total": sum(len(puzzle.pieces[c]) for c in puzzle.colors),
            "start": r.stats.get("start_pieces"), "steps": r.stats.get("lns_steps"),
            "gains": r.stats.get("lns_gains"), "restarts": r.stats.get("lns_restarts"),
            "history": stats.history, "method": r.method, "placements": r.placements}


def main(argv: list[str] | None = None) -> int:
    import json
    import time

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--puzzle", default="frontier-2c-13x14")
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--variants", nargs="+", default=["base", "holes"], choices=list(VARIANTS))
    ap.add_argument("--cpsat-workers", type=int, default=2)
    ap.add_argument("--start", metavar="FILE", help="the LNS alone, from this (partial) solution file")
    ap.add_argument("--save", metavar="DIR", help="write each complete packing here as a solution file")
    args = ap.parse_args(argv)
    load = lambda: " ".join(f"{x:.2f}" for x in os.getloadavg())  # noqa: E731
    start = f", LNS from {args.start}" if args.start else ""
    print(f"{args.puzzle}, limit {args.limit:g} s per run{start}, load average at start {load()}", flush=True)
    rows = []
    for seed in args.seeds:
        for variant in args.variants:
            t0 = time.monotonic()
            v = run_one(args.puzzle, seed, variant, args.limit, args.cpsat_workers, args.start)
            took = time.monotonic() - t0
            first = f"{took:.1f} s" if v["status"] == "OPTIMAL" else "-"
            hist = " ".join(f"{p}@{t:.0f}" for t, p in v["history"])
            lns = (f"from {v['start']}, {v['gains']}/{v['steps']} steps, {v['restarts']} restarts; best at {hist}"
                   if v["start"] is not None else f"(search phase: {v['method']})")
            row = f"{variant:<14} {seed:>4}  {v['status']:<8} {first:>8} {v['pieces']:>2}/{v['total']}  {lns}"
            print(row, flush=True)
            rows.append(row)
            if v["status"] == "OPTIMAL" and args.save:
                from solver.formats.puzzle_file import load_puzzle
                from solver.formats.solution_file import solution_to_json

                puzzle = load_puzzle(ROOT / "puzzles" / f"{args.puzzle}.toml")
                out = Path(args.save) / f"{args.puzzle}-{variant}-s{seed}.json"
                out.write_text(json.dumps(solution_to_json(puzzle, v["placements"]), indent=1))
                print(f"  saved {out}", flush=True)
    print(f"load average at end {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
