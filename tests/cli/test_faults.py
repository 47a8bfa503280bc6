"""The commands under faults of the machine, run as programs: inputs that
are not files (a named pipe, a device, a folder), folders that cannot be
written, a full disk (a file-size limit), an output folder that is a file.

What must hold: every fault ends in one ``blokus: error:`` line and exit
code 2 within seconds, never a traceback or a hang; an answer computed
before an output fails is printed all the same; a batch reports the games
it could not write and finishes the others, its summary and its last line;
nothing is left half-written.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import pytest

from tests.endgame.test_batch import endgame_record
from tests.faults import ROOT, address_space, blokus, blokus_read_only, full_disk, signal_when

PUZZLES = ROOT / "puzzles"
GAMES = PUZZLES / "games"
FINISHED = str(ROOT / "tests" / "data" / "two_player.blksgf")


def error_line(proc) -> str:
    """The one error line of a failed run (after any notes)."""
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.startswith("blokus: error: ")]
    assert len(lines) == 1, proc.stderr
    return lines[0].removeprefix("blokus: error: ")


# -- inputs that are not files ------------------------------------------------------------

@pytest.mark.parametrize("args", [["show", "FIFO"], ["analyze", "FIFO"], ["annotate", "FIFO"], ["render", "FIFO"],
                                  ["solve", "FIFO"], ["solve", str(PUZZLES / "solo-21.toml"), "--check", "FIFO"]])
def test_a_named_pipe_is_refused_at_once(tmp_path, args):
    fifo = tmp_path / "game.blksgf"
    os.mkfifo(fifo)
    proc = blokus(*[str(fifo) if a == "FIFO" else a for a in args], timeout=60)
    assert proc.returncode == 2
    assert error_line(proc) == f"{fifo}: cannot read: it is a named pipe, not a file"


def test_a_folder_is_refused(tmp_path):
    proc = blokus("show", str(tmp_path))
    assert proc.returncode == 2
    assert error_line(proc) == f"{tmp_path}: cannot read: it is a folder, not a file"


def test_a_device_is_read_without_waiting():
    proc = blokus("show", "/dev/null")
    assert proc.returncode == 2
    assert error_line(proc) == "/dev/null:1:1: no game tree (the file should start with '(;')"


def test_a_batch_folder_names_what_it_cannot_read(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    (games / "good.blksgf").write_text(endgame_record(0), encoding="utf-8")
    (games / "folder.blksgf").mkdir()
    (games / "device.blksgf").symlink_to("/dev/null")
    out = tmp_path / "out"
    proc = blokus("annotate", str(games), "--out-dir", str(out), "--from", "1", "--workers", "1")
    assert proc.returncode == 2
    assert "1 annotated, 0 already done, 2 failed of 3 games" in proc.stdout
    assert f"{games / 'folder.blksgf'}: cannot read: it is a folder, not a file" in proc.stderr
    assert f"{games / 'device.blksgf'}:1:1: no game tree" in proc.stderr
    rows = {Path(r["game"]).name: r["error"] for r in csv.DictReader((out / "summary.csv").open())}
    assert rows["good.blksgf"] == "" and "a folder" in rows["folder.blksgf"] and "no game tree" in rows["device.blksgf"]


# -- folders that cannot be written -------------------------------------------------------------

# An hour's work each: only a check before the work ends these within the timeout.
HOUR_OF_SOLVING = ["solve", str(PUZZLES / "frontier-21x17.toml"), "--time-limit", "3600"]
HOUR_OF_ANALYSIS = ["analyze", str(GAMES / "sample-2p.blksgf"), "--move", "8", "--time-limit", "3600"]


def test_solve_into_a_read_only_folder_fails_before_solving(tmp_path):
    target = tmp_path / "images"
    target.mkdir()
    proc = blokus_read_only([target], *HOUR_OF_SOLVING, "--render", str(target / "s.png"), timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert error_line(proc) in (f"{target / 's.png'}: cannot write: Read-only file system",
                                f"{target / 's.png'}: cannot write: Permission denied")
    assert list(target.iterdir()) == []


def test_analyze_render_into_a_read_only_folder_fails_before_the_analysis(tmp_path):
    target = tmp_path / "images"
    target.mkdir()
    proc = blokus_read_only([target], *HOUR_OF_ANALYSIS, "--render", str(target / "a.png"), timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert error_line(proc).startswith(f"{target / 'a.png'}: cannot write: ")


def test_annotate_into_a_read_only_folder_fails_before_the_analysis(tmp_path):
    target = tmp_path / "out"
    target.mkdir()
    proc = blokus_read_only([target], "annotate", str(GAMES / "sample-2p.blksgf"), "--from", "8",
                            "--time-limit", "3600", "-o", str(target / "a.blksgf"), timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert error_line(proc).startswith(f"{target / 'a.blksgf'}: cannot write: ")


def test_render_with_no_output_in_a_read_only_folder(tmp_path):
    proc = blokus_read_only([tmp_path], "render", str(GAMES / "sample-duo.blksgf"), cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    message = error_line(proc)
    assert message.startswith("output: cannot create the folder for images: ")
    assert message.endswith("(give the image's path with -o PATH)")


def test_annotate_out_dir_that_is_a_file(tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("not a folder")
    proc = blokus("annotate", FINISHED, "--out-dir", str(taken))
    assert proc.returncode == 2
    assert error_line(proc) == f"{taken}: cannot use it as the output folder: it is a file"
    assert taken.read_text() == "not a folder"


def test_annotate_out_dir_that_cannot_be_made(tmp_path):
    parent = tmp_path / "locked"
    parent.mkdir()
    proc = blokus_read_only([parent], "annotate", FINISHED, "--out-dir", str(parent / "out"))
    assert proc.returncode == 2
    assert error_line(proc).startswith(f"{parent / 'out'}: cannot create the output folder: ")


# -- a full disk: the answer is printed all the same ---------------------------------------------

def test_solve_prints_its_answer_when_the_image_cannot_be_written(tmp_path):
    image = tmp_path / "s.png"
    proc = blokus("solve", str(PUZZLES / "solo-21.toml"), "--render", str(image), "--json",
                  preexec_fn=full_disk(4096))
    assert proc.returncode == 2
    obj = json.loads(proc.stdout)
    assert obj["status"] == "OPTIMAL" and len(obj["placements"]) == 21
    assert obj["image"] is None and obj["image_error"] == f"{image}: cannot write: File too large"
    assert error_line(proc) == f"{image}: cannot write: File too large"
    assert list(tmp_path.iterdir()) == []  # no image, and no temporary file left


def test_analyze_prints_its_answer_when_the_image_cannot_be_written(tmp_path):
    image = tmp_path / "a.png"
    proc = blokus("analyze", FINISHED, "--render", str(image), preexec_fn=full_disk(4096))
    assert proc.returncode == 2
    assert "Image: none (it could not be written, see the error below)" in proc.stdout
    assert "Game value" in proc.stdout
    assert error_line(proc) == f"{image}: cannot write: File too large"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_annotate_reports_when_the_plot_cannot_be_written(tmp_path):
    record, plot = tmp_path / "out.blksgf", tmp_path / "plot.png"
    proc = blokus("annotate", FINISHED, "-o", str(record), "--plot", str(plot), "--time-limit", "5",
                  preexec_fn=full_disk(16384))
    assert proc.returncode == 2
    assert f"Annotated record: {record}" in proc.stdout
    assert "Plot: not written (see the error below)" in proc.stdout
    assert "Proven from move" in proc.stdout  # the report itself
    assert error_line(proc) == f"{plot}: cannot write: File too large"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.blksgf"]


@pytest.mark.slow
def test_a_batch_on_a_full_disk_reports_every_game_and_writes_its_summary(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    for seed in (0, 1, 2):
        (games / f"duo-{seed}.blksgf").write_text(endgame_record(seed), encoding="utf-8")
    out = tmp_path / "out"
    # room for a record and the summary, not for a plot
    proc = blokus("annotate", str(games), "--out-dir", str(out), "--from", "1", "--workers", "2",
                  preexec_fn=full_disk(8192))
    assert proc.returncode == 2
    assert "0 annotated, 0 already done, 3 failed of 3 games; summary: " in proc.stdout
    rows = list(csv.DictReader((out / "summary.csv").open()))
    assert [Path(r["game"]).name for r in rows] == ["duo-0.blksgf", "duo-1.blksgf", "duo-2.blksgf"]
    for r in rows:
        assert r["error"] == f"{out / Path(r['game']).stem}.png: cannot write: File too large"
    # each game whole or not at all: its record, written before the plot failed, is gone again
    assert sorted(p.name for p in out.iterdir()) == ["summary.csv"]


# -- the local Dask cluster ---------------------------------------------------------------------

def listening() -> set[tuple[int, str, int]]:
    import psutil

    me = psutil.Process()
    return {(p.pid, c.laddr.ip, c.laddr.port) for p in [me, *me.children(recursive=True)]
            for c in p.net_connections("inet") if c.status == psutil.CONN_LISTEN}


def test_a_local_cluster_listens_on_loopback_only():
    from solver.cluster import _client

    before = listening()
    with _client(2, None):
        opened = listening() - before
    assert len(opened) >= 3  # the scheduler (and its HTTP endpoint) and a worker at least
    assert {ip for _, ip, _ in opened} == {"127.0.0.1"}


# -- memory -----------------------------------------------------------------------------------

def big_board(tmp_path, side: int) -> Path:
    """All 84 pieces from the corners of a side x side board (32 x 32: the largest board a puzzle may have)."""
    path = tmp_path / f"big-{side}.toml"
    text = (PUZZLES / "solo-84.toml").read_text().replace('size = "20x20"', f'size = "{side}x{side}"')
    path.write_text(text.replace('name = "solo-84"', f'name = "big-{side}"'))
    return path


def test_a_cpsat_model_too_large_for_the_memory_is_refused_before_it_is_built(tmp_path):
    proc = blokus("solve", str(big_board(tmp_path, 32)), "--engine", "cpsat", "--time-limit", "60",
                  preexec_fn=address_space(2 << 30))
    assert proc.returncode == 2 and proc.stdout == ""
    message = error_line(proc)
    assert message.startswith("big-32: the CP-SAT model (333,988 candidate placements) needs about 2.3 GB, and the "
                              "process's address-space limit (ulimit -v) leaves ")
    assert message.endswith(": use the search engine (--engine search), a smaller board, or more memory")


@pytest.mark.slow
def test_a_cpsat_solve_takes_fewer_workers_to_fit_the_memory(tmp_path):
    proc = blokus("solve", str(big_board(tmp_path, 32)), "--engine", "cpsat", "--time-limit", "60", "--json",
                  preexec_fn=address_space(4 << 30), timeout=600)
    assert proc.returncode in (0, 4), proc.stderr  # packed, or not in the time: never an abort
    assert ("  1 CP-SAT worker, not 2: each needs about 1.9 GB more and the process's address-space limit "
            "(ulimit -v) leaves ") in proc.stderr
    assert json.loads(proc.stdout)["status"] in ("OPTIMAL", "UNKNOWN")


@pytest.mark.slow
def test_a_lost_scheduler_fails_each_game_cleanly_and_the_summary_is_written(tmp_path):
    """A real scheduler and worker processes of their own; the scheduler is
    killed while the games run: each game is reported lost, no Dask
    traceback, summary.csv written, exit 2."""
    import socket
    import subprocess
    import sys
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", str(port), "--no-dashboard"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nworkers", "1",
                               "--nthreads", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    games = tmp_path / "games"
    games.mkdir()
    for seed in (0, 1, 2):
        (games / f"duo-{seed}.blksgf").write_text(endgame_record(seed, 12), encoding="utf-8")
    out = tmp_path / "out"
    try:
        time.sleep(4)  # the scheduler listening, the worker joined
        batch = subprocess.Popen([sys.executable, "-m", "solver", "annotate", str(games), "--out-dir", str(out),
                                  "--from", "1", "--time-limit", "600", "--scheduler", address],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        time.sleep(8)  # the games submitted and running (each takes minutes at this limit)
        scheduler.kill()
        stdout, stderr = batch.communicate(timeout=120)
    finally:
        for proc in (scheduler, worker):
            proc.kill()
            proc.wait()
    assert batch.returncode == 2
    assert "Traceback" not in stderr
    assert "0 annotated, 0 already done, 3 failed of 3 games" in stdout
    rows = list(csv.DictReader((out / "summary.csv").open()))
    assert [r["error"] for r in rows] == ["lost: the Dask cluster went away (its scheduler stopped) before this task ended"] * 3


# -- SIGTERM ------------------------------------------------------------------------------------

def test_sigterm_hands_in_the_best_so_far_as_ctrl_c_does():
    import signal

    # a progress report: the search is under way
    proc, _ = signal_when([*HOUR_OF_SOLVING, "--json"], lambda line: "pieces" in line, signal.SIGTERM)
    out, err = proc.stdout, proc.stderr
    assert proc.returncode == 130, err
    obj = json.loads(out)
    assert obj["interrupted"] and obj["status"] == "UNKNOWN" and obj["best_partial"] and obj["placements"]
