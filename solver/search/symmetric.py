"""Quarter-turn symmetric search: on a square board whose puzzle looks the
same after a quarter turn that also moves every colour to the next one
(blue -> yellow -> red -> green), look only for solutions with that
symmetry. Blue's pieces decide everything: each blue placement comes with
its images turned by 90, 180 and 270 degrees for yellow, red and green, and
blue may use at most one square of each orbit of four squares. The search
is a quarter of the problem; it can find solutions but never prove that
none exists (an asymmetric one might).
"""

from __future__ import annotations

from ..geometry import Board
from ..placements import Placement
from ..puzzle import Puzzle
from .beam import BeamSearch


def quarter_turn(board: Board, sq: int) -> int:
    """The square a clockwise quarter turn takes sq to: (r, c) -> (c, n-1-r)."""
    n = board.width
    r, c = divmod(sq, n)
    return c * n + (n - 1 - r)


def symmetry_applies(puzzle: Puzzle) -> str | None:
    """None when the puzzle is invariant under the quarter turn with the
    colour shift; otherwise the reason why not."""
    b = puzzle.board
    if puzzle.connect != "game":
        return "the symmetric search plays in play order (the game rule)"
    if b.width != b.height:
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


class SymmetricBeam(BeamSearch):
    """Beam search over blue's moves; each move places all four images."""

    def __init__(self, puzzle: Puzzle, **kw):
        super().__init__(puzzle, **kw)
        t, b = puzzle.table, puzzle.board
        rot = []
        for p in range(len(t)):
            q = t.find(quarter_turn(b, s) for s in t.squares[p])
            assert q is not None
            rot.append(q)
        self.rot = rot
        self.orbit_ok = [
            not t.mask[p] & (t.mask[rot[p]] | t.mask[rot[rot[p]]] | t.mask[rot[rot[rot[p]]]])
            for p in range(len(t))
        ]

    def moves(self, st, rng, branch):
        ok, rot = self.orbit_ok, self.rot
        out = []
        for p in self.ordered(st, 0, rng):
            if ok[p] and st.is_valid(1, rot[p]) and st.is_valid(2, rot[rot[p]]) and st.is_valid(3, rot[rot[rot[p]]]):
                out.append((0, p))
                if len(out) == branch:
                    break
        return out

    def play(self, st, c, p):
        for col in range(4):
            st.push(col, p)
            p = self.rot[p]
        st._undo.clear()
