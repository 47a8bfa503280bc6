"""A compiled (numba) kernel for fill puzzles: the ``square`` mode of
:class:`~solver.packing.exhaustive.Exhaustive`, some 50-60x faster per node
(2-2.5M nodes/s against ~40k) and with a somewhat smaller tree.

A fill puzzle (goal place-all or count, no spare square) is searched as in
square mode: each node picks an empty square and branches over every valid
(colour, placement) covering it, so every solution is met exactly once.
The square is the one with the fewest options among the first ``K`` empty
squares (``K = 1``: the lowest empty square, as in Python). When the colours
are interchangeable, colours are used in order of first appearance and the
count is multiplied back by k! (option counts do not depend on colour
labels, so the branching square does not either, and each class of k!
relabelled solutions keeps exactly one member).

Pruning (all sound, at least what the Python engine does):

- lonely pieces (``touch``, and ``game`` for colours with two pieces or
  more): a piece touching no piece of its colour at a corner whose free
  corner squares take no valid placement of its colour is dead (a witness
  placement per piece is cached and re-checked first);
- an empty square every colour with pieces left is forbidden to cover;
- an edge-connected empty region whose size is below the smallest piece
  left or not a multiple of the gcd of the sizes left (after a move only the
  regions next to the new piece are checked, unless the smallest size or
  the gcd changed);
- a colour whose start squares are all taken by others or forbidden to it;
- a square in the first ``K`` with no option.

Data layout: a set of squares is two uint64 words (boards up to 128
squares), so every mask below is a pair ``[lo, hi]``. The kernel takes its
data in named tuples, grouped by meaning (numba passes them like separate
arguments): :class:`Placements` (constant per-placement tables),
:class:`Covering` (the placements covering each square), :class:`BoardMasks`,
:class:`Rules` (scalars), :class:`Colours` (per-colour constants),
:class:`Slots` (the pieces on the board: set-up pieces, then one per
level), :class:`Stack` (the explicit DFS stack: one row per level) and
:class:`Shared` (counters and the solution buffer, shared with Python).
The stack lives in numpy arrays, so :meth:`FillKernel.run` can stop after a
node budget and resume.

Code layout: ``_kernel`` loops over two steps. It evaluates the node just
made (``_survives``: the pruning tests, filling in the node's stack row;
``_leaf_ok`` at a full board; ``_branch``: the branching square and its
options), then takes the next move (``_take_option``) or backtracks
(``_undo_shape``). The per-node helpers are inlined (``inline="always"``).
"""

from __future__ import annotations

import math
from typing import Callable, Iterator, NamedTuple

import numpy as np

from solver.core.geometry import mask_of
from solver.core.pieces import MONOMINO, PIECE_SIZES, PIECES
from solver.kernels.bitops import ONE, U63, U64, ZERO, ctz, popcount
from solver.kernels.jit import njit
from solver.puzzle.definition import Connect, Puzzle, SameShape
from solver.puzzle.symmetry import interchangeable_colors

MAX_SQUARES = 128
DEFAULT_K = 1


# The compiled functions run without numba's reference counting (the jit
# option ``_nrt=False``, private but what numba's own library code uses for
# the same purpose). They allocate nothing: every array belongs to the
# FillKernel that calls them. With counting on, each array passed to a
# helper costs two atomic operations per call unless numba can prove them
# redundant, which it cannot across branches; a named tuple passes all of
# its arrays, and the grouped kernel ran some 15x slower with counting on.
_JIT = dict(cache=True, _nrt=False)

# status codes of _kernel
BUDGET, DONE, BUFFER_FULL, STOPPED = 0, 1, 2, 3
# what evaluating a node gives (in _kernel)
PRUNED, DEAD_END, SOLUTION, BRANCHED = 0, 1, 2, 3
NO_LIMIT = 1 << 40  # an option count never reached
NO_SQUARE = 1 << 20  # the lowest empty square of a full board

# Shared.counters: what the kernel and the caller read and write between
# calls (a named tuple's scalar fields are read-only, so these live in one
# int64 array; the last two are limits the caller sets)
C_LEVEL, C_NODES, C_COUNT, C_STORED, C_STARTED, C_DONE, C_KEEP, C_STOP = range(8)


# -- the kernel's data ------------------------------------------------------------
class Placements(NamedTuple):
    """Constant tables, one row per placement the kernel may make (the
    listed pieces clear of fixed squares). Masks are (P, 2) uint64."""

    mask: np.ndarray  # its squares
    edge: np.ndarray  # squares sharing an edge with it (closed to its colour)
    corner: np.ndarray  # squares touching it at a corner only
    near: np.ndarray  # squares a same-shaped piece of another colour may not cover (0: rule off)
    piece: np.ndarray  # (P,) int64 piece index
    size: np.ndarray  # (P,) int64 piece size
    table_index: np.ndarray  # (P,) int64 index in puzzle.table (what solutions report)
    low: np.ndarray  # (P,) int64 its lowest square


class Covering(NamedTuple):
    """The placements covering square s: ``placement[offset[s]:offset[s + 1]]``,
    highest lowest square first (a scan stops at the first one reaching
    below the lowest empty square)."""

    offset: np.ndarray  # (N + 1,) int64
    placement: np.ndarray  # uint32 indices into Placements


class BoardMasks(NamedTuple):
    """The board rectangle: its width and constant masks ((2,) uint64 each)."""

    width: np.uint64  # a shift by one row
    full: np.ndarray  # every square of the rectangle
    not_left: np.ndarray  # all but the left column (may shift left)
    not_right: np.ndarray  # all but the right column (may shift right)
    open: np.ndarray  # squares the pieces must fill
    stars: np.ndarray  # squares that must be covered


class Rules(NamedTuple):
    """Scalar rule switches and sizes."""

    K: int  # the branching square: fewest options among the first K empty squares
    canonical: bool  # interchangeable colours, used in order of first appearance
    shapes: bool  # the same-shape rule is on
    lonely: bool  # pieces must touch their colour at a corner (touch, game)
    game: bool  # connect = game (one corner-connected group per colour)
    monomino_last: bool  # game with monomino-last: checked at the leaves
    n_setup: int  # slots taken by set-up pieces (level slots follow)
    never: bool  # no arrangement can pass the verifier


