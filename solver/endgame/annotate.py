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
value. Outputs: :meth:`GameAnnotation.to_json`, :func:`text_report`, the
annotated record (:func:`annotated_sgf`: comments, best-line variations,
``BM``/``DO``/``TE`` move annotations as Pentobi shows them) and a plot
(:func:`plot_annotation`). :func:`annotate_batch` runs many games on Dask
through :mod:`solver.cluster`.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, NamedTuple

from solver.core.pieces import PIECES
from solver.core.position import Move, Position
from solver.drawing.render import DPI, PAINTS, check_output
from solver.endgame.analysis import (
    TABLE_BITS,
    TREES,
    ScoreOutlook,
    compiled_tree_applies,
    load_compiled_tree,
    reach,
    solo_puzzle,
)
from solver.endgame.gametree import GameTree, OutOfTime
from solver.errors import BlokusError, OptionError, OutputError
from solver.files import check_writable, make_folder, write_file
from solver.formats.sgf import GameRecord, SgfNode, SgfProperty, load_record_text, move_props, parse_sgf, read_record
from solver.packing.driver import best_value
from solver.puzzle.result import Progress, ProgressCallback, Stopwatch
from solver.solving import check_time_limit, ctrl_c_stops, solve

BIG = 10**6  # beyond any score: an open end of a bound
MAX_TABLE = 2_000_000  # transposition table entries kept across the walk (then it starts afresh)
MAX_LINE = 30  # moves in a best-line variation
WALK_SHARE = 0.85  # of the time limit for the values; the rest for best lines and only-move checks
BIG_LOSS = 5  # a loss of this many points or more is BM[2] ("??"), a smaller one BM[1] ("?")
DOUBTFUL = 10  # a possible (not proven) loss of up to this many points is DO ("?!")


class Bounds(NamedTuple):
    """Proven lowest and highest value of a position; exact when equal."""

    lo: int
    hi: int

    @property
    def exact(self) -> bool:
        return self.lo == self.hi

    def meet(self, other: "Bounds | None") -> "Bounds":
        if other is None:
            return self
        return Bounds(max(self.lo, other.lo), min(self.hi, other.hi))


@dataclass
class MoveNote:
    """One analysed move: ``before`` bounds the value of the position it was
    played in, ``after`` the value of the position it led to, both from the
    point of view of the game value (two players) or of the mover's
    guaranteed score. ``loss`` is exact when both are; ``loss_bounds`` is
    what is proven either way (None when the move is not scored: out of
    turn, or the shared colour's)."""

    move: int  # 1-based number in the record
    color: int
    played: Move
    before: Bounds
    after: Bounds
    maximising: bool  # whether the mover wants the value high
    best_move: Move | None = None
    loss_bounds: Bounds | None = None
    only_move: bool | None = None  # the played move is the only one keeping the value (None: not checked)
    best_line: list[Move] = field(default_factory=list)
    solo_optimum: int | None = None  # games of three or four players: the mover's, before the move

    @property
    def loss(self) -> int | None:
        b = self.loss_bounds
        return b.lo if b is not None and b.exact else None

    @property
    def best_value(self) -> int | None:
        return self.before.lo if self.before.exact else None

    @property
    def mistake(self) -> bool:
        """Proven to have lost points."""
        return self.loss_bounds is not None and self.loss_bounds.lo > 0


@dataclass
class GameAnnotation:
    """The annotation of one game's main line (``moves`` in record order)."""

    source: str
    record: GameRecord
    end: Position  # the position at the end of the main line
    moves: list[MoveNote]
    seconds: float = 0.0
    nodes: int = 0
    notes: list[str] = field(default_factory=list)
    interrupted: bool = False  # stopped by Ctrl-C: the moves proven by then

    @property
    def two_player(self) -> bool:
        return self.record.variant.two_player

    @property
    def first_proven_move(self) -> int | None:
        return min((n.move for n in self.moves if n.before.exact), default=None)

    @property
    def mistakes(self) -> int:
        return sum(1 for n in self.moves if n.mistake)

    def value_name(self) -> str:
        v = self.record.variant
        if self.two_player:
            return f"{v.player_name(0)} minus {v.player_name(1)}"
        return "guaranteed score of the colour to move"

    def to_json(self) -> dict:
        """The ``--json`` object (the field names are a contract)."""
        pos = self.end
        return {
            "file": self.source,
            "variant": self.record.variant.game,
            "two_player": self.two_player,
            "value": self.value_name(),
            "moves_total": self.record.move_count,
            "from": self.moves[0].move if self.moves else None,
            "moves_analysed": len(self.moves),
            "first_proven_move": self.first_proven_move,
            "mistakes": self.mistakes,
            "seconds": round(self.seconds, 3),
            "nodes": self.nodes,
            "final_scores": {pos.name(c): pos.score(c) for c in pos.variant.colors},
            "game_over": pos.game_over,
            "notes": self.notes,
            "interrupted": self.interrupted,
            "moves": [_move_json(pos, n, self.two_player) for n in self.moves],
        }


