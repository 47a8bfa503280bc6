"""The window count: a second exact count over one colour's spare squares,
made over the board's two-by-two windows, for both engines.

Pieces of one colour never share an edge, so a window (four free squares
around an inner grid point) holds at most two of the colour's squares
unless one piece holds three or four of them: three covered squares of a
window form an L whose corner square shares an edge with the other two,
so all three are one piece, and the fourth square, next to two of them,
is that piece's or spare. A piece's own surplus over two, summed over its
windows, is a constant of its shape (:func:`piece_excess`: 1 for V3 and
L4, 2 for O, 4 for X; 33 for the 21 classic pieces).

Count the spare squares window by window. A square lies in ``k`` windows
(4 inside, 2 on a border, 1 in a corner, fewer next to a blocked square),
so over a packing

    sum over spare s of (4 - k(s))  +  sum over windows of max(0, spare in it - 2)
        = 4 x spare - 2 x windows + (the surplus the pieces realise)
       <= 4 x spare - 2 x windows + (the pieces' surplus) = the slack.

The left side only grows as squares are declared spare, so a partial
packing whose spare squares already exceed the slack is dead, and a
negative slack rules the board out before any search (one colour's 21
pieces on 9 x 15: slack -7).

Squares still to be decided count too. Six free squares joined by edges
are never all covered (they would all be one piece), so each of the
disjoint groups of :func:`six_groups`, taken among the squares of
weight one or more, holds a spare square of at least its lightest
weight. On 12 x 12 the slack is 11 and the border's 44 squares make
seven groups of weight 2: 14, no packing (:func:`window_bound`).

On a whole rectangle the border does better as one ring (:func:`border_ring`).
Around it, the colour's squares form runs, each inside one piece (its
squares are joined by edges) and each followed by a spare square, so the
ring holds at least as many spare squares as runs, and at least its
length less what the pieces cover of it. :func:`ring_spares` takes, over
every choice of the runs and squares each piece can make of the ring (a
piece chooses one placement), the least of the larger of the two. One
colour's 21 pieces on 6 x 24: the six-square groups ask for 9 spare
squares of the ring's 56, the runs for 12; 24 of weight is past the
slack of 23.
"""

from __future__ import annotations

import functools

from solver.core.geometry import SQUARE, Board, squares_of
from solver.core.pieces import PIECES
from solver.puzzle.definition import Goal, Puzzle

Window = tuple[int, int, int, int]
SpareGroup = tuple[tuple[int, ...], int, int]  # squares, spare squares it holds at least, their least weight


def piece_excess(piece: int) -> int:
    """The piece's squares beyond two in each two-by-two window, summed."""
    cells = set(PIECES[piece].orientations[0])
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    total = 0
    for r in range(min(rows) - 1, max(rows) + 1):
        for c in range(min(cols) - 1, max(cols) + 1):
            total += max(0, sum((r + dr, c + dc) in cells for dr in (0, 1) for dc in (0, 1)) - 2)
    return total


def windows(board: Board, free: int) -> list[Window]:
    """Every two-by-two window of free squares, its top left square first."""
    found = []
    for s in squares_of(free):
        row, col = board.row_col(s)
        if row + 1 < board.height and col + 1 < board.width:
            square = (s, s + 1, s + board.width, s + board.width + 1)
            if all(free >> q & 1 for q in square):
                found.append(square)
    return found


def window_weights(board: Board, free: int, wins: list[Window]) -> dict[int, int]:
    """Per free square, 4 less the windows it lies in (0 left out)."""
    inside = {s: 0 for s in squares_of(free)}
    for w in wins:
        for s in w:
            inside[s] += 1
    return {s: 4 - k for s, k in inside.items() if k < 4}


def six_groups(board: Board, weights: dict[int, int]) -> list[tuple[int, ...]]:
    """Disjoint sets of six weighted squares, each joined by edges: paths
    grown greedily from the square with the fewest weighted neighbours
    left (on a rectangle, the border cut into runs of six)."""
    left = set(weights)

    def near(s: int) -> list[int]:
        return [t for t in squares_of(board.edge_neighbours(1 << s)) if t in left]

    groups = []
    while left:
        path = [min(left, key=lambda s: (len(near(s)), s))]
        left.remove(path[0])
        while len(path) < 6 and (options := near(path[-1])):
            path.append(min(options, key=lambda t: (len(near(t)), t)))
            left.remove(path[-1])
        if len(path) == 6:
            groups.append(tuple(path))
    return groups