class Colors(NamedTuple):
    """Per-colour constants (index: colour 0-3)."""

    active: np.ndarray  # (k,) int64 the colours with pieces to place, in order
    rank: np.ndarray  # (4,) int64 index in ``active``, -1 if not there
    start: np.ndarray  # (4, 2) uint64 start squares
    has_start: np.ndarray  # (4,) bool in the puzzle and has start squares
    small: np.ndarray  # (4,) bool fewer than two pieces in all (never lonely under game)
    in_puzzle: np.ndarray  # (4,) bool
    n_setup: np.ndarray  # (4,) int64 set-up pieces


class Slots(NamedTuple):
    """The pieces on the board, one slot each: the set-up pieces of the
    puzzle's colours, then the piece placed at level l in slot n_setup + l."""

    color: np.ndarray  # (NS,) int64, -1 when free
    mask: np.ndarray  # (NS, 2) uint64
    corner: np.ndarray  # (NS, 2) uint64
    piece: np.ndarray  # (NS,) int64
    witness: np.ndarray  # (NS,) int64 a placement that last kept the piece from being lonely, -1
    in_group: np.ndarray  # (NS,) bool scratch space of _connected


class Stack(NamedTuple):
    """The explicit DFS stack: row l describes the board after l moves (and
    the options tried at level l). Masks are (2,) per row, (4, 2) per colour."""

    occupied: np.ndarray  # (LV, 2) every covered square
    forbidden: np.ndarray  # (LV, 4, 2) squares colour c may not cover
    own: np.ndarray  # (LV, 4, 2) squares covered by colour c
    left: np.ndarray  # (LV, 4) int64 bitmask of colour c's pieces left
    lonely: np.ndarray  # (LV, 2) uint64 bits over slots: pieces touching no piece of their colour
    used: np.ndarray  # (LV,) int64 colours used so far (canonical labelling)
    sizes: np.ndarray  # (LV, 6) int64 pieces left of each size
    opt_color: np.ndarray  # (LV, MAXOPT) int64 the options at level l ...
    opt_placement: np.ndarray  # (LV, MAXOPT) int64 ... (colour, placement)
    n_opts: np.ndarray  # (LV,) int64
    next_opt: np.ndarray  # (LV,) int64 the next option to try
    shape_block: np.ndarray  # (pieces, 2) uint64 squares piece i may not cover now (same-shape rule)
    shape_saved: np.ndarray  # (LV, 2) uint64 shape_block of the piece moved at level l, before the move


class Shared(NamedTuple):
    """What the kernel and its caller share between calls."""

    counters: np.ndarray  # (8,) int64, indexed by C_*
    solutions: np.ndarray  # (rows, pieces, 2) int32 (colour, table placement) per level


# -- bit helpers ------------------------------------------------------------------
@njit(**_JIT)
def _shl(lo, hi, n):
    """(lo, hi) << n for 0 < n < 128."""
    if n < U64:
        return lo << n, (hi << n) | (lo >> (U64 - n))
    return ZERO, lo << (n - U64)


@njit(**_JIT)
def _shr(lo, hi, n):
    """(lo, hi) >> n for 0 < n < 128."""
    if n < U64:
        return (lo >> n) | (hi << (U64 - n)), hi >> n
    return hi >> (n - U64), ZERO


@njit(**_JIT)
def _grow(lo, hi, board):
    """The set with its edge neighbours added (within the board rectangle)."""
    a0 = lo & board.not_right[0]
    a1 = hi & board.not_right[1]
    r0 = a0 << ONE
    r1 = (a1 << ONE) | (a0 >> U63)
    b0 = lo & board.not_left[0]
    b1 = hi & board.not_left[1]
    l0 = (b0 >> ONE) | (b1 << U63)
    l1 = b1 >> ONE
    d0, d1 = _shl(lo, hi, board.width)
    u0, u1 = _shr(lo, hi, board.width)
    return (lo | r0 | l0 | d0 | u0) & board.full[0], (hi | r1 | l1 | d1 | u1) & board.full[1]


@njit(**_JIT)
def _regions_ok(e0, e1, s0, s1, smallest, g, board):
    """Every edge-connected region of the empty set (e0, e1) that contains a
    seed square has at least ``smallest`` squares and a multiple of g."""
    s0 &= e0
    s1 &= e1
    while s0 | s1:
        if s0:
            r0 = s0 & (~s0 + ONE)
            r1 = ZERO
        else:
            r0 = ZERO
            r1 = s1 & (~s1 + ONE)
        while True:
            n0, n1 = _grow(r0, r1, board)
            n0 &= e0
            n1 &= e1
            if n0 == r0 and n1 == r1:
                break
            r0 = n0
            r1 = n1
        n = popcount(r0) + popcount(r1)
        if n < smallest or n % g != 0:
            return False
        s0 &= ~r0
        s1 &= ~r1
    return True


# -- rule checks: a placement fits, a colour's pieces connect, a full board ------
@njit(**_JIT)
def _fits(pl, r, st, leftc, f0, f1, shapes):
    """Placement r is valid for a colour with pieces ``leftc`` and forbidden
    squares f0/f1 (and the same-shape rule, when on)."""
    pb = pl.piece[r]
    if not (leftc >> pb) & 1:
        return False
    m0 = pl.mask[r, 0]
    m1 = pl.mask[r, 1]
    if (m0 & f0) | (m1 & f1):
        return False
    if shapes and (m0 & st.shape_block[pb, 0]) | (m1 & st.shape_block[pb, 1]):
        return False
    return True


@njit(**_JIT)
def _size_stats(sizes, lv):
    """Smallest size and gcd of the sizes of the pieces left at level lv
    (0, 0: none)."""
    smallest = 0
    g = 0
    for z in range(1, 6):
        if sizes[lv, z]:
            if smallest == 0:
                smallest = z
            a = g
            b = z
            while b:
                a, b = b, a % b
            g = a
    return smallest, g


