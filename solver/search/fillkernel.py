"""A compiled (numba) kernel for fill puzzles: the ``square`` mode of
:class:`~solver.search.exhaustive.Exhaustive`, some 50-60x faster per node
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

Data layout: masks are two uint64 words (boards up to 128 squares); per
placement its square, edge, corner and same-shape masks; per square the
placements covering it (flat array plus offsets); per search level the
occupied mask, per colour forbidden masks (occupied, blocked, must-stay
empty, edge contact with the colour, other colours' owned start squares),
per colour occupied masks and a bitmask of pieces left, the lonely pieces
(bits over "slots": set-up pieces, then one slot per level), and the
option list of the level. The explicit DFS stack lives in numpy arrays, so
:meth:`FillKernel.run` can stop after a node budget and resume.
"""

from __future__ import annotations

import math
from typing import Iterator

import numpy as np
from llvmlite import ir
from numba import njit
from numba.core import cgutils, types
from numba.extending import intrinsic

from ..geometry import mask_of
from ..pieces import MONOMINO, PIECE_SIZES, PIECES
from ..puzzle import Puzzle
from ..symmetry import interchangeable_colours

MAX_SQUARES = 128
DEFAULT_K = 1

ZERO = np.uint64(0)
ONE = np.uint64(1)
U63 = np.uint64(63)
U64 = np.uint64(64)

# status codes of _kernel
BUDGET, DONE, BUFFER_FULL, STOPPED = 0, 1, 2, 3

# ip (int parameters)
IP_W, IP_N, IP_K, IP_CANON, IP_SHAPES, IP_LONELY, IP_GAME, IP_MONO, IP_NACT, IP_S, IP_D, IP_KEEP, IP_STOP, IP_NEVER = range(14)
# ctl (mutable counters)
C_L, C_NODES, C_COUNT, C_NSOL, C_STARTED, C_DONE = range(6)
# bm rows (board masks)
B_FULL, B_NOTL, B_NOTR, B_OPEN, B_STARS = range(5)
# colinfo columns
CI_START, CI_SMALL, CI_IN, CI_SETUP = range(4)


# -- bit helpers ------------------------------------------------------------------
@intrinsic
def _popcount(typingctx, x):
    if x != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.ctpop.i64")
        return builder.call(fn, [args[0]])

    return types.int64(types.uint64), codegen


@intrinsic
def _ctz(typingctx, x):
    if x != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(1)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.cttz.i64")
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])

    return types.int64(types.uint64), codegen


@njit(cache=True)
def _shl(lo, hi, n):
    """(lo, hi) << n for 0 < n < 128."""
    if n < U64:
        return lo << n, (hi << n) | (lo >> (U64 - n))
    return ZERO, lo << (n - U64)


@njit(cache=True)
def _shr(lo, hi, n):
    """(lo, hi) >> n for 0 < n < 128."""
    if n < U64:
        return (lo >> n) | (hi << (U64 - n)), hi >> n
    return hi >> (n - U64), ZERO


@njit(cache=True)
def _grow(lo, hi, w, full0, full1, notl0, notl1, notr0, notr1):
    """The set with its edge neighbours added (within the board rectangle)."""
    a0 = lo & notr0
    a1 = hi & notr1
    r0 = a0 << ONE
    r1 = (a1 << ONE) | (a0 >> U63)
    b0 = lo & notl0
    b1 = hi & notl1
    l0 = (b0 >> ONE) | (b1 << U63)
    l1 = b1 >> ONE
    d0, d1 = _shl(lo, hi, w)
    u0, u1 = _shr(lo, hi, w)
    return (lo | r0 | l0 | d0 | u0) & full0, (hi | r1 | l1 | d1 | u1) & full1


@njit(cache=True)
def _regions_ok(e0, e1, s0, s1, smallest, g, w, full0, full1, notl0, notl1, notr0, notr1):
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
            n0, n1 = _grow(r0, r1, w, full0, full1, notl0, notl1, notr0, notr1)
            n0 &= e0
            n1 &= e1
            if n0 == r0 and n1 == r1:
                break
            r0 = n0
            r1 = n1
        n = _popcount(r0) + _popcount(r1)
        if n < smallest or n % g != 0:
            return False
        s0 &= ~r0
        s1 &= ~r1
    return True


