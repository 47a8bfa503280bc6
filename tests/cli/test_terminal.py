"""What a person at a terminal sees, and what a script never gets: the
progress bar and the board colours on a pseudo-terminal, plain text
through a pipe and with ``NO_COLOR``, the notice while kernels compile,
``blokus`` alone, ``--version`` and ``warm-up``."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time

import pytest

from solver.puzzle.result import Progress
from solver.terminal import COLOURS, ProgressView, paint_board
from solver.version import __version__
from tests.faults import blokus
from tests.util import ROOT, cold_copy

ESC = "\x1b["
# a run over a second that prints a board: the search engine's best partial packing after 3 s (its
# Python beams place pieces within the first second even on a loaded machine; the hybrid loads its
# kernels first, and once placed nothing in 3 s while another test run shared the cores)
LONG_RUN = ("solve", "puzzles/frontier-2c-12x15.toml", "--engine", "search", "--time-limit", "3")


def on_a_terminal(*args: str, env: dict | None = None, timeout: float = 300) -> str:
    """``blokus ARGS`` with stdout and stderr on a pseudo-terminal: all it wrote."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))  # 40 rows of 100 columns
    proc = subprocess.Popen([sys.executable, "-m", "solver", *args], stdin=follower, stdout=follower,
                            stderr=follower, cwd=ROOT, env={**os.environ, **(env or {})},
                            close_fds=True)
    os.close(follower)
    chunks = []
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            ready, _, _ = select.select([leader], [], [], 1.0)
            if ready:
                try:
                    data = os.read(leader, 65536)
                except OSError:  # the program ended and closed the terminal
                    break
                if not data:
                    break
                chunks.append(data)
            elif proc.poll() is not None:
                break
    finally:
        proc.kill()
        proc.wait()
        os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def test_a_terminal_gets_the_bar_and_the_colours():
    out = on_a_terminal(*LONG_RUN)
    assert "|" in out and "of 00:03" in out  # the bar: the time used of the limit
    assert "pieces" in out  # what the engine knows so far, beside the bar
    assert f"{ESC}1;38;5;{COLOURS['B'][1]};48;5;{COLOURS['B'][0]}mB{ESC}0m" in out  # a blue square of the board


def test_no_color_keeps_the_bar_and_drops_the_colours():
    out = on_a_terminal(*LONG_RUN, env={"NO_COLOR": "1"})
    assert "of 00:03" in out
    assert "48;5;" not in out


def test_a_pipe_gets_plain_text_and_plain_progress_lines():
    proc = blokus(*LONG_RUN)
    assert ESC not in proc.stdout and ESC not in proc.stderr and "\r" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line]
    assert lines and all(line.startswith("blokus: ") for line in lines), proc.stderr
    assert "Best partial packing" in proc.stdout
    data = blokus(*LONG_RUN, "--json")
    assert ESC not in data.stdout and ESC not in data.stderr
    assert json.loads(data.stdout)["engine"] == "search"


def test_the_view_draws_a_bar_of_steps_with_what_is_left(tmp_path):
    path = tmp_path / "err.txt"
    with path.open("w") as stream:
        view = ProgressView(stream=stream, tty=True)
        view(Progress(1.5, 0, "annotate: 1/4 games, 0 failed", notice=True, done=1, total=4))
        view(Progress(3.0, 0, "annotate: 2/4 games, 0 failed", notice=True, done=2, total=4))
        view.done()
    text = path.read_text()
    assert "annotate: 2/4 games, 0 failed" in text and " 50%|" in text and "2/4" in text and "left]" in text


def test_the_view_on_a_pipe_writes_lines_and_says_compiling_once(tmp_path):
    path = tmp_path / "err.txt"
    with path.open("w") as stream:
        view = ProgressView(stream=stream, tty=False)
        view(Progress(0.2, 0, "too early to show"))
        view.compiling("solver.endgame.treekernel", True)
        view.compiling("solver.endgame.treekernel", True)
        view.compiling("solver.endgame.treekernel", False)
        view(Progress(2.0, 1234, "81/84 pieces"))
        view.done()
    lines = path.read_text().splitlines()
    assert lines[0].startswith("blokus: compiling the game-tree engine (once per install")
    assert lines[1] == "blokus:    2.0 s         1,234 nodes  81/84 pieces"
    assert len(lines) == 2


def test_paint_board_keeps_every_letter():
    picture = "  a b\n2 B Y 2\n1 . G 1\n  a b"
    painted = paint_board(picture)
    assert painted.replace(ESC, "").count("B") == 1 and ESC in painted
    stripped = painted
    for code in {f"{ESC}1;38;5;{fg};48;5;{bg}m" for bg, fg in COLOURS.values()} | {f"{ESC}0m"}:
        stripped = stripped.replace(code, "")
    assert stripped == picture


def test_blokus_alone_prints_a_guide_and_version_prints_the_version():
    proc = blokus()
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith(f"blokus {__version__}: ") and "blokus solve solo-21" in proc.stdout
    for line in proc.stdout.splitlines():  # every command of the guide is a command of blokus
        if line.startswith("  blokus "):
            assert blokus(line.split()[1], "--help").returncode == 0, line
    version = blokus("--version")
    assert (version.returncode, version.stdout) == (0, f"blokus {__version__}\n")


@pytest.mark.slow
def test_a_first_run_says_it_compiles_and_warm_up_compiles_ahead(tmp_path):
    home = cold_copy(tmp_path)
    env = {**os.environ}
    env.pop("NUMBA_CACHE_DIR", None)
    first = blokus("solve", "puzzles/tetromino-8x10.toml", "--engine", "search", "--mode", "exhaustive",
                   "--time-limit", "2", "--json", cwd=home, env=env)
    assert "blokus: compiling the packing kernels (once per install" in first.stderr
    # the compile (several seconds) stops the clock: the 2 s are the search's own, and it packs the board
    answer = json.loads(first.stdout)
    assert (first.returncode, answer["status"]) == (0, "OPTIMAL"), first.stderr
    assert answer["compile_seconds"] > 0
    warm = blokus("warm-up", "--json", cwd=home, env=env)
    assert warm.returncode == 0, warm.stderr
    jobs = {job["name"]: job["compiled"] for job in json.loads(warm.stdout)["jobs"]}
    assert jobs["the fill kernel"] == 0 and jobs["the game-tree engine"] > 0  # the first solve compiled the one
    after = blokus("analyze", "puzzles/games/sample-2p.blksgf", "--move", "56", "--time-limit", "10",
                   cwd=home, env=env)
    assert after.returncode == 0 and "compiling" not in after.stderr, after.stderr
    again = json.loads(blokus("warm-up", "--json", cwd=home, env=env).stdout)
    assert again["compiled"] == 0
