"""Text pictures of boards for people: coordinates around, one letter per
colour (B Y R G), ``.`` for empty and ``#`` for blocked squares."""

from __future__ import annotations

from .geometry import COLOR_LETTERS, Board, column_name


def board_rows(board: Board, owner: dict[int, str]) -> list[str]:
    """One string per row, top row first; ``owner`` maps square -> letter."""
    rows = []
    for r in range(board.height):
        cells = []
        for c in range(board.width):
            sq = r * board.width + c
            cells.append("#" if sq in board.blocked else owner.get(sq, "."))
        rows.append("".join(cells))
    return rows


def board_picture(board: Board, owner: dict[int, str]) -> str:
    """The board with column letters above and below and row numbers both sides."""
    cw = len(column_name(board.width - 1)) + 1
    nw = len(str(board.height))
    header = " " * (nw + 1) + "".join(column_name(c).ljust(cw) for c in range(board.width)).rstrip()
    lines = [header]
    for r, row in enumerate(board_rows(board, owner)):
        number = str(board.height - r).rjust(nw)
        lines.append(f"{number} " + "".join(ch.ljust(cw) for ch in row).rstrip() + f" {number}")
    lines.append(header)
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
