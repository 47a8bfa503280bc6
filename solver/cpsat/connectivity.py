"""Connectivity of the ``game`` rule. A colour's pieces touch each other
only at corners, so they form one group exactly when its squares are
connected by king moves. Two encodings:

- ``levels`` (:func:`add_levels`, in the model): every covered square other
  than a root square has a covered king-neighbour of lower level (one
  "parent" literal per neighbour), levels bounded below by the king distance
  to the root;
- ``cuts`` (:func:`violations`, between solves): no connectivity constraint
  up front; each solution is checked, and every group cut off from the root
  gets a cut (if all its squares are covered, one of the squares around it
  is too) before solving again.

Monomino-last: the monomino's squares are never a parent (levels), or a
group cut off by the monomino gets a cut too (cuts).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from solver.core.geometry import COLORS, Board, mask_of, squares_of
from solver.core.pieces import MONOMINO, PIECE_SIZES
from solver.core.placements import Placement
from solver.puzzle.definition import Connect, Goal
from solver.puzzle.result import Solution

if TYPE_CHECKING:
    from solver.cpsat.variables import BoolVar, PuzzleModel


# -- levels ---------------------------------------------------------------------------

def add_levels(m: PuzzleModel, c: int) -> None:
    """Square-level connectivity for colour c (the ``levels`` encoding):
    each covered square that is not a root has a covered king-neighbour of
    lower level, its parent."""
    b = m.puzzle.board
    setup = m.puzzle.masks.setup[c]
    squares = [s for s in squares_of(m.region.get(c, 0)) if (c, s) in m.covered]
    if not squares and not setup:
        return
    if setup:
        # one group of set-up pieces is the root; other groups must be joined
        m.root_mask[c] = b.king_fill(setup & -setup, setup)
    root = m.root_mask.get(c, 0)
    given = setup & ~root  # set-up squares that still need a parent
    nodes = squares + list(squares_of(given))
    mono_flag = _monomino_last_flag(m, c)
    _add_level_vars(m, c, nodes, root, given)
    if not root:
        _add_root_choice(m, c, squares)
    _add_parents(m, c, nodes, root, given, mono_flag)


def _monomino_last_flag(m: PuzzleModel, c: int) -> BoolVar | None:
    """The objective's "colour c places its monomino last" boolean, made
    here because the parents depend on it (None when it earns no bonus)."""
    puzzle = m.puzzle
    if puzzle.goal is Goal.MAXIMIZE and c in puzzle.target and MONOMINO in puzzle.pieces[c]:
        m.mono_last[c] = m.model.new_bool_var(f"monolast_{COLORS[c]}")
        return m.mono_last[c]
    return None


def _add_level_vars(m: PuzzleModel, c: int, nodes: list[int], root: int, given: int) -> None:
    """A level per node, at least its king distance from a fixed root."""
    puzzle, model = m.puzzle, m.model
    setup = puzzle.masks.setup[c]
    dist = _king_distances(puzzle.board, root, m.region.get(c, 0) | setup) if root else {}
    # a chain of parents from the root passes only through squares the colour
    # still covers or set-up squares outside the root: levels never exceed
    # their number, and squares farther away than that stay empty
    horizon = min(len(nodes), sum(PIECE_SIZES[i] for i in puzzle.pieces[c]) + given.bit_count()) + 1
    for s in nodes:
        lo = dist.get(s, horizon) if root else 0
        m.levels[c, s] = model.new_int_var(min(lo, horizon), horizon, f"lvl_{COLORS[c]}_{s}")
        cov = m.covered.get((c, s))
        if lo >= horizon and cov is not None:
            model.add_bool_or([cov.Not()])


def _king_distances(b: Board, roots: int, region: int) -> dict[int, int]:
    """King-move distance from ``roots`` to each square of ``region`` it reaches."""
    dist = {s: 0 for s in squares_of(roots)}
    queue = deque(dist)
    while queue:
        s = queue.popleft()
        for n in b.king_neighbours(s):
            if n not in dist and region >> n & 1:
                dist[n] = dist[s] + 1
                queue.append(n)
    return dist


def _add_root_choice(m: PuzzleModel, c: int, squares: list[int]) -> None:
    """No fixed root (no set-up, not one start square): at most one root
    square, of level 0, on a start square when the colour has several;
    exactly one when it must place pieces."""
    puzzle, model = m.puzzle, m.model
    starts = puzzle.board.start_masks[c]
    for s in squares:
        if starts and not starts >> s & 1:
            continue
        m.roots[c, s] = r = model.new_bool_var(f"root_{COLORS[c]}_{s}")
        model.add_implication(r, m.covered[c, s])
        model.add(m.levels[c, s] == 0).only_enforce_if(r)
    roots = [m.roots[c, s] for s in squares if (c, s) in m.roots]
    model.add_at_most_one(roots)
    if puzzle.goal is not Goal.MAXIMIZE and puzzle.pieces[c]:
        model.add_exactly_one(roots) if roots else model.add_bool_or([])


def _add_parents(m: PuzzleModel, c: int, nodes: list[int], root: int, given: int, mono_flag: BoolVar | None) -> None:
    """Each covered node outside the root is a root square or has a parent
    (none is needed next to the root, which is always covered)."""
    t, b = m.puzzle.table, m.puzzle.board
    mono = {t.squares[p][0]: v for (col, p), v in m.x.items() if col == c and t.piece[p] == MONOMINO}
    for s in nodes:
        if root >> s & 1:
            continue
        options = []
        for n in b.king_neighbours(s):
            if root >> n & 1:
                break  # (parents made before this stay in the model, unused)
            if (c, n) in m.covered or given >> n & 1:
                options.append(_parent(m, c, s, n, mono, mono_flag))
        else:
            cov, is_root = m.covered.get((c, s)), m.roots.get((c, s))
            here = [cov.Not()] if cov is not None else []
            m.model.add_bool_or(here + options + ([is_root] if is_root is not None else []))


def _parent(m: PuzzleModel, c: int, s: int, n: int, mono: dict[int, BoolVar], mono_flag: BoolVar | None) -> BoolVar:
    """The literal "n is the parent of s": n covered, of lower level, and
    not the monomino when it is (or is claimed to be) played last."""
    model = m.model
    par = model.new_bool_var(f"par_{COLORS[c]}_{s}_{n}")
    cov = m.covered.get((c, n))
    if cov is not None:
        model.add_implication(par, cov)
    model.add(m.levels[c, n] + 1 <= m.levels[c, s]).only_enforce_if(par)
    if n in mono:
        if m.puzzle.monomino_last:
            model.add_implication(par, mono[n].Not())
        elif mono_flag is not None:
            model.add_bool_or([par.Not(), mono[n].Not(), mono_flag.Not()])
    m.parents[c, s, n] = par
    return par


# -- cuts -----------------------------------------------------------------------------

def _cut_off(m: PuzzleModel, placements: Solution, c: int,
             skip: set[int] = frozenset()) -> tuple[list[list[int]], int | None]:
    """Colour c's groups of squares (king moves, set-up pieces included) that
    its root does not reach without passing through ``skip``, and the root
    square when the root is not fixed (no set-up: the lowest covered start
    square, or without start squares the lowest covered square)."""
    puzzle, t, b = m.puzzle, m.puzzle.table, m.puzzle.board
    mine = {s for col, p in placements if col == c for s in t.squares[p]}
    setup = {s for p in puzzle.setup_of(c) for s in t.squares[p]}
    everything = (mine | setup) - skip
    if not mine:
        return [], None
    anchor = None
    if setup:  # one set-up group is the root; the others must be joined
        root = set(squares_of(b.king_fill(1 << min(setup), mask_of(setup))))
    else:
        # one root square: two groups each on a start square are cut off from each other too
        starts = [s for s in everything if b.start_masks[c] >> s & 1]
        anchor = min(starts or everything, default=-1)
        root = {anchor}
    root &= everything
    seen = set(root)
    queue = deque(root)
    while queue:
        s = queue.popleft()
        for n in b.king_neighbours(s):
            if n in everything and n not in seen:
                seen.add(n)
                queue.append(n)
    rest = everything - seen
    groups = []
    while rest:
        group = {rest.pop()}
        queue = deque(group)
        while queue:
            s = queue.popleft()
            for n in b.king_neighbours(s):
                if n in rest:
                    rest.discard(n)
                    group.add(n)
                    queue.append(n)
        groups.append(sorted(group))
    return groups, anchor


@dataclass
class Cut:
    """A connectivity cut: if colour c covers every square of ``group`` (and,
    for a monomino cut, the monomino sits on ``mono`` and is claimed last
    through ``flag``), it also covers one of the squares around the group,
    not counting the monomino's."""

    c: int
    group: list[int]
    mono: tuple[int, Placement] | None = None  # (colour, placement) of the monomino
    flag: BoolVar | None = None  # the objective's monomino-last boolean
    # a covered square of another group, when the root is not fixed: the
    # cut then holds only with it covered too (the group alone may be all)
    anchor: int | None = None

    def add_to(self, m: PuzzleModel) -> None:
        """Add the cut to the model, as one clause."""
        t, b, c = m.puzzle.table, m.puzzle.board, self.c
        inside = set(self.group)
        banned = set(t.squares[self.mono[1]]) if self.mono else set()
        around = {n for s in self.group for n in b.king_neighbours(s)
                  if n not in inside and n not in banned and (c, n) in m.covered}
        # set-up squares in the group are covered anyway: they add no literal
        lits = [m.covered[c, s].Not() for s in self.group if (c, s) in m.covered]
        lits += [m.covered[c, n] for n in sorted(around)]
        if self.mono:
            lits.append(m.x[self.mono].Not())
        if self.flag is not None:
            lits.append(self.flag.Not())
        if self.anchor is not None and (c, self.anchor) in m.covered:
            lits.append(m.covered[c, self.anchor].Not())
        m.model.add_bool_or(lits)


def violations(m: PuzzleModel, placements: Solution, value: Callable[[BoolVar], bool]) -> list[Cut]:
    """The cuts a solution of the ``cuts`` encoding breaks: groups cut off
    from the root, and groups cut off by the monomino when it must be (or is
    claimed to be) played last."""
    puzzle, t = m.puzzle, m.puzzle.table
    out: list[Cut] = []
    if puzzle.connect is not Connect.GAME:
        return out
    for c in puzzle.colors:
        groups, anchor = _cut_off(m, placements, c)
        cut_off = [Cut(c, g, anchor=anchor) for g in groups]
        out += cut_off
        flag = m.mono_last.get(c) if not puzzle.monomino_last else None
        claimed = puzzle.monomino_last or (flag is not None and value(flag))
        mono = [(col, p) for col, p in placements if col == c and t.piece[p] == MONOMINO]
        if claimed and mono and not cut_off:
            squares = set(t.squares[mono[0][1]])
            groups, anchor = _cut_off(m, placements, c, skip=squares)
            out += [Cut(c, g, mono[0], flag, anchor) for g in groups]
    return out
