"""The compiled waste search's memo of dead frontiers side by side: with it
and without it (solver/packing/wastefast.py, ``memo``), on one colour's 21
pieces on rectangles near the smallest that hold them, and on roomy ones
where it costs (the memo searches without the game rule's corner
contact); the arms alternate board by board (which goes first alternates
too).

    python benchmarks/frontier_memo.py [--limit 60] [--bits 22] [--boards 3x43 4x33 ...] [--memo-only]

(``--memo-only``: the memo's arm alone, for long proofs such as
``--boards 3x45 --bits 25 --limit 1200``.)

Each run: the answer (a packing, none, or open at the limit), nodes,
seconds; the spare share (spare squares / squares: the driver turns the
memo on at most at MEMO_SPARE) and the window of the frontier key.
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

from solver.packing.driver import MEMO_SPARE
from solver.packing.wastefast import CompiledWasteSearch, memo_window

# proofs near the counting bound, two strips that pack, then roomy boards
BOARDS = ["3x41", "3x42", "3x43", "4x32", "4x33", "5x26", "7x19", "8x17", "9x15", "4x38", "3x49", "8x20", "5x40",
          "3x60"]


def run(puzzle, memo: bool, bits: int, limit: float) -> tuple[str, int, float]:
    t0 = time.monotonic()
    search = CompiledWasteSearch(puzzle, memo=memo, memo_bits=bits)
    while not search.finished and time.monotonic() - t0 < limit:
        if search.step(200_000) is not None:
            return "packed", search.nodes, time.monotonic() - t0
    return ("none" if search.finished else "open"), search.nodes, time.monotonic() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--bits", type=int, default=22, help="the memo table holds 2**bits entries")
    ap.add_argument("--boards", nargs="*", default=BOARDS)
    ap.add_argument("--memo-only", action="store_true", help="run the memo's arm alone")
    args = ap.parse_args()
    CompiledWasteSearch(one_colour(3, 12), memo=True).step(1000)  # the kernel compiled or loaded before any clock
    print(f"load {os.getloadavg()[0]:.2f}; {args.limit:.0f} s per run; table 2**{args.bits}; "
          f"the driver's memo at spare share <= {MEMO_SPARE}")
    print(f"{'board':>6} {'spare':>5} {'window':>6}  {'with the memo':<30} {'without':<30} ratio", flush=True)
    for n, name in enumerate(args.boards):
        w, h = (int(x) for x in name.split("x"))
        puzzle = one_colour(w, h)
        arms = [True] if args.memo_only else [True, False] if n % 2 == 0 else [False, True]
        got = {memo: run(puzzle, memo, args.bits, args.limit) for memo in arms}
        cells = [f"{a} {s:.1f}s {nodes / 1e6:.2f}M nodes"
                 for a, nodes, s in (got[m] for m in (True, False) if m in got)]
        window = memo_window(puzzle)
        line = f"{name:>6} {puzzle.spare_squares / puzzle.free_squares:>5.2f} {int(window[1]):>6}  {cells[0]:<30}"
        if not args.memo_only:
            ratio = got[False][2] / max(got[True][2], 1e-3)
            bound = "" if "open" not in (got[True][0], got[False][0]) else " (a run at the limit)"
            line += f" {cells[1]:<30} {ratio:.2f}x{bound}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
