"""Solo optima, a harder endgame benchmark: each engine alone
on a few hundred (position, colour) solo-optimum problems, side by side.

    python benchmarks/solo_optima.py [--games 10] [--seed 13] [--limit 10]
        [--engines search,cpsat,cpsat-plain] [--cpsat-params TEXT] [--workers 0]
        [--json out.json] [--only in.json --slower 0.5] [--verbose]

Problems: seeded four-colour games, ``--games`` per policy, under three
policies (``random``: a uniformly random legal move; ``greedy``: a random
move of the largest piece left; ``mixed``: greedy or random by a coin),
taken after rounds 11 to 16 (4 moves a round; each game gives three of
the six rounds, by its seed). Every colour that still has a legal move
gives one problem, :func:`solver.endgame.analysis.solo_puzzle`: the colour alone,
its pieces in hand, the board as it is, advanced scoring.

Each problem is solved by every engine through :func:`solver.solving.solve`
(which verifies every solution it reports), alternating which engine goes
first, with ``--limit`` seconds each. An engine is *wrong* on a problem
when it claims an optimum (or a bound) below a value the other engine's
verified solution reaches. ``--json`` writes every problem's figures;
``--only`` with ``--slower S`` re-runs only the problems of an earlier
``--json`` file on which some engine took more than S seconds.

This is a script of its own, not a section of benchmarks/endgame.py, so
that endgame.py's 26 positions and game-tree figures stay comparable.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from contextlib import contextmanager
from functools import partial
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.core.geometry import COLORS  # noqa: E402
from solver.core.position import Move, Position  # noqa: E402
from solver.cpsat import driver, model, warmstart  # noqa: E402
from solver.endgame.analysis import solo_puzzle  # noqa: E402
from solver.puzzle.result import SolveResult, Status  # noqa: E402
from solver.solving import solve  # noqa: E402

POLICIES = ("random", "greedy", "mixed")
ROUNDS = (11, 12, 13, 14, 15, 16)


@dataclass
class Problem:
    """One solo-optimum problem and what each engine made of it."""

    policy: str
    game: int
    round: int
    color: int
    pieces: int
    pos: Position
    seconds: dict[str, float] = field(default_factory=dict)
    results: dict[str, SolveResult] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.policy}/{self.game}/{self.round}/{COLORS[self.color]}"


def choose(policy: str, pos: Position, rng: random.Random) -> int:
    """The next placement of the colour to move under a game policy."""
    moves = pos.legal_placements()
    if policy == "random" or policy == "mixed" and rng.random() < 0.5:
        return rng.choice(moves)
    size = max(len(pos.table.squares[p]) for p in moves)
    return rng.choice([p for p in moves if len(pos.table.squares[p]) == size])


def game_positions(policy: str, game: int, seed: int) -> dict[int, Position]:
    """The positions after three of the rounds 11..16 of one seeded game
    (odd rounds for even games, even rounds for odd ones)."""
    rng = random.Random(f"{seed}/{policy}/{game}")
    rounds = ROUNDS[game % 2::2]
    pos, out = Position(), {}
    while not pos.game_over and len(pos.history) < 4 * rounds[-1]:
        pos.push(Move(pos.to_move, choose(policy, pos, rng)))
        n = len(pos.history)
        if n % 4 == 0 and n // 4 in rounds:
            out[n // 4] = pos.copy()
    return out


def problems(games: int, seed: int) -> list[Problem]:
    """Every (position, colour) with a legal move, over all policies and games."""
    out = []
    for policy in POLICIES:
        for g in range(games):
            for r, pos in game_positions(policy, g, seed).items():
                for c in range(4):
                    if pos.hand[c] and pos.has_legal_move(c):
                        out.append(Problem(policy, g, r, c, len(pos.pieces_left(c)), pos))
    return out


# CP-SAT variants, side by side: (driver functions switched off, workers or None for --workers)
VARIANTS = {
    "cpsat": ((), None),
    "cpsat-cold": (("warm_start", "play_order"), None),  # neither warm start nor play order
    "cpsat-plain": (("play_order",), None),  # warm start, no play-order search
    "cpsat-1": ((), 1),  # one worker: the play order alone, a fixed search
    "cpsat-nopack": (("pack",), None),  # the warm start without its packing search
    "cpsat-nochain": (("chains",), None),  # without the monomino-last chains of the model
}
_OFF = {"warm_start": lambda m: None, "play_order": lambda m: False,
        "pack": lambda m: warmstart.warm_start(m, pack=False)}


def run(problem: Problem, engine: str, limit: float, workers: int, params: str) -> None:
    """Solve one problem with one engine or CP-SAT variant (verified by
    solving.solve) and keep the time."""
    puzzle = solo_puzzle(problem.pos, problem.color)
    off, own_workers = VARIANTS.get(engine, ((), None))
    name = "cpsat" if engine in VARIANTS else engine
    options = {"workers": workers if own_workers is None else own_workers, "cpsat_params": params} \
        if name == "cpsat" else {}
    start = time.perf_counter()
    with _switched_off(off):
        result = solve(puzzle, name, time_limit=limit, **options)
    problem.seconds[engine] = time.perf_counter() - start
    problem.results[engine] = result


@contextmanager
def _switched_off(names: tuple[str, ...]) -> Iterator[None]:
    """Within: the CP-SAT driver without the named steps."""
    attr = {"pack": "warm_start", "chains": "build"}
    saved = {attr.get(n, n): getattr(driver, attr.get(n, n)) for n in names}
    for n in names:
        off = partial(model.build, monomino_chains=False) if n == "chains" else _OFF[n]
        setattr(driver, attr.get(n, n), off)
    try:
        yield
    finally:
        for n, f in saved.items():
            setattr(driver, n, f)


def wrong(problem: Problem, engine: str) -> bool:
    """Whether the engine claims less than another engine's verified solution reaches."""
    mine = problem.results[engine]
    claim = mine.objective if mine.status is Status.OPTIMAL else mine.bound
    others = [r.objective for e, r in problem.results.items() if e != engine and r.objective is not None]
    return claim is not None and any(o > claim for o in others)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of a non-empty list."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def summary(ps: list[Problem], engines: list[str], limit: float) -> None:
    """The summary table: per engine wrong, median, p90, max, over 1 s, unproven."""
    print(f"\n{len(ps)} problems from {len({(p.policy, p.game) for p in ps})} games, "
          f"{min(p.pieces for p in ps)}-{max(p.pieces for p in ps)} pieces in hand, limit {limit:g} s")
    print(f"{'engine':<8} {'wrong':>5} {'median':>7} {'p90':>7} {'max':>7} {'>1 s':>5} "
          f"{'unproven':>8} {'<1 s proven':>12} {'total':>8}")
    for e in engines:
        times = [p.seconds[e] for p in ps]
        unproven = sum(p.results[e].status is not Status.OPTIMAL for p in ps)
        fast = sum(p.results[e].status is Status.OPTIMAL and p.seconds[e] < 1 for p in ps)
        print(f"{e:<8} {sum(wrong(p, e) for p in ps):>5} {statistics.median(times):>7.3f} "
              f"{percentile(times, 90):>7.3f} {max(times):>7.2f} {sum(t > 1 for t in times):>5} "
              f"{unproven:>8} {100 * fast / len(ps):>11.1f}% {sum(times):>8.1f}")
    by_policy = sorted({p.policy for p in ps})
    for e in engines:
        parts = [f"{pol} {statistics.median([p.seconds[e] for p in ps if p.policy == pol]):.3f}"
                 for pol in by_policy]
        print(f"  {e} median by policy: " + ", ".join(parts))


