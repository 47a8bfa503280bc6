"""Classic-board move generation per legal move for the solver package of
another tree: run it against an older commit and this one in turn to see
whether a change, such as the geometry abstraction, slowed the classic
board.

    git archive 861b201 | tar -x -C /tmp/before
    for i in 1 2 3; do
        python benchmarks/classic_movegen_before_after.py --root /tmp/before
        python benchmarks/classic_movegen_before_after.py --root .
    done

Positions: rounds 4/8/12/16 of 16 seeded games (largest piece first, as in
benchmarks/movegen.py), the incremental generator timed from the candidate
state each position was reached with. Only the Position API of the first
version (``legal_placements``, ``cands``, ``push``) is used.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=str(Path(__file__).resolve().parent.parent), help="the tree whose solver is timed")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    sys.path.insert(0, str(Path(args.root).resolve()))
    from solver.core.geometry import Board
    from solver.core.placements import PlacementTable
    from solver.core.position import Move, Position

    start = time.perf_counter()
    PlacementTable(Board.classic())
    build = time.perf_counter() - start
    positions = []
    for g in range(args.games):
        rng = random.Random(args.seed * 1000 + g)
        pos = Position()
        while not pos.game_over and len(pos.history) < 64:
            moves = pos.legal_placements()
            size = max(len(pos.table.squares[p]) for p in moves)
            pos.push(Move(pos.to_move, rng.choice([p for p in moves if len(pos.table.squares[p]) == size])))
            n = len(pos.history)
            if n % 4 == 0 and n // 4 in (4, 8, 12, 16) and not pos.game_over:
                positions.append(pos.copy())
    fresh = [(pos, pos.to_move, pos.cands[pos.to_move]) for pos in positions]
    moves = sum(len(pos.legal_placements(c)) for pos, c, _ in fresh)
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        for pos, c, cands in fresh:
            pos.cands[c] = cands
            pos.legal_placements(c)
        calls += 1
    elapsed = time.perf_counter() - start
    print(f"{args.root}: {len(fresh)} positions, {moves / len(fresh):.0f} moves each,"
          f" {elapsed / calls / moves * 1e9:.0f} ns per legal move; table build {build * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
