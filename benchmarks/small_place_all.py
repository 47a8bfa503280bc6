"""Small place-all puzzles of the kind people write, each engine alone,
side by side: the evidence behind ``--engine auto``'s choice of the search
engine for place-all puzzles of fewer than 42 pieces.

    python benchmarks/small_place_all.py [--puzzles 30] [--seed 1] [--limit 20] [--json out.json]

Each puzzle is drawn from the seed: one colour (6 to 14 pieces, from a
corner) or two (5 to 10 pieces each, from opposite corners), the pieces at
random from the 21, on a rectangle of 1 to 1.5 times the pieces' squares,
under the game rule; most of them are impossible, some pack. The engines
run one after the other on each puzzle, the order alternating from puzzle
to puzzle, ``--limit`` seconds each, through :func:`solver.solving.solve`
(every answer verified). Printed: each puzzle's answer and seconds per
engine, then per engine the puzzles decided, the median and slowest
seconds, and any disagreement (a bug: the script exits 1).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.core.geometry import Board  # noqa: E402
from solver.core.pieces import CLASSIC_PIECES, PIECE_SIZES  # noqa: E402
from solver.puzzle.definition import Puzzle  # noqa: E402
from solver.solving import solve  # noqa: E402

ENGINES = ("search", "cpsat")


def draw(rng: random.Random, index: int) -> Puzzle | None:
    """One puzzle as the module docstring says (None when no rectangle fits the draw)."""
    two = rng.random() < 0.4
    pieces = tuple(sorted(rng.sample(CLASSIC_PIECES, rng.randint(5, 10) if two else rng.randint(6, 14))))
    colours = (0, 2) if two else (0,)
    area = sum(PIECE_SIZES[p] for p in pieces) * len(colours)
    target = int(area * rng.uniform(1.0, 1.5))
    shapes = [(w, h) for w in range(2, 20) for h in range(w, 40) if area <= w * h and abs(w * h - target) <= 3]
    if not shapes:
        return None
    w, h = rng.choice(shapes)
    starts = [frozenset()] * 4
    starts[0] = frozenset([0])
    if two:
        starts[2] = frozenset([w * h - 1])
    return Puzzle(Board(w, h, frozenset(), tuple(starts)), colours, {c: pieces for c in colours},
                  name=f"p{index}-{w}x{h}-{len(colours)}c-{len(pieces)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--puzzles", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=float, default=20.0)
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rows = []
    disagreements = 0
    for i in range(args.puzzles):
        puzzle = draw(rng, i)
        if puzzle is None:
            continue
        row = {"puzzle": puzzle.name, "squares": puzzle.board.size}
        for engine in ENGINES if i % 2 == 0 else ENGINES[::-1]:
            t0 = time.monotonic()
            result = solve(puzzle, engine, time_limit=args.limit)
            row[engine] = {"status": result.status.value, "seconds": round(time.monotonic() - t0, 2)}
        decided = {row[e]["status"] for e in ENGINES} - {"UNKNOWN"}
        if len(decided) > 1:
            disagreements += 1
            row["disagreement"] = True
        rows.append(row)
        print(f"{puzzle.name:<22}" + "".join(f"  {e} {row[e]['status']:<10} {row[e]['seconds']:6.2f} s" for e in ENGINES),
              flush=True)
    for engine in ENGINES:
        seconds = [r[engine]["seconds"] for r in rows]
        decided = sum(r[engine]["status"] != "UNKNOWN" for r in rows)
        print(f"{engine}: decided {decided} of {len(rows)}, median {statistics.median(seconds):.2f} s, "
              f"slowest {max(seconds):.2f} s")
    print(f"disagreements: {disagreements}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
