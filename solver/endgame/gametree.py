"""Game-tree search over real play (turn order, forced passes, game end),
for endgames: alpha-beta with a transposition table.

- Two-player (seats blue+red against yellow+green): the exact game value,
  seat 1's advanced score minus seat 2's, under best play by both seats.
- Four-player: the score one colour can guarantee whatever the others do
  (the others play as one side minimising it).

Both are exact only when the search finishes; a time limit raises
:class:`OutOfTime` and nothing is claimed.
"""

from __future__ import annotations

import threading
import time

from solver.core.pieces import PIECE_SIZES, is_monomino
from solver.core.position import Move, Position

EXACT, LOWER, UPPER = 0, 1, 2


def _key(pos: Position) -> tuple:
    """What decides the rest of the game: squares, hands, whose turn, and
    for a colour that placed everything whether its monomino went last.
    (Unlike ``Position.state_key``, the last piece of a colour still playing
    is left out, so orders of the same moves meet in the table.)"""
    hand, last = pos.hand, pos.last_piece
    bonus = tuple(not hand[c] and last[c] is not None and is_monomino(last[c]) for c in range(4))
    return (tuple(pos.occupied), tuple(hand), tuple(pos.spare), bonus, pos.to_move)


class OutOfTime(Exception):
    """The search did not finish within its time limit. The compiled engine
    says what it got: ``bounds`` = (lo, hi) proven of the value (the window
    it was given, narrowed by the root moves searched), ``nodes`` the
    positions it visited, ``depth`` the most plies below the root it
    reached, ``seconds`` the time it took; the Python tree leaves them unset."""

    def __init__(self, bounds: tuple[int, int] | None = None, nodes: int = 0, depth: int = 0, seconds: float = 0.0):
        super().__init__("not proven in time" if bounds is None
                         else f"not proven: the value is between {bounds[0]} and {bounds[1]}")
        self.bounds = bounds
        self.nodes = nodes
        self.depth = depth
        self.seconds = seconds


class EitherSet(threading.Event):
    """Set as soon as any of ``events`` (None left out) is: a search's
    ``stop`` made of several reasons to stop (the searches only ask
    ``is_set``)."""

    def __init__(self, *events: threading.Event | None):
        super().__init__()
        self.events = [e for e in events if e is not None]

    def is_set(self) -> bool:
        return any(e.is_set() for e in self.events)


class GameTree:
    """Alpha-beta over the rest of the game from ``pos``: the colours in
    ``maximiser`` maximise ``evaluate`` of the final position, the others
    minimise it; ``best()`` gives the value and the best move."""

    def __init__(self, pos: Position, maximiser, evaluate, deadline: float | None, bounds=None, stop=None):
        self.pos = pos
        self.stop = stop  # a threading.Event that ends the search as the deadline does (OutOfTime)
        self.maximiser = maximiser
        self.evaluate = evaluate  # final position -> value for the maximiser
        self.bounds = bounds  # position -> proven (lowest, highest) value, or None
        self.deadline = deadline
        self.table: dict = {}
        self.history: dict[int, int] = {}  # placement -> cut-offs it caused
        self.nodes = 0

    def best(self, window: tuple[int, int] | None = None) -> tuple[int, Move | None]:
        """(value, best move of the colour to move) of the current position;
        ``window`` = (lo, hi) proven bounds on the value narrow the search
        (the value is exact because it lies inside them)."""
        lo, hi = window if window is not None else (-(10**6), 10**6)
        value = self._search(lo - 1, hi + 1)
        entry = self.table.get(_key(self.pos))
        return value, entry[3] if entry else None

    def _ordered(self) -> list[int]:
        t = self.pos.table
        moves = self.pos.legal_placements()
        # moves that cut off elsewhere first (history heuristic), then big
        # pieces: they are the ones that matter, and cut off most
        h = self.history
        return sorted(moves, key=lambda p: (-h.get(p, 0), -PIECE_SIZES[t.piece[p]]))

    def _search(self, alpha: int, beta: int) -> int:
        pos = self.pos
        self.nodes += 1
        if not self.nodes & 1023 and ((self.deadline is not None and time.monotonic() > self.deadline)
                                      or (self.stop is not None and self.stop.is_set())):
            raise OutOfTime
        if pos.game_over:
            return self.evaluate(pos)
        key = _key(pos)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            kind, value, _, move = entry
            if kind == EXACT:
                return value
            if kind == LOWER and value >= beta:
                return value
            if kind == UPPER and value <= alpha:
                return value
            first = move
        elif self.bounds is not None:
            lo, hi = self.bounds(pos)
            if lo == hi:  # settled: play no longer changes the value
                self.table[key] = (EXACT, lo, 0, None)
                return lo
            if hi <= alpha:
                self.table[key] = (UPPER, hi, 0, None)
                return hi
            if lo >= beta:
                self.table[key] = (LOWER, lo, 0, None)
                return lo
        maximising = self.maximiser(pos) if callable(self.maximiser) else pos.to_move in self.maximiser
        a0, b0 = alpha, beta
        best_value = -(10**6) if maximising else 10**6
        best_move = None
        moves = self._ordered()
        if first is not None and first.placement in moves:
            moves.remove(first.placement)
            moves.insert(0, first.placement)
        color = pos.to_move
        for p in moves:
            pos.push(Move(color, p))
            value = self._search(alpha, beta)
            pos.pop()
            if maximising:
                if value > best_value:
                    best_value, best_move = value, Move(color, p)
                alpha = max(alpha, value)
            else:
                if value < best_value:
                    best_value, best_move = value, Move(color, p)
                beta = min(beta, value)
            if alpha >= beta:
                self.history[p] = self.history.get(p, 0) + 1
                break
        if best_value <= a0:
            kind = UPPER
        elif best_value >= b0:
            kind = LOWER
        else:
            kind = EXACT
        self.table[key] = (kind, best_value, 0, best_move)
        return best_value


