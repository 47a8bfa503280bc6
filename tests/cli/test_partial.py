"""Never throw work away: a solve cut short by its time limit or by Ctrl-C
reports the best partial packing it found, verified as a partial packing,
and Ctrl-C exits 130 after printing it."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

import pytest

from solver.formats.puzzle_file import load_puzzle
from solver.puzzle.result import Status
from solver.puzzle.verify import verify
from solver.solving import solve
from tests.util import ROOT

PUZZLES = ROOT / "puzzles"
SOLO_84 = PUZZLES / "solo-84.toml"
TETROMINO = PUZZLES / "tetromino-8x10.toml"


def test_a_timed_out_solve_returns_its_best_partial():
    puzzle = load_puzzle(SOLO_84)
    result = solve(puzzle, time_limit=1.0, mode="general")
    assert result.status is not Status.INFEASIBLE
    if result.status is Status.UNKNOWN:  # on any machine fast enough to solve it, nothing to check
        assert result.best_partial and 0 < len(result.placements) < 84
        assert verify(puzzle, result.placements, partial=True).order == result.order
        placed = {(c, puzzle.table.piece[p]) for c, p in result.placements}
        assert len(placed) == len(result.placements)  # each piece at most once


def test_the_json_of_a_partial(capsys):
    from solver.cli import main

    code = main(["solve", str(SOLO_84), "--mode", "general", "--time-limit", "1", "--json"])
    obj = json.loads(capsys.readouterr().out)
    assert code in (0, 4) and obj["interrupted"] is False
    left = sum(len(names) for names in obj["pieces_left"].values())
    assert left + len(obj["placements"]) == 84
    assert obj["best_partial"] == (obj["status"] == "UNKNOWN" and bool(obj["placements"]))


def _interrupt(args: list[str], wait_for: str, group: bool = False) -> subprocess.CompletedProcess:
    """Start blokus, send SIGINT once it prints a line that matches the
    regular expression ``wait_for`` on stderr (its progress lines start a
    second into the solve), and collect its output.
    ``group``: to its whole process group, as Ctrl-C in a terminal does."""
    proc = subprocess.Popen([sys.executable, "-m", "solver", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, process_group=0 if group else None)
    err = []
    while line := proc.stderr.readline():
        err.append(line)
        if re.search(wait_for, line):
            break
    if group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    out, rest = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(args, proc.returncode, out, "".join(err) + rest)


def test_ctrl_c_prints_the_partial_and_exits_130():
    run = _interrupt(["solve", str(SOLO_84), "--mode", "general", "--time-limit", "300", "--json"], "nodes")
    assert run.returncode == 130, run.stderr
    obj = json.loads(run.stdout)
    assert obj["interrupted"] is True and obj["status"] in ("UNKNOWN", "OPTIMAL")
    if obj["status"] == "UNKNOWN":
        assert obj["best_partial"] and obj["placements"]


def test_ctrl_c_stops_a_cpsat_count():
    """tetromino-8x10 takes CP-SAT minutes to count: stopped after a second,
    it prints the solutions counted so far (not a complete count)."""
    run = _interrupt(["solve", str(TETROMINO), "--engine", "cpsat", "--count", "--time-limit", "300", "--json"],
                     "blokus:")
    assert run.returncode == 130, run.stderr
    obj = json.loads(run.stdout)
    assert obj["interrupted"] is True and obj["count_complete"] is False
    assert obj["status"] in ("FEASIBLE", "UNKNOWN") and "Traceback" not in run.stderr


@pytest.mark.slow
def test_ctrl_c_during_the_hybrids_lns_prints_its_best_partial_and_exits_130(tmp_path):
    """The hybrid's LNS phase (``--search-share 0``: it starts at once, from
    nothing) stopped by SIGINT after its first reported step with a piece
    placed (on a busy machine the first steps may place none): the best
    partial packing is printed, verifies as a partial packing, exit 130."""
    from solver.cli import main

    puzzle = PUZZLES / "frontier-2c-13x14.toml"
    run = _interrupt(["solve", str(puzzle), "--engine", "hybrid", "--search-share", "0", "--time-limit", "300",
                      "--json"], r"[1-9]\d*/42 pieces, lns step")
    assert run.returncode == 130, run.stderr
    assert "lns step" in run.stderr and "Traceback" not in run.stderr
    obj = json.loads(run.stdout)
    assert obj["interrupted"] is True and obj["engine"] == "hybrid" and "lns" in obj["method"]
    assert obj["status"] in ("UNKNOWN", "OPTIMAL")
    if obj["status"] == "UNKNOWN":
        assert obj["best_partial"] and obj["placements"]
        assert len(obj["placements"]) + sum(len(names) for names in obj["pieces_left"].values()) == 42
    out = tmp_path / "partial.json"
    out.write_text(run.stdout)
    assert main(["solve", str(puzzle), "--check", str(out)]) == (4 if obj["status"] == "UNKNOWN" else 0)


def test_ctrl_c_in_a_terminal_stops_a_portfolio_on_a_local_cluster(tmp_path):
    """Ctrl-C reaches the portfolio's worker processes too (a terminal
    signals the whole process group): they live on, the runs going stop
    and report their partials, and the best is printed; exit 130."""
    from solver.cli import main

    puzzle = PUZZLES / "frontier-2c-12x15.toml"
    run = _interrupt(["solve", str(puzzle), "--engine", "hybrid", "--portfolio", "2", "--workers", "1",
                      "--time-limit", "300", "--json"], "portfolio: 2 runs on 2 workers", group=True)
    assert run.returncode == 130, run.stderr
    assert "Traceback" not in run.stderr
    obj = json.loads(run.stdout)
    assert obj["interrupted"] is True and obj["method"].startswith("portfolio of 2 seeds")
    assert obj["status"] == "UNKNOWN" and obj["best_partial"] == bool(obj["placements"])
    if obj["placements"]:  # (the runs may not have placed a piece yet)
        out = tmp_path / "partial.json"
        out.write_text(run.stdout)
        assert main(["solve", str(puzzle), "--check", str(out)]) == 4
