"""Bad input, tried as a new user would: every case ends in one line
``blokus: error: ...`` naming the problem and exit code 2, never a
traceback, and nothing is accepted silently.

The cases run in-process through ``solver.cli.main`` (fast); one runs
``python -m solver`` to check that a crash-prone input leaves no traceback.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from solver.cli import main
from tests.util import ROOT

PUZZLES = ROOT / "puzzles"
STARS = str(PUZZLES / "stars-8x8.toml")

MAXIMIZE = """
[board]
size = "5x5"
starts = "corners"
[pieces]
blue = "V3 2"
[goal]
type = "maximize"
target = []
"""


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _fails(argv: list[str], capsys) -> str:
    """Run the CLI, expect exit 2 (usage errors leave through SystemExit),
    return the last line on stderr, the error."""
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("blokus: error: "), err
    return err[-1]


# -- game records ------------------------------------------------------------------------

def test_deeply_nested_variations(tmp_path, capsys):
    path = _write(tmp_path, "deep.blksgf", "(;GM[Blokus]" + "(;" * 1000 + ")" * 1001)
    assert main(["show", path]) == 0  # a thousand empty variations are a valid record
    path = _write(tmp_path, "open.blksgf", "(;GM[Blokus]" + "(;" * 100_000)
    assert "too large for a game record" in _fails(["show", path], capsys)


def test_removing_part_of_a_piece(tmp_path, capsys):
    path = _write(tmp_path, "ae.blksgf", "(;GM[Blokus]A1[a20][b19,c19];AE[b19])")
    line = _fails(["show", path], capsys)
    assert "AE[b19]" in line and "bad set-up" in line


# -- puzzle files ---------------------------------------------------------------------------

def test_deeply_nested_toml(tmp_path, capsys):
    path = _write(tmp_path, "deep.toml", "description = " + "[" * 5000 + "]" * 5000 + "\n")
    line = _fails(["solve", path], capsys)
    assert line.startswith(f"blokus: error: {path}:1:") and "nest" in line


@pytest.mark.parametrize("size", ["500x500", "100x100"])
def test_huge_board(tmp_path, capsys, size):
    path = _write(tmp_path, "big.toml", f'[board]\nsize = "{size}"\n[pieces]\nblue = "all"\n')
    line = _fails(["solve", path], capsys)
    assert line.startswith(f"blokus: error: {path}:2: ") and size in line


def test_color_keys_differing_only_in_case(tmp_path, capsys):
    path = _write(tmp_path, "case.toml", '[board]\nsize = "5x5"\n[pieces]\nblue = "all"\nBlue = "L5"\n')
    line = _fails(["solve", path], capsys)
    assert "'blue'" in line and "'Blue'" in line


def test_empty_maximize_target(tmp_path, capsys):
    path = _write(tmp_path, "target.toml", MAXIMIZE)
    line = _fails(["solve", path], capsys)
    assert "target" in line


def test_count_on_a_maximize_goal(tmp_path, capsys):
    path = _write(tmp_path, "max.toml", MAXIMIZE.replace("target = []", 'target = "blue"'))
    assert _fails(["solve", path, "--count"], capsys) == (
        "blokus: error: max: counting counts place-all solutions, and the goal is maximize")


# -- options ---------------------------------------------------------------------------------

def test_symmetric_mode_where_it_does_not_apply(capsys):
    assert _fails(["solve", STARS, "--mode", "symmetric"], capsys) == (
        "blokus: error: --mode symmetric does not apply to stars-8x8: not all four colours take part")


@pytest.mark.parametrize("value", ["-5", "0", "nan", "inf", "soon"])
def test_bad_time_limits(capsys, value):
    line = _fails(["solve", STARS, "--time-limit", value], capsys)
    assert line == f"blokus: error: argument --time-limit: must be a positive number of seconds, not {value!r}"


@pytest.mark.parametrize("argv, option, lo, hi", [
    (["--engine", "cpsat", "--seed", "99999999999999999999"], "--seed", 0, 2**31 - 1),
    (["--seed", "-1"], "--seed", 0, 2**31 - 1),
    (["--workers", "-3"], "--workers", 0, 256),
])
def test_out_of_range_numbers(capsys, argv, option, lo, hi):
    value = argv[-1]
    assert _fails(["solve", STARS, *argv], capsys) == (
        f"blokus: error: argument {option}: must be a whole number from {lo} to {hi}, not {value!r}")


def test_analyze_time_limit(capsys):
    record = str(PUZZLES / "games" / "sample-2p.blksgf")
    assert "argument --time-limit" in _fails(["analyze", record, "--time-limit", "-1"], capsys)


def test_analyze_threads(capsys):
    record = str(PUZZLES / "games" / "sample-2p.blksgf")
    assert _fails(["analyze", record, "--threads", "0"], capsys) == (
        "blokus: error: argument --threads: must be a whole number from 1 to 256, not '0'")


def test_render_size(capsys):
    assert "argument --size" in _fails(["render", STARS, "--size", "5"], capsys)


def test_no_traceback_from_a_subprocess(tmp_path):
    path = _write(tmp_path, "deep.toml", "description = " + "[" * 5000 + "]" * 5000 + "\n")
    run = subprocess.run([sys.executable, "-m", "solver", "solve", path], capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.startswith("blokus: error: ") and "Traceback" not in run.stderr
