"""The search engine's mutable state over a puzzle, with undo.

Per colour it keeps, as :class:`~solver.core.position.Position` does, a forbidden
mask (occupied, blocked, must-stay-empty, edge-adjacent to the colour, one
bit per piece it may not place) and candidate placements grown at attach
squares. Puzzle constraints that are not per colour (same-shaped pieces not
touching) live in ``shape_block``: squares a piece of that shape may not
cover. Under the ``touch`` and ``free`` rules every placement is a candidate.
"""

from __future__ import annotations

from solver.core.geometry import NUM_COLORS, Mask, mask_of, squares_of
from solver.core.pieces import ALL_PIECES_MASK, MONOMINO, PIECE_SIZES, PIECES
from solver.core.placements import Placement
from solver.core.position import grow_candidates
from solver.puzzle.definition import Connect, Puzzle, SameShape


class SearchState:
    def __init__(self, puzzle: Puzzle, extra_forbidden: Mask = 0):
        self.puzzle = puzzle
        self.t = t = puzzle.table
        self.b = b = puzzle.board
        self.game = puzzle.connect is Connect.GAME
        self.shapes = puzzle.same_shape is not SameShape.NONE
        setup_sq = puzzle.masks.setup
        base = puzzle.masks.taken | extra_forbidden
        self.occupied = list(setup_sq)
        self.left = [0] * NUM_COLORS
        self.squares_left = [0] * NUM_COLORS
        self.forb = [0] * NUM_COLORS
        self.reach = [0] * NUM_COLORS
        self.cands: list[tuple[Placement, ...]] = [()] * NUM_COLORS
        self.shape_block = [0] * len(PIECES)
        for c in range(NUM_COLORS):
            for p in puzzle.setup_of(c):
                self._block_shape(p)
        for c in range(NUM_COLORS):
            listed = puzzle.pieces.get(c, ()) if c in puzzle.colors else ()
            self.left[c] = mask_of(listed)
            self.squares_left[c] = sum(PIECE_SIZES[i] for i in listed)
            unlisted = (ALL_PIECES_MASK & ~self.left[c]) << t.piece_bit_base
            self.forb[c] = base | b.edge_neighbours(setup_sq[c]) | unlisted
            if not self.game:
                reach = b.open_mask
            elif setup_sq[c]:
                reach = b.corner_neighbours(setup_sq[c]) & b.open_mask
            elif b.start_masks[c]:
                reach = b.start_masks[c]
            else:
                reach = b.open_mask
            self.reach[c] = reach
            f = self.forb[c]
            found: set[Placement] = set()
            if self.left[c]:
                for sq in squares_of(reach & ~f):
                    found.update(p for p in t.covering[sq] if not t.key[p] & f)
            self.cands[c] = tuple(sorted(found))
        self.placed: list[tuple[int, Placement]] = []
        self.unplayable = [0] * NUM_COLORS  # pieces with no legal placement (set by bounds)
        self._undo: list[tuple] = []

    def _block_shape(self, p: Placement) -> None:
        if self.shapes:
            t = self.t
            around = t.edge[p] | (t.corner[p] if self.puzzle.same_shape is SameShape.CORNER else 0)
            self.shape_block[t.piece[p]] |= t.mask[p] | around

    def clone(self) -> "SearchState":
        """An independent copy (undo history not included)."""
        other = SearchState.__new__(SearchState)
        other.__dict__.update(self.__dict__)
        for name in ("occupied", "forb", "reach", "cands", "left", "squares_left", "shape_block", "placed", "unplayable"):
            setattr(other, name, list(getattr(self, name)))
        other._undo = []
        return other

    # -- moves ------------------------------------------------------------------
    def legal(self, c: int) -> list[Placement]:
        """Candidate placements of c that are still valid (pruned in place)."""
        f = self.forb[c]
        key = self.t.key
        cands = self.cands[c]
        legal = [p for p in cands if not key[p] & f]
        if self.shapes:
            mask, piece, block = self.t.mask, self.t.piece, self.shape_block
            legal = [p for p in legal if not mask[p] & block[piece[p]]]
        if len(legal) != len(cands):
            self.cands[c] = tuple(legal)
        return legal

    def is_valid(self, c: int, p: Placement) -> bool:
        """Valid now: no overlap, no edge contact, piece in hand, shape rule
        (attachment is the caller's business)."""
        t = self.t
        if t.key[p] & self.forb[c]:
            return False
        return not (self.shapes and t.mask[p] & self.shape_block[t.piece[p]])

    def push(self, c: int, p: Placement) -> None:
        t = self.t
        self._undo.append(
            (self.occupied[:], self.forb[:], self.reach[:], self.cands[:], self.left[:],
             self.squares_left[:], self.shape_block[t.piece[p]])
        )
        m = t.mask[p]
        f = self.forb
        for o in range(NUM_COLORS):
            f[o] |= m
        piece = t.piece[p]
        fc = f[c] = f[c] | t.edge[p] | (1 << (t.piece_bit_base + piece))
        first = not self.occupied[c]
        self.occupied[c] |= m
        self.left[c] &= ~(1 << piece)
        self.squares_left[c] -= PIECE_SIZES[piece]
        self._block_shape(p)
        if self.game:
            self.reach[c], self.cands[c] = grow_candidates(
                t, p, fc, 0 if first else self.reach[c], () if first else self.cands[c]
            )
        self.placed.append((c, p))

    def pop(self) -> tuple[int, Placement]:
        c, p = self.placed.pop()
        (self.occupied, self.forb, self.reach, self.cands, self.left, self.squares_left,
         self.shape_block[self.t.piece[p]]) = self._undo.pop()
        return c, p

    # -- queries ----------------------------------------------------------------
    @property
    def all_occupied(self) -> Mask:
        o = self.occupied
        return o[0] | o[1] | o[2] | o[3]

    def done(self) -> bool:
        return not any(self.left)

    def only_monomino_left(self, c: int) -> bool:
        return self.left[c] == 1 << MONOMINO

    def attach_squares(self, c: int) -> Mask:
        """Empty squares where a new piece of c would touch it at a corner."""
        return self.reach[c] & ~self.forb[c]