@njit(cache=True)
def _fits(m0, m1, pb, leftc, f0, f1, sb0, sb1, shapes):
    """A placement (squares m0/m1, piece pb) is valid for a colour with
    pieces ``leftc`` and forbidden squares f0/f1 (sb0/sb1: the squares its
    shape may not cover)."""
    if not (leftc >> pb) & 1:
        return False
    if (m0 & f0) | (m1 & f1):
        return False
    if shapes and (m0 & sb0) | (m1 & sb1):
        return False
    return True


@njit(cache=True)
def _size_stats(n1, n2, n3, n4, n5):
    """Smallest size and gcd of the sizes of the pieces left (0, 0: none)."""
    smallest = 0
    g = 0
    for z in range(1, 6):
        k = n1 if z == 1 else n2 if z == 2 else n3 if z == 3 else n4 if z == 4 else n5
        if k:
            if smallest == 0:
                smallest = z
            a = g
            b = z
            while b:
                a, b = b, a % b
            g = a
    return smallest, g


@njit(cache=True)
def _connected(col, skip, nslots, slot_col, slot_mask, slot_corner, ing):
    """The pieces of colour col in slots [0, nslots) other than ``skip``
    form one group under corner contact (True when there are none)."""
    g0 = ZERO
    g1 = ZERO
    total = 0
    for j in range(nslots):
        ing[j] = False
        if slot_col[j] == col and j != skip:
            total += 1
    if total == 0:
        return True
    inside = 0
    for j in range(nslots):
        if slot_col[j] == col and j != skip:
            ing[j] = True
            g0 = slot_mask[j, 0]
            g1 = slot_mask[j, 1]
            inside = 1
            break
    changed = True
    while changed:
        changed = False
        for j in range(nslots):
            if slot_col[j] == col and j != skip and not ing[j]:
                if (slot_corner[j, 0] & g0) | (slot_corner[j, 1] & g1):
                    ing[j] = True
                    g0 |= slot_mask[j, 0]
                    g1 |= slot_mask[j, 1]
                    inside += 1
                    changed = True
    return inside == total


@njit(cache=True)
def _leaf_ok(lvl, ip, bm, startm, colinfo, left, occ, occc, lonely, slot_col, slot_mask,
             slot_corner, slot_piece, ing):
    """The rules the branching does not enforce, at a full board."""
    if ip[IP_NEVER]:
        return False
    for c in range(4):
        if left[lvl, c]:
            return False
    if (bm[B_STARS, 0] & ~occ[lvl, 0]) | (bm[B_STARS, 1] & ~occ[lvl, 1]):
        return False
    if ip[IP_LONELY] and (lonely[lvl, 0] | lonely[lvl, 1]):
        return False
    nslots = ip[IP_S] + lvl
    for c in range(4):
        if not colinfo[c, CI_IN]:
            continue
        o0 = occc[lvl, c, 0]
        o1 = occc[lvl, c, 1]
        if not (o0 | o1):
            continue
        s0 = startm[c, 0]
        s1 = startm[c, 1]
        if (s0 | s1) and not ((s0 & o0) | (s1 & o1)):
            return False
        if ip[IP_GAME]:
            if not _connected(c, -1, nslots, slot_col, slot_mask, slot_corner, ing):
                return False
            if ip[IP_MONO]:
                mono = -1
                mine = 0
                for j in range(ip[IP_S], nslots):
                    if slot_col[j] == c:
                        mine += 1
                        if slot_piece[j] == MONOMINO:
                            mono = j
                if mine == 0:
                    continue
                if mono < 0:
                    return False
                rest0 = ZERO
                rest1 = ZERO
                covers = False
                for j in range(nslots):
                    if slot_col[j] == c and j != mono:
                        rest0 |= slot_mask[j, 0]
                        rest1 |= slot_mask[j, 1]
                        if (slot_mask[j, 0] & s0) | (slot_mask[j, 1] & s1):
                            covers = True
                if not (rest0 | rest1):
                    continue
                if (s0 | s1) and colinfo[c, CI_SETUP] == 0 and not covers:
                    return False
                if not _connected(c, mono, nslots, slot_col, slot_mask, slot_corner, ing):
                    return False
                if not ((slot_corner[mono, 0] & rest0) | (slot_corner[mono, 1] & rest1)):
                    return False
    return True


