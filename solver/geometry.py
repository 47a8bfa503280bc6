"""Board geometry: size, blocked squares, start squares, square names and
bitboard helpers.

A square is an int ``row * width + col`` (row 0 at the top). A set of squares
is an int bitmask with bit ``square`` set. Square names follow Pentobi: a
column letter (``a``.. ``z``, then ``aa``, ``ab``, ...) and a row number
counted from the bottom, so on the classic board ``a20`` is the top-left
square and ``a1`` the bottom-left.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterator

from .errors import BoardError, NotationError

Square = int  # row * width + col; e.g. 0 is a20 on the classic board
Mask = int  # bitmask of squares

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

    def __post_init__(self) -> None:
        problem = board_size_problem(self.width, self.height)
        if problem:
            raise BoardError(f"board size {self.width}x{self.height}: {problem}")
        if len(self.starts) != NUM_COLORS:
            raise BoardError("starts needs one entry per colour")
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

    # -- squares ------------------------------------------------------------
    @property
    def size(self) -> int:
        return self.width * self.height

    def square(self, row: int, col: int) -> Square:
        return row * self.width + col

    def row_col(self, sq: Square) -> tuple[int, int]:
        return divmod(sq, self.width)

    def on_board(self, row: int, col: int) -> bool:
        return 0 <= row < self.height and 0 <= col < self.width

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
        if not (0 <= col < self.width and 1 <= number <= self.height):
            raise NotationError(
                f"square {text!r} is off the {self.width}x{self.height} board"
            )
        return (self.height - number) * self.width + col

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
    def _not_left(self) -> Mask:
        col0 = sum(1 << (r * self.width) for r in range(self.height))
        return self.full_mask & ~col0

    @cached_property
    def _not_right(self) -> Mask:
        last = sum(1 << (r * self.width + self.width - 1) for r in range(self.height))
        return self.full_mask & ~last

    def shift(self, mask: Mask, drow: int, dcol: int) -> Mask:
        """Move every square by (drow, dcol) with |drow|, |dcol| <= 1,
        dropping squares that leave the board."""
        w = self.width
        if dcol == 1:
            mask = (mask & self._not_right) << 1
        elif dcol == -1:
            mask = (mask & self._not_left) >> 1
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
        """Squares sharing an edge with the set, outside it (blocked included)."""
        s = self.shift
        return (s(mask, 1, 0) | s(mask, -1, 0) | s(mask, 0, 1) | s(mask, 0, -1)) & ~mask

    def corner_neighbours(self, mask: Mask) -> Mask:
        """Squares touching the set only at a corner (blocked included)."""
        s = self.shift
        diag = s(mask, 1, 1) | s(mask, 1, -1) | s(mask, -1, 1) | s(mask, -1, -1)
        return diag & ~mask & ~self.edge_neighbours(mask)

    def king_fill(self, seed: Mask, within: Mask, steps: int | None = None) -> Mask:
        """The squares of ``within`` reachable from ``seed`` by king moves
        inside ``within`` (seed squares outside it are dropped), in at most
        ``steps`` moves when given."""
        region = seed & within
        nl, nr, w = self._not_left, self._not_right, self.width
        while steps is None or steps > 0:
            row = region | (region & nr) << 1 | (region & nl) >> 1
            grown = (row | row << w | row >> w) & within
            if grown == region:
                break
            region = grown
            steps = None if steps is None else steps - 1
        return region

    def king_neighbours(self, sq: Square) -> list[Square]:
        """The up to 8 squares around sq (ignoring blocked squares)."""
        row, col = divmod(sq, self.width)
        return [
            (row + dr) * self.width + col + dc
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr or dc) and self.on_board(row + dr, col + dc)
        ]

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


CLASSIC = Board.classic()
