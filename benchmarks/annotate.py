"""Batch annotation on Dask: the same batch of games annotated serially in
this process and on a LocalCluster of worker processes, with the ratio.

    python benchmarks/annotate.py [--workers 2] [--moves 8] [--seeds 0,2,3,...] [--time-limit 120] [--rounds 2]
    python benchmarks/annotate.py --reuse    # serial, with and without reusing work between positions

    python benchmarks/annotate.py --trees --moves 6   # serial: the Python game tree against the compiled one
    python benchmarks/annotate.py --pair     # the batch alone against two copies at once (no Dask)
    python benchmarks/annotate.py --threads-check --moves 10   # one game at a time: one thread against two

The games are seeded random Blokus Duo games written as set-up pieces plus
their last ``--moves`` moves, so each record is a fixed amount of work:
every move is annotated (``--from 1``), the same in both runs (checked:
the outputs must be identical but for the timings), and the script says
how many values were proven. The default seeds are the 40 of 0-63 whose
last eight moves were all proven within 15 s on the compiled game tree
(at load 4-5; the others ran into the limit); their serial times range
from 0.04 to 12 s there. The parallel time includes starting and stopping
the cluster (about 2 s) and the workers' first imports and kernel loads.
Aim: at least 1.7x with 2 workers on 2 cores.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the working tree's solver

from solver.core.position import Move, Position  # noqa: E402
from solver.core.variants import DUO  # noqa: E402
from solver.endgame.batch import AnnotateOptions, annotate_batch  # noqa: E402
from solver.formats.sgf import write_record  # noqa: E402

SEEDS = (0, 1, 2, 5, 6, 9, 10, 12, 15, 16, 17, 18, 19, 20, 21, 23, 26, 27, 28, 29, 31, 35, 36, 38, 39, 40, 41, 42,
         45, 47, 48, 50, 51, 53, 54, 55, 56, 57, 59, 62)


def endgame_record(seed: int, moves: int) -> str:
    """A seeded random Duo game: set-up pieces, then its last ``moves`` moves."""
    rng = random.Random(seed)
    pos = Position(DUO)
    while not pos.game_over:
        pos.push(Move(pos.to_move, rng.choice(pos.legal_placements())))
    line = pos.history
    split = len(line) - moves
    before = Position(DUO)
    for m in line[:split]:
        before.push(m)
    start = Position(DUO)
    start.setup({c: [p for col, p in line[:split] if col == c] for c in (0, 1)}, before.to_move)
    for m in line[split:]:
        start.push(m)
    return write_record(start)


def results(folder: Path) -> dict:
    """Each game's JSON without its timing and node count, to compare the
    two runs: the score outlook's solo searches stop after a second, so on
    a loaded machine a colour may be settled a little later (more positions
    searched, the same values)."""
    out = {}
    for path in sorted(folder.glob("*.json")):
        obj = json.loads(path.read_text())
        obj.pop("seconds")
        obj.pop("nodes")
        out[path.name] = obj
    return out


def unproven(folder: Path) -> list[str]:
    """The moves whose value was not proven, as game:move."""
    return [f"{path.stem}:{m['move']}" for path in sorted(folder.glob("*.json"))
            for m in json.loads(path.read_text())["moves"] if not m["proven"]]


CHOICES = ("best_move", "best_piece", "best_line")  # which of several equally good moves is named


def value_differences(differ: list[str]) -> list[str]:
    """The differences in anything but the choice among equal best moves:
    that choice follows the transposition table's contents, which depend
    on when the time-limited solo searches settled a colour."""
    return [d for d in differ if d.rsplit(" ", 1)[-1] not in CHOICES]


def differences(a: dict, b: dict) -> list[str]:
    """Where two runs' results differ: game and field (per move for moves)."""
    out = []
    for game in sorted(set(a) | set(b)):
        x, y = a.get(game, {}), b.get(game, {})
        for key in sorted(set(x) | set(y)):
            if key == "moves":
                for m, n in zip(x.get(key, []), y.get(key, [])):
                    out += [f"{game} move {m['move']} {f}" for f in m if m[f] != n.get(f)]
            elif x.get(key) != y.get(key):
                out.append(f"{game} {key}: {x.get(key)} / {y.get(key)}")
    return out


