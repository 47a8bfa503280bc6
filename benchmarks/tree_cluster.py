"""The two-player value's tree split over a Dask LocalCluster
(solver.endgame.treecluster) against one process, side by side, and the
schedule simulated on more workers.

    python benchmarks/tree_cluster.py [--games 10] [--backs 10,12] [--policy person] [--plies 2[,3]]

Positions: ``--backs`` placements before the end of ``--games`` Blokus Duo
games of ``--policy`` (benchmarks/endgame.py) whose value one process
proves in under ``--limit`` seconds (the others are skipped: a position
nobody proves measures nothing) and over ``--least`` seconds (an easy one
measures the cluster's overhead only).

Per position: one process on one thread (the compiled engine, no split;
first, to skip the positions above), then a one-worker cluster (the
split's tasks one after the other: the sequential schedule) and a
two-worker cluster for each ``--plies`` given (several: side by side, a
row each), every other position in the opposite order and one process
again after them. Then
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
    ap.add_argument("--plies", type=lambda t: [int(x) for x in t.split(",")], default=[2],
                    help="plies of the principal variation split; several (2,3): side by side (default 2)")
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
        on_cluster(client, warm, 60, args.plies[0])
    arms = [(n, k) for k in args.plies for n in (1, 2)]
    print(f"two-player values of Blokus Duo positions ({args.policy} games): one process against a Dask "
          f"LocalCluster (plies of the principal variation split: {', '.join(map(str, args.plies))}), "
          f"wall seconds, alternating order")
    print(f"{'position':>8} {'plies':>5} {'value':>5} {'1 proc':>7} {'1 worker':>8} {'2 workers':>9} {'speed-up':>8} "
          f"{'tasks':>5} {'work 2w/1w':>10} {'nodes 2w/1w':>11} | simulated on " +
          " ".join(f"{p:>6}" for p in PROJECTED))
    rows: dict[int, list] = {k: [] for k in args.plies}
    n_positions = 0
    for back in args.backs:
        for g in range(args.games):
            pos = before_end(play(args.seed + g, DUO), back)
            if pos.game_over:
                continue
            out, t_proc = one_process(pos, args.limit)  # first: is the position worth the clusters' time?
            if out is None or t_proc < args.least:
                why = "not proven" if out is None else f"{t_proc:.2f} s"
                print(f"{back:>4}/{g:<3} skipped ({why} in one process)", flush=True)
                continue
            flip = n_positions % 2 == 1  # then the arms in turn, every other position backwards, and there
            n_positions += 1  # one process again after them (its time the one compared)
            runs = {arm: on_cluster(clusters[arm[0]][1], pos, args.limit, arm[1])
                    for arm in (arms[::-1] if flip else arms)}
            if flip:
                out, t_proc = one_process(pos, args.limit)
                if out is None:
                    print(f"{back:>4}/{g:<3} one process not proven the second time", flush=True)
                    continue
            for k in args.plies:
                (s1, t1), (s2, t2) = runs[(1, k)], runs[(2, k)]
                if s1 is None or s2 is None:
                    said = [f"{n} worker{'s' * (n > 1)} " + (f"not proven in {t:.2f} s" if sp is None else
                                                             f"{sp.outcome.value} in {t:.2f} s")
                            for n, (sp, t) in ((1, (s1, t1)), (2, (s2, t2)))]
                    print(f"{back:>4}/{g:<3} {k:>5} {out.value:>5} {t_proc:>7.2f} {'; '.join(said)}", flush=True)
                    continue
                assert s1.outcome.value == s2.outcome.value == out.value, (back, g, k)
                work1 = sum(r.seconds for r in s1.tasks)
                work2 = sum(r.seconds for r in s2.tasks)
                sim = [work1 / schedule(s1.tasks, p) for p in PROJECTED]
                rows[k].append((t_proc, t1, t2, work2 / work1, sim))
                print(f"{back:>4}/{g:<3} {k:>5} {out.value:>5} {t_proc:>7.2f} {t1:>8.2f} {t2:>9.2f} "
                      f"{t_proc / t2:>7.2f}x {len(s1.tasks):>5} {work2 / work1:>10.2f} "
                      f"{s2.outcome.nodes / s1.outcome.nodes:>11.2f} |              " +
                      " ".join(f"{x:>5.1f}x" for x in sim), flush=True)
    for k, done in rows.items():
        if not done:
            continue
        proc, w1, w2 = (sum(r[i] for r in done) for i in range(3))
        print(f"plies {k}: {len(done)} positions, one process {proc:.2f} s, one worker {w1:.2f} s, two workers "
              f"{w2:.2f} s ({proc / w2:.2f}x one process); task seconds two workers / one "
              f"{sum(r[3] for r in done) / len(done):.2f} (mean)")
        for i, p in enumerate(PROJECTED):
            xs = sorted(r[4][i] for r in done)
            print(f"plies {k}: simulated on {p:>3} workers: median {xs[len(xs) // 2]:.1f}x, {xs[0]:.1f}x to "
                  f"{xs[-1]:.1f}x (the one-worker run's task seconds over the schedule's makespan)")
    for c, client in clusters.values():
        client.close()
        c.close()


if __name__ == "__main__":
    main()
