"""The compiled game tree's Python side: an :class:`Engine` holds one
board's arrays (stack, transposition table, solo memo) and drives the
kernel (:mod:`solver.endgame.treekernel`) in slices, looking at the clock
between them; the searches the commands run (the two-player value, the
guaranteed scores, a solo optimum) with their :class:`Settings`; and the
engines kept per board."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from solver.core.position import Move, Position
from solver.endgame.gametree import OutOfTime, playing_alone
from solver.endgame.treekernel import (
    C_MODE,
    C_NODES,
    C_SOLO_NODES,
    C_VALUE,
    DONE,
    ENTER,
    INF,
    MAX_MOVES,
    MAX_OPTIONS,
    MAX_PLIES,
    OVERFLOW,
    S_BUDGET,
    SOLO_PLIES,
    Memory,
    Params,
    Solo,
    Stack,
    Table,
    _search,
)
from solver.kernels.tables import N_PIECES, PAD, Root, Tables, bonuses, root_state, tables


class Outcome(NamedTuple):
    """What a finished search proved."""

    value: int
    move: Move | None  # the best move of the colour to move (None: the game is over)
    nodes: int  # positions searched (solo searches not included)
    solo_nodes: int  # positions of the solo searches that settled colours
    depth: int  # the most plies below the root searched (where lines ended or were settled)
    seconds: float


def _stack(tb: Tables) -> Stack:
    row = tb.n_words + PAD
    D = MAX_PLIES

    def z(*shape, dtype=np.int64):
        return np.zeros(shape, dtype=dtype)

    return Stack(z(D, 4, row, dtype=np.uint64), z(D, 4, row, dtype=np.uint64), z(D, 4), z(D, 4), z(D, 4), z(D, 4),
                 z(D), z(D), z(D, dtype=np.uint64), z(D), z(D), z(D, MAX_MOVES, dtype=np.int32),
                 z(D, MAX_MOVES), z(D), z(D), z(D), z(D), z(D), z(D), z(D), z(D), z(D), z(D),
                 np.full((D, 2), -1, dtype=np.int64), z(9, row, dtype=np.uint64),
                 z(D, 4, row, dtype=np.uint64), z(D), z(D), z(D, 8), z(D, 4), z(D, 4, N_PIECES, dtype=np.int32),
                 z(D, 3), z(D, 4), z(D, 4, dtype=np.uint64), z(D))


def _table(bits: int) -> Table:
    return Table(np.zeros(1 << bits, dtype=np.uint64), np.zeros(1 << bits, dtype=np.uint64),
                 np.zeros(1, dtype=np.int64))


GENERATIONS = 1 << 14


def _new_generation(table: Table) -> None:
    """Start a new search on a table: earlier entries count as empty (the
    table is cleared once every GENERATIONS searches)."""
    g = int(table.generation[0]) + 1
    if g >= GENERATIONS:
        table.key.fill(0)
        table.data.fill(0)
        g = 1
    table.generation[0] = g


def _solo(tb: Tables, bits: int, table: Table | None = None) -> Solo:
    row = tb.n_words + PAD
    D = SOLO_PLIES + 64 * tb.n_words  # the attach-square search: a row per placement and per closed square
    u, i64 = np.uint64, np.int64
    return Solo(np.zeros((D, 1, row), dtype=u), np.zeros((D, 1, row), dtype=u), np.zeros(D, dtype=i64),
                np.zeros(D, dtype=i64), np.zeros(D, dtype=i64), np.zeros((D, 1), dtype=i64), np.zeros(D, dtype=u),
                np.zeros((SOLO_PLIES, MAX_MOVES), dtype=np.int32), np.zeros((1, row), dtype=u), np.zeros(D, dtype=i64),
                np.zeros((D, N_PIECES), dtype=np.int32), np.zeros((1, row), dtype=u),
                np.zeros((D, 6), dtype=i64), table if table is not None else _table(bits),
                np.zeros(3, dtype=i64), np.zeros((D, MAX_OPTIONS), dtype=np.int32), np.zeros((3, row), dtype=u),
                np.zeros(64 * row, dtype=i64))


class Engine:
    """The compiled engine's arrays for one board, reused from search to
    search (the solo table too: solo optima do not depend on the search).
    ``share``: another engine whose tables this one uses (a second thread
    of a parallel search; each keeps its own stack and move ordering)."""

    def __init__(self, board, table_bits: int = 20, solo_bits: int = 20, share: "Engine | None" = None):
        self.board = board
        self.tb = tables(board)
        P = self.tb.piece.shape[0]
        self.st = _stack(self.tb)
        self.tt = share.tt if share else _table(table_bits)
        self.mem = Memory(np.zeros((4, P), dtype=np.int64), np.zeros(P, dtype=np.int64), np.zeros(1, dtype=np.int64))
        self.so = _solo(self.tb, solo_bits, share.so.table if share else None)
        self.ctl = np.zeros(16, dtype=np.int64)
        self.params: Params | None = None

    def _load(self, pos: Position, alpha: int, beta: int, fresh: bool) -> None:
        """Row 0 of the stack from a position, the root window (alpha, beta);
        ``fresh``: clear the transposition table and the history."""
        r: Root = root_state(pos)
        st = self.st
        st.forbidden[0] = r.forbidden
        st.corners[0] = r.corners
        st.hand[0] = r.hand
        st.spare[0] = r.spare
        st.bonus[0] = r.bonus
        st.started[0] = r.started
        st.skip[0] = 0  # colours without a move are found on their turn (or by the outlook)
        st.gain[0] = 0
        st.reach_ok[0] = 0
        st.key[0] = r.key
        st.best_move[0] = -1  # a root the table settles gets no move (not a stale one)
        st.to_move[0] = r.to_move if pos.to_move is not None else -1
        st.last[0] = r.last
        st.alpha[0], st.beta[0] = alpha, beta
        st.killers.fill(-1)
        st.stats.fill(0)
        if fresh:
            _new_generation(self.tt)
            self.mem.history.fill(0)
        self.ctl.fill(0)
        self.ctl[C_MODE] = ENTER
        self.so.ctl[S_BUDGET] = self.params.solo_budget

    def run(self, pos: Position, params: Params, deadline: float | None,
            window: tuple[int, int] | None = None, alpha_beta: tuple[int, int] | None = None,
            fresh: bool = True, stop: threading.Event | None = None) -> Outcome:
        """Search the position to the end of the game; OutOfTime (with the
        proven bounds) when the deadline passes first. ``window``: proven
        bounds (lo, hi) of the value; ``alpha_beta``: the root's alpha-beta
        window instead (the value is exact only strictly inside it)."""
        t0 = time.perf_counter()
        lo, hi = window if window is not None else (-INF + 2, INF - 2)
        alpha, beta = alpha_beta if alpha_beta is not None else (lo - 1, hi + 1)
        self.params = params
        self._load(pos, alpha, beta, fresh)
        budget = 4096
        while True:
            start = time.perf_counter()
            status = _search(self.tb, params, self.st, self.tt, self.mem, self.so, self.ctl, budget)
            if status == DONE:
                break
            if status == OVERFLOW:
                raise RuntimeError("more legal moves than the compiled engine's buffer holds")
            if (deadline is not None and time.monotonic() > deadline) or (stop is not None and stop.is_set()):
                raise OutOfTime(self._root_bounds(pos, params, lo, hi), int(self.ctl[C_NODES]), self.depth(),
                                time.perf_counter() - t0)
            spent = time.perf_counter() - start
            budget = int(min(max(budget * (0.05 / max(spent, 1e-4)), 1024), 1 << 22))
        value = int(self.ctl[C_VALUE])
        c = pos.to_move
        # below the top (root_ply > 0) no move is wanted: the colour to move may have been settled
        # there and the turn passed on, so the row's best move can be another colour's
        wanted = c is not None and params.root_ply == 0 and self.st.best_move[0] >= 0
        move = Move(c, int(self.st.best_move[0])) if wanted else None
        return Outcome(value, move, int(self.ctl[C_NODES]), int(self.ctl[C_SOLO_NODES]), self.depth(),
                       time.perf_counter() - t0)

    def depth(self) -> int:
        """The most plies below the root the last search entered."""
        return int(np.flatnonzero(self.st.stats[:, 0])[-1])

    def _root_bounds(self, pos: Position, params: Params, lo: int, hi: int) -> tuple[int, int]:
        """What the unfinished search proved at the root: the root moves
        searched so far raise the side to move's bound."""
        if params.maximiser[pos.to_move]:
            return max(lo, int(self.st.alpha[0])), hi
        return lo, min(hi, int(self.st.beta[0]))


