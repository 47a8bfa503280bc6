"""Random playouts over the compiled engine's arrays: whole games in which
every colour plays a uniformly random legal move (forced passes and the end
as in the rules core), for the move-generation benchmark against other
engines (``benchmarks/movegen.py``)."""

from __future__ import annotations

import numpy as np

from solver.core.position import Position
from solver.endgame import treeengine as te
from solver.endgame import treekernel as tk
from solver.kernels.jit import njit


@njit(cache=True, nogil=True)
def _playouts(tb, sp, st, mem, games, seed, scores):
    """Play ``games`` random games from row 0 of the stack; returns the
    moves played in all; ``scores`` adds up each colour's final score."""
    np.random.seed(seed)
    total = 0
    for _ in range(games):
        d = 0
        c = st.to_move[0]
        while c >= 0:
            n = tk._generate(tb, st.forbidden, st.corners, d, c, st.hand[d, c], mem, st.moves, d)
            p = st.moves[d, np.random.randint(0, n)]
            tk._make(tb, sp, st, d, c, p)
            d += 1
            c = tk._next_to_move(tb, st, d, c)
        total += d
        for o in range(4):
            scores[o] += tk._score(tb, st.hand[d, o], st.spare[d, o], st.bonus[d, o])
    return total


class Playouts:
    """Random games from one position, played in the compiled engine."""

    def __init__(self, pos: Position | None = None):
        self.pos = pos if pos is not None else Position()
        self.engine = te.Engine(self.pos.board, table_bits=4)
        self.params = te.params(self.pos, (1, -1, 1, -1), (1, 0, 1, 0))
        self.engine.params = self.params
        self.engine._load(self.pos, -1, 1, fresh=True)
        self.scores = np.zeros(4, dtype=np.int64)

    def run(self, games: int, seed: int = 0) -> int:
        """Play ``games`` games; returns the moves played in all."""
        e = self.engine
        return int(_playouts(e.tb, self.params, e.st, e.mem, games, seed, self.scores))
