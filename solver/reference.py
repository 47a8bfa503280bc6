"""A slow legal-move generator written straight from the rules (SPEC.md),
sharing no tables or code with the fast generator. Tests and benchmarks
compare the two.

Squares are ``(row, col)`` pairs and a board is a dict from square to colour
index. Piece shapes are typed out again here, in other orientations than in
``pieces.py``, and turned with code of this module's own.
"""

from __future__ import annotations

# Each piece drawn once more, turned or mirrored against pieces.py on purpose.
_SHAPES = {
    "1": ["X"],
    "2": ["X", "X"],
    "I3": ["X", "X", "X"],
    "V3": ["XX", "X."],
    "I4": ["X", "X", "X", "X"],
    "L4": ["XXX", "X.."],
    "O": ["XX", "XX"],
    "T4": [".X", "XX", ".X"],
    "Z4": [".X", "XX", "X."],
    "F": [".X.", "XXX", "..X"],
    "I5": ["X", "X", "X", "X", "X"],
    "L5": ["XXXX", "...X"],
    "N": ["XX..", ".XXX"],
    "P": ["XXX", ".XX"],
    "T5": ["X..", "XXX", "X.."],
    "U": ["XX", "X.", "XX"],
    "V5": ["XXX", "..X", "..X"],
    "W": [".XX", "XX.", "X.."],
    "X": [".X.", "XXX", ".X."],
    "Y": ["XXXX", ".X.."],
    "Z5": ["..X", "XXX", "X.."],
}


def _cells(rows: list[str]) -> list[tuple[int, int]]:
    return [(r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "X"]


def _orientations(cells) -> set[frozenset]:
    """All rotations and mirror images, each moved to touch row 0 and col 0."""
    found = set()
    for mirror in (False, True):
        shape = [(r, -c) if mirror else (r, c) for r, c in cells]
        for _ in range(4):
            shape = [(-c, r) for r, c in shape]
            top = min(r for r, _ in shape)
            left = min(c for _, c in shape)
            found.add(frozenset((r - top, c - left) for r, c in shape))
    return found


ORIENTATIONS: dict[str, list[frozenset]] = {
    name: sorted(_orientations(_cells(rows)), key=sorted) for name, rows in _SHAPES.items()
}


def legal_moves(
    board: dict[tuple[int, int], int],
    height: int,
    width: int,
    color: int,
    hand: set[str],
    starts: set[tuple[int, int]],
    blocked: set[tuple[int, int]] = frozenset(),
) -> set[frozenset]:
    """Every legal placement of ``color`` as a frozenset of (row, col) squares.

    ``starts``: the colour's start squares (its first piece must cover one;
    when empty, the first piece may go anywhere). Rule 3 says a new piece
    covers a square diagonal to its colour (or a start square), so only
    placements through such a square are tried; each is then checked
    against every rule."""
    own = {sq for sq, c in board.items() if c == color}

    def free(sq):
        r, c = sq
        return 0 <= r < height and 0 <= c < width and sq not in board and sq not in blocked

    def edge_touches_own(sq):
        r, c = sq
        return any(n in own for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))

    def corner_touches_own(sq):
        r, c = sq
        return any(n in own for n in ((r - 1, c - 1), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c + 1)))

    if own:
        targets = {sq for sq in ((r, c) for r in range(height) for c in range(width)) if corner_touches_own(sq)}
    elif starts:
        targets = set(starts)
    else:
        targets = {(r, c) for r in range(height) for c in range(width)}
    targets = {sq for sq in targets if free(sq) and not edge_touches_own(sq)}

    moves = set()
    for name in hand:
        for shape in ORIENTATIONS[name]:
            for tr, tc in targets:
                for r0, c0 in shape:
                    squares = frozenset((tr + r - r0, tc + c - c0) for r, c in shape)
                    if squares in moves:
                        continue
                    if not all(free(sq) for sq in squares):
                        continue
                    if any(edge_touches_own(sq) for sq in squares):
                        continue
                    if own:
                        if not any(corner_touches_own(sq) for sq in squares):
                            continue
                    elif starts and not squares & starts:
                        continue
                    moves.add(squares)
    return moves
