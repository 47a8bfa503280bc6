"""Endgame analysis speed: time to a proven solo optimum for every colour
with each engine, and the game tree: the compiled engine
(solver/endgame/treekernel.py) against the Python tree
(solver/endgame/gametree.py), exact values from how far before the end.

    python benchmarks/endgame.py [--sections all] [--games 10] [--seed 1] [--limit 30]

Sections (``--sections`` takes a comma-separated list; ``all`` is every
one but ``solo`` and ``python``, the solo optima and the Python tree):

- ``solo``: solo optima of every colour by both engines, at
  rounds 12, 14 and 16 of the seeded games of benchmarks/movegen.py;
- ``python``: two-player values by the Python tree at those rounds;
- ``speed``: positions per second of both trees on the same positions
  (the two run alternately, position by position);
- ``depth``: exact two-player values of ``--games`` seeded games
  (``--policy random``: each colour plays a random move of its largest
  piece left; ``person``: as a person might, see :func:`person_game`) at
  ``--backs`` placements before their end, with seconds and proven or
  not (the winner where only it is proven), on each of ``--arms`` side
  by side (a thread count, ``w`` after it: the winner first, as analyze;
  ``v`` after that: what a colour makes sure of alone on every row too);
- ``duo``: the same for seeded Blokus Duo games;
- ``sample``: puzzles/games/sample-2p.blksgf at move 52 (13 plies) and 56
  (``sample`` and ``depth`` split the root's moves between ``--threads``
  threads, as blokus analyze does; ``--threads 1``: one thread);
- ``four``: four-player guaranteed scores (every colour) at the same depths;
- ``cores``: one thread against two sharing the table (lazy SMP),
  alternately, on the positions the depth section proved;
- ``compile``: the kernel's first compile and its cached start-up.

The same positions are read as two-player games (blue+red against
yellow+green: the rules of play are the same, only the scoring by seats
differs).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from movegen import sample_positions  # noqa: E402

from solver import cpsat  # noqa: E402
from solver.core.geometry import COLORS  # noqa: E402
from solver.core.position import Move, Position  # noqa: E402
from solver.core.variants import CLASSIC, DUO, Variant  # noqa: E402
from solver.endgame import (
    gametree,  # noqa: E402
    treesplit,  # noqa: E402
)
from solver.endgame import treeengine as te  # noqa: E402
from solver.endgame import treekernel as tk  # noqa: E402
from solver.endgame.analysis import ScoreOutlook, solo_puzzle  # noqa: E402
from solver.endgame.treeengine import Outcome  # noqa: E402
from solver.endgame.trees import tree_threads  # noqa: E402
from solver.formats.sgf import load_record  # noqa: E402
from solver.packing import solve  # noqa: E402
from solver.puzzle.result import Status  # noqa: E402

ROUNDS = (12, 14, 16)
BACKS = (10, 12, 14, 16)
TABLE_BITS = 22
ROOT = Path(__file__).resolve().parent.parent


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


def seeded_game(seed: int, variant: Variant = CLASSIC) -> Position:
    """A whole game in which each colour plays a random move of its largest
    piece left (the policy of benchmarks/movegen.py)."""
    rng = random.Random(seed * 1000)
    pos = Position(variant)
    while not pos.game_over:
        moves = pos.legal_placements()
        size = max(len(pos.table.squares[p]) for p in moves)
        pos.push(Move(pos.to_move, rng.choice([p for p in moves if len(pos.table.squares[p]) == size])))
    return pos


def person_game(seed: int, variant: Variant = DUO) -> Position:
    """A whole game in which each colour plays as a person might: bigger
    pieces first, toward the middle while it opens, keeping attach squares
    of its own and taking the other side's, with some noise (a Gaussian
    term per move, so that no two seeds play alike)."""
    rng = random.Random(seed * 7919 + 17)
    pos = Position(variant)
    t, b = pos.table, pos.board
    rows, cols = b.height, b.width
    middle = ((rows - 1) / 2, (cols - 1) / 2)
    centre = [b.row_col(sq) for sq in range(b.size)]
    seat = {c: c % 2 for c in range(4)}
    while not pos.game_over:
        c = pos.to_move
        occ = pos.all_occupied
        live = [pos.reach[o] & ~pos.forbidden[o] & ~occ for o in range(4)]
        others = [o for o in range(4) if seat[o] != seat[c] and pos.hand[o]]
        opening = bin(pos.occupied[c]).count("1") < 25
        best, choice = None, None
        for p in pos.legal_placements():
            sqs = t.squares[p]
            gain = (t.corner[p] & ~(pos.forbidden[c] | t.edge[p] | t.mask[p] | occ)).bit_count()
            taken = sum((t.mask[p] & live[o]).bit_count() for o in others)
            score = 3 * len(sqs) + gain + 1.5 * taken + rng.gauss(0, 1.5)
            if opening:
                r = sum(centre[q][0] for q in sqs) / len(sqs)
                k = sum(centre[q][1] for q in sqs) / len(sqs)
                score -= 0.5 * (abs(r - middle[0]) + abs(k - middle[1]))
            if best is None or score > best:
                best, choice = score, p
        pos.push(Move(c, choice))
    return pos


POLICIES = {"random": seeded_game, "person": person_game}


def before_end(end: Position, back: int) -> Position:
    """The position ``back`` placements before the end of a game."""
    pos = Position(end.variant)
    for m in end.history[: len(end.history) - back]:
        pos.push(m)
    return pos


def lazy_smp(engines: list[te.Engine], pos: Position, params: tk.Params, deadline: float | None,
             window: tuple[int, int] | None = None) -> Outcome:
    """Lazy SMP, measured and not kept (benchmarks/RESULTS.md: root
    splitting beat it): the same search on several threads sharing the first engine's tables
    (the others try the moves near the root in another order, so that they
    fill the table ahead of each other); the first to finish answers."""
    t0 = time.perf_counter()
    te._new_generation(engines[0].tt)
    for e in engines:
        e.mem.history.fill(0)
    stop = threading.Event()
    results: list = [None] * len(engines)

    def worker(k: int) -> None:
        p = params if k == 0 else params._replace(helper=1)
        try:
            results[k] = engines[k].run(pos.copy(), p, deadline, window, fresh=False, stop=stop)
        except te.OutOfTime as e:
            results[k] = e
        stop.set()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(len(engines))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    done = [r for r in results if isinstance(r, te.Outcome)]
    nodes = sum(r.nodes for r in results)
    if not done:
        lo = max(r.bounds[0] for r in results)
        hi = min(r.bounds[1] for r in results)
        raise te.OutOfTime((lo, hi), nodes, max(r.depth for r in results), time.perf_counter() - t0)
    out = done[0]
    return out._replace(nodes=nodes, seconds=time.perf_counter() - t0)


def compiled(pos: Position, limit: float, workers: int = 1, split: int = 1):
    """(Outcome or None, seconds, nodes) of the compiled two-player search:
    one thread, lazy SMP on ``workers`` threads, or the root's moves split
    between ``split`` threads (solver.endgame.treesplit, as analyze)."""
    t0 = time.perf_counter()
    try:
        if split > 1:
            out = treesplit.solve_two_player(pos.copy(), time.monotonic() + limit, workers=split,
                                             table_bits=TABLE_BITS)
        elif workers == 1:
            out = te.solve_two_player(pos.copy(), time.monotonic() + limit, table_bits=TABLE_BITS)
        else:
            engines = te.kept_engines(pos.board, TABLE_BITS, workers, shared=True)
            p = te.two_player_params(pos, te.TWO_PLAYER)
            out = lazy_smp(engines, pos.copy(), p, time.monotonic() + limit)
        return out, time.perf_counter() - t0, out.nodes
    except te.OutOfTime as e:
        return None, time.perf_counter() - t0, e.nodes


def arm_run(pos: Position, limit: float, arm: str):
    """(Outcome or None, seconds, nodes, bounds proven) of one arm of the
    depth sections: ``arm`` is a thread count, the root split between them
    (``"1"``: the kernel alone), with ``w`` after it the winner first
    (solver.endgame.winnerfirst, as analyze), and ``v`` after that on
    every row what a colour makes sure of alone (Params.private)."""
    threads, winner_first = int(arm.rstrip("wv")), "w" in arm
    settings = replace(te.TWO_PLAYER, private=tk.MAX_PLIES) if arm.endswith("wv") else te.TWO_PLAYER
    if not winner_first:
        out, seconds, nodes = compiled(pos, limit, split=threads)
        return out, seconds, nodes, (out.value, out.value) if out is not None else None
    t0 = time.perf_counter()
    try:
        out = treesplit.solve_two_player(pos.copy(), time.monotonic() + limit, workers=threads,
                                         table_bits=TABLE_BITS, winner_first=True, settings=settings)
    except te.OutOfTime as e:
        return None, time.perf_counter() - t0, e.nodes, e.bounds
    return out, time.perf_counter() - t0, out.nodes, (out.value, out.value)


def decided(bounds) -> bool:
    """Whether proven bounds of a two-player value say who wins (or a draw)."""
    return bounds is not None and (bounds[0] > 0 or bounds[1] < 0 or bounds[0] == bounds[1])


# -- solo optima and the Python tree -----------------------------------------------
def section_solo(args) -> None:
    positions = sample_positions(4, args.seed, ROUNDS)
    print("solo optima (seconds to a proof; '-' = not proven within the limit)")
    print(f"{'round':>5} {'game':>4} {'colour':<7} {'pieces':>6} {'optimum':>8} {'search':>8} {'cp-sat':>8}")
    for r in ROUNDS:
        for g, pos in enumerate(positions[r]):
            for c in range(4):
                if not pos.hand[c] or not pos.has_legal_move(c):
                    continue
                puzzle = solo_puzzle(pos, c)
                cells, values = [], set()
                for run in (lambda: solve(puzzle, time_limit=args.limit),
                            lambda: cpsat.solve(puzzle, time_limit=args.limit)):
                    t0 = time.perf_counter()
                    result = run()
                    dt = time.perf_counter() - t0
                    if result.status is Status.OPTIMAL:
                        values.add(result.objective)
                        cells.append(f"{dt:8.2f}")
                    else:
                        cells.append(f"{'-':>8}")
                if len(values) > 1:
                    raise SystemExit(f"engines disagree on round {r} game {g} {COLORS[c]}: {values}")
                value = values.pop() if values else None
                print(f"{r:>5} {g:>4} {COLORS[c]:<7} {len(puzzle.pieces[c]):>6} {value!s:>8} {' '.join(cells)}")


def section_python(args) -> None:
    positions = sample_positions(4, args.seed, ROUNDS)
    print("two-player game values by the Python tree")
    print(f"{'round':>5} {'game':>4} {'plies':>5} {'value':>6} {'seconds':>8} {'positions':>10}")
    for r in ROUNDS:
        for g, pos in enumerate(positions[r]):
            t0 = time.perf_counter()
            try:
                value, _, nodes = gametree.two_player_value(pos.copy(), time.monotonic() + args.limit,
                                                            outlook=ScoreOutlook())
                cell = f"{value:>6} {time.perf_counter() - t0:8.2f} {nodes:>10,}"
            except gametree.OutOfTime:
                cell = f"{'-':>6} {'>' + str(int(args.limit)):>8} {'':>10}"
            print(f"{r:>5} {g:>4} {plies_left(pos):>5} {cell}")


# -- the compiled tree: speed, depth, sample, four players, threads, compile --------
def section_speed(args) -> None:
    """Both trees on the same positions, alternately; the Python tree with
    the outlook it has in analyze (ScoreOutlook), the compiled one as
    analyze runs it."""
    rec = load_record(str(ROOT / "puzzles/games/sample-2p.blksgf"))
    positions = [("sample-2p move 56", rec.position(56)), ("sample-2p move 57", rec.position(57))]
    for g in range(args.games):
        end = seeded_game(args.seed + g)
        positions.append((f"game {g} back 6", before_end(end, 6)))
    te.solve_two_player(rec.position(60), None, table_bits=TABLE_BITS)  # load the kernels first: not a position's cost
    print("positions per second, both trees on the same positions (CPU seconds; the kernels loaded beforehand)")
    print(f"{'position':<18} {'value':>6} | {'python pos':>10} {'s':>7} {'pos/s':>8} | {'compiled pos':>12} {'s':>7}"
          f" {'pos/s':>9} | {'pos/s ratio':>11} {'time ratio':>10}")
    rates = []
    for name, pos in positions:
        t0 = time.process_time()
        try:
            value, _, py_nodes = gametree.two_player_value(pos.copy(), time.monotonic() + args.limit,
                                                           outlook=ScoreOutlook())
        except gametree.OutOfTime:
            print(f"{name:<18} the Python tree did not finish in {args.limit:.0f} s")
            continue
        py_s = time.process_time() - t0
        t0 = time.process_time()
        out = te.solve_two_player(pos.copy(), None, table_bits=TABLE_BITS)
        c_s = time.process_time() - t0
        assert out.value == value, (name, out.value, value)
        py_rate, c_rate = py_nodes / py_s, out.nodes / max(c_s, 1e-6)
        rates.append((py_nodes, py_s, out.nodes, c_s))
        print(f"{name:<18} {value:>6} | {py_nodes:>10,} {py_s:>7.2f} {py_rate:>8,.0f} | {out.nodes:>12,} {c_s:>7.3f}"
              f" {c_rate:>9,.0f} | {c_rate / py_rate:>10.0f}x {py_s / max(c_s, 1e-6):>9.0f}x")
    if rates:
        py_n, py_s, c_n, c_s = (sum(r[i] for r in rates) for i in range(4))
        print(f"{'all':<18} {'':>6} | {py_n:>10,} {py_s:>7.2f} {py_n / py_s:>8,.0f} | {c_n:>12,} {c_s:>7.3f}"
              f" {c_n / c_s:>9,.0f} | {c_n / c_s / (py_n / py_s):>10.0f}x {py_s / c_s:>9.0f}x")


def section_depth(args, variant: Variant = CLASSIC) -> dict:
    """Exact two-player values at ``--backs`` placements before the end of
    ``--games`` games of ``--policy``, on each of ``--arms`` thread counts
    side by side (the order alternating from position to position)."""
    arms = args.arms.split(",") if args.arms else [f"{args.threads}w"]
    play = POLICIES[args.policy]
    print(f"exact two-player values ({variant.game}), {args.games} {args.policy} games, placements before the end"
          f" ('-': not proven in {args.limit:.0f} s); arms {' and '.join(arms)} (threads, w: the winner first);"
          " bounds where only they are proven")
    print(f"{'back':>4} {'game':>4} {'arm':>4} {'value':>9} {'seconds':>8} {'positions':>12} {'pos/s':>9}"
          f" {'depth':>5}")
    for arm in arms:  # load the kernels first: not a position's cost
        arm_run(before_end(play(args.seed, variant), 4), args.limit, arm)
    proven: dict = {}
    for back in args.backs:
        done = dict.fromkeys(arms, 0)
        won = dict.fromkeys(arms, 0)
        for g in range(args.games):
            pos = before_end(play(args.seed + g, variant), back)
            order = arms if g % 2 == 0 else arms[::-1]
            for arm in order:
                out, seconds, nodes, bounds = arm_run(pos, args.limit, arm)
                won[arm] += decided(bounds)
                if out is not None:
                    done[arm] += 1
                    proven.setdefault(back, []).append((g, pos, seconds))
                    cell = f"{out.value:>9} {seconds:>8.2f} {nodes:>12,} {nodes / seconds:>9,.0f} {out.depth:>5}"
                else:
                    shown = "-" if bounds is None or not decided(bounds) else f"{bounds[0]}..{bounds[1]}"
                    cell = f"{shown:>9} {'>' + str(int(args.limit)):>8} {nodes:>12,} {nodes / seconds:>9,.0f}"
                print(f"{back:>4} {g:>4} {arm:>4} {cell}", flush=True)
        print(f"{back:>4} proven " + ", ".join(f"{done[a]} values and {won[a]} winners of {args.games} with {a}"
                                                for a in arms), flush=True)
    return proven


def section_sample(args) -> None:
    rec = load_record(str(ROOT / "puzzles/games/sample-2p.blksgf"))
    print("puzzles/games/sample-2p.blksgf (two-player value)")
    for move in (56, 52):
        pos = rec.position(move)
        out, seconds, nodes = compiled(pos, max(args.limit, 60), split=args.threads)
        value = "-" if out is None else f"{out.value:+d}"
        print(f"move {move} ({plies_left(pos)} plies greedy): value {value} in {seconds:.2f} s, {nodes:,} positions")


def section_four(args) -> None:
    """Guaranteed scores of all four colours (the limit shared by the four,
    ``--threads`` colours searched at once, as blokus analyze does), in each
    of ``--four-ways`` side by side (the order alternating game by game):
    ``join`` (a thread with no colour left takes over half of one still
    searched, as analyze does) or ``at-once`` (it idles); ``:v0`` after
    either: without what a colour makes sure of alone
    (``treeengine.GUARANTEED`` with ``private`` off), as before that bound."""
    ways = args.four_ways.split(",")
    print(f"four-player guaranteed scores, {args.policy} games ({args.limit:.0f} s for the four colours, "
          f"{args.threads} at once; {' and '.join(ways)})")
    print(f"{'back':>4} {'game':>4} {'way':<10} {'blue':>6} {'yellow':>6} {'red':>6} {'green':>6} {'seconds':>8}"
          f" {'positions':>12}")
    for back in args.backs:
        done = dict.fromkeys(ways, 0)
        for g in range(args.games):
            pos = before_end(POLICIES[args.policy](args.seed + g, CLASSIC), back)
            for way in (ways if g % 2 == 0 else ways[::-1]):
                deadline = time.monotonic() + args.limit
                t0, nodes, cells = time.perf_counter(), 0, []
                settings = replace(te.GUARANTEED, private=0) if way.endswith(":v0") else te.GUARANTEED
                found = treesplit.solve_guaranteed_all(pos, range(4), deadline, args.threads, TABLE_BITS,
                                                       join=way.startswith("join"), settings=settings)
                for out in found.values():
                    nodes += out.nodes
                    cells.append(f"{'-' if isinstance(out, te.OutOfTime) else out.value:>6}")
                done[way] += all(x.strip() != "-" for x in cells)
                print(f"{back:>4} {g:>4} {way:<10} {' '.join(cells)} {time.perf_counter() - t0:>8.2f} {nodes:>12,}",
                      flush=True)
        print(f"{back:>4} all four proven: " + ", ".join(f"{way} {done[way]} of {args.games}" for way in ways))


def section_cores(args, proven: dict) -> None:
    """One thread against two (lazy SMP), alternately, wall-clock seconds."""
    cases = [(back, g, pos) for back in (12, 16) for g, pos, s in proven.get(back, []) if s > 0.5][:6]
    if not cases:
        print("two cores: no proven position took over 0.5 s")
        return
    print(f"two cores (wall seconds, {os.cpu_count()} cores; the other engineers' jobs share them)")
    print(f"{'back':>4} {'game':>4} {'1 thread':>9} {'2 threads':>9} {'speed-up':>8}")
    ratios = []
    for back, g, pos in cases:
        one = min(compiled(pos, 120)[1] for _ in range(2))
        two = min(compiled(pos, 120, workers=2)[1] for _ in range(2))
        ratios.append(one / two)
        print(f"{back:>4} {g:>4} {one:>9.2f} {two:>9.2f} {one / two:>7.2f}x", flush=True)
    print(f"two threads: {min(ratios):.2f}x to {max(ratios):.2f}x")


def section_compile(args) -> None:
    """First compile (an empty numba cache) and a cached start-up, each in a
    new process: import, build the tables, one small search."""
    code = ("import time; t = time.perf_counter(); from solver.formats.sgf import load_record; "
            "from solver.packing import treekernel as tk; "
            "pos = load_record('puzzles/games/sample-2p.blksgf').position(60); "
            "te.solve_two_player(pos, None, table_bits=16); print(time.perf_counter() - t)")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for what in ("first compile", "cached start-up"):
            t0 = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
            if out.returncode:
                raise SystemExit(out.stderr)
            print(f"{what}: {float(out.stdout):.1f} s (process {time.perf_counter() - t0:.1f} s)")


SECTIONS = ("speed", "depth", "duo", "sample", "four", "cores", "compile")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sections", default="all", help="comma-separated: solo python " + " ".join(SECTIONS))
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=float, default=30.0, help="seconds per solve")
    ap.add_argument("--threads", type=int, default=tree_threads(),
                    help=f"threads (default {tree_threads()}, one per core, as analyze): four section, colours "
                         "searched at once; sample and depth sections, the root's moves split between them "
                         "(1: one thread)")
    ap.add_argument("--backs", type=lambda t: [int(x) for x in t.split(",")], default=list(BACKS),
                    help="placements before the end, comma-separated (default %(default)s)")
    ap.add_argument("--policy", choices=sorted(POLICIES), default="random",
                    help="how the games are played: random moves of the largest piece, or person-like")
    ap.add_argument("--arms", default="",
                    help="depth and duo sections: arms side by side, a thread count each, 'w' after it: the winner "
                         "first (as analyze), 'v' after that: what a colour makes sure of alone on every row too, e.g. "
                         "2,2w,2wv (default: the --threads count, winner first)")
    ap.add_argument("--four-ways", default="join",
                    help="four section: join (as analyze), at-once, or both side by side: join,at-once; "
                         "':v0' after one: without what a colour makes sure of alone (join,join:v0)")
    args = ap.parse_args()
    sections = SECTIONS if args.sections == "all" else tuple(args.sections.split(","))
    proven: dict = {}
    for name in sections:
        if name == "solo":
            section_solo(args)
        elif name == "python":
            section_python(args)
        elif name == "speed":
            section_speed(args)
        elif name == "depth":
            proven = section_depth(args)
        elif name == "duo":
            section_depth(args, DUO)
        elif name == "sample":
            section_sample(args)
        elif name == "four":
            section_four(args)
        elif name == "cores":
            section_cores(args, proven)
        elif name == "compile":
            section_compile(args)
        else:
            raise SystemExit(f"unknown section {name!r}")
        print()


if __name__ == "__main__":
    main()
