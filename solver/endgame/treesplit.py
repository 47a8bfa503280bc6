"""Root splitting for the compiled game tree: the
root's moves shared out between threads, each with an engine of its own
(its stack, move ordering and killer moves) on one transposition table
and solo table (``share=False``: tables of their own too, which costs
positions). Unlike lazy SMP (every thread searching the whole tree,
which lost), each root move is searched by one thread.

Each thread takes the next root move (in the kernel's own order at a
fresh root, :func:`root_moves`) and searches the position after it.
Once some move's value is known, the others only need a null-window test
against the best so far ("is this move better?"), re-searched for its
exact value when it is, as the kernel's PVS does below the root. A move
started before any value was known (the first move of each thread) is
searched with the whole window; when another thread raises the best
value, a search whose window it makes stale stops between kernel calls
and starts again with the new bound, on the same table, so what it
proved so far is not lost (table entries are bounds valid in any window).
``blokus analyze`` computes two-player values this way, on a thread per
core or as many as its ``--threads`` asks for (benchmarks/RESULTS.md).

Four-player guaranteed scores (:func:`solve_guaranteed_all`) are searched
a colour per thread, and a thread left with no colour takes over half of
a colour still searched, as a root split on that search's table.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from solver.core.position import Move, Position
from solver.endgame import treeengine as te
from solver.endgame import treekernel as tk
from solver.endgame.gametree import EitherSet
from solver.endgame.winnerfirst import winner_then_value


def below(params: tk.Params) -> tk.Params:
    """The parameters of a search from a child of ``params``' root: one
    ply further down the tree, so the child is settled and bounded, and its
    moves ordered, as the single search's row below the root would be (a
    child searched as a root of its own, with the root's parameters, proved
    the test "value >= 1" of a Duo position 14 placements before the end
    in more than 30 s instead of 7.6, benchmarks/RESULTS.md)."""
    return params._replace(root_ply=params.root_ply + 1)


def prefers(maximising: bool, v: int, than: int | None) -> bool:
    """Whether the side to move (maximising or not) prefers value v to ``than``."""
    return than is None or (v > than if maximising else v < than)


def decides(maximising: bool, v: int, t: int) -> bool:
    """Whether a root move's fail-soft answer v to "value >= t?" decides
    the root's test: v >= t at a maximising root, v < t at a minimising one."""
    return (v >= t) == maximising


def child_window(lo: int, hi: int, maximising: bool, bound: int | None, test: bool) -> tuple[int, int]:
    """A root move's alpha-beta window, the root's value proven in (lo, hi):
    all of it while no move has a value; else the null window "better than
    bound?" (``test``) or the window above (below, for the minimiser) the
    bound."""
    if bound is None:
        return lo - 1, hi + 1
    if maximising:
        return (bound, bound + 1) if test else (bound, hi + 1)
    return (bound - 1, bound) if test else (lo - 1, bound)


def move_bounds(maximising: bool, lo: int, hi: int) -> tuple[int, int]:
    """The proven bounds of a move's value, the value of the position it
    is played in proven in (lo, hi): a move is worth no more than the best
    one (no less, where the side to move minimises); on the other side
    nothing is proven (a move can be worse than the position)."""
    inf = tk.INF - 2
    return (-inf, hi) if maximising else (lo, inf)


@dataclass
class _Root:
    """What the threads share: the root moves not yet taken, the best
    value and move so far, the figures, and per thread an event set when
    its window went stale."""

    pos: Position
    params: tk.Params
    lo: int  # proven bounds of the value
    hi: int
    maximising: bool
    moves: list[Move]
    deadline: float | None
    lock: threading.Lock = field(default_factory=threading.Lock)
    taken: int = 0
    best: int | None = None
    best_move: Move | None = None
    best_rank: int = 0
    nodes: int = 0
    solo_nodes: int = 0
    depth: int = 0
    stale: list[threading.Event] = field(default_factory=list)
    error: BaseException | None = None

    def better(self, v: int, than: int | None) -> bool:
        return prefers(self.maximising, v, than)

    def window(self, bound: int | None, test: bool) -> tuple[int, int]:
        return child_window(self.lo, self.hi, self.maximising, bound, test)

    def record(self, out: te.Outcome | te.OutOfTime, k: int, rank: int, move: Move, value: int | None) -> None:
        """Add a child search's figures; a new best value marks the other threads' windows stale."""
        with self.lock:
            self.nodes += out.nodes
            self.solo_nodes += getattr(out, "solo_nodes", 0)
            self.depth = max(self.depth, out.depth + 1)
            if value is None:
                return
            if self.better(value, self.best) or (value == self.best and rank < self.best_rank):
                if value != self.best:
                    for j, e in enumerate(self.stale):
                        if j != k:
                            e.set()
                self.best, self.best_move, self.best_rank = value, move, rank

    def solved(self) -> bool:
        """The best value reaches the proven bound: no move can beat it."""
        return self.best is not None and self.best == (self.hi if self.maximising else self.lo)


