"""A slow legal-move generator written straight from the rules (docs/rules.md),
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


# -- the triangle grid (Blokus Trigon) ------------------------------------------------
#
# Written from plane geometry, sharing nothing with the board and table code:
# a cell is known by its centroid in the plane (side 1; rows sqrt(3)/2 high),
# two triangles share a side when their centroids are 1/sqrt(3) apart and
# touch at a corner only when they are 1 or 2/sqrt(3) apart. Pieces are
# Pentobi's point lists (x, y), with (0, 0) pointing up, turned and mirrored
# as point sets in the plane.

_ROW = 3 ** 0.5 / 2

_TRIGON_POINTS = {
    "I6": [(1, -1), (2, -1), (0, 0), (1, 0), (-1, 1), (0, 1)], "L6": [(1, -1), (2, -1), (0, 0), (1, 0), (0, 1), (1, 1)],
    "V": [(-2, -1), (-1, -1), (-1, 0), (0, 0), (1, 0), (2, 0)], "S": [(-1, -1), (0, -1), (-1, 0), (0, 0), (-1, 1), (0, 1)],
    "P6": [(1, -1), (0, 0), (1, 0), (2, 0), (-1, 1), (0, 1)], "F": [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2)],
    "W": [(1, -1), (-1, 0), (0, 0), (1, 0), (2, 0), (3, 0)], "A6": [(1, -1), (0, 0), (1, 0), (2, 0), (0, 1), (2, 1)],
    "G": [(1, -1), (0, 0), (1, 0), (0, 1), (1, 1), (2, 1)], "Y": [(-1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1)],
    "X": [(-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1), (1, 1)], "O": [(-1, -1), (0, -1), (1, -1), (-1, 0), (0, 0), (1, 0)],
    "I5": [(1, -1), (0, 0), (1, 0), (-1, 1), (0, 1)], "L5": [(1, -1), (0, 0), (1, 0), (0, 1), (1, 1)],
    "C5": [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1)], "P5": [(1, -1), (0, 0), (1, 0), (2, 0), (0, 1)],
    "I4": [(0, 0), (1, 0), (-1, 1), (0, 1)], "C4": [(0, 0), (1, 0), (0, 1), (1, 1)], "A4": [(1, -1), (0, 0), (1, 0), (2, 0)],
    "I3": [(1, -1), (0, 0), (1, 0)], "2": [(0, 0), (1, 0)], "1": [(0, 0)],
}


def centroid(x: int, y: int, up: bool) -> tuple[float, float]:
    """The centroid of the triangle in column x, row y (y down): a triangle
    is one side wide, its neighbours in the row half a side away."""
    return (x / 2 + 0.5, y * _ROW + (2 if up else 1) * _ROW / 3)


def _key(point: tuple[float, float]) -> tuple[int, int]:
    return round(point[0] * 1000), round(point[1] * 1000)


def _trigon_orientations(points) -> list[list[tuple[float, float]]]:
    """The 12 images of a piece's centroids under turns by 60 degrees and
    mirroring (as lists, first point first)."""
    import math

    cells = [centroid(x, y, (x + y) % 2 == 0) for x, y in points]
    images = []
    for mirror in (1, -1):
        for k in range(6):
            a = k * math.pi / 3
            images.append([(mirror * (px * math.cos(a) - py * math.sin(a)), px * math.sin(a) + py * math.cos(a))
                           for px, py in cells])
    return images


def trigon_legal_moves(cells: dict[tuple[int, int], bool], board: dict[tuple[int, int], int], color: int,
                       hand: set[str], starts: set[tuple[int, int]]) -> set[frozenset]:
    """Every legal placement of ``color`` on a triangle board, as frozensets
    of (col, row) cells. ``cells`` maps each cell of the board to whether it
    points up; ``board`` the occupied cells to their colour; ``starts`` the
    starting points (the first piece covers a free one)."""
    at = {_key(centroid(x, y, up)): (x, y) for (x, y), up in cells.items()}
    centre = {c: centroid(c[0], c[1], up) for c, up in cells.items()}
    own = [centre[c] for c, col in board.items() if col == color]

    def dist(p, q):
        return ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5

    def side(p):  # shares a side with one of the colour's triangles
        return any(abs(dist(p, q) - 1 / 3 ** 0.5) < 1e-6 for q in own)

    def corner(p):
        return any(abs(dist(p, q) - 1) < 1e-6 or abs(dist(p, q) - 2 / 3 ** 0.5) < 1e-6 for q in own)

    moves = set()
    for name in hand:
        for image in _trigon_orientations(_TRIGON_POINTS[name]):
            for anchor in centre.values():
                dx, dy = anchor[0] - image[0][0], anchor[1] - image[0][1]
                placed = [at.get(_key((px + dx, py + dy))) for px, py in image]
                if None in placed or any(c in board for c in placed):
                    continue
                points = [centre[c] for c in placed]
                if any(side(p) for p in points):
                    continue
                if own and not any(corner(p) for p in points):
                    continue
                if not own and not set(placed) & starts:
                    continue
                moves.add(frozenset(placed))
    return moves
