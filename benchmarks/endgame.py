"""Endgame analysis speed: time to a proven solo optimum for every colour
with each engine, and time to the exact two-player game value.

    python benchmarks/endgame.py [--games 4] [--seed 1] [--limit 30]

Positions come from the seeded games of benchmarks/movegen.py (each colour
plays a random move of its largest piece left), after rounds 12, 14 and 16
(48, 56 and 64 moves). The same positions are read as two-player games
(blue+red against yellow+green: the rules of play are the same, only the
scoring by seats differs). Aims (issue 5): every solo optimum proven by
both engines in under 1 s from round 12 on; exact two-player values with
up to 12 plies left in under 30 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from movegen import sample_positions  # noqa: E402

from solver import cpsat  # noqa: E402
from solver.endgame import ScoreOutlook, solo_puzzle  # noqa: E402
from solver.geometry import COLORS  # noqa: E402
from solver.position import Move  # noqa: E402
from solver.result import Status  # noqa: E402
from solver.search import solve  # noqa: E402
from solver.search.gametree import OutOfTime, two_player_value  # noqa: E402

ROUNDS = (12, 14, 16)


def plies_left(pos) -> int:
    """Length of the rest of the game if every colour played its largest
    piece greedily (an estimate of the tree's depth)."""
    pos = pos.copy()
    n = 0
    while not pos.game_over:
        moves = pos.legal_placements()
        p = max(moves, key=lambda q: len(pos.table.squares[q]))
        pos.push(Move(pos.to_move, p))
        n += 1
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=float, default=30.0, help="seconds per solve")
    args = ap.parse_args()
    positions = sample_positions(args.games, args.seed, ROUNDS)
    print("solo optima (seconds to a proof; '-' = not proven within the limit)")
    print(f"{'round':>5} {'game':>4} {'colour':<7} {'pieces':>6} {'optimum':>8} {'search':>8} {'cp-sat':>8}")
    worst = {r: [0.0, 0.0] for r in ROUNDS}
    unproven = {r: [0, 0] for r in ROUNDS}
    for r in ROUNDS:
        for g, pos in enumerate(positions[r]):
            for c in range(4):
                if not pos.hand[c] or not pos.has_legal_move(c):
                    continue
                puzzle = solo_puzzle(pos, c)
                cells, values = [], set()
                for i, run in enumerate((lambda: solve(puzzle, time_limit=args.limit),
                                         lambda: cpsat.solve(puzzle, time_limit=args.limit))):
                    t0 = time.perf_counter()
                    result = run()
                    dt = time.perf_counter() - t0
                    if result.status is Status.OPTIMAL:
                        values.add(result.objective)
                        worst[r][i] = max(worst[r][i], dt)
                        cells.append(f"{dt:8.2f}")
                    else:
                        unproven[r][i] += 1
                        cells.append(f"{'-':>8}")
                if len(values) > 1:
                    raise SystemExit(f"engines disagree on round {r} game {g} {COLORS[c]}: {values}")
                value = values.pop() if values else None
                print(f"{r:>5} {g:>4} {COLORS[c]:<7} {len(puzzle.pieces[c]):>6} {value!s:>8} {' '.join(cells)}")
    print()
    for r in ROUNDS:
        print(f"round {r}: slowest proof search {worst[r][0]:.2f} s, cp-sat {worst[r][1]:.2f} s; "
              f"unproven search {unproven[r][0]}, cp-sat {unproven[r][1]}")
    print()
    print("two-player game values (alpha-beta with a transposition table; colours that no longer")
    print("interact are settled by their solo optima)")
    print(f"{'round':>5} {'game':>4} {'plies':>5} {'value':>6} {'seconds':>8} {'positions':>10}")
    for r in ROUNDS:
        for g, pos in enumerate(positions[r]):
            t0 = time.perf_counter()
            try:
                value, _, nodes = two_player_value(pos.copy(), time.monotonic() + args.limit,
                                                   outlook=ScoreOutlook())
                cell = f"{value:>6} {time.perf_counter() - t0:8.2f} {nodes:>10,}"
            except OutOfTime:
                cell = f"{'-':>6} {'>' + str(int(args.limit)):>8} {'':>10}"
            print(f"{r:>5} {g:>4} {plies_left(pos):>5} {cell}")


if __name__ == "__main__":
    main()