def _search_move(root: _Root, eng: te.Engine, k: int, rank: int, move: Move) -> None:
    """The value of one root move, or only that it is no better than the
    best so far; restarted when another thread raises the best."""
    child = root.pos.copy()
    child.push(move)
    stale = root.stale[k]
    test = True
    while True:
        with root.lock:
            bound = root.best
            stale.clear()
        if root.solved() or root.error is not None:
            return
        a, b = root.window(bound, test)
        try:
            out = eng.run(child.copy(), below(root.params), root.deadline, alpha_beta=(a, b), fresh=False, stop=stale)
        except te.OutOfTime as e:
            root.record(e, k, rank, move, None)
            if root.deadline is not None and time.monotonic() > root.deadline:
                raise
            continue  # stale: the best rose meanwhile
        v = out.value
        if bound is not None and test and root.better(v, bound):
            root.record(out, k, rank, move, None)
            test = False  # better than the best so far: its exact value
            continue
        root.record(out, k, rank, move, v if a < v < b or bound is None else None)
        return


def _worker(root: _Root, eng: te.Engine, k: int) -> None:
    """Thread k: take the next root move until none is left; an error
    (the deadline too) stops the others and is raised by the caller."""
    try:
        while root.error is None:
            with root.lock:
                if root.taken >= len(root.moves) or root.solved():
                    return
                rank = root.taken
                root.taken += 1
            _search_move(root, eng, k, rank, root.moves[rank])
    except BaseException as e:  # raised in the caller's thread
        root.error = e
        for ev in root.stale:
            ev.set()


class _Engine(te.Engine):
    """An engine whose killer moves are kept from one root move's search
    to the next (each starts at the same ply below the root)."""

    def _load(self, pos: Position, alpha: int, beta: int, fresh: bool) -> None:
        killers = self.st.killers.copy()
        super()._load(pos, alpha, beta, fresh)
        self.st.killers[:] = killers


_ENGINES: dict = {}


def engines(board, table_bits: int, workers: int, share: bool) -> list[te.Engine]:
    """``workers`` engines of a board (kept): sharing the first one's tables, or with tables of their own."""
    engs = _ENGINES.setdefault((board, table_bits, share), [])
    while len(engs) < workers:
        engs.append(_Engine(board, table_bits, share=engs[0] if share and engs else None))
    return engs[:workers]


def root_moves(pos: Position, params: tk.Params, first: Move | None = None) -> list[Move]:
    """The moves of a split node in the kernel's order at a fresh root:
    bigger pieces first, or, where ``params`` orders by fastest first at
    the node's ply (Params.order_mobility), the moves that leave the next
    colour of the other side the fewest legal moves first, bigger pieces
    among equals; ``first`` (a legal move) before them all."""
    moves = pos.legal_moves()
    size = [len(pos.table.squares[m.placement]) for m in moves]
    other = _other_side(pos, params) if 0 < params.order_mobility and params.root_ply <= params.order_mobility else None
    if other is None:
        key = [-s for s in size]
    else:
        key = []
        for m, s in zip(moves, size):
            pos.push(m)
            key.append((len(pos.legal_placements(other)), -s))
            pos.pop()
    ordered = [moves[i] for i in sorted(range(len(moves)), key=key.__getitem__)]
    if first in ordered:
        ordered.remove(first)
        ordered.insert(0, first)
    return ordered


def _other_side(pos: Position, params: tk.Params) -> int | None:
    """The first colour after the one to move, in rotation, on the other
    side (the other way to maximise) that still has a legal move: the
    kernel's ``treekernel._other_side`` on a Position."""
    c = pos.to_move
    for i in range(1, 4):
        o = (c + i) % 4
        if params.maximiser[o] != params.maximiser[c] and pos.has_legal_move(o):
            return o
    return None


