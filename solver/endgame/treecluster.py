"""The two-player value's tree split over a Dask cluster: the root's
moves (and, with ``plies`` > 1, the moves of the first move's position,
down the principal variation) become tasks that worker processes search
with the compiled engine, each worker with a transposition table of its
own, kept from task to task of one search.

The schedule is the root split's (:mod:`solver.endgame.treesplit`), with
processes instead of threads: the first move's value first (the young
brothers wait), then every other move as a null-window test "is it better
than the best so far?", re-searched on the same worker for its exact value
when it is. The best value so far lives in a Dask ``Variable`` per split
node; a task looks at it between kernel slices (every fifth of a second
at most) and, when it has risen, starts its test again against the new
bound on the same table, so what it proved is not lost. The caller's stop
(Ctrl-C) travels the same way. Each task reports its seconds and positions
per phase (:class:`TaskRecord`), from which ``benchmarks/tree_cluster.py``
simulates the schedule on more workers.

Positions travel as what rebuilds them (variant, set-up, moves), not as
pickled placement tables.
"""

from __future__ import annotations

import queue
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import NamedTuple

from solver.core.placements import Placement
from solver.core.position import Move, Position
from solver.core.variants import Variant
from solver.endgame import treeengine as te
from solver.endgame import treekernel as tk
from solver.endgame.treesplit import child_window, decides, move_bounds, prefers, root_moves
from solver.endgame.winnerfirst import winner_then_value

LOOK_EVERY = 0.2  # seconds between a task's looks at its node's best value


@dataclass(frozen=True)
class TreeCluster:
    """Where a search's tree is split: a new LocalCluster of ``workers``
    processes, or the cluster of the scheduler at ``scheduler``; ``plies``
    of the principal variation split."""

    workers: int = 2
    scheduler: str | None = None
    plies: int = 2


class Snapshot(NamedTuple):
    """What rebuilds a position in another process: the hands before any
    piece was put on the board (a position may start from hands of its
    own), the set-up pieces and the moves played."""

    variant: Variant
    hand: tuple[int, ...]
    spare: tuple[int, ...]
    setup: tuple[tuple[Placement, ...], ...]
    to_move: int | None
    history: tuple[Move, ...]

    @classmethod
    def of(cls, pos: Position) -> "Snapshot":
        hand, spare = list(pos.hand), list(pos.spare)
        given = [(c, p) for c, ps in enumerate(pos.initial_setup) for p in ps]
        for c, p in reversed(given + list(pos.history)):  # each piece back in its hand, as Position._take undone
            bit = 1 << pos.table.piece[p]
            if hand[c] & bit:
                spare[c] |= bit
            else:
                hand[c] |= bit
        return cls(pos.variant, tuple(hand), tuple(spare), tuple(tuple(ps) for ps in pos.initial_setup),
                   pos.initial_to_move, tuple(pos.history))

    def position(self) -> Position:
        pos = Position(self.variant)
        pos.hand, pos.spare = list(self.hand), list(self.spare)
        pos.setup({c: list(ps) for c, ps in enumerate(self.setup) if ps}, self.to_move)
        for m in self.history:
            pos.push(m)
        return pos


@dataclass(frozen=True)
class Job:
    """One task: the value of ``path[-1]``'s position below the root
    (``test``: only whether it beats the node's best, re-searched exactly
    when it does), read against the Variable ``best_name``."""

    root: Snapshot
    path: tuple[Move, ...]  # the moves from the root to the child searched
    lo: int  # proven bounds of the split node's value
    hi: int
    maximising: bool  # the split node's side to move maximises
    test: bool
    best_name: str
    search: str  # one id per split search: a worker starts a new table generation when it changes
    seconds: float  # left for the whole search when the task was made
    table_bits: int
    alpha_beta: tuple[int, int] | None = None  # a null-window test's fixed window instead (test and bounds unused)


@dataclass(frozen=True)
class TaskRecord:
    """What one task did: per phase (test, then re-search) its seconds and
    positions, and whether the move beat the best it was tested against."""

    path: tuple[Move, ...]
    test: bool
    phases: tuple[tuple[str, float, int], ...]  # (test / value / re-search, seconds, positions)
    value: int | None  # exact value of the child (None: no better than the bound)
    bound: int | None  # the best it was last tested against
    depth: int = 0  # the most plies below the child searched
    worker: str = ""
    finished: bool = True  # False: its time ran out, or the caller stopped it

    @property
    def seconds(self) -> float:
        return sum(s for _, s, _ in self.phases)

    @property
    def nodes(self) -> int:
        return sum(n for _, _, n in self.phases)