@njit(cache=True)
def _kernel(ip, bm, pm, pe, pc, psb, ppiece, psize, ptab, plow, cov_off, cov, act, act_idx, startm,
            colinfo, slot_col, slot_mask, slot_corner, slot_piece, occ, forb, occc, left,
            lonely, nused, cnt, sblock, sbu, optc, optp, nopt, idx, witness, ing, ctl, solbuf,
            max_nodes):
    """The search loop (everything hot is written inline: calls that pass
    arrays cost reference counting). Returns a status code."""
    if ctl[C_DONE]:
        return DONE
    keep = ip[IP_KEEP]
    stop = ip[IP_STOP]
    w = np.uint64(ip[IP_W])
    K = ip[IP_K]
    shapes = ip[IP_SHAPES] != 0
    game = ip[IP_GAME] != 0
    lonely_rule = ip[IP_LONELY] != 0
    canon = ip[IP_CANON] != 0
    nact = ip[IP_NACT]
    S = ip[IP_S]
    full0 = bm[B_FULL, 0]
    full1 = bm[B_FULL, 1]
    notl0 = bm[B_NOTL, 0]
    notl1 = bm[B_NOTL, 1]
    notr0 = bm[B_NOTR, 0]
    notr1 = bm[B_NOTR, 1]
    open0 = bm[B_OPEN, 0]
    open1 = bm[B_OPEN, 1]
    BIG = 1 << 40
    L = ctl[C_L]
    nodes = ctl[C_NODES]
    count = ctl[C_COUNT]
    nsol = ctl[C_NSOL]
    pending = False
    lv = 0
    p = -1
    cc = -1  # the colour and piece of the move being evaluated
    cpb = 0
    m0 = ZERO
    m1 = ZERO
    pe0 = ZERO
    pe1 = ZERO
    if not ctl[C_STARTED]:
        ctl[C_STARTED] = 1
        nodes = 1
        L = 0
        pending = True
    budget = nodes + max_nodes
    status = BUDGET
    while True:
        if pending:
            # -- a new node at level lv (p: the placement just made, -1 at the root)
            pending = False
            src = lv - 1 if lv > 0 else 0  # the level's arrays are not filled in yet
            e0 = open0 & ~(occ[src, 0] | m0)
            e1 = open1 & ~(occ[src, 1] | m1)
            alive = True
            s_low = (_ctz(e0) if e0 else 64 + _ctz(e1)) if (e0 | e1) else 1 << 20
            # lonely pieces
            if lonely_rule:
                l0 = lonely[lv, 0]
                l1 = lonely[lv, 1]
                b0 = l0
                b1 = l1
                while alive and (b0 | b1):
                    if b0:
                        j = _ctz(b0)
                        b0 &= b0 - ONE
                    else:
                        j = 64 + _ctz(b1)
                        b1 &= b1 - ONE
                    col = slot_col[j]
                    c0 = slot_corner[j, 0]
                    c1 = slot_corner[j, 1]
                    oc0 = occc[src, col, 0]
                    oc1 = occc[src, col, 1]
                    leftc = left[src, col]
                    f0 = forb[src, col, 0] | m0
                    f1 = forb[src, col, 1] | m1
                    if col == cc:
                        oc0 |= m0
                        oc1 |= m1
                        f0 |= pe0
                        f1 |= pe1
                        leftc &= ~(1 << cpb)
                    if ((c0 & oc0) | (c1 & oc1)) or (game and colinfo[col, CI_SMALL]):
                        if j < 64:
                            l0 &= ~(ONE << np.uint64(j))
                        else:
                            l1 &= ~(ONE << np.uint64(j - 64))
                        continue
                    r = witness[j]
                    if r >= 0:
                        pb = ppiece[r]
                        if _fits(pm[r, 0], pm[r, 1], pb, leftc, f0, f1, sblock[pb, 0], sblock[pb, 1], shapes):
                            continue
                    q0 = c0 & ~f0 & open0
                    q1 = c1 & ~f1 & open1
                    found = False
                    while (q0 | q1) and not found:
                        if q0:
                            s = _ctz(q0)
                            q0 &= q0 - ONE
                        else:
                            s = 64 + _ctz(q1)
                            q1 &= q1 - ONE
                        for k in range(cov_off[s], cov_off[s + 1]):
                            r = cov[k]
                            if plow[r] < s_low:
                                break  # reaches below the lowest empty square
                            pb = ppiece[r]
                            if _fits(pm[r, 0], pm[r, 1], pb, leftc, f0, f1, sblock[pb, 0], sblock[pb, 1], shapes):
                                witness[j] = r
                                found = True
                                break
                    if not found:
                        alive = False
                if alive:
                    lonely[lv, 0] = l0
                    lonely[lv, 1] = l1
            if alive and lv > 0:
                po = lv - 1
                occ[lv, 0] = occ[po, 0] | m0
                occ[lv, 1] = occ[po, 1] | m1
                for o in range(4):
                    forb[lv, o, 0] = forb[po, o, 0] | m0
                    forb[lv, o, 1] = forb[po, o, 1] | m1
                    occc[lv, o, 0] = occc[po, o, 0]
                    occc[lv, o, 1] = occc[po, o, 1]
                    left[lv, o] = left[po, o]
                forb[lv, cc, 0] |= pe0
                forb[lv, cc, 1] |= pe1
                occc[lv, cc, 0] |= m0
                occc[lv, cc, 1] |= m1
                left[lv, cc] &= ~(1 << cpb)
                for z in range(6):
                    cnt[lv, z] = cnt[po, z]
                cnt[lv, psize[p]] -= 1
                nused[lv] = nused[po]
                if canon and act_idx[cc] == nused[po]:
                    nused[lv] = nused[po] + 1
            # squares nobody may cover
            if alive:
                a0 = full0
                a1 = full1
                for a in range(nact):
                    c = act[a]
                    if left[lv, c]:
                        a0 &= forb[lv, c, 0]
                        a1 &= forb[lv, c, 1]
                if (e0 & a0) | (e1 & a1):
                    alive = False
            # start squares
            if alive:
                for c in range(4):
                    if colinfo[c, CI_START]:
                        s0 = startm[c, 0]
                        s1 = startm[c, 1]
                        if (s0 & occc[lv, c, 0]) | (s1 & occc[lv, c, 1]):
                            continue
                        if left[lv, c] == 0:
                            if occc[lv, c, 0] | occc[lv, c, 1]:
                                alive = False
                        elif not ((s0 & e0 & ~forb[lv, c, 0]) | (s1 & e1 & ~forb[lv, c, 1])):
                            alive = False
            # small or odd-sized regions
            if alive and (e0 | e1):
                smallest, g = _size_stats(cnt[lv, 1], cnt[lv, 2], cnt[lv, 3], cnt[lv, 4], cnt[lv, 5])
                if smallest == 0:
                    alive = False
                elif smallest > 1 or g > 1:
                    glob = p < 0
                    if not glob:
                        sm0, g0 = _size_stats(cnt[lv - 1, 1], cnt[lv - 1, 2], cnt[lv - 1, 3], cnt[lv - 1, 4], cnt[lv - 1, 5])
                        glob = sm0 != smallest or g0 != g
                    if glob:
                        alive = _regions_ok(e0, e1, e0, e1, smallest, g, w, full0, full1, notl0, notl1, notr0, notr1)
                    else:
                        alive = _regions_ok(e0, e1, pe[p, 0], pe[p, 1], smallest, g, w, full0, full1, notl0, notl1, notr0, notr1)
            descended = False
            stopped = False
            if alive:
                if lv > 0:
                    nodes += 1
                if not (e0 | e1):
                    if _leaf_ok(lv, ip, bm, startm, colinfo, left, occ, occc, lonely, slot_col,
                                slot_mask, slot_corner, slot_piece, ing):
                        if nsol < keep:
                            if nsol >= solbuf.shape[0]:
                                # no room: undo this node, the caller grows the buffer
                                idx[L] -= 1
                                nodes -= 1
                                pb = ppiece[p]
                                sblock[pb, 0] = sbu[L, 0]
                                sblock[pb, 1] = sbu[L, 1]
                                status = BUFFER_FULL
                                break
                            for d in range(lv):
                                solbuf[nsol, d, 0] = optc[d, idx[d] - 1]
                                solbuf[nsol, d, 1] = ptab[optp[d, idx[d] - 1]]
                            nsol += 1
                        count += 1
                        stopped = stop > 0 and count >= stop
                else:
                    # branching square: fewest options among the first K empty squares
                    nallow = min(nused[lv] + 1, nact) if canon else nact
                    o0 = occ[lv, 0]
                    o1 = occ[lv, 1]
                    best = -1
                    best_n = BIG
                    seen = 0
                    q0 = e0
                    q1 = e1
                    while (q0 | q1) and seen < K:
                        if q0:
                            s = _ctz(q0)
                            q0 &= q0 - ONE
                        else:
                            s = 64 + _ctz(q1)
                            q1 &= q1 - ONE
                        seen += 1
                        n = 0
                        for k in range(cov_off[s], cov_off[s + 1]):
                            r = cov[k]
                            if plow[r] < s_low:
                                break  # covers a square below the lowest empty one
                            x0 = pm[r, 0]
                            x1 = pm[r, 1]
                            if (x0 & o0) | (x1 & o1):
                                continue
                            pb = ppiece[r]
                            if shapes and (x0 & sblock[pb, 0]) | (x1 & sblock[pb, 1]):
                                continue
                            for a in range(nallow):
                                c = act[a]
                                if (left[lv, c] >> pb) & 1 and not ((x0 & forb[lv, c, 0]) | (x1 & forb[lv, c, 1])):
                                    n += 1
                            if n >= best_n:
                                break
                        if n < best_n:
                            best_n = n
                            best = s
                            if n <= 1:
                                break
                    if best_n > 0:
                        n = 0
                        for k in range(cov_off[best], cov_off[best + 1]):
                            r = cov[k]
                            if plow[r] < s_low:
                                break
                            x0 = pm[r, 0]
                            x1 = pm[r, 1]
                            if (x0 & o0) | (x1 & o1):
                                continue
                            pb = ppiece[r]
                            if shapes and (x0 & sblock[pb, 0]) | (x1 & sblock[pb, 1]):
                                continue
                            for a in range(nallow):
                                c = act[a]
                                if (left[lv, c] >> pb) & 1 and not ((x0 & forb[lv, c, 0]) | (x1 & forb[lv, c, 1])):
                                    optc[lv, n] = c
                                    optp[lv, n] = r
                                    n += 1
                        nopt[lv] = n
                        idx[lv] = 0
                        L = lv
                        descended = True
            if not descended:
                if lv == 0:
                    ctl[C_DONE] = 1
                    status = DONE
                    break
                pb = ppiece[p]
                sblock[pb, 0] = sbu[L, 0]
                sblock[pb, 1] = sbu[L, 1]
            if stopped:
                status = STOPPED
                break
            continue
        # -- next option at level L
        if idx[L] >= nopt[L]:
            if L == 0:
                ctl[C_DONE] = 1
                status = DONE
                break
            L -= 1
            pb = ppiece[optp[L, idx[L] - 1]]
            sblock[pb, 0] = sbu[L, 0]
            sblock[pb, 1] = sbu[L, 1]
            continue
        if nodes >= budget:
            break
        i = idx[L]
        c = optc[L, i]
        p = optp[L, i]
        idx[L] = i + 1
        # level L+1 := level L plus colour c's placement p; the level's
        # arrays are filled in only once the lonely pieces survive it
        m0 = pm[p, 0]
        m1 = pm[p, 1]
        pe0 = pe[p, 0]
        pe1 = pe[p, 1]
        lv = L + 1
        pb = ppiece[p]
        cc = c
        cpb = pb
        sbu[L, 0] = sblock[pb, 0]
        sbu[L, 1] = sblock[pb, 1]
        sblock[pb, 0] |= psb[p, 0]
        sblock[pb, 1] |= psb[p, 1]
        j = S + L
        slot_col[j] = c
        slot_mask[j, 0] = m0
        slot_mask[j, 1] = m1
        slot_corner[j, 0] = pc[p, 0]
        slot_corner[j, 1] = pc[p, 1]
        slot_piece[j] = pb
        witness[j] = -1
        l0 = lonely[L, 0]
        l1 = lonely[L, 1]
        if lonely_rule:
            if j < 64:
                l0 |= ONE << np.uint64(j)
            else:
                l1 |= ONE << np.uint64(j - 64)
        lonely[lv, 0] = l0
        lonely[lv, 1] = l1
        pending = True
    ctl[C_L] = L
    ctl[C_NODES] = nodes
    ctl[C_COUNT] = count
    ctl[C_NSOL] = nsol
    return status