class _Figures:
    """The positions searched by all the phases of one split search, and
    the best value of a root move found (a bound of the root's value when
    the search stops early)."""

    def __init__(self) -> None:
        self.nodes = self.solo_nodes = self.depth = 0
        self.root_best: int | None = None

    def add(self, root: _Root, plies: int) -> None:
        self.nodes += root.nodes
        self.solo_nodes += root.solo_nodes
        self.depth = max(self.depth, root.depth + plies)


def _split(pos: Position, params: tk.Params, engs: list[te.Engine], lo: int, hi: int, deadline: float | None,
           plies: int, figures: _Figures, depth: int = 0, stop: threading.Event | None = None,
           first: Move | None = None, known: tuple[Move, int] | None = None) -> tuple[int, Move]:
    """(value, best move) of ``pos`` (``depth`` plies below the top, its
    parameters ``params``) within (lo, hi): with ``plies`` > 1 its first
    move's value first (split the same way, one ply less: the principal
    variation is split all the way down), then its other moves tested
    against it on every thread; ``stop`` set ends the threads (OutOfTime)
    as the deadline does; ``first``: a move searched before the others;
    ``known``: a move and the value it is proven to reach, taken as the
    first move's value (the others are tested against it at once)."""
    moves = root_moves(pos, params, known[0] if known is not None else first)
    root = _Root(pos, params, lo, hi, bool(params.maximiser[pos.to_move]), moves, deadline)
    root.stale = [threading.Event() for _ in engs]
    child = pos.copy()
    child.push(moves[0])
    if known is not None:
        if moves[0] != known[0]:
            raise ValueError(f"the known move {known[0]} is not legal here")
        root.best, root.best_move, root.taken = known[1], known[0], 1
    elif plies > 1 and not child.game_over:
        root.best, _ = _split(child, below(params), engs, *move_bounds(root.maximising, lo, hi), deadline, plies - 1,
                              figures, depth + 1, stop)
        root.best_move, root.taken = moves[0], 1
    threads = [threading.Thread(target=_worker, args=(root, e, k)) for k, e in enumerate(engs)]
    for th in threads:
        th.start()
    for th in threads:
        while th.is_alive():
            th.join(0.05)
            if stop is not None and stop.is_set() and root.error is None:
                root.error = te.OutOfTime((lo, hi), 0, 0, 0.0)
                for ev in root.stale:  # the kernels stop at their next look
                    ev.set()
    figures.add(root, depth)
    if depth == 0:
        figures.root_best = root.best
    if root.error is not None:
        raise root.error
    return root.best, root.best_move


def split_root(pos: Position, params: tk.Params, deadline: float | None, workers: int = 2,
               window: tuple[int, int] | None = None, table_bits: int = 20, share: bool = True,
               plies: int = 1, stop: threading.Event | None = None,
               engs: list[te.Engine] | None = None, first: Move | None = None,
               known: tuple[Move, int] | None = None) -> te.Outcome:
    """The value and best move of ``pos`` (the game not over), its moves
    searched on ``workers`` threads (``share``: one table for all; else an
    engine with tables of its own each), the first move's value first
    split the same way ``plies`` - 1 plies deeper; raises OutOfTime with
    the bounds proven when the deadline passes first. ``engs``: engines
    on one table that already holds this search's entries (a search taken
    over half way: its table, history and killers are kept). ``first``: a
    move to search before the others (one that decided a winner's test).
    ``known``: a root move proven to reach the window's bound on the side
    to move's side (lo when it maximises, hi otherwise): the other moves
    are only tested against it, and it is the answer when none is better."""
    t0 = time.perf_counter()
    lo, hi = window if window is not None else (-tk.INF + 2, tk.INF - 2)
    engs = engs or fresh_engines(pos.board, table_bits, workers, share)
    figures = _Figures()
    try:
        value, move = _split(pos, params, engs, lo, hi, deadline, plies, figures, stop=stop, first=first,
                             known=known)
    except te.OutOfTime:
        best = figures.root_best  # a root move's value bounds the side to move's side of the root
        if best is not None:
            lo, hi = (max(lo, best), hi) if params.maximiser[pos.to_move] else (lo, min(hi, best))
        raise te.OutOfTime((lo, hi), figures.nodes, figures.depth, time.perf_counter() - t0) from None
    return te.Outcome(value, move, figures.nodes, figures.solo_nodes, figures.depth, time.perf_counter() - t0)