@dataclass
class Split:
    """A finished split search: its outcome and every task's record."""

    outcome: te.Outcome
    tasks: list[TaskRecord] = field(default_factory=list)


# -- on a worker -------------------------------------------------------------------
_WORKER: dict = {"search": None}


class _Watch:
    """The engine's ``stop``: set once the node's best moved past ``bound``
    (the window went stale) or the caller stopped; asks the Variable at most
    every LOOK_EVERY seconds."""

    def __init__(self, variable, maximising: bool):
        self.variable, self.maximising = variable, maximising
        self.bound: int | None = None
        self.stopped = False
        self.best: int | None = None
        self.next_look = time.monotonic() + LOOK_EVERY

    def read(self) -> int | None:
        best, stopped = self.variable.get(timeout=10)
        self.stopped = self.stopped or stopped
        return best

    def is_set(self) -> bool:
        now = time.monotonic()
        if now < self.next_look:
            return False
        self.next_look = now + LOOK_EVERY
        best = self.read()
        if self.bound is not None and best is not None and prefers(self.maximising, best, self.bound):
            self.best = best
            return True
        return self.stopped


def search_child(job: Job) -> TaskRecord:
    """Run on a worker: the task's value (see :class:`Job`); a record not
    ``finished`` when its time runs out or the caller stopped it."""
    from distributed import Variable

    deadline = time.monotonic() + job.seconds
    eng = te.kept_engines(job.root.variant.board, job.table_bits)[0]
    if _WORKER["search"] != job.search:  # the first task of a search here: a new table generation
        root = job.root.position()
        _WORKER.update(search=job.search, root=root, params=te.two_player_params(root, te.TWO_PLAYER), variables={})
        te._new_generation(eng.tt)
        eng.mem.history.fill(0)
    params = _WORKER["params"]._replace(root_ply=len(job.path))  # as treesplit.below, once per ply
    child = _WORKER["root"].copy()
    for m in job.path:
        child.push(m)
    variables = _WORKER["variables"]
    variable = variables.get(job.best_name) or variables.setdefault(job.best_name, Variable(job.best_name))
    phases: list[tuple[str, float, int]] = []
    depth = 0
    test = job.test
    watch = _Watch(variable, job.maximising)
    bound = watch.read() if test else None

    def unfinished() -> TaskRecord:
        return TaskRecord(job.path, job.test, tuple(phases), None, bound, depth, _worker_name(), False)

    while True:
        if watch.stopped:
            return unfinished()
        watch.bound = bound
        a, b = job.alpha_beta or child_window(job.lo, job.hi, job.maximising, bound, test)
        name = "test" if test else ("re-search" if bound is not None else "value")
        t0 = time.perf_counter()
        try:
            if child.game_over:
                out = te.solve_two_player(child.copy(), None)
            else:
                out = eng.run(child.copy(), params, deadline, alpha_beta=(a, b), fresh=False, stop=watch)
        except te.OutOfTime as e:
            phases.append((name, time.perf_counter() - t0, e.nodes))
            if time.monotonic() > deadline or watch.stopped:
                return unfinished()
            bound = watch.best  # stale: the best rose meanwhile
            continue
        phases.append((name, time.perf_counter() - t0, out.nodes))
        depth = max(depth, out.depth)
        v = out.value
        if test and bound is not None and prefers(job.maximising, v, bound):
            test = False  # better than the best so far: its exact value
            continue
        exact = bound is None or a < v < b
        return TaskRecord(job.path, job.test, tuple(phases), v if exact else None, bound, depth,
                          _worker_name())


def _worker_name() -> str:
    from distributed import get_worker

    try:
        return get_worker().address
    except ValueError:
        return ""