@njit(**_JIT)
def _connected(col, skip, nslots, slots):
    """The pieces of colour col in slots [0, nslots) other than ``skip``
    form one group under corner contact (True when there are none)."""
    g0 = ZERO
    g1 = ZERO
    total = 0
    mine = slots.color
    ing = slots.in_group
    for j in range(nslots):
        ing[j] = False
        if mine[j] == col and j != skip:
            total += 1
    if total == 0:
        return True
    inside = 0
    for j in range(nslots):
        if mine[j] == col and j != skip:
            ing[j] = True
            g0 = slots.mask[j, 0]
            g1 = slots.mask[j, 1]
            inside = 1
            break
    changed = True
    while changed:
        changed = False
        for j in range(nslots):
            if mine[j] == col and j != skip and not ing[j]:
                if (slots.corner[j, 0] & g0) | (slots.corner[j, 1] & g1):
                    ing[j] = True
                    g0 |= slots.mask[j, 0]
                    g1 |= slots.mask[j, 1]
                    inside += 1
                    changed = True
    return inside == total


@njit(**_JIT)
def _monomino_last_ok(c, nslots, rules, colors, slots):
    """Colour c's pieces (game rule) can be played with the monomino last:
    the monomino is placed in the search, the others form one group and
    cover the start squares without it, and it touches them at a corner."""
    s0 = colors.start[c, 0]
    s1 = colors.start[c, 1]
    mono = -1
    mine = 0
    for j in range(rules.n_setup, nslots):
        if slots.color[j] == c:
            mine += 1
            if slots.piece[j] == MONOMINO:
                mono = j
    if mine == 0:
        return True
    if mono < 0:
        return False
    rest0 = ZERO
    rest1 = ZERO
    covers = False
    for j in range(nslots):
        if slots.color[j] == c and j != mono:
            rest0 |= slots.mask[j, 0]
            rest1 |= slots.mask[j, 1]
            if (slots.mask[j, 0] & s0) | (slots.mask[j, 1] & s1):
                covers = True
    if not (rest0 | rest1):
        return True
    if (s0 | s1) and colors.n_setup[c] == 0 and not covers:
        return False
    if not _connected(c, mono, nslots, slots):
        return False
    return bool((slots.corner[mono, 0] & rest0) | (slots.corner[mono, 1] & rest1))


@njit(**_JIT)
def _leaf_ok(lv, rules, board, colors, st, slots):
    """The rules the branching does not enforce, at a full board."""
    if rules.never:
        return False
    for c in range(4):
        if st.left[lv, c]:
            return False
    if (board.stars[0] & ~st.occupied[lv, 0]) | (board.stars[1] & ~st.occupied[lv, 1]):
        return False
    if rules.lonely and (st.lonely[lv, 0] | st.lonely[lv, 1]):
        return False
    nslots = rules.n_setup + lv
    for c in range(4):
        if not colors.in_puzzle[c]:
            continue
        o0 = st.own[lv, c, 0]
        o1 = st.own[lv, c, 1]
        if not (o0 | o1):
            continue
        s0 = colors.start[c, 0]
        s1 = colors.start[c, 1]
        if (s0 | s1) and not ((s0 & o0) | (s1 & o1)):
            return False
        if rules.game:
            if not _connected(c, -1, nslots, slots):
                return False
            if rules.monomino_last and not _monomino_last_ok(c, nslots, rules, colors, slots):
                return False
    return True


# -- one node: the move, the pruning tests, the branching -------------------------
@njit(inline="always", **_JIT)
def _pop_lowest(q0, q1):
    """The lowest square of a non-empty set and the set without it."""
    if q0:
        return ctz(q0), q0 & (q0 - ONE), q1
    return 64 + ctz(q1), q0, q1 & (q1 - ONE)


@njit(inline="always", **_JIT)
def _with_bit(b0, b1, j):
    """The set (b0, b1) with bit j added."""
    if j < 64:
        return b0 | (ONE << np.uint64(j)), b1
    return b0, b1 | (ONE << np.uint64(j - 64))


@njit(inline="always", **_JIT)
def _without_bit(b0, b1, j):
    """The set (b0, b1) without bit j."""
    if j < 64:
        return b0 & ~(ONE << np.uint64(j)), b1
    return b0, b1 & ~(ONE << np.uint64(j - 64))


@njit(inline="always", **_JIT)
def _take_option(L, pl, rules, slots, st):
    """Take level L's next option (c, p) and return it: colour c's
    placement p goes into slot n_setup + L, the same-shape rule closes its
    surroundings to its piece (the old value saved in shape_saved[L]), and
    it is lonely at level L + 1 until it proves otherwise. The rest of row
    L + 1 is filled in only once the lonely pieces survive the move."""
    i = st.next_opt[L]
    c = st.opt_color[L, i]
    p = st.opt_placement[L, i]
    st.next_opt[L] = i + 1
    pb = pl.piece[p]
    st.shape_saved[L, 0] = st.shape_block[pb, 0]
    st.shape_saved[L, 1] = st.shape_block[pb, 1]
    st.shape_block[pb, 0] |= pl.near[p, 0]
    st.shape_block[pb, 1] |= pl.near[p, 1]
    j = rules.n_setup + L
    slots.color[j] = c
    slots.mask[j, 0] = pl.mask[p, 0]
    slots.mask[j, 1] = pl.mask[p, 1]
    slots.corner[j, 0] = pl.corner[p, 0]
    slots.corner[j, 1] = pl.corner[p, 1]
    slots.piece[j] = pb
    slots.witness[j] = -1
    l0 = st.lonely[L, 0]
    l1 = st.lonely[L, 1]
    if rules.lonely:
        l0, l1 = _with_bit(l0, l1, j)
    st.lonely[L + 1, 0] = l0
    st.lonely[L + 1, 1] = l1
    return c, p


@njit(inline="always", **_JIT)
def _undo_shape(L, p, pl, st):
    """Reopen what _take_option closed to placement p's piece at level L."""
    pb = pl.piece[p]
    st.shape_block[pb, 0] = st.shape_saved[L, 0]
    st.shape_block[pb, 1] = st.shape_saved[L, 1]


