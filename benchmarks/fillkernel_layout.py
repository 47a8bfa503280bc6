"""The fill kernel side by side with an earlier version of itself.

Loads ``solver/packing/fillkernel.py`` as it was at a git revision (default
HEAD) into a temporary module and times it against the working tree's
kernel on the same fill puzzles, alternating old and new in each round (the
machine may be shared and noisy: only figures from the same run compare).
Each round checks that both kernels searched the same number of nodes and
found the same solutions. Then it measures the start-up cost: import, set-up
and the first ``run`` in a fresh process, with numba's cache cold (a new
NUMBA_CACHE_DIR: compilation) and warm (the same directory again: cache load).
All times are CPU times of the process, which a busy machine disturbs less
than wall-clock times (it still does: look at the spread of the rounds).

    python benchmarks/fillkernel_layout.py                 # HEAD against the working tree
    python benchmarks/fillkernel_layout.py --old 54a54ad --rounds 9 --scale 0.5 --startup 3
    python benchmarks/fillkernel_layout.py --old-file /tmp/kernel.py --only "count (touch)" --startup 0
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.core.geometry import Board  # noqa: E402
from solver.formats.puzzle_file import load_puzzle  # noqa: E402
from solver.puzzle.definition import Puzzle  # noqa: E402

KERNEL = "solver/packing/fillkernel.py"
NEW = "solver.packing.fillkernel"


MOVED = {"geometry": "solver.core.geometry", "pieces": "solver.core.pieces", "placements": "solver.core.placements",
         "puzzle": "solver.puzzle.definition", "symmetry": "solver.puzzle.symmetry", "bitops": "solver.kernels.bitops",
         "jit": "solver.kernels.jit"}


def load_old(rev: str, where: Path, path: str | None = None) -> str:
    """Write the kernel of revision ``rev`` (or the file ``path``) into
    ``where`` as a top-level module (relative imports made absolute) and
    return its module name."""
    if path:
        text = Path(path).read_text()
    else:
        text = subprocess.run(["git", "show", f"{rev}:{KERNEL}"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout
    # a kernel of the flat layout (relative imports from solver/search/): its modules where they are now
    for old, new in MOVED.items():
        text = re.sub(rf"from \.{{1,2}}{old} import", f"from {new} import", text)
    text = text.replace("interchangeable_colours", "interchangeable_colors")  # a name of older revisions
    name = "fillkernel_old_" + re.sub(r"\W", "_", "file" if path else rev)
    (where / f"{name}.py").write_text(text)
    return name


def puzzles() -> list[tuple[str, Puzzle, int, int]]:
    """(label, puzzle, node budget per run, runs per round): the 8x10
    tetromino count and the same under the game rule (node budgets), the
    distinct-shapes variant (complete: 46k nodes) and three colours of
    tetrominoes on 6x10 (complete searches, impossible by a parity argument
    the search does not know)."""
    tetro = load_puzzle(ROOT / "puzzles" / "tetromino-8x10.toml").with_goal("count")
    distinct = load_puzzle(ROOT / "puzzles" / "tetromino-8x10-distinct.toml")
    three = {c: tetro.pieces[0] for c in range(3)}

    def six_by_ten(width: int, height: int, connect: str, same_shape: str) -> Puzzle:
        return replace(tetro, board=Board(width, height), colors=(0, 1, 2), pieces=three,
                       connect=connect, same_shape=same_shape, name=f"3x5 tetrominoes {width}x{height}")

    return [
        ("tetromino-8x10 count (touch)", tetro, 2_000_000, 1),
        ("tetromino-8x10-distinct (all)", distinct, 1 << 40, 10),
        ("tetromino-8x10, connect game", replace(tetro, connect="game"), 1_000_000, 1),
        ("10x6, 3 colours, free, same-shape edge (all)", six_by_ten(10, 6, "free", "edge"), 1 << 40, 1),
        ("6x10, 3 colours, touch (all)", six_by_ten(6, 10, "touch", "none"), 1 << 40, 10),
    ]


def timed(module, puzzle: Puzzle, budget: int, runs: int) -> tuple[float, int, int, list]:
    """CPU seconds spent in ``run`` (set-up excluded; CPU time, not wall
    time, so that other processes on a shared machine count less), nodes,
    count, solutions."""
    seconds = nodes = count = 0
    sols: list = []
    for _ in range(runs):
        k = module.FillKernel(puzzle)
        t = time.process_time()
        k.run(budget)
        seconds += time.process_time() - t
        nodes += k.nodes
        count += k.count
        sols = k.solutions
    return seconds, nodes, count, sols


def side_by_side(old, new, rounds: int, scale: float, only: str | None = None) -> None:
    cases = [case for case in puzzles() if only is None or only in case[0]]
    for module in (old, new):  # compile or load from the cache, outside the timing
        module.FillKernel(cases[0][1]).run(1000)
    print(f"{'puzzle':48} {'nodes':>10} {'old Mn/s':>9} {'new Mn/s':>9} {'new/old':>8}   per round new/old")
    all_ratios = []
    for label, puzzle, budget, runs in cases:
        budget = max(1, int(budget * scale)) if budget < 1 << 40 else budget
        rates: dict[str, list[float]] = {"old": [], "new": []}
        ratios = []
        for r in range(rounds):
            order = [("old", old), ("new", new)] if r % 2 == 0 else [("new", new), ("old", old)]
            got = {}
            for tag, module in order:
                got[tag] = timed(module, puzzle, budget, runs)
            (so, no, co, lo), (sn, nn, cn, ln) = got["old"], got["new"]
            if (no, co, lo) != (nn, cn, ln):
                raise SystemExit(f"{label}: the kernels differ: old {no} nodes {co} solutions, "
                                 f"new {nn} nodes {cn}")
            rates["old"].append(no / so)
            rates["new"].append(nn / sn)
            ratios.append(so / sn)
        all_ratios.extend(ratios)
        print(f"{label:48} {no:>10} {statistics.median(rates['old']) / 1e6:>9.3f} "
              f"{statistics.median(rates['new']) / 1e6:>9.3f} {statistics.median(ratios):>8.3f}   "
              + " ".join(f"{x:.3f}" for x in ratios))
    print(f"median new/old speed over all rounds: {statistics.median(all_ratios):.3f} "
          f"(min {min(all_ratios):.3f}, max {max(all_ratios):.3f}); same nodes and solutions in every round")


CHILD = """
import sys, time
t0 = time.process_time()
sys.path[:0] = {paths!r}
import importlib
from solver.formats.puzzle_file import load_puzzle
m = importlib.import_module({module!r})
t1 = time.process_time()
k = m.FillKernel(load_puzzle({puzzle!r}))
t2 = time.process_time()
k.run(1)
t3 = time.process_time()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def startup(old_name: str, old_dir: Path, repeats: int) -> None:
    """Import, set-up and first run in fresh processes, cache cold and warm."""
    puzzle = str(ROOT / "puzzles" / "tetromino-8x10.toml")
    figures: dict[tuple[str, str], list[list[float]]] = {}
    for r in range(repeats):
        pair = [("old", old_name), ("new", NEW)]
        for tag, module in pair if r % 2 == 0 else pair[::-1]:
            with tempfile.TemporaryDirectory() as cache:
                env = dict(os.environ, NUMBA_CACHE_DIR=cache)
                code = CHILD.format(paths=[str(old_dir), str(ROOT)], module=module, puzzle=puzzle)
                for state in ("cold", "warm"):
                    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                         capture_output=True, text=True).stdout
                    figures.setdefault((tag, state), []).append([float(x) for x in out.split()])
    print(f"\nstart-up in a fresh process (median of {repeats}): import / set-up / first run(1), CPU seconds")
    for state in ("cold", "warm"):
        for tag in ("old", "new"):
            med = [statistics.median(col) for col in zip(*figures[(tag, state)])]
            print(f"  {state} cache, {tag}: {med[0]:.2f} / {med[1]:.3f} / {med[2]:.2f}"
                  f"   total {sum(med):.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", default="HEAD", help="git revision of the old kernel (default HEAD)")
    ap.add_argument("--old-file", help="take the old kernel from this file instead")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--scale", type=float, default=1.0, help="scale the node budgets")
    ap.add_argument("--only", help="time only the puzzles whose label contains this")
    ap.add_argument("--startup", type=int, default=2,
                    help="fresh processes per kernel and cache state (0: skip)")
    args = ap.parse_args()
    where = Path(tempfile.gettempdir()) / "fillkernel_layout"
    where.mkdir(exist_ok=True)
    old_name = load_old(args.old, where, args.old_file)
    sys.path.insert(0, str(where))
    old = importlib.import_module(old_name)
    new = importlib.import_module(NEW)
    print(f"old: {args.old_file or args.old + ':' + KERNEL}   new: the working tree"
          f"   ({args.rounds} rounds, alternating)\n")
    side_by_side(old, new, args.rounds, args.scale, args.only)
    if args.startup:
        startup(old_name, where, args.startup)


if __name__ == "__main__":
    main()
