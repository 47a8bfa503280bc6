"""Cheap looks, in plain Python over the rules
core, at positions below benchmarks/endgame.py's seeded positions (random
playouts from 12 and 16 placements before the end), before building
anything into the compiled tree.

    python benchmarks/tree_sample.py groups [--plays 12]
    python benchmarks/tree_sample.py bounds [--plays 3]

``groups``: how often the colours that can still move split into groups
whose reaches (the kernel's: king steps from the attach squares through
squares the colour may cover, as many as its squares left minus one) do
not meet, by ply below the start: ``split2+2`` would be two independent
subgames of two colours each.

``bounds``: for each colour that can move and still interacts, the most
its score can rise by the room bound (``_most``: the reach's squares, or
everything plus the bonus once the reach is as big as the squares left),
by the pieces that fit (only pieces with a placement inside the reach
count, the bonus only if all of them fit), and by the chain bound (a piece
whose nearest placement inside the reach is t king steps from the attach
squares needs t squares of other pieces placed first).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from endgame import before_end, seeded_game  # noqa: E402

from solver.core.pieces import MONOMINO  # noqa: E402
from solver.core.position import Move  # noqa: E402


def kreach(pos, c) -> int:
    """The kernel's reach of colour c (0 when it cannot move)."""
    if not pos.hand[c] or not pos.has_legal_move(c):
        return 0
    b = pos.board
    free = b.open_mask & ~pos.forbidden[c] & b.full_mask
    return b.king_fill(pos.reach[c] & free, free, steps=pos.squares_left(c) - 1)


def groups(pos) -> str:
    live = [c for c in range(4) if pos.hand[c] and pos.has_legal_move(c)]
    regs = {c: kreach(pos, c) for c in live}
    parent = {c: c for c in live}

    def find(c):
        while parent[c] != c:
            c = parent[c]
        return c

    for i, a in enumerate(live):
        for b in live[i + 1:]:
            if regs[a] & regs[b]:
                parent[find(a)] = find(b)
    sizes: dict = defaultdict(int)
    for c in live:
        sizes[find(c)] += 1
    big = sorted(n for n in sizes.values() if n > 1)
    if big == [2, 2]:
        return "split2+2"
    return f"one group of {big[0]}" if big else "none"


def bounds(pos, c):
    """(reach, room bound, fit bound, chain bound) of colour c, None when it cannot move."""
    if not pos.hand[c] or not pos.has_legal_move(c):
        return None
    b, t = pos.board, pos.table
    free = b.open_mask & ~pos.forbidden[c] & b.full_mask
    left = pos.squares_left(c)
    layers = [pos.reach[c] & free]
    reach = layers[0]
    for _ in range(left - 1):
        grown = b.king_fill(reach, free, steps=1)
        if grown == reach:
            break
        layers.append(grown & ~reach)
        reach = grown
    hand = [k for k in range(21) if pos.hand[c] >> k & 1]
    dist = {}
    for k in hand:
        best = None
        for p in t.by_piece[k]:
            m = t.mask[p]
            if m & ~reach:
                continue
            d = next(i for i, layer in enumerate(layers) if m & layer)
            if best is None or d < best:
                best = d
            if best == 0:
                break
        dist[k] = best
    size = {k: len(t.squares[t.by_piece[k][0]]) for k in hand}
    fit = [k for k in hand if dist[k] is not None]
    chain = set(fit)
    changed = True
    while changed:  # the largest set in which every piece has its bridge
        changed = False
        total = sum(size[k] for k in chain)
        for k in list(chain):
            if total - size[k] < dist[k]:
                chain.discard(k)
                changed = True
                break
    room = bin(reach).count("1")
    bonus = 20 if pos.hand[c] & (1 << MONOMINO) else 15
    most = room if room < left else left + bonus

    def bound(pieces):
        return min(room, sum(size[k] for k in pieces)) + (bonus if len(pieces) == len(hand) and room >= left else 0)

    return reach, most, bound(fit), bound(chain)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("groups", "bounds"))
    ap.add_argument("--plays", type=int, default=None, help="random playouts per position")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    plays = args.plays or (12 if args.what == "groups" else 3)
    rng = random.Random(5 if args.what == "groups" else 7)
    for back in (12, 16):
        stat: dict = defaultdict(lambda: defaultdict(int))
        for g in range(10):
            root = before_end(seeded_game(args.seed + g), back)
            for _ in range(plays):
                pos = root.copy()
                ply = 0
                while not pos.game_over:
                    if args.what == "groups":
                        stat[ply][groups(pos)] += 1
                        stat[ply]["n"] += 1
                    else:
                        res = {c: bounds(pos, c) for c in range(4)}
                        for c, r in res.items():
                            if r is None or not any(q and r[0] & q[0] for o, q in res.items() if o != c):
                                continue
                            a = stat[ply // 4 * 4]
                            a["n"] += 1
                            a["most"] += r[1]
                            a["fit"] += r[2]
                            a["chain"] += r[3]
                            a["fit<most"] += r[2] < r[1]
                            a["chain<fit"] += r[3] < r[2]
                    pos.push(Move(pos.to_move, rng.choice(pos.legal_placements())))
                    ply += 1
        print("back", back)
        for k in sorted(stat):
            s = stat[k]
            n = s["n"]
            if args.what == "groups":
                print(f"  ply {k:2d} n={n:4d} " + " ".join(f"{x}:{v / n:.2f}" for x, v in sorted(s.items()) if x != "n"))
            else:
                print(f"  plies {k:2d}-{k + 3:2d} colours {n:5d} mean rise: room {s['most'] / n:5.1f} fit {s['fit'] / n:5.1f}"
                      f" chain {s['chain'] / n:5.1f}  fit<room {s['fit<most'] / n:.2f}  chain<fit {s['chain<fit'] / n:.2f}")


if __name__ == "__main__":
    main()
