"""An independent brute-force solver for SMALL puzzles: the oracle the
engines are compared with on tiny boards.

It shares no code with the engines. It takes the list of placements of each
piece from the board's placement table, tries the pieces in a fixed order
(colour by colour, pieces in the standard order) and, for each, every
placement that overlaps nothing already on the board and shares no edge with
a piece of its own colour. Nothing else is pruned: every full combination
found that way is handed to :func:`solver.puzzle.verify.verify`, which alone
decides whether it is a solution. Cost grows like the product of the
pieces' placement counts, so keep the puzzles tiny.
"""

from __future__ import annotations

from solver.puzzle.definition import Puzzle
from solver.puzzle.verify import VerificationError, verify

Solution = frozenset  # of (colour, placement) pairs


def _edge_neighbours(puzzle: Puzzle, sq: int) -> list[int]:
    w, h = puzzle.board.width, puzzle.board.height
    r, c = divmod(sq, w)
    return [(r + dr) * w + c + dc for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)) if 0 <= r + dr < h and 0 <= c + dc < w]


def _search(puzzle: Puzzle, may_skip: bool, found) -> None:
    """Call ``found(chosen)`` for every combination described above (with
    ``may_skip``, also those leaving any pieces out)."""
    t = puzzle.table
    todo = [(c, piece) for c in puzzle.colors for piece in puzzle.pieces[c]]
    owner: dict[int, int] = {}  # square -> colour
    for c, ps in puzzle.setup.items():
        for p in ps:
            for sq in t.squares[p]:
                owner[sq] = c
    chosen: list[tuple[int, int]] = []

    def extend(i: int) -> None:
        if i == len(todo):
            found(list(chosen))
            return
        if may_skip:
            extend(i + 1)
        c, piece = todo[i]
        for p in t.by_piece[piece]:
            squares = t.squares[p]
            if any(sq in owner for sq in squares):
                continue
            if any(owner.get(n) == c for sq in squares for n in _edge_neighbours(puzzle, sq)):
                continue
            for sq in squares:
                owner[sq] = c
            chosen.append((c, p))
            extend(i + 1)
            chosen.pop()
            for sq in squares:
                del owner[sq]

    extend(0)


def solve_all(puzzle: Puzzle) -> set[Solution]:
    """Every solution of a place-all (or count) puzzle, as frozensets of
    (colour, placement)."""
    assert puzzle.goal in ("place-all", "count"), "solve_all is for place-all and count puzzles"
    solutions: set[Solution] = set()

    def found(chosen) -> None:
        try:
            verify(puzzle, chosen)
        except VerificationError:
            return
        solutions.add(frozenset(chosen))

    _search(puzzle, False, found)
    return solutions


def maximize(puzzle: Puzzle) -> tuple[int | None, set[Solution]]:
    """The best objective of a maximize puzzle and every set of new pieces
    reaching it (None and no solutions when nothing passes verify)."""
    assert puzzle.goal == "maximize"
    best: list = [None, set()]

    def found(chosen) -> None:
        try:
            value = verify(puzzle, chosen).objective
        except VerificationError:
            return
        if best[0] is None or value > best[0]:
            best[0], best[1] = value, set()
        if value == best[0]:
            best[1].add(frozenset(chosen))

    _search(puzzle, True, found)
    return best[0], best[1]