CPU: dict[str, float] = {}  # CPU seconds of each run: this process and its finished child processes


def _cpu() -> float:
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def run(games: Path, out: Path, options: AnnotateOptions, workers: int) -> tuple[float, dict[str, float], int]:
    """Annotate the folder; wall seconds, each game's own seconds, and the
    positions searched in all."""
    start, cpu = time.perf_counter(), _cpu()
    report = annotate_batch([str(games)], str(out), options, workers=workers)
    wall = time.perf_counter() - start
    CPU[out.name] = _cpu() - cpu
    if report.failed:
        raise SystemExit(f"failed: {report.failed}")
    objs = {Path(p).stem: json.loads(p.read_text()) for p in out.glob("*.json")}
    return wall, {k: o["seconds"] for k, o in objs.items()}, sum(o["nodes"] for o in objs.values())


@contextlib.contextmanager
def without_reuse():
    """For the comparison only: every search on a fresh transposition table
    and no bound from the position after the move (internals patched; the
    score outlook's memo of solo searches is still shared)."""
    from solver.endgame.annotation import Bounds
    from solver.endgame.walktrees import CompiledTree, PythonTree

    python_search, compiled_search, meet = PythonTree.search, CompiledTree.search, Bounds.meet

    def python_fresh(self, *args):
        self.table.clear()
        self.history.clear()
        return python_search(self, *args)

    def compiled_fresh(self, *args):
        self.fresh = True
        return compiled_search(self, *args)

    PythonTree.search, CompiledTree.search = python_fresh, compiled_fresh
    Bounds.meet = lambda self, other: self
    try:
        yield
    finally:
        PythonTree.search, CompiledTree.search, Bounds.meet = python_search, compiled_search, meet


def reuse_check(games: Path, out: Path, options: AnnotateOptions) -> None:
    """Serial seconds with and without reusing work between positions."""
    with without_reuse():  # first, so that it pays the imports and the kernel load, if anything
        _, per_game, fresh_nodes = run(games, out / "fresh", options, 0)
    without = sum(per_game.values())
    _, per_game, nodes = run(games, out / "reuse", options, 0)
    with_reuse = sum(per_game.values())
    differ = differences(results(out / "reuse"), results(out / "fresh"))
    print("the games' own seconds, summed (loading the game tree not included):")
    print(f"serial, work reused between positions: {with_reuse:7.1f} s  {nodes:>9,} positions")
    print(f"serial, every position from scratch:   {without:7.1f} s  {fresh_nodes:>9,} positions "
          f"({without / with_reuse:.2f}x the time)")
    print(f"differences: {'; '.join(differ) or 'none'}")


def _values(ann) -> list:
    """Every move's value before and after it and the bounds of its loss."""
    return [(n.before, n.after, n.loss_bounds) for n in ann.moves]


