"""The two grids a board can have, behind one interface: squares (every
board but Trigon's) and triangles (Trigon's hexagon). A :class:`Grid` says
what touches what (side and corner neighbours, one king step), where a
piece's cells can lie on a board, and which cells line the board's sides;
:class:`~solver.core.geometry.Board` hands these questions to its grid, so
the engines above ask the board and never branch on the grid's kind."""

from __future__ import annotations

from typing import Iterator, Protocol

Mask = Square = int


class Board(Protocol):
    """What a grid reads of a board (:class:`solver.core.geometry.Board`)."""

    width: int
    height: int
    full_mask: Mask
    blocked_mask: Mask
    not_left: Mask
    not_right: Mask
    border_mask: Mask
    cell_neighbours: tuple[tuple[Mask, ...], tuple[Mask, ...], tuple[Mask, ...]]

    def shift(self, mask: Mask, drow: int, dcol: int) -> Mask: ...


class PlacementTable(Protocol):
    """What a grid reads of a placement table (:class:`solver.core.placements.PlacementTable`)."""

    board: Board
    cells_by_points: dict[tuple, Square]

SQUARE, TRIANGLE = "square", "triangle"


def _mask_of(squares) -> int:
    m = 0
    for sq in squares:
        m |= 1 << sq
    return m


def _spread(mask: int, table: tuple[int, ...]) -> int:
    """The union of ``table[sq]`` over the cells of ``mask``."""
    out = 0
    while mask:
        low = mask & -mask
        out |= table[low.bit_length() - 1]
        mask ^= low
    return out


class Grid:
    """What a board's cells are: the interface, with one implementation per grid."""

    name: str
    sides: int  # sides of one cell
    shifts: bool  # a shape moves over the board by shifting a whole mask (squares), or not (triangles)

    def edge_neighbours(self, b: Board, mask: Mask) -> Mask:
        """Cells sharing a side with the set, outside it (blocked included)."""
        raise NotImplementedError

    def corner_neighbours(self, b: Board, mask: Mask) -> Mask:
        """Cells touching the set only at a corner (blocked included)."""
        raise NotImplementedError

    def king_step(self, b: Board, region: Mask) -> Mask:
        """``region`` grown by one step to every touching cell."""
        raise NotImplementedError

    def ring(self, b: Board) -> Mask:
        """The cells along the board's outline (of its rectangle, or of its shape)."""
        raise NotImplementedError

    def perimeter(self, b: Board, region: Mask) -> int:
        """How many cell sides of ``region`` face out of it (or the cells around it)."""
        raise NotImplementedError

    def places(self, table: PlacementTable, cells) -> Iterator[list[Square]]:
        """The squares of a piece's orientation (its ``cells``) at every
        place on the table's board where it covers no blocked cell."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{self.name} grid>"


class SquareGrid(Grid):
    """Squares in rows: sides are the four orthogonal steps, corners the
    diagonal ones; everything is a shift of a whole mask."""

    name, sides, shifts = SQUARE, 4, True

    def edge_neighbours(self, b: Board, mask: Mask) -> Mask:
        s = b.shift
        return (s(mask, 1, 0) | s(mask, -1, 0) | s(mask, 0, 1) | s(mask, 0, -1)) & ~mask

    def corner_neighbours(self, b: Board, mask: Mask) -> Mask:
        s = b.shift
        diag = s(mask, 1, 1) | s(mask, 1, -1) | s(mask, -1, 1) | s(mask, -1, -1)
        return diag & ~mask & ~self.edge_neighbours(b, mask)

    def king_step(self, b: Board, region: Mask) -> Mask:
        w = b.width
        row = region | (region & b.not_right) << 1 | (region & b.not_left) >> 1
        return (row | row << w | row >> w) & b.full_mask

    def ring(self, b: Board) -> Mask:
        return b.full_mask & ~(b.shift(b.full_mask, 1, 1) & b.shift(b.full_mask, -1, -1))

    def perimeter(self, b: Board, region: Mask) -> int:
        return sum((region & ~b.shift(region, dr, dc)).bit_count() for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))

    def places(self, table: PlacementTable, cells) -> Iterator[list[Square]]:
        b = table.board
        W, blocked = b.width, b.blocked_mask
        h = 1 + max(r for r, _ in cells)
        w = 1 + max(c for _, c in cells)
        base = [r * W + c for r, c in cells]
        for row in range(b.height - h + 1):
            for col in range(W - w + 1):
                sqs = [s + row * W + col for s in base]
                if not _mask_of(sqs) & blocked:
                    yield sqs


class TriangleGrid(Grid):
    """Triangles in rows, pointing up and down in turn (Pentobi's Trigon
    geometry): each cell's side and corner neighbours are tabled per board."""

    name, sides, shifts = TRIANGLE, 3, False

    def edge_neighbours(self, b: Board, mask: Mask) -> Mask:
        return _spread(mask, b.cell_neighbours[0]) & ~mask

    def corner_neighbours(self, b: Board, mask: Mask) -> Mask:
        return _spread(mask, b.cell_neighbours[1]) & ~mask & ~self.edge_neighbours(b, mask)

    def king_step(self, b: Board, region: Mask) -> Mask:
        return region | _spread(region, b.cell_neighbours[2])

    def ring(self, b: Board) -> Mask:
        return b.border_mask

    def perimeter(self, b: Board, region: Mask) -> int:
        return self.edge_neighbours(b, region).bit_count()

    def places(self, table: PlacementTable, shape) -> Iterator[list[Square]]:
        """The cells of a triangle shape at each translation of the point
        grid that lays its first triangle on an open cell of the board."""
        cell_of = table.cells_by_points
        first = shape[0]
        for anchor, sq in cell_of.items():
            dk, dj = anchor[0][0] - first[0][0], anchor[0][1] - first[0][1]
            if tuple((k + dk, j + dj) for k, j in first) != anchor:
                continue  # an up triangle on a down one
            sqs = [cell_of.get(tuple((k + dk, j + dj) for k, j in t)) for t in shape]
            if None not in sqs:
                yield sqs


GRIDS: dict[str, Grid] = {g.name: g for g in (SquareGrid(), TriangleGrid())}
