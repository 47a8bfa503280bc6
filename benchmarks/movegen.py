"""Move-generation speed: the incremental generator against a plain bitboard
generator (no incremental state) and the slow reference, in one run; then
random playouts (whole four-colour games of uniformly random legal moves):
the compiled engine's (benchmarks/playout.py), the Rust core of
blokus-rl (when it is installed: pip install blokus-rl) and the Python
Position's, in alternating rounds in the same run. Last, Blokus Trigon
against the classic board: the incremental generator's time per legal move
on positions of both boards, in alternating rounds.

    python benchmarks/movegen.py [--games 8] [--seconds 3] [--seed 1] [--rounds 3]
    python benchmarks/movegen.py --trigon-only   # just the Trigon comparison

Positions come from seeded random games, taken at rounds 4, 8, 12 and 16
(after 16, 32, 48, 64 moves). The incremental generator is timed from the
candidate state the position had when it was reached (its first call), not
from a state already pruned by an earlier call.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.core import reference  # noqa: E402
from solver.core.geometry import CLASSIC_BOARD, squares_of  # noqa: E402
from solver.core.pieces import CLASSIC_SET, PIECES  # noqa: E402
from solver.core.placements import PlacementTable  # noqa: E402
from solver.core.position import Move, Position  # noqa: E402

ROUNDS = (4, 8, 12, 16)


def plain_bitboard_moves(pos: Position, c: int) -> list[int]:
    """The straightforward generator: walk the attach squares, test every
    placement covering one against the forbidden mask, dedupe with a set."""
    t = pos.table
    f = pos.forbidden[c]
    key = t.key
    found = set()
    for sq in squares_of(pos.reach[c] & ~f):
        for p in t.covering[sq]:
            if not key[p] & f:
                found.add(p)
    return list(found)


def reference_args(pos: Position, c: int):
    b = pos.board
    grid = {}
    for col in range(4):
        for sq in squares_of(pos.occupied[col]):
            grid[b.row_col(sq)] = col
    hand = {PIECES[i].name for i in pos.pieces_left(c)}
    return grid, b.height, b.width, c, hand, {b.row_col(s) for s in b.starts[c]}


def sample_positions(games: int, seed: int, rounds: tuple[int, ...] = ROUNDS,
                     variant=None) -> dict[int, list[Position]]:
    """Positions from seeded games in which each colour plays a random move
    among those of its largest piece left (plain random games end before
    round 16; this simple policy plays like people and lasts longer)."""
    found = {r: [] for r in rounds}
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        pos = Position() if variant is None else Position(variant)
        while not pos.game_over and len(pos.history) < 4 * rounds[-1]:
            moves = pos.legal_placements()
            size = max(pos.table.squares[p].__len__() for p in moves)
            pos.push(Move(pos.to_move, rng.choice([p for p in moves if len(pos.table.squares[p]) == size])))
            n = len(pos.history)
            if n % 4 == 0 and n // 4 in found and not pos.game_over:
                found[n // 4].append(pos.copy())
    return found


def time_per_call(fn, seconds: float) -> tuple[float, int]:
    calls, start = 0, time.perf_counter()
    while True:
        fn()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / calls, calls


def bench_generation(positions: list[Position], seconds: float) -> dict:
    fresh = [(pos, pos.to_move, pos.cands[pos.to_move]) for pos in positions]
    counts = [len(pos.legal_placements(c)) for pos, c, _ in fresh]
    for (pos, c, cands), n in zip(fresh, counts):
        assert sorted(plain_bitboard_moves(pos, c)) == sorted(pos.legal_placements(c))
        assert len(reference.legal_moves(*reference_args(pos, c))) == n

    def fast():
        for pos, c, cands in fresh:
            pos.cands[c] = cands
            pos.legal_placements(c)

    def plain():
        for pos, c, _ in fresh:
            plain_bitboard_moves(pos, c)

    args = [reference_args(pos, c) for pos, c, _ in fresh]

    def slow():
        for a in args:
            reference.legal_moves(*a)

    k = len(fresh)
    t_fast, _ = time_per_call(fast, seconds)
    t_plain, _ = time_per_call(plain, seconds)
    t_slow, _ = time_per_call(slow, seconds)
    moves = sum(counts) / k
    return {
        "positions": k,
        "moves": moves,
        "fast_us": t_fast / k * 1e6,
        "plain_us": t_plain / k * 1e6,
        "slow_us": t_slow / k * 1e6,
    }


def fast_playouts(seconds: float, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    games = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        pos = Position()
        while pos.to_move is not None:
            pos.push(Move(pos.to_move, rng.choice(pos.legal_placements())))
        games += 1
        plies += len(pos.history)
    elapsed = time.perf_counter() - start
    return games / elapsed, plies / games


def slow_playouts(seconds: float, seed: int) -> float:
    """Whole random games driven only by the reference generator."""
    rng = random.Random(seed)
    b = CLASSIC_BOARD
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        grid: dict = {}
        hands = [{p.name for p in CLASSIC_SET} for _ in range(4)]
        starts = [{b.row_col(s) for s in b.starts[c]} for c in range(4)]
        color, idle = 0, 0
        while idle < 4:
            moves = reference.legal_moves(grid, b.height, b.width, color, hands[color], starts[color])
            if moves:
                idle = 0
                squares = rng.choice(sorted(moves, key=sorted))
                for sq in squares:
                    grid[sq] = color
                shape = frozenset((r - min(x for x, _ in squares), c - min(y for _, y in squares)) for r, c in squares)
                name = next(n for n, os in reference.ORIENTATIONS.items() if shape in os)
                hands[color].discard(name)
            else:
                idle += 1
            color = (color + 1) % 4
        games += 1
    return games / (time.perf_counter() - start)


def compiled_playouts(seconds: float, seed: int) -> tuple[float, float]:
    """(games/s, moves per game) of the compiled engine's random playouts."""
    from playout import Playouts

    po = _PLAYOUTS.setdefault("compiled", Playouts())
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        moves += po.run(20, seed * 1000 + games)
        games += 20
    return games / (time.perf_counter() - start), moves / games


