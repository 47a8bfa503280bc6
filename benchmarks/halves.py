"""Two-colour halves: seconds and nodes to the first packing of
a puzzle that halves (default frontier-18x20), per seed, with the halves
search on one thread and on several (lanes), side by side: for each seed
the variants run one after the other, alternating which goes first.

    python benchmarks/halves.py [--puzzle frontier-18x20] [--seeds 1-6] [--lanes 1,2] [--limit 120]

Each run is the hybrid's halves phase alone (solver.hybrid.symmetric.compiled_phase)
with ``--limit`` seconds; its packing is verified. Prints a row per seed and
variant, then per variant how many seeds were packed, the median seconds
to the first packing and the node rate of all its runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.formats.puzzle_file import load_puzzle  # noqa: E402
from solver.hybrid.symmetric import compiled_phase  # noqa: E402
from solver.packing.halves import HalvesSearch  # noqa: E402
from solver.puzzle.verify import verify  # noqa: E402


def spans(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--puzzle", default="frontier-18x20")
    ap.add_argument("--seeds", default="1-6")
    ap.add_argument("--lanes", default="1,2")
    ap.add_argument("--limit", type=float, default=120.0)
    args = ap.parse_args()
    puzzle = load_puzzle(ROOT / "puzzles" / f"{args.puzzle}.toml")
    variants = [int(x) for x in args.lanes.split(",")]
    compiled_phase(puzzle, [HalvesSearch(puzzle, 0, restart=10_000)], 0.5, None)  # load the kernel
    print(f"{args.puzzle}: halves phase, limit {args.limit:.0f} s, load average {os.getloadavg()[0]:.2f}")
    print(f"{'seed':>4} {'lanes':>5} {'status':>8} {'seconds':>8} {'nodes':>12} {'nodes/s':>10}")
    figures: dict[int, list[tuple[float | None, int, float]]] = {v: [] for v in variants}
    for i, seed in enumerate(spans(args.seeds)):
        for lanes in (variants if i % 2 == 0 else variants[::-1]):
            searches = [HalvesSearch(puzzle, seed, lane=j) for j in range(lanes)]
            t0 = time.perf_counter()
            found, _ = compiled_phase(puzzle, searches, args.limit, None)
            seconds = time.perf_counter() - t0
            nodes = sum(s.nodes for s in searches)
            if found is not None:
                verify(puzzle, found.placements)
            figures[lanes].append((seconds if found else None, nodes, seconds))
            status = "FOUND" if found else "-"
            print(f"{seed:>4} {lanes:>5} {status:>8} {seconds:>8.1f} {nodes:>12,} {nodes / seconds:>10,.0f}", flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    for lanes, rows in figures.items():
        firsts = [s for s, _, _ in rows if s is not None]
        rate = sum(n for _, n, _ in rows) / sum(s for _, _, s in rows)
        median = f"{statistics.median(firsts):.1f} s" if firsts else "-"
        print(f"lanes {lanes}: {len(firsts)} of {len(rows)} packed within {args.limit:.0f} s, median {median},"
              f" {rate:,.0f} nodes/s")


if __name__ == "__main__":
    main()
