"""Exhaustive search with a waste budget in plain Python: the reference
the compiled waste search (:mod:`solver.packing.wastekernel`) is tested
against, and the
square mode of :class:`~solver.packing.exhaustive.Exhaustive` for place-all
puzzles that leave a few squares empty (the frontier packings: two colours
on 13x14 with 4 spare squares).

Each node takes the lowest empty square (row by row from the top left)
and either covers it by a valid placement whose lowest square it is
(largest pieces first), or declares it spare (last), at most
``puzzle.spare_squares`` spare squares in all. A node is pruned when the
squares declared spare, the empty squares no colour may cover and the
empty edge-connected regions smaller than every piece left (those
squares can only stay empty) exceed the budget, and when a piece that
touches no piece of its colour can never come to touch one (the square
mode's lonely test). Corner connectivity of the ``game`` rule is checked
at the leaves. Every packing is met exactly once, so the search is
complete; it finds packings, and, run to the end, would prove that none
exists. It is far too slow for the frontier boards (frontier-2c-13x14 in
benchmarks/RESULTS.md): the engines use the compiled one.
"""

from __future__ import annotations

from typing import Iterator

from solver.core.geometry import squares_of
from solver.core.pieces import PIECE_SIZES
from solver.packing.bounds import small_holes
from solver.packing.exhaustive import Exhaustive
from solver.puzzle.definition import Connect, Goal, Puzzle
from solver.puzzle.result import Solution


class WasteSearch(Exhaustive):
    """``solutions()`` yields every packing of a place-all puzzle, spare squares allowed."""

    name = "waste search"

    def __init__(self, puzzle: Puzzle):
        if puzzle.goal is not Goal.PLACE_ALL:
            raise ValueError(f"{puzzle.name}: the waste search packs place-all puzzles")
        super().__init__(puzzle, symmetry=False)
        self.mode = "square"
        self.budget = puzzle.spare_squares
        self.spare = 0  # squares declared spare
        self.waste = 0  # how many
        self.deepest = 0  # most pieces placed at a node so far
        self.lonely_rule = puzzle.connect in (Connect.TOUCH, Connect.GAME)
        listed = {i for c in self.colors for i in puzzle.pieces[c]}
        t = self.t
        self.starts_at = [[] for _ in range(self.b.size)]
        for p, sqs in enumerate(t.squares):
            if t.piece[p] in listed:
                self.starts_at[sqs[0]].append(p)
        for ps in self.starts_at:
            ps.sort(key=lambda p: -PIECE_SIZES[t.piece[p]])

    def solutions(self) -> Iterator[Solution | None]:
        if self._holes_dead():
            return
        yield from self._fill()

    def forced_waste(self) -> int:
        """Squares that can only stay empty now: no colour may cover them,
        or their empty region is smaller than every piece left."""
        st = self.st
        empty = self.open & ~st.all_occupied & ~self.spare
        nobody = empty
        for c in self.colors:
            if st.left[c]:
                nobody &= st.forb[c]
        smallest = min((PIECE_SIZES[i] for c in self.colors for i in squares_of(st.left[c])), default=99)
        holes = small_holes(self.b, empty & ~nobody, 4)
        return nobody.bit_count() + sum(holes[k] for k in range(1, min(smallest, 5)))

    def _holes_dead(self) -> bool:
        return self.waste + self.forced_waste() > self.budget

    def _fill(self) -> Iterator[Solution]:
        self.nodes += 1
        if not self.nodes & 63:
            yield None
        st, t = self.st, self.t
        if len(st.placed) > self.deepest:
            self.deepest = len(st.placed)
        empty = self.open & ~st.all_occupied & ~self.spare
        if not empty or not any(st.left[c] for c in self.colors):
            sol = self._leaf()
            if sol is not None:
                yield sol
            return
        s = (empty & -empty).bit_length() - 1
        key = t.key
        for p in self.starts_at[s]:
            for c in self.colors:
                if not st.left[c] or key[p] & st.forb[c] or not st.is_valid(c, p):
                    continue
                saved = self.lonely
                st.push(c, p)
                if not self._lonely_dead(c, p) and not self._holes_dead():
                    yield from self._fill()
                self.lonely = saved
                st.pop()
        if self.waste < self.budget:  # the square stays empty
            bit = 1 << s
            forb = st.forb[:]
            for c in range(len(st.forb)):
                st.forb[c] |= bit
            self.spare |= bit
            self.waste += 1
            if not self._holes_dead():
                yield from self._fill()
            self.spare &= ~bit
            self.waste -= 1
            st.forb[:] = forb