# -- the caller --------------------------------------------------------------------
class _Search:
    """One split search's shared state on the caller's side."""

    def __init__(self, client, pos: Position, params: tk.Params, deadline: float | None, table_bits: int,
                 stop: threading.Event | None):
        self.client, self.params, self.deadline = client, params, deadline
        self.root = Snapshot.of(pos)
        self.table_bits, self.stop = table_bits, stop
        self.id = uuid.uuid4().hex
        self.records: list[TaskRecord] = []
        self.variables: list = []
        self.root_best: int | None = None  # the best root move's value so far

    def seconds_left(self, deadline: float | None = None) -> float:
        """Until ``deadline`` (a part of the search's time), or the search's own."""
        deadline = self.deadline if deadline is None else deadline
        if deadline is None:
            return 1e9
        return deadline - time.monotonic()

    def out_of_time(self, deadline: float | None = None) -> bool:
        return self.seconds_left(deadline) < 0 or (self.stop is not None and self.stop.is_set())

    def node(self, path: tuple[Move, ...], pos: Position, lo: int, hi: int, plies: int,
             first: Move | None = None) -> tuple[int, Move]:
        """(value, best move) of the position ``path`` leads to, within (lo, hi);
        ``first``: a move searched before the others."""
        from distributed import Variable

        maximising = bool(self.params.maximiser[pos.to_move])
        moves = root_moves(pos, self.params._replace(root_ply=len(path)), first)
        variable = Variable(f"blokus-tree-{self.id}-{len(self.variables)}", client=self.client)
        self.variables.append(variable)
        best: int | None = None
        best_move: Move | None = None
        first = pos.copy()
        first.push(moves[0])
        start = 0
        if plies > 1 and not first.game_over:
            best, _ = self.node(path + (moves[0],), first, *move_bounds(maximising, lo, hi), plies - 1)
            best_move, start = moves[0], 1
        variable.set((best, False))

        def job(move: Move, test: bool) -> Job:
            return Job(self.root, path + (move,), lo, hi, maximising, test, variable.name, self.id,
                       max(self.seconds_left(), 1e-3), self.table_bits)

        def submit(rank: int, test: bool):
            return self.client.submit(search_child, job(moves[rank], test), pure=False, priority=-rank,
                                      key=f"tree-{self.id}-{'-'.join(str(m.placement) for m in path)}-{rank}")

        def solved() -> bool:
            return best is not None and best == (hi if maximising else lo)

        if best is None:  # the first move's value, alone: the others are tested against it
            rec = self._result(submit(0, False))
            best, best_move, start = rec.value, moves[0], 1
            variable.set((best, False))
        if not path:
            self.root_best = best
        rank_of = {}
        for rank in range(start, len(moves)):
            rank_of[submit(rank, True)] = rank
        try:
            for future in self._completed(list(rank_of)):
                rank = rank_of.pop(future)
                rec = self._result(future)
                if rec.value is not None and (prefers(maximising, rec.value, best) or
                                              (rec.value == best and rank < moves.index(best_move))):
                    best, best_move = rec.value, moves[rank]
                    variable.set((best, False))
                    if not path:
                        self.root_best = best
                if solved():
                    break
        finally:
            for future in rank_of:
                future.cancel()
            variable.set((best, True))  # the node is done: its tasks still running stop
        return best, best_move

    def null_window(self, pos: Position, t: int, deadline: float | None) -> te.Outcome:
        """Whether the root's value is at least ``t``: its moves as tasks
        with the null window, fail-soft as :func:`treesplit.null_window`;
        the first move that decides the test stops the others."""
        from distributed import Variable

        t0 = time.perf_counter()
        maximising = bool(self.params.maximiser[pos.to_move])
        moves = root_moves(pos, self.params)
        variable = Variable(f"blokus-tree-{self.id}-{len(self.variables)}", client=self.client)
        self.variables.append(variable)
        variable.set((None, False))
        rank_of = {}
        for rank, move in enumerate(moves):
            job = Job(self.root, (move,), t, t - 1, maximising, False, variable.name, self.id,
                      max(self.seconds_left(deadline), 1e-3), self.table_bits, (t - 1, t))
            future = self.client.submit(search_child, job, pure=False, priority=-rank,
                                        key=f"tree-{self.id}-test{t}-{rank}")
            rank_of[future] = rank
        fail: int | None = None
        first = len(self.records)
        try:
            for future in self._completed(list(rank_of), deadline):
                rank = rank_of.pop(future)
                rec = self._result(future, deadline)
                v = rec.value
                if decides(maximising, v, t):
                    return self._test_outcome(v, moves[rank], first, t0)
                if fail is None or prefers(maximising, v, fail):
                    fail = v
        finally:
            for future in rank_of:
                future.cancel()
            variable.set((None, True))  # the test is done: its tasks still running stop
        return self._test_outcome(fail, None, first, t0)

    def _test_outcome(self, value: int, move: Move | None, first: int, t0: float) -> te.Outcome:
        records = self.records[first:]
        depth = max((r.depth + 1 for r in records), default=0)
        return te.Outcome(value, move, sum(r.nodes for r in records), 0, depth, time.perf_counter() - t0)

    def _completed(self, futures: list, deadline: float | None = None, poll: float = 0.1):
        """The futures as they finish, waiting no longer than the search (or
        the part of it ending at ``deadline``) may: OutOfTime once it is out
        of time, the clock looked at every ``poll`` seconds. (Dask's
        as_completed waits for the next task however long it runs, and a
        task queued behind others counts its seconds from its own start.)"""
        finished: queue.SimpleQueue = queue.SimpleQueue()
        for f in futures:
            f.add_done_callback(finished.put)
        for _ in futures:
            while True:
                try:
                    yield finished.get(timeout=poll)
                    break
                except queue.Empty:
                    if self.out_of_time(deadline):
                        raise te.OutOfTime((0, 0), 0, 0, 0.0) from None

    def _result(self, future, deadline: float | None = None, poll: float = 0.1) -> TaskRecord:
        """A task's record, waiting for it no longer than the search (or the
        part of it ending at ``deadline``) may, the clock looked at every
        ``poll`` seconds."""
        # Not future.result(timeout=...): distributed's short callback timeout can
        # race with the task's end and fail with an UnboundLocalError.
        for _ in self._completed([future], deadline, poll):
            pass
        rec = future.result()
        self.records.append(rec)
        if not rec.finished:
            raise te.OutOfTime((0, 0), 0, 0, 0.0)
        return rec

    def close(self) -> None:
        """Tell running tasks to stop and drop the Variables."""
        for v in self.variables:
            try:
                v.set((None, True))
                v.delete()
            except Exception:  # the cluster may be gone already
                pass


