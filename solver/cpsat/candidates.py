"""The candidate placements of the model (:func:`add_candidates`): one
boolean per placement a colour could ever use.

A candidate lies in the colour's region (free squares, not edge-adjacent to
its set-up pieces, reachable by king moves from its root under the ``game``
rule), clear of the same-shape rule's set-up blocks, and (``game`` rule,
a rooted colour) at the end of a chain of placements from the root that
fits in its hand: each placement of a solution touches an earlier one, or
a set-up piece, at a corner, without overlapping or sharing an edge with
it, so every placement of a solution is reached by such a chain, and the
chain holds at most the squares in hand (:func:`chained`). On endgame
boards the king-move region runs through diagonal gaps no piece can use;
the chains see the real way in (a colour walled in with three legal moves
keeps those three candidates, not 360).
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from ..geometry import COLORS, squares_of
from ..pieces import NUM_PIECES, PIECE_SIZES
from ..placements import Placement
from ..puzzle import Connect, Goal, Puzzle, SameShape

if TYPE_CHECKING:
    from .model import PuzzleModel

# chains are followed only up to this many candidates of a colour (an
# endgame has a few hundred; solo-21's 30,000 would take seconds to follow
# and prune nothing on an empty board)
CHAIN_LIMIT = 6000


def add_candidates(m: PuzzleModel) -> None:
    """One boolean per candidate placement (see the module docstring); the
    colour's region becomes the squares its candidates cover."""
    puzzle, t = m.puzzle, m.puzzle.table
    owned = _owned_starts(puzzle)
    shape_block = _same_shape_blocks(puzzle)
    for c in puzzle.colors:
        if puzzle.connect is Connect.GAME:
            m.root_mask[c] = root_squares(puzzle, c)
        allowed = _region(puzzle, c, owned)
        cands = [p for piece in puzzle.pieces[c] for p in t.by_piece[piece]
                 if not t.mask[p] & ~allowed and not t.mask[p] & shape_block[piece]]
        if puzzle.connect is Connect.GAME and len(cands) <= CHAIN_LIMIT:
            cands = chained(puzzle, c, cands)
            allowed = 0
            for p in cands:
                allowed |= t.mask[p]
        m.region[c] = allowed
        for p in cands:
            m.x[c, p] = m.model.new_bool_var(f"x_{COLORS[c]}_{p}")


def chained(puzzle: Puzzle, c: int, cands: list[Placement]) -> list[Placement]:
    """The candidates of colour c at the end of a chain from its root that
    holds at most its squares in hand (all of them when its root is open:
    no set-up and no start square). A chain starts with a placement that
    touches a set-up piece at a corner (or covers a start square, without
    set-up) and goes on through placements that touch the one before at a
    corner, clear of it; its cost is the squares of its placements
    (shortest chains first, a piece may repeat: a relaxation)."""
    t, b = puzzle.table, puzzle.board
    setup = puzzle.masks.setup[c]
    if setup:
        cost = {p: len(t.squares[p]) for p in cands if t.corner[p] & setup}
    elif b.start_masks[c]:
        cost = {p: len(t.squares[p]) for p in cands if t.mask[p] & b.start_masks[c]}
    else:
        return cands
    budget = sum(PIECE_SIZES[i] for i in puzzle.pieces[c])
    covering: dict[int, list[Placement]] = {}
    for p in cands:
        for s in t.squares[p]:
            covering.setdefault(s, []).append(p)
    heap = [(d, p) for p, d in cost.items()]
    heapq.heapify(heap)
    done: set[Placement] = set()
    while heap:
        d, p = heapq.heappop(heap)
        if p in done or d > budget:
            continue
        done.add(p)
        near = t.mask[p] | t.edge[p]
        for s in squares_of(t.corner[p]):
            for q in covering.get(s, ()):
                e = d + len(t.squares[q])
                if q not in done and e < cost.get(q, budget + 1) and not t.mask[q] & near:
                    cost[q] = e
                    heapq.heappush(heap, (e, q))
    return [p for p in cands if p in done]


def _owned_starts(puzzle: Puzzle) -> int:
    """Start squares that belong to one colour alone and that it must cover
    (its only start square, no set-up, pieces to place): no other colour
    may cover them."""
    b = puzzle.board
    owned = 0
    if puzzle.goal is not Goal.MAXIMIZE:
        for c in puzzle.colors:
            if len(b.starts[c]) == 1 and not puzzle.setup_of(c) and puzzle.pieces[c]:
                owned |= b.start_masks[c]
    return owned


def _same_shape_blocks(puzzle: Puzzle) -> list[int]:
    """Per piece, the squares the same-shape rule closes to it: the set-up
    pieces of that shape and the squares next to them."""
    t = puzzle.table
    blocks = [0] * NUM_PIECES
    if puzzle.same_shape is not SameShape.NONE:
        for c in range(4):
            for p in puzzle.setup_of(c):
                around = t.edge[p] | (t.corner[p] if puzzle.same_shape is SameShape.CORNER else 0)
                blocks[t.piece[p]] |= t.mask[p] | around
    return blocks


def _region(puzzle: Puzzle, c: int, owned: int) -> int:
    """The squares colour c may cover: free, not edge-adjacent to its set-up
    pieces, not another colour's owned start square, and (``game`` rule)
    reachable by king moves from its set-up pieces or start squares."""
    b, setup = puzzle.board, puzzle.masks.setup[c]
    allowed = puzzle.masks.free & ~b.edge_neighbours(setup) & ~(owned & ~b.start_masks[c])
    if puzzle.connect is not Connect.GAME:
        return allowed
    if setup:
        seed = b.corner_neighbours(setup) & allowed
    else:
        seed = (b.start_masks[c] or allowed) & allowed
    return b.king_fill(seed, allowed)


def root_squares(puzzle: Puzzle, c: int) -> int:
    """Squares where colour c's group surely starts: its set-up pieces, or
    its start square when it has exactly one (0 when the root is open)."""
    setup = puzzle.masks.setup[c]
    if setup:
        return setup
    starts = puzzle.board.starts[c]
    return puzzle.board.start_masks[c] if len(starts) == 1 else 0