_KEPT: dict[tuple, list] = {}


def kept_engines(board, table_bits: int = 20, count: int = 1, shared: bool = False, kind: type | None = None) -> list:
    """``count`` engines of a board, kept from call to call (an engine's
    arrays take a while to build): with tables of their own, or
    (``shared``) all on the first one's tables. ``kind``: an Engine
    subclass (the root split's); the first engine of a kind and board is
    the same for every count."""
    kind = kind or Engine
    engines = _KEPT.setdefault((kind, board, table_bits, shared), [])
    while len(engines) < count:
        engines.append(kind(board, table_bits, share=engines[0] if shared and engines else None))
    return engines[:count]


def engine(board, table_bits: int = 20) -> Engine:
    """The kept engine of a board and table size."""
    return kept_engines(board, table_bits)[0]


@dataclass(frozen=True)
class Settings:
    """The search's switches and budgets (see :class:`~solver.endgame.treekernel.Params`
    for what each does); the presets below are the ones the commands use."""

    settle: bool = True
    pvs: bool = True
    etc_plies: int = 6
    solo_budget: int = 200_000
    tight: int = 0
    tight_budget: int = 2_000
    fit: int = 0
    tight_pieces: int = 0
    tight_ratio: int = 0
    mover: int = -1
    reach: int = 0
    order_eval: int = 0
    solo_attach: bool = True
    order_mobility: int = 0
    private: int = 0


