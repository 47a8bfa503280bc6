"""Annotate a whole game: the proven value of every position from the end
back, which moves lost points and how many, and the best move instead.

The walk goes backwards from the end of the record's main line, so each
position's search finds the positions after it already solved:

- one point of view (a *side*) is searched over the whole walk with one
  game tree whose transposition table is kept from position to position;
  the played line and everything searched under it are table hits later.
  The tree is the compiled engine
  (:mod:`solver.endgame.treekernel`, as ``blokus analyze`` uses), or the
  plain-Python reference (:class:`solver.endgame.gametree.GameTree`) for
  games the engine does not take (Trigon, Three-Player);
- the value of the position after a move bounds the one before it (the
  colour to move can always play the move that was played), and that bound
  narrows the search window together with the proven score outlook of
  :class:`solver.endgame.analysis.ScoreOutlook`.

Two-player games (classic two-player, Duo, Junior) use the game value,
seat 1 minus seat 2 as ``blokus analyze`` reports it. Games of three or four
players use each colour's guaranteed score (what it reaches whatever the
others do) and its solo optimum, as ``analyze`` does; in the Three-Player
game the shared colour's moves get values but no loss (its score counts for
nobody, so "losing points" means nothing for the player who moved it).

A position the time limit leaves unsolved gets proven bounds instead of a
value. What the walk finds is a :class:`~solver.endgame.annotation.GameAnnotation`;
it is told in words by :mod:`solver.endgame.report`, written into the record by
:mod:`solver.endgame.annotated_record` and drawn by :mod:`solver.endgame.plot`;
:mod:`solver.endgame.batch` annotates many games on Dask.
"""


from __future__ import annotations

import contextlib
import threading
from typing import Callable

from solver.core.position import Move, Position
from solver.deadline import Deadline
from solver.endgame.analysis import ScoreOutlook, reach, solo_puzzle
from solver.endgame.gametree import OutOfTime
from solver.errors import OptionError
from solver.formats.sgf import GameRecord
from solver.options import check_time_limit
from solver.packing.driver import best_value
from solver.puzzle.result import Progress, ProgressCallback
from solver.solving import ctrl_c_stops, solve

BIG = 10**6  # beyond any score: an open end of a bound
MAX_LINE = 30  # moves in a best-line variation
WALK_SHARE = 0.85  # of the time limit for the values; the rest for best lines and only-move checks
from solver.endgame.annotation import Bounds, GameAnnotation, MoveNote
from solver.endgame.trees import TABLE_BITS, Tree, choose, load_compiled_tree, tree_threads, wanted
from solver.endgame.walktrees import CompiledTree, Known, PythonTree


