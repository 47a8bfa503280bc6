"""The compiled waste-budget search: the square mode of
:mod:`.waste` as one numba kernel over multi-word masks, for boards of any
size the game-tree tables take (:mod:`solver.kernels.tables`).

Each node takes the lowest empty square and covers it by a placement whose
first square it is (the lists are ordered by the caller: largest pieces
first), or declares it spare, at most ``budget`` spare squares in all. A
node dies when a colour's pieces can no longer all be connected to its
start (king moves through its own and its coverable squares: the ``game``
rule), when a colour has fewer coverable squares than squares to place, or
when the spare squares plus the empty squares no colour can cover plus the
small closed holes the small pieces left cannot fill exceed the budget
(options: ONLY_ONE, FIT below), or (EDGES, one colour) when its spare
squares' sides facing each other or the border, those there now and
those the spare squares still to come must add, exceed the total every
packing has, or (WINDOWS, one colour) when its spare squares' weights and
crowded two-by-two windows, with what the spare groups still must
spend, exceed the slack (solver.puzzle.windows). With MEMO (one colour,
searched without the game rule) a node whose frontier (_frontier_key)
matches one whose subtree held no leaf is cut. With a partner colour per colour
(``partner[0] >= 0``) each placement comes with its half-turned image
(``img_p``) for the partner, and a spare square with its image: the
half-turn symmetric packings only.

The search is an explicit stack in arrays, so a call runs at most
``max_nodes`` nodes and returns; the next call resumes where it stopped.
Leaves (every piece placed) are returned to the caller, which checks them
with the verifier (same-shape, touch and monomino rules are not pruned
here). ``ctl``: [depth, state, nodes, deepest pieces, its path length].
"""

from __future__ import annotations

import numpy as np

from solver.kernels.bitops import ONE, ZERO, ctz, king_fill, popcount
from solver.kernels.jit import njit

BUDGET = 0  # run() return codes: the node budget ran out
LEAF = 1  # every piece placed: the path is in ch_p / ch_c
DONE = 2  # the whole tree searched

EVAL, NEXT, BACK = 0, 1, 2  # what to do at the current depth

ONLY_ONE = 1  # options: count the squares only one colour can cover beyond its squares to place
FIT = 2  # options: every piece in hand still has a placement on its colour's coverable squares
EDGES = 4  # options, one colour only: the sides of its spare squares facing each other or the border (see _edge_waste)
WINDOWS = 16  # options, one colour only: its spare squares' weights and crowded windows (see _window_waste)
MEMO = 8  # options, one colour, no game rule: nodes searched through without a leaf remembered (_frontier_key)

C_LEAVES, C_MEMO_HITS, C_MEMO_STORES = 5, 6, 7  # ctl beyond the first five


@njit(cache=True)
def _small_hole_waste(x, scratch, buf, neighbour, notl, notr, width, nw):
    """Squares of x[3] (the empty squares some colour can cover) in closed
    edge-connected regions of 1-4 squares beyond what the small pieces left
    (buf[10 + k]: their squares of size k) can fill. buf[0:5] and
    buf[5:10] are scratch."""
    sw = np.uint64(width)
    back = np.uint64(64) - sw
    # seeds: squares of x with at most 2 neighbours in x (every region of
    # up to 4 squares has one)
    for w in range(nw):
        v = x[3, w]
        left = (v << ONE) & notl[w]
        right = (v >> ONE) & notr[w]
        if w > 0:
            left |= (x[3, w - 1] >> np.uint64(63)) & notl[w]
        if w + 1 < nw:
            right |= (x[3, w + 1] << np.uint64(63)) & notr[w]
        up = v << sw
        down = v >> sw
        if w > 0:
            up |= x[3, w - 1] >> back
        if w + 1 < nw:
            down |= x[3, w + 1] << back
        many = (up & down & (left | right)) | (left & right & (up | down))
        scratch[w] = v & ~many
    for k in range(5):
        buf[k] = 0
    for w in range(nw):
        while scratch[w]:
            s = w * 64 + ctz(scratch[w])
            buf[5 + 0] = s
            size = 1
            big = False
            i = 0
            while i < size and not big:
                for k in range(4):
                    n = neighbour[buf[5 + i], k]
                    if n < 0 or not (x[3, n >> 6] >> np.uint64(n & 63)) & ONE:
                        continue
                    seen = False
                    for j in range(size):
                        if buf[5 + j] == n:
                            seen = True
                    if seen:
                        continue
                    if size == 5:
                        big = True
                        break
                    buf[5 + size] = n
                    size += 1
                i += 1
            for j in range(size):
                if j < 5:
                    sq = buf[5 + j]
                    scratch[sq >> 6] &= ~(ONE << np.uint64(sq & 63))
            if not big:
                buf[size] += size
    worst = 0
    in_holes = 0
    fit = 0
    for k in range(1, 5):
        in_holes += buf[k]
        fit += buf[10 + k]
        if in_holes - fit > worst:
            worst = in_holes - fit
    return worst


