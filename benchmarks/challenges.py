"""Every bundled challenge with the search engine under a fixed time limit:
status, seconds and nodes per challenge.

    python benchmarks/challenges.py [--time-limit 300] [--seed 0] [--only NAME ...]

Figures go to benchmarks/RESULTS.md by hand, with the date and the command.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.puzzle_file import load_puzzle  # noqa: E402
from solver.search import solve  # noqa: E402

# (label, puzzle file, solve options)
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
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--time-limit", type=float, default=300.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="*", help="labels (or their first word) to run")
    args = ap.parse_args()
    print(f"search engine, time limit {args.time_limit:g} s, seed {args.seed}")
    print(f"{'challenge':<40} {'status':<11} {'seconds':>8} {'nodes':>12}  notes")
    for label, name, options in CASES:
        if args.only and label not in args.only and label.split()[0] not in args.only:
            continue
        puzzle = load_puzzle(ROOT / "puzzles" / f"{name}.toml")
        start = time.perf_counter()
        result = solve(puzzle, time_limit=args.time_limit, seed=args.seed, **options)
        seconds = time.perf_counter() - start
        notes = result.stats.get("method", "")
        if options.get("count"):
            complete = result.stats.get("count_complete")
            notes += f", {result.solution_count} solutions" + ("" if complete else " so far (incomplete)")
            if result.count_classes is not None:
                notes += f", {result.count_classes} up to symmetry"
        print(f"{label:<40} {result.status.value:<11} {seconds:>8.2f} {result.nodes:>12,}  {notes}", flush=True)


if __name__ == "__main__":
    main()
