"""The exact search with a waste budget (solver/packing/waste.py)
on a frontier puzzle: nodes, nodes per second and the most pieces placed
at any node, reported every few seconds until the limit or a packing.

    python benchmarks/waste_search.py --puzzle frontier-2c-13x14 --limit 300
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    from solver.formats.puzzle_file import load_puzzle
    from solver.packing.waste import WasteSearch
    from solver.puzzle.verify import verify

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--puzzle", default="frontier-2c-13x14")
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--every", type=float, default=30.0, help="seconds between reports")
    args = ap.parse_args(argv)
    puzzle = load_puzzle(ROOT / "puzzles" / f"{args.puzzle}.toml")
    total = sum(len(puzzle.pieces[c]) for c in puzzle.colors)
    load = lambda: " ".join(f"{x:.2f}" for x in os.getloadavg())  # noqa: E731
    print(f"{args.puzzle}: {total} pieces, {puzzle.spare_squares} spare squares, limit {args.limit:g} s, "
          f"load average {load()}", flush=True)
    search = WasteSearch(puzzle)
    t0 = time.monotonic()
    last = 0.0
    found = None
    for sol in search.solutions():
        if sol is not None:
            verify(puzzle, sol)
            found = sol
            break
        now = time.monotonic() - t0
        if now - last >= args.every or now >= args.limit:
            last = now
            print(f"{now:6.0f} s  {search.nodes:>11,} nodes  {search.nodes / now:>8,.0f}/s  deepest "
                  f"{search.deepest}/{total} pieces  now {len(search.st.placed)}", flush=True)
            if now >= args.limit:
                break
    now = time.monotonic() - t0
    status = "FOUND" if found else "nothing"
    print(f"{status} after {now:.0f} s, {search.nodes:,} nodes, deepest {search.deepest}/{total}, "
          f"load average {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