@njit(inline="always", **_JIT)
def _color_after(src, col, c, p, pl, st):
    """Colour col's squares, pieces left and forbidden squares after colour
    c's placement p on row src (p = -1: none)."""
    o0 = st.own[src, col, 0]
    o1 = st.own[src, col, 1]
    left = st.left[src, col]
    f0 = st.forbidden[src, col, 0]
    f1 = st.forbidden[src, col, 1]
    if p >= 0:
        f0 |= pl.mask[p, 0]
        f1 |= pl.mask[p, 1]
        if col == c:
            o0 |= pl.mask[p, 0]
            o1 |= pl.mask[p, 1]
            f0 |= pl.edge[p, 0]
            f1 |= pl.edge[p, 1]
            left &= ~(1 << pl.piece[p])
    return o0, o1, left, f0, f1


@njit(inline="always", **_JIT)
def _corner_placement(j, left, f0, f1, s_low, pl, cover, board, rules, slots, st):
    """The piece in slot j can still get company: a placement of its colour
    (pieces ``left``, forbidden squares f0/f1) fits on one of its free
    corner squares. Tries the cached witness first, else scans the corner
    squares (placements reaching below s_low, the lowest empty square,
    cannot fit) and caches what it finds."""
    r = slots.witness[j]
    if r >= 0 and _fits(pl, r, st, left, f0, f1, rules.shapes):
        return True
    q0 = slots.corner[j, 0] & ~f0 & board.open[0]
    q1 = slots.corner[j, 1] & ~f1 & board.open[1]
    while q0 | q1:
        s, q0, q1 = _pop_lowest(q0, q1)
        for k in range(cover.offset[s], cover.offset[s + 1]):
            r = cover.placement[k]
            if pl.low[r] < s_low:
                break
            if _fits(pl, r, st, left, f0, f1, rules.shapes):
                slots.witness[j] = r
                return True
    return False


@njit(inline="always", **_JIT)
def _lonely_ok(lv, c, p, s_low, pl, cover, board, rules, colors, slots, st):
    """After colour c's placement p (p = -1: the root), every lonely piece
    (touching no piece of its colour at a corner) can still get company.
    Writes the pieces still lonely to st.lonely[lv] when all can."""
    src = lv - 1 if lv > 0 else 0
    l0 = st.lonely[lv, 0]
    l1 = st.lonely[lv, 1]
    b0 = l0
    b1 = l1
    while b0 | b1:
        j, b0, b1 = _pop_lowest(b0, b1)
        col = slots.color[j]
        o0, o1, left, f0, f1 = _color_after(src, col, c, p, pl, st)
        if (slots.corner[j, 0] & o0) | (slots.corner[j, 1] & o1) or (rules.game and colors.small[col]):
            l0, l1 = _without_bit(l0, l1, j)
        elif not _corner_placement(j, left, f0, f1, s_low, pl, cover, board, rules, slots, st):
            return False
    st.lonely[lv, 0] = l0
    st.lonely[lv, 1] = l1
    return True


@njit(inline="always", **_JIT)
def _fill_row(lv, c, p, pl, rules, colors, st):
    """Row lv of the stack := row lv - 1 plus colour c's placement p."""
    po = lv - 1
    m0 = pl.mask[p, 0]
    m1 = pl.mask[p, 1]
    st.occupied[lv, 0] = st.occupied[po, 0] | m0
    st.occupied[lv, 1] = st.occupied[po, 1] | m1
    for o in range(4):
        st.forbidden[lv, o, 0] = st.forbidden[po, o, 0] | m0
        st.forbidden[lv, o, 1] = st.forbidden[po, o, 1] | m1
        st.own[lv, o, 0] = st.own[po, o, 0]
        st.own[lv, o, 1] = st.own[po, o, 1]
        st.left[lv, o] = st.left[po, o]
    st.forbidden[lv, c, 0] |= pl.edge[p, 0]
    st.forbidden[lv, c, 1] |= pl.edge[p, 1]
    st.own[lv, c, 0] |= m0
    st.own[lv, c, 1] |= m1
    st.left[lv, c] &= ~(1 << pl.piece[p])
    for z in range(6):
        st.sizes[lv, z] = st.sizes[po, z]
    st.sizes[lv, pl.size[p]] -= 1
    st.used[lv] = st.used[po]
    if rules.canonical and colors.rank[c] == st.used[po]:
        st.used[lv] = st.used[po] + 1


@njit(inline="always", **_JIT)
def _uncoverable(lv, e0, e1, board, colors, st):
    """An empty square every colour with pieces left is forbidden to cover."""
    a0 = board.full[0]
    a1 = board.full[1]
    for a in range(len(colors.active)):
        c = colors.active[a]
        if st.left[lv, c]:
            a0 &= st.forbidden[lv, c, 0]
            a1 &= st.forbidden[lv, c, 1]
    return bool((e0 & a0) | (e1 & a1))


@njit(inline="always", **_JIT)
def _starts_ok(lv, e0, e1, colors, st):
    """Every colour with start squares covers one, or can still: one is
    empty and open to it while it has pieces left."""
    for c in range(4):
        if not colors.has_start[c]:
            continue
        s0 = colors.start[c, 0]
        s1 = colors.start[c, 1]
        if (s0 & st.own[lv, c, 0]) | (s1 & st.own[lv, c, 1]):
            continue
        if st.left[lv, c] == 0:
            if st.own[lv, c, 0] | st.own[lv, c, 1]:
                return False
        elif not ((s0 & e0 & ~st.forbidden[lv, c, 0]) | (s1 & e1 & ~st.forbidden[lv, c, 1])):
            return False
    return True


@njit(inline="always", **_JIT)
def _sizes_fit(lv, p, e0, e1, pl, board, st):
    """Every edge-connected empty region can take pieces left: at least the
    smallest size and a multiple of the gcd of the sizes. Only the regions
    next to placement p are checked, unless the smallest size or the gcd
    changed with it (or at the root, p = -1)."""
    if not (e0 | e1):
        return True
    smallest, g = _size_stats(st.sizes, lv)
    if smallest == 0:
        return False
    if smallest == 1 and g == 1:
        return True
    whole = p < 0
    if not whole:
        smallest_before, g_before = _size_stats(st.sizes, lv - 1)
        whole = smallest_before != smallest or g_before != g
    if whole:
        return _regions_ok(e0, e1, e0, e1, smallest, g, board)
    return _regions_ok(e0, e1, pl.edge[p, 0], pl.edge[p, 1], smallest, g, board)