_PLAYOUTS: dict = {}


def blokus_rl_playouts(seconds: float, seed: int) -> tuple[float, float] | None:
    """(games/s, moves per game) of random playouts with blokus-rl's Rust
    core (PyBlokus: the legal moves as its action mask, one step per move),
    or None when blokus-rl is not installed."""
    try:
        from blokus_rl._blokus import PyBlokus
    except ImportError:
        return None
    import numpy as np

    rng = random.Random(seed)
    game = _PLAYOUTS.setdefault("blokus-rl", PyBlokus())
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.reset()
        while not game.is_over:
            agent = game.agent_selection
            if game.terminations[agent]:
                game.step(None)  # out of moves: its turn passes
                continue
            legal = np.flatnonzero(np.frombuffer(game.observe(agent).action_mask, dtype=np.int8))
            game.step(int(legal[rng.randrange(len(legal))]))
            moves += 1
        games += 1
    return games / (time.perf_counter() - start), moves / games


def compare_playouts(seconds: float, seed: int, rounds: int) -> None:
    """Alternating rounds of the three playout engines (the machine's load
    changes during a run; each round measures all three back to back)."""
    compiled_playouts(0.1, seed)  # compile or load the kernel first
    print(f"random playouts, whole four-colour games ({rounds} alternating rounds of {seconds:.1f} s each):")
    print(f"{'round':>5} | {'compiled/s':>10} {'moves':>5} | {'blokus-rl/s':>11} {'moves':>5} | {'python/s':>8} |"
          f" {'compiled/blokus-rl':>18} {'compiled/python':>15}")
    ratios = []
    for r in range(rounds):
        fast, fast_moves = compiled_playouts(seconds, seed + r)
        rl = blokus_rl_playouts(seconds, seed + r)
        py, _ = fast_playouts(seconds, seed + r)
        rl_cells = f"{rl[0]:>11.0f} {rl[1]:>5.1f}" if rl else f"{'-':>11} {'':>5}"
        ratio = f"{fast / rl[0]:>17.1f}x" if rl else f"{'-':>18}"
        if rl:
            ratios.append(fast / rl[0])
        print(f"{r:>5} | {fast:>10.0f} {fast_moves:>5.1f} | {rl_cells} | {py:>8.0f} | {ratio} {fast / py:>14.1f}x")
    if ratios:
        print(f"compiled against blokus-rl: {min(ratios):.1f}x to {max(ratios):.1f}x")
    else:
        print("blokus-rl is not installed (pip install blokus-rl): only the compiled and Python playouts ran")