def _move_text(pos: Position, move: Move | None) -> dict | None:
    if move is None:
        return None
    t = pos.table
    return {"color": pos.name(move.color), "piece": PIECES[t.piece[move.placement]].name,
            "squares": t.name(move.placement)}


def _exact(b: Bounds) -> int | None:
    return b.lo if b.exact else None


def _move_json(pos: Position, n: MoveNote, two_player: bool) -> dict:
    t = pos.table
    obj = {
        "move": n.move,
        "color": pos.name(n.color),
        "piece": PIECES[t.piece[n.played.placement]].name,
        "played": t.name(n.played.placement),
        "value_before": _exact(n.before),
        "proven": n.before.exact,
        "bounds": list(n.before),
        "best_move": None if n.best_move is None else t.name(n.best_move.placement),
        "best_piece": None if n.best_move is None else PIECES[t.piece[n.best_move.placement]].name,
        "best_value": n.best_value,
        "value_played": _exact(n.after),
        "played_bounds": list(n.after),
        "loss": n.loss,
        "loss_bounds": None if n.loss_bounds is None else list(n.loss_bounds),
        "only_move": n.only_move,
        "best_line": [_move_text(pos, m) for m in n.best_line],
    }
    if not two_player:
        obj["solo_optimum"] = n.solo_optimum
    return obj


# -- searching one point of view over the whole walk ------------------------------

class _PythonTree:
    """The plain-Python reference tree (:class:`solver.endgame.gametree.GameTree`)
    for a side: one transposition table and one history for the whole walk."""

    def __init__(self, side: "_Side"):
        self.side = side
        self.table: dict = {}
        self.history: dict[int, int] = {}

    def search(self, pos: Position, deadline: float | None, alpha: int, beta: int) -> tuple[int, Move | None, int]:
        """(value, best move, positions) of ``pos`` searched in the window
        (alpha, beta); OutOfTime when the deadline passes. The outlook it
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

        tree = GameTree(pos.copy(), side.maximiser, side.evaluate, deadline, outlook)
        tree.table, tree.history = self.table, self.history
        try:
            value, move = tree.best((alpha + 1, beta - 1))
        except OutOfTime:
            side.nodes += tree.nodes
            raise
        return value, move, tree.nodes


class _CompiledTree:
    """The compiled engine (:mod:`solver.endgame.treekernel`) for a side: its
    own fixed-size transposition table, kept from search to search over the
    walk (entries are proven bounds of positions, whatever the root). The
    history heuristic starts afresh at each search: one learnt under
    another root ordered worse (benchmarks/annotate.py --reuse: the games
    took 1.5x as long with it kept)."""

    def __init__(self, side: "_Side", board, params: Callable[[Position], object], table_bits: int):
        from solver.endgame import treekernel

        self.side = side
        self.kernel = treekernel
        self.engine = treekernel.Engine(board, table_bits)
        self.params = params
        self.fresh = True  # the first search starts the table's generation

    def search(self, pos: Position, deadline: float | None, alpha: int, beta: int) -> tuple[int, Move | None, int]:
        inf = self.kernel.INF - 2
        window = (max(alpha + 1, -inf), min(beta - 1, inf))
        self.engine.mem.history.fill(0)
        try:
            out = self.engine.run(pos.copy(), self.params(pos), deadline, window, fresh=self.fresh,
                                  stop=self.side.stop)
        except self.kernel.OutOfTime as e:
            self.side.nodes += e.nodes
            raise
        finally:
            self.fresh = False
        return out.value, out.move, out.nodes


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
        self.tree: _PythonTree | _CompiledTree = _PythonTree(self)

    def _search(self, pos: Position, deadline: float | None, alpha: int, beta: int) -> tuple[int, Move | None]:
        value, move, nodes = self.tree.search(pos, deadline, alpha, beta)
        self.nodes += nodes
        return value, move

    def value(self, pos: Position, deadline: float | None, hint: Bounds | None = None,
              search: bool = True) -> tuple[Bounds, Move | None]:
        """The value of ``pos`` (exact, or proven bounds when the search ran
        out of time or ``search`` is off) and the best move found. ``hint``:
        bounds known from elsewhere (the position after the played move)."""
        if pos.game_over:
            v = self.evaluate(pos)
            return Bounds(v, v), None
        bounds = Bounds(*self.outlook(pos)).meet(hint)
        if bounds.lo > bounds.hi:
            raise AssertionError(f"contradictory bounds {bounds} at {pos!r}: a bug")
        if bounds.exact or not search or (deadline is not None and time.monotonic() >= deadline):
            return bounds, None
        try:
            value, move = self._search(pos, deadline, bounds.lo - 1, bounds.hi + 1)
        except OutOfTime as e:
            proven = getattr(e, "bounds", None)  # the compiled engine's, narrowed by the root moves searched
            return bounds.meet(Bounds(*proven) if proven else None), None
        return Bounds(value, value), move

    def reaches(self, pos: Position, target: int, maximising: bool, deadline: float | None) -> bool | None:
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
                 stop: threading.Event | None = None):
        self.two_player = two_player
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

    def _compiled_tree(self, side: _Side, color: int) -> _CompiledTree:
        from solver.endgame.treekernel import guaranteed_params, two_player_params

        if self.two_player:
            return _CompiledTree(side, self.board, two_player_params, TABLE_BITS)
        # a side per colour: smaller tables (16 MB each)
        return _CompiledTree(side, self.board, lambda p: guaranteed_params(p, color), TABLE_BITS - 2)

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

    def __init__(self, record: GameRecord, time_limit: float, from_move: int | None,
                 progress: ProgressCallback | None, tree: str, stop: threading.Event):
        self.record = record
        self.stop = stop
        self.positions, self.first_possible = main_line(record)
        self.total = record.move_count
        self.from_move = from_move
        self.progress = progress
        self.solo = record.variant.copies == 1  # solo puzzles hold each piece once
        start = self.positions[0]
        compiled = tree == "compiled" and compiled_tree_applies(start)
        self.sides = _Sides(record.variant.two_player, min(1.0, time_limit / 20), self.solo,
                            start.board if compiled else None, stop)
        self.clock = Stopwatch(time_limit)
        self.walk_deadline = self.clock.start + WALK_SHARE * time_limit
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
            self.values[key] = side.value(self.at(j), self.walk_deadline, hint, search and self._time())
        return self.values[key]

    def _time(self) -> bool:
        return time.monotonic() < self.walk_deadline and not self.stop.is_set()

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
            note.solo_optimum = _solo_optimum(pos, c, min(1.0, self.walk_deadline - time.monotonic()))
        return note

    def report(self, k: int, stop: int, done: int) -> None:
        if self.progress is None:
            return
        if self.from_move is None:
            share = min(1.0, self.clock.elapsed / (self.walk_deadline - self.clock.start))
            what = f"back to move {k}"
        else:
            share = done / (self.total - stop + 1)
            what = f"move {k} ({done} of {self.total - stop + 1})"
        bar = "#" * round(20 * share)
        self.progress(Progress(self.clock.elapsed, self.sides.nodes, f"annotate [{bar:<20}] {what}"))


def _solo_optimum(pos: Position, color: int, limit: float) -> int | None:
    """The colour's proven solo optimum, or None when not proven in time."""
    if not pos.hand[color] or not pos.legal_placements(color):
        return pos.score(color)
    if limit <= 0:
        return None
    return best_value(solo_puzzle(pos, color), time_limit=limit)


