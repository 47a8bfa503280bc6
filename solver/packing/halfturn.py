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

from solver.packing.beam import BeamSearch
from solver.puzzle.definition import Puzzle
from solver.puzzle.symmetry import half_turn


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