def generation_per_move(positions: list[Position], seconds: float) -> tuple[float, float]:
    """(ns per legal move, moves per position) of the incremental generator
    over ``positions``, each timed from the candidate state it was reached with."""
    fresh = [(pos, pos.to_move, pos.cands[pos.to_move]) for pos in positions]
    moves = sum(len(pos.legal_placements(c)) for pos, c, _ in fresh)

    def fast():
        for pos, c, cands in fresh:
            pos.cands[c] = cands
            pos.legal_placements(c)

    per_call, _ = time_per_call(fast, seconds)
    return per_call / moves * 1e9, moves / len(fresh)


def compare_trigon(games: int, seed: int, seconds: float, rounds: int) -> None:
    """Blokus Trigon (486 triangles, 22 pieces, 32,131 placements) against
    the classic board: positions of seeded games of each (rounds 4, 8, 12
    and 16 of the largest-piece policy), the incremental generator's time
    per legal move, the two boards measured back to back in each round. The
    Trigon moves are checked once against the plain bitboard generator."""
    from solver.core.variants import TRIGON

    placement_table_time = time.perf_counter()
    Position(TRIGON)
    placement_table_time = time.perf_counter() - placement_table_time
    boards = {
        "classic": [p for r in ROUNDS for p in sample_positions(games, seed)[r]],
        "trigon": [p for r in ROUNDS for p in sample_positions(games, seed, variant=TRIGON)[r]],
    }
    for pos in boards["trigon"]:
        c = pos.to_move
        cands = pos.cands[c]
        assert sorted(plain_bitboard_moves(pos, c)) == sorted(pos.legal_placements(c))
        pos.cands[c] = cands
    print(f"Trigon against classic: legal-move generation per legal move ({rounds} alternating rounds of"
          f" {seconds:.1f} s per board; Trigon table built in {placement_table_time * 1e3:.0f} ms)")
    print(f"{'round':>5} | {'classic ns/move':>15} {'moves':>6} | {'trigon ns/move':>14} {'moves':>6} | {'trigon/classic':>14}")
    ratios = []
    for r in range(rounds):
        classic, classic_moves = generation_per_move(boards["classic"], seconds)
        trigon, trigon_moves = generation_per_move(boards["trigon"], seconds)
        ratios.append(trigon / classic)
        print(f"{r:>5} | {classic:>15.0f} {classic_moves:>6.0f} | {trigon:>14.0f} {trigon_moves:>6.0f} | {trigon / classic:>13.2f}x")
    print(f"positions: {len(boards['classic'])} classic, {len(boards['trigon'])} trigon;"
          f" trigon/classic per legal move: {min(ratios):.2f}x to {max(ratios):.2f}x,"
          f" median {sorted(ratios)[len(ratios) // 2]:.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=16, help="random games to sample positions from")
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds of the playout comparison")
    ap.add_argument("--trigon-only", action="store_true", help="only the Trigon against classic comparison")
    args = ap.parse_args()
    if args.trigon_only:
        compare_trigon(args.games, args.seed, args.seconds, args.rounds)
        return

    start = time.perf_counter()
    PlacementTable(CLASSIC_BOARD)
    print(f"placement table build (20x20, 30,433 placements): {(time.perf_counter() - start) * 1e3:.0f} ms")
    Position()  # warm the cached table

    samples = sample_positions(args.games, args.seed)
    print()
    print("full legal-move generation for the colour to move (us per generation)")
    print(f"{'round':>5} {'pos':>4} {'moves':>6} | {'fast us':>8} {'moves/s':>9} | {'plain us':>8} {'ratio':>6} | {'slow us':>9} {'ratio':>6}")
    for r in ROUNDS:
        if not samples[r]:
            continue
        s = bench_generation(samples[r], args.seconds)
        print(
            f"{r:>5} {s['positions']:>4} {s['moves']:>6.0f} | {s['fast_us']:>8.1f} {s['moves'] / s['fast_us'] * 1e6 / 1e6:>7.2f} M |"
            f" {s['plain_us']:>8.1f} {s['plain_us'] / s['fast_us']:>5.1f}x | {s['slow_us']:>9.0f} {s['slow_us'] / s['fast_us']:>5.0f}x"
        )
    print()
    rate, plies = fast_playouts(args.seconds * 2, args.seed)
    slow = slow_playouts(args.seconds * 2, args.seed)
    print(f"random playouts, whole four-colour games: fast {rate:.0f}/s ({plies:.1f} moves each), slow reference {slow:.2f}/s, ratio {rate / slow:.0f}x")
    print()
    compare_playouts(args.seconds, args.seed, args.rounds)
    print()
    compare_trigon(args.games, args.seed, args.seconds, args.rounds)


if __name__ == "__main__":
    main()
