"""Many games on Dask (``annotate_batch`` and ``solver.cluster``) on a
real LocalCluster of two worker processes, started here and shared by the
module: the same results as a serial run, a bad record reported by name
while the others complete, a worker killed mid-run losing nothing, reruns
skipping finished games, and ``blokus annotate --out-dir``.

The games are seeded random Duo games whose earlier moves are set-up pieces
(the root's AB/AW), so every main line is the last few moves of a game and
is proven quickly with ``--from 1``.
"""

from __future__ import annotations

import csv
import json
import logging
import os
import signal

import pytest

from solver.cli import main
from solver.cluster import SKIPPED, Outcome, run_serial, run_tasks
from solver.core.position import Position
from solver.core.variants import DUO
from solver.endgame.batch import AnnotateOptions, annotate_batch
from solver.formats.sgf import read_record, write_record
from tests.faults import ROOT, signal_when
from tests.util import random_game

SEEDS = (0, 1, 2, 5, 6, 9)
MOVES = 5  # moves left to play (and annotate) in each record
OPTIONS = AnnotateOptions(time_limit=60.0, from_move=1)


def endgame_record(seed: int, moves: int = MOVES) -> str:
    """A seeded random Duo game as set-up pieces plus its last ``moves`` moves."""
    line = random_game(seed, Position(DUO)).history
    split = len(line) - moves
    pos = Position(DUO)
    for m in line[:split]:
        pos.push(m)
    start = Position(DUO)
    start.setup({c: [p for col, p in line[:split] if col == c] for c in (0, 1)}, pos.to_move)
    for m in line[split:]:
        start.push(m)
    return write_record(start)


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    for seed in SEEDS:
        (folder / f"duo-{seed}.blksgf").write_text(endgame_record(seed), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0",
                      silence_logs=logging.CRITICAL) as c:
        yield c


@pytest.fixture(scope="module")
def serial(games, tmp_path_factory):
    out = tmp_path_factory.mktemp("serial")
    report = annotate_batch([str(games)], str(out), OPTIONS, workers=0)
    assert not report.failed and len(report.annotated) == len(SEEDS)
    return out


def outputs(folder) -> dict[str, object]:
    """Every output file of a batch, timings and node counts left out (the
    score outlook's solo searches have a time limit: on a loaded machine a
    colour can be settled later, with more positions searched and the same
    values)."""
    found = {}
    for path in sorted(folder.iterdir()):
        if path.suffix == ".json":
            obj = json.loads(path.read_text())
            obj.pop("seconds")
            obj.pop("nodes")
            found[path.name] = obj
        elif path.name == "summary.csv":
            rows = list(csv.DictReader(path.open()))
            found[path.name] = [{k: v for k, v in row.items() if k != "seconds"} for row in rows]
        else:
            found[path.name] = path.read_bytes()
    return found


def test_the_records_are_endgames_with_set_up():
    record = read_record(endgame_record(SEEDS[0]))
    assert record.move_count == MOVES and record.position().game_over
    assert record.nodes[0].get("AB") is not None


def test_serial_run(serial):
    files = outputs(serial)
    assert set(files) == {f"duo-{s}.{ext}" for s in SEEDS for ext in ("blksgf", "json", "png")} | {"summary.csv"}
    for s in SEEDS:
        obj = files[f"duo-{s}.json"]
        assert obj["moves_analysed"] == MOVES and obj["first_proven_move"] == 1
    rows = files["summary.csv"]
    assert [r["game"].rsplit("/", 1)[-1] for r in rows] == sorted(f"duo-{s}.blksgf" for s in SEEDS)
    assert all(r["error"] == "" and r["moves_analysed"] == str(MOVES) for r in rows)


