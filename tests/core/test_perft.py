"""Perft: the number of legal move sequences of a given length (shorter when
the game ends first), a count anyone can recompute. The fast generator
(with its turn order and forced passes) is pinned to these numbers and
checked against a perft over the slow reference generator, which shares no
code with it."""

from __future__ import annotations

import pytest

from solver.core import reference
from solver.core.geometry import NUM_COLORS, Board
from solver.core.pieces import CLASSIC_SET as PIECES
from solver.core.pieces import PIECE_NAMES
from solver.core.position import Move, Position
from tests.util import random_game


def perft(pos: Position, depth: int) -> int:
    """Leaves of the game tree ``depth`` moves deep (a finished game is a leaf)."""
    if depth == 0 or pos.to_move is None:
        return 1
    total = 0
    color = pos.to_move
    for p in pos.legal_placements():
        pos.push(Move(color, p))
        total += perft(pos, depth - 1)
        pos.pop()
    return total


def reference_perft(board: Board, grid: dict, hands: list[set[str]], last: int, depth: int) -> int:
    """The same count from the slow generator and this function's own turn
    order: the next colour after ``last`` that has a legal move moves."""
    starts = [{board.row_col(s) for s in board.starts[c]} for c in range(NUM_COLORS)]
    for step in range(1, NUM_COLORS + 1):
        color = (last + step) % NUM_COLORS
        moves = reference.legal_moves(grid, board.height, board.width, color, hands[color], starts[color])
        if moves:
            break
    else:
        return 1  # nobody can move: the game is over
    if depth == 0:
        return 1
    total = 0
    for squares in moves:
        piece = _piece_name(squares)
        hands[color].remove(piece)
        for sq in squares:
            grid[sq] = color
        total += reference_perft(board, grid, hands, color, depth - 1)
        for sq in squares:
            del grid[sq]
        hands[color].add(piece)
    return total


def _piece_name(squares) -> str:
    r0 = min(r for r, _ in squares)
    c0 = min(c for _, c in squares)
    cells = frozenset((r - r0, c - c0) for r, c in squares)
    return next(name for name in PIECE_NAMES if cells in reference.ORIENTATIONS[name])


def _reference_perft(pos: Position, depth: int) -> int:
    b = pos.board
    grid = {b.row_col(sq): c for sq in range(b.size) for c in range(NUM_COLORS) if pos.occupied[c] >> sq & 1}
    hands = [{PIECES[i].name for i in pos.pieces_left(c)} for c in range(NUM_COLORS)]
    last = (pos.to_move - 1) % NUM_COLORS if pos.to_move is not None else 0
    return reference_perft(b, grid, hands, last, depth)


def _late_position() -> Position:
    """Six moves before the end of a seeded random game (passes and the end
    of the game fall inside the counted depths)."""
    end = random_game(7)
    pos = Position()
    for m in end.history[: len(end.history) - 6]:
        pos.push(m)
    return pos


# Pinned counts. The classic board from the start (the colours cannot meet
# yet: 58 first moves each), a 5x5 board with start corners (they meet at
# once), and a late position of a game.
PINS = [
    ("classic start", Position, [58, 58**2]),
    ("5x5 corners", lambda: Position(Board.rectangle(5, 5, corners=True)), [58, 2452, 94394]),
    ("late game", _late_position, [6, 88, 520, 1464]),
]


@pytest.mark.parametrize("name, make, counts", PINS, ids=[p[0] for p in PINS])
def test_perft_pins(name, make, counts):
    pos = make()
    assert [perft(pos, d) for d in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize("name, make, depth", [("5x5 corners", PINS[1][1], 2), ("late game", PINS[2][1], 3)])
def test_perft_agrees_with_the_reference_generator(name, make, depth):
    pos = make()
    assert perft(pos, depth) == _reference_perft(pos, depth)