@njit(inline="always", **_JIT)
def _options_at(s, lv, s_low, limit, store, pl, cover, rules, colors, st):
    """The options (colour, placement) covering square s at level lv: the
    placements clear of covered squares (and of the same-shape rule) that
    reach no lower than s_low, each for the colours allowed to place it
    (under canonical labelling, the colours used so far and the next one).
    Counts them, stopping once the count reaches ``limit``; with ``store``
    they become row lv's options."""
    nallow = len(colors.active)
    if rules.canonical:
        nallow = min(st.used[lv] + 1, nallow)
    o0 = st.occupied[lv, 0]
    o1 = st.occupied[lv, 1]
    n = 0
    for k in range(cover.offset[s], cover.offset[s + 1]):
        r = cover.placement[k]
        if pl.low[r] < s_low:
            break
        x0 = pl.mask[r, 0]
        x1 = pl.mask[r, 1]
        if (x0 & o0) | (x1 & o1):
            continue
        pb = pl.piece[r]
        if rules.shapes and (x0 & st.shape_block[pb, 0]) | (x1 & st.shape_block[pb, 1]):
            continue
        for a in range(nallow):
            c = colors.active[a]
            if (st.left[lv, c] >> pb) & 1 and not (
                    (x0 & st.forbidden[lv, c, 0]) | (x1 & st.forbidden[lv, c, 1])):
                if store:
                    st.opt_color[lv, n] = c
                    st.opt_placement[lv, n] = r
                n += 1
        if n >= limit:
            break
    return n


@njit(inline="always", **_JIT)
def _branch(lv, e0, e1, s_low, pl, cover, rules, colors, st):
    """List row lv's options: those of the square with the fewest among the
    first K empty squares (a square with at most one wins at once).
    Returns their number (0: a square nothing can cover)."""
    best = -1
    best_n = NO_LIMIT
    seen = 0
    q0 = e0
    q1 = e1
    while (q0 | q1) and seen < rules.K:
        s, q0, q1 = _pop_lowest(q0, q1)
        seen += 1
        n = _options_at(s, lv, s_low, best_n, False, pl, cover, rules, colors, st)
        if n < best_n:
            best_n = n
            best = s
            if n <= 1:
                break
    if best_n == 0:
        return 0
    st.n_opts[lv] = _options_at(best, lv, s_low, NO_LIMIT, True, pl, cover, rules, colors, st)
    st.next_opt[lv] = 0
    return st.n_opts[lv]


@njit(inline="always", **_JIT)
def _empty_after(lv, p, pl, board, st):
    """The empty squares after placement p at level lv (the root: p = -1)
    and the lowest of them (NO_SQUARE: none). Row lv is not filled in yet."""
    src = lv - 1 if lv > 0 else 0
    e0 = board.open[0] & ~st.occupied[src, 0]
    e1 = board.open[1] & ~st.occupied[src, 1]
    if p >= 0:
        e0 &= ~pl.mask[p, 0]
        e1 &= ~pl.mask[p, 1]
    s_low = _pop_lowest(e0, e1)[0] if e0 | e1 else NO_SQUARE
    return e0, e1, s_low


@njit(inline="always", **_JIT)
def _survives(lv, c, p, e0, e1, s_low, pl, cover, board, rules, colors, slots, st):
    """The node that colour c's placement p made at level lv passes the
    pruning tests; fills in its row of the stack once its lonely pieces
    survive (the root: lv = 0, p = -1)."""
    if rules.lonely and not _lonely_ok(lv, c, p, s_low, pl, cover, board, rules, colors, slots, st):
        return False
    if lv > 0:
        _fill_row(lv, c, p, pl, rules, colors, st)
    if _uncoverable(lv, e0, e1, board, colors, st) or not _starts_ok(lv, e0, e1, colors, st):
        return False
    return _sizes_fit(lv, p, e0, e1, pl, board, st)


@njit(inline="always", **_JIT)
def _store_solution(lv, row, pl, st, out):
    """Write the moves of levels 0..lv-1 (the options taken) to solution row ``row``."""
    for d in range(lv):
        i = st.next_opt[d] - 1
        out.solutions[row, d, 0] = st.opt_color[d, i]
        out.solutions[row, d, 1] = pl.table_index[st.opt_placement[d, i]]


