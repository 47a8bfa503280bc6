"""The smallest rectangles that hold one colour's 21 pieces under the game
rule (the first piece on a corner, every piece touching the colour at a
corner and never at an edge): every rectangle by area, each engine alone.

    python benchmarks/smallest_boards.py [--limit 10] [--min-area 89] [--max-area 160] [--min-width 3] [--json out.json]
                                         [--search-mode auto|exhaustive] [--engines search,cpsat]
                                         [--image docs/smallest-one-colour.png]

Rectangles W x H with W <= H (a rectangle and its transpose are the same
puzzle: the transpose maps the corner start onto a corner), W from
``--min-width`` (a piece of three squares across needs three), area from
``--min-area`` (by default 89, the pieces' squares) to ``--max-area``, in
order of area. Each is
solved by the search engine and by CP-SAT (two workers), ``--limit``
seconds each, through :func:`solver.solving.solve` (every packing
verified; ``--search-mode exhaustive`` gives the search engine's
complete search the whole limit, where ``auto`` shares it with the
beams; ``--engines search`` runs one engine only). A rectangle is
*packed* when an engine packs it, *impossible* when both engines prove
it INFEASIBLE, *impossible by search only* (or cpsat) when one does,
else *open*. Beside them, a
counting bound that needs no search: the pieces' perimeters add up to 216
unit edges (no two pieces of a colour share an edge), each edge is on the
board's border or faces an empty square, and an empty square faces at
most four, so W x H >= 89 + (216 - 2 (W + H)) / 4; a rectangle below it
is impossible by counting (reported, never counted as an engine's proof).
The window count's bound beside it (:mod:`solver.puzzle.windows`, which
both engines use): negative, no packing.
``--image``: the packing of the smallest rectangle packed, drawn lying
down (height x width: the same puzzle), pieces numbered in play order.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.core.geometry import Board  # noqa: E402
from solver.core.pieces import CLASSIC_PIECES, PIECE_SIZES, PIECES  # noqa: E402
from solver.puzzle.definition import Puzzle  # noqa: E402
from solver.puzzle.windows import window_bound  # noqa: E402
from solver.solving import solve  # noqa: E402

SQUARES = sum(PIECE_SIZES[i] for i in CLASSIC_PIECES)  # 89


def perimeter(piece: int) -> int:
    cells = set(PIECES[piece].orientations[0])
    return sum(1 for r, c in cells for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)) if (r + dr, c + dc) not in cells)


PERIMETER = sum(perimeter(i) for i in CLASSIC_PIECES)  # 216


def counting_bound(width: int, height: int) -> int:
    """The least area the counting argument of the module docstring allows."""
    return SQUARES + max(0, math.ceil((PERIMETER - 2 * (width + height)) / 4))


def one_colour(width: int, height: int) -> Puzzle:
    starts = (frozenset([0]), frozenset(), frozenset(), frozenset())
    return Puzzle(Board(width, height, frozenset(), starts), (0,), {0: CLASSIC_PIECES}, name=f"one-{width}x{height}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--min-area", type=int, default=SQUARES)
    ap.add_argument("--max-area", type=int, default=160)
    ap.add_argument("--min-width", type=int, default=3)
    ap.add_argument("--search-mode", default="auto", choices=["auto", "exhaustive"])
    ap.add_argument("--engines", default="search,cpsat", help="the engines to run, comma-separated")
    ap.add_argument("--json", help="write every rectangle's figures here")
    ap.add_argument("--image", help="draw the smallest packing found here (.png or .svg)")
    args = ap.parse_args()
    engines = args.engines.split(",")
    if not engines or set(engines) - {"search", "cpsat"}:
        ap.error(f"--engines takes search, cpsat or both, not {args.engines!r}")
    boxes = sorted(((w, h) for w in range(args.min_width, 30) for h in range(w, 100)
                    if max(SQUARES, args.min_area) <= w * h <= args.max_area), key=lambda wh: (wh[0] * wh[1], wh[0]))
    rows = []
    print(f"{'board':>6} {'area':>5} {'count bound':>11} {'windows':>7}  {'search':<22} {'cpsat':<22} verdict",
          flush=True)
    for w, h in boxes:
        puzzle = one_colour(w, h)
        row = {"board": f"{w}x{h}", "area": w * h, "counting_bound": counting_bound(w, h),
               "window_bound": window_bound(puzzle)}
        verdict = "open"
        for engine in engines:
            r = solve(puzzle, engine, time_limit=args.limit, mode=args.search_mode if engine == "search" else "auto")
            placed = 0 if r.best_partial else len(r.placements)
            row[engine] = {"status": r.status.value, "seconds": round(r.seconds, 2), "placed": len(r.placements)}
            if r.status.value == "OPTIMAL" and placed == 21:
                verdict = "packed"
                row["packing"] = [(c, puzzle.table.name(p)) for c, p in r.placements]
        proved = [e for e in ("search", "cpsat") if row.get(e, {}).get("status") == "INFEASIBLE"]
        if verdict == "open" and proved:
            verdict = "impossible" if len(proved) == 2 else f"impossible by {proved[0]} only"
        row["verdict"] = verdict
        rows.append(row)
        cells = [_cell(row[e]) if e in row else "-" for e in ("search", "cpsat")]
        below = " (below the counting bound)" if w * h < row["counting_bound"] else ""
        print(f"{w}x{h:<3} {w * h:>5} {row['counting_bound']:>11} {row['window_bound']:>7}  {cells[0]:<22} "
              f"{cells[1]:<22} {verdict}{below}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    packed = [row for row in rows if row["verdict"] == "packed"]
    if args.image and packed:
        draw(packed[0], args.image)


def _cell(run: dict) -> str:
    """An engine's run as the table shows it: status, seconds, and the
    pieces placed when it ran out of time."""
    placed = f" {run['placed']}p" if run["status"] == "UNKNOWN" else ""
    return f"{run['status']} {run['seconds']:.1f}s{placed}"


def draw(row: dict, path: str) -> None:
    """The packing of ``row`` on the board turned to lie wide (rows become
    columns: blue's corner stays a corner), verified there, then drawn."""
    from solver.drawing.render import render_solution
    from solver.puzzle.verify import verify

    w, h = (int(x) for x in row["board"].split("x"))
    tall = one_colour(w, h)
    wide = one_colour(h, w)
    moved = []
    for c, text in row["packing"]:
        squares = tall.table.squares[tall.table.parse(text)]
        moved.append((c, wide.table.find((s % w) * h + s // w for s in squares)))
    order = verify(wide, moved).order
    render_solution(wide, order, path, numbers=True, size_px=1400, title=f"one colour's 21 pieces on {h} x {w}",
                    note="the smallest rectangle packed under the game rule, numbered in play order")


if __name__ == "__main__":
    main()
