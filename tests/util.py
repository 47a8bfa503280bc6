"""Helpers shared by the tests: where things are, seeded games and a
bridge to the slow reference generator."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from solver.core import reference
from solver.core.pieces import CLASSIC_SET as PIECES
from solver.core.position import Move, Position

ROOT = Path(__file__).resolve().parent.parent  # the repository
DATA = ROOT / "tests" / "data"


def cold_copy(folder: Path) -> Path:
    """The package and its puzzles copied into ``folder`` without a kernel
    cache: a fresh install, for first-run tests (run commands there)."""
    for name in ("solver", "puzzles"):
        shutil.copytree(ROOT / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def random_game(seed: int, pos: Position | None = None, max_moves: int | None = None) -> Position:
    """Play uniformly random legal moves (seeded) until the game ends."""
    rng = random.Random(seed)
    pos = pos or Position()
    while pos.to_move is not None and (max_moves is None or len(pos.history) < max_moves):
        pos.push(Move(pos.to_move, rng.choice(pos.legal_placements())))
    return pos


def reference_moves(pos: Position, color: int) -> set[frozenset]:
    """The slow reference generator's moves for a colour, as sets of (row, col)."""
    b = pos.board
    grid = {}
    for c in range(4):
        for sq in range(b.size):
            if pos.occupied[c] >> sq & 1:
                grid[b.row_col(sq)] = c
    hand = {PIECES[i].name for i in pos.pieces_left(color)}
    starts = {b.row_col(s) for s in b.starts[color]}
    blocked = {b.row_col(s) for s in b.blocked}
    return reference.legal_moves(grid, b.height, b.width, color, hand, starts, blocked)


def fast_moves(pos: Position, color: int) -> set[frozenset]:
    t, b = pos.table, pos.board
    return {frozenset(b.row_col(s) for s in t.squares[p]) for p in pos.legal_placements(color)}


def observable_state(pos: Position) -> tuple:
    """Everything a user can see of a position, legal moves included."""
    return (
        pos.state_key(),
        tuple(pos.history),
        tuple(tuple(sorted(pos.legal_placements(c))) for c in range(4)),
        tuple(pos.scores()),
    )