# -- the search loop --------------------------------------------------------------
@njit(**_JIT)
def _kernel(pl, cover, board, rules, colors, slots, st, out, max_nodes):
    """The depth-first search: evaluate the node just made, then take the
    next option of the deepest level with options left (backtracking over
    exhausted levels), until the tree is done, ``max_nodes`` more nodes
    are searched, the solution buffer is full (that node is undone, to be
    redone once the caller grew the buffer) or enough solutions are found.
    Returns the status code; the counters carry the state to the next call."""
    ctl = out.counters
    if ctl[C_DONE]:
        return DONE
    L = ctl[C_LEVEL]  # the deepest level with options listed
    nodes = ctl[C_NODES]
    count = ctl[C_COUNT]
    stored = ctl[C_STORED]
    fresh = False  # a node made and not evaluated yet
    lv = 0
    c = -1  # the move that made it: colour c's placement p at level lv (the root: -1)
    p = -1
    if not ctl[C_STARTED]:
        ctl[C_STARTED] = 1
        nodes = 1
        L = 0
        fresh = True
    budget = nodes + max_nodes
    status = BUDGET
    while True:
        if fresh:
            # -- evaluate the node colour c's placement p made at level lv
            fresh = False
            e0, e1, s_low = _empty_after(lv, p, pl, board, st)
            if not _survives(lv, c, p, e0, e1, s_low, pl, cover, board, rules, colors, slots, st):
                outcome = PRUNED
            elif not (e0 | e1):
                outcome = SOLUTION if _leaf_ok(lv, rules, board, colors, st, slots) else DEAD_END
            elif _branch(lv, e0, e1, s_low, pl, cover, rules, colors, st) == 0:
                outcome = DEAD_END
            else:
                outcome = BRANCHED
            # -- count it, store a solution, then descend or undo the move
            if outcome != PRUNED and lv > 0:
                nodes += 1
            if outcome == SOLUTION:
                if stored < ctl[C_KEEP]:
                    if stored >= out.solutions.shape[0]:  # no room: undo the node, the caller grows the buffer
                        st.next_opt[L] -= 1
                        nodes -= 1
                        _undo_shape(L, p, pl, st)
                        status = BUFFER_FULL
                        break
                    _store_solution(lv, stored, pl, st, out)
                    stored += 1
                count += 1
            if outcome == BRANCHED:
                L = lv
            elif lv == 0:
                ctl[C_DONE] = 1
                status = DONE
                break
            else:
                _undo_shape(L, p, pl, st)
            if outcome == SOLUTION and 0 < ctl[C_STOP] <= count:
                status = STOPPED
                break
            continue
        # -- the next move: level L's next option, or back to level L - 1
        if st.next_opt[L] >= st.n_opts[L]:
            if L == 0:
                ctl[C_DONE] = 1
                status = DONE
                break
            L -= 1
            _undo_shape(L, st.opt_placement[L, st.next_opt[L] - 1], pl, st)
            continue
        if nodes >= budget:
            break
        c, p = _take_option(L, pl, rules, slots, st)
        lv = L + 1
        fresh = True
    ctl[C_LEVEL] = L
    ctl[C_NODES] = nodes
    ctl[C_COUNT] = count
    ctl[C_STORED] = stored
    return status


# -- Python side ------------------------------------------------------------------
def supported(puzzle: Puzzle) -> str | None:
    """None when the kernel can search the puzzle, else the reason."""
    if puzzle.goal not in ("place-all", "count"):
        return f"goal {puzzle.goal} (the kernel does place-all and count)"
    if puzzle.spare_squares != 0:
        return f"not a fill puzzle ({puzzle.spare_squares} spare squares)"
    if not puzzle.board.geometry.shifts:
        return f"a {puzzle.board.grid} grid (the kernel's region tests shift squares)"
    if puzzle.board.size > MAX_SQUARES:
        return f"board of {puzzle.board.size} squares (the kernel takes up to {MAX_SQUARES})"
    if puzzle.connect not in ("touch", "free", "game"):
        return f"connect rule {puzzle.connect}"
    slots = sum(len(ps) for c, ps in puzzle.setup.items() if c in puzzle.colors)
    slots += sum(len(puzzle.pieces[c]) for c in puzzle.colors)
    if slots > MAX_SQUARES:
        return "too many pieces"
    return None


def _words(mask: int) -> tuple[int, int]:
    """A mask as its two 64-bit words (low, high)."""
    return mask & 0xFFFFFFFFFFFFFFFF, mask >> 64


def _pair(mask: int) -> np.ndarray:
    """A mask as the kernel's (2,) uint64 array."""
    return np.array(_words(mask), np.uint64)


def _setup_conflict(puzzle: Puzzle) -> bool:
    """The set-up pieces break a rule among themselves (overlap, same-colour
    edge contact, the same-shape rule), so nothing passes the verifier.
    (Exhaustive takes the set-up as given; this only matters for hand-made
    or generated puzzles with an inconsistent set-up.)"""
    t = puzzle.table
    given = [(c, p) for c, ps in puzzle.setup.items() for p in ps]
    for i, (c, p) in enumerate(given):
        for d, q in given[i + 1:]:
            if t.mask[p] & t.mask[q]:
                return True
            if c == d and t.mask[p] & t.edge[q]:
                return True
            if c != d and t.piece[p] == t.piece[q] and puzzle.same_shape is not SameShape.NONE:
                near = t.edge[q] | (t.corner[q] if puzzle.same_shape is SameShape.CORNER else 0)
                if t.mask[p] & near:
                    return True
    return False


def _never(puzzle: Puzzle) -> bool:
    """No arrangement can pass the verifier: an inconsistent set-up, or
    monomino-last (outside the game rule, where it only asks that the
    monomino be there) for a colour without a monomino to place."""
    if _setup_conflict(puzzle):
        return True
    if puzzle.monomino_last and puzzle.connect is not Connect.GAME:
        return any(puzzle.pieces[c] and MONOMINO not in puzzle.pieces[c] for c in puzzle.colors)
    return False


def _near(puzzle: Puzzle, p: int) -> int:
    """The squares a same-shaped piece of another colour may not cover
    next to placement p (0 when the same-shape rule is off)."""
    if puzzle.same_shape is SameShape.NONE:
        return 0
    t = puzzle.table
    return t.mask[p] | t.edge[p] | (t.corner[p] if puzzle.same_shape is SameShape.CORNER else 0)


class _Start(NamedTuple):
    """The board before the first move, as plain int masks."""

    own: list[int]  # per colour: squares of its set-up pieces
    taken: int  # squares covered by set-up pieces
    base: int  # squares no piece may cover (blocked, must stay empty, set-up)
    forbidden: list[int]  # per colour: squares it may not cover
    shape_block: list[int]  # per piece: squares the same-shape rule closes to it


def _start(puzzle: Puzzle, act: list[int]) -> _Start:
    """Fixed squares and the per-colour forbidden squares of the start: a
    colour may not cover fixed squares, squares next to its set-up pieces,
    nor the single start square of another colour that has none."""
    t, b = puzzle.table, puzzle.board
    own = [mask_of(s for p in puzzle.setup_of(c) for s in t.squares[p]) for c in range(4)]
    taken = own[0] | own[1] | own[2] | own[3]
    base = b.blocked_mask | mask_of(puzzle.empty) | taken
    forbidden = [base | b.edge_neighbours(own[c]) for c in range(4)]
    for c in act:
        starts = b.starts[c]
        if len(starts) == 1 and not puzzle.setup_of(c):
            for o in range(4):
                if o != c:
                    forbidden[o] |= mask_of(starts)
    shape_block = [0] * len(PIECES)
    for c in range(4):
        for p in puzzle.setup_of(c):
            shape_block[t.piece[p]] |= _near(puzzle, p)
    return _Start(own, taken, base, forbidden, shape_block)


