"""Restarts, the hybrid as ``--engine auto`` runs it: a fresh seed every
few seconds until one packs, the best partial packing kept, and progress
that counts from the start of the whole."""

from __future__ import annotations

from solver.formats.puzzle_file import load_puzzle
from solver.hybrid.lns import squares_placed
from solver.hybrid.portfolio import restarts
from solver.puzzle.result import Status
from solver.puzzle.verify import verify
from tests.util import ROOT


def test_restarts_run_seed_after_seed_and_keep_the_best_partial_packing():
    puzzle = load_puzzle(ROOT / "puzzles" / "frontier-2c-12x15.toml")  # no run packs it in seconds
    heard = []
    result = restarts(puzzle, 5, 2.0, 6.0, progress=heard.append)
    assert result.status is Status.UNKNOWN and result.best_partial
    assert result.stats["restarts"] >= 1 and "restarts every 2 s" in result.method
    verify(puzzle, result.placements, partial=True)
    assert squares_placed(puzzle, result.placements) > 0
    times = [info.elapsed for info in heard]
    assert times == sorted(times) and any("restart 1: seed 6" in info.text for info in heard)
