"""Bit helpers for numba kernels over multi-word square masks.

A mask of a board with N squares is a row of ``uint64`` words (square s is
bit ``s % 64`` of word ``s // 64``), padded with spare zero words at the end
so that a fixed-width window of words starting at any square's word stays
inside the row. These helpers work on one such row, given as a 2-D array and
a row index (slicing would cost a view per call in the hot loops).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from solver.kernels.jit import njit

ZERO = np.uint64(0)
ONE = np.uint64(1)
U63 = np.uint64(63)
U64 = np.uint64(64)


@intrinsic
def popcount(typingctx, x):
    """Set bits of a uint64 (one machine instruction)."""
    if x != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.ctpop.i64")
        return builder.call(fn, [args[0]])

    return types.int64(types.uint64), codegen


@intrinsic
def ctz(typingctx, x):
    """Index of the lowest set bit of a non-zero uint64."""
    if x != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(1)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.cttz.i64")
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])

    return types.int64(types.uint64), codegen


@njit(cache=True, _nrt=False)
def count(a, i, nw):
    """Squares in row i of a (its first nw words)."""
    n = 0
    for w in range(nw):
        n += popcount(a[i, w])
    return n


@njit(cache=True, _nrt=False)
def _sideways(r, ri, w, notl, notr, nw):
    """Row r[ri]'s word w moved one column left and right (not kept itself)."""
    x = r[ri, w]
    out = ((x & notr[w]) << ONE) | ((x & notl[w]) >> ONE)
    if w > 0:
        out |= (r[ri, w - 1] & notr[w - 1]) >> U63
    if w + 1 < nw:
        out |= (r[ri, w + 1] & notl[w + 1]) << U63
    return out


@njit(cache=True, _nrt=False)
def _vertical(r, ri, w, width, nw):
    """Row r[ri]'s word w moved one row up and down (not kept itself)."""
    sw = np.uint64(width)
    x = r[ri, w]
    out = (x << sw) | (x >> sw)
    if w > 0:
        out |= r[ri, w - 1] >> (U64 - sw)
    if w + 1 < nw:
        out |= r[ri, w + 1] << (U64 - sw)
    return out


@njit(cache=True, _nrt=False)
def king_fill(r, ri, t, ti, within, wi, notl, notr, width, nw, steps):
    """Grow row r[ri] (the seed, assumed inside within[wi]) by up to
    ``steps`` king steps inside within[wi], in place; t[ti] is scratch.
    ``notl``/``notr``: the board minus its left/right column (1-D rows);
    ``width`` < 64 is the board width (one row down is a shift by it)."""
    for _ in range(steps):
        for w in range(nw):  # sideways: x | x << 1 | x >> 1, within the rows
            t[ti, w] = r[ri, w] | _sideways(r, ri, w, notl, notr, nw)
        grew = False
        for w in range(nw):  # then one row up and down
            x = (t[ti, w] | _vertical(t, ti, w, width, nw)) & within[wi, w]
            if x != r[ri, w]:
                grew = True
                r[ri, w] = x
        if not grew:
            break


@njit(cache=True, _nrt=False)
def diagonal_step(r, ri, t, ti, out, oi, notl, notr, width, nw):
    """out[oi] = the squares touching row r[ri] at a corner (diagonal
    neighbours, whether or not they are in it); t[ti] is scratch."""
    for w in range(nw):
        t[ti, w] = _sideways(r, ri, w, notl, notr, nw)
    for w in range(nw):
        out[oi, w] = _vertical(t, ti, w, width, nw)
