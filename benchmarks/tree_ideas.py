"""Positions the compiled tree needs to prove a
two-player value, by root strategy, on the same positions in one process
(node counts do not depend on the machine's load).

    python benchmarks/tree_ideas.py [--backs 12,16] [--games 0-9] [--cap 20000000] [--methods plain,mtdf,asp4]
    python benchmarks/tree_ideas.py --record puzzles/games/sample-2p.blksgf --move 52 [...]

(with ``--record`` the ``back`` column is the move number; with
``--guaranteed`` each position gives a row per colour, ``game.colour``:
the score that colour guarantees when the three others minimise it;
``--colors 0,2`` only those colours.)

Methods: ``plain`` (the full window, as solve_two_player), ``mtdf`` (null
windows around a guess, MTD(f), the table kept between passes), ``asp``
(``aspN``: an aspiration window of +-N around the guess, widened on a
fail);
options after colons, e.g. ``plain:t99:e12``: ``eN`` enhanced
transposition cut-offs N plies deep (default 6), ``tN`` colours still
interacting bounded by their solo optima N plies deep (default 0, off),
``bN`` a table of 2**N entries (default 22, as endgame.py), ``sN`` a solo
table of 2**N entries (default 20, as the engine's), ``kN`` node budget of
one bounding solo search (default 200,000, the settling searches'), ``f``
(or ``f1``) a colour's rise bounded by the pieces that still fit inside its
reach (Params.fit; ``f2`` rechecked at every solo node too), ``pN`` the solo bounds of
``tN`` only for colours with at most N pieces in hand, ``rN`` no more of
them once their positions exceed N times the tree's, ``mN`` the colour
to move bounded too with up to N more pieces than ``pN``, ``xN``
reaches of hands of up to N pieces (``x``: every hand) by chains of
placements (Params.reach), ``SN`` node budget of one settling solo search (default 200,000), ``A0``
settling solo optima by the move-by-move search instead of the attach-square one (``A1``, the
default), ``oN`` moves ordered by a static evaluation
too on rows up to N plies down (Params.order_eval), ``yN`` the moves that
leave the other side fewest moves first on rows up to N plies down
(Params.order_mobility), ``vN`` on rows up to N plies down a counting
colour's solo optimum in the part of its reach no other colour's meets
as a bound (Params.private; ``treeengine.GUARANTEED`` has it on every
row), ``T`` the two-player
value's settings (treeengine.TWO_PLAYER: ``f1:t90:k2000:p5:m1:x:y5``), then
the options after it. The guess is the value of the greedy line
(every colour plays its largest piece, the first listed), as
benchmarks/endgame.py's plies_left.

Each cell: value, tree positions, passes, solo-search positions, wall
seconds and the process's CPU seconds (``c``: less disturbed by other
people's jobs on a shared machine); every kernel is loaded (a small search
per method) before anything is timed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from endgame import POLICIES, TABLE_BITS, before_end, seeded_game  # noqa: E402

from solver.core.position import Move  # noqa: E402
from solver.core.variants import CLASSIC, DUO  # noqa: E402
from solver.endgame import treeengine as te
from solver.endgame import treekernel as tk  # noqa: E402

WEIGHT = (1, -1, 1, -1)
MAXIMISER = (1, 0, 1, 0)


def guaranteed(color: int) -> None:
    """Search the score ``color`` guarantees (the others minimise it) instead of the two-player value."""
    global WEIGHT, MAXIMISER
    WEIGHT = MAXIMISER = tuple(int(c == color) for c in range(4))


def greedy_value(pos) -> int:
    pos = pos.copy()
    while not pos.game_over:
        moves = pos.legal_placements()
        p = max(moves, key=lambda q: len(pos.table.squares[q]))
        pos.push(Move(pos.to_move, p))
    return sum(w * pos.score(c) for c, w in enumerate(WEIGHT))


class Capped(Exception):
    pass


SOLO = [0]  # solo-search positions of the method being run (settling and bounds)
CPU = [None, 0.0]  # a limit in CPU seconds per method and position (--cpu), when the method started


def one_pass(eng, pos, p, alpha, beta, fresh, used, cap):
    """One kernel search of the root window (alpha, beta); returns its
    (fail-soft) value and the nodes it took."""
    eng.params = p
    eng._load(pos, alpha, beta, fresh)
    while True:
        status = tk._search(eng.tb, p, eng.st, eng.tt, eng.mem, eng.so, eng.ctl, 1 << (16 if CPU[0] else 20))
        if status == tk.DONE:
            SOLO[0] += int(eng.ctl[tk.C_SOLO_NODES])
            return int(eng.ctl[tk.C_VALUE]), int(eng.ctl[tk.C_NODES])
        if status == tk.OVERFLOW:
            raise RuntimeError("overflow")
        if used + eng.ctl[tk.C_NODES] > cap or (CPU[0] and time.process_time() - CPU[1] > CPU[0]):
            SOLO[0] += int(eng.ctl[tk.C_SOLO_NODES])
            raise Capped(used + int(eng.ctl[tk.C_NODES]))


def solve(method, pos, cap, guess):
    bits, etc, tight, sbits, tb, fit, pieces, ratio, mover, reach = TABLE_BITS, 6, 0, 20, 200_000, 0, 0, 0, -1, 0
    order, solo_budget, attach, mobility, private = 0, te.PLAIN.solo_budget, te.PLAIN.solo_attach, 0, 0
    method, *opts = method.split(":")
    for o in opts:
        if o[0] == "S":
            solo_budget = int(o[1:])
        elif o[0] == "A":
            attach = bool(int(o[1:] or 1))
        elif o == "T":
            s = te.TWO_PLAYER
            tight, tb, fit, pieces, mover, reach = s.tight, s.tight_budget, s.fit, s.tight_pieces, s.mover, s.reach
            mobility = s.order_mobility
        elif o[0] == "y":
            mobility = int(o[1:])
        elif o[0] == "v":
            private = int(o[1:])
        elif o[0] == "o":
            order = int(o[1:])
        elif o[0] == "b":
            bits = int(o[1:])
        elif o[0] == "e":
            etc = int(o[1:])
        elif o[0] == "t":
            tight = int(o[1:])
        elif o[0] == "s":
            sbits = int(o[1:])
        elif o[0] == "k":
            tb = int(o[1:])
        elif o[0] == "f":
            fit = int(o[1:] or 1)
        elif o[0] == "p":
            pieces = int(o[1:])
        elif o[0] == "r":
            ratio = int(o[1:])
        elif o[0] == "m":
            mover = int(o[1:])
        elif o[0] == "x":
            reach = int(o[1:] or 21)
    eng = te.engine(pos.board, bits)
    p = te.params(pos, WEIGHT, MAXIMISER, te.Settings(etc_plies=etc, tight=tight, tight_budget=tb, fit=fit,
                                                      tight_pieces=pieces, tight_ratio=ratio, mover=mover, reach=reach,
                                                      order_eval=order, solo_budget=solo_budget,
                                                      solo_attach=attach, order_mobility=mobility,
                                                      private=private))
    if eng.so.table.key.shape[0] != 1 << sbits:
        eng.so = te._solo(eng.tb, sbits)
    eng.so.table.key.fill(0)  # every method starts with an empty solo memo
    eng.so.table.data.fill(0)
    used = 0
    passes = 0
    BIG = tk.INF - 1
    if method == "plain":
        v, n = one_pass(eng, pos, p, -BIG, BIG, True, 0, cap)
        return v, n, 1
    if method == "mtdf":
        lo, hi = -BIG, BIG
        g = guess
        fresh = True
        while lo < hi:
            beta = g + 1 if g == lo else g  # test "value >= beta"
            beta = max(min(beta, hi), lo + 1)
            v, n = one_pass(eng, pos, p, beta - 1, beta, fresh, used, cap)
            fresh = False
            used += n
            passes += 1
            if v < beta:
                hi = v
            else:
                lo = v
            g = v
        return lo, used, passes
    if method.startswith("asp"):
        delta = int(method[3:] or 4)
        a, b = guess - delta, guess + delta
        fresh = True
        while True:
            v, n = one_pass(eng, pos, p, a, b, fresh, used, cap)
            fresh = False
            used += n
            passes += 1
            if a < v < b:
                return v, used, passes
            if v <= a:
                b = v + 1
                a = -BIG
            else:
                a = v - 1
                b = BIG
    raise ValueError(method)


def spans(text):
    out = []
    for part in text.split(","):
        if "-" in part:
            x, y = part.split("-")
            out += list(range(int(x), int(y) + 1))
        else:
            out.append(int(part))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backs", default="12,16")
    ap.add_argument("--games", default="0-9")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cap", type=int, default=20_000_000)
    ap.add_argument("--methods", default="plain,mtdf,asp4")
    ap.add_argument("--record", help="a game record: its position after --move moves instead of the seeded games")
    ap.add_argument("--move", type=int, default=52)
    ap.add_argument("--guaranteed", action="store_true",
                    help="the four-player guaranteed score of each colour (a row per colour, game.colour) instead")
    ap.add_argument("--colors", default="0-3", help="with --guaranteed: the colours searched (e.g. 0 or 0,2)")
    ap.add_argument("--cpu", type=float,
                    help="stop a method after this many CPU seconds on a position (as well as --cap)")
    ap.add_argument("--policy", choices=sorted(POLICIES), default="random", help="the games' policy (endgame.py)")
    ap.add_argument("--duo", action="store_true", help="Blokus Duo games instead of classic two-player ones")
    args = ap.parse_args()
    variant = DUO if args.duo else CLASSIC
    methods = args.methods.split(",")
    CPU[0] = args.cpu
    print("load", os.getloadavg())
    warm = before_end(seeded_game(args.seed), 6)  # load every kernel before timing anything
    for m in methods:
        solve(m, warm, args.cap, greedy_value(warm))
    heads = [f"{m + ' (value nodes passes solo wall cpu)':>42}" for m in methods]
    print(f"{'back':>4} {'game':>4} {'guess':>5} " + " ".join(heads))
    totals = {m: 0 for m in methods}
    if args.record:
        from solver.formats.sgf import load_record

        cases = [(args.move, 0, load_record(args.record).position(args.move))]
    else:
        cases = [(back, g, before_end(POLICIES[args.policy](args.seed + g, variant), back))
                 for back in spans(args.backs) for g in spans(args.games)]
    if args.guaranteed:
        cases = [(back, f"{g}.{c}", pos, c) for back, g, pos in cases for c in spans(args.colors)]
    else:
        cases = [(back, g, pos, None) for back, g, pos in cases]
    for back, g, pos, color in cases:
        if color is not None:
            guaranteed(color)
        guess = greedy_value(pos)
        cells = []
        vals = set()
        for m in methods:
            t0 = time.perf_counter()
            c0 = time.process_time()
            CPU[1] = c0
            SOLO[0] = 0
            try:
                v, n, k = solve(m, pos, args.cap, guess)
                vals.add(v)
                totals[m] += n
                cells.append(f"{v:>4} {n:>11,} {k:>2}p {SOLO[0]:>10,} {time.perf_counter() - t0:>5.1f}s"
                             f" {time.process_time() - c0:>5.1f}c")
            except Capped as e:
                totals[m] += e.args[0]
                cells.append(f"{'-':>4} >{e.args[0]:>10,}    {SOLO[0]:>10,} {time.perf_counter() - t0:>5.1f}s"
                             f" {time.process_time() - c0:>5.1f}c")
        flag = "" if len(vals) <= 1 else "  MISMATCH"
        print(f"{back:>4} {g:>4} {guess:>5} " + " ".join(f"{c:>42}" for c in cells) + flag, flush=True)
    print("total", " ".join(f"{m}={totals[m]:,}" for m in methods))
    print("load", os.getloadavg())


if __name__ == "__main__":
    main()