@njit(cache=True)
def _edge_waste(x, free, neighbour, nw):
    """For the squares of x (spare, or empty and closed to the one colour):
    the edges between two of them plus their sides facing a square outside
    ``free`` (the border, a blocked or set-up square). A colour's pieces
    never share an edge, so counting the spare squares' sides both ways
    makes this total, over a complete packing, the same for every packing
    (solver.puzzle.edges.spare_sides); it only grows down the search."""
    n = 0
    for w in range(nw):
        v = x[w]
        while v:
            s = w * 64 + ctz(v)
            v &= v - ONE
            for k in range(4):
                t = neighbour[s, k]
                if (t < 0 or not (free[t >> 6] >> np.uint64(t & 63)) & ONE
                        or t > s and (x[t >> 6] >> np.uint64(t & 63)) & ONE):
                    n += 1
    return n


@njit(cache=True)
def _window_waste(x, weight, wins_of, wsq, groups, gneed, nw):
    """For the squares of x (spare, or empty and closed to the one colour):
    their weights (4 less the two-by-two windows of free squares each lies
    in) plus, per window, its squares of x beyond two, plus for each spare
    group (a row of ``groups``, -1 after its squares) the spare squares it
    must still get, ``gneed[g, 0]`` less those in x, at its least weight
    ``gneed[g, 1]`` (solver.puzzle.windows: over a packing this is at most
    the slack; it only grows down the search). A window is counted from
    its first square in x."""
    n = 0
    for w in range(nw):
        v = x[w]
        while v:
            s = w * 64 + ctz(v)
            v &= v - ONE
            n += weight[s]
            for j in range(4):
                win = wins_of[s, j]
                if win < 0:
                    break
                k = 0
                first = True
                for i in range(4):
                    t = wsq[win, i]
                    if (x[t >> 6] >> np.uint64(t & 63)) & ONE:
                        if t < s:
                            first = False
                        k += 1
                if first and k > 2:
                    n += k - 2
    for g in range(groups.shape[0]):
        need = gneed[g, 0]
        for i in range(groups.shape[1]):
            t = groups[g, i]
            if t < 0 or need == 0:
                break
            if (x[t >> 6] >> np.uint64(t & 63)) & ONE:
                need -= 1
        n += need * gneed[g, 1]
    return n


