"""The compiled waste-budget search (solver/packing/wastefast.py)
against the plain-Python one (solver/packing/waste.py), side by side on the
same puzzle, one after the other: nodes, nodes per second and the most
pieces placed at a live node, every few seconds until the limit or a
packing. ``--restarts N``: the compiled search again, restarted with seed
0, 1, 2, ... every N nodes (the seed shuffles equal-sized pieces and the
colour order). ``half-turn``: the compiled search over half-turn symmetric
packings only (each placement with its turned image in the opposite
colour). ``--small``: small two-colour boards run to the end.

    python benchmarks/waste_compiled.py --puzzle frontier-2c-13x14 --limit 300 --every 60 --restarts 2000000
    python benchmarks/waste_compiled.py --puzzle frontier-18x20 --engines half-turn --limit 560 --every 60
    python benchmarks/waste_compiled.py --small --limit 60
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SMALL = """
name = "two-{w}x{h}"
[board]
size = "{w}x{h}"
starts = {{blue = "a{h}", red = "{last}1"}}
[pieces]
blue = "{pieces}"
red = "{pieces}"
[rules]
connect = "game"
[goal]
type = "place-all"
"""
SMALL_CASES = [(6, 6, "1 2 I3 V3 L4 T4"), (7, 7, "2 I3 V3 L4 T4 Z4 O"), (8, 8, "2 I3 V3 L4 T4 Z4 O F")]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run(search, limit: float, every: float, total: int, label: str, restart=None) -> None:
    """Step ``search`` (or, with ``restart``, a new search from restart(i)
    every restart.nodes) until the limit, printing a line every ``every`` s."""
    t0 = time.monotonic()
    last, found, nodes_before, deepest, runs, tops = 0.0, None, 0, 0, 0, Counter()
    step = getattr(search, "step", None)
    gen = None if step else search.solutions()
    while True:
        if step:
            sol = step(restart.nodes if restart else 100_000)
        else:
            sol = next(gen, "end")
        deepest = max(deepest, search.deepest)
        if sol == "end" or getattr(search, "finished", False) and not restart:
            break
        if sol:
            found = sol
            break
        if restart:
            runs += 1
            tops[search.deepest] += 1
            nodes_before += search.nodes
            search = restart(runs)
            step = search.step
        now = time.monotonic() - t0
        if now - last >= every or now >= limit:
            last = now
            nodes = nodes_before + search.nodes
            extra = f"  restarts {runs}, deepest of each {sorted(tops.items())}" if restart else ""
            print(f"{label:10} {now:6.0f} s {nodes:>13,} nodes {nodes / now:>10,.0f}/s  deepest {deepest}/{total}{extra}",
                  flush=True)
            if now >= limit:
                break
    now = time.monotonic() - t0
    nodes = nodes_before + search.nodes
    status = f"FOUND at {now:.1f} s" if found else ("searched to the end" if found is None and getattr(search, "finished", False) else "nothing")
    print(f"{label:10} {status}, {nodes:,} nodes, deepest {deepest}/{total}", flush=True)
    return found


def frontier(args) -> None:
    from solver.formats.puzzle_file import load_puzzle
    from solver.packing.waste import WasteSearch
    from solver.packing.wastefast import CompiledWasteSearch
    from solver.puzzle.verify import verify

    puzzle = load_puzzle(ROOT / "puzzles" / f"{args.puzzle}.toml")
    total = sum(len(puzzle.pieces[c]) for c in puzzle.colors)
    print(f"{args.puzzle}: {total} pieces, {puzzle.spare_squares} spare squares, limit {args.limit:g} s a run, "
          f"load average {load()}", flush=True)
    CompiledWasteSearch(puzzle).step(1000)  # compile or load the kernel before the clock starts
    for engine in args.engines:
        if engine == "python":
            sol = run(WasteSearch(puzzle), args.limit, args.every, total, "python")
        elif engine == "compiled":
            sol = run(CompiledWasteSearch(puzzle), args.limit, args.every, total, "compiled")
        elif engine == "half-turn":
            sol = run(CompiledWasteSearch(puzzle, symmetric=True), args.limit, args.every, total, "half-turn")
        else:
            restart = lambda i: CompiledWasteSearch(puzzle, seed=i)  # noqa: E731
            restart.nodes = args.restarts
            sol = run(restart(0), args.limit, args.every, total, "restarts", restart)
        if sol:
            verify(puzzle, sol)
            print(f"  verified: {len(sol)} placements", flush=True)
    print(f"load average at the end {load()}")


def small(args) -> None:
    from solver.formats.puzzle_file import parse_puzzle
    from solver.packing.waste import WasteSearch
    from solver.packing.wastefast import CompiledWasteSearch
    from solver.puzzle.verify import verify

    print(f"small two-colour boards, 4 or fewer spare squares, limit {args.limit:g} s a run, load average {load()}")
    for w, h, pieces in SMALL_CASES:
        puzzle = parse_puzzle(SMALL.format(w=w, h=h, last="abcdefghijklmnopqrst"[w - 1], pieces=pieces))
        CompiledWasteSearch(puzzle).step(1000)
        for name, make in (("python", WasteSearch), ("compiled", CompiledWasteSearch)):
            search = make(puzzle)
            t0 = time.monotonic()
            n, first = 0, None
            for sol in search.solutions():
                if sol is not None:
                    verify(puzzle, sol)
                    n += 1
                    first = first or (time.monotonic() - t0, search.nodes)
                if time.monotonic() - t0 > args.limit:
                    break
            now = time.monotonic() - t0
            end = "all" if getattr(search, "finished", None) or now <= args.limit else "stopped:"
            at = f"first at {first[0]:.2f} s ({first[1]:,} nodes)" if first else "none found"
            print(f"{w}x{h} ({puzzle.spare_squares} spare) {name:9} {end} {n} packings, {search.nodes:,} nodes in "
                  f"{now:.1f} s ({search.nodes / max(now, 1e-9):,.0f}/s), {at}", flush=True)
    print(f"load average at the end {load()}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--puzzle", default="frontier-2c-13x14")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds a run")
    ap.add_argument("--every", type=float, default=30.0, help="seconds between reports")
    ap.add_argument("--engines", nargs="+", default=["python", "compiled", "restarts", "half-turn"],
                    choices=["python", "compiled", "restarts", "half-turn"])
    ap.add_argument("--restarts", type=int, default=2_000_000, help="nodes a restart")
    ap.add_argument("--small", action="store_true", help="the small boards, run to the end")
    args = ap.parse_args(argv)
    small(args) if args.small else frontier(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
