"""A warm start for one colour's maximize puzzles (endgame solo optima),
computed here from the model's own candidates (:func:`warm_start`): a
depth-first search in play order over a bounded number of nodes, larger
pieces first and, among placements of one size, those that leave fewer free
squares around them; the monomino is kept for last (+20) unless nothing else
fits. Its best solution becomes a complete hint, so CP-SAT starts from a
good objective instead of searching minutes for its first solution (it
spends 0.3-3 s finding even the empty one on endgames).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..geometry import squares_of
from ..pieces import MONOMINO, PIECE_SIZES
from ..placements import Placement
from ..puzzle import Connect, Goal, Measure
from ..result import Solution
from ..scoring import best_bonus
from ..verify import VerificationError, verify

if TYPE_CHECKING:
    from .model import PuzzleModel

NODES = 1000  # nodes of the depth-first search (0.01-0.06 s on endgames)
WIDTH = 6  # placements tried per node, best first


@dataclass
class _Search:
    """The state of the depth-first search: the candidates touching each
    square, the best solution so far, the nodes spent."""

    m: PuzzleModel
    c: int
    covering: dict[int, list[Placement]]
    hand: int  # squares in hand
    top: int  # the best value there can be: stop when reached
    best_value: int | None = None
    best: list[Placement] = field(default_factory=list)
    nodes: int = 0

    def done(self) -> bool:
        return self.nodes >= NODES or self.best_value is not None and self.best_value >= self.top


def applies(m: PuzzleModel) -> bool:
    """One colour maximizing its own score or squares under the ``game``
    rule from a root (set-up pieces, or start squares)."""
    p = m.puzzle
    if p.goal is not Goal.MAXIMIZE or len(p.colors) != 1 or p.target != p.colors or p.monomino_last:
        return False
    (c,) = p.colors
    return p.connect is Connect.GAME and bool(p.masks.setup[c] or p.board.start_masks[c]) and not p.masks.stars


def warm_start(m: PuzzleModel) -> Solution | None:
    """The best solution the bounded search finds (None when it does not
    apply, or finds nothing verifiable)."""
    if not applies(m):
        return None
    puzzle, t = m.puzzle, m.puzzle.table
    (c,) = puzzle.colors
    covering: dict[int, list[Placement]] = {}
    for (col, p) in m.x:
        for s in t.squares[p]:
            covering.setdefault(s, []).append(p)
    hand = sum(PIECE_SIZES[i] for i in puzzle.pieces[c])
    top = best_bonus(MONOMINO in puzzle.pieces[c]) if puzzle.measure is Measure.SCORE else hand
    search = _Search(m, c, covering, hand, top)
    own = puzzle.masks.setup[c]
    edge = puzzle.board.edge_neighbours(own)
    taken = puzzle.masks.taken
    if own:
        legal = [p for (_, p) in m.x if t.corner[p] & own and not t.mask[p] & (taken | edge)]
    else:
        legal = [p for (_, p) in m.x if t.mask[p] & puzzle.board.start_masks[c] and not t.mask[p] & taken]
    _dfs(search, legal, taken, edge, 0, [])
    solution = [(c, p) for p in search.best]
    try:
        verify(puzzle, solution)
    except VerificationError:
        return None
    return solution


def _value(search: _Search, chosen: list[Placement]) -> int:
    """The objective of the placements so far, in play order."""
    puzzle, t = search.m.puzzle, search.m.puzzle.table
    squares = sum(len(t.squares[p]) for p in chosen)
    if puzzle.measure is Measure.SQUARES:
        return squares
    if len(chosen) < len(puzzle.pieces[search.c]):
        return squares - search.hand
    return best_bonus(t.piece[chosen[-1]] == MONOMINO and (len(chosen) > 1 or bool(puzzle.setup_of(search.c))))


def _dfs(search: _Search, legal: list[Placement], taken: int, edge: int, used: int, chosen: list[Placement]) -> None:
    """Place one more piece, each of the best few legal placements in turn."""
    t = search.m.puzzle.table
    search.nodes += 1
    value = _value(search, chosen)
    if search.best_value is None or value > search.best_value:
        search.best_value, search.best = value, list(chosen)
    if search.done():
        return
    for p in _ordered(search, legal, taken, len(chosen)):
        mask, bit = t.mask[p], 1 << t.piece[p]
        chosen.append(p)
        _dfs(search, _next_legal(search, legal, p, taken | mask, edge | t.edge[p], used | bit),
             taken | mask, edge | t.edge[p], used | bit, chosen)
        chosen.pop()
        if search.done():
            return


def _ordered(search: _Search, legal: list[Placement], taken: int, placed: int) -> list[Placement]:
    """The placements to try: the monomino only when it can be last or nothing
    else fits; larger pieces first, then those with fewer free squares along
    their edges; the best :data:`WIDTH`."""
    t = search.m.puzzle.table
    last = placed == len(search.m.puzzle.pieces[search.c]) - 1
    moves = [p for p in legal if (t.piece[p] == MONOMINO) == last]
    if not moves:
        moves = [p for p in legal if t.piece[p] == MONOMINO]
    moves.sort(key=lambda p: (-len(t.squares[p]), (t.edge[p] & ~taken).bit_count()))
    return moves[:WIDTH]


def _next_legal(search: _Search, legal: list[Placement], p: Placement, taken: int, edge: int,
                used: int) -> list[Placement]:
    """The legal placements after p: the earlier ones still clear, and the
    candidates touching p at a corner."""
    t = search.m.puzzle.table
    out = [q for q in legal if not t.mask[q] & (taken | edge) and not used >> t.piece[q] & 1]
    seen = set(out)
    for s in squares_of(t.corner[p]):
        for q in search.covering.get(s, ()):
            if q not in seen and not t.mask[q] & (taken | edge) and not used >> t.piece[q] & 1:
                seen.add(q)
                out.append(q)
    return out
