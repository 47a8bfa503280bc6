"""Two-colour halves: a four-colour place-all puzzle on a
rectangle, each colour from its own corner, with the half turn
(:func:`.halfturn.half_turn`: blue <-> red, yellow <-> green), cut across
the middle of a side of even length into two halves of two corners each.
Pack one half with the two colours whose corners it holds, and the other
half with the half turn of that packing in the partner colours: across
the cut only colours of different halves meet, so the whole packing
keeps the rules once the half does, and it is half-turn symmetric.
Within the half, the mirror that swaps its two corners swaps its two
colours: only mirror-symmetric half packings are searched (the compiled
waste search with that symmetry), so 21 pieces decide the whole packing,
on a quarter of the board and with two colours instead of four.

This restricts the half-turn packings further, so it finds packings and
never proves there are none. It is what packed all 84 pieces on 18x20
(benchmarks/RESULTS.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.core.geometry import Board
from solver.core.placements import Placement
from solver.packing.wastefast import CompiledWasteSearch, Restarts
from solver.puzzle.definition import Goal, Puzzle
from solver.puzzle.result import Solution
from solver.puzzle.symmetry import half_turn
from solver.puzzle.verify import verify

BLUE, YELLOW, RED, GREEN = range(4)
RESTART = 1_000_000  # nodes of one run before the next order (or the other cut); 18x20: 3-4 in 30 runs find one


@dataclass(frozen=True)
class Cut:
    """One way to halve the board: the half's puzzle (at the board's top
    left), its mirror (square map, colour map) and its name."""

    half: Puzzle
    mirror: tuple[list[int], dict[int, int]]
    name: str


def cuts(puzzle: Puzzle) -> list[Cut] | str:
    """The ways ``puzzle`` halves (left and right, top and bottom), or why
    it does not."""
    found = half_turn(puzzle)
    if isinstance(found, str):
        return found
    b = puzzle.board
    if puzzle.goal is not Goal.PLACE_ALL or len(puzzle.colors) != 4:
        return "it is not a place-all puzzle of four colours"
    if b.blocked or puzzle.empty or b.starts != Board.rectangle(b.width, b.height, corners=True).starts:
        return "it is not an open rectangle with a start square in each corner"
    if len({tuple(sorted(puzzle.pieces[c])) for c in puzzle.colors}) != 1:
        return "the colours have different pieces"
    if puzzle.spare_squares % 2:  # (so on every board whose sides are both odd)
        return "the spare squares cannot be shared by two halves (an odd number)"
    out = []
    if b.width % 2 == 0:  # blue and green on the left, from its top and bottom corners
        out.append(_cut(puzzle, b.width // 2, b.height, GREEN, "left half"))
    if b.height % 2 == 0:  # blue and yellow on top, from its left and right corners
        out.append(_cut(puzzle, b.width, b.height // 2, YELLOW, "top half"))
    return out  # (an even number of squares in all: a side is even)


def _cut(puzzle: Puzzle, width: int, height: int, other: int, name: str) -> Cut:
    starts = [frozenset()] * 4
    starts[BLUE] = frozenset([0])
    starts[other] = frozenset([(height - 1) * width if other == GREEN else width - 1])
    board = Board(width, height, frozenset(), tuple(starts))
    half = Puzzle(board, (BLUE, other), {BLUE: puzzle.pieces[BLUE], other: puzzle.pieces[other]},
                  monomino_last=puzzle.monomino_last, name=f"{puzzle.name} ({name})", variant=puzzle.variant)
    if other == GREEN:  # the mirror across the half's middle row
        square_map = [board.square(height - 1 - r, c) for r, c in map(board.row_col, range(board.size))]
    else:  # ... across its middle column
        square_map = [board.square(r, width - 1 - c) for r, c in map(board.row_col, range(board.size))]
    return Cut(half, (square_map, {BLUE: other, other: BLUE}), name)


class HalvesSearch(Restarts):
    """Mirror-symmetric packings of the halves, run after run: run i takes
    the cuts in turn, for ``restart`` nodes each, with the order of seed
    ``seed * 2**20 + lane * 2**16 + i // len(cuts)`` (the standard order
    for 0; seeds and lanes far apart, so that no two share a run: lanes are
    searches of one seed on several threads). ``step``
    and ``best_partial`` give whole-board packings (each complete one
    verified), ``deepest`` counts the whole board's pieces. ValueError
    when the puzzle does not halve (:func:`cuts` says why)."""

    name = "two-colour halves"

    def __init__(self, puzzle: Puzzle, seed: int = 0, restart: int = RESTART, lane: int = 0):
        found = cuts(puzzle)
        if isinstance(found, str):
            raise ValueError(f"{puzzle.name}: does not halve: {found}")
        self.cuts = found
        n = len(found)
        turn = half_turn(puzzle)

        def make(i: int) -> _WholeRun:
            cut = found[i % n]
            order = (seed << 20) + (lane << 16) + i // n
            search = CompiledWasteSearch(cut.half, seed=order or None, symmetry=cut.mirror)
            return _WholeRun(puzzle, turn, cut, search)

        super().__init__(make, restart, spaces=n)


class _WholeRun:
    """One run on a half, seen on the whole board (``turn``: the whole
    board's half turn, :func:`.halfturn.half_turn`)."""

    def __init__(self, puzzle: Puzzle, turn: tuple, cut: Cut, search: CompiledWasteSearch):
        self.puzzle, self.cut, self.search = puzzle, cut, search
        self.pmap, self.cmap = turn

    @property
    def nodes(self) -> int:
        return self.search.nodes

    @property
    def deepest(self) -> int:
        return 2 * self.search.deepest

    @property
    def finished(self) -> bool:
        return self.search.finished

    def step(self, max_nodes: int) -> Solution | None:
        sol = self.search.step(max_nodes)
        if sol is None:
            return None
        whole = self.whole(sol)
        verify(self.puzzle, whole)
        return whole

    def best_partial(self) -> Solution:
        return self.whole(self.search.best_partial())

    def whole(self, half: Solution) -> Solution:
        """A half's packing on the whole board (the half at its top left),
        with its half turn in the partner colours."""
        b, hb = self.puzzle.board, self.cut.half.board
        t, ht = self.puzzle.table, self.cut.half.table
        out: list[tuple[int, Placement]] = []
        for c, p in half:
            q = t.find(b.square(*hb.row_col(s)) for s in ht.squares[p])
            out += [(c, q), (self.cmap[c], self.pmap[q])]
        return out
