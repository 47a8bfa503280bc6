"""A first ``analyze`` after an install, with no kernel cache: the compiled
tree compiles in a process of its own while the Python tree searches, and
the answer is the same as a warm run's, whichever tree gives it."""

from __future__ import annotations

import json
import os

import pytest

from tests.faults import blokus
from tests.util import ROOT, cold_copy


def values(obj: dict) -> dict:
    """What an analysis proves, without the figures of how it got there."""
    return {"colors": [(c["color"], c["score_now"], c["solo_optimum"], c["proven"]) for c in obj["colors"]],
            "game": (obj["game_value"], obj["game_value_proven"], obj["game_bounds"])}  # (a best move may be another of equal value)


def analyze_json(cwd, *args: str) -> tuple[dict, str]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    proc = blokus("analyze", "puzzles/games/sample-2p.blksgf", *args, "--json", cwd=cwd, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout), proc.stderr


@pytest.mark.slow
def test_a_first_analysis_answers_with_the_python_tree_while_the_compiled_one_compiles(tmp_path):
    home = cold_copy(tmp_path)
    cold, said = analyze_json(home, "--move", "56", "--time-limit", "20")
    warm, _ = analyze_json(ROOT, "--move", "56", "--time-limit", "20")
    assert "compiles in the background" in said
    assert any("the Python tree answered" in note for note in cold["notes"])
    assert cold["game_value_proven"] and values(cold) == values(warm)
    wait_for_the_compile(home)  # it went on after the answer: the next run finds the tree compiled
    again, said = analyze_json(home, "--move", "56", "--time-limit", "20")
    assert "compiles in the background" not in said and values(again) == values(warm)
    assert not any("the Python tree answered" in note for note in again["notes"])


def wait_for_the_compile(home, timeout: float = 600) -> None:
    """Until no process compiling the game tree for ``home`` runs any more."""
    import subprocess
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = subprocess.run(["pgrep", "-f", f"compile_game_tree.* {home}$"], capture_output=True, text=True)
        if not found.stdout.strip():
            return
        time.sleep(1)
    raise AssertionError("the background compile did not end")


@pytest.mark.slow
def test_when_the_python_tree_falls_short_the_compiled_tree_answers_once_compiled(tmp_path):
    home = cold_copy(tmp_path)
    # the Python tree needs about 30 s here, the compiled one 1-3 s (the value alone, or the winner first)
    cold, said = analyze_json(home, "--move", "52", "--time-limit", "10")
    warm, _ = analyze_json(ROOT, "--move", "52", "--time-limit", "10")
    assert "waiting for the compiled game tree" in said
    assert not any("the Python tree answered" in note for note in cold["notes"])
    assert values(cold) == values(warm)
    again, said = analyze_json(home, "--move", "52", "--time-limit", "10")  # the compile went to the cache
    assert "compiles in the background" not in said and values(again) == values(warm)