def test_the_biggest_game_is_submitted_first(tmp_path):
    """The same game from 2 and from 5 moves before its end: the longer
    analysis (more pieces in hand at move 1) goes first, whatever the file
    names say (a serial batch runs in submission order)."""
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a-short.blksgf").write_text(endgame_record(SEEDS[0], 2), encoding="utf-8")
    (folder / "b-long.blksgf").write_text(endgame_record(SEEDS[0], 5), encoding="utf-8")
    order = []
    report = annotate_batch([str(folder)], str(tmp_path / "out"), AnnotateOptions(60.0, 1, plot=False),
                            workers=0, on_outcome=lambda o: order.append(os.path.basename(o.name)))
    assert not report.failed and order == ["b-long.blksgf", "a-short.blksgf"]


def test_on_the_cluster_identical_to_serial(cluster, games, serial, tmp_path):
    seen = []
    report = annotate_batch([str(games)], str(tmp_path), OPTIONS, scheduler=cluster.scheduler_address,
                            on_outcome=seen.append)
    assert not report.failed and sorted(report.annotated) == sorted(report.games)
    assert len(seen) == len(SEEDS) and all(o.ok for o in seen)  # each game reported once, as it completed
    assert outputs(tmp_path) == outputs(serial)


def test_a_bad_record_is_reported_and_the_rest_complete(cluster, games, tmp_path):
    bad = tmp_path / "in"
    bad.mkdir()
    (bad / "broken.blksgf").write_text("(;GM[Blokus Duo];B[e10,e11,e12,e13,e14];W[z99])")
    (bad / "not-sgf.blksgf").write_text("hello")
    good = [str(games / f"duo-{s}.blksgf") for s in SEEDS[:3]]
    out = tmp_path / "out"
    report = annotate_batch(good + [str(bad)], str(out), OPTIONS, scheduler=cluster.scheduler_address)
    assert sorted(report.annotated) == sorted(good)
    assert set(report.failed) == {str(bad / "broken.blksgf"), str(bad / "not-sgf.blksgf")}
    assert "move 2" in report.failed[str(bad / "broken.blksgf")]
    rows = {r["game"]: r for r in csv.DictReader((out / "summary.csv").open())}
    assert rows[str(bad / "not-sgf.blksgf")]["error"] and rows[good[0]]["moves_analysed"] == str(MOVES)
    assert not (out / "broken.json").exists() and (out / "duo-0.json").exists()


def test_killing_a_worker_loses_nothing(cluster, games, serial, tmp_path):
    from distributed import Client

    killed = []
    with Client(cluster.scheduler_address) as client:
        client.wait_for_workers(2)

        def kill_a_busy_worker(outcome: Outcome) -> None:
            if killed:
                return
            busy = [w for w, keys in client.processing().items() if keys]
            if busy:
                pid = client.run(os.getpid, workers=[busy[0]])[busy[0]]
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

        report = annotate_batch([str(games)], str(tmp_path), OPTIONS, scheduler=cluster.scheduler_address,
                                on_outcome=kill_a_busy_worker)
        client.wait_for_workers(2)  # the nanny restarts it, for the tests after this one
    assert killed, "no worker was busy to kill"
    assert not report.failed and len(report.annotated) == len(SEEDS)
    assert outputs(tmp_path) == outputs(serial)


def test_a_rerun_skips_finished_games_unless_forced(cluster, games, tmp_path):
    first = annotate_batch([str(games / "duo-0.blksgf")], str(tmp_path), OPTIONS, workers=0)
    assert first.annotated and not first.skipped
    stamp = (tmp_path / "duo-0.json").stat().st_mtime_ns
    again = annotate_batch([str(games)], str(tmp_path), OPTIONS, scheduler=cluster.scheduler_address)
    assert again.skipped == [str(games / "duo-0.blksgf")] and len(again.annotated) == len(SEEDS) - 1
    assert (tmp_path / "duo-0.json").stat().st_mtime_ns == stamp
    assert len(list(csv.DictReader((tmp_path / "summary.csv").open()))) == len(SEEDS)
    forced = annotate_batch([str(games / "duo-0.blksgf")], str(tmp_path), OPTIONS, workers=0, force=True)
    assert forced.annotated == [str(games / "duo-0.blksgf")] and not forced.skipped