PLAIN = Settings()  # solo optima
# fastest first on the top five rows (and at split nodes, treesplit.root_moves):
# more Duo values and winners (12 and 14 placements before the end), classic
# values (16) and four-player guaranteed scores (12) proven in the same time;
# dearer on lopsided positions near the end, through the root's order
# (benchmarks/RESULTS.md)
FASTEST_FIRST_ROWS = 5
# guaranteed scores: fastest first, and on every row what the colour makes sure
# of alone in the part of its reach the others' reaches miss, the reaches by
# chains of placements (four-player games: all four scores proven in 30 s in
# 8 of 10 against 7 at 12 placements before the end, 3.9 s against 18.8 s on
# the seven both prove, and 8 of 10 against 6 at 14; benchmarks/RESULTS.md)
GUARANTEED = Settings(order_mobility=FASTEST_FIRST_ROWS, private=MAX_PLIES, reach=N_PIECES)
# the two-player value's bounds: each one measured to take fewer positions and
# CPU seconds than without (benchmarks/RESULTS.md): the solo bounds and fit on
# sample-2p at move 52 and 12 placements before the end of
# benchmarks/endgame.py's games; the mover's bound 9.9 -> 8.0 CPU s on
# sample-2p; reaches by chains of placements 1.3-2x less CPU time to most
# proofs 12 and 16 placements before the end
TWO_PLAYER = Settings(fit=1, tight=MAX_PLIES, tight_budget=2_000, tight_pieces=5, mover=1, reach=N_PIECES,
                      order_mobility=FASTEST_FIRST_ROWS)


def params(pos: Position, weight, maximiser, settings: Settings = PLAIN) -> Params:
    """The parameters of a search from ``pos`` (see :class:`Params`)."""
    s = settings
    all_placed, mono_last = bonuses(pos)
    return Params(np.array(weight, dtype=np.int64), np.array(maximiser, dtype=np.int64), int(s.settle), int(s.pvs),
                  s.etc_plies, s.solo_budget, all_placed, mono_last, 0, s.tight, s.tight_budget, int(s.fit),
                  s.tight_pieces, s.tight_ratio, s.mover, s.reach, s.order_eval, int(s.solo_attach),
                  s.order_mobility, private=s.private)


TWO_PLAYER_WEIGHT = (1, -1, 1, -1)  # seat 1 (colours 0 and 2) minus seat 2


def two_player_params(pos: Position, settings: Settings = PLAIN) -> Params:
    """A search for the two-player value: seat 1 minus seat 2, seat 1 maximising."""
    return params(pos, TWO_PLAYER_WEIGHT, (1, 0, 1, 0), settings)


def guaranteed_params(pos: Position, color: int, settings: Settings = GUARANTEED) -> Params:
    """A search for the score ``color`` guarantees: it maximises, the others minimise."""
    weight = tuple(1 if c == color else 0 for c in range(4))
    return params(pos, weight, weight, settings)


def _final_value(pos: Position, weight) -> int:
    return sum(w * pos.score(c) for c, w in enumerate(weight))


