"""The edge budget: a counting bound on how much of a board one colour's
pieces can fill, for both engines.

Pieces of one colour never share an edge, so every side of a colour's
placed piece that faces an open square outside the piece faces a square
the colour does not cover (empty, or another colour's). Count both ways,
over the open squares, with ``deg(s)`` the open squares edge-adjacent to
``s``: the sides leaving the colour's placed pieces number
``sum over covered s of deg(s) - 2 x (edges inside the pieces)``, and an
uncovered square ``t`` receives at most ``deg(t)`` of them. So, summed
over the placements chosen,

    sum of weight(p) <= capacity, where
    weight(p) = sum over s in p of deg(s) - (edges inside p) and
    capacity = (sum over open s of deg(s)) / 2.

A piece in a corner or along a border weighs least; on a board too small
for the pieces even their lightest placements weigh more than the
capacity (one colour's 21 pieces on 10 x 10: at least 246 against 180).
CP-SAT adds the inequality to its model; the search engine checks a lower
bound of the pieces' weight (:func:`lightest`) against it before it
searches.

With one colour to place and every piece placed, the same count over the
spare squares is exact (:func:`spare_sides`): the edges between two spare
squares plus the spare squares' sides facing out of the free region come
to the same total in every packing. Both engines bound it as they go: a
partial packing whose spare squares already exceed it is dead.
"""

from __future__ import annotations

from solver.core.geometry import TRIANGLE, Board, squares_of
from solver.core.placements import Placement, PlacementTable
from solver.puzzle.definition import Goal, Puzzle


def degrees(board: Board) -> list[int]:
    """Per square, its open edge-neighbours (0 for a blocked square)."""
    open_mask = board.open_mask
    return [(board.edge_neighbours(1 << s) & open_mask).bit_count() if open_mask >> s & 1 else 0
            for s in range(board.size)]


def capacity(board: Board, deg: list[int] | None = None) -> int:
    """Half the open squares' degrees (each open-open edge once)."""
    return sum(deg if deg is not None else degrees(board)) // 2


def inside_edges(table: PlacementTable, p: Placement) -> int:
    """The edges between the placement's own squares (the same for every
    placement of a piece)."""
    b, mask = table.board, table.mask[p]
    return sum((b.edge_neighbours(1 << s) & mask).bit_count() for s in table.squares[p]) // 2


def perimeter(table: PlacementTable, p: Placement) -> int:
    """The sides of the placement's squares not inside it."""
    return sides(table.board) * len(table.squares[p]) - 2 * inside_edges(table, p)


def weight(table: PlacementTable, p: Placement, deg: list[int], inside: int | None = None) -> int:
    """The placement's degrees less the edges inside it."""
    return sum(deg[s] for s in table.squares[p]) - (inside_edges(table, p) if inside is None else inside)


def sides(board: Board) -> int:
    """The sides of a cell: 3 on the triangle grid, 4 on squares."""
    return 3 if board.grid == TRIANGLE else 4


def leaning(table: PlacementTable, pieces, free: int, deg: list[int]) -> int:
    """A lower bound on the pieces' total weight that looks at no
    placement: their weight on an open plane less every missing side of
    the free squares (sides on the border or against a blocked square: the
    pieces together cannot lean on more of them than there are)."""
    n_sides = sides(table.board)
    plane = 0
    for i in pieces:
        places = table.by_piece[i]
        if places:
            plane += n_sides * len(table.squares[places[0]]) - inside_edges(table, places[0])
    return plane - sum(n_sides - deg[s] for s in squares_of(free))


def lightest(table: PlacementTable, pieces, free: int, deg: list[int]) -> int | None:
    """A lower bound on the total weight of one placement of each piece
    inside ``free`` (None: some piece has no place there): the larger of
    each piece's lightest placement summed and :func:`leaning`."""
    each = 0
    for i in pieces:
        places = table.by_piece[i]
        if not places:
            return None
        inside = inside_edges(table, places[0])
        weights = [weight(table, p, deg, inside) for p in places if not table.mask[p] & ~free]
        if not weights:
            return None
        each += min(weights)
    return max(each, leaning(table, pieces, free, deg))


def over_budget(table: PlacementTable, pieces, free: int) -> bool:
    """True when the pieces cannot all be placed inside ``free``: one of
    them has no place there at all, or they break the edge budget of the
    module docstring."""
    deg = degrees(table.board)
    least = lightest(table, pieces, free, deg)
    return least is None or least > capacity(table.board, deg)


def outside_sides(board: Board, free: int, s: int) -> int:
    """The sides of square s facing out of the region ``free``."""
    return sides(board) - (board.edge_neighbours(1 << s) & free).bit_count()


def spare_sides(puzzle: Puzzle) -> int | None:
    """For a place-all or count puzzle of one colour: the edges between
    two spare squares plus the spare squares' sides facing out of the free
    region (the border, a blocked, set-up or empty-marked square), the
    same in every packing. Each spare square's sides face the colour's
    pieces, another spare square or the outside; the pieces' sides (their
    perimeters P, none facing another piece of the colour) face spare
    squares or the outside; and the free region's sides facing out (D) are
    the pieces' or the spare squares'. So sides x spare = P - D + 2 x (the
    total). Negative: no packing (a piece with no place at all, too).
    None with more colours (their pieces may share edges) or a maximize
    goal."""
    colors = [c for c in puzzle.colors if puzzle.pieces.get(c)]
    if len(colors) != 1 or puzzle.goal is Goal.MAXIMIZE:
        return None
    t, b, free = puzzle.table, puzzle.board, puzzle.masks.free
    if any(not t.by_piece[i] for i in puzzle.pieces[colors[0]]):
        return -1
    around = sum(perimeter(t, t.by_piece[i][0]) for i in puzzle.pieces[colors[0]])
    outside = sum(outside_sides(b, free, s) for s in squares_of(free))
    total = sides(b) * puzzle.spare_squares - around + outside
    return total // 2 if total >= 0 else -1


def no_room(puzzle: Puzzle) -> int | None:
    """A colour whose pieces to place cannot all fit (a piece with no place,
    or over the edge budget: a place-all or count puzzle then has no
    solution), or None. A maximize puzzle may leave pieces in hand: never
    a colour there."""
    if puzzle.goal is Goal.MAXIMIZE:
        return None
    free = puzzle.masks.free
    return next((c for c in puzzle.colors if over_budget(puzzle.table, puzzle.pieces[c], free)), None)
