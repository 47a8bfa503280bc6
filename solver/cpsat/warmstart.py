"""A warm start for one colour's puzzles, computed here from the model's
own candidates (:func:`warm_start`), nothing of the search engine:

- a packing search for every piece (:func:`_pack_all`, the monomino last
  when that scores): attach square with the fewest options, covered or
  closed, pruned when the pieces left no longer fit the king-move region of
  the legal placements; node-bounded. It is the whole warm start of a
  place-all puzzle (solo-21 packs in 22 nodes) and comes first for solo
  optima, where reaching the top score leaves CP-SAT nothing to prove
  (the optimum of 22 of the 37 slowest endgames, against 6);
- for maximize puzzles, then, a depth-first search in play order over a
  bounded number of nodes, larger pieces first and, among placements of one
  size, those that leave fewer free squares around them; the monomino is
  kept for last (+20) unless nothing else fits.

The best solution becomes a complete hint, so CP-SAT starts from a good
objective instead of searching minutes for its first solution (it spends
0.3-3 s finding even the empty one on endgames).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from solver.core.geometry import squares_of
from solver.core.pieces import MONOMINO, PIECE_SIZES
from solver.core.placements import Placement
from solver.core.scoring import best_bonus
from solver.puzzle.definition import Connect, Goal, Measure
from solver.puzzle.result import Solution
from solver.puzzle.verify import VerificationError, verify

if TYPE_CHECKING:
    from solver.cpsat.variables import PuzzleModel

NODES = 1000  # nodes of the depth-first search (0.01-0.06 s on endgames)
WIDTH = 6  # placements tried per node, best first
PACK_NODES = 1500  # nodes of each packing search (every piece placed)


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
    return _rooted(m)


def packs(m: PuzzleModel) -> bool:
    """One colour placing all its pieces under the ``game`` rule from a root
    (solo-21): the packing search alone makes the warm start."""
    p = m.puzzle
    return p.goal is Goal.PLACE_ALL and len(p.colors) == 1 and _rooted(m)


def _rooted(m: PuzzleModel) -> bool:
    p = m.puzzle
    (c,) = p.colors
    return p.connect is Connect.GAME and bool(p.masks.setup[c] or p.board.start_masks[c]) and not p.masks.stars


def warm_start(m: PuzzleModel, pack: bool = True) -> Solution | None:
    """The best solution the bounded searches find (None when it does not
    apply, or finds nothing verifiable): for a maximize puzzle a packing of
    every piece (:func:`_pack_all`), else the best of the depth-first
    search in play order; for a place-all puzzle the packing alone.
    ``pack`` False leaves the packing search out (benchmarks)."""
    maximize = applies(m)
    if not maximize and not (pack and packs(m)):
        return None
    puzzle, t = m.puzzle, m.puzzle.table
    (c,) = puzzle.colors
    covering: dict[int, list[Placement]] = {}
    for (col, p) in m.x:
        for s in t.squares[p]:
            covering.setdefault(s, []).append(p)
    hand = sum(PIECE_SIZES[i] for i in puzzle.pieces[c])
    if not maximize:
        top = hand
    else:
        top = best_bonus(MONOMINO in puzzle.pieces[c]) if puzzle.measure is Measure.SCORE else hand
    search = _Search(m, c, covering, hand, top)
    own = puzzle.masks.setup[c]
    edge = puzzle.board.edge_neighbours(own)
    taken = puzzle.masks.taken
    if own:
        legal = [p for (_, p) in m.x if t.corner[p] & own and not t.mask[p] & (taken | edge)]
    else:
        legal = [p for (_, p) in m.x if t.mask[p] & puzzle.board.start_masks[c] and not t.mask[p] & taken]
    if pack and PACK_NODES:
        _pack_all(search, legal, taken, edge)
    if maximize and not search.done():
        search.nodes = 0
        _dfs(search, legal, taken, edge, 0, [])
    if search.best_value is None:
        return None
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


# -- every piece placed ---------------------------------------------------------------

@dataclass
class _Pack:
    """A complete search for a packing of every piece in hand (the monomino
    last, when ``mono_last``), node-bounded: each node takes the attach
    square (free, touching the colour at a corner) that the fewest legal
    placements cover, and either covers it with one of them (larger pieces
    first) or closes it for good. Every connected packing is met, and a
    node is dropped as soon as the pieces in hand no longer fit, by shape or
    area, into the squares king moves reach from the legal placements."""

    search: _Search
    hand_pieces: int  # bits of the pieces to place
    mono_last: bool
    nodes: int = 0
    found: list[Placement] | None = None


def _pack_all(search: _Search, legal: list[Placement], taken: int, edge: int) -> None:
    """Look for a packing of every piece; for the advanced score first with
    the monomino last (+20), then (when that fails within the nodes) with
    it anywhere (+15); a verified packing becomes the search's best."""
    puzzle, t = search.m.puzzle, search.m.puzzle.table
    c = search.c
    pieces = 0
    for i in puzzle.pieces[c]:
        pieces |= 1 << i
    have = 0
    for (_, p) in search.m.x:
        have |= 1 << t.piece[p]
    if have != pieces:
        return  # some piece fits nowhere
    maximize = puzzle.goal is Goal.MAXIMIZE
    bonus = maximize and puzzle.measure is Measure.SCORE
    mono = pieces >> MONOMINO & 1 and len(puzzle.pieces[c]) + len(puzzle.setup_of(c)) > 1
    if puzzle.monomino_last and mono:
        tries = [True]
    else:
        tries = [True, False] if bonus and mono else [False]
    for mono_last in tries:
        pack = _Pack(search, pieces, mono_last)
        try:
            _pack(pack, legal, taken, taken | edge, puzzle.masks.setup[c], 0, [])
        except RecursionError:  # (a path of more closed squares than Python's stack allows)
            continue
        if pack.found is None:
            continue
        found = [(c, p) for p in pack.found]
        try:
            value = verify(puzzle, found).objective if maximize else search.hand
        except VerificationError:
            continue
        if search.best_value is None or value > search.best_value:
            search.best_value, search.best = value, pack.found
        return