def annotate(record: GameRecord, time_limit: float = 60.0, from_move: int | None = None,
             progress: ProgressCallback | None = None, source: str | None = None,
             tree: str = "compiled") -> GameAnnotation:
    """Annotate the main line of a game record from ``from_move`` (1-based)
    to the end; without it, as far back as ``time_limit`` (seconds, for
    the whole game) allows. About 85 % of the time goes to the values,
    the rest to best lines of mistakes and only-move checks. ``tree``:
    ``compiled`` (the numba engine, where it applies) or ``python`` (the
    reference), as for :func:`solver.endgame.analysis.analyze`."""
    check_time_limit(time_limit)
    if tree not in TREES:
        raise OptionError(f"unknown game tree {tree!r} (known: {', '.join(TREES)})")
    _load_tree(record, tree, progress)  # before the limit, and before Ctrl-C is caught: a compile ends at once
    with ctrl_c_stops() as stop:
        walk = _Walk(record, time_limit, from_move, progress, tree, stop)
        notes = walk.run()
        if not stop.is_set():
            _finish(walk, notes)
    ann = GameAnnotation(source or record.source, record, walk.at(walk.total), notes,
                         walk.clock.elapsed, walk.sides.nodes, walk.notes, interrupted=stop.is_set())
    if notes and not all(n.before.exact for n in notes):
        why = "the analysis was interrupted" if ann.interrupted else "the time limit ran out"
        ann.notes.append(f"some values are only proven bounds: {why}")
    return ann


def _load_tree(record: GameRecord, tree: str, progress: ProgressCallback | None) -> None:
    """Load (or compile, on a first run) the compiled game tree where the walk will use it."""
    end = record.position()
    if tree == "compiled" and compiled_tree_applies(end) and record.move_count > 0:
        if progress is not None:
            progress(Progress(0.0, 0, "annotate: loading the compiled game tree"))
        load_compiled_tree(record.position(record.move_count - 1))


# -- after the walk: best moves, lines, only moves ------------------------------------

def _finish(walk: _Walk, notes: list[MoveNote]) -> None:
    """With the time left: a best move where the search settled a position
    without one, the best line of every mistake, then whether each best
    move played was the only one (the tables are warm from the walk)."""
    deadline = walk.clock.deadline
    for n in notes:
        if n.mistake and time.monotonic() < deadline:
            side = walk.sides(n.color)
            pos = walk.at(n.move - 1)
            if n.best_move is None and n.before.exact:
                n.best_move = _settled_best(side, pos, n, deadline)
            if n.best_move is not None:
                n.best_line = _best_line(side, pos, n.best_move, deadline)
    for n in notes:
        if n.loss == 0 and time.monotonic() < deadline:
            n.only_move = _only_move(walk.sides(n.color), walk.at(n.move - 1), n, deadline)


