"""Annotate's walk trees searched with a known root move (the move played,
whose value the walk proved a step before) against plain minimax: the
tree asks only whether another move does better, so the value and a best
move must still be minimax's, whether the known move is a best one or
not, on the Python tree, the compiled engine and the compiled engine
split between threads."""

from __future__ import annotations

import threading

from solver.core.position import Move, Position
from solver.endgame import treeengine as te
from solver.endgame.walktrees import CompiledTree, PythonTree
from tests.endgame.test_treekernel import SEAT, hundred_endgames

BIG = 10**6


class Side:
    """A point of view as annotate's walk has one: the colours in
    ``maximiser`` want ``evaluate`` high; the outlook proves nothing."""

    def __init__(self, maximiser: set[int], evaluate):
        self.maximiser = maximiser
        self.evaluate = evaluate
        self.outlook = lambda p: (-BIG, BIG)
        self.stop = threading.Event()
        self.nodes = 0


def two_player_side() -> Side:
    return Side({0, 2}, lambda p: sum(w * s for w, s in zip(SEAT, p.scores())))


def colour_side(c: int) -> Side:
    return Side({c}, lambda p: p.score(c))


def trees(side: Side, params, board) -> dict:
    return {"python": PythonTree(side),
            "compiled": CompiledTree(side, board, params, 14),
            "split": CompiledTree(side, board, params, 14, threads=2)}


def known_moves(pos: Position, value_of) -> list[tuple[Move, int]]:
    """A best root move and the worst one for the side to move (the same
    when they are equal), each with its child's value."""
    rows = []
    for p in pos.legal_placements():
        m = Move(pos.to_move, p)
        pos.push(m)
        rows.append((value_of(pos), m))
        pos.pop()
    rows.sort(key=lambda r: r[0])
    return [(m, v) for v, m in {rows[0], rows[-1]}]


def check(pos: Position, oracle, k: int, side: Side, params) -> int:
    """Each tree's value with each known move equals minimax's (index ``k``
    of the oracle's row), and its best move's child has that value."""
    maximising = pos.to_move in side.maximiser
    want = oracle(pos)[k]
    checked = 0
    for name, tree in trees(side, params, pos.board).items():
        for move, v in known_moves(pos, lambda q: oracle(q)[k]):
            alpha, beta = (v - 1, BIG) if maximising else (-BIG, v + 1)
            value, best, _ = tree.search(pos.copy(), None, alpha, beta, known=(move, v))
            assert value == want, (name, move, v, value, want)
            if v == want:
                assert best == move, name  # none better: the known move is the answer
            pos.push(best)
            assert oracle(pos)[k] == want, name
            pos.pop()
            checked += 1
    return checked


def test_a_known_move_leaves_the_value_and_best_move_as_minimax():
    small, large = hundred_endgames(0)
    checked = 0
    for pos, oracle in small + large:
        if pos.to_move is None:
            continue
        checked += check(pos, oracle, 0, two_player_side(), lambda p: te.two_player_params(p, te.TWO_PLAYER))
        for c in (pos.to_move, (pos.to_move + 1) % 4):  # the colour to move maximises, the next one not
            checked += check(pos, oracle, 1 + c, colour_side(c), lambda p, c=c: te.guaranteed_params(p, c))
    assert checked > 1000
