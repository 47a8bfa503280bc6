"""Make the generated challenges of puzzles/generated/ and their booklet:
``python docs/make_generated.py [--workers 2]``.

48 challenges on 8x8 boards, 16 of each card kind (stars, avoid-x,
connect): per kind 5 easy, 6 medium and 5 hard, each band with a seed of
its own (1, 2, 3). Each is written as ``blokus generate`` writes it (the
puzzle file, card and answer as PNG and SVG, the answer as a solution
file), then ``docs/generated-cards.pdf`` holds all 48 cards and then all
48 answers. It is the same as, per kind and band,
``blokus generate KIND --difficulty BAND --count N --seed S --out-dir puzzles/generated --workers 2``,
with one cluster and one booklet for all. Prints the time and rate per kind.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the working tree's solver, not an installed copy

from solver.drawing.card import write_booklet  # noqa: E402
from solver.generate.batch import GenerateOptions, generate, write_files  # noqa: E402

PLAN = [("easy", 5, 1), ("medium", 6, 2), ("hard", 5, 3)]
KINDS = ("stars", "avoid-x", "connect")
OUT = ROOT / "puzzles" / "generated"
BOOKLET = ROOT / "docs" / "generated-cards.pdf"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    from distributed import Client, LocalCluster

    made = []
    t0 = time.perf_counter()
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster, set_as_default=False)
    print(f"a LocalCluster of {args.workers} workers started in {time.perf_counter() - t0:.1f} s")
    for kind in KINDS:
        k0, n = time.perf_counter(), 0
        for band, count, seed in PLAN:
            options = GenerateOptions(kind, difficulty=band, seed=seed)
            got = {}
            for index, g, error in generate(options, count, scheduler=cluster.scheduler_address):
                if g is None:
                    raise SystemExit(f"{options.name(index)}: {error}")
                got[index] = g
            for index in sorted(got):
                write_files(got[index], OUT)
                made.append(got[index])
            n += count
        seconds = time.perf_counter() - k0
        print(f"{kind:<8} {n} challenges in {seconds:.1f} s ({60 * n / seconds:.1f} per minute on {args.workers} workers)")
    client.close()
    cluster.close()
    write_booklet(BOOKLET, [(g.puzzle, g.solution) for g in made])
    print(f"{len(made)} challenges in {time.perf_counter() - t0:.1f} s; booklet {BOOKLET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
