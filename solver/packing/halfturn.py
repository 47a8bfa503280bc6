"""Half-turn symmetric search: on a rectangle whose puzzle looks
the same after a half turn that also swaps the colours of opposite corners
(blue <-> red, yellow <-> green; for two colours, the two of them), look
only for packings with that symmetry. The leading colours (blue, and
yellow when it takes part) decide everything: each of their placements
comes with its half-turned image in the partner colour, and a placement
may not overlap its own image. Half of the problem; like the quarter-turn
search it can find packings but never prove that none exists.

On the frontier rectangles the symmetry is what makes the
packings reachable, as the quarter turn did on 19x19: see
benchmarks/RESULTS.md.
"""

from __future__ import annotations

from solver.core.geometry import SQUARE
from solver.core.placements import Placement
from solver.packing.beam import BeamSearch
from solver.puzzle.definition import Connect, Puzzle, SameShape


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


class HalfTurnBeam(BeamSearch):
    """Beam search over the leading colours' moves; each move also places
    the half-turned image for the partner colour."""

    def __init__(self, puzzle: Puzzle, **kw):
        super().__init__(puzzle, **kw)
        found = half_turn(puzzle)
        if isinstance(found, str):
            raise ValueError(f"{puzzle.name}: no half-turn symmetry: {found}")
        self.rot, self.cmap = found
        t = puzzle.table
        self.leaders = [c for c in puzzle.colors if c < self.cmap[c]]
        self.orbit_ok = [self.rot[p] is not None and not t.mask[p] & t.mask[self.rot[p]] for p in range(len(t))]

    def pick_color(self, st):
        return max((c for c in self.leaders if st.left[c]), key=lambda c: (st.squares_left[c], -c))

    def moves(self, st, rng, branch):
        c = self.pick_color(st)
        d, ok, rot = self.cmap[c], self.orbit_ok, self.rot
        out = []
        for p in self.ordered(st, c, rng):
            if ok[p] and st.is_valid(d, rot[p]):
                out.append((c, p))
                if len(out) == branch:
                    break
        return out

    def play(self, st, c, p):
        st.push(c, p)
        st.push(self.cmap[c], self.rot[p])
        st._undo.clear()