@njit(cache=True)
def _all_fit(d, hand, rows, mask_word, mask, pfrom, plist, wit, s):
    """Every piece in colour c's hand has a placement inside rows[4 + c]
    (its coverable squares). wit[c, k] keeps the last placement found, a
    cache checked afresh each time (no undo needed)."""
    n_col = hand.shape[1]
    for c in range(n_col):
        h = hand[d, c]
        while h:
            k = ctz(np.uint64(h))
            h &= h - 1
            p = wit[c, k]
            if p >= 0:
                mw = mask_word[p]
                if not ((mask[p, 0] & ~rows[4 + c, mw]) | (mask[p, 1] & ~rows[4 + c, mw + 1])
                        | (mask[p, 2] & ~rows[4 + c, mw + 2])):
                    continue
            found = False
            for j in range(pfrom[k, s], pfrom[k, -1]):
                p = plist[j]
                mw = mask_word[p]
                if not ((mask[p, 0] & ~rows[4 + c, mw]) | (mask[p, 1] & ~rows[4 + c, mw + 1])
                        | (mask[p, 2] & ~rows[4 + c, mw + 2])):
                    wit[c, k] = p
                    found = True
                    break
            if not found:
                return False
    return True


@njit(cache=True)
def _dead(d, forb, occ, empty, hand, left, spent, starts, has_start, game, budget, piece_size,
          neighbour, notl, notr, width, nw, rows, seedrow, buf, options, mask_word, mask, pfrom, plist, wit,
          free, edge_budget, perimeter, win_slack, weight, wins_of, wsq, groups, gneed):
    """True when no packing extends the node at depth d (see the module)."""
    n_col = forb.shape[1]
    for w in range(nw):
        rows[3, w] = ZERO  # squares some colour can still cover
    for c in range(n_col):
        if hand[d, c] == 0:
            if game:  # its group is final: one group (king moves), on a start
                first = -1
                for w in range(nw):
                    rows[2, w] = occ[d, c, w]
                    rows[0, w] = ZERO
                    if first < 0 and occ[d, c, w]:
                        first = w
                if first < 0:
                    continue
                rows[0, first] = occ[d, c, first] & (~occ[d, c, first] + ONE)
                king_fill(rows, 0, rows, 1, rows, 2, notl, notr, width, nw, 10000)
                for w in range(nw):
                    if rows[0, w] != occ[d, c, w]:
                        return True
                if has_start[c]:
                    on = ZERO
                    for w in range(nw):
                        on |= occ[d, c, w] & starts[c, w]
                    if on == ZERO:
                        return True
            continue
        if game:
            any_occ = False
            for w in range(nw):
                allowed = empty[d, w] & ~forb[d, c, w]
                rows[2, w] = occ[d, c, w] | allowed
                if occ[d, c, w]:
                    any_occ = True
            if has_start[c]:
                for w in range(nw):
                    rows[0, w] = starts[c, w] & rows[2, w]
            elif any_occ:
                found = False
                for w in range(nw):
                    rows[0, w] = ZERO
                    if not found and occ[d, c, w]:
                        rows[0, w] = occ[d, c, w] & (~occ[d, c, w] + ONE)
                        found = True
            else:
                for w in range(nw):
                    rows[0, w] = rows[2, w]
            king_fill(rows, 0, rows, 1, rows, 2, notl, notr, width, nw, 10000)
            n = 0
            for w in range(nw):
                if occ[d, c, w] & ~rows[0, w]:
                    return True
                cov = rows[0, w] & empty[d, w] & ~forb[d, c, w]
                n += popcount(cov)
                rows[3, w] |= cov
                rows[4 + c, w] = cov
        else:
            n = 0
            for w in range(nw):
                cov = empty[d, w] & ~forb[d, c, w]
                n += popcount(cov)
                rows[3, w] |= cov
                rows[4 + c, w] = cov
        if n < left[d, c]:
            return True
    waste = spent[d]
    for w in range(nw):
        waste += popcount(empty[d, w] & ~rows[3, w])
        rows[3, w] &= empty[d, w]
    if waste > budget:
        return True
    if options & EDGES:  # (one colour) its spare squares now and for good
        for w in range(nw):
            seedrow[w] = free[w] & ~occ[d, 0, w] & ~rows[3, w]
        now = _edge_waste(seedrow, free, neighbour, nw)
        # the spare squares to come: their sides face each other, the
        # border, these, or the pieces in hand (whose sides number their
        # perimeters at most), and each of their edges counts once for two sides
        more = 4 * (budget - waste)
        h = hand[d, 0]
        while h:
            i = ctz(np.uint64(h))
            h &= h - 1
            more -= perimeter[i]
        if now + max(0, (more + 1) // 2) > edge_budget:
            return True
    if options & WINDOWS:  # (one colour) its spare squares now and for good
        for w in range(nw):
            seedrow[w] = free[w] & ~occ[d, 0, w] & ~rows[3, w]
        if _window_waste(seedrow, weight, wins_of, wsq, groups, gneed, nw) > win_slack:
            return True
    excess = 0
    if options & ONLY_ONE:  # squares only c can cover, beyond c's squares to place
        for c in range(n_col):
            if hand[d, c] == 0:
                continue
            n = 0
            for w in range(nw):
                v = rows[4 + c, w]
                for o in range(n_col):
                    if o != c and hand[d, o] != 0:
                        v &= ~rows[4 + o, w]
                n += popcount(v)
            if n > left[d, c]:
                excess += n - left[d, c]
        if waste + excess > budget:
            return True
    for k in range(5):
        buf[10 + k] = 0
    for c in range(n_col):
        h = hand[d, c]
        while h:
            i = ctz(np.uint64(h))
            h &= h - 1
            k = piece_size[i]
            if k <= 4:
                buf[10 + k] += k
    holes = _small_hole_waste(rows, seedrow, buf, neighbour, notl, notr, width, nw)
    if waste + max(holes, excess) > budget:
        return True
    if options & FIT:
        s = 0
        for w in range(nw):
            if empty[d, w]:
                s = w * 64 + ctz(empty[d, w])
                break
        return not _all_fit(d, hand, rows, mask_word, mask, pfrom, plist, wit, s)
    return False


@njit(cache=True)
def _bits_at(row, a):
    """The 64 bits of a multi-word row from bit a on (rows end in zero words)."""
    i = a >> 6
    off = a & 63
    v = row[i] >> np.uint64(off)
    if off:
        v |= row[i + 1] << np.uint64(64 - off)
    return v


@njit(cache=True)
def _frontier_key(occ, d, s, hand, mparam, key):
    """key[0:3] = what decides the search below a node whose lowest empty
    square is s, for one colour without the game rule: its covered
    squares from s - back to s + ahead (mparam: back, window bits), its
    hand and s. Every square before s is decided, and no piece placed
    reaches past the window, so the squares left to cover, the forbidden
    ones and the spare squares' sides so far (the spare squares' sides
    identity applied to the squares before s) all follow from the key:
    two nodes with one key have the same subtrees."""
    back = mparam[0]
    nbits = mparam[1]
    a = s - back if s >= back else 0
    lo = _bits_at(occ[d, 0], a)
    hi = _bits_at(occ[d, 0], a + 64) if nbits > 64 else ZERO
    if nbits < 64:
        lo &= (ONE << np.uint64(nbits)) - ONE
    elif nbits > 64 and nbits < 128:
        hi &= (ONE << np.uint64(nbits - 64)) - ONE
    key[0] = lo
    key[1] = hi
    key[2] = np.uint64(hand) | (np.uint64(s) << np.uint64(32))


@njit(cache=True)
def _memo_slot(key, n):
    h = key[0] * np.uint64(0x9E3779B97F4A7C15) ^ key[1] * np.uint64(0xC2B2AE3D27D4EB4F) ^ key[2]
    h ^= h >> np.uint64(29)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(32)
    return np.int64(h & np.uint64(n - 1)) & ~np.int64(3)


@njit(cache=True)
def _memo_has(memo, key):
    """The node's key is among the dead ones (buckets of four entries; the
    third word is stored plus one, so zero marks an empty entry)."""
    b = _memo_slot(key, memo.shape[0])
    tag = key[2] + ONE
    for i in range(b, b + 4):
        if memo[i, 2] == tag and memo[i, 0] == key[0] and memo[i, 1] == key[1]:
            return True
    return False


@njit(cache=True)
def _memo_store(memo, key, nodes):
    """Remember a dead key: an empty entry of its bucket, else one by the
    node count (an entry lost only costs a search again)."""
    b = _memo_slot(key, memo.shape[0])
    at = b + (nodes & 3)
    for i in range(b, b + 4):
        if memo[i, 2] == ZERO:
            at = i
            break
    memo[at, 0] = key[0]
    memo[at, 1] = key[1]
    memo[at, 2] = key[2] + ONE


@njit(cache=True)
def memo_rehash(old, new):
    """Every entry of the memo table ``old`` stored again in ``new`` (a
    larger table: the hash's low bits pick the bucket)."""
    key = np.zeros(3, dtype=np.uint64)
    for i in range(old.shape[0]):
        if old[i, 2] != ZERO:
            key[0] = old[i, 0]
            key[1] = old[i, 1]
            key[2] = old[i, 2] - ONE
            _memo_store(new, key, i)


@njit(cache=True)
def _apply(e, c, p, mask_word, mask, ring_word, edge, piece, size, forb, occ, empty, hand, left):
    """Colour c places p in the state at depth e."""
    n_col = forb.shape[1]
    mw = mask_word[p]
    for j in range(3):
        m = mask[p, j]
        for o in range(n_col):
            forb[e, o, mw + j] |= m
        occ[e, c, mw + j] |= m
        empty[e, mw + j] &= ~m
    rw = ring_word[p]
    for j in range(4):
        forb[e, c, rw + j] |= edge[p, j]
    hand[e, c] &= ~(1 << piece[p])
    left[e, c] -= size[p]


@njit(cache=True, nogil=True)  # (searches on several threads run at once)
def run(mask_word, mask, ring_word, edge, piece, size, first_start, first_list, stars, allow,
        starts, has_start, game, budget, piece_size, neighbour, notl, notr, width, nw,
        forb, occ, empty, hand, left, spent, npieces, sq, it, ch_p, ch_c, best_p, best_c,
        rows, seedrow, buf, options, pfrom, plist, wit, img_p, partner, img_sq, free, edge_budget, perimeter,
        win_slack, weight, wins_of, wsq, groups, gneed, memo, mkey, mparam, ctl, max_nodes):
    """Search on from the state in the arrays for at most max_nodes nodes;
    returns BUDGET, LEAF or DONE (see the module)."""
    n_col = forb.shape[1]
    sym = partner[0] >= 0
    d = ctl[0]
    state = ctl[1]
    nodes = 0
    while True:
        if state == EVAL:
            if nodes >= max_nodes:
                break
            nodes += 1
            leaf = True
            for c in range(n_col):
                if hand[d, c] != 0:
                    leaf = False
            if _dead(d, forb, occ, empty, hand, left, spent, starts, has_start, game, budget, piece_size,
                     neighbour, notl, notr, width, nw, rows, seedrow, buf, options, mask_word, mask, pfrom, plist, wit,
                     free, edge_budget, perimeter, win_slack, weight, wins_of, wsq, groups, gneed):
                state = BACK
                continue
            if npieces[d] > ctl[3]:
                ctl[3] = npieces[d]
                ctl[4] = d
                for i in range(d):
                    best_p[i] = ch_p[i]
                    best_c[i] = ch_c[i]
            if leaf:
                ctl[0] = d
                ctl[1] = BACK
                ctl[2] += nodes
                ctl[C_LEAVES] += 1
                return LEAF
            s = -1
            for w in range(nw):
                if empty[d, w]:
                    s = w * 64 + ctz(empty[d, w])
                    break
            if s < 0:
                state = BACK
                continue
            if options & MEMO:
                _frontier_key(occ, d, s, hand[d, 0], mparam, mkey[d])
                if _memo_has(memo, mkey[d]):
                    ctl[C_MEMO_HITS] += 1
                    state = BACK
                    continue
                mkey[d, 3] = np.uint64(ctl[C_LEAVES])  # leaves met before its subtree
            sq[d] = s
            it[d] = 0
            state = NEXT
        elif state == NEXT:
            s = sq[d]
            k = it[d]
            base = first_start[s]
            n = (first_start[s + 1] - base) * n_col
            moved = False
            while k < n:
                li = k // n_col
                ci = k - li * n_col
                k += 1
                p = first_list[base + li]
                if not (hand[d, ci] >> piece[p]) & 1:
                    continue
                mw = mask_word[p]
                if (mask[p, 0] & forb[d, ci, mw]) | (mask[p, 1] & forb[d, ci, mw + 1]) | (mask[p, 2] & forb[d, ci, mw + 2]):
                    continue
                q = -1
                if sym:  # the half-turned image, for the partner colour
                    q = img_p[p]
                    if q < 0:
                        continue
                    cq = partner[ci]
                    if not (hand[d, cq] >> piece[q]) & 1:
                        continue
                    qw = mask_word[q]
                    if (mask[q, 0] & forb[d, cq, qw]) | (mask[q, 1] & forb[d, cq, qw + 1]) | (mask[q, 2] & forb[d, cq, qw + 2]):
                        continue
                e = d + 1
                for c in range(n_col):
                    for w in range(nw):
                        forb[e, c, w] = forb[d, c, w]
                        occ[e, c, w] = occ[d, c, w]
                    hand[e, c] = hand[d, c]
                    left[e, c] = left[d, c]
                for w in range(nw):
                    empty[e, w] = empty[d, w]
                _apply(e, ci, p, mask_word, mask, ring_word, edge, piece, size, forb, occ, empty, hand, left)
                npieces[e] = npieces[d] + 1
                if q >= 0:
                    _apply(e, partner[ci], q, mask_word, mask, ring_word, edge, piece, size, forb, occ, empty, hand, left)
                    npieces[e] += 1
                spent[e] = spent[d]
                ch_p[d] = p
                ch_c[d] = ci
                it[d] = k
                d = e
                state = EVAL
                moved = True
                break
            if moved:
                continue
            if k == n:  # the square stays empty
                it[d] = n + 1
                bit = ONE << np.uint64(s & 63)
                s2 = img_sq[s] if sym else s
                bit2 = ONE << np.uint64(s2 & 63)
                cost = 1 if s2 == s else 2
                if spent[d] + cost <= allow[s] and not stars[s >> 6] & bit and not stars[s2 >> 6] & bit2:
                    e = d + 1
                    for c in range(n_col):
                        for w in range(nw):
                            forb[e, c, w] = forb[d, c, w]
                            occ[e, c, w] = occ[d, c, w]
                        forb[e, c, s >> 6] |= bit
                        forb[e, c, s2 >> 6] |= bit2
                        hand[e, c] = hand[d, c]
                        left[e, c] = left[d, c]
                    for w in range(nw):
                        empty[e, w] = empty[d, w]
                    empty[e, s >> 6] &= ~bit
                    empty[e, s2 >> 6] &= ~bit2
                    spent[e] = spent[d] + cost
                    npieces[e] = npieces[d]
                    ch_p[d] = -1
                    ch_c[d] = -1
                    d = e
                    state = EVAL
                    continue
            if options & MEMO and mkey[d, 3] == np.uint64(ctl[C_LEAVES]):  # searched through, no leaf
                _memo_store(memo, mkey[d], ctl[2] + nodes)
                ctl[C_MEMO_STORES] += 1
            state = BACK
        else:
            if d == 0:
                ctl[0] = 0
                ctl[1] = BACK
                ctl[2] += nodes
                return DONE
            d -= 1
            state = NEXT
    ctl[0] = d
    ctl[1] = state
    ctl[2] += nodes
    return BUDGET