def solve_two_player(pos: Position, deadline: float | None, window: tuple[int, int] | None = None,
                     settings: Settings = TWO_PLAYER, table_bits: int = 20,
                     stop: threading.Event | None = None) -> Outcome:
    """The two-player value (seat 1 minus seat 2 under best play) with its
    best move and the search's figures; raises OutOfTime (with the bounds
    proven so far) when the deadline passes or ``stop`` is set first.
    ``window``: proven bounds on the value, if known."""
    if pos.game_over:
        return Outcome(_final_value(pos, TWO_PLAYER_WEIGHT), None, 1, 0, 0, 0.0)
    return engine(pos.board, table_bits).run(pos, two_player_params(pos, settings), deadline, window, stop=stop)


def solve_guaranteed(pos: Position, color: int, deadline: float | None, settings: Settings = GUARANTEED,
                     table_bits: int = 20, eng: Engine | None = None, stop: threading.Event | None = None) -> Outcome:
    """The score ``color`` can guarantee whatever the others do (they
    minimise it), the best move of the colour to move, and the search's
    figures; raises OutOfTime. ``eng``: the engine to search with (the
    board's own by default)."""
    if pos.game_over:
        return Outcome(pos.score(color), None, 1, 0, 0, 0.0)
    eng = eng or engine(pos.board, table_bits)
    return eng.run(pos, guaranteed_params(pos, color, settings), deadline, stop=stop)


def settling_solo(pos: Position, color: int, attach: bool = True, budget: int = 200_000,
                  table_bits: int = 14) -> tuple[int | None, int]:
    """(the solo optimum of ``color`` from ``pos`` inside its reach, or None
    when the search gave up after ``budget`` positions; the positions it
    took), as the tree's settling computes it: by the attach-square search
    (``attach``) or the move-by-move one. The colour must have pieces in
    hand; the memo starts empty."""
    from solver.endgame.treekernel import S_ABORT, S_NODES, _reach, _solo_root, _solo_search

    eng = engine(pos.board, table_bits)
    p = params(pos, tuple(int(c == color) for c in range(4)), tuple(int(c == color) for c in range(4)),
               Settings(solo_attach=attach))
    eng.params = p
    eng._load(pos, -INF, INF, True)
    so = eng.so
    so.table.key.fill(0)
    so.table.data.fill(0)
    _reach(eng.tb, p, eng.st, 0, color)
    _solo_root(eng.tb, p, eng.st, so, 0, color)
    so.ctl[S_NODES] = so.ctl[S_ABORT] = 0
    so.ctl[S_BUDGET] = budget
    value = _solo_search(eng.tb, p, so, eng.mem, color, -INF, int(attach))
    return (None if so.ctl[S_ABORT] else int(value)), int(so.ctl[S_NODES])


def solo_optimum(pos: Position, color: int, deadline: float | None, table_bits: int = 18
                 ) -> tuple[int, list[Move], int]:
    """As :func:`solver.endgame.gametree.solo_optimum` (the colour playing
    alone: for Junior, whose pieces come twice), by this engine: (value,
    the moves reaching it, positions); raises OutOfTime. The line follows
    the best moves of searches from each position on it (table hits)."""
    alone = playing_alone(pos, color)
    eng = engine(alone.board, table_bits)
    p = guaranteed_params(alone, color)
    out = eng.run(alone.copy(), p, deadline)
    value, nodes, line = out.value, out.nodes, []
    while out.move is not None:
        line.append(out.move)
        alone.push(out.move)
        if alone.game_over:
            break
        out = eng.run(alone.copy(), p, deadline, fresh=False)
        nodes += out.nodes
    return value, line, nodes


def two_player_value(pos: Position, deadline: float | None, window: tuple[int, int] | None = None,
                     settings: Settings = TWO_PLAYER, table_bits: int = 20) -> tuple[int, Move | None, int]:
    """(seat 1 minus seat 2 under best play, best move, nodes), as
    :func:`solver.endgame.gametree.two_player_value`; raises OutOfTime
    (with the bounds proven so far)."""
    out = solve_two_player(pos, deadline, window, settings, table_bits)
    return out.value, out.move, out.nodes


def guaranteed_score(pos: Position, color: int, deadline: float | None, settings: Settings = PLAIN,
                     table_bits: int = 20) -> tuple[int, Move | None, int]:
    """(the score ``color`` can guarantee whatever the others do, the best
    move of the colour to move, nodes), as
    :func:`solver.endgame.gametree.guaranteed_score`; raises OutOfTime."""
    out = solve_guaranteed(pos, color, deadline, settings, table_bits)
    return out.value, out.move, out.nodes