def _settled_best(side: _Side, pos: Position, note: MoveNote, deadline: float) -> Move | None:
    """A best move in a position the outlook settled (every colour plays
    alone from here): the first move of a play order reaching the mover's
    solo optimum, checked; else the first move that keeps the value."""
    c = note.color
    left = max(0.05, deadline - time.monotonic())
    order = solve(solo_puzzle(pos, c), "search", time_limit=min(1.0, left)).order if pos.variant.copies == 1 else []
    candidates = [Move(c, order[0][1])] if order and order[0][0] == c else []
    candidates += [m for m in pos.legal_moves(c) if m not in candidates]
    for m in candidates:
        if time.monotonic() >= deadline:
            return None
        child = pos.copy()
        child.push(m)
        value, _ = side.value(child, deadline)
        if value.exact and value.lo == note.before.lo:
            return m
    return None


def _best_line(side: _Side, pos: Position, first: Move, deadline: float) -> list[Move]:
    """The best line from ``pos``: ``first``, then the best replies the
    table knows (or a search finds), until the rest is settled."""
    q = pos.copy()
    line = [first]
    q.push(first)
    while not q.game_over and len(line) < MAX_LINE and time.monotonic() < deadline:
        value, move = side.value(q, deadline)
        if move is None or not value.exact:
            break
        line.append(move)
        q.push(move)
    return line


def _only_move(side: _Side, pos: Position, note: MoveNote, deadline: float) -> bool | None:
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


# -- text -------------------------------------------------------------------------------

def _signed(b: Bounds) -> str:
    return f"{b.lo:+d}" if b.exact else f"{b.lo:+d}..{b.hi:+d}"


def _loss_text(n: MoveNote) -> str:
    b = n.loss_bounds
    if b is None:
        return "-"
    if b.exact:
        return str(b.lo)
    return f"{b.lo}..{b.hi}"


def _mark(n: MoveNote) -> tuple[str, str] | None:
    """The SGF move annotation of a move and its value, as Pentobi reads
    them (libboardgame_base/SgfTree.cpp; shown as ?? ? ?! !): BM[2] for a
    proven loss of BIG_LOSS points or more, BM[1] for a smaller one, DO
    (doubtful) where the value after the move is proven, the one before
    only bounded, and the bounds allow a loss of at most DOUBTFUL points
    (wider bounds say nothing about the move);
    TE[1] for the only move that keeps the value. IT is not used."""
    b = n.loss_bounds
    if b is None:
        return None
    if b.lo >= BIG_LOSS:
        return "BM", "2"
    if b.lo > 0:
        return "BM", "1"
    if 0 < b.hi <= DOUBTFUL and n.after.exact:
        return "DO", ""
    if n.only_move:
        return "TE", "1"
    return None


_GLYPHS = {("BM", "2"): "??", ("BM", "1"): "?", ("DO", ""): "?!", ("TE", "1"): "!"}


def _describe(pos: Position, m: Move | None) -> str:
    if m is None:
        return "-"
    t = pos.table
    return f"{PIECES[t.piece[m.placement]].name} {t.name(m.placement)}"


def text_report(ann: GameAnnotation) -> str:
    """The annotation as a table for people."""
    pos, rec = ann.end, ann.record
    lines = [f"{rec.variant.game}: {ann.source}, {rec.move_count} moves; value: {ann.value_name()}",
             _scale_text(rec.variant, ann.two_player)]
    if not ann.moves:
        return "\n".join(lines + ["No move analysed."])
    lines.append(f"{'move':>4}  {'colour':<7}{'played':<26}{'before':>10}{'after':>10}{'loss':>8}    best")
    for n in ann.moves:
        mark = _mark(n)
        glyph = _GLYPHS[mark] if mark else ""
        best = "" if n.best_move is None or n.loss == 0 else f"{_describe(pos, n.best_move)}"
        lines.append(f"{n.move:>4}  {pos.name(n.color):<7}{_describe(pos, n.played):<26}{_signed(n.before):>10}"
                     f"{_signed(n.after):>10}{_loss_text(n):>8} {glyph:<2} {best}")
    first = ann.first_proven_move
    lost = sum(n.loss_bounds.lo for n in ann.moves if n.mistake)
    lines.append("")
    lines.append(f"Proven from move {first}" if first is not None else "No value proven")
    lines[-1] += f"; {ann.mistakes} mistake{'s' if ann.mistakes != 1 else ''} ({lost} points); {ann.seconds:.1f} s"
    lines += [f"Note: {note}" for note in ann.notes]
    return "\n".join(lines)


def _scale_text(variant, two_player: bool) -> str:
    """Which scores the values are in, and how they relate to Pentobi's points."""
    if two_player:
        return (f"(advanced scores; Pentobi's points are {variant.squares} more per colour, so their differences "
                "are the same)")
    return f"(advanced scores; Pentobi's points are {variant.squares} more)"


