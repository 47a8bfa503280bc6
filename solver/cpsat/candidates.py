"""The candidate placements of the model (:func:`add_candidates`): one
boolean per placement a colour could ever use.

A candidate lies in the colour's region (free squares, not edge-adjacent to
its set-up pieces, reachable by king moves from its root under the ``game``
rule), clear of the same-shape rule's set-up blocks, and (``game`` rule,
a rooted colour) at the end of a chain of placements from the root that
uses each piece at most once: each placement of a solution touches an
earlier one, or a set-up piece, at a corner, without overlapping or
sharing an edge with it, so every placement of a solution is reached by
such a chain (:func:`chained`). On endgame boards the king-move region
runs through diagonal gaps no piece can use; the chains see the real way
in (a colour walled in with three legal moves keeps those three
candidates, not 360; one whose only way on is a domino and a tromino
keeps 6, not 958).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from solver.core.geometry import COLORS, squares_of
from solver.core.pieces import NUM_PIECES
from solver.core.placements import Placement
from solver.puzzle.definition import Connect, Goal, Puzzle, SameShape

if TYPE_CHECKING:
    from solver.cpsat.variables import PuzzleModel

# chains are followed only up to this many candidates of a colour (an
# endgame has a few hundred; solo-21's 30,000 would take seconds to follow
# and prune nothing on an empty board), and for this many steps
CHAIN_LIMIT = 6000
CHAIN_WORK = 2_000_000
CHAIN_SETS = 4  # minimal sets of pieces kept per placement (4: 0.01-0.1 s per endgame)


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
    """The candidates of colour c at the end of a chain of placements of
    distinct pieces from its root (all of them when its root is open: no
    set-up and no start square). A chain starts with a placement that
    touches a set-up piece at a corner (or covers a start square, without
    set-up) and goes on through placements that touch the one before at a
    corner, clear of it, each of a piece not yet in the chain. Each
    placement keeps the minimal sets of pieces that reach it, at most
    :data:`CHAIN_SETS`; past that, their intersection stands for them all
    (fewer pieces: a relaxation, never a loss). Past :data:`CHAIN_WORK`
    steps, every candidate is kept."""
    t = puzzle.table
    seeds = _chain_seeds(puzzle, c, cands)
    if seeds is None:
        return cands
    covering: dict[int, list[Placement]] = {}
    for p in cands:
        for s in t.squares[p]:
            covering.setdefault(s, []).append(p)
    sets: dict[Placement, list[int]] = {p: [1 << t.piece[p]] for p in seeds}
    queue = deque((p, 1 << t.piece[p]) for p in seeds)
    work = 0
    while queue:
        p, used = queue.popleft()
        if used not in sets[p]:
            continue  # replaced by a smaller set since
        near = t.mask[p] | t.edge[p]
        for s in squares_of(t.corner[p]):
            for q in covering.get(s, ()):
                work += 1
                bit = 1 << t.piece[q]
                if used & bit or t.mask[q] & near:
                    continue
                more = _keep_minimal(sets.setdefault(q, []), used | bit)
                if more is not None:
                    queue.append((q, more))
        if work > CHAIN_WORK:
            return cands
    return [p for p in cands if p in sets]


def _chain_seeds(puzzle: Puzzle, c: int, cands: list[Placement]) -> list[Placement] | None:
    """The placements a chain starts with: those touching a set-up piece of
    colour c at a corner, or (no set-up) covering one of its start squares;
    None when its root is open."""
    t, b = puzzle.table, puzzle.board
    setup = puzzle.masks.setup[c]
    if setup:
        return [p for p in cands if t.corner[p] & setup]
    if b.start_masks[c]:
        return [p for p in cands if t.mask[p] & b.start_masks[c]]
    return None


def _keep_minimal(have: list[int], new: int) -> int | None:
    """Add a set of pieces to a placement's minimal sets; returns the set to
    follow on from (``new``, or the intersection when there are too many),
    or None when a set already kept is contained in it."""
    if any(h & new == h for h in have):
        return None
    have[:] = [h for h in have if h & new != new] + [new]
    if len(have) > CHAIN_SETS:
        for h in have:
            new &= h
        have[:] = [new]
    return new


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