class _Side:
    """One point of view: the colours in ``maximiser`` want ``evaluate`` of
    the final position high, the others low. One game tree (its
    transposition table) serves every position searched from this side,
    so a position reuses what its successors' searches proved. ``stop``
    (Ctrl-C) ends a search as its deadline does."""

    def __init__(self, maximiser: set[int], evaluate: Callable[[Position], int],
                 outlook: Callable[[Position], tuple[int, int]], stop: threading.Event | None = None):
        self.maximiser = maximiser
        self.evaluate = evaluate
        self.outlook = outlook  # position -> proven (lo, hi) of the value
        self.stop = stop or threading.Event()
        self.nodes = 0
        self.tree: PythonTree | CompiledTree = PythonTree(self)

    def _search(self, pos: Position, deadline: Deadline, alpha: int, beta: int,
                known: Known | None = None) -> tuple[int, Move | None]:
        value, move, nodes = self.tree.search(pos, deadline.at, alpha, beta, known)
        self.nodes += nodes
        return value, move

    def value(self, pos: Position, deadline: Deadline, hint: Bounds | None = None,
              search: bool = True, reached_by: Move | None = None) -> tuple[Bounds, Move | None]:
        """The value of ``pos`` (exact, or proven bounds when the search ran
        out of time or ``search`` is off) and the best move found. ``hint``:
        bounds known from elsewhere (the position after the played move);
        ``reached_by``: the move of the colour to move that reaches the
        hint's bound on its side (the played move), so the search asks only
        whether another move does better."""
        if pos.game_over:
            v = self.evaluate(pos)
            return Bounds(v, v), None
        bounds = Bounds(*self.outlook(pos)).meet(hint)
        if bounds.lo > bounds.hi:
            raise AssertionError(f"contradictory bounds {bounds} at {pos!r}: a bug")
        if bounds.exact or not search or deadline.expired():
            return bounds, None
        known = None
        if reached_by is not None and hint is not None:
            maximising = pos.to_move in self.maximiser
            bound, hinted = (bounds.lo, hint.lo) if maximising else (bounds.hi, hint.hi)
            if bound == hinted:  # the hint's bound is the binding one
                known = (reached_by, bound)
        try:
            value, move = self._search(pos, deadline, bounds.lo - 1, bounds.hi + 1, known)
        except OutOfTime as e:
            proven = e.bounds  # the compiled engine's, narrowed by the root moves searched (None from the Python tree)
            return bounds.meet(Bounds(*proven) if proven else None), None
        return Bounds(value, value), move

    def reaches(self, pos: Position, target: int, maximising: bool, deadline: Deadline) -> bool | None:
        """Whether the value of ``pos`` is at least ``target`` (``maximising``)
        or at most it (otherwise); None when time ran out. A narrow
        aspiration window around the target: a result outside it is a proven
        bound on that side."""
        lo, hi = self.outlook(pos)
        if maximising and (hi < target or lo >= target):
            return lo >= target
        if not maximising and (lo > target or hi <= target):
            return hi <= target
        guess = target - 1 if maximising else target + 1
        try:
            value, _ = self._search(pos, deadline, guess - 1, guess + 1)
        except OutOfTime:
            return None
        return value >= target if maximising else value <= target


def _seat_difference(p: Position) -> int:
    s1, s2 = p.seat_scores()
    return s1 - s2


def _plain_outlook(pos: Position) -> list[tuple[int, int]]:
    """Per colour: its score now and that plus what still fits in its reach;
    for variants whose solo puzzles cannot be made (Junior: two copies of a
    piece), so no colour is settled by a solo search."""
    out = []
    for c in range(len(pos.occupied)):
        now = pos.score(c)
        out.append((now, now + ScoreOutlook.most(pos, c, reach(pos, c))))
    return out


class _Sides:
    """The sides of a game: one for the two-player game value, or one per
    colour (its guaranteed score), made when first needed; they share one
    score outlook (its solo searches are memoised). ``board``: search with
    the compiled engine on this board (None: the Python reference tree)."""

    def __init__(self, two_player: bool, outlook_limit: float, solo: bool = True, board=None,
                 stop: threading.Event | None = None, threads: int = 1):
        self.two_player = two_player
        self.threads = threads
        self.score_outlook = ScoreOutlook(outlook_limit) if solo else _plain_outlook
        self.board = board
        self.stop = stop
        self.sides: dict[int, _Side] = {}

    def __call__(self, color: int) -> _Side:
        key = -1 if self.two_player else color
        if key not in self.sides:
            side = self.sides[key] = self._make(color)
            if self.board is not None:
                side.tree = self._compiled_tree(side, color)
        return self.sides[key]

    def _make(self, color: int) -> _Side:
        look = self.score_outlook
        if self.two_player:
            def seat_bounds(p: Position) -> tuple[int, int]:
                (l0, h0), (l1, h1), (l2, h2), (l3, h3) = look(p)
                return l0 + l2 - h1 - h3, h0 + h2 - l1 - l3

            return _Side({0, 2}, _seat_difference, seat_bounds, self.stop)
        return _Side({color}, lambda p: p.score(color), lambda p: look(p)[color], self.stop)

    def _compiled_tree(self, side: _Side, color: int) -> CompiledTree:
        from solver.endgame.treeengine import TWO_PLAYER, guaranteed_params, two_player_params

        if self.two_player:  # analyze's settings: more moves proven in the same time (benchmarks/RESULTS.md)
            return CompiledTree(side, self.board, lambda p: two_player_params(p, TWO_PLAYER), TABLE_BITS, self.threads)
        # a side per colour: smaller tables (16 MB each)
        return CompiledTree(side, self.board, lambda p: guaranteed_params(p, color), TABLE_BITS - 2, self.threads)

    @property
    def nodes(self) -> int:
        return sum(s.nodes for s in self.sides.values())


