"""Exhaustive search: the complete half of the search engine. Every solution
is reached exactly once, so it can count solutions, prove that none exists
(INFEASIBLE) and prove optima (branch and bound).

Each node takes one decision that splits the solutions into disjoint sets:

- ``square`` (puzzles where every free square must be covered): the lowest
  empty square is covered by exactly one piece, whose lowest square it is;
  one branch per valid (colour, placement). When all colours are
  interchangeable, colours are used in order of first appearance and the
  count is multiplied back by k!.
- ``attach`` (the ``game`` rule otherwise): an attach square s of colour c
  (touching c at a corner) is either covered by one of c's valid
  placements, or never covered by c ("closed"). Each colour's group grows
  only through its attach squares, so every group stays connected, and every
  connected solution is met.
- ``piece`` (``touch`` and ``free`` otherwise): a piece still to place (or a
  star square still to cover) takes one of its valid placements; with a
  maximize goal a piece may also stay in hand.

Pruning: the bounds of :mod:`.bounds` for place-all goals; under ``touch``
(and ``game`` in square mode) a piece that touches no piece of its colour
and has no free corner square left is dead; small holes no remaining piece
fits; for maximize, an upper bound from the squares each target colour can
still reach and the pieces that still fit there.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Iterator

from solver.core.geometry import mask_of, squares_of
from solver.core.pieces import MONOMINO, PIECE_SIZES
from solver.core.placements import Placement, PlacementTable
from solver.core.scoring import best_bonus
from solver.packing.bounds import PlaceAllBounds, coverable, small_holes
from solver.packing.rules import corner_connected, final_rules_hold
from solver.packing.state import SearchState
from solver.puzzle.definition import Connect, Goal, Measure, Puzzle, objective_value
from solver.puzzle.result import Solution
from solver.puzzle.symmetry import interchangeable_colors


@lru_cache(maxsize=64)
def _covering(t: PlacementTable, listed: frozenset[int]) -> list[tuple[Placement, ...]]:
    """Per square, the placements of the listed pieces covering it, in
    placement order (cached, and built from the listed pieces' placements
    only: the endgame search builds thousands of small searches)."""
    per_square: list[list[Placement]] = [[] for _ in range(t.board.size)]
    for p in sorted(p for piece in listed for p in t.by_piece[piece]):
        for sq in t.squares[p]:
            per_square[sq].append(p)
    return [tuple(ps) for ps in per_square]


class Exhaustive:
    """``solutions()`` yields every solution (place-all, count) or every
    improvement of the incumbent (maximize), and ``None`` every 64 nodes
    so that a caller can pause it (see :mod:`.driver`)."""

    name = "exhaustive"

    def __init__(self, puzzle: Puzzle, symmetry: bool = True):
        self.puzzle = puzzle
        self.nodes = 0
        self.st = st = SearchState(puzzle)
        self.t, self.b = st.t, st.b
        self.maximize = puzzle.goal is Goal.MAXIMIZE
        self.fill = not self.maximize and puzzle.spare_squares == 0
        self.mode = "square" if self.fill else ("attach" if puzzle.connect is Connect.GAME else "piece")
        self.stars = puzzle.masks.stars
        self.open = self.b.open_mask & ~puzzle.masks.empty
        self.colors = [c for c in puzzle.colors if st.left[c]]
        if self.maximize and not puzzle.stars:
            # other colours' pieces can only get in the way, unless their
            # set-up pieces need more pieces to touch or to be joined up
            self.colors = [c for c in self.colors if c in puzzle.target or not self._setup_complete(c)]
        self.canonical = symmetry and self.fill and interchangeable_colors(puzzle)
        self.multiplier = math.factorial(len(self.colors)) if self.canonical else 1
        self.lonely_rule = puzzle.connect is Connect.TOUCH or (puzzle.connect is Connect.GAME and self.mode == "square")
        self.group_size = {c: len(puzzle.pieces.get(c, ())) + len(puzzle.setup_of(c)) for c in range(4)}
        self.bounds = PlaceAllBounds(st, self.stars)
        self.best_value: int | None = None
        self.best_bound: int | None = None
        listed = frozenset().union(*(puzzle.pieces[c] for c in self.colors)) if self.colors else frozenset()
        self.covering = _covering(self.t, listed)
        if self.mode == "square":
            self.starts_at: list[list[Placement]] = [[] for _ in range(self.b.size)]
            for p, sqs in enumerate(self.t.squares):
                if self.t.piece[p] in listed:
                    self.starts_at[sqs[0]].append(p)
        if puzzle.goal is not Goal.MAXIMIZE:
            # a colour that must place pieces from a single start square owns it
            for c in self.colors:
                starts = self.b.starts[c]
                if len(starts) == 1 and not puzzle.setup_of(c):
                    for o in range(4):
                        if o != c:
                            st.forb[o] |= mask_of(starts)
        # pieces that must still come to touch a piece of their colour
        self.lonely: list[tuple[int, Placement]] = []
        if puzzle.connect is Connect.TOUCH:
            t = self.t
            for c in puzzle.colors:  # other colours' set-up pieces are obstacles
                for p in puzzle.setup_of(c):
                    if not t.corner[p] & st.occupied[c]:
                        self.lonely.append((c, p))

    def _setup_complete(self, c: int) -> bool:
        """Colour c's set-up pieces satisfy the connection rule by themselves."""
        given = list(self.puzzle.setup_of(c))
        if not given or self.puzzle.connect is Connect.FREE:
            return True
        t = self.t
        if self.puzzle.connect is Connect.TOUCH:
            return all(t.corner[p] & self.st.occupied[c] for p in given)
        return corner_connected(self.t, given)

    # -- driver -----------------------------------------------------------------
    def solutions(self) -> Iterator[Solution | None]:
        if self._dead():
            return
        if self.mode == "square":
            yield from self._square(())
        elif self.mode == "attach":
            yield from self._attach()
        else:
            yield from self._piece()

    # -- pruning ----------------------------------------------------------------
    def _dead(self) -> bool:
        if self.maximize:
            return self.upper_bound() <= (self.best_value if self.best_value is not None else -10**9)
        if self.mode == "square":
            return self._holes_dead()
        return self.bounds.dead()

    def _holes_dead(self) -> bool:
        """Square mode: an empty square no colour may cover, or an enclosed
        hole smaller than every remaining piece."""
        st = self.st
        empty = self.open & ~st.all_occupied
        nobody = empty
        for c in self.colors:
            if st.left[c]:
                nobody &= st.forb[c]
        if nobody:
            return True
        holes = small_holes(self.b, empty, 4)
        smallest = min((PIECE_SIZES[i] for c in self.colors for i in squares_of(st.left[c])), default=99)
        return any(holes[k] for k in range(1, min(smallest, 5)))

    def _lonely_dead(self, c: int, p: Placement) -> bool:
        """After c placed p: update the pieces still touching nothing of their
        colour; True when one of them can never touch anything: none of its
        free corner squares can take a valid placement of its colour."""
        if not self.lonely_rule:
            return False
        st, t = self.st, self.t
        key, forb, covering = t.key, st.forb, self.covering
        keep = []
        for col, q in self.lonely + [(c, p)]:
            if self.puzzle.connect is Connect.GAME and self.group_size[col] < 2:
                continue  # a lone piece is a whole group
            if t.corner[q] & st.occupied[col]:
                continue  # touches its colour now
            fc = forb[col]
            if not any(
                not key[r] & fc and st.is_valid(col, r)
                for s in squares_of(t.corner[q] & ~fc & self.open)
                for r in covering[s]
            ):
                return True
            keep.append((col, q))
        self.lonely = keep
        return False

    # -- leaves -----------------------------------------------------------------
    def _leaf(self) -> Solution | None:
        """The current arrangement, when it is a solution of the goal."""
        st, puzzle = self.st, self.puzzle
        if not self.maximize and any(st.left[c] for c in puzzle.colors):
            return None
        if self.stars & ~st.all_occupied:
            return None
        if self.lonely_rule and self.lonely:
            return None
        placed = list(st.placed)
        # attach mode keeps every new piece attached; set-up pieces may still
        # start out as several groups, which final_rules_hold checks
        return placed if final_rules_hold(puzzle, placed, grown=self.mode == "attach") else None

    def _offer(self) -> Solution | None:
        """Maximize: the current arrangement if it may beat the incumbent."""
        sol = self._leaf()
        if sol is None:
            return None
        value = self._value(sol, optimistic=True)
        if self.best_value is None or value > self.best_value:
            return sol
        return None

    def _value(self, sol: Solution, optimistic: bool) -> int:
        """The goal's value; with ``optimistic`` a monomino placed by a colour
        that placed everything counts as played last (the driver checks the
        real order with the verifier and reports back)."""
        t = self.t
        last = {col: MONOMINO for col, p in sol if optimistic and t.piece[p] == MONOMINO}
        return objective_value(self.puzzle, sol, last)

    def report_value(self, value: int) -> None:
        """The driver's verified value of the last offered solution."""
        if self.best_value is None or value > self.best_value:
            self.best_value = value

    def upper_bound(self) -> int:
        """Maximize: no completion of this node beats this value."""
        st, puzzle = self.st, self.puzzle
        total = 0
        for c in puzzle.target:
            placed = sum(PIECE_SIZES[i] for i in puzzle.pieces[c]) - st.squares_left[c]
            if not st.left[c]:
                extra = 0
            else:
                region = coverable(st, c)
                fitting = sum(
                    PIECE_SIZES[i]
                    for i in squares_of(st.left[c])
                    if self.t.fits(i, region)
                )
                extra = min(fitting, region.bit_count())
            if puzzle.measure is Measure.SQUARES:
                total += placed + extra
            elif extra >= st.squares_left[c]:
                # the search order is not the play order: a monomino placed
                # already may still be played last
                mono = bool(st.left[c] >> MONOMINO & 1) or any(
                    self.t.piece[p] == MONOMINO for col, p in st.placed if col == c
                )
                total += best_bonus(mono)
            else:
                total -= st.squares_left[c] - extra
        return total

    # -- square mode ------------------------------------------------------------
    def _square(self, used: tuple[int, ...]) -> Iterator[Solution]:
        self.nodes += 1
        if not self.nodes & 63:
            yield None
        st, t = self.st, self.t
        empty = self.open & ~st.all_occupied
        if not empty:
            sol = self._leaf()
            if sol is not None:
                yield sol
            return
        s = (empty & -empty).bit_length() - 1
        if self.canonical:
            fresh = [c for c in self.colors if c not in used][:1]
            colors = [c for c in self.colors if c in used] + fresh
        else:
            colors = self.colors
        key = t.key
        for c in colors:
            if not st.left[c]:
                continue
            for p in self.starts_at[s]:
                # st.forb is replaced by pop(): read it afresh every time
                if key[p] & st.forb[c] or not st.is_valid(c, p):
                    continue
                saved = self.lonely
                st.push(c, p)
                if not self._lonely_dead(c, p) and not self._holes_dead():
                    yield from self._square(used if c in used else used + (c,))
                self.lonely = saved
                st.pop()

    # -- attach mode ------------------------------------------------------------
    def _attach(self) -> Iterator[Solution]:
        self.nodes += 1
        if not self.nodes & 63:
            yield None
        st = self.st
        if self.maximize:
            offer = self._offer()
            if offer is not None:
                yield offer
        decision = self._pick_attach()
        if decision is None:
            if not self.maximize:
                sol = self._leaf()
                if sol is not None:
                    yield sol
            return
        c, s, options = decision
        for p in options:
            st.push(c, p)
            if not self._dead():
                yield from self._attach()
            st.pop()
        saved = st.forb[c], st.cands[c]
        st.forb[c] |= 1 << s
        if not self._dead():
            yield from self._attach()
        st.forb[c], st.cands[c] = saved

    def _pick_attach(self) -> tuple[int, int, list[Placement]] | None:
        """The attach square with fewest options, over the colours with
        pieces left. Attach squares that no valid placement covers are left
        out: no placement will ever cover them."""
        st, t = self.st, self.t
        best = None
        for c in self.colors:
            if not st.left[c]:
                continue
            legal = st.legal(c)
            attach = st.attach_squares(c)
            counts: dict[int, int] = {}
            mask = t.mask
            for p in legal:
                for sq in squares_of(mask[p] & attach):
                    counts[sq] = counts.get(sq, 0) + 1
            for sq, n in counts.items():
                if best is None or n < best[0]:
                    best = (n, c, sq)
        if best is None:
            return None
        _, c, s = best
        bit = 1 << s
        size = t.piece
        options = [p for p in st.legal(c) if t.mask[p] & bit]
        options.sort(key=lambda p: -PIECE_SIZES[size[p]])
        return c, s, options

    # -- piece mode -------------------------------------------------------------
    def _piece(self) -> Iterator[Solution]:
        self.nodes += 1
        if not self.nodes & 63:
            yield None
        st, t = self.st, self.t
        if self.maximize:
            offer = self._offer()
            if offer is not None:
                yield offer
        best = None
        for c in self.colors:
            for i in squares_of(st.left[c]):
                opts = [p for p in t.by_piece[i] if st.is_valid(c, p)]
                item = (len(opts), 0, c, i, opts)
                if best is None or item[:2] < best[:2]:
                    best = item
                    if not opts and not self.maximize:
                        return  # a piece that fits nowhere: dead
        for s in squares_of(self.stars & ~st.all_occupied):
            opts = [(c, p) for c in self.colors for p in t.covering[s] if st.left[c] >> t.piece[p] & 1 and st.is_valid(c, p)]
            if not opts:
                return
            if best is None or len(opts) < best[0]:
                best = (len(opts), 1, None, s, opts)
        if best is None:
            if not self.maximize:
                sol = self._leaf()
                if sol is not None:
                    yield sol
            return
        n, is_star, c, i, opts = best
        choices = opts if is_star else [(c, p) for p in opts]
        for col, p in choices:
            saved = self.lonely
            st.push(col, p)
            if not self._lonely_dead(col, p) and not self._dead():
                yield from self._piece()
            self.lonely = saved
            st.pop()
        if self.maximize and not is_star:
            # the piece stays in hand for good
            saved = st.left[c], st.forb[c], st.cands[c]
            st.left[c] &= ~(1 << i)
            st.forb[c] |= 1 << (t.piece_bit_base + i)
            if not self._dead():
                yield from self._piece()
            st.left[c], st.forb[c], st.cands[c] = saved
