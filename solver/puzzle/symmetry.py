"""Symmetries of a puzzle, to count solutions "up to symmetry".

A symmetry is a turn or mirror of the board together with a relabelling of
the colours that maps the puzzle onto itself: blocked, star and empty
squares onto themselves, each colour's start squares, set-up pieces and
pieces in hand onto those of its image colour (and the maximize target onto
itself). Two solutions are the same up to symmetry when one symmetry maps
one onto the other.
"""

from __future__ import annotations

from itertools import permutations

from solver.core.geometry import SQUARE, Board
from solver.core.placements import Placement
from solver.puzzle.definition import Connect, Goal, Puzzle, SameShape


def board_transforms(board: Board) -> list[list[int]]:
    """Square maps of the turns and mirrors that keep the rectangle's shape
    (4 for a rectangle, 8 for a square), identity first."""
    w, h = board.width, board.height
    if board.grid != SQUARE:  # the hexagon's turns are not yet counted: the identity alone
        return [list(range(board.size))]
    maps = []
    cases = [
        lambda r, c: (r, c),
        lambda r, c: (h - 1 - r, w - 1 - c),
        lambda r, c: (r, w - 1 - c),
        lambda r, c: (h - 1 - r, c),
    ]
    if w == h:
        cases += [
            lambda r, c: (c, w - 1 - r),
            lambda r, c: (w - 1 - c, r),
            lambda r, c: (c, r),
            lambda r, c: (w - 1 - c, h - 1 - r),
        ]
    for f in cases:
        maps.append([board.square(*f(*divmod(sq, w))) for sq in range(board.size)])
    return maps


def puzzle_symmetries(puzzle: Puzzle) -> list[tuple[list[int], dict[int, int]]]:
    """(square map, colour map) pairs that map the puzzle onto itself."""
    b, t = puzzle.board, puzzle.table
    out = []
    for sq_map in board_transforms(b):
        image = lambda squares: frozenset(sq_map[s] for s in squares)  # noqa: E731
        if image(b.blocked) != b.blocked or image(puzzle.stars) != puzzle.stars or image(puzzle.empty) != puzzle.empty:
            continue
        setup_image = {
            c: frozenset(frozenset(sq_map[s] for s in t.squares[p]) for p in puzzle.setup_of(c)) for c in range(4)
        }
        setup_sets = {c: frozenset(frozenset(t.squares[p]) for p in puzzle.setup_of(c)) for c in range(4)}
        # colours outside the puzzle keep their names
        others = [c for c in range(4) if c not in puzzle.colors]
        if any(setup_image[c] != setup_sets[c] or image(b.starts[c]) != b.starts[c] for c in others):
            continue
        for perm in permutations(puzzle.colors):
            cmap = dict(zip(puzzle.colors, perm))
            if all(
                image(b.starts[c]) == b.starts[cmap[c]]
                and setup_image[c] == setup_sets[cmap[c]]
                and tuple(sorted(puzzle.pieces[c])) == tuple(sorted(puzzle.pieces[cmap[c]]))
                and ((c in puzzle.target) == (cmap[c] in puzzle.target))
                for c in puzzle.colors
            ):
                out.append((sq_map, cmap))
    return out


def interchangeable_colors(puzzle: Puzzle) -> bool:
    """All colours have the same pieces and nothing tells them apart (no
    start squares, no set-up pieces, no maximize target)."""
    b = puzzle.board
    return (
        len(puzzle.colors) > 1
        and len({tuple(sorted(puzzle.pieces[c])) for c in puzzle.colors}) == 1
        and not any(b.starts[c] for c in range(4))
        and not any(puzzle.setup.values())
        and puzzle.goal is not Goal.MAXIMIZE
    )


def count_classes(puzzle: Puzzle, solutions: list[list[tuple[int, Placement]]]) -> int:
    """Number of distinct solutions up to the puzzle's symmetries."""
    t = puzzle.table
    group = []
    for sq_map, cmap in puzzle_symmetries(puzzle):
        pmap: dict[Placement, Placement] = {}
        group.append((pmap, sq_map, cmap))
    keys = set()
    for sol in solutions:
        best = None
        for pmap, sq_map, cmap in group:
            image = []
            for c, p in sol:
                q = pmap.get(p)
                if q is None:
                    q = pmap[p] = t.find(sq_map[s] for s in t.squares[p])
                image.append((cmap[c], q))
            key = tuple(sorted(image))
            if best is None or key < best:
                best = key
        keys.add(best)
    return len(keys)


def quarter_turn(board: Board, sq: int) -> int:
    """The square a clockwise quarter turn takes sq to: (r, c) -> (c, n-1-r)."""
    n = board.width
    r, c = divmod(sq, n)
    return c * n + (n - 1 - r)


