"""Issue 11, third session: one thread against two (lazy SMP sharing the
table) on the same positions, alternating the variants position by
position, wall seconds, with the load average printed before and after.

    python benchmarks/tree_cores.py [--backs 12] [--games 0,3,4,6,7] [--rounds 2]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from endgame import TABLE_BITS, before_end, compiled, seeded_game  # noqa: E402
from tree_ideas import spans  # noqa: E402

from solver.search import treekernel as tk  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backs", default="12")
    ap.add_argument("--games", default="0,3,4,6,7")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--limit", type=float, default=120)
    args = ap.parse_args()
    print("load", os.getloadavg(), flush=True)
    warm = before_end(seeded_game(args.seed), 6)
    compiled(warm, 30)
    compiled(warm, 30, workers=2)
    print(f"{'back':>4} {'game':>4} {'round':>5} {'1 thread':>9} {'2 threads':>9} {'speed-up':>8}  load")
    tot1 = tot2 = 0.0
    for back in spans(args.backs):
        for g in spans(args.games):
            pos = before_end(seeded_game(args.seed + g), back)
            for r in range(args.rounds):
                order = (1, 2) if r % 2 == 0 else (2, 1)
                secs = {}
                for w in order:
                    out, s, n = compiled(pos, args.limit, workers=w)
                    secs[w] = s if out is not None else float("inf")
                tot1 += secs[1]
                tot2 += secs[2]
                print(f"{back:>4} {g:>4} {r:>5} {secs[1]:>9.2f} {secs[2]:>9.2f} {secs[1] / secs[2]:>7.2f}x  "
                      f"{os.getloadavg()[0]:.2f}", flush=True)
    print(f"total {tot1:.2f} s one thread, {tot2:.2f} s two: {tot1 / tot2:.2f}x")
    print("load", os.getloadavg())


if __name__ == "__main__":
    main()