def _placements(puzzle: Puzzle, act: list[int], base: int) -> tuple[Placements, Covering, int]:
    """The placement tables (the listed pieces clear of fixed squares), the
    covering lists and the longest of them."""
    t, N = puzzle.table, puzzle.board.size
    listed = set().union(*(puzzle.pieces[c] for c in act)) if act else set()
    kp = [p for p in range(len(t)) if t.piece[p] in listed and not t.mask[p] & base]
    P = max(1, len(kp))
    pl = Placements(*(np.zeros((P, 2), np.uint64) for _ in range(4)),
                    *(np.zeros(P, np.int64) for _ in range(3)),
                    np.array([min(t.squares[p]) for p in kp] or [0], np.int64))
    covering: list[list[int]] = [[] for _ in range(N)]
    for i, p in enumerate(kp):
        pl.mask[i] = _words(t.mask[p])
        pl.edge[i] = _words(t.edge[p])
        pl.corner[i] = _words(t.corner[p])
        pl.near[i] = _words(_near(puzzle, p))
        pl.piece[i] = t.piece[p]
        pl.size[i] = PIECE_SIZES[t.piece[p]]
        pl.table_index[i] = p
        for s in t.squares[p]:
            covering[s].append(i)
    # highest lowest square first: a scan stops at the first placement
    # reaching below the lowest empty square
    for lst in covering:
        lst.sort(key=lambda i: -pl.low[i])
    offset = np.zeros(N + 1, np.int64)
    for s in range(N):
        offset[s + 1] = offset[s] + len(covering[s])
    cover = Covering(offset, np.array([i for lst in covering for i in lst] or [0], np.uint32))
    return pl, cover, max((len(lst) for lst in covering), default=0)


def _board_masks(puzzle: Puzzle) -> BoardMasks:
    """The board rectangle's masks (the left and right columns: for shifts)."""
    b = puzzle.board
    W, full = b.width, b.full_mask
    col0 = sum(1 << (r * W) for r in range(b.height))
    colw = sum(1 << (r * W + W - 1) for r in range(b.height))
    return BoardMasks(np.uint64(W), _pair(full), _pair(full & ~col0), _pair(full & ~colw),
                      _pair(b.open_mask & ~mask_of(puzzle.empty)), _pair(mask_of(puzzle.stars)))


def _colors(puzzle: Puzzle, act: list[int]) -> Colors:
    """The per-colour constants; ``act``: the colours with pieces to place."""
    b = puzzle.board
    rank = np.full(4, -1, np.int64)
    for i, c in enumerate(act):
        rank[c] = i
    pieces = [len(puzzle.pieces.get(c, ())) + len(puzzle.setup_of(c)) for c in range(4)]
    return Colors(
        active=np.array(act, np.int64),
        rank=rank,
        start=np.array([_words(b.start_masks[c]) for c in range(4)], np.uint64),
        has_start=np.array([c in puzzle.colors and bool(b.starts[c]) for c in range(4)]),
        small=np.array([pieces[c] < 2 for c in range(4)]),
        in_puzzle=np.array([c in puzzle.colors for c in range(4)]),
        n_setup=np.array([len(puzzle.setup_of(c)) for c in range(4)], np.int64))


def _slots(puzzle: Puzzle, own: list[int], D: int) -> tuple[Slots, int]:
    """The slots with the set-up pieces of the puzzle's colours filled in,
    and the lonely ones among them (bits over slots; touch rule only)."""
    t = puzzle.table
    setup_slots = [(c, p) for c in puzzle.colors for p in puzzle.setup_of(c)]
    NS = len(setup_slots) + D + 1
    slots = Slots(np.full(NS, -1, np.int64), np.zeros((NS, 2), np.uint64), np.zeros((NS, 2), np.uint64),
                  np.zeros(NS, np.int64), np.full(NS, -1, np.int64), np.zeros(NS, np.bool_))
    lonely = 0
    for j, (c, p) in enumerate(setup_slots):
        slots.color[j] = c
        slots.mask[j] = _words(t.mask[p])
        slots.corner[j] = _words(t.corner[p])
        slots.piece[j] = t.piece[p]
        if puzzle.connect is Connect.TOUCH and not t.corner[p] & own[c]:
            lonely |= 1 << j
    return slots, lonely


def _stack(puzzle: Puzzle, act: list[int], start: _Start, lonely: int, maxcov: int, D: int) -> Stack:
    """The DFS stack (D + 1 levels) with level 0 filled in."""
    LV = D + 1
    maxopt = max(1, maxcov * max(1, len(act)))
    st = Stack(
        occupied=np.zeros((LV, 2), np.uint64), forbidden=np.zeros((LV, 4, 2), np.uint64),
        own=np.zeros((LV, 4, 2), np.uint64), left=np.zeros((LV, 4), np.int64),
        lonely=np.zeros((LV, 2), np.uint64), used=np.zeros(LV, np.int64), sizes=np.zeros((LV, 6), np.int64),
        opt_color=np.zeros((LV, maxopt), np.int64), opt_placement=np.zeros((LV, maxopt), np.int64),
        n_opts=np.zeros(LV, np.int64), next_opt=np.zeros(LV, np.int64),
        shape_block=np.array([_words(m) for m in start.shape_block], np.uint64),
        shape_saved=np.zeros((LV, 2), np.uint64))
    full = puzzle.board.full_mask
    st.occupied[0] = _words(start.taken)
    for c in range(4):
        st.forbidden[0, c] = _words(start.forbidden[c] & full)
        st.own[0, c] = _words(start.own[c])
        if c in puzzle.colors:
            st.left[0, c] = mask_of(puzzle.pieces[c])
    st.lonely[0] = _words(lonely)
    for c in act:
        for i in puzzle.pieces[c]:
            st.sizes[0, PIECE_SIZES[i]] += 1
    return st