def test_run_tasks_streams_outcomes_and_failures(cluster):
    inputs = [(str(i), i) for i in range(5)] + [("bad", "x")]
    outcomes = {o.name: o for o in run_tasks(abs, inputs, scheduler=cluster.scheduler_address)}
    assert {n: o.value for n, o in outcomes.items() if o.ok} == {str(i): i for i in range(5)}
    assert "TypeError" in outcomes["bad"].error
    assert {o.name: o.value for o in run_serial(abs, inputs) if o.ok} == {str(i): i for i in range(5)}


def wait_for_stop(arg: str, stop) -> str:
    """A task that says it started (a Dask Event named after its input),
    then waits up to a minute for the stop event."""
    from distributed import Event

    Event(f"started-{arg}").set()
    return "stopped" if stop.wait(60) else "not stopped"


def test_a_stop_reaches_the_running_tasks_and_skips_the_rest(cluster):
    import threading
    import time
    import uuid

    from distributed import Client, Event

    names = [f"{uuid.uuid4().hex}-{i}" for i in range(5)]  # two workers: three wait their turn
    stop = threading.Event()
    workers = []
    with Client(cluster.scheduler_address, set_as_default=False) as client:

        def stop_once_two_run() -> None:
            deadline = time.monotonic() + 60
            while sum(Event(f"started-{n}", client=client).is_set() for n in names) < 2:
                if time.monotonic() > deadline:
                    return
                time.sleep(0.05)
            stop.set()

        watcher = threading.Thread(target=stop_once_two_run, daemon=True)
        watcher.start()
        outcomes = list(run_tasks(wait_for_stop, [(n, n) for n in names], scheduler=cluster.scheduler_address,
                                  stop=stop, ready=workers.append))
        watcher.join()
    assert workers == [2]
    assert sorted(o.value for o in outcomes if not o.skipped) == ["stopped", "stopped"]
    assert sum(o.skipped for o in outcomes) == 3
    assert all(o.error == SKIPPED and not o.ok for o in outcomes if o.skipped)


def test_local_cluster_workers_ignore_ctrl_c():
    """Ctrl-C in a terminal signals the whole process group: the workers of
    a LocalCluster started here must live on (the caller handles it)."""
    import threading

    from solver.cluster import _client, _stream

    with _client(2, None) as client:
        pids = set(client.run(os.getpid).values())
        assert len(pids) == 2
        for pid in pids:
            os.kill(pid, signal.SIGINT)
        outcomes = []
        run = threading.Thread(target=lambda: outcomes.extend(_stream(client, abs, [(str(i), -i) for i in range(1, 5)])),
                               daemon=True)
        run.start()
        run.join(60)  # (killed workers would leave it waiting for ever)
        assert sorted(o.value for o in outcomes) == [1, 2, 3, 4]
        assert set(client.run(os.getpid).values()) == pids


def test_cli_on_an_existing_scheduler(cluster, games, tmp_path, capsys):
    bad = tmp_path / "bad.blksgf"
    bad.write_text("(;GM[Blokus Duo];B[z99])")
    out = tmp_path / "out"
    code = main(["annotate", str(games / "duo-1.blksgf"), str(bad), "--from", "1", "--out-dir", str(out),
                 "--scheduler", cluster.scheduler_address])
    captured = capsys.readouterr()
    assert code == 2
    assert "1 annotated, 0 already done, 1 failed of 2 games" in captured.out
    assert f"blokus: error: {bad}" in captured.err
    assert (out / "duo-1.blksgf").exists() and (out / "summary.csv").exists()


@pytest.mark.slow
def test_cli_starts_a_local_cluster(games, tmp_path, capsys):
    out = tmp_path / "out"
    code = main(["annotate", str(games / "duo-5.blksgf"), str(games / "duo-6.blksgf"), "--from", "1",
                 "--out-dir", str(out), "--workers", "2"])
    assert code == 0, capsys.readouterr().err
    assert "2 annotated" in capsys.readouterr().out
    assert read_record((out / "duo-5.blksgf").read_text()).move_count == MOVES


