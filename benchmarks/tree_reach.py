"""The two-player value as ``blokus analyze``
searches it (two threads, the root's moves split, treesplit) with the
reaches by king steps (the bounds before) and by chains of placements
(Params.reach, now in TWO_PLAYER_BOUNDS), side by side: both on each
position, in alternating order, after both are loaded.

    python benchmarks/tree_reach.py [--cases 16/0,16/4,12/2,8/1] [--limit 30]

A case is ``back/game``: benchmarks/endgame.py's seeded game ``game``
(seed 1 + game) ``back`` placements before its end.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from endgame import TABLE_BITS, before_end, seeded_game  # noqa: E402

from solver.endgame import treeengine as te  # noqa: E402
from solver.endgame import treesplit  # noqa: E402

CONFIGS = {"king": replace(te.TWO_PLAYER, reach=0), "chains": te.TWO_PLAYER}
CASES = "16/0,16/3,16/4,16/7,16/8,16/9,12/2,12/7,8/1,16/6,16/1,16/2,16/5"


def solve(pos, settings: te.Settings, limit: float) -> str:
    t0 = time.perf_counter()
    try:
        out = treesplit.solve_two_player(pos.copy(), time.monotonic() + limit, workers=2, table_bits=TABLE_BITS,
                                         settings=settings)
        return f"{out.value:>5} {time.perf_counter() - t0:6.2f}s {out.nodes:>11,}"
    except te.OutOfTime as e:
        return f"{'-':>5} {'>' + str(int(limit)):>6}s {e.nodes:>11,}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", default=CASES)
    ap.add_argument("--limit", type=float, default=30.0)
    args = ap.parse_args()
    warm = before_end(seeded_game(1), 6)
    for bounds in CONFIGS.values():
        solve(warm, bounds, 600)
    print("load", os.getloadavg())
    print(f"{'case':>5} " + "   ".join(f"{name + ' (value s positions)':>30}" for name in CONFIGS))
    for r, case in enumerate(args.cases.split(",")):
        back, game = map(int, case.split("/"))
        pos = before_end(seeded_game(1 + game), back)
        names = list(CONFIGS) if r % 2 == 0 else list(CONFIGS)[::-1]
        cells = {name: solve(pos, CONFIGS[name], args.limit) for name in names}
        print(f"{case:>5} " + "   ".join(f"{cells[name]:>30}" for name in CONFIGS), flush=True)
    print("load", os.getloadavg())


if __name__ == "__main__":
    main()
