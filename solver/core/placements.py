"""The placement table of a board: every piece x orientation x position that
fits on it, built once per board and cached.

A placement is an int index into the table. Per placement the table keeps
its piece, its squares, and three bitmasks: the squares it covers, the
squares sharing an edge with it, and the squares touching it only at a
corner. ``key[p]`` is the square mask plus one bit for the piece (bit
``board.size + piece``), so that one AND against a colour's "forbidden"
mask checks overlap, edge contact and piece availability at once.
"""

from __future__ import annotations

from functools import cached_property, lru_cache

from solver.core.geometry import TRIANGLE, Board, Mask, Square, mask_of, squares_of
from solver.core.pieces import PIECES, normalise, piece_of_shape, triangle_points
from solver.errors import NotationError

Placement = int  # index into a PlacementTable


class PlacementTable:
    """Constant per-board tables (build with :func:`placement_table`)."""

    def __init__(self, board: Board):
        self.board = board
        self.piece: list[int] = []
        self.orientation: list[int] = []
        self.squares: list[tuple[Square, ...]] = []
        self.mask: list[Mask] = []
        self.key: list[Mask] = []
        self.edge: list[Mask] = []
        self.corner: list[Mask] = []
        self.piece_bit_base = board.size
        self._build()
        self.count = len(self.mask)
        self.by_mask: dict[Mask, Placement] = {m: i for i, m in enumerate(self.mask)}
        covering: list[list[Placement]] = [[] for _ in range(board.size)]
        for i, sqs in enumerate(self.squares):
            for sq in sqs:
                covering[sq].append(i)
        self.covering: list[tuple[Placement, ...]] = [tuple(c) for c in covering]
        by_piece: list[list[Placement]] = [[] for _ in PIECES]
        for i, piece in enumerate(self.piece):  # one pass: 43 pieces of both grids times 30,000 was 0.1 s
            by_piece[piece].append(i)
        self.by_piece: list[tuple[Placement, ...]] = [tuple(ps) for ps in by_piece]
        self._near = [
            mask_of(board.king_neighbours(sq)) & board.open_mask
            for sq in range(board.size)
        ]
        self._attach_cache: list[dict[Mask, tuple[Placement, ...]]] = [
            {} for _ in range(board.size)
        ]

    def _build(self) -> None:
        """Every orientation of every piece of the board's grid at every
        place where it covers no blocked cell, pieces in index order."""
        b = self.board
        places = b.geometry.places
        for piece in PIECES:
            if piece.grid != b.grid:
                continue
            for o, cells in enumerate(piece.orientations):
                for sqs in places(self, cells):
                    self._add(piece.index, o, sqs)

    def _add(self, piece: int, o: int, sqs) -> None:
        b = self.board
        m = mask_of(sqs)
        self.piece.append(piece)
        self.orientation.append(o)
        self.squares.append(tuple(sorted(sqs)))
        self.mask.append(m)
        self.key.append(m | 1 << (self.piece_bit_base + piece))
        self.edge.append(b.edge_neighbours(m) & b.open_mask)
        self.corner.append(b.corner_neighbours(m) & b.open_mask)

    @cached_property
    def cells_by_points(self) -> dict[tuple, Square]:
        """Triangle grid: the open cells by their corners (where a triangle
        shape's cells lie, :meth:`solver.core.grids.TriangleGrid.places`)."""
        b = self.board
        out = {}
        for sq in squares_of(b.open_mask):
            row, col = divmod(sq, b.width)
            out[tuple(sorted(triangle_points(row, col + b.parity, b.points_up(sq))))] = sq
        return out

    def __len__(self) -> int:
        return self.count

    def attach_candidates(self, sq: Square, forbidden: Mask) -> tuple[Placement, ...]:
        """Placements covering ``sq`` that avoid the forbidden squares among
        its eight neighbours (cached per local pattern). Callers still check
        the full forbidden mask; this only trims the list cheaply."""
        near = forbidden & self._near[sq]
        cache = self._attach_cache[sq]
        hit = cache.get(near)
        if hit is None:
            mask = self.mask
            hit = cache[near] = tuple(p for p in self.covering[sq] if not mask[p] & near)
        return hit

    def fits(self, piece: int, region: Mask) -> bool:
        """Whether some placement of the piece lies inside ``region`` (on
        squares by shifting the region, a few ANDs per orientation)."""
        b = self.board
        if b.geometry.shifts:
            return any(b.fits(region, o) for o in PIECES[piece].orientations)
        mask = self.mask
        return any(not mask[p] & ~region for p in self.by_piece[piece])

    # -- text ---------------------------------------------------------------
    def name(self, p: Placement) -> str:
        """The placement as Pentobi writes it: ``a1,b1,a2`` (row 1 first)."""
        return ",".join(self.board.square_names(self.mask[p]))

    def find(self, squares) -> Placement | None:
        """The placement covering exactly these squares, or None."""
        return self.by_mask.get(mask_of(squares))

    def parse(self, text: str) -> Placement:
        """Parse ``'a20,b20,b19'`` into a placement.

        Raises NotationError quoting the text when a square is malformed or
        off the board, a square repeats, the squares are not a piece shape,
        or the piece covers a blocked square."""
        parts = [t for t in text.strip().split(",")]
        if not text.strip() or any(not t.strip() for t in parts):
            raise NotationError(f"not a move: {text!r} (expected squares like a20,b20,b19)")
        try:
            squares = [self.board.parse_square(t) for t in parts]
        except NotationError as e:
            raise NotationError(f"bad move {text!r}: {e}") from None
        if len(set(squares)) != len(squares):
            raise NotationError(f"bad move {text!r}: a square appears twice")
        p = self.find(squares)
        if p is not None:
            return p
        b = self.board
        if b.grid == TRIANGLE:
            if any(b.blocked_mask >> sq & 1 for sq in squares):
                raise NotationError(f"bad move {text!r}: it covers a blocked square")
            raise NotationError(f"bad move {text!r}: the triangles are not a piece shape")
        cells = normalise(b.row_col(sq) for sq in squares)
        if piece_of_shape(cells) is None:
            raise NotationError(f"bad move {text!r}: the squares are not a piece shape")
        raise NotationError(f"bad move {text!r}: it covers a blocked square")


def placement_table(board: Board) -> PlacementTable:
    """The table for a board, built on first use and cached by the board's
    shape (size and blocked squares): start squares do not change it."""
    return _table(board.width, board.height, board.blocked, board.grid, board.parity, board.outside)


@lru_cache(maxsize=16)
def _table(width: int, height: int, blocked: frozenset[Square], grid: str, parity: int,
           outside: frozenset[Square]) -> PlacementTable:
    return PlacementTable(Board(width, height, blocked, grid=grid, parity=parity, outside=outside))
