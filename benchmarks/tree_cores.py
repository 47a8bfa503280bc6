"""One thread against two (lazy SMP sharing the
table) on the same positions, alternating the variants position by
position, wall seconds, with the load average printed before and after.

    python benchmarks/tree_cores.py [--backs 12] [--games 0,3,4,6,7] [--rounds 2]
    python benchmarks/tree_cores.py --four [--backs 12] [--games 0-9] [--limit 30]

``--four``: the four-player guaranteed scores of the four
colours, one thread searching them one after the other against two
threads with an engine each taking the next colour
(treesplit.solve_guaranteed_all without joining), the same deadline for the four, as
benchmarks/endgame.py's four section; both must find the same scores.
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

from solver.endgame import treeengine as te  # noqa: E402
from solver.endgame import treesplit  # noqa: E402


def four(pos, limit: float, workers: int):
    """(scores, or '-' where not proven; wall seconds) of the four colours."""
    t0 = time.perf_counter()
    out = treesplit.solve_guaranteed_all(pos, range(4), time.monotonic() + limit, workers, TABLE_BITS, join=False)
    seconds = time.perf_counter() - t0
    return ["-" if isinstance(o, te.OutOfTime) else o.value for o in out.values()], seconds


def rounds(args):
    """(back, game, round, position, order of the thread counts) of every
    run: the positions, each ``--rounds`` times, which variant goes first
    swapped every round."""
    for back in spans(args.backs):
        for g in spans(args.games):
            pos = before_end(seeded_game(args.seed + g), back)
            for r in range(args.rounds):
                yield back, g, r, pos, ((1, 2) if r % 2 == 0 else (2, 1))


def main_four(args):
    print(f"{'back':>4} {'game':>4} {'round':>5} {'1 thread':>9} {'2 threads':>9} {'speed-up':>8}  load  scores (1 | 2)")
    tot = {1: 0.0, 2: 0.0}
    proven = {1: 0, 2: 0}
    for back, g, r, pos, order in rounds(args):
        res = {}
        for w in order:
            res[w] = four(pos, args.limit, w)
            tot[w] += res[w][1]
            proven[w] += "-" not in res[w][0]
        clash = any(a != b and "-" not in (a, b) for a, b in zip(res[1][0], res[2][0]))
        print(f"{back:>4} {g:>4} {r:>5} {res[1][1]:>9.2f} {res[2][1]:>9.2f} {res[1][1] / res[2][1]:>7.2f}x  "
              f"{os.getloadavg()[0]:.2f}  {res[1][0]} | {res[2][0]}" + ("  MISMATCH" if clash else ""), flush=True)
    print(f"total {tot[1]:.2f} s one thread, {tot[2]:.2f} s two: {tot[1] / tot[2]:.2f}x; "
          f"all four proven: {proven[1]} runs with one thread, {proven[2]} with two")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backs", default="12")
    ap.add_argument("--games", default="0,3,4,6,7")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--limit", type=float, default=120)
    ap.add_argument("--four", action="store_true", help="four-player guaranteed scores, a colour per thread")
    args = ap.parse_args()
    print("load", os.getloadavg(), flush=True)
    warm = before_end(seeded_game(args.seed), 6)
    if args.four:
        four(warm, 30, 1)
        four(warm, 30, 2)
        main_four(args)
        print("load", os.getloadavg())
        return
    compiled(warm, 30)
    compiled(warm, 30, workers=2)
    print(f"{'back':>4} {'game':>4} {'round':>5} {'1 thread':>9} {'2 threads':>9} {'speed-up':>8}  load")
    tot1 = tot2 = 0.0
    for back, g, r, pos, order in rounds(args):
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