def two_player_value(pos: Position, deadline: float | None, window: tuple[int, int] | None = None,
                     outlook=None, stop=None) -> tuple[int, Move | None, int]:
    """(seat 1 minus seat 2 under best play, best move, nodes); raises
    OutOfTime (also once the event ``stop`` is set). ``window``: proven bounds on the value, if known;
    ``outlook(pos)``: proven (lowest, highest) final score per colour (see
    :class:`solver.endgame.analysis.ScoreOutlook`), used to cut branches and to settle
    positions whose outcome no longer depends on play."""

    def seat_difference(p: Position) -> int:
        s1, s2 = p.seat_scores()
        return s1 - s2

    def bounds(p: Position) -> tuple[int, int]:
        (l0, h0), (l1, h1), (l2, h2), (l3, h3) = outlook(p)
        return l0 + l2 - h1 - h3, h0 + h2 - l1 - l3

    tree = GameTree(pos, {0, 2}, seat_difference, deadline, bounds if outlook else None, stop)
    value, move = tree.best(window)
    return value, move, tree.nodes


def guaranteed_score(pos: Position, color: int, deadline: float | None,
                     outlook=None, stop=None) -> tuple[int, Move | None, int]:
    """(score colour can guarantee against any play of the others, its best
    move when it is to move, nodes); raises OutOfTime. ``outlook`` and
    ``stop`` as in :func:`two_player_value`."""
    tree = GameTree(pos, _side_of(pos, color), lambda p: p.score(color), deadline,
                    (lambda p: outlook(p)[color]) if outlook else None, stop)
    value, move = tree.best()
    return value, move, tree.nodes


def _side_of(pos: Position, color: int):
    """Who plays for ``color``: the colour itself, and in the Three-Player
    game the shared colour whenever it is that player's turn with it."""
    shared = pos.variant.shared
    if shared is None:
        return {color}
    return lambda p: p.to_move == color or (p.to_move == shared and p.shared_player() == color)


def playing_alone(pos: Position, color: int) -> Position:
    """A copy of the position in which the other colours hold nothing, so
    that ``color`` plays alone: a game whose value is its solo optimum."""
    alone = pos.copy()
    for o in range(len(alone.hand)):
        if o != color:
            alone.hand[o] = alone.spare[o] = 0
            alone.cands[o] = ()
    alone.to_move = color if alone.has_legal_move(color) else None
    return alone


def solo_optimum(pos: Position, color: int, deadline: float | None) -> tuple[int, list[Move], int]:
    """(best final score of ``color`` if the others placed nothing more, the
    moves reaching it, nodes), by playing: for games the puzzle engines do
    not model (Junior's pieces come twice, and it has no bonuses). Raises
    OutOfTime."""
    alone = playing_alone(pos, color)
    tree = GameTree(alone, {color}, lambda p: p.score(color), deadline)
    value, move = tree.best()
    line = []
    while move is not None:  # follow the best line through the table
        line.append(move)
        alone.push(move)
        move = tree.best()[1] if not alone.game_over else None
    return value, line, tree.nodes
