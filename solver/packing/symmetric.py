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

from solver.packing.beam import BeamSearch
from solver.puzzle.definition import Puzzle
from solver.puzzle.symmetry import quarter_turn_placements


class SymmetricBeam(BeamSearch):
    """Beam search over blue's moves; each move places all four images."""

    def __init__(self, puzzle: Puzzle, **kw):
        super().__init__(puzzle, **kw)
        t = puzzle.table
        self.rot = rot = quarter_turn_placements(puzzle)
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
