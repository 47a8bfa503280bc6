"""The 21 Blokus pieces (all free polyominoes of 1 to 5 squares) and their
orientations.

A shape is a tuple of ``(row, col)`` cells. An orientation is normalised: its
cells are shifted so the smallest row and column are 0, and sorted. The 21
pieces have 91 distinct orientations in all.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .errors import NotationError

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
    size: int
    orientations: tuple[Shape, ...]

    def __repr__(self) -> str:
        return f"Piece({self.name!r})"


def _parse_drawing(drawing: str) -> Shape:
    return normalise(
        (r, c)
        for r, row in enumerate(drawing.split())
        for c, ch in enumerate(row)
        if ch == "#"
    )


def _build() -> tuple[Piece, ...]:
    pieces = []
    for i, (name, drawing) in enumerate(_DRAWINGS.items()):
        shape = _parse_drawing(drawing)
        orients = tuple(sorted(set(transforms(shape))))
        pieces.append(Piece(i, name, len(shape), orients))
    return tuple(pieces)


PIECES: tuple[Piece, ...] = _build()
PIECE_SIZES: tuple[int, ...] = tuple(p.size for p in PIECES)
NUM_PIECES = len(PIECES)  # 21
ALL_PIECES_MASK = (1 << len(PIECES)) - 1
_BY_NAME = {p.name.lower(): p for p in PIECES}
_BY_SHAPE = {canonical(p.orientations[0]): p for p in PIECES}


def piece_by_name(name: str) -> Piece:
    """The piece with this standard name (case-insensitive)."""
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        raise NotationError(
            f"unknown piece name {name!r} (known: {' '.join(PIECE_NAMES)})"
        ) from None


@cache
def piece_of_shape(shape: Shape) -> Piece | None:
    """The piece whose shape this is, in any orientation, or None."""
    if not shape or len(shape) > 5:
        return None
    return _BY_SHAPE.get(canonical(shape))