def border_ring(board: Board, free: int) -> tuple[int, ...] | None:
    """The border of a whole rectangle of free squares, once round, each
    square next to the one before (None: a blocked square, or a side
    shorter than two)."""
    w, h = board.width, board.height
    if w < 2 or h < 2 or free != (1 << board.size) - 1:
        return None
    return tuple([c for c in range(w)] + [r * w + w - 1 for r in range(1, h)]
                 + [(h - 1) * w + c for c in range(w - 2, -1, -1)] + [r * w for r in range(h - 2, 0, -1)])


def ring_spares(puzzle: Puzzle, ring: tuple[int, ...]) -> int:
    """The fewest spare squares the ring holds in a packing of the one
    colour's pieces (module docstring): per piece, for each number of runs
    it can make, the most squares of the ring it covers; over the pieces,
    a count of runs against the most squares covered."""
    t, n = puzzle.table, len(ring)
    at = {s: k for k, s in enumerate(ring)}
    colour = next(c for c in puzzle.colors if puzzle.pieces.get(c))
    best: dict[int, dict[int, int]] = {i: {0: 0} for i in puzzle.pieces[colour]}  # piece -> runs -> most covered
    for p in {p for s in ring for p in t.covering[s]}:
        if (mine := best.get(t.piece[p])) is not None:
            cells = {at[s] for s in t.squares[p] if s in at}
            runs = sum(1 for k in cells if (k - 1) % n not in cells) if len(cells) < n else 0
            mine[runs] = max(mine.get(runs, 0), len(cells))
    most = {0: 0}  # runs in all -> most ring squares covered
    for piece_best in best.values():
        after: dict[int, int] = {}
        for runs, covered in most.items():
            for k, m in piece_best.items():
                after[runs + k] = max(after.get(runs + k, 0), covered + m)
        most = after
    return max(0, min(max(runs, len(ring) - covered) for runs, covered in most.items()))


@functools.lru_cache(maxsize=16)
def spare_groups(puzzle: Puzzle) -> tuple[SpareGroup, ...]:
    """Sets of weighted squares that hold a number of spare squares at
    least in every packing: the border ring of a whole rectangle, and
    six-square groups among the other weighted squares (kept for the
    last puzzles asked about: each engine asks more than once)."""
    b, free = puzzle.board, puzzle.masks.free
    weights = window_weights(b, free, windows(b, free))
    found: list[SpareGroup] = []
    ring = border_ring(b, free)
    if ring is not None and all(s in weights for s in ring):
        found.append((ring, ring_spares(puzzle, ring), min(weights[s] for s in ring)))
        on = set(ring)
        weights = {s: k for s, k in weights.items() if s not in on}
    found += [(g, 1, min(weights[s] for s in g)) for g in six_groups(b, weights)]
    return tuple(found)


def window_bound(puzzle: Puzzle) -> int | None:
    """The slack less what the spare groups must spend at least
    (negative: no packing); None where :func:`window_slack` is."""
    slack = window_slack(puzzle)
    if slack is None:
        return None
    return slack - sum(need * least for _, need, least in spare_groups(puzzle))


def window_slack(puzzle: Puzzle) -> int | None:
    """For a place-all or count puzzle of one colour on the square grid:
    the bound of the module docstring on the spare squares' weights and
    crowded windows (negative: no packing). None otherwise (more colours
    may share edges; a maximize goal leaves the spare squares open)."""
    colors = [c for c in puzzle.colors if puzzle.pieces.get(c)]
    if len(colors) != 1 or puzzle.goal is Goal.MAXIMIZE or puzzle.board.grid != SQUARE:
        return None
    n = len(windows(puzzle.board, puzzle.masks.free))
    surplus = sum(piece_excess(i) for i in puzzle.pieces[colors[0]])
    return 4 * puzzle.spare_squares - 2 * n + surplus


def window_count_binds(puzzle: Puzzle) -> bool:
    """Whether the count is worth its cost as the engines search: the
    slack below the spare squares, or the slack less what the spare
    groups must spend below half of them (3 x 46: 1 of 49). Elsewhere it
    would not bind early (duo-solo-21: 101 of 107, where CP-SAT took 5-10
    times as long with it)."""
    slack = window_slack(puzzle)
    if slack is None:
        return False
    return slack < puzzle.spare_squares or 2 * window_bound(puzzle) < puzzle.spare_squares
