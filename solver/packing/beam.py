"""Beam search for place-all goals: the heuristic half of the search engine.

Partial solutions advance one piece at a time. From each, the colour with
the most squares still to place plays one of its ``branch`` best-ordered
moves: the largest pieces first, then placements that hug the border and
other pieces and open new corner squares, with seeded random tie-breaking.
Of all children the ``width`` best survive, ranked by waste (squares
certain to stay empty, from :mod:`.bounds`), the squares of pieces that have
no legal placement left, and the perimeter of the empty region (a compact
empty region leaves fewer holes). Children that
a bound proves dead are dropped. Width 1 is plain greedy; runs widen until
one succeeds.

In a prototype, depth-first search with restarts never placed more than 77
of solo-84's pieces in 60 s; depth-first search that tries only the best
few moves per node solves the symmetric variant in seconds but still
stalls at 72-78 pieces on the general one; this beam, ranked as above,
solves the general one at width 200.

Beam search is not exhaustive: when it fails, nothing is proven. It plays
in play order, so it serves the ``game`` rule only.
"""

from __future__ import annotations

import random
from typing import Iterator

from solver.core.geometry import squares_of
from solver.core.pieces import MONOMINO, PIECE_SIZES
from solver.core.placements import Placement
from solver.packing.bounds import PlaceAllBounds
from solver.packing.rules import final_rules_hold
from solver.packing.state import SearchState
from solver.puzzle.definition import Puzzle


class BeamSearch:
    """One beam run per :meth:`steps`; subclasses change what a move is."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.nodes = 0
        self.best: list[tuple[int, Placement]] = []
        t, b = puzzle.table, puzzle.board
        edge_of_board = b.geometry.ring(b) | b.blocked_mask
        self._border = [(m & edge_of_board).bit_count() for m in t.mask]
        self._stars = sum(1 << s for s in puzzle.stars)

    def run(self, width: int, branch: int, seed: int) -> SearchState | None:
        """A solved state, or None when every partial solution died."""
        steps = self.steps(width, branch, seed)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return done.value

    def steps(self, width: int, branch: int, seed: int) -> Iterator[None]:
        """:meth:`run` as a generator that yields every 64 nodes (so a caller
        can pause it); its return value is the solved state or None."""
        rng = random.Random(seed)
        start = self.initial_state()
        if self._waste(start) is None:
            return None
        beam = [start]
        while beam:
            children = []
            seen = set()
            for st in beam:
                if st.done():
                    if final_rules_hold(self.puzzle, st.placed, grown=True):
                        return st
                    continue
                for c, p in self.moves(st, rng, branch):
                    child = st.clone()
                    self.play(child, c, p)
                    key = tuple(child.occupied)
                    if key in seen:
                        continue
                    seen.add(key)
                    self.nodes += 1
                    if not self.nodes & 63:
                        yield None
                    waste = self._waste(child)
                    if waste is not None:
                        children.append((waste * 10 + 3 * self._stuck(child) + self._perimeter(child) + 2 * rng.random(), child))
            children.sort(key=lambda x: x[0])
            beam = [st for _, st in children[:width]]
            if beam and len(beam[0].placed) > len(self.best):
                self.best = list(beam[0].placed)
        return None

    # -- hooks ------------------------------------------------------------------
    def initial_state(self) -> SearchState:
        return SearchState(self.puzzle)

    def pick_color(self, st: SearchState) -> int:
        return max(
            (c for c in self.puzzle.colors if st.left[c]),
            key=lambda c: (st.squares_left[c], -c),
        )

    def moves(self, st: SearchState, rng: random.Random, branch: int) -> list[tuple[int, Placement]]:
        c = self.pick_color(st)
        return [(c, p) for p in self.ordered(st, c, rng)[:branch]]

    def play(self, st: SearchState, c: int, p: Placement) -> None:
        st.push(c, p)
        st._undo.clear()  # beam states never undo

    # -- ranking ----------------------------------------------------------------
    def ordered(self, st: SearchState, c: int, rng: random.Random) -> list[Placement]:
        t = st.t
        moves = st.legal(c)
        if self.puzzle.monomino_last and not st.only_monomino_left(c):
            moves = [p for p in moves if t.piece[p] != MONOMINO]
        occupied = st.all_occupied
        f = st.forb[c]
        rand = rng.random
        corner, edge, piece, border = t.corner, t.edge, t.piece, self._border
        scored = sorted(
            (
                -(100 * PIECE_SIZES[piece[p]] + (edge[p] & occupied).bit_count() + border[p]
                  + (corner[p] & ~f).bit_count() + 3 * rand()),
                p,
            )
            for p in moves
        )
        return [p for _, p in scored]

    def _waste(self, st: SearchState) -> int | None:
        bounds = PlaceAllBounds(st, self._stars)
        waste = bounds.waste()
        if waste is None or waste > bounds.spare:
            return None
        return waste

    @staticmethod
    def _stuck(st: SearchState) -> int:
        """Squares of pieces that have no legal placement now."""
        return sum(PIECE_SIZES[i] for c in range(4) for i in squares_of(st.unplayable[c]))

    @staticmethod
    def _perimeter(st: SearchState) -> int:
        b = st.b
        empty = b.open_mask & ~st.all_occupied
        return b.geometry.perimeter(b, empty)
