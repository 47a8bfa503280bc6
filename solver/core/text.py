"""Text pictures of boards for people: coordinates around, one letter per
colour (B Y R G), ``.`` for empty and ``#`` for blocked squares.

A triangle board (Blokus Trigon) is drawn one character per cell with no
space between cells, and a space for each cell outside the board (the
corners around Trigon's hexagon). Read it as the triangle grid: along a row
the triangles alternate pointing up and down, each overlapping its
neighbours by half a side, so a character is half a triangle wide and a
line one row of triangles high (a terminal's characters are about that
shape). The column letters stand one above the other where a column's name
has two letters (``aa`` is ``a`` over ``a``).
"""

from __future__ import annotations

from solver.core.geometry import COLOR_LETTERS, TRIANGLE, Board, column_name


def board_rows(board: Board, owner: dict[int, str]) -> list[str]:
    """One string per row, top row first, one character per cell (a space
    for a cell outside the board, so ``row[col]`` is always the cell in
    column ``col``); ``owner`` maps square -> letter."""
    rows = []
    for r in range(board.height):
        cells = []
        for c in range(board.width):
            sq = r * board.width + c
            cells.append(" " if sq in board.outside else "#" if sq in board.blocked else owner.get(sq, "."))
        rows.append("".join(cells))
    return rows


def board_picture(board: Board, owner: dict[int, str]) -> str:
    """The board with column letters above and below and row numbers both sides."""
    if board.grid == TRIANGLE:
        return _triangle_picture(board, owner)
    cw = len(column_name(board.width - 1)) + 1
    nw = len(str(board.height))
    header = " " * (nw + 1) + "".join(column_name(c).ljust(cw) for c in range(board.width)).rstrip()
    lines = [header]
    for r, row in enumerate(board_rows(board, owner)):
        number = str(board.height - r).rjust(nw)
        lines.append(f"{number} " + "".join(ch.ljust(cw) for ch in row).rstrip() + f" {number}")
    lines.append(header)
    return "\n".join(lines)


def _triangle_picture(board: Board, owner: dict[int, str]) -> str:
    """A triangle board, one character per cell (see the module docstring):
    column letters written downwards above and below, row numbers both sides."""
    nw = len(str(board.height))
    names = [column_name(c) for c in range(board.width)]
    depth = max(len(n) for n in names)
    header = [" " * (nw + 1) + "".join(n.rjust(depth)[i] for n in names).rstrip() for i in range(depth)]
    lines = list(header)
    for r, row in enumerate(board_rows(board, owner)):
        number = str(board.height - r).rjust(nw)
        lines.append(f"{number} {row} {number}")
    lines += header
    return "\n".join(lines)


def owner_letters(table, pieces, names=None) -> dict[int, str]:
    """Square -> colour letter for (colour, placement) pairs: the initial of
    ``names[colour]`` (default: B Y R G)."""
    letters = [n[0].upper() for n in names] if names else COLOR_LETTERS
    return {sq: letters[c] for c, p in pieces for sq in table.squares[p]}


def position_owner(pos) -> dict[int, str]:
    """Square -> colour letter for a Position: the initial of the colour's
    name in its variant (B Y R G; P O in Duo; G O in Junior)."""
    owner = {}
    for c, m in enumerate(pos.occupied):
        letter = pos.name(c)[:1].upper()
        while m:
            low = m & -m
            owner[low.bit_length() - 1] = letter
            m ^= low
    return owner


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun in the number it needs: ``1 solution``, ``2 solutions``."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"