# -- the walk -------------------------------------------------------------------------

def main_line(record: GameRecord) -> tuple[list[Position], int]:
    """The positions of the main line that moves can be taken back to: a
    list ``ps`` with ``ps[i]`` the position after move ``first + i - 1``,
    and ``first``, the first move after the last set-up node (usually 1)."""
    pos = record.position()
    snaps = [pos.copy()]
    while pos.history:
        pos.pop()
        snaps.append(pos.copy())
    snaps.reverse()
    return snaps, record.move_count - len(snaps) + 2


class _Walk:
    """The backwards walk over one game (see the module docstring)."""

    def __init__(self, record: GameRecord, time_limit: Deadline | float, from_move: int | None,
                 progress: ProgressCallback | None, tree: Tree, stop: threading.Event, threads: int = 1):
        self.record = record
        self.stop = stop
        self.positions, self.first_possible = main_line(record)
        self.total = record.move_count
        self.from_move = from_move
        self.progress = progress
        self.solo = record.variant.copies == 1  # solo puzzles hold each piece once
        start = self.positions[0]
        compiled = choose(start, tree) is Tree.COMPILED
        self.clock = Deadline.of(time_limit)
        seconds = self.clock.left()
        self.walk = self.clock.within(WALK_SHARE * seconds)  # the values; then best lines and only moves
        self.sides = _Sides(record.variant.two_player, min(1.0, seconds / 20), self.solo,
                            start.board if compiled else None, stop, threads)
        self.values: dict[tuple[int, int], tuple[Bounds, Move | None]] = {}
        self.notes: list[str] = []
        if not self.solo and not compiled:
            self.notes.append(f"{record.variant.game}: no solo optima (a colour holds two copies of a piece), "
                              "so the search settles no colour early")

    def at(self, j: int) -> Position:
        """The position after move j."""
        return self.positions[j - self.first_possible + 1]

    def played(self, k: int) -> Move:
        return self.at(k).history[-1]

    def in_turn(self, k: int) -> bool:
        return self.at(k - 1).to_move == self.played(k).color

    def value(self, color: int, j: int, search: bool = True) -> tuple[Bounds, Move | None]:
        """Value of the position after move j for ``color``'s side,
        memoised; the value after move j + 1, when known, bounds it."""
        side = self.sides(color)
        key = (id(side), j)
        if key not in self.values or (search and not self.values[key][0].exact and self._time()):
            hint = None
            nxt = self.values.get((id(side), j + 1))
            if nxt is not None and j + 1 <= self.total and self.in_turn(j + 1):
                pos = self.at(j)
                after = nxt[0]
                hint = Bounds(after.lo, BIG) if pos.to_move in side.maximiser else Bounds(-BIG, after.hi)
            self.values[key] = side.value(self.at(j), self.walk, hint, search and self._time(),
                                          self.played(j + 1) if hint is not None else None)
        return self.values[key]

    def _time(self) -> bool:
        return not self.walk.expired() and not self.stop.is_set()

    def first_move(self) -> int:
        if self.from_move is None:
            return self.first_possible
        if not 1 <= self.from_move <= max(self.total, 1):
            raise OptionError(f"--from {self.from_move} is out of range: the record has {self.total} moves")
        if self.from_move < self.first_possible:
            self.notes.append(f"moves before {self.first_possible} come before a set-up node: not analysed")
        return max(self.from_move, self.first_possible)

    def run(self) -> list[MoveNote]:
        """The notes of the moves from the first one asked for to the end,
        or, without one, of the moves proven going back while the time
        allows. Ctrl-C (``stop``) ends the walk with the moves analysed so
        far; the one it interrupted is kept only if its value was proven
        all the same."""
        notes: list[MoveNote] = []
        stop = self.first_move()
        for k in range(self.total, stop - 1, -1):
            note = self.note(k)
            if self.stop.is_set():
                if note.before.exact:
                    notes.append(note)
                else:
                    k += 1
                if k > stop:
                    self.notes.append(f"interrupted (Ctrl-C): moves before {k} are not analysed")
                break
            if self.from_move is None and not note.before.exact:  # only what it proved: bounds here say little
                self.notes.append(f"the time limit ran out at move {k}: it and the moves before it are not analysed")
                break
            notes.append(note)
            self.report(k, stop, len(notes))
        notes.reverse()
        return notes

    def note(self, k: int) -> MoveNote:
        """Analyse move k: the values after and before it, the best move, the loss."""
        played = self.played(k)
        c = played.color
        after, _ = self.value(c, k)
        before, best = self.value(c, k - 1)
        pos = self.at(k - 1)
        side = self.sides(c)
        maximising = c in side.maximiser
        note = MoveNote(k, c, played, before, after, maximising, best if self.in_turn(k) else None)
        if self.in_turn(k) and c != pos.variant.shared:
            lo = before.lo - after.hi if maximising else after.lo - before.hi
            hi = before.hi - after.lo if maximising else after.hi - before.lo
            note.loss_bounds = Bounds(max(0, lo), max(0, hi))
        elif not self.in_turn(k):
            self.notes.append(f"move {k} was played out of turn: no loss is given for it")
        if note.loss == 0:
            note.best_move = played  # the move played is (one of) the best
        if not self.record.variant.two_player and self.solo and self._time():
            note.solo_optimum = _solo_optimum(pos, c, min(1.0, self.walk.left()))
        return note

    def report(self, k: int, stop: int, done: int) -> None:
        if self.progress is None:
            return
        if self.from_move is None:  # as far back as the time allows: the bar is the time
            self.progress(Progress(self.clock.elapsed, self.sides.nodes, f"annotate: back to move {k}"))
        else:
            steps = self.total - stop + 1
            self.progress(Progress(self.clock.elapsed, self.sides.nodes, f"annotate: move {k} ({done} of {steps})",
                                   done=done, total=steps))