def comment(ann: GameAnnotation, n: MoveNote) -> str:
    """The comment on an analysed move (value, loss, best move)."""
    pos = ann.end
    who = pos.name(n.color)
    if ann.two_player:
        head = f"value before the move ({ann.value_name()}): {_signed(n.before)}"
    else:
        head = f"{who} can guarantee {_signed(n.before)} before the move"
        if n.solo_optimum is not None:
            head += f" (solo optimum {n.solo_optimum:+d})"
    head += ", proven" if n.before.exact else " (proven bounds)"
    played = f"played {_describe(pos, n.played)}: {_signed(n.after)}"
    if n.loss_bounds is None:
        played += ", not scored" if n.color == pos.variant.shared else ", played out of turn"
    elif n.loss_bounds.exact:
        played += f", lost {n.loss} point{'s' if n.loss != 1 else ''}" if n.loss else ", lost nothing"
    elif n.loss_bounds.lo > 0:
        played += f", lost at least {n.loss_bounds.lo} points"
    elif n.loss_bounds.hi > 0 and not n.before.exact:
        played += ", its loss is not proven (the value before it is only bounded)"
    elif n.loss_bounds.hi > 0:
        played += f", may have lost up to {n.loss_bounds.hi} points"
    text = [COMMENT_MARK, head, played]
    if n.only_move:
        text.append("the only move that keeps the value")
    if n.best_move is not None and n.mistake:
        text.append(f"best: {_describe(pos, n.best_move)} ({n.best_value:+d})")
    return "\n".join(text)


# -- the annotated record ----------------------------------------------------------------

COMMENT_MARK = "blokus annotate:"
_MOVE_MARKS = ("BM", "DO", "IT", "TE")


def _sgf_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _set_comment(node, text: str) -> None:
    """Put our comment on a node after any comment it had (an earlier
    comment of ours, from COMMENT_MARK on, is replaced)."""
    old = node.get("C")
    kept = old.values[0] if old else ""
    if COMMENT_MARK in kept:
        kept = kept[: kept.index(COMMENT_MARK)]
    kept = kept.rstrip()
    value = f"{kept}\n\n{text}" if kept else text
    if old:
        old.values = [value]
    else:
        node.props.append(SgfProperty("C", [value], 0, 0))


def _add_variation(parent, line: list[Move], pos: Position, text: str) -> None:
    """Append the best line as the last variation under ``parent``, unless
    a child there already starts with the same move."""
    ids, t = pos.variant.move_ids, pos.table
    first = (ids[line[0].color], t.name(line[0].placement))
    for child in parent.children:
        prop = child.get(first[0])
        if prop is not None and ",".join(prop.values) == first[1] and child is not parent.children[0]:
            return
    node = parent
    for i, m in enumerate(line):
        child = SgfNode(0, 0, [SgfProperty(ids[m.color], [t.name(m.placement)], 0, 0)])
        if i == 0:
            child.props.append(SgfProperty("C", [text], 0, 0))
        node.children.append(child)
        node = child


def _write_tree(root) -> list[str]:
    """SGF text of a game tree, one node per line (an explicit stack: deep
    variations cost no recursion)."""
    out: list[str] = []
    stack: list = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):  # the end of a game tree
            out.append(")")
            continue
        out.append("(")
        node = item
        while True:
            out.append(";" + "".join(p.ident + "".join(f"[{_sgf_escape(v)}]" for v in p.values) for p in node.props))
            if len(node.children) != 1:
                break
            node = node.children[0]
        stack.append(")")
        stack.extend(reversed(node.children))
    return out


def annotated_sgf(text: str, ann: GameAnnotation) -> str:
    """The record ``text`` (the one that was annotated) with, on each
    analysed move, a comment, a move annotation (BM, DO or TE) and, for a
    proven mistake, the best line as a variation. Everything else in the
    file is kept."""
    trees = parse_sgf(text, ann.source)
    props = move_props(ann.record.variant)
    line, node = [], trees[0]
    while True:
        line.append(node)
        if not node.children:
            break
        node = node.children[0]
    move_nodes = [(i, n) for i, n in enumerate(line) if any(p.ident in props for p in n.props)]
    notes = {n.move: n for n in ann.moves}
    for k, (i, node) in enumerate(move_nodes, start=1):
        n = notes.get(k)
        if n is None:
            continue
        mark = _mark(n)
        if mark or (n.loss_bounds is not None and n.loss_bounds.exact):  # a verdict: it replaces earlier marks
            node.props = [p for p in node.props if p.ident not in _MOVE_MARKS]
        if mark:  # right after the move, as Pentobi writes it
            at = next(i for i, p in enumerate(node.props) if p.ident in props) + 1
            node.props.insert(at, SgfProperty(mark[0], [mark[1]], 0, 0))
        _set_comment(node, comment(ann, n))
        if n.mistake and n.best_line:
            value = f"best line: {n.best_value:+d} instead of {_signed(n.after)}"
            _add_variation(line[i - 1], n.best_line, ann.end, f"{COMMENT_MARK}\n{value}")
    out = []
    for tree in trees:
        out += _write_tree(tree)
    # the file's own byte order mark and line ends, as it had them
    newline = "\r\n" if "\r\n" in text else "\n"
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    return bom + ("\n".join(out) + "\n").replace("\n", newline)


# -- the plot ---------------------------------------------------------------------------