def quarter_turn_placements(puzzle: Puzzle) -> list[Placement]:
    """For every placement of a square board, its image under the quarter turn."""
    t, b = puzzle.table, puzzle.board
    return [t.find(quarter_turn(b, s) for s in t.squares[p]) for p in range(len(t))]


def symmetry_applies(puzzle: Puzzle) -> str | None:
    """None when the puzzle is invariant under the quarter turn with the
    colour shift; otherwise the reason why not."""
    b = puzzle.board
    if puzzle.connect is not Connect.GAME:
        return "the symmetric search plays in play order (the game rule)"
    if b.grid != SQUARE or b.width != b.height:
        return "the board is not square"
    if sorted(puzzle.colors) != [0, 1, 2, 3]:
        return "not all four colours take part"
    if len({tuple(sorted(puzzle.pieces[c])) for c in range(4)}) != 1:
        return "the colours have different pieces"
    if puzzle.setup and any(puzzle.setup.values()):
        return "the puzzle has set-up pieces"
    turn = lambda squares: frozenset(quarter_turn(b, s) for s in squares)  # noqa: E731
    if turn(b.blocked) != b.blocked or turn(puzzle.stars) != puzzle.stars or turn(puzzle.empty) != puzzle.empty:
        return "blocked, star or empty squares are not symmetric"
    for c in range(4):
        if turn(b.starts[c]) != b.starts[(c + 1) % 4]:
            return "the start squares do not turn into each other"
    return None


def half_turn_map(puzzle: Puzzle) -> list[int]:
    """The square each square goes to under the half turn."""
    b = puzzle.board
    return [b.square(b.height - 1 - r, b.width - 1 - c) for r, c in (b.row_col(s) for s in range(b.size))]


def half_turn(puzzle: Puzzle) -> tuple[list[Placement | None], dict[int, int]] | str:
    """(placement map, colour map) of the half-turn symmetry with colour
    swap, or the reason why the puzzle does not have it."""
    b, t = puzzle.board, puzzle.table
    if puzzle.connect is not Connect.GAME:
        return "the symmetric search plays in play order (the game rule)"
    if b.grid != SQUARE:
        return "the board is not made of squares"
    if puzzle.setup and any(puzzle.setup.values()):
        return "the puzzle has set-up pieces"
    if puzzle.same_shape is not SameShape.NONE or puzzle.stars:
        return "star squares or the same-shape rule"
    turn = half_turn_map(puzzle)
    image = lambda squares: frozenset(turn[s] for s in squares)  # noqa: E731
    if image(b.blocked) != b.blocked or image(puzzle.empty) != puzzle.empty:
        return "blocked or empty squares are not symmetric"
    cmap: dict[int, int] = {}
    for c in puzzle.colors:
        if not b.starts[c]:
            return "a colour has no start square"
        partner = [d for d in puzzle.colors if d != c and frozenset(b.starts[d]) == image(b.starts[c])]
        if len(partner) != 1:
            return "the start squares do not turn into each other's"
        cmap[c] = partner[0]
        if sorted(puzzle.pieces[c]) != sorted(puzzle.pieces[partner[0]]):
            return "opposite colours have different pieces"
    pmap = [t.find(turn[s] for s in t.squares[p]) for p in range(len(t))]
    return pmap, cmap


def turn_symmetry(puzzle: Puzzle) -> tuple[list[Placement | None], dict[int, int]] | str:
    """The puzzle's turn symmetry as (placement map, colour map): the
    quarter turn with the colours shifted where it applies
    (:func:`symmetry_applies`), else the half turn with opposite colours
    swapped (:func:`half_turn`); else why neither applies. What the
    symmetric searches of every engine keep."""
    if symmetry_applies(puzzle) is None:
        return quarter_turn_placements(puzzle), {c: (c + 1) % 4 for c in puzzle.colors}
    found = half_turn(puzzle)
    if isinstance(found, str):
        return f"no quarter turn ({symmetry_applies(puzzle)}) and no half turn ({found})"
    return found


def turn_square_map(puzzle: Puzzle) -> list[int]:
    """The square map of :func:`turn_symmetry`'s turn."""
    if symmetry_applies(puzzle) is None:
        return [quarter_turn(puzzle.board, s) for s in range(puzzle.board.size)]
    return half_turn_map(puzzle)


def turn_name(puzzle: Puzzle) -> str:
    """``"quarter-turn"`` or ``"half-turn"``: which turn :func:`turn_symmetry` takes."""
    return "quarter-turn" if symmetry_applies(puzzle) is None else "half-turn"