def _solo_optimum(pos: Position, color: int, limit: float) -> int | None:
    """The colour's proven solo optimum, or None when not proven in time."""
    if not pos.hand[color] or not pos.legal_placements(color):
        return pos.score(color)
    if limit <= 0:
        return None
    return best_value(solo_puzzle(pos, color), time_limit=limit)


def annotate(record: GameRecord, time_limit: Deadline | float = 60.0, from_move: int | None = None,
             progress: ProgressCallback | None = None, source: str | None = None,
             tree: Tree | str = Tree.COMPILED, stop: threading.Event | None = None,
             threads: int | None = None) -> GameAnnotation:
    """Annotate the main line of a game record from ``from_move`` (1-based)
    to the end; without it, as far back as ``time_limit`` (seconds, for
    the whole game) allows. About 85 % of the time goes to the values,
    the rest to best lines of mistakes and only-move checks. ``tree``:
    ``compiled`` (the numba engine, where it applies) or ``python`` (the
    reference), as for :func:`solver.endgame.analysis.analyze`. ``stop``:
    an event that stops the walk as Ctrl-C does (a batch's, relayed to its
    worker); without it, Ctrl-C here does. ``threads``: the compiled
    tree's threads for each value (default one per core)."""
    if check_time_limit(time_limit) is None:
        raise OptionError("annotate needs a time limit: it shares it out over the game")
    tree = wanted(tree)
    _load_tree(record, tree, progress)  # before the limit, and before Ctrl-C is caught: a compile ends at once
    with ctrl_c_stops() if stop is None else contextlib.nullcontext(stop) as stop:
        walk = _Walk(record, time_limit, from_move, progress, tree, stop, tree_threads(threads))
        notes = walk.run()
        if not stop.is_set():
            _finish(walk, notes)
    ann = GameAnnotation(source or record.source, record, walk.at(walk.total), notes,
                         walk.clock.elapsed, walk.sides.nodes, walk.notes, interrupted=stop.is_set())
    if notes and not all(n.before.exact for n in notes):
        why = "the analysis was interrupted" if ann.interrupted else "the time limit ran out"
        ann.notes.append(f"some values are only proven bounds: {why}")
    return ann