def record(p: Problem) -> dict:
    return {"key": p.key, "pieces": p.pieces,
            **{f"{e}_seconds": round(s, 4) for e, s in p.seconds.items()},
            **{f"{e}_status": r.status.value for e, r in p.results.items()},
            **{f"{e}_objective": r.objective for e, r in p.results.items()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10, help="games per policy")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per engine per problem")
    ap.add_argument("--engines", default="search,cpsat", help="of search, cpsat and its variants: " + ", ".join(VARIANTS))
    ap.add_argument("--workers", type=int, default=0, help="CP-SAT workers (0: one per core)")
    ap.add_argument("--cpsat-params", default="", help="extra CP-SAT parameters, text format")
    ap.add_argument("--json", help="write every problem's figures here")
    ap.add_argument("--only", help="an earlier --json file: re-run only its slow problems")
    ap.add_argument("--slower", type=float, default=0.5, help="with --only: seconds that make a problem slow")
    ap.add_argument("--verbose", action="store_true", help="one line per problem")
    args = ap.parse_args()
    engines = args.engines.split(",")
    ps = problems(args.games, args.seed)
    if args.only:
        old = json.loads(Path(args.only).read_text())
        slow = {d["key"] for d in old if max(v for k, v in d.items() if k.endswith("_seconds")) > args.slower}
        ps = [p for p in ps if p.key in slow]
    for i, p in enumerate(ps):
        for e in engines[i % len(engines):] + engines[:i % len(engines)]:
            run(p, e, args.limit, args.workers, args.cpsat_params)
        if args.verbose:
            cells = " ".join(f"{e} {p.seconds[e]:6.2f} {p.results[e].status.value[:3]} {p.results[e].objective!s:>4}"
                             for e in engines)
            print(f"{p.key:<24} {p.pieces:>2} pieces  {cells}", flush=True)
    summary(ps, engines, args.limit)
    if args.json:
        Path(args.json).write_text(json.dumps([record(p) for p in ps], indent=0))


if __name__ == "__main__":
    main()