PLOT_SIZE = (800, 450)  # pixels
LINE_HEX = "#0072B2"  # Okabe-Ito blue: the exact values
BAND_HEX = "#56B4E9"  # Okabe-Ito sky blue: proven bounds
MISTAKE_HEX = "#D55E00"  # Okabe-Ito vermillion: mistakes


def _series(ann: GameAnnotation, color: int | None) -> list[tuple[int, Bounds]]:
    """(position after move j, its value) along the analysed moves, for the
    game value (``color`` None) or one colour's guaranteed score."""
    points: dict[int, Bounds] = {}
    for n in ann.moves:
        if color is None or n.color == color:
            points[n.move - 1], points[n.move] = n.before, n.after
    return sorted(points.items())


def _draw_series(ax, points: list[tuple[int, Bounds]], hex_: str, label: str) -> None:
    import matplotlib.patheffects as pe

    xs = [j for j, _ in points]
    ax.fill_between(xs, [b.lo for _, b in points], [b.hi for _, b in points], color=hex_, alpha=0.25, linewidth=0,
                    step=None)
    ys = [b.lo if b.exact else None for _, b in points]
    outline = [pe.withStroke(linewidth=3.2, foreground="#1A1A1A")] if hex_ == "#F0E442" else None
    ax.plot(xs, [float("nan") if y is None else y for y in ys], color=hex_, linewidth=2, marker="o",
            markersize=3.5, label=label, path_effects=outline)


def _draw_mistakes(ax, ann: GameAnnotation, paints) -> None:
    """A triangle in the mover's colour on the position after each proven
    mistake, with the points it lost (at least, when not exact): under the
    triangle, or over it near the bottom of the plot, where a label under
    it would be cut off. Called once the value range is set."""
    bottom, top = ax.get_ylim()
    for n in ann.moves:
        if not n.mistake:
            continue
        y = n.after.lo if n.after.exact else (n.after.lo + n.after.hi) / 2
        y = min(max(y, bottom), top)  # a mid-band point may lie where the range was cut
        ax.plot([n.move], [y], linestyle="none", marker="v", markersize=9, zorder=5,
                color=paints[ann.end.name(n.color)].fill, markeredgecolor="#1A1A1A")
        text = f"\u2212{n.loss}" if n.loss is not None else f"\u2212{n.loss_bounds.lo} or more"
        low = (y - bottom) < 0.15 * (top - bottom)
        ax.annotate(text, (n.move, y), textcoords="offset points", xytext=(0, 9 if low else -10), ha="center",
                    va="bottom" if low else "top", fontsize=8, color="#1A1A1A", fontweight="bold")


def _legend(ax, ann: GameAnnotation) -> None:
    """The lines (one per colour in games of more players), the band of
    bounds when there is one, and a mistake triangle per colour that made
    one."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles, labels = ax.get_legend_handles_labels()
    if any(not b.exact for n in ann.moves for b in (n.before, n.after)):
        handles.append(Patch(color=BAND_HEX if ann.two_player else "#BDBDBD", alpha=0.4))
        labels.append("proven bounds")
    pos = ann.end
    for c in sorted({n.color for n in ann.moves if n.mistake}):
        handles.append(Line2D([], [], linestyle="none", marker="v", markersize=8,
                              color=PAINTS[pos.name(c)].fill, markeredgecolor="#1A1A1A"))
        labels.append(f"mistake by {pos.name(c)} (points lost)")
    ax.legend(handles, labels, loc="best", fontsize=8, framealpha=0.9)


def _y_range(ax, ann: GameAnnotation) -> None:
    """Keep the exact values readable: a wide band of bounds is cut off
    at one span of the exact values beyond them."""
    exact = [b.lo for n in ann.moves for b in (n.before, n.after) if b.exact]
    if not exact:
        return
    lo, hi = min(exact), max(exact)
    span = max(hi - lo, 10)
    bottom, top = ax.get_ylim()
    ax.set_ylim(max(bottom, lo - span), min(top, hi + span))


def plot_annotation(ann: GameAnnotation, path=None, size: tuple[int, int] = PLOT_SIZE, fmt: str = "png"
                    ) -> bytes | None:
    """Draw the value per move (exact values as a line, proven bounds as a
    band, mistakes as triangles with their loss) into ``path`` (.png or
    .svg; written atomically) or, without a path, return the image bytes.
    Two-player games draw the game value; others each colour's guaranteed
    score around its own moves, in the colour's Okabe-Ito paint."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    if path is not None:
        fmt = check_output(path, ("png", "svg"))
    w, h = size
    fig = Figure(figsize=(w / DPI, h / DPI), dpi=DPI, facecolor="white", layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    pos = ann.end
    if ann.two_player:
        ax.axhline(0, color="#BDBDBD", linewidth=1)
        _draw_series(ax, _series(ann, None), LINE_HEX, ann.value_name())
        ax.set_ylabel(f"value ({ann.value_name()})")
    else:
        for c in pos.variant.colors:
            points = _series(ann, c)
            if points:
                _draw_series(ax, points, PAINTS[pos.name(c)].fill, pos.name(c))
        ax.set_ylabel("guaranteed score of the mover")
    _y_range(ax, ann)
    ax.set_ylim(*ax.get_ylim())  # fixed now: the marks below must not move it
    _draw_mistakes(ax, ann, PAINTS)
    _legend(ax, ann)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("move")
    ax.grid(True, color="#E5E5E5", linewidth=0.8)
    ax.set_title(f"{_short(ann.source)}: {ann.mistakes} mistake{'s' if ann.mistakes != 1 else ''}, "
                 f"proven from move {ann.first_proven_move}", fontsize=10)
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=DPI, facecolor="white",
                metadata={"Date": None} if fmt == "svg" else {"Software": None})
    if path is None:
        return buf.getvalue()
    write_file(path, buf.getvalue())
    return None