def _load_tree(record: GameRecord, tree: Tree, progress: ProgressCallback | None) -> None:
    """Load (or compile, on a first run) the compiled game tree where the walk will use it."""
    if choose(record.position(), tree) is Tree.COMPILED and record.move_count > 0:
        load_compiled_tree(record.position(record.move_count - 1), progress, "annotate: ")


# -- after the walk: best moves, lines, only moves ------------------------------------

def _finish(walk: _Walk, notes: list[MoveNote]) -> None:
    """With the time left: a best move where the search settled a position
    without one, the best line of every mistake, then whether each best
    move played was the only one (the tables are warm from the walk)."""
    deadline = walk.clock
    for n in notes:
        if n.mistake and not deadline.expired():
            side = walk.sides(n.color)
            pos = walk.at(n.move - 1)
            if n.best_move is None and n.before.exact:
                n.best_move = _settled_best(side, pos, n, deadline)
            if n.best_move is not None:
                n.best_line = _best_line(side, pos, n.best_move, deadline)
    for n in notes:
        if n.loss == 0 and not deadline.expired():
            n.only_move = _only_move(walk.sides(n.color), walk.at(n.move - 1), n, deadline)


def _settled_best(side: _Side, pos: Position, note: MoveNote, deadline: Deadline) -> Move | None:
    """A best move in a position the outlook settled (every colour plays
    alone from here): the first move of a play order reaching the mover's
    solo optimum, checked; else the first move that keeps the value."""
    c = note.color
    left = max(0.05, deadline.left())
    order = solve(solo_puzzle(pos, c), "search", time_limit=min(1.0, left)).order if pos.variant.copies == 1 else []
    candidates = [Move(c, order[0][1])] if order and order[0][0] == c else []
    candidates += [m for m in pos.legal_moves(c) if m not in candidates]
    for m in candidates:
        if deadline.expired():
            return None
        child = pos.copy()
        child.push(m)
        value, _ = side.value(child, deadline)
        if value.exact and value.lo == note.before.lo:
            return m
    return None


def _best_line(side: _Side, pos: Position, first: Move, deadline: Deadline) -> list[Move]:
    """The best line from ``pos``: ``first``, then the best replies the
    table knows (or a search finds), until the rest is settled."""
    q = pos.copy()
    line = [first]
    q.push(first)
    while not q.game_over and len(line) < MAX_LINE and not deadline.expired():
        value, move = side.value(q, deadline)
        if move is None or not value.exact:
            break
        line.append(move)
        q.push(move)
    return line


def _only_move(side: _Side, pos: Position, note: MoveNote, deadline: Deadline) -> bool | None:
    """Whether the played move is the only one that keeps the value (None
    when time ran out)."""
    target = note.before.lo
    for p in pos.legal_placements(note.color):
        if p == note.played.placement:
            continue
        child = pos.copy()
        child.push(Move(note.color, p))
        found = side.reaches(child, target, note.maximising, deadline)
        if found is None:
            return None
        if found:
            return False
    return True
