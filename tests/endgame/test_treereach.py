"""The compiled tree's reach by chains of placements (solver.endgame.treereach)
against a slow Python version of the same definition, and against what the
colours go on to do."""

from __future__ import annotations

import random

import numpy as np
import pytest

from solver.core.geometry import CLASSIC_BOARD, Board, Mask
from solver.core.pieces import CLASSIC_SET
from solver.core.position import Position
from solver.endgame import treereach as tr
from solver.kernels.tables import PAD, tables, words
from tests.util import random_game

BOARDS = {"classic": CLASSIC_BOARD, "8x8": Board.rectangle(8, 8, corners=True)}
BACKS = {"classic": (6, 12, 20), "8x8": (2, 4, 6)}  # placements before the end
HANDS = {"classic": None, "8x8": 7}  # pieces each colour starts with (None: all 21)


def attach(pos: Position, c: int) -> Mask:
    """The colour's attach candidates, as the engine keeps them."""
    b = pos.board
    own = pos.occupied[c]
    return (b.corner_neighbours(own) & b.open_mask) if own else (b.start_masks[c] or b.open_mask)


def king_reach(pos: Position, c: int) -> Mask:
    """The engine's reach by king steps: its attach squares grown through
    the squares it may cover, a step per square left beyond one."""
    b = pos.board
    free = b.open_mask & ~pos.forbidden[c]
    return b.king_fill(attach(pos, c) & free, free, steps=max(pos.squares_left(c) - 1, 0))


def slow_piece_reach(pos: Position, c: int) -> Mask:
    """Squares of chains of placements, a link per piece in hand: the
    placements inside the king reach covering an attach square, then those
    covering a corner of a square found in the round before."""
    b, t = pos.board, pos.table
    within = king_reach(pos, c)
    hand = set(pos.pieces_left(c))
    out, seeds = 0, attach(pos, c) & within
    for _ in range(len(hand)):
        new = 0
        for sq in range(b.size):
            if seeds >> sq & 1:
                for p in t.covering[sq]:
                    if t.piece[p] in hand and not t.mask[p] & ~within:
                        new |= t.mask[p]
        fresh = new & ~out
        out |= new
        s = b.shift
        seeds = (s(fresh, 1, 1) | s(fresh, 1, -1) | s(fresh, -1, 1) | s(fresh, -1, -1)) & within
    return out


def piece_reach(pos: Position, c: int) -> Mask:
    """treereach.piece_reach on the engine's rows."""
    tb = tables(pos.board)
    nw = tb.n_words
    sc = np.zeros((9, nw + PAD), dtype=np.uint64)
    sc[c, :nw] = words(king_reach(pos, c), nw)
    sc[5, :nw] = words(attach(pos, c), nw)
    tr.piece_reach(tb, sc, c, pos.hand[c], pos.spare[c], 6, 5, 7, 8, 4)
    return sum(int(sc[c, w]) << (64 * w) for w in range(nw))


def late_positions(name: str, games: int):
    """Positions some placements before the end of seeded random games (on
    the small board with random hands of a few pieces), and the seeds."""
    for seed in range(games):
        start = Position(BOARDS[name])
        if HANDS[name]:
            rng = random.Random(seed)
            for c in range(4):
                start.hand[c] = sum(1 << k for k in rng.sample(range(len(CLASSIC_SET)), HANDS[name]))
            start.setup({})
        end = random_game(seed, start.copy())
        for back in BACKS[name]:
            pos = start.copy()
            for m in end.history[: max(0, len(end.history) - back)]:
                pos.push(m)
            yield seed, pos


@pytest.mark.parametrize("name", BOARDS)
def test_piece_reach_equals_the_slow_one_and_holds_every_later_piece(name):
    checked = shrunk = 0
    for seed, pos in late_positions(name, 6):
        for c in range(4):
            if not pos.hand[c] or not pos.legal_placements(c):
                continue
            reach = piece_reach(pos, c)
            assert reach == slow_piece_reach(pos, c)
            king = king_reach(pos, c)
            assert reach & ~king == 0
            shrunk += reach != king
            for p in pos.legal_placements(c):  # the first link is exactly the legal moves
                assert pos.table.mask[p] & ~reach == 0
            for k in range(3):  # and whatever the colour goes on to place lies inside
                rest = random_game(1000 * seed + 10 * c + k, pos.copy())
                for col, p in rest.history[len(pos.history):]:
                    if col == c:
                        assert pos.table.mask[p] & ~reach == 0
            checked += 1
    assert checked > 20 and shrunk > 5
