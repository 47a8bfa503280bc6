"""Pruning for the search engine: which squares each colour could still
cover, and the dead ends that follow.

A colour's future pieces lie on squares it may cover (not forbidden) and,
under the ``game`` rule, are chained by corner contact to one of its legal
moves of now (the forbidden squares only grow, so no other move will ever
appear), so they lie in the king-move region grown from those moves. Without its monomino a colour cannot cover a square that has no
free edge-neighbour. A place-all branch is dead when a colour's region is
smaller than the squares it must still place, when a star square lies in
no colour's region, or when more empty squares lie in no region than the
puzzle can leave empty.
"""

from __future__ import annotations

from solver.core.geometry import Mask, mask_of, squares_of
from solver.core.pieces import MONOMINO, PIECE_SIZES, PIECES

# big and awkward shapes first: they are the ones that stop fitting
FIT_ORDER = sorted(range(len(PIECES)), key=lambda i: (-PIECES[i].size, len(PIECES[i].orientations)))
from solver.packing.state import SearchState


def coverable(state: SearchState, c: int) -> Mask:
    """Squares colour c could still cover (a superset of the truth). Under
    the ``game`` rule its future pieces grow from its legal moves of now:
    the region is what king moves reach from their squares."""
    b = state.b
    free = ~state.forb[c] & b.full_mask
    if state.game:
        mask, piece = state.t.mask, state.t.piece
        seed = pieces = 0
        for p in state.legal(c):
            seed |= mask[p]
            pieces |= 1 << piece[p]
        state.unplayable[c] = state.left[c] & ~pieces
        region = b.king_fill(seed, free)
    else:
        region = free
    if not state.left[c] >> MONOMINO & 1:
        region &= _has_free_edge_neighbour(b, free)
    return region


def _has_free_edge_neighbour(b, free: Mask) -> Mask:
    s = b.shift
    return free & (s(free, 1, 0) | s(free, -1, 0) | s(free, 0, 1) | s(free, 0, -1))


def small_holes(b, empty: Mask, limit: int = 4) -> list[int]:
    """Squares in edge-connected empty regions of 1..limit squares, by size:
    ``out[k]`` is the number of squares in regions of exactly k squares."""
    out = [0] * (limit + 1)
    s = b.shift
    # squares with few empty neighbours are the only candidates
    rest = empty
    nb = s(empty, 1, 0), s(empty, -1, 0), s(empty, 0, 1), s(empty, 0, -1)
    seeds = empty & ~((nb[0] & nb[1]) | (nb[2] & nb[3]) | (nb[0] & nb[2]) | (nb[1] & nb[3]) | (nb[0] & nb[3]) | (nb[1] & nb[2]))
    while seeds:
        low = seeds & -seeds
        region = low
        for _ in range(limit):
            grown = (region | s(region, 1, 0) | s(region, -1, 0) | s(region, 0, 1) | s(region, 0, -1)) & rest
            if grown == region or grown.bit_count() > limit:
                region = grown
                break
            region = grown
        n = region.bit_count()
        if n <= limit and ((region | s(region, 1, 0) | s(region, -1, 0) | s(region, 0, 1) | s(region, 0, -1)) & rest) == region:
            out[n] += n
            rest &= ~region
        seeds &= ~region & ~low
    return out


def all_pieces_fit(state: SearchState, c: int, region: Mask) -> bool:
    """Each piece colour c still has fits (some orientation) inside region."""
    for i in FIT_ORDER:
        if state.left[c] >> i & 1 and not state.t.fits(i, region):
            return False
    return True


class PlaceAllBounds:
    """Dead-end test for place-all goals; also reports each colour's slack
    (coverable squares minus squares still to place) for colour choice."""

    def __init__(self, state: SearchState, stars: Mask = 0):
        self.state = state
        self.stars = stars
        b = state.b
        self.open = b.open_mask & ~mask_of(state.puzzle.empty)
        self.slack: dict[int, int] = {}

    def dead(self) -> bool:
        waste = self.waste()
        return waste is None or waste > self.spare

    def waste(self) -> int | None:
        """Squares certain to stay empty (a lower bound), or None when a
        colour cannot place its pieces any more. Sets ``spare``: the empty
        squares the goal may still leave."""
        st = self.state
        union = 0
        self.slack = {}
        for c in st.puzzle.colors:
            if not st.left[c]:
                continue
            region = coverable(st, c)
            slack = region.bit_count() - st.squares_left[c]
            if slack < 0 or not all_pieces_fit(st, c, region):
                return None
            self.slack[c] = slack
            union |= region
        empty = self.open & ~st.all_occupied
        if self.stars & empty & ~union:
            return None
        self.spare = spare = empty.bit_count() - sum(st.squares_left)
        dead = (empty & ~union).bit_count()
        if dead > spare:
            return dead
        # a piece covering a square of a closed hole of k squares lies inside
        # it, so holes of up to k squares take at most the small pieces' squares
        holes = small_holes(st.b, empty & union)
        small = [0] * 5
        for c in st.puzzle.colors:
            for i in squares_of(st.left[c]):
                if PIECE_SIZES[i] <= 4:
                    small[PIECE_SIZES[i]] += PIECE_SIZES[i]
        in_holes = fit = 0
        worst = 0
        for k in range(1, 5):
            in_holes += holes[k]
            fit += small[k]
            worst = max(worst, in_holes - fit)
        return dead + worst