def fresh_engines(board, table_bits: int, workers: int, share: bool) -> list[te.Engine]:
    """:func:`engines` ready for a new search: a new table generation,
    no history or killer moves."""
    engs = engines(board, table_bits, workers, share)
    for e in engs[: 1 if share else workers]:
        te._new_generation(e.tt)
    for e in engs:
        e.mem.history.fill(0)
        e.st.killers.fill(-1)
    return engs


@dataclass
class _Test:
    """What the threads of a null-window test share."""

    moves: list[Move]
    lock: threading.Lock = field(default_factory=threading.Lock)
    taken: int = 0
    cut: int | None = None  # a move's value that decides the test
    cut_move: Move | None = None
    fail: int | None = None  # the best of the values that did not
    nodes: int = 0
    solo_nodes: int = 0
    depth: int = 0
    done: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None


def null_window(pos: Position, params: tk.Params, deadline: float | None, t: int, engs: list[te.Engine],
                stop: threading.Event | None = None) -> te.Outcome:
    """Whether the value of ``pos`` (the game not over) is at least ``t``,
    its moves tested on the threads of ``engs`` (one table, kept: a search
    after this one finds its entries). The Outcome's value is fail-soft: v
    >= t proves the value is at least v, v < t that it is at most v; its
    move is the move that proved v >= t at a maximising root (v < t at a
    minimising one), else None. The first move that decides the test stops
    the others; raises OutOfTime (nothing proven) when the deadline passes
    or ``stop`` is set first."""
    t0 = time.perf_counter()
    maximising = bool(params.maximiser[pos.to_move])
    test = _Test(root_moves(pos, params))
    halt = EitherSet(stop, test.done)

    def worker(eng: te.Engine) -> None:
        try:
            while not test.done.is_set():
                with test.lock:
                    if test.taken >= len(test.moves):
                        return
                    move = test.moves[test.taken]
                    test.taken += 1
                child = pos.copy()
                child.push(move)
                try:
                    out = eng.run(child, below(params), deadline, alpha_beta=(t - 1, t), fresh=False, stop=halt)
                except te.OutOfTime as e:
                    with test.lock:
                        test.nodes += e.nodes
                    if test.done.is_set() and test.error is None:
                        return  # another move decided the test
                    raise
                with test.lock:
                    test.nodes += out.nodes
                    test.solo_nodes += out.solo_nodes
                    test.depth = max(test.depth, out.depth + 1)
                    if decides(maximising, out.value, t):
                        if test.cut is None:
                            test.cut, test.cut_move = out.value, move
                            test.done.set()
                    elif test.fail is None or prefers(maximising, out.value, test.fail):
                        test.fail = out.value
        except BaseException as e:  # raised in the caller's thread
            with test.lock:
                test.error = test.error or e
                test.done.set()

    threads = [threading.Thread(target=worker, args=(e,)) for e in engs]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    seconds = time.perf_counter() - t0
    if test.cut is not None:
        return te.Outcome(test.cut, test.cut_move, test.nodes, test.solo_nodes, test.depth, seconds)
    if test.error is not None:
        if isinstance(test.error, te.OutOfTime):
            raise te.OutOfTime(None, test.nodes, test.depth, seconds) from None
        raise test.error
    return te.Outcome(test.fail, None, test.nodes, test.solo_nodes, test.depth, seconds)


def solve_two_player(pos: Position, deadline: float | None, window: tuple[int, int] | None = None,
                     workers: int = 2, table_bits: int = 20, share: bool = True, plies: int = 1,
                     stop: threading.Event | None = None, settings: te.Settings = te.TWO_PLAYER,
                     winner_first: bool = False) -> te.Outcome:
    """:func:`treeengine.solve_two_player` with the root split between
    ``workers`` threads; ``winner_first``: the winner proven first
    (:mod:`solver.endgame.winnerfirst`), on one table (``share`` ignored)."""
    if pos.game_over:
        return te.solve_two_player(pos, deadline, window, settings, table_bits=table_bits)
    p = te.two_player_params(pos, settings)
    if not winner_first:
        return split_root(pos, p, deadline, workers, window, table_bits, share, plies, stop)
    engs = fresh_engines(pos.board, table_bits, workers, True)
    return winner_then_value(lambda t, until: null_window(pos, p, until, t, engs, stop),
                             lambda w, until, first: split_root(pos, p, until, workers, w, table_bits, plies=plies,
                                                                stop=stop, engs=engs, first=first),
                             window or (-tk.INF + 2, tk.INF - 2), deadline)


