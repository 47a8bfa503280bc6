"""The search engine's time split on tight one-colour boards, side by
side: where its complete search carries the memo of dead frontiers
(solver/packing/driver.py, MEMO_SPARE), how much of the time it gets
beside the beams (MEMO_SHARE against the beams' 0.7; 0.3 is the share
without the memo). Each arm is ``solving.solve(puzzle, "search")`` as
``blokus solve`` runs it, the arms alternating board by board (which goes
first rotates too).

    python benchmarks/memo_share.py [--limit 90] [--shares 0.3 0.7 2.1] [--boards 4x33 3x49 ...]

Each cell: the answer (packed, none, open at the limit), seconds and the
method that answered.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from smallest_boards import one_colour

from solver import solving
from solver.packing import driver

# boards the memo proves too small, then boards the beams pack (spare shares 0.39-0.44, all under MEMO_SPARE)
BOARDS = ["4x33", "3x43", "8x17", "5x27", "9x15", "3x49", "3x50", "4x38", "3x51", "5x30", "4x40"]


def run(puzzle, share: float, limit: float) -> str:
    driver.MEMO_SHARE = share
    r = solving.solve(puzzle, "search", time_limit=limit)
    answer = {"OPTIMAL": "packed", "INFEASIBLE": "none"}.get(r.status.name, "open")
    return f"{answer} {r.seconds:.1f}s {r.method}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=float, default=90.0)
    ap.add_argument("--shares", type=float, nargs="*", default=[0.3, 0.7, 2.1])
    ap.add_argument("--boards", nargs="*", default=BOARDS)
    args = ap.parse_args()
    run(one_colour(3, 41), args.shares[0], 10)  # the kernels compiled or loaded before any clock
    print(f"load {os.getloadavg()[0]:.2f}; {args.limit:.0f} s per run; shares {args.shares} beside the beams' 0.7",
          flush=True)
    for n, name in enumerate(args.boards):
        w, h = (int(x) for x in name.split("x"))
        puzzle = one_colour(w, h)
        k = n % len(args.shares)
        order = args.shares[k:] + args.shares[:k]
        got = {share: run(puzzle, share, args.limit) for share in order}
        spare = puzzle.spare_squares / puzzle.free_squares
        print(f"{name:>6} spare {spare:.2f}  " + "  |  ".join(f"{s}: {got[s]}" for s in args.shares), flush=True)


if __name__ == "__main__":
    main()