def tree_check(games: Path, options: AnnotateOptions) -> None:
    """Serial, game by game: the Python tree against the compiled one
    (alternating which goes first), seconds and positions, and whether
    every value and loss agrees."""
    from solver.endgame.annotate import annotate
    from solver.formats.sgf import load_record

    print("game  python s  positions | compiled s  positions | time ratio | agree")
    total = {"python": 0.0, "compiled": 0.0}
    for k, path in enumerate(sorted(games.glob("*.blksgf"))):
        record = load_record(str(path))
        anns = {}
        for tree in (("python", "compiled") if k % 2 == 0 else ("compiled", "python")):
            anns[tree] = annotate(record, options.time_limit, options.from_move, tree=tree, threads=options.threads)
            total[tree] += anns[tree].seconds
        py, co = anns["python"], anns["compiled"]
        same = _values(py) == _values(co)
        print(f"{path.stem.split('-')[1]:>4} {py.seconds:9.2f} {py.nodes:10,} | {co.seconds:10.2f} {co.nodes:10,} | "
              f"{py.seconds / max(co.seconds, 1e-3):9.1f}x | {'yes' if same else 'NO'}")
    print(f"all  {total['python']:9.1f}            | {total['compiled']:10.1f}            | "
          f"{total['python'] / max(total['compiled'], 1e-3):9.1f}x")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def threads_check(games: Path, options: AnnotateOptions) -> None:
    """Serial, game by game: each game's tree on one thread against two
    (a value's root moves split between them, as ``blokus annotate`` does
    one game), alternating which goes first; wall seconds, positions, and
    whether every value and loss agrees."""
    from solver.endgame.annotate import annotate
    from solver.formats.sgf import load_record

    print("game  1 thread s  positions | 2 threads s  positions | ratio | agree")
    total = {1: 0.0, 2: 0.0}
    for k, path in enumerate(sorted(games.glob("*.blksgf"))):
        record = load_record(str(path))
        anns = {}
        for threads in ((1, 2) if k % 2 == 0 else (2, 1)):
            start = time.perf_counter()
            anns[threads] = annotate(record, options.time_limit, options.from_move, tree=options.tree, threads=threads)
            total[threads] += time.perf_counter() - start
        one, two = anns[1], anns[2]
        same = _values(one) == _values(two)
        print(f"{path.stem.split('-')[1]:>4} {one.seconds:11.2f} {one.nodes:10,} | {two.seconds:11.2f} "
              f"{two.nodes:10,} | {one.seconds / max(two.seconds, 1e-3):4.2f}x | {'yes' if same else 'NO'}", flush=True)
    print(f"all  {total[1]:11.1f}            | {total[2]:11.1f}            | {total[1] / max(total[2], 1e-3):4.2f}x"
          " (wall, the whole call)")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def _spin(n: int) -> float:
    """A pure-arithmetic loop (no memory traffic): its seconds."""
    start = time.perf_counter()
    x = 0
    for i in range(n):
        x = (x * 31 + i) & 0xFFFF
    return time.perf_counter() - start


def _annotate_all(games: list[str], options: AnnotateOptions) -> float:
    """Every game annotated here, one after the other: the games' own seconds."""
    from solver.endgame.annotate import annotate
    from solver.formats.sgf import load_record

    return sum(annotate(load_record(g), options.time_limit, options.from_move, tree=options.tree,
                        threads=options.threads).seconds
               for g in games)