# -- four-player guaranteed scores -----------------------------------------------------
@dataclass
class _Colour:
    """A colour being searched: its thread's engine, and the event a thread
    with nothing left to do sets to take over half of the search."""

    engine: te.Engine
    join: threading.Event = field(default_factory=threading.Event)
    asked: bool = False


_HELPERS: dict[int, te.Engine] = {}


def _helper(owner: te.Engine) -> te.Engine:
    """An engine on ``owner``'s tables (kept), for a second thread of its search."""
    key = id(owner)
    if key not in _HELPERS:
        _HELPERS[key] = _Engine(owner.board, int(owner.tt.key.shape[0]).bit_length() - 1, share=owner)
    return _HELPERS[key]


def solve_guaranteed_all(pos: Position, colors, deadline: float | None, workers: int = 2, table_bits: int = 20,
                         stop: threading.Event | None = None, join: bool = True,
                         settings: te.Settings = te.GUARANTEED) -> dict[int, te.Outcome | te.OutOfTime]:
    """The guaranteed scores of several colours, searched on ``workers``
    threads at once (two per colour at most), an engine with tables of its
    own each, in the order given; a thread that finds no colour left
    (``join``) takes over half of a colour still searched by one thread:
    that search stops at its next look at the clock and goes on as a root
    split between the two threads (:func:`split_root`) on the table it
    filled, with the bounds it proved.
    ``settings``: the searches' (treeengine.GUARANTEED by default).
    One colour often takes most of the time (benchmarks/RESULTS.md), so
    without joining the other core would idle. A colour not proven by the
    deadline (or before ``stop`` is set) maps to its OutOfTime; any other
    error of a search is raised here."""
    # a thread beyond the colours joins one at once (and a colour takes two threads at most)
    n = max(1, min(workers, 2 * len(colors)) if join else min(workers, len(colors)))
    engs = te.kept_engines(pos.board, table_bits, n, kind=_Engine)
    todo = list(colors)
    lock = threading.Lock()
    running: dict[int, _Colour] = {}
    results: dict = {}
    errors: list[BaseException] = []

    def search(c: int, slot: _Colour) -> te.Outcome | te.OutOfTime:
        eng = slot.engine
        if pos.game_over:
            return te.solve_guaranteed(pos, c, deadline)
        p = te.guaranteed_params(pos, c, settings)
        eng.st.killers.fill(-1)  # a fresh search (this kind of engine keeps them from load to load)
        try:
            return eng.run(pos.copy(), p, deadline, stop=EitherSet(stop, slot.join))
        except te.OutOfTime as e:
            gone = (stop is not None and stop.is_set()) or (deadline is not None and time.monotonic() > deadline)
            if gone or not slot.join.is_set():
                return e
            first = e
        try:
            out = split_root(pos, p, deadline, 2, first.bounds, stop=stop, engs=[eng, _helper(eng)])
        except te.OutOfTime as e:
            e.nodes += first.nodes
            return e
        return out._replace(nodes=out.nodes + first.nodes, seconds=out.seconds + first.seconds)

    def worker(eng: te.Engine) -> None:
        while True:
            with lock:
                if errors:
                    return
                if not todo:
                    if join:
                        for slot in running.values():
                            if not slot.asked:
                                slot.asked = True
                                slot.join.set()
                                break
                    return
                c = todo.pop(0)
                slot = running[c] = _Colour(eng)
            try:
                results[c] = search(c, slot)
            except BaseException as e:  # raised in the caller's thread below
                errors.append(e)
            with lock:
                del running[c]

    threads = [threading.Thread(target=worker, args=(e,)) for e in engs]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    if errors:
        raise errors[0]
    return {c: results[c] for c in colors}
