"""Where one colour can still play, for the compiled game tree
(:mod:`solver.endgame.treekernel`): where a piece fits inside a region, and
the reach by chains of placements (:func:`piece_reach`): the squares of the
placements inside a colour's reach by king steps that cover one of its
attach squares, then of those covering a corner of one of them, and so on,
a link per piece in hand. Every future piece of the colour is such a link.
"""

from __future__ import annotations

import numpy as np

from solver.kernels.bitops import ONE, ctz, diagonal_step, popcount
from solver.kernels.jit import njit
from solver.kernels.tables import N_PIECES


@njit(cache=True, _nrt=False)
def find_fit(tb, sc, o, k):
    """A placement of piece k inside row sc[o] (a region), -1 if none: the
    covering lists of each square of the row, with the neighbours outside
    the row closed."""
    for w in range(tb.n_words):
        a = sc[o, w]
        while a:
            s = w * 64 + ctz(a)
            a &= a - ONE
            i = (s * N_PIECES + k) * 16 + _closed(tb, sc, o, s)
            for j in range(tb.cover_start[i], tb.cover_start[i + 1]):
                if _inside(tb, sc, o, j):
                    return tb.cover[j]
    return -1


@njit(cache=True, _nrt=False)
def _closed(tb, sc, r, s):
    """Which edge neighbours of square s lie outside row sc[r] (4 bits, the
    pattern of the covering lists)."""
    f = 0
    for i in range(4):
        n = tb.neighbour[s, i]
        if n >= 0 and not _in(sc[r], n):
            f |= 1 << i
    return f


@njit(cache=True, _nrt=False)
def _inside(tb, sc, r, j):
    """Whether the placement of covering-list entry j lies inside row sc[r]."""
    x = tb.cover_word[j]
    return not ((tb.cover_mask[j, 0] & ~sc[r, x]) | (tb.cover_mask[j, 1] & ~sc[r, x + 1])
                | (tb.cover_mask[j, 2] & ~sc[r, x + 2]))


@njit(cache=True, _nrt=False)
def _in(region, s):
    return (region[s >> 6] >> np.uint64(s & 63)) & ONE


@njit(cache=True, _nrt=False)
def piece_reach(tb, sc, o, hand, spare, within, seed, new, done, work):
    """Shrink row sc[o] (a colour's reach by king steps) to the squares of
    chains of its pieces: the placements (of any piece in hand) inside the
    reach that cover one of the attach squares in row sc[seed], then those
    that cover a square touching one of them at a corner, and so on, a
    link per piece in hand. Every future piece of the colour is such a
    link (it covers an attach square of now or a corner of an earlier
    piece, and lies inside the reach), so the result is a reach too, often
    much smaller where the free squares are split into narrow pockets.
    Rows ``within``, ``new``, ``done`` and ``work`` of sc are work rows."""
    nw = tb.n_words
    for w in range(nw):
        sc[within, w] = sc[o, w]
        sc[seed, w] &= sc[o, w]
        sc[done, w] = 0
        sc[o, w] = 0
    pieces = hand | spare
    links = popcount(np.uint64(hand)) + popcount(np.uint64(spare))
    for r in range(links):
        _links(tb, sc, pieces, within, seed, new, done)
        grew = False
        full = True
        for w in range(nw):
            fresh = sc[new, w] & ~sc[o, w]
            sc[o, w] |= fresh
            sc[new, w] = fresh
            if fresh:
                grew = True
            if sc[o, w] != sc[within, w]:
                full = False
        if not grew or full or r == links - 1:
            break
        # the next seeds: corners of the squares just added, not seeds before
        diagonal_step(sc, new, sc, work, sc, seed, tb.not_left, tb.not_right, tb.width, nw)
        for w in range(nw):
            sc[seed, w] &= sc[within, w] & ~sc[done, w]


@njit(cache=True, _nrt=False)
def _links(tb, sc, pieces, within, seed, new, done):
    """Row sc[new] = the squares of the placements of ``pieces`` inside
    row sc[within] covering a square of row sc[seed] (then counted done)."""
    nw = tb.n_words
    for w in range(nw):
        sc[new, w] = 0
    for w in range(nw):
        a = sc[seed, w]
        sc[done, w] |= a
        while a:
            s = w * 64 + ctz(a)
            a &= a - ONE
            f = _closed(tb, sc, within, s)
            h = pieces
            while h:
                k = ctz(np.uint64(h))
                h &= h - 1
                i = (s * N_PIECES + k) * 16 + f
                for j in range(tb.cover_start[i], tb.cover_start[i + 1]):
                    if _inside(tb, sc, within, j):
                        x = tb.cover_word[j]
                        sc[new, x] |= tb.cover_mask[j, 0]
                        sc[new, x + 1] |= tb.cover_mask[j, 1]
                        sc[new, x + 2] |= tb.cover_mask[j, 2]
