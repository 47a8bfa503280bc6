"""Board geometry: size, blocked squares, start squares, cell names, the
neighbours of a cell, and bitboard helpers.

Two grids share one interface. On the square grid a cell is a square; on
the triangle grid (Blokus Trigon) a cell is a triangle, pointing up or down,
and a row holds triangles alternating up and down. Either way a cell is an
int ``row * width + col`` in a ``width`` x ``height`` rectangle (row 0 at
the top), a set of cells is an int bitmask with bit ``cell`` set, and names
follow Pentobi: a column letter (``a``.. ``z``, then ``aa``, ``ab``, ...) and
a row number counted from the bottom, so on the classic board ``a20`` is the
top-left square and ``a1`` the bottom-left. Cells of the rectangle that are
not part of the board (the corners around Trigon's hexagon) are ``outside``:
they are blocked, and have no name.

Two cells touch at an edge (side neighbours) or only at a corner
(corner-only neighbours, Pentobi's "diagonal" ones): on squares the 4 and 4
around a square, on triangles the 3 sharing a side and the 9 sharing only a
grid point. The square grid works on whole masks with shifts (the hot
paths); the triangle grid uses a table of neighbour masks per cell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterator

from solver.errors import BoardError, NotationError

Square = int  # row * width + col; e.g. 0 is a20 on the classic board
Mask = int  # bitmask of squares

from solver.core.grids import GRIDS, SQUARE, TRIANGLE, Grid  # noqa: E402 (the constants above are the grids' too)

COLORS: tuple[str, ...] = ("blue", "yellow", "red", "green")
COLOR_LETTERS: tuple[str, ...] = ("B", "Y", "R", "G")
NUM_COLORS = 4

MAX_WIDTH = 26 * 27  # column names a..z, then aa..zz
MAX_HEIGHT = 999  # row numbers have up to three digits
MAX_BOARD_SQUARES = 1024
"""The most squares a board may have (32x32; the largest real Blokus boards
have 400). Every board gets a placement table of Python int masks, whose
cost grows with squares x placements: 0.3 s and 19 MB at 20x20, 0.8 s and
76 MB at 32x32, 8.5 s and 0.7 GB at 64x64, 35 s and 3.5 GB at 100x100."""


def board_size_problem(width: int, height: int) -> str | None:
    """Why a board of this size is not allowed, or None when it is."""
    if width < 1 or height < 1:
        return "the board is empty"
    if width > MAX_WIDTH:
        return f"wider than {MAX_WIDTH} columns (the last column is zz)"
    if height > MAX_HEIGHT:
        return f"higher than {MAX_HEIGHT} rows"
    if width * height > MAX_BOARD_SQUARES:
        return f"{width * height} squares, more than the {MAX_BOARD_SQUARES} allowed (e.g. 32x32)"
    return None


def color_index(name: str) -> int:
    """Colour index of a colour name (``blue``) or letter (``b``)."""
    key = name.strip().lower()
    for i, (full, letter) in enumerate(zip(COLORS, COLOR_LETTERS)):
        if key in (full, letter.lower()):
            return i
    raise NotationError(f"unknown colour {name!r} (known: {' '.join(COLORS)})")


def column_name(col: int) -> str:
    """``a``..``z``, then ``aa``, ``ab``, ... (Pentobi's convention)."""
    if col < 26:
        return chr(ord("a") + col)
    return chr(ord("a") + col // 26 - 1) + chr(ord("a") + col % 26)


def _column_index(letters: str) -> int:
    if len(letters) == 1:
        return ord(letters) - ord("a")
    if len(letters) == 2:
        return (ord(letters[0]) - ord("a") + 1) * 26 + ord(letters[1]) - ord("a")
    return -1


_SQUARE_RE = re.compile(r"([a-z]{1,2})([0-9]{1,3})")


@dataclass(frozen=True)
class Board:
    """An immutable board shape. ``starts[c]`` holds colour c's start squares;
    when it is empty, c's first piece may go anywhere."""

    width: int = 20
    height: int = 20
    blocked: frozenset[Square] = frozenset()
    starts: tuple[frozenset[Square], ...] = field(
        default=(frozenset(),) * NUM_COLORS
    )
    grid: str = SQUARE
    parity: int = 0  # triangle grid: the cell in (row, col) points up when row + col + parity is even
    outside: frozenset[Square] = frozenset()  # cells of the rectangle that are not on the board

    @cached_property
    def geometry(self) -> Grid:
        """The board's grid: what touches what, where pieces can lie."""
        return GRIDS[self.grid]

    def __post_init__(self) -> None:
        problem = board_size_problem(self.width, self.height)
        if problem:
            raise BoardError(f"board size {self.width}x{self.height}: {problem}")
        if len(self.starts) != NUM_COLORS:
            raise BoardError("starts needs one entry per colour")
        if self.grid not in GRIDS:
            raise BoardError(f"unknown grid {self.grid!r} (known: {' '.join(GRIDS)})")
        if not self.outside <= self.blocked:
            raise BoardError("cells outside the board must be blocked too")
        for sq in self.blocked | frozenset().union(*self.starts):
            if not 0 <= sq < self.size:
                raise BoardError(f"square index {sq} is off the {self.width}x{self.height} board")

    # -- constructors -------------------------------------------------------
    @classmethod
    def classic(cls) -> "Board":
        """20 x 20 with start corners blue a20, yellow t20, red t1, green a1."""
        return cls.rectangle(20, 20, corners=True)

    @classmethod
    def rectangle(
        cls, width: int, height: int, corners: bool = False, blocked=()
    ) -> "Board":
        """A rectangle, optionally with the four corners as start squares in
        the classic arrangement (blue top-left, then clockwise)."""
        starts = (frozenset(),) * NUM_COLORS
        if corners:
            w, h = width, height
            starts = tuple(
                frozenset([sq])
                for sq in (0, w - 1, (h - 1) * w + w - 1, (h - 1) * w)
            )
        return cls(width, height, frozenset(blocked), starts)

    @classmethod
    def hexagon(cls, edge: int, starts: tuple[str, ...] = ()) -> "Board":
        """Pentobi's Trigon board: a hexagon of triangles with ``edge``
        triangles along each side (9: the four-player board, 486 cells; 8:
        the three-player board, 384 cells) in a (4 edge - 1) x (2 edge)
        rectangle, with ``starts`` (cell names) open to every colour."""
        width, height = 4 * edge - 1, 2 * edge
        outside = set()
        for row in range(height):
            margin = edge - min(row, height - row - 1) - 1
            outside.update(row * width + col for col in range(width) if not margin <= col < width - margin)
        board = cls(width, height, frozenset(outside), grid=TRIANGLE, parity=edge % 2 == 0, outside=frozenset(outside))
        shared = frozenset(board.parse_square(name) for name in starts)
        return cls(width, height, frozenset(outside), (shared,) * NUM_COLORS, TRIANGLE, board.parity, board.outside)

    # -- squares ------------------------------------------------------------
    @property
    def size(self) -> int:
        return self.width * self.height

    def square(self, row: int, col: int) -> Square:
        return row * self.width + col

    def row_col(self, sq: Square) -> tuple[int, int]:
        return divmod(sq, self.width)

    def on_board(self, row: int, col: int) -> bool:
        """Whether (row, col) lies in the rectangle (a cell outside the
        board's shape still counts: it is blocked)."""
        return 0 <= row < self.height and 0 <= col < self.width

    def points_up(self, sq: Square) -> bool:
        """Triangle grid: the triangle in this cell points up (its base below)."""
        row, col = divmod(sq, self.width)
        return (row + col + self.parity) % 2 == 0

    def square_name(self, sq: Square) -> str:
        row, col = divmod(sq, self.width)
        return f"{column_name(col)}{self.height - row}"

    def parse_square(self, text: str) -> Square:
        """``'a20'`` -> square index; NotationError when malformed or off the board."""
        t = text.strip().lower()
        m = _SQUARE_RE.fullmatch(t)
        if not m:
            raise NotationError(f"not a square: {text!r}")
        col = _column_index(m.group(1))
        number = int(m.group(2))
        sq = (self.height - number) * self.width + col
        if not (0 <= col < self.width and 1 <= number <= self.height) or sq in self.outside:
            raise NotationError(
                f"square {text!r} is off the {self.width}x{self.height} board"
            )
        return sq

    # -- masks --------------------------------------------------------------
    @cached_property
    def full_mask(self) -> Mask:
        """Every square of the rectangle, blocked or not."""
        return (1 << self.size) - 1

    @cached_property
    def blocked_mask(self) -> Mask:
        return mask_of(self.blocked)

    @cached_property
    def open_mask(self) -> Mask:
        """Squares a piece may cover."""
        return self.full_mask & ~self.blocked_mask

    @cached_property
    def start_masks(self) -> tuple[Mask, ...]:
        return tuple(mask_of(s) for s in self.starts)

    @cached_property
    def not_left(self) -> Mask:
        """Every square but those of the leftmost column."""
        col0 = sum(1 << (r * self.width) for r in range(self.height))
        return self.full_mask & ~col0

    @cached_property
    def not_right(self) -> Mask:
        """Every square but those of the rightmost column."""
        last = sum(1 << (r * self.width + self.width - 1) for r in range(self.height))
        return self.full_mask & ~last

    def shift(self, mask: Mask, drow: int, dcol: int) -> Mask:
        """Move every square by (drow, dcol) with |drow|, |dcol| <= 1,
        dropping squares that leave the board."""
        w = self.width
        if dcol == 1:
            mask = (mask & self.not_right) << 1
        elif dcol == -1:
            mask = (mask & self.not_left) >> 1
        if drow == 1:
            mask <<= w
        elif drow == -1:
            mask >>= w
        return mask & self.full_mask

    def shift_by(self, mask: Mask, drow: int, dcol: int) -> Mask:
        """Move every square by (drow, dcol), dropping squares that leave
        the board (any offsets)."""
        w = self.width
        if dcol > 0:
            mask = (mask & self._keep_cols(0, w - dcol)) << dcol
        elif dcol < 0:
            mask = (mask & self._keep_cols(-dcol, w)) >> -dcol
        if drow > 0:
            mask <<= w * drow
        elif drow < 0:
            mask >>= w * -drow
        return mask & self.full_mask

    def _keep_cols(self, lo: int, hi: int) -> Mask:
        key = (lo, hi)
        cache = self.__dict__.setdefault("_col_cache", {})
        if key not in cache:
            row = sum(1 << c for c in range(max(lo, 0), min(hi, self.width)))
            cache[key] = sum(row << (r * self.width) for r in range(self.height))
        return cache[key]

    def fits(self, region: Mask, cells) -> bool:
        """Whether the shape (cells as (row, col)) fits somewhere inside region."""
        anchors = self.full_mask
        for r, c in cells:
            anchors &= self.shift_by(region, -r, -c)
            if not anchors:
                return False
        return True

    def edge_neighbours(self, mask: Mask) -> Mask:
        """Cells sharing an edge with the set, outside it (blocked included)."""
        return self.geometry.edge_neighbours(self, mask)

    def corner_neighbours(self, mask: Mask) -> Mask:
        """Cells touching the set only at a corner (blocked included)."""
        return self.geometry.corner_neighbours(self, mask)

    def king_fill(self, seed: Mask, within: Mask, steps: int | None = None) -> Mask:
        """The cells of ``within`` reachable from ``seed`` by steps to a
        touching cell (a king move on squares) inside ``within`` (seed cells
        outside it are dropped), in at most ``steps`` steps when given."""
        region = seed & within
        step = self.geometry.king_step
        while steps is None or steps > 0:
            grown = step(self, region) & within
            if grown == region:
                break
            region = grown
            steps = None if steps is None else steps - 1
        return region

    def king_neighbours(self, sq: Square) -> list[Square]:
        """The cells touching sq at an edge or a corner (the up to 8 squares
        around a square, up to 12 triangles around a triangle), blocked ones
        included."""
        return list(squares_of(self.geometry.king_step(self, 1 << sq) & ~(1 << sq)))

    @cached_property
    def border_mask(self) -> Mask:
        """Open cells along the board's sides: not every side of theirs faces
        an open cell."""
        sides = self.geometry.sides
        return mask_of(sq for sq in squares_of(self.open_mask)
                       if (self.edge_neighbours(1 << sq) & self.open_mask).bit_count() < sides)

    @cached_property
    def cell_neighbours(self) -> tuple[tuple[Mask, ...], tuple[Mask, ...], tuple[Mask, ...]]:
        """Triangle grid: per cell the masks of its side neighbours, its
        corner-only neighbours and both (Pentobi's TrigonGeometry), within
        the rectangle."""
        edges, corners = [], []
        for sq in range(self.size):
            row, col = divmod(sq, self.width)
            down = 1 if self.points_up(sq) else -1  # the row across the triangle's base
            side = ((0, -1), (0, 1), (down, 0))
            corner = ((0, -2), (0, 2), (-down, -1), (-down, 1), (-down, 0), (down, -1), (down, 1), (down, -2), (down, 2))
            edges.append(self._cells_at(row, col, side))
            corners.append(self._cells_at(row, col, corner))
        return tuple(edges), tuple(corners), tuple(e | c for e, c in zip(edges, corners))

    def _cells_at(self, row: int, col: int, steps) -> Mask:
        return mask_of(self.square(row + dr, col + dc) for dr, dc in steps if self.on_board(row + dr, col + dc))

    def square_names(self, mask: Mask) -> list[str]:
        """Names of the squares in a mask, in Pentobi's order (a1, b1, ..., a2, ...)."""
        return [self.square_name(sq) for sq in pentobi_order(self, squares_of(mask))]


def mask_of(squares) -> Mask:
    m = 0
    for sq in squares:
        m |= 1 << sq
    return m


def squares_of(mask: Mask) -> Iterator[Square]:
    """The squares of a mask, lowest index (top-left) first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def pentobi_order(board: Board, squares) -> list[Square]:
    """Sort squares as Pentobi writes them: by row from the bottom, then column."""
    w = board.width
    return sorted(squares, key=lambda sq: (-(sq // w), sq % w))


CLASSIC_BOARD = Board.classic()
