"""The game tree's settling solo search, by attach squares (the default)
against move by move, side by side on the same positions: the solo
optimum of each colour with moves, the positions each search took and its
seconds, the two alternating from position to position.

    python benchmarks/solo_search.py [--variant duo] [--games 10] [--back 16] [--budget 20000000] [--seed 7]

Positions: ``--back`` placements before the end of benchmarks/endgame.py's
person-like games (``--variant duo`` or ``classic``), then 0-6 random
moves more (seeded), so that hands of 10-16 pieces meet regions of every
shape. A search that reaches ``--budget`` positions gives up ('-'), as the
tree's settling does at 200,000. Both must agree where both finish.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from endgame import POLICIES, before_end  # noqa: E402

from solver.core.position import Move  # noqa: E402
from solver.core.variants import CLASSIC, DUO  # noqa: E402
from solver.endgame import treeengine as te  # noqa: E402
from solver.endgame.gametree import playing_alone  # noqa: E402

WAYS = {"attach": True, "by move": False}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", choices=("duo", "classic"), default="duo")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--back", type=int, default=16)
    ap.add_argument("--budget", type=int, default=20_000_000)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    variant = DUO if args.variant == "duo" else CLASSIC
    rng = random.Random(args.seed)
    pos0 = before_end(POLICIES["person"](1, variant), args.back)
    te.settling_solo(playing_alone(pos0, pos0.to_move), pos0.to_move, budget=1000)  # load the kernels first
    te.settling_solo(playing_alone(pos0, pos0.to_move), pos0.to_move, attach=False, budget=1000)
    print(f"{'game':>4} {'colour':>6} {'pieces':>6} | " + " | ".join(f"{w:>8} {'positions':>12} {'s':>7}" for w in WAYS))
    totals = {w: [0, 0, 0.0] for w in WAYS}
    for g in range(args.games):
        pos = before_end(POLICIES["person"](1 + g, variant), args.back)
        for _ in range(rng.randint(0, 6)):
            if pos.game_over:
                break
            pos.push(Move(pos.to_move, rng.choice(pos.legal_placements())))
        if pos.game_over:
            continue
        for c in range(4):
            if not pos.hand[c] or not pos.has_legal_move(c):
                continue
            alone = playing_alone(pos, c)
            cells, values = {}, set()
            for way in (list(WAYS) if (g + c) % 2 == 0 else list(WAYS)[::-1]):
                t0 = time.perf_counter()
                value, nodes = te.settling_solo(alone, c, attach=WAYS[way], budget=args.budget, table_bits=18)
                seconds = time.perf_counter() - t0
                cells[way] = f"{'-' if value is None else value:>8} {nodes:>12,} {seconds:>7.2f}"
                totals[way][0] += value is not None
                totals[way][1] += nodes
                totals[way][2] += seconds
                if value is not None:
                    values.add(value)
            if len(values) > 1:
                raise SystemExit(f"the searches disagree on game {g} colour {c}: {values}")
            print(f"{g:>4} {c:>6} {pos.hand[c].bit_count():>6} | " + " | ".join(cells[w] for w in WAYS),
                  flush=True)
    print("all: " + "; ".join(f"{w} {n} solved, {p:,} positions, {s:.1f} s" for w, (n, p, s) in totals.items()))


if __name__ == "__main__":
    main()