# -- Python side ------------------------------------------------------------------
def supported(puzzle: Puzzle) -> str | None:
    """None when the kernel can search the puzzle, else the reason."""
    if puzzle.goal not in ("place-all", "count"):
        return f"goal {puzzle.goal} (the kernel does place-all and count)"
    if puzzle.spare_squares != 0:
        return f"not a fill puzzle ({puzzle.spare_squares} spare squares)"
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
    return mask & 0xFFFFFFFFFFFFFFFF, mask >> 64


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
            if c != d and t.piece[p] == t.piece[q] and puzzle.same_shape != "none":
                near = t.edge[q] | (t.corner[q] if puzzle.same_shape == "corner" else 0)
                if t.mask[p] & near:
                    return True
    return False


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
        t, b = puzzle.table, puzzle.board
        N, W = b.size, b.width
        self.act = act = [c for c in puzzle.colors if puzzle.pieces[c]]
        self.canonical = bool(symmetry and interchangeable_colours(puzzle))
        self.multiplier = math.factorial(len(act)) if self.canonical else 1
        listed = set().union(*(puzzle.pieces[c] for c in act)) if act else set()
        setup_sq = [mask_of(s for p in puzzle.setup_of(c) for s in t.squares[p]) for c in range(4)]
        taken = setup_sq[0] | setup_sq[1] | setup_sq[2] | setup_sq[3]
        empty_mask = mask_of(puzzle.empty)
        base = b.blocked_mask | empty_mask | taken
        forb = [base | b.edge_neighbours(setup_sq[c]) for c in range(4)]
        for c in act:
            starts = b.starts[c]
            if len(starts) == 1 and not puzzle.setup_of(c):
                for o in range(4):
                    if o != c:
                        forb[o] |= mask_of(starts)
        shapes = puzzle.same_shape != "none"

        def around(p: int) -> int:
            return t.mask[p] | t.edge[p] | (t.corner[p] if puzzle.same_shape == "corner" else 0)

        sblock = [0] * len(PIECES)
        if shapes:
            for c in range(4):
                for p in puzzle.setup_of(c):
                    sblock[t.piece[p]] |= around(p)
        # the kernel's placements: listed pieces clear of fixed squares
        kp = [p for p in range(len(t)) if t.piece[p] in listed and not t.mask[p] & base]
        P = max(1, len(kp))
        pm = np.zeros((P, 2), np.uint64)
        pe = np.zeros((P, 2), np.uint64)
        pc = np.zeros((P, 2), np.uint64)
        psb = np.zeros((P, 2), np.uint64)
        ppiece = np.zeros(P, np.int64)
        psize = np.zeros(P, np.int64)
        ptab = np.zeros(P, np.int64)
        covering: list[list[int]] = [[] for _ in range(N)]
        for i, p in enumerate(kp):
            pm[i] = _words(t.mask[p])
            pe[i] = _words(t.edge[p])
            pc[i] = _words(t.corner[p])
            psb[i] = _words(around(p) if shapes else 0)
            ppiece[i] = t.piece[p]
            psize[i] = PIECE_SIZES[t.piece[p]]
            ptab[i] = p
            for s in t.squares[p]:
                covering[s].append(i)
        # placements covering a square, highest lowest square first: the
        # search stops at the first one reaching below the lowest empty square
        plow = np.array([min(t.squares[p]) for p in kp] or [0], np.int64)
        for lst in covering:
            lst.sort(key=lambda i: -plow[i])
        cov_off = np.zeros(N + 1, np.int64)
        for s in range(N):
            cov_off[s + 1] = cov_off[s] + len(covering[s])
        cov = np.array([i for lst in covering for i in lst] or [0], np.uint32)
        maxcov = max((len(lst) for lst in covering), default=0)
        # slots: set-up pieces of the puzzle's colours, then one per level
        setup_slots = [(c, p) for c in puzzle.colors for p in puzzle.setup_of(c)]
        S = len(setup_slots)
        D = sum(len(puzzle.pieces[c]) for c in act)
        self.D = D
        NS = S + D + 1
        self.slot_col = np.full(NS, -1, np.int64)
        self.slot_mask = np.zeros((NS, 2), np.uint64)
        self.slot_corner = np.zeros((NS, 2), np.uint64)
        self.slot_piece = np.zeros(NS, np.int64)
        lonely0 = 0
        lonely_rule = puzzle.connect in ("touch", "game")
        for j, (c, p) in enumerate(setup_slots):
            self.slot_col[j] = c
            self.slot_mask[j] = _words(t.mask[p])
            self.slot_corner[j] = _words(t.corner[p])
            self.slot_piece[j] = t.piece[p]
            if puzzle.connect == "touch" and not t.corner[p] & setup_sq[c]:
                lonely0 |= 1 << j
        group_size = {c: len(puzzle.pieces.get(c, ())) + len(puzzle.setup_of(c)) for c in range(4)}
        never = _setup_conflict(puzzle)
        if puzzle.monomino_last and puzzle.connect != "game":
            # any order ending with the monomino: it only has to be there
            never = never or any(puzzle.pieces[c] and MONOMINO not in puzzle.pieces[c] for c in puzzle.colors)
        self.ip = np.array(
            [W, N, K, int(self.canonical), int(shapes), int(lonely_rule), int(puzzle.connect == "game"),
             int(puzzle.monomino_last and puzzle.connect == "game"), len(act), S, D, 0, 0, int(never)],
            np.int64)
        self.K = K = max(1, K)
        self.ip[IP_K] = K
        self.set_keep(keep)
        self._stop_step = stop_after or 0
        self.ip[IP_STOP] = self._stop_step
        full = b.full_mask
        col0 = sum(1 << (r * W) for r in range(b.height))
        colw = sum(1 << (r * W + W - 1) for r in range(b.height))
        self.bm = np.array(
            [_words(full), _words(full & ~col0), _words(full & ~colw),
             _words(b.open_mask & ~empty_mask), _words(mask_of(puzzle.stars))], np.uint64)
        self.pm, self.pe, self.pc, self.psb = pm, pe, pc, psb
        self.ppiece, self.psize, self.ptab, self.plow = ppiece, psize, ptab, plow
        self.cov_off, self.cov = cov_off, cov
        self.act_arr = np.array(act or [0], np.int64)
        self.act_idx = np.full(4, -1, np.int64)
        for i, c in enumerate(act):
            self.act_idx[c] = i
        self.startm = np.array([_words(b.start_masks[c]) for c in range(4)], np.uint64)
        self.colinfo = np.zeros((4, 4), np.int64)
        for c in range(4):
            self.colinfo[c, CI_START] = int(c in puzzle.colors and bool(b.starts[c]))
            self.colinfo[c, CI_SMALL] = int(group_size[c] < 2)
            self.colinfo[c, CI_IN] = int(c in puzzle.colors)
            self.colinfo[c, CI_SETUP] = len(puzzle.setup_of(c))
        LV = D + 1
        self.occ = np.zeros((LV, 2), np.uint64)
        self.occ[0] = _words(taken)
        self.forb = np.zeros((LV, 4, 2), np.uint64)
        self.occc = np.zeros((LV, 4, 2), np.uint64)
        self.left = np.zeros((LV, 4), np.int64)
        for c in range(4):
            self.forb[0, c] = _words(forb[c] & full)
            self.occc[0, c] = _words(setup_sq[c])
            if c in puzzle.colors:
                self.left[0, c] = mask_of(puzzle.pieces[c])
        self.lonely = np.zeros((LV, 2), np.uint64)
        self.lonely[0] = _words(lonely0)
        self.nused = np.zeros(LV, np.int64)
        self.cnt = np.zeros((LV, 6), np.int64)
        for c in act:
            for i in puzzle.pieces[c]:
                self.cnt[0, PIECE_SIZES[i]] += 1
        self.sblock = np.array([_words(m) for m in sblock], np.uint64)
        self.sbu = np.zeros((LV, 2), np.uint64)
        MAXOPT = max(1, maxcov * max(1, len(act)))
        self.optc = np.zeros((LV, MAXOPT), np.int64)
        self.optp = np.zeros((LV, MAXOPT), np.int64)
        self.nopt = np.zeros(LV, np.int64)
        self.idx = np.zeros(LV, np.int64)
        self.witness = np.full(NS, -1, np.int64)
        self.ing = np.zeros(NS, np.bool_)
        self.ctl = np.zeros(8, np.int64)
        self.solbuf = np.zeros((min(1024, self._keep), max(D, 1), 2), np.int32)
        self._solutions: list[list[tuple[int, int]]] = []
        self.stopped = False
        if never:  # no arrangement can pass the verifier: nothing to search
            self.ctl[C_STARTED] = self.ctl[C_DONE] = self.ctl[C_NODES] = 1

    def set_keep(self, keep: int | None) -> None:
        self._keep = (1 << 62) if keep is None else keep
        self.ip[IP_KEEP] = self._keep

    # -- results -----------------------------------------------------------
    @property
    def nodes(self) -> int:
        return int(self.ctl[C_NODES])

    @property
    def count(self) -> int:
        return int(self.ctl[C_COUNT])

    @property
    def total(self) -> int:
        """Solutions found so far, relabelled ones included."""
        return self.count * self.multiplier

    @property
    def done(self) -> bool:
        return bool(self.ctl[C_DONE])

    @property
    def stored(self) -> int:
        return int(self.ctl[C_NSOL])

    @property
    def solution_array(self) -> np.ndarray:
        """The stored solutions: shape (n, pieces, 2), (colour, placement)."""
        return self.solbuf[: self.stored, : self.D]

    @property
    def solutions(self) -> list[list[tuple[int, int]]]:
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
            status = _kernel(
                self.ip, self.bm, self.pm, self.pe, self.pc, self.psb, self.ppiece, self.psize,
                self.ptab, self.plow, self.cov_off, self.cov, self.act_arr, self.act_idx, self.startm,
                self.colinfo, self.slot_col, self.slot_mask, self.slot_corner, self.slot_piece,
                self.occ, self.forb, self.occc, self.left, self.lonely, self.nused, self.cnt,
                self.sblock, self.sbu, self.optc, self.optp, self.nopt, self.idx, self.witness,
                self.ing, self.ctl, self.solbuf, np.int64(max_nodes))
            if status == BUFFER_FULL:
                rows = min(self._keep, max(16, 2 * len(self.solbuf)))
                grown = np.zeros((rows,) + self.solbuf.shape[1:], np.int32)
                grown[: len(self.solbuf)] = self.solbuf
                self.solbuf = grown
                continue
            self.stopped = status == STOPPED
            if self.stopped:
                self.ip[IP_STOP] = self.count + self._stop_step
            return status == DONE

    def run_for(self, seconds: float | None = None, step: int = 2_000_000, progress=None) -> bool:
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