def pair_check(games: Path, options: AnnotateOptions, rounds: int = 2) -> None:
    """How much slower the same work runs two at a time on this machine
    (two forked processes) than alone, without Dask: a pure-arithmetic
    loop, then the whole batch of games. Alone and paired alternate."""
    import multiprocessing

    from solver.endgame.trees import load_compiled_tree
    from solver.formats.sgf import load_record

    files = sorted(str(g) for g in games.glob("*.blksgf"))
    record = load_record(files[0])
    load_compiled_tree(record.position(record.move_count - 1))  # the children inherit the loaded kernels
    pool = multiprocessing.get_context("fork").Pool(2)
    jobs = {"arithmetic loop": (_spin, (10_000_000,)), "the games": (_annotate_all, (files, options))}
    try:
        for name, (fn, args) in jobs.items():
            alone, paired = [], []
            for _ in range(rounds):
                alone.append(pool.apply(fn, args))
                a, b = pool.apply_async(fn, args), pool.apply_async(fn, args)
                paired.append((a.get() + b.get()) / 2)
            print(f"{name:16}: alone {' '.join(f'{x:6.1f}' for x in alone)} s, two at a time "
                  f"{' '.join(f'{x:6.1f}' for x in paired)} s each: {sum(paired) / sum(alone):.2f}x as long "
                  f"(a cap of {2 * sum(alone) / sum(paired):.2f}x for two workers)")
    finally:
        pool.close()
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--moves", type=int, default=8, help="moves left to annotate in each game")
    ap.add_argument("--seeds", default=",".join(map(str, SEEDS)))
    ap.add_argument("--time-limit", type=float, default=120.0, help="seconds per game (enough to prove all)")
    ap.add_argument("--reuse", action="store_true",
                    help="instead: serial with and without reusing work between positions")
    ap.add_argument("--trees", action="store_true",
                    help="instead: serial, the Python game tree against the compiled one, game by game")
    ap.add_argument("--pair", action="store_true",
                    help="instead: the batch alone against two copies at once (two processes, no Dask)")
    ap.add_argument("--threads-check", action="store_true",
                    help="instead: serial, each game's tree on one thread against two, game by game")
    ap.add_argument("--rounds", type=int, default=1, help="serial and Dask runs, alternating which goes first")
    ap.add_argument("--tree", choices=("compiled", "python"), default="compiled",
                    help="the game tree of the serial and Dask runs")
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    options = AnnotateOptions(time_limit=args.time_limit, from_move=1, tree=args.tree)
    with tempfile.TemporaryDirectory() as tmp:
        games = Path(tmp) / "games"
        games.mkdir()
        for seed in seeds:
            (games / f"duo-{seed}.blksgf").write_text(endgame_record(seed, args.moves), encoding="utf-8")
        if args.reuse:
            return reuse_check(games, Path(tmp), options)
        if args.trees:
            return tree_check(games, options)
        if args.pair:
            return pair_check(games, options)
        if args.threads_check:
            return threads_check(games, options)
        rounds = []
        for r in range(args.rounds):  # alternating which goes first
            order = ("serial", "dask") if r % 2 == 0 else ("dask", "serial")
            got = {kind: run(games, Path(tmp) / f"{kind}-{r}", options, 0 if kind == "serial" else args.workers)
                   for kind in order}
            rounds.append(got)
        folders = [Path(tmp) / f"{kind}-{r}" for r in range(args.rounds) for kind in ("serial", "dask")]
        differ = [d for f in folders[1:] for d in differences(results(folders[0]), results(f))]
        still_open = {f.name: unproven(f) for f in folders}
    print(f"{len(seeds)} Duo games, last {args.moves} moves each, {args.workers} Dask worker processes "
          "(cluster start and stop included in its wall seconds)")
    print("values not proven: " + ("none" if not any(still_open.values()) else
                                   "; ".join(f"{k}: {' '.join(v)}" for k, v in still_open.items() if v)))
    print("serial seconds per game: " + "  ".join(
        f"{k.split('-')[1]}:{v:.1f}" for k, v in sorted(rounds[0]["serial"][1].items())))
    print("round  serial s   Dask s  ratio | games' own s: serial  workers | CPU Dask/serial  positions")
    for r, got in enumerate(rounds):
        (serial, per_game, nodes), (parallel, per_task, _) = got["serial"], got["dask"]
        print(f"{r:5} {serial:9.1f} {parallel:8.1f} {serial / parallel:5.2f}x | {sum(per_game.values()):19.1f} "
              f"{sum(per_task.values()):8.1f} | {CPU[f'dask-{r}'] / CPU[f'serial-{r}']:15.2f}x {nodes:>10,}")
    serial_all = sum(got["serial"][0] for got in rounds)
    dask_all = sum(got["dask"][0] for got in rounds)
    print(f"all rounds: serial {serial_all:.1f} s, Dask {dask_all:.1f} s, ratio {serial_all / dask_all:.2f}x")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    values = value_differences(differ)
    print(f"values identical in every run: {'yes' if not values else 'NO: ' + '; '.join(values)}")
    print(f"equally good best moves named differently: {'; '.join(d for d in differ if d not in values) or 'none'}")


if __name__ == "__main__":
    main()
