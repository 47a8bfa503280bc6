"""The two-player value's tree split over a Dask LocalCluster
(solver.endgame.treecluster) against one process, side by side, and the
schedule simulated on more workers.

    python benchmarks/tree_cluster.py [--games 10] [--backs 10,12] [--policy person] [--plies 2] [--rounds 1]

Positions: ``--backs`` placements before the end of ``--games`` Blokus Duo
games of ``--policy`` (benchmarks/endgame.py) whose value one process
proves in under ``--limit`` seconds (the others are skipped: a position
nobody proves measures nothing) and over ``--least`` seconds (an easy one
measures the cluster's overhead only).

Per position, in alternating order: one process on one thread (the
compiled engine, no split), a one-worker cluster (the split's tasks one
after the other: the sequential schedule) and a two-worker cluster. Then
the one-worker run's tasks, with their measured seconds, are scheduled on
P workers: the first move's value alone, then its siblings' tests in
order, each on the first worker free (with ``--plies 2`` the first move's
own position is split the same way first). That schedule leaves out what
more workers change: tests against a best found later (started earlier,
so against a weaker bound: more work), re-searches, Dask's overhead; the
two-worker row measures those against the simulated two-worker figure.
"""

from __future__ import annotations

import argparse
import heapq
import logging
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from endgame import POLICIES, before_end  # noqa: E402

from solver.core.variants import DUO  # noqa: E402
from solver.endgame import treecluster as tc  # noqa: E402
from solver.endgame import treeengine as te  # noqa: E402

TABLE_BITS = 22
PROJECTED = (2, 8, 32, 128)


def schedule(records: list[tc.TaskRecord], workers: int) -> float:
    """Makespan of the records' tasks on ``workers`` workers: each split
    node's first-move value alone, then its other tasks in rank order on
    the first worker free; nodes deeper first (the principal variation's
    bottom node before its parent, whose tests need its value)."""
    nodes: dict[tuple, list[tc.TaskRecord]] = {}
    for r in records:
        nodes.setdefault(r.path[:-1], []).append(r)
    total = 0.0
    for parent in sorted(nodes, key=len, reverse=True):
        tasks = nodes[parent]
        first = [r for r in tasks if not r.test]
        total += sum(r.seconds for r in first)
        free = [0.0] * workers
        for r in (r for r in tasks if r.test):
            t = heapq.heappop(free)
            heapq.heappush(free, t + r.seconds)
        total += max(free)
    return total


def one_process(pos, limit: float):
    t0 = time.perf_counter()
    try:
        out = te.solve_two_player(pos.copy(), time.monotonic() + limit, table_bits=TABLE_BITS)
    except te.OutOfTime:
        return None, time.perf_counter() - t0
    return out, time.perf_counter() - t0


def on_cluster(client, pos, limit: float, plies: int):
    t0 = time.perf_counter()
    try:
        split = tc.solve_two_player(pos.copy(), client, time.monotonic() + limit, plies=plies, table_bits=TABLE_BITS)
    except te.OutOfTime:
        return None, time.perf_counter() - t0
    return split, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backs", type=lambda t: [int(x) for x in t.split(",")], default=[10, 12])
    ap.add_argument("--policy", choices=sorted(POLICIES), default="person")
    ap.add_argument("--plies", type=int, default=2, help="plies of the principal variation split (default 2)")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per search")
    ap.add_argument("--least", type=float, default=0.5, help="skip positions one process proves faster")
    args = ap.parse_args()
    from distributed import Client, LocalCluster

    def cluster(n):
        c = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                         dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL)
        return c, Client(c)

    clusters = {n: cluster(n) for n in (1, 2)}
    play = POLICIES[args.policy]
    warm = before_end(play(args.seed, DUO), 4)
    one_process(warm, 60)
    for n, (_, client) in clusters.items():
        on_cluster(client, warm, 60, args.plies)
    print(f"two-player values of Blokus Duo positions ({args.policy} games): one process against a Dask "
          f"LocalCluster (--plies {args.plies}), wall seconds, alternating order")
    print(f"{'position':>8} {'value':>5} {'1 proc':>7} {'1 worker':>8} {'2 workers':>9} {'speed-up':>8} "
          f"{'tasks':>5} {'work 2w/1w':>10} {'nodes 2w/1w':>11} | simulated on " +
          " ".join(f"{p:>6}" for p in PROJECTED))
    rows = []
    for back in args.backs:
        for g in range(args.games):
            pos = before_end(play(args.seed + g, DUO), back)
            if pos.game_over:
                continue
            runs = {}
            order = ("proc", 1, 2) if len(rows) % 2 == 0 else (2, 1, "proc")
            for arm in order:
                if arm == "proc":
                    runs[arm] = one_process(pos, args.limit)
                else:
                    runs[arm] = on_cluster(clusters[arm][1], pos, args.limit, args.plies)
            (out, t_proc), (s1, t1), (s2, t2) = runs["proc"], runs[1], runs[2]
            if out is None or t_proc < args.least:
                why = "not proven" if out is None else f"{t_proc:.2f} s"
                print(f"{back:>4}/{g:<3} skipped ({why} in one process)", flush=True)
                continue
            if s1 is None or s2 is None:
                print(f"{back:>4}/{g:<3} {out.value:>5} {t_proc:>7.2f} cluster not proven in {args.limit:.0f} s",
                      flush=True)
                continue
            assert s1.outcome.value == s2.outcome.value == out.value, (back, g)
            work1 = sum(r.seconds for r in s1.tasks)
            work2 = sum(r.seconds for r in s2.tasks)
            sim = [work1 / schedule(s1.tasks, p) for p in PROJECTED]
            rows.append((t_proc, t1, t2, work2 / work1, sim))
            print(f"{back:>4}/{g:<3} {out.value:>5} {t_proc:>7.2f} {t1:>8.2f} {t2:>9.2f} {t_proc / t2:>7.2f}x "
                  f"{len(s1.tasks):>5} {work2 / work1:>10.2f} {s2.outcome.nodes / s1.outcome.nodes:>11.2f} |"
                  f"              " + " ".join(f"{x:>5.1f}x" for x in sim), flush=True)
    if rows:
        proc, w1, w2 = (sum(r[i] for r in rows) for i in range(3))
        print(f"{'all':>8} {'':>5} {proc:>7.2f} {w1:>8.2f} {w2:>9.2f} {proc / w2:>7.2f}x {'':>5} "
              f"{sum(r[3] for r in rows) / len(rows):>10.2f} (mean)")
        for k, p in enumerate(PROJECTED):
            xs = sorted(r[4][k] for r in rows)
            print(f"simulated on {p:>3} workers: median {xs[len(xs) // 2]:.1f}x, {xs[0]:.1f}x to {xs[-1]:.1f}x "
                  f"(the one-worker run's task seconds over the schedule's makespan)")
    for c, client in clusters.values():
        client.close()
        c.close()


if __name__ == "__main__":
    main()