@pytest.mark.parametrize("args, part", [
    (["--out-dir", "OUT", "-o", "x.blksgf"], "apply to one game"),
    (["--out-dir", "OUT", "--json"], "apply to one game"),
    (["--out-dir", "OUT", "--workers", "2", "--scheduler", "tcp://localhost:1"], "give one of them"),
    (["MISSING", "--out-dir", "OUT"], "no such file or folder"),
    (["--out-dir", "OUT", "--scheduler", "tcp://host"], "bad scheduler address"),
])
def test_cli_batch_errors(games, tmp_path, capsys, args, part):
    args = [str(tmp_path / "out") if a == "OUT" else str(tmp_path / "missing") if a == "MISSING" else a
            for a in args]
    assert main(["annotate", str(games)] + args) == 2
    assert part in capsys.readouterr().err


def test_same_names_in_two_folders_are_refused(games, tmp_path, capsys):
    other = tmp_path / "other"
    other.mkdir()
    (other / "duo-0.blksgf").write_text(endgame_record(0))
    assert main(["annotate", str(games), str(other), "--out-dir", str(tmp_path / "out")]) == 2
    assert "have the same name" in capsys.readouterr().err


def two_quick_and_a_long_game(games, tmp_path):
    """A folder of two Duo games that end in seconds and sample-2p from move 1 (minutes)."""
    import shutil

    folder = tmp_path / "games"
    folder.mkdir()
    for name in ("duo-0.blksgf", "duo-1.blksgf"):
        shutil.copy(games / name, folder / name)
    shutil.copy(ROOT / "puzzles" / "games" / "sample-2p.blksgf", folder / "long.blksgf")
    return folder


@pytest.mark.slow
def test_ctrl_c_keeps_the_games_done_and_lists_the_rest(games, tmp_path):
    """SIGINT once two quick games are done and a long one runs: those two
    are kept, summary.csv lists the long one as not done, exit 130; a rerun
    skips the two."""
    folder = two_quick_and_a_long_game(games, tmp_path)
    out = tmp_path / "out"
    proc, _ = signal_when(["annotate", str(folder), "--out-dir", str(out), "--from", "1", "--time-limit", "600",
                           "--workers", "2"], lambda line: "2/3 games" in line)  # one line per game ended
    stdout, stderr = proc.stdout, proc.stderr
    assert proc.returncode == 130, stderr
    assert "2 annotated, 0 already done, 0 failed, 1 not done (interrupted) of 3 games" in stdout
    rows = {os.path.basename(r["game"]): r["error"] for r in csv.DictReader((out / "summary.csv").open())}
    assert rows == {"duo-0.blksgf": "", "duo-1.blksgf": "", "long.blksgf": "not annotated: interrupted (Ctrl-C)"}
    assert sorted(p.name for p in out.glob("*.json")) == ["duo-0.json", "duo-1.json"]
    report = annotate_batch([str(folder / "duo-0.blksgf"), str(folder / "duo-1.blksgf")], str(out), OPTIONS,
                            workers=0)
    assert sorted(report.skipped) == sorted(str(folder / n) for n in ("duo-0.blksgf", "duo-1.blksgf"))


@pytest.mark.slow
def test_ctrl_c_in_a_batch_run_here_stops_the_game_running_and_skips_the_rest(games, tmp_path):
    """workers 0 (the games one after the other in this process): SIGINT
    while the long game (first: the biggest goes first) runs stops it and
    skips the two after it; nothing is written for any, the summary is."""
    import threading

    folder = two_quick_and_a_long_game(games, tmp_path)
    out = tmp_path / "out"
    timer = threading.Timer(3.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        report = annotate_batch([str(folder)], str(out), AnnotateOptions(time_limit=600, from_move=1), workers=0)
    finally:
        timer.cancel()
    assert report.interrupted and not report.annotated
    assert report.failed == {str(folder / n): "not annotated: interrupted (Ctrl-C)"
                             for n in ("duo-0.blksgf", "duo-1.blksgf", "long.blksgf")}
    assert sorted(p.name for p in out.iterdir()) == ["summary.csv"]
