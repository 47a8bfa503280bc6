"""The game trees of annotate's walk: one tree per point of view kept from
search to search over the whole game, the compiled engine's or the Python
reference's (:func:`solver.endgame.trees.choose` decides which)."""

from __future__ import annotations

import threading
import time
from typing import Callable, Protocol

from solver.core.position import Move, Position
from solver.endgame.gametree import GameTree, OutOfTime


class Side(Protocol):
    """What a walk tree reads of its point of view (annotate's side)."""

    maximiser: set[int]
    evaluate: Callable[[Position], int]
    outlook: Callable[[Position], tuple[int, int]]
    stop: threading.Event
    nodes: int


Known = tuple[Move, int]  # a root move and the bound of the root's value it is proven to reach


def _no_better(maximising: bool, value: int, known: Known | None) -> bool:
    """The search for a move better than ``known`` found none: ``value``
    (fail-soft) is no better than the known move's bound."""
    return known is not None and (value <= known[1] if maximising else value >= known[1])


MAX_TABLE = 2_000_000  # transposition table entries kept across the walk (then it starts afresh)


class PythonTree:
    """The plain-Python reference tree (:class:`solver.endgame.gametree.GameTree`)
    for a side: one transposition table and one history for the whole walk."""

    def __init__(self, side: "Side"):
        self.side = side
        self.table: dict = {}
        self.history: dict[int, int] = {}

    def search(self, pos: Position, deadline: float | None, alpha: int, beta: int,
               known: Known | None = None) -> tuple[int, Move | None, int]:
        """(value, best move, positions) of ``pos`` searched in the window
        (alpha, beta); OutOfTime when the deadline passes. ``known``: a root
        move proven to reach alpha + 1 (beta - 1 where the side to move
        minimises): the search asks only whether a move does better, and
        answers that bound and move when none does. The outlook it
        asks at each new position checks the clock too: the tree itself
        looks only every 1024 positions, and a position whose outlook runs
        solo searches can take a while."""
        if len(self.table) > MAX_TABLE:
            self.table.clear()
        side = self.side

        def outlook(p: Position) -> tuple[int, int]:
            if (deadline is not None and time.monotonic() > deadline) or side.stop.is_set():
                raise OutOfTime
            return side.outlook(p)

        maximising = pos.to_move in side.maximiser
        if known is not None:  # better than the known move, or no better: the window without its bound
            alpha, beta = (alpha + 1, beta) if maximising else (alpha, beta - 1)
        tree = GameTree(pos.copy(), side.maximiser, side.evaluate, deadline, outlook)
        tree.table, tree.history = self.table, self.history
        try:
            value, move = tree.best((alpha + 1, beta - 1))
        except OutOfTime:
            side.nodes += tree.nodes
            raise
        if _no_better(maximising, value, known):
            return known[1], known[0], tree.nodes
        return value, move, tree.nodes


class CompiledTree:
    """The compiled engine (:mod:`solver.endgame.treekernel`) for a side: its
    own fixed-size transposition table, kept from search to search over the
    walk (entries are proven bounds of positions, whatever the root). The
    history heuristic starts afresh at each search: one learnt under
    another root ordered worse (benchmarks/annotate.py --reuse: the games
    took 1.5x as long with it kept). On ``threads`` threads a value's
    search splits its root moves between engines on that one table
    (:func:`solver.endgame.treesplit.split_root`); a null-window test
    stays on one. A search with a known move (see :meth:`PythonTree.search`)
    has that move's bound as the root's from the start: on one engine the
    alpha-beta window starts there, and on many every other root move is
    only tested against it until one does better."""

    def __init__(self, side: "Side", board, params: Callable[[Position], object], table_bits: int,
                 threads: int = 1):
        from solver.endgame.treeengine import Engine

        self.side = side
        self.engine = Engine(board, table_bits)
        self.helpers = [Engine(board, table_bits, share=self.engine) for _ in range(threads - 1)]
        self.params = params
        self.fresh = True  # the first search starts the table's generation

    def search(self, pos: Position, deadline: float | None, alpha: int, beta: int,
               known: Known | None = None) -> tuple[int, Move | None, int]:
        """As :meth:`PythonTree.search`."""
        from solver.endgame.treekernel import INF

        inf = INF - 2
        window = (max(alpha + 1, -inf), min(beta - 1, inf))  # proven bounds of the value
        maximising = pos.to_move in self.side.maximiser
        alpha_beta = None
        if known is not None:  # the search's window starts at the known move's bound, not below it
            alpha_beta = (window[0], window[1] + 1) if maximising else (window[0] - 1, window[1])
        engs = [self.engine, *self.helpers] if window[1] > window[0] else [self.engine]
        for e in engs:
            e.mem.history.fill(0)
        try:
            if len(engs) == 1:
                out = self.engine.run(pos.copy(), self.params(pos), deadline, window, alpha_beta, fresh=self.fresh,
                                      stop=self.side.stop)
            else:
                out = self._split(pos, deadline, window, engs, known)
        except OutOfTime as e:
            self.side.nodes += e.nodes
            raise
        finally:
            self.fresh = False
        if _no_better(maximising, out.value, known):
            return known[1], known[0], out.nodes
        return out.value, out.move, out.nodes

    def _split(self, pos: Position, deadline: float | None, window: tuple[int, int], engs: list,
               known: Known | None):
        from solver.endgame import treeengine, treesplit

        if self.fresh:
            treeengine._new_generation(self.engine.tt)
        for e in engs:
            e.st.killers.fill(-1)
        return treesplit.split_root(pos.copy(), self.params(pos), deadline, len(engs), window, stop=self.side.stop,
                                    engs=engs, known=known)