class FillKernel:
    """Resumable exhaustive search of a fill puzzle (see the module doc).

    ``run(max_nodes)`` searches at most that many more nodes and returns
    True when the whole tree is done (``stopped``: it returned because
    ``stop_after`` more solutions were found). ``count`` is the number of solutions
    found (canonical ones when ``canonical``: multiply by ``multiplier``),
    ``solutions`` the first ``keep`` of them (all by default) as lists of
    (colour, placement index). ``stop_after`` stops after that many
    solutions (place-all: 1); ``run`` may then be called again to go on.
    """

    def __init__(self, puzzle: Puzzle, symmetry: bool = True, K: int = DEFAULT_K,
                 keep: int | None = None, stop_after: int | None = None):
        reason = supported(puzzle)
        if reason:
            raise ValueError(f"{puzzle.name}: the fill kernel cannot search it: {reason}")
        self.puzzle = puzzle
        self.act = act = [c for c in puzzle.colors if puzzle.pieces[c]]
        self.canonical = bool(symmetry and interchangeable_colors(puzzle))
        self.multiplier = math.factorial(len(act)) if self.canonical else 1
        self.K = K = max(1, K)
        self.D = D = sum(len(puzzle.pieces[c]) for c in act)
        start = _start(puzzle, act)
        self.placements, self.cover, maxcov = _placements(puzzle, act, start.base)
        self.board_masks = _board_masks(puzzle)
        self.colors = _colors(puzzle, act)
        self.slots, lonely = _slots(puzzle, start.own, D)
        self.stack = _stack(puzzle, act, start, lonely, maxcov, D)
        never = _never(puzzle)
        self.rules = Rules(
            K=K, canonical=self.canonical, shapes=puzzle.same_shape is not SameShape.NONE,
            lonely=puzzle.connect in (Connect.TOUCH, Connect.GAME), game=puzzle.connect is Connect.GAME,
            monomino_last=bool(puzzle.monomino_last and puzzle.connect is Connect.GAME),
            n_setup=sum(len(puzzle.setup_of(c)) for c in puzzle.colors), never=never)
        self.ctl = np.zeros(8, np.int64)
        self.set_keep(keep)
        self._stop_step = stop_after or 0
        self.ctl[C_STOP] = self._stop_step
        self.solbuf = np.zeros((min(1024, self._keep), max(D, 1), 2), np.int32)
        self._solutions: list[list[tuple[int, int]]] = []
        self.stopped = False
        if never:  # nothing to search
            self.ctl[C_STARTED] = self.ctl[C_DONE] = self.ctl[C_NODES] = 1

    def set_keep(self, keep: int | None) -> None:
        """Store the first ``keep`` solutions (None: all)."""
        self._keep = (1 << 62) if keep is None else keep
        self.ctl[C_KEEP] = self._keep

    # -- results -----------------------------------------------------------
    @property
    def nodes(self) -> int:
        """Nodes searched so far (the root included)."""
        return int(self.ctl[C_NODES])

    @property
    def count(self) -> int:
        """Solutions found so far (canonical ones only, when ``canonical``)."""
        return int(self.ctl[C_COUNT])

    @property
    def total(self) -> int:
        """Solutions found so far, relabelled ones included."""
        return self.count * self.multiplier

    @property
    def done(self) -> bool:
        """The whole tree is searched."""
        return bool(self.ctl[C_DONE])

    @property
    def stored(self) -> int:
        """Solutions stored (the first ``keep`` found)."""
        return int(self.ctl[C_STORED])

    @property
    def solutions(self) -> list[list[tuple[int, int]]]:
        """The stored solutions as lists of (colour, placement index)."""
        n = self.stored
        if len(self._solutions) < n:
            arr = self.solbuf[len(self._solutions): n, : self.D]
            self._solutions.extend([(int(c), int(p)) for c, p in row] for row in arr.tolist())
        return self._solutions

    # -- search ------------------------------------------------------------
    def run(self, max_nodes: int = 1 << 60) -> bool:
        """Search up to max_nodes more nodes; True when the tree is done.
        Returns early (False) also when ``stop_after`` solutions are found."""
        while True:
            status = _kernel(self.placements, self.cover, self.board_masks, self.rules, self.colors,
                             self.slots, self.stack, Shared(self.ctl, self.solbuf), np.int64(max_nodes))
            if status == BUFFER_FULL:
                rows = min(self._keep, max(16, 2 * len(self.solbuf)))
                grown = np.zeros((rows,) + self.solbuf.shape[1:], np.int32)
                grown[: len(self.solbuf)] = self.solbuf
                self.solbuf = grown
                continue
            self.stopped = status == STOPPED
            if self.stopped:
                self.ctl[C_STOP] = self.count + self._stop_step
            return status == DONE

    def run_for(self, seconds: float | None = None, step: int = 2_000_000,
                progress: Callable[[FillKernel], None] | None = None) -> bool:
        """Run in slices of ``step`` nodes until done, ``stop_after`` or the
        time is up (True when the tree is done); ``progress(self)`` is called
        after each slice."""
        import time

        deadline = None if seconds is None else time.monotonic() + seconds
        while True:
            if self.run(step):
                return True
            if progress is not None:
                progress(self)
            if self.stopped:
                return False
            if deadline is not None and time.monotonic() >= deadline:
                return False


class KernelSearch:
    """The kernel behind the interface of :class:`~.exhaustive.Exhaustive`
    that the driver schedules: ``solutions()`` yields each new solution and
    ``None`` after every slice of ``SLICE`` nodes (about 0.05 s)."""

    name = "fill kernel"
    SLICE = 100_000

    def __init__(self, puzzle: Puzzle, stop_after: int | None = None):
        self.kernel = FillKernel(puzzle, stop_after=stop_after)
        self.multiplier = self.kernel.multiplier

    @property
    def nodes(self) -> int:
        return self.kernel.nodes

    def solutions(self) -> Iterator[list[tuple[int, int]] | None]:
        k, seen = self.kernel, 0
        while True:
            done = k.run(self.SLICE)
            found = k.solutions
            yield from found[seen:]
            seen = len(found)
            if done:
                return
            yield None
