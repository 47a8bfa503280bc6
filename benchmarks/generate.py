"""Challenges per minute, by kind and board size, on one core and on a
two-worker Dask cluster side by side, and the share of candidates dropped.

    python benchmarks/generate.py [--count 12] [--rounds 2] [--sizes 7,8,10] [--kinds stars,avoid-x,connect,place-all]
                                  [--difficulty easy|medium|hard]

Each round makes ``--count`` challenges of every kind and size, seed = the
round, once in this process (one core) and once on a LocalCluster of two
worker processes (one thread each, started once before the rounds: its
start is printed apart), in alternating order, so both arms make the same
challenges from the same candidates. Figures: challenges per minute per
arm, the cluster's speed-up, candidates drawn per challenge, and the share
of candidates dropped with the commonest reasons.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.generate.batch import GenerateOptions, generate  # noqa: E402
from solver.generate.build import KINDS  # noqa: E402


def run(options: GenerateOptions, count: int, scheduler: str | None) -> tuple[float, list]:
    t0 = time.perf_counter()
    made = [g for _, g, error in generate(options, count, scheduler=scheduler) if g is not None]
    return time.perf_counter() - t0, made


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--sizes", default="7,8,10")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--difficulty", default=None, help="only challenges of this band (default: any)")
    args = ap.parse_args()
    from distributed import Client, LocalCluster

    logging.getLogger("distributed").setLevel(logging.ERROR)
    t0 = time.perf_counter()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster, set_as_default=False)
    print(f"two-worker LocalCluster started in {time.perf_counter() - t0:.1f} s")
    run(GenerateOptions("stars"), 2, cluster.scheduler_address)  # the workers import the engines once
    print(f"{'kind':<10} {'size':>4} {'made':>5} {'one core /min':>14} {'2 workers /min':>15} {'speed-up':>9} "
          f"{'cand./made':>10} {'dropped':>8}  commonest reasons")
    for kind in args.kinds.split(","):
        for size in (int(s) for s in args.sizes.split(",")):
            seconds = {"one": 0.0, "two": 0.0}
            made, dropped, candidates = 0, Counter(), 0
            for r in range(args.rounds):
                options = GenerateOptions(kind, size, difficulty=args.difficulty, seed=r)
                arms = [("one", None), ("two", cluster.scheduler_address)]
                for arm, address in (arms if r % 2 == 0 else arms[::-1]):
                    s, got = run(options, args.count, address)
                    seconds[arm] += s
                    if arm == "one":
                        made += len(got)
                        candidates += sum(g.candidates for g in got)
                        for g in got:
                            dropped.update(g.dropped)
            per_min = {arm: 60 * made / s for arm, s in seconds.items()}
            reasons = "; ".join(f"{n} {why}" for why, n in dropped.most_common(2))
            print(f"{kind:<10} {size:>4} {made:>5} {per_min['one']:>14.1f} {per_min['two']:>15.1f} "
                  f"{seconds['one'] / seconds['two']:>8.2f}x {candidates / max(made, 1):>10.2f} "
                  f"{sum(dropped.values()) / max(candidates, 1):>7.0%}  {reasons}", flush=True)
    client.close()
    cluster.close()


if __name__ == "__main__":
    main()
