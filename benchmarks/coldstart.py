"""Each command's first run after an install (no kernel cache) and its
warm start-up, for two versions of the code side by side.

    python benchmarks/coldstart.py [--before REV] [--after REV] [--rounds 2] [--only LABEL ...]

Every round unpacks each version (``git archive``: the package and its
puzzles, no cache) into a new folder, runs each command there once cold
and once more warm, each in a fresh process, and times the whole process
(wall seconds); the warm run waits for a compile the cold one left going
in the background. The versions alternate in order from round to round. A
command a version does not have is left out for it. Figures go to
benchmarks/RESULTS.md by hand, with the date and the command.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COMMANDS = [
    ("show", ["show", "puzzles/games/sample-2p.blksgf"]),
    ("analyze move 56", ["analyze", "puzzles/games/sample-2p.blksgf", "--move", "56", "--time-limit", "10"]),
    ("annotate Duo from 24", ["annotate", "puzzles/games/sample-duo.blksgf", "--from", "24", "--time-limit", "20",
                              "--json"]),
    ("solve tetromino-8x10 (fill kernel)", ["solve", "puzzles/tetromino-8x10.toml", "--engine", "search", "--mode",
                                            "exhaustive", "--time-limit", "20"]),
    ("warm-up", ["warm-up"]),
]


def unpack(rev: str, into: Path) -> None:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "solver", "puzzles"],
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def has_command(home: Path, name: str) -> bool:
    proc = subprocess.run([sys.executable, "-m", "solver", name, "--help"], cwd=home, capture_output=True)
    return proc.returncode == 0


def timed(home: Path, args: list[str]) -> tuple[float, int]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "solver", *args], cwd=home, capture_output=True, env=env)
    return time.perf_counter() - start, proc.returncode


def background_done(home: Path, timeout: float = 600) -> None:
    """Wait for a game-tree compile the last command left running for
    ``home`` (a first ``analyze`` answers before its compile ends)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = subprocess.run(["pgrep", "-f", f"compile_game_tree.* {home}$"], capture_output=True)
        if not found.stdout.strip():
            return
        time.sleep(0.5)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True, help="the version to compare against (a commit)")
    ap.add_argument("--after", default="HEAD")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--only", nargs="*", help="command labels (or their first word) to run")
    args = ap.parse_args()
    commands = [(label, cmd) for label, cmd in COMMANDS
                if not args.only or label in args.only or label.split()[0] in args.only]
    versions = [("before", args.before), ("after", args.after)]
    figures: dict[tuple[str, str], dict[str, list[float]]] = {}
    for round_ in range(args.rounds):
        for name, rev in versions if round_ % 2 == 0 else versions[::-1]:
            with tempfile.TemporaryDirectory(prefix=f"cold-{name}-") as folder:
                home = Path(folder)
                unpack(rev, home)
                for label, cmd in commands:
                    if not has_command(home, cmd[0]):
                        continue
                    cold, rc_cold = timed(home, cmd)  # the first run compiles what it needs
                    background_done(home)
                    warm, rc_warm = timed(home, cmd)
                    entry = figures.setdefault((label, name), {"cold": [], "warm": []})
                    entry["cold"].append(cold)
                    entry["warm"].append(warm)
                    print(f"round {round_ + 1} {name:<6} {label:<36} cold {cold:7.1f} s (exit {rc_cold})  "
                          f"warm {warm:6.2f} s (exit {rc_warm})", flush=True)
                    for stale in home.rglob("*.nb[ic]"):  # the kernel cache emptied: the next cold run compiles
                        stale.unlink()
    print(f"\n{'command':<36} {'version':<7} {'cold median':>12} {'warm median':>12}  runs")
    for (label, name), entry in figures.items():
        print(f"{label:<36} {name:<7} {statistics.median(entry['cold']):>10.1f} s "
              f"{statistics.median(entry['warm']):>10.2f} s  {len(entry['cold'])}")


if __name__ == "__main__":
    main()