def _short(source: str) -> str:
    return Path(source).name


# -- many games -------------------------------------------------------------------------------

@dataclass(frozen=True)
class AnnotateOptions:
    """Options of every game of a batch."""

    time_limit: float = 60.0
    from_move: int | None = None
    plot: bool = True  # draw DIR/<game>.png
    tree: str = "compiled"  # or "python" (see annotate)


@dataclass(frozen=True)
class GameOutput:
    """What one game's task sends back (picklable, small): the ``--json``
    object, the annotated record and the plot (PNG bytes, or None)."""

    json: dict
    sgf: str
    plot: bytes | None


def read_game(path: str) -> tuple[str, GameRecord]:
    """The text of a record file (as it is) and the record read from it."""
    return load_record_text(path)


def annotate_game(item: tuple[str, str], options: AnnotateOptions) -> GameOutput:
    """One batch task: annotate the record ``text`` named ``source``
    (``item`` = (source, text)); runs on a Dask worker."""
    source, text = item
    ann = annotate(read_record(text, source), options.time_limit, options.from_move, source=source, tree=options.tree)
    return GameOutput(ann.to_json(), annotated_sgf(text, ann), plot_annotation(ann) if options.plot else None)


SUMMARY_FIELDS = ("game", "moves_analysed", "first_proven_move", "mistakes", "seconds", "error")


@dataclass
class BatchReport:
    """How a batch went, per game file (in input order)."""

    games: list[str]
    annotated: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # annotated by an earlier run
    failed: dict[str, str] = field(default_factory=dict)  # game -> error
    summary: str = ""  # the path of summary.csv, once written
    summary_error: str | None = None  # why summary.csv could not be written
    interrupted: bool = False  # Ctrl-C: the games not done are failed with INTERRUPTED


def game_files(paths: list[str]) -> list[str]:
    """The record files named: files as given, folders as the ``.blksgf``
    files in them (sorted, not recursive). Two games with the same file
    name would write the same outputs: an error."""
    files: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():  # every match: one that is not a file (a folder, a device) fails with a message
            found = sorted(str(f) for f in path.glob("*.blksgf"))
            if not found:
                raise OptionError(f"{p}: no .blksgf files in this folder")
            files += found
        elif path.exists():
            files.append(str(path))
        else:
            raise OptionError(f"{p}: no such file or folder")
    stems: dict[str, str] = {}
    for f in files:
        stem = Path(f).stem
        if stem in stems and Path(stems[stem]).resolve() != Path(f).resolve():
            raise OptionError(f"{stems[stem]} and {f} have the same name: their outputs would collide")
        stems[stem] = f
    return list(dict.fromkeys(stems.values()))


def _outputs(out_dir, game: str) -> dict[str, "object"]:
    stem = Path(game).stem
    return {ext: Path(out_dir) / f"{stem}.{ext}" for ext in ("blksgf", "png", "json")}


def _write_outputs(out_dir, game: str, result: GameOutput) -> None:
    """Write one game's files, each atomically; the JSON last, as the mark
    that the game is done (a rerun skips it). When one cannot be written
    (a full disk), those written before it are removed again, so the
    folder holds a game's outputs whole or not at all; OutputError."""
    paths = _outputs(out_dir, game)
    files = [(paths["blksgf"], result.sgf.encode("utf-8"))]
    if result.plot is not None:
        files.append((paths["png"], result.plot))
    files.append((paths["json"], (json.dumps(result.json, indent=2) + "\n").encode("utf-8")))
    written = []
    try:
        for path, data in files:
            write_file(path, data)
            written.append(path)
    except OutputError:
        for path in written:
            path.unlink(missing_ok=True)
        raise


def _summary_row(out_dir, game: str, error: str | None) -> dict:
    row = dict.fromkeys(SUMMARY_FIELDS, "")
    row["game"] = game
    if error is not None:
        row["error"] = error
        return row
    path = _outputs(out_dir, game)["json"]
    try:
        with open(path, encoding="utf-8") as f:
            obj = json.load(f)
        row.update(moves_analysed=obj["moves_analysed"], first_proven_move=obj["first_proven_move"] or "",
                   mistakes=obj["mistakes"], seconds=obj["seconds"])
    except (OSError, ValueError, KeyError, TypeError) as e:  # a result file edited or damaged since
        row["error"] = f"{path}: cannot read the result: {getattr(e, 'strerror', None) or e}"
    return row


