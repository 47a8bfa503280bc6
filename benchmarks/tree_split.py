"""Root splitting (solver/endgame/treesplit.py: the
root moves shared out between threads with an engine each) against the
one-thread search, on the same positions in alternating rounds, wall and
CPU seconds, with the load average.

    python benchmarks/tree_split.py [--record puzzles/games/sample-2p.blksgf --moves 52] [--rounds 3]
    python benchmarks/tree_split.py --backs 12 --games 0,3-9 [--rounds 1]

Variants: ``one`` (treeengine.solve_two_player, one thread), ``splitN``
(the root split on N threads; ``split1`` measures the cost of splitting
alone). Every variant must find the same value.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from endgame import TABLE_BITS, before_end, seeded_game  # noqa: E402
from tree_ideas import spans  # noqa: E402

from solver.endgame import treeengine as te  # noqa: E402
from solver.endgame import treesplit  # noqa: E402
from solver.formats.sgf import load_record  # noqa: E402


def run(variant: str, pos, limit: float):
    """(value or '-', tree positions, wall seconds, CPU seconds) of one variant."""
    t0, c0 = time.perf_counter(), time.process_time()
    deadline = time.monotonic() + limit
    try:
        if variant == "one":
            out = te.solve_two_player(pos.copy(), deadline, table_bits=TABLE_BITS)
        else:
            opts = variant.split(":")  # split2[:own][:p2]
            plies = int(next((o[1:] for o in opts if o.startswith("p")), 1))
            out = treesplit.solve_two_player(pos.copy(), deadline, workers=int(opts[0][5:]), table_bits=TABLE_BITS,
                                             share="own" not in opts, plies=plies)
        value, nodes = out.value, out.nodes
    except te.OutOfTime as e:
        value, nodes = "-", e.nodes
    return value, nodes, time.perf_counter() - t0, time.process_time() - c0


def positions(args):
    if args.record:
        rec = load_record(args.record)
        for m in spans(args.moves):
            yield f"move {m}", rec.position(m)
    else:
        for back in spans(args.backs):
            for g in spans(args.games):
                yield f"{back}/{g}", before_end(seeded_game(args.seed + g), back)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--record")
    ap.add_argument("--moves", default="52")
    ap.add_argument("--backs", default="12")
    ap.add_argument("--games", default="0,3-9")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--limit", type=float, default=60)
    ap.add_argument("--variants", default="one,split2")
    args = ap.parse_args()
    variants = args.variants.split(",")
    print("load", os.getloadavg(), flush=True)
    warm = before_end(seeded_game(args.seed), 6)
    for v in variants:
        run(v, warm, 30)
    tot = {v: [0.0, 0.0] for v in variants}
    for name, pos in positions(args):
        for r in range(args.rounds):
            order = variants if r % 2 == 0 else variants[::-1]
            res = {v: run(v, pos, args.limit) for v in order}
            for v in variants:
                tot[v][0] += res[v][2]
                tot[v][1] += res[v][3]
            vals = {res[v][0] for v in variants}
            cells = " | ".join(f"{v} {res[v][0]} {res[v][1]:,} {res[v][2]:.2f}s {res[v][3]:.2f}c" for v in variants)
            print(f"{name} r{r}: {cells}  load {os.getloadavg()[0]:.2f}" + ("  MISMATCH" if len(vals) > 1 else ""),
                  flush=True)
    print("total " + " | ".join(f"{v} {w:.2f}s {c:.2f}c" for v, (w, c) in tot.items()))
    print("load", os.getloadavg())


if __name__ == "__main__":
    main()
