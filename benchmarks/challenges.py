"""Every bundled challenge with each engine under a fixed time limit:
status, seconds and work (nodes, or CP-SAT branches) per challenge.

    python benchmarks/challenges.py [--time-limit 300] [--seed 0] [--rounds 1]
        [--engines auto,search,cpsat-cuts,cpsat-levels,cpsat-hinted,hybrid] [--only NAME ...]

``auto`` is ``blokus solve``'s default (the notes say what it picked),
``cpsat-hinted`` hands CP-SAT the search engine's solution as a complete
hint, ``hybrid`` runs on place-all puzzles only. With ``--rounds N`` every
challenge runs N times with each engine, the engines' order reversed in
every other round (side by side on the same machine load). Figures go to
benchmarks/RESULTS.md by hand, with the date and the command.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver import cpsat  # noqa: E402
from solver.formats.puzzle_file import load_puzzle  # noqa: E402
from solver.packing import solve  # noqa: E402
from solver.puzzle.definition import Goal  # noqa: E402
from solver.solving import solve as solve_any  # noqa: E402

# (label, puzzle file, search options)
CASES = [
    ("solo-21", "solo-21", {}),
    ("solo-84 (auto: symmetric first)", "solo-84", {}),
    ("solo-84 --mode general", "solo-84", {"mode": "general"}),
    ("solo-84-monomino-last (auto)", "solo-84-monomino-last", {}),
    ("solo-84-monomino-last --mode general", "solo-84-monomino-last", {"mode": "general"}),
    ("duo-solo-21", "duo-solo-21", {}),
    ("tetromino-8x10 --count", "tetromino-8x10", {"count": True}),
    ("tetromino-8x10-distinct", "tetromino-8x10-distinct", {}),
    ("stars-8x8", "stars-8x8", {}),
    ("avoid-x-7x7", "avoid-x-7x7", {}),
    ("connect-8x8", "connect-8x8", {}),
    ("fill-6x6-impossible", "fill-6x6-impossible", {}),
    ("trigon-solo-22", "trigon-solo-22", {}),
    ("trigon-stars-hex3 --count", "trigon-stars-hex3", {"count": True}),
    ("frontier-18x20", "frontier-18x20", {}),
    ("frontier-19x19", "frontier-19x19", {}),
    ("frontier-21x17", "frontier-21x17", {}),
    ("frontier-2c-10x18", "frontier-2c-10x18", {}),
    ("frontier-2c-12x15", "frontier-2c-12x15", {}),
    ("frontier-2c-13x14", "frontier-2c-13x14", {}),
]
ENGINES = ("auto", "search", "cpsat-cuts", "cpsat-levels", "cpsat-hinted", "hybrid")


def run(engine: str, puzzle, options: dict, time_limit: float, seed: int, found: dict):
    count = options.get("count", False)
    if engine in ("auto", "hybrid"):
        if engine == "hybrid" and (count or puzzle.goal is not Goal.PLACE_ALL):
            return None  # the hybrid packs place-all puzzles only
        return solve_any(puzzle, engine, time_limit=time_limit, seed=seed, **options)
    if engine == "search":
        return solve(puzzle, time_limit=time_limit, seed=seed, **options)
    if engine == "cpsat-hinted":
        hint = found.get("search")
        if not hint or count:
            return None
        return cpsat.solve(puzzle, time_limit=time_limit, seed=seed, hint=hint)
    encoding = engine.split("-")[1]
    if count and encoding == "levels":
        return None  # counting always uses cuts
    return cpsat.solve(puzzle, time_limit=time_limit, seed=seed, encoding=encoding, count=count)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--time-limit", type=float, default=300.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--only", nargs="*", help="labels (or their first word) to run")
    ap.add_argument("--rounds", type=int, default=1, help="runs per engine, the order reversed every other round")
    args = ap.parse_args()
    engines = args.engines.split(",")
    print(f"time limit {args.time_limit:g} s, seed {args.seed}")
    print(f"{'challenge':<38} {'engine':<13} {'status':<11} {'seconds':>8} {'work':>11}  notes")
    for label, name, options in CASES:
        if args.only and label not in args.only and label.split()[0] not in args.only:
            continue
        puzzle = load_puzzle(ROOT / "puzzles" / f"{name}.toml")
        for round_ in range(args.rounds):
            run_round(label, puzzle, options, engines if round_ % 2 == 0 else engines[::-1], args)


def run_round(label: str, puzzle, options: dict, engines: list[str], args) -> None:
    found: dict = {}
    if "cpsat-hinted" in engines and "search" not in engines[:engines.index("cpsat-hinted")]:
        hint = solve(puzzle, time_limit=args.time_limit, seed=args.seed, **options)  # the hint comes first
        found["search"] = hint.placements if hint.placements and not hint.best_partial else None
    for engine in engines:
        if engine.startswith("cpsat") and options.get("mode") == "general" and engine != "cpsat-hinted":
            continue  # the CP-SAT model never assumes symmetry: the plain row covers it
        start = time.perf_counter()
        result = run(engine, puzzle, options, args.time_limit, args.seed, found)
        if result is None:
            continue
        seconds = time.perf_counter() - start
        if engine == "search" and result.placements and not result.best_partial:
            found["search"] = result.placements
        notes = result.method or result.stats.get("method", "")
        if engine == "auto":
            notes = f"chose {result.engine}: {notes}"
        if "variables" in result.stats:
            notes += f", {result.stats['variables']:,} variables, {result.stats['constraints']:,} constraints"
        if options.get("count"):
            complete = result.count_complete or result.stats.get("count_complete")
            notes += f", {result.solution_count} solutions" + ("" if complete else " so far (incomplete)")
            if result.count_classes is not None:
                notes += f", {result.count_classes} up to symmetry"
        print(f"{label:<38} {engine:<13} {result.status.value:<11} {seconds:>8.2f} {result.nodes:>11,}  {notes}",
              flush=True)


if __name__ == "__main__":
    main()