def solve_two_player(pos: Position, client, deadline: float | None, window: tuple[int, int] | None = None,
                     plies: int = 1, table_bits: int = 20, stop: threading.Event | None = None,
                     winner_first: bool = False) -> Split:
    """The two-player value and a best move of ``pos`` (the game not over),
    its moves searched as tasks on the Dask ``client``'s workers (``plies``
    levels of the principal variation split; ``winner_first``: the winner
    proven first, :mod:`solver.endgame.winnerfirst`, the workers' tables
    kept for the value, which starts from the move that decided the last
    test); raises OutOfTime (with the bounds proven: the best
    root move's value bounds the side to move's side) when the deadline
    passes or ``stop`` is set first."""
    params = te.two_player_params(pos, te.TWO_PLAYER)
    search = _Search(client, pos, params, deadline, table_bits, stop)

    def value(window: tuple[int, int], until: float | None, first: Move | None = None) -> te.Outcome:
        t0 = time.perf_counter()
        lo, hi = window
        since = len(search.records)  # this step's records start here
        try:
            value, move = search.node((), pos, lo, hi, plies, first)
        except te.OutOfTime:
            nodes = sum(r.nodes for r in search.records[since:])
            best = search.root_best
            if best is not None:  # a root move's value bounds the side to move's side of the root
                lo, hi = (max(lo, best), hi) if params.maximiser[pos.to_move] else (lo, min(hi, best))
            raise te.OutOfTime((lo, hi), nodes, 0, time.perf_counter() - t0) from None
        records = search.records[since:]
        depth = max((r.depth + len(r.path) for r in records), default=0)
        return te.Outcome(value, move, sum(r.nodes for r in records), 0, depth, time.perf_counter() - t0)

    window = window or (-tk.INF + 2, tk.INF - 2)
    try:
        if winner_first:
            out = winner_then_value(lambda t, until: search.null_window(pos, t, until), value, window, deadline)
        else:
            out = value(window, deadline)
    finally:
        search.close()
    return Split(out, search.records)
