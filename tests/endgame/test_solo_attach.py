"""The settling solo search by attach squares (solver.endgame.treekernel's
_solo_search) against the move-by-move one and the Python search engine's
branch and bound: the same solo optimum on every position, both
bonuses included (the monomino's only when it can be played last, which
the attach-square search has to work out: its order is not the play
order)."""

from __future__ import annotations

import random

from solver.core.geometry import Board
from solver.core.pieces import MONOMINO, PIECE_NAMES
from solver.core.position import Position
from solver.core.variants import DUO
from solver.endgame import treeengine as te
from solver.endgame.analysis import solo_puzzle
from solver.packing.driver import best_value
from tests.util import random_game


def cases(board, count: int, hand: tuple[int, int] | None, seed0: int) -> list[tuple[Position, int]]:
    """(position, colour) pairs, the colour with a move: seeded random games
    cut 1-8 placements before their end; ``hand``: every colour starts with
    the monomino and that many (least, most) other random pieces."""
    out = []
    for seed in range(seed0, seed0 + 10 * count):
        rng = random.Random(seed)
        start = Position(board)
        if hand:
            for c in range(4):
                pieces = rng.sample(range(1, len(PIECE_NAMES)), rng.randint(*hand))
                start.hand[c] = sum(1 << k for k in pieces) | (1 << MONOMINO)
            start.setup({})
        end = random_game(seed, start.copy())
        pos = start.copy()
        for m in end.history[: len(end.history) - rng.randint(1, min(8, len(end.history)))]:
            pos.push(m)
        out += [(pos, c) for c in range(4) if pos.hand[c] and pos.has_legal_move(c)]
        if len(out) >= count:
            return out[:count]
    raise AssertionError(f"not enough positions on {board}")


def test_attach_square_search_equals_move_by_move_and_branch_and_bound():
    found = {}
    small = cases(Board.rectangle(7, 7, corners=True), 60, (3, 6), 0)
    small += cases(Board.rectangle(8, 8, corners=True), 60, (4, 8), 1000)
    for pos, c in small:
        attach, _ = te.settling_solo(pos, c, attach=True, budget=10**9)
        by_move, _ = te.settling_solo(pos, c, attach=False, budget=10**9)
        assert attach == by_move == best_value(solo_puzzle(pos, c)), (pos.history, c)
        kind = {15: "all placed, not last", 20: "all placed, last"}.get(attach, "some left")
        found[kind] = found.get(kind, 0) + (pos.hand[c] >> MONOMINO & 1)
    # both bonuses met with the monomino still in hand (each needs the play order worked out)
    assert found["all placed, not last"] >= 2
    assert found["all placed, last"] >= 10


def test_attach_square_search_on_duo_positions_with_many_pieces_in_hand():
    """Blokus Duo positions (up to 12 pieces in hand): the same optimum as
    the other two where they finish (the move-by-move search within 2
    million positions, the branch and bound within 2 s), and far fewer
    positions than move by move, which meets a set of placements in each
    order it can be played (less what its table catches)."""
    compared = attach_nodes = by_move_nodes = 0
    for pos, c in cases(DUO, 30, None, 3000):
        attach, n_attach = te.settling_solo(pos, c, attach=True, budget=10**9)
        assert attach is not None
        by_move, n_by_move = te.settling_solo(pos, c, attach=False, budget=2_000_000)
        if by_move is not None:
            assert attach == by_move, (pos.history, c)
            attach_nodes += n_attach
            by_move_nodes += n_by_move
            compared += 1
        bound = best_value(solo_puzzle(pos, c), time_limit=2.0)
        assert bound is None or bound == attach, (pos.history, c)
    assert compared >= 20
    assert 3 * attach_nodes < by_move_nodes