def _pack(pack: _Pack, legal: list[Placement], taken: int, forb: int, own: int, used: int,
          chosen: list[Placement]) -> bool:
    """One node of the packing search; True once a packing is found (or the
    nodes are spent)."""
    search = pack.search
    m, t = search.m, search.m.puzzle.table
    pack.nodes += 1
    if used == pack.hand_pieces:
        pack.found = list(chosen)
        return True
    if pack.nodes > PACK_NODES:
        return True
    last_only = pack.mono_last and used | 1 << MONOMINO != pack.hand_pieces
    usable = [q for q in legal if not (last_only and t.piece[q] == MONOMINO)]
    if _pack_dead(pack, usable, forb, used):
        return False
    counts: dict[int, int] = {}
    attach = m.puzzle.board.corner_neighbours(own) & ~forb if own else ~forb
    for q in usable:
        for sq in squares_of(t.mask[q] & attach):
            counts[sq] = counts.get(sq, 0) + 1
    if not counts:
        return False
    s = min(counts, key=lambda sq: (counts[sq], sq))
    bit = 1 << s
    options = sorted((q for q in usable if t.mask[q] & bit),
                     key=lambda q: (-len(t.squares[q]), (t.edge[q] & ~taken).bit_count()))
    for p in options:
        mask, pbit = t.mask[p], 1 << t.piece[p]
        nforb = forb | mask | t.edge[p]
        after = [q for q in legal if not t.mask[q] & nforb and not (used | pbit) >> t.piece[q] & 1]
        seen = set(after)
        for sq in squares_of(t.corner[p]):
            for q in search.covering.get(sq, ()):
                if q not in seen and not t.mask[q] & nforb and not (used | pbit) >> t.piece[q] & 1:
                    seen.add(q)
                    after.append(q)
        chosen.append(p)
        if _pack(pack, after, taken | mask, nforb, own | mask, used | pbit, chosen):
            return True
        chosen.pop()
    # s stays empty for good
    return _pack(pack, [q for q in legal if not t.mask[q] & bit], taken, forb | bit, own, used, chosen)


def _pack_dead(pack: _Pack, usable: list[Placement], forb: int, used: int) -> bool:
    """The pieces still to place (the monomino aside when it comes last) no
    longer fit, by area or shape, in the region the legal placements reach."""
    search = pack.search
    m, t = search.m, search.m.puzzle.table
    seed = 0
    for q in usable:
        seed |= t.mask[q]
    region = m.puzzle.board.king_fill(seed, m.region[search.c] & ~forb)
    rest = pack.hand_pieces & ~used
    need = 0
    for i in squares_of(rest):
        need += PIECE_SIZES[i]
    if region.bit_count() < need:
        return True
    if pack.mono_last:
        rest &= ~(1 << MONOMINO)
    return any(not t.fits(i, region) for i in squares_of(rest))