def write_summary(out_dir, report: BatchReport) -> str:
    """DIR/summary.csv: one row per game of the batch (skipped ones from
    their earlier JSON), written atomically."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, SUMMARY_FIELDS, lineterminator="\n")
    writer.writeheader()
    for game in report.games:
        writer.writerow(_summary_row(out_dir, game, report.failed.get(game)))
    path = Path(out_dir) / "summary.csv"
    write_file(path, buf.getvalue().encode("utf-8"))
    return str(path)


def _batch_inputs(files: list[str], out_dir, force: bool, report: BatchReport) -> list[tuple[str, tuple[str, str]]]:
    """(name, (source, text)) of every game still to do; games done by an
    earlier run are skipped (unless ``force``), unreadable files fail here."""
    inputs = []
    for game in files:
        paths = _outputs(out_dir, game)
        if paths["blksgf"].resolve() == Path(game).resolve():
            raise OptionError(f"{game}: the annotated record would overwrite it: choose another --out-dir")
        if not force and paths["json"].exists():
            report.skipped.append(game)
            continue
        try:
            text, _ = read_game(game)
        except BlokusError as e:
            report.failed[game] = str(e)
            continue
        inputs.append((game, (game, text)))
    return inputs


def _work_estimate(source: str, text: str, from_move: int) -> tuple[int, int]:
    """A rough size of one game's analysis from move ``from_move``: the
    pieces in hand, then the legal moves, of all colours at the first
    position analysed. A batch submits its biggest games first: its wall
    time is at least its longest game's, and a long game started last
    leaves the other workers idle (benchmarks/annotate.py: the time of a
    Duo endgame grows with both). A record that cannot be replayed sorts
    first (its task fails at once)."""
    try:
        record = read_record(text, source)
        pos = record.position(max(0, min(from_move - 1, record.move_count)))
    except BlokusError:
        return (1 << 30, 0)
    colors = pos.variant.colors
    return (sum(len(pos.pieces_left(c)) for c in colors), sum(len(pos.legal_placements(c)) for c in colors))


def annotate_batch(paths: list[str], out_dir: str, options: AnnotateOptions = AnnotateOptions(), *,
                   workers: int = 2, scheduler: str | None = None, force: bool = False,
                   progress: ProgressCallback | None = None,
                   on_outcome: Callable[[object], None] | None = None) -> BatchReport:
    """Annotate many games, one task per game, on Dask (see
    :func:`solver.cluster.run_tasks`; ``workers`` 0 runs them here, one
    after the other). Each game's record, plot and JSON go to ``out_dir``
    as it completes; a failing game is reported and the others go on;
    ``DIR/summary.csv`` is written at the end. ``on_outcome`` hears each
    :class:`~solver.cluster.Outcome` after its files are written. With
    ``options.from_move``, the biggest games are submitted first (see
    :func:`_work_estimate`)."""
    from solver.cluster import run_serial, run_tasks

    files = game_files(paths)
    make_folder(out_dir)
    check_writable(Path(out_dir) / "summary.csv")
    report = BatchReport(files)
    inputs = _batch_inputs(files, out_dir, force, report)
    if options.from_move is not None:
        inputs.sort(key=lambda item: _work_estimate(*item[1], options.from_move), reverse=True)
    task = functools.partial(annotate_game, options=options)
    if workers == 0:
        outcomes = run_serial(task, inputs)
    else:
        outcomes = run_tasks(task, inputs, workers=min(workers, max(1, len(inputs))), scheduler=scheduler)
    clock = Stopwatch()
    try:
        _collect(outcomes, out_dir, report, files, clock, progress, on_outcome)
    except KeyboardInterrupt:  # Ctrl-C: the games done are kept, the summary says which are not
        report.interrupted = True
        for game in files:
            if game not in report.annotated and game not in report.skipped and game not in report.failed:
                report.failed[game] = INTERRUPTED
    try:
        report.summary = write_summary(out_dir, report)
    except OutputError as e:
        report.summary_error = str(e)
    return report


INTERRUPTED = "not annotated: interrupted (Ctrl-C)"


def _collect(outcomes, out_dir, report: BatchReport, files: list[str], clock: Stopwatch,
             progress: ProgressCallback | None, on_outcome: Callable[[object], None] | None) -> None:
    """Write each game's outputs as its outcome arrives and keep the report."""
    for outcome in outcomes:
        error = outcome.error
        if outcome.ok:
            try:
                _write_outputs(out_dir, outcome.name, outcome.value)
            except OutputError as e:  # the other games go on, and may still find room
                error = str(e)
            else:
                report.annotated.append(outcome.name)
        if error is not None:
            report.failed[outcome.name] = error
        if on_outcome is not None:
            on_outcome(outcome)
        if progress is not None:
            done = len(report.annotated) + len(report.failed) + len(report.skipped)
            bar = "#" * round(20 * done / max(1, len(files)))
            progress(Progress(clock.elapsed, 0, f"annotate [{bar:<20}] {done}/{len(files)} games, "
                                                f"{len(report.failed)} failed", notice=True))  # each game's end
