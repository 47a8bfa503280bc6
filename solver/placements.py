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

from functools import lru_cache

from .errors import NotationError
from .geometry import Board, Mask, Square, mask_of
from .pieces import PIECES, normalise, piece_of_shape

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
        self.by_piece: list[tuple[Placement, ...]] = [
            tuple(i for i in range(self.count) if self.piece[i] == p.index)
            for p in PIECES
        ]
        self._near = [
            mask_of(board.king_neighbours(sq)) & board.open_mask
            for sq in range(board.size)
        ]
        self._attach_cache: list[dict[Mask, tuple[Placement, ...]]] = [
            {} for _ in range(board.size)
        ]

    def _build(self) -> None:
        b = self.board
        W, H = b.width, b.height
        blocked = b.blocked_mask
        open_mask = b.open_mask
        for piece in PIECES:
            bit = 1 << (self.piece_bit_base + piece.index)
            for o, cells in enumerate(piece.orientations):
                h = 1 + max(r for r, _ in cells)
                w = 1 + max(c for _, c in cells)
                base = [r * W + c for r, c in cells]
                for row in range(H - h + 1):
                    for col in range(W - w + 1):
                        off = row * W + col
                        sqs = tuple(s + off for s in base)
                        m = mask_of(sqs)
                        if m & blocked:
                            continue
                        self.piece.append(piece.index)
                        self.orientation.append(o)
                        self.squares.append(tuple(sorted(sqs)))
                        self.mask.append(m)
                        self.key.append(m | bit)
                        self.edge.append(b.edge_neighbours(m) & open_mask)
                        self.corner.append(b.corner_neighbours(m) & open_mask)

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
        cells = normalise(self.board.row_col(sq) for sq in squares)
        if piece_of_shape(cells) is None:
            raise NotationError(f"bad move {text!r}: the squares are not a piece shape")
        raise NotationError(f"bad move {text!r}: it covers a blocked square")


def placement_table(board: Board) -> PlacementTable:
    """The table for a board, built on first use and cached by the board's
    shape (size and blocked squares): start squares do not change it."""
    return _table(board.width, board.height, board.blocked)


@lru_cache(maxsize=16)
def _table(width: int, height: int, blocked: frozenset[Square]) -> PlacementTable:
    return PlacementTable(Board(width, height, blocked))
