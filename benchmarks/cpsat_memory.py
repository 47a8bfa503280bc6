"""Peak memory of CP-SAT place-all solves against the estimate that
solver/cpsat/memory.py makes before building a model.

Each run is a fresh process (so one run's memory does not hide in the
next), sampled every 0.1 s for its resident and virtual size; the
virtual size is what an address-space limit (``ulimit -v``) counts.

    python benchmarks/cpsat_memory.py [--seconds 30] [--workers 1,2]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RUN = """
import sys, threading, psutil
from solver.formats.puzzle_file import load_puzzle
from solver.cpsat.driver import solve
from solver.cpsat.memory import estimate
puzzle = load_puzzle(sys.argv[1]); workers = int(sys.argv[2]); seconds = float(sys.argv[3])
me, peak, done = psutil.Process(), [0, 0], threading.Event()
def watch():
    while not done.wait(0.1):
        info = me.memory_info(); peak[0] = max(peak[0], info.rss); peak[1] = max(peak[1], info.vms)
threading.Thread(target=watch, daemon=True).start()
result = solve(puzzle, seconds, workers=workers)
done.set()
print(result.status.value, result.stats["placements"], peak[0] >> 20, peak[1] >> 20, estimate(puzzle, workers) >> 20)
"""


def puzzles(folder: Path) -> list[Path]:
    """solo-21, solo-84, and all 84 pieces on 26x26 and 32x32 boards."""
    base = (ROOT / "puzzles" / "solo-84.toml").read_text()
    out = [ROOT / "puzzles" / "solo-21.toml", ROOT / "puzzles" / "solo-84.toml"]
    for side in (26, 32):
        path = folder / f"solo-84-{side}x{side}.toml"
        path.write_text(base.replace('size = "20x20"', f'size = "{side}x{side}"')
                        .replace('name = "solo-84"', f'name = "solo-84-{side}x{side}"'))
        out.append(path)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--workers", default="1,2")
    args = ap.parse_args()
    print(f"{'puzzle':<20}{'workers':>8}{'status':>10}{'placements':>12}{'peak RSS MB':>13}{'peak VM MB':>12}"
          f"{'estimate MB':>13}")
    with tempfile.TemporaryDirectory() as tmp:
        for path in puzzles(Path(tmp)):
            for workers in map(int, args.workers.split(",")):
                out = subprocess.run([sys.executable, "-c", RUN, str(path), str(workers), str(args.seconds)],
                                     capture_output=True, text=True, cwd=ROOT, check=True).stdout.split()
                status, placements, rss, vms, est = out
                print(f"{path.stem:<20}{workers:>8}{status:>10}{int(placements):>12,}{rss:>13}{vms:>12}{est:>13}")


if __name__ == "__main__":
    main()
