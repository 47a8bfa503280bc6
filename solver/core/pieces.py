"""The Blokus pieces and their orientations: the 21 square pieces (all free
polyominoes of 1 to 5 squares; 91 distinct orientations in all) and the 22
Trigon pieces (all free polyiamonds of 1 to 6 triangles; 155 orientations).
All 43 share one index space: 0..20 square, 21..42 Trigon.

A square shape is a tuple of ``(row, col)`` cells. An orientation is
normalised: its cells are shifted so the smallest row and column are 0, and
sorted.

A triangle shape is a tuple of triangles, each the sorted tuple of its three
corners on the triangular grid of points, in axial coordinates ``(k, j)``:
``j`` counts horizontal lines downwards and ``k`` points along a line, with a
point ``(k, j)`` at ``k + j/2`` side lengths across. Turning by 60 degrees is
``(k, j) -> (-j, k + j)`` and mirroring ``(k, j) -> (k + j, -j)``; an
orientation is shifted so that its first point (by line, then place) is
``(0, 0)``. :func:`solver.core.geometry.Board.cell_points` maps a board's cell to
its corners, so a placement is an orientation moved onto board cells.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from solver.core.geometry import SQUARE, TRIANGLE
from solver.errors import NotationError

Cell = tuple[int, int]  # (row, col), row 0 at the top
Shape = tuple[Cell, ...]

# One orientation of each piece, drawn row by row ('#' = cell).
_DRAWINGS: dict[str, str] = {
    "1": "#",
    "2": "##",
    "I3": "###",
    "V3": "#. ##",
    "I4": "####",
    "L4": "#. #. ##",
    "O": "## ##",
    "T4": "### .#.",
    "Z4": "##. .##",
    "F": ".## ##. .#.",
    "I5": "#####",
    "L5": "#. #. #. ##",
    "N": ".# .# ## #.",
    "P": "## ## #.",
    "T5": "### .#. .#.",
    "U": "#.# ###",
    "V5": "#.. #.. ###",
    "W": "#.. ##. .##",
    "X": ".#. ### .#.",
    "Y": ".# ## .# .#",
    "Z5": "##. .#. .##",
}

PIECE_NAMES: tuple[str, ...] = tuple(_DRAWINGS)
MONOMINO = 0  # index of piece "1"


def normalise(cells) -> Shape:
    """Shift cells so the smallest row and column are 0; return them sorted."""
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def transforms(shape: Shape) -> list[Shape]:
    """The 8 images of a shape under rotation and mirroring (with repeats)."""
    images = []
    cells = list(shape)
    for _ in range(4):
        cells = [(c, -r) for r, c in cells]  # quarter turn
        images.append(normalise(cells))
        images.append(normalise([(r, -c) for r, c in cells]))  # mirror
    return images


def canonical(shape) -> Shape:
    """A name-free key for a shape: the smallest of its normalised images."""
    return min(transforms(normalise(shape)))


@dataclass(frozen=True)
class Piece:
    index: int
    name: str
    size: int  # squares or triangles
    orientations: tuple[Shape, ...]
    grid: str = SQUARE

    def __repr__(self) -> str:
        return f"Piece({self.name!r})"


def _parse_drawing(drawing: str) -> Shape:
    return normalise(
        (r, c)
        for r, row in enumerate(drawing.split())
        for c, ch in enumerate(row)
        if ch == "#"
    )


# -- triangles -------------------------------------------------------------------

# One orientation of each Trigon piece, drawn row by row on the triangle grid:
# the cell in row r, column c points up when r + c is even ('#' = cell).
# Names as Pentobi gives them.
_TRIGON_DRAWINGS: dict[str, str] = {
    "I6": "..## .##. ##..",
    "L6": "..## .##. .##.",
    "V": ".##... ..####",
    "S": "## ## ##",
    "P6": "..#. .### ##..",
    "F": "##. ### .#.",
    "W": "..#.. #####",
    "A6": "..#. .### .#.#",
    "G": "..#. .##. .###",
    "Y": "#.. ### ##.",
    "X": ".### .###",
    "O": "### ###",
    "I5": "..# .## ##.",
    "L5": "..# .## .##",
    "C5": "##. ###",
    "P5": "..#. .### .#..",
    "I4": "..## .##.",
    "C4": "## ##",
    "A4": "..#. .###",
    "I3": "..# .##",
    "2": "##",
    "1": "#",
}

Point = tuple[int, int]  # a corner of triangles, axial (k, j)


def triangle_points(row: int, col: int, up: bool) -> tuple[Point, Point, Point]:
    """The corners of the triangle in (row, col) of a triangle grid whose
    cell (0, 0), if there, has its apex at point (0, 0) or lies just right
    of it: rows of triangles lie between lines j = row and row + 1."""
    k = (col - row) // 2
    if up:  # apex on line row, base on line row + 1
        return (k, row), (k - 1, row + 1), (k, row + 1)
    return (k, row), (k + 1, row), (k, row + 1)  # base on line row, apex below


def _normalise_triangles(shape) -> Shape:
    points = [p for t in shape for p in t]
    j0 = min(j for _, j in points)
    k0 = min(k for k, j in points if j == j0)
    return tuple(sorted(tuple(sorted((k - k0, j - j0) for k, j in t)) for t in shape))


def triangle_transforms(shape) -> list[Shape]:
    """The 12 images of a triangle shape under turns by 60 degrees and
    mirroring (with repeats), normalised."""
    images = []
    for _ in range(6):
        shape = [[(-j, k + j) for k, j in t] for t in shape]
        images.append(_normalise_triangles(shape))
        images.append(_normalise_triangles([[(k + j, -j) for k, j in t] for t in shape]))
    return images


def _trigon_shape(drawing: str) -> Shape:
    cells = [(r, c) for r, row in enumerate(drawing.split()) for c, ch in enumerate(row) if ch == "#"]
    return _normalise_triangles([triangle_points(r, c, (r + c) % 2 == 0) for r, c in cells])


# -- the pieces ------------------------------------------------------------------

def _build() -> tuple[Piece, ...]:
    pieces = []
    for name, drawing in _DRAWINGS.items():
        shape = _parse_drawing(drawing)
        orients = tuple(sorted(set(transforms(shape))))
        pieces.append(Piece(len(pieces), name, len(shape), orients))
    for name, drawing in _TRIGON_DRAWINGS.items():
        shape = _trigon_shape(drawing)
        orients = tuple(sorted(set(triangle_transforms(shape))))
        pieces.append(Piece(len(pieces), name, len(shape), orients, TRIANGLE))
    return tuple(pieces)


PIECES: tuple[Piece, ...] = _build()
PIECE_SIZES: tuple[int, ...] = tuple(p.size for p in PIECES)
NUM_PIECES = len(PIECES)  # 43: both sets
ALL_PIECES_MASK = (1 << len(PIECES)) - 1
CLASSIC_PIECES: tuple[int, ...] = tuple(p.index for p in PIECES if p.grid == SQUARE)
TRIGON_PIECES: tuple[int, ...] = tuple(p.index for p in PIECES if p.grid == TRIANGLE)
CLASSIC_SET: tuple[Piece, ...] = tuple(PIECES[i] for i in CLASSIC_PIECES)  # the 21 square pieces
TRIGON_SET: tuple[Piece, ...] = tuple(PIECES[i] for i in TRIGON_PIECES)  # the 22 Trigon pieces
PIECES_ON: dict[str, tuple[int, ...]] = {SQUARE: CLASSIC_PIECES, TRIANGLE: TRIGON_PIECES}
_BY_NAME = {(p.grid, p.name.lower()): p for p in PIECES}
_BY_SHAPE = {canonical(p.orientations[0]): p for p in PIECES if p.grid == SQUARE}


def piece_names(grid: str = SQUARE) -> tuple[str, ...]:
    """The piece names of a grid's set, in index order."""
    return tuple(PIECES[i].name for i in PIECES_ON[grid])


def piece_by_name(name: str, grid: str = SQUARE) -> Piece:
    """The piece of the grid's set with this standard name (case-insensitive)."""
    try:
        return _BY_NAME[grid, name.strip().lower()]
    except KeyError:
        raise NotationError(
            f"unknown piece name {name!r} (known: {' '.join(piece_names(grid))})"
        ) from None


MONOMINOES = sum(1 << p.index for p in PIECES if p.size == 1)  # the one square and the one triangle


def is_monomino(piece: int) -> bool:
    """The one-cell piece (the square 1, or Trigon's one triangle): the
    piece whose being placed last earns the +5."""
    return PIECE_SIZES[piece] == 1


@cache
def piece_of_shape(shape: Shape) -> Piece | None:
    """The piece whose shape this is, in any orientation, or None."""
    if not shape or len(shape) > 5:
        return None
    return _BY_SHAPE.get(canonical(shape))
