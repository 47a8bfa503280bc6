"""A compiled (numba) game-tree engine for endgames: the exact two-player
value (seat 1, blue+red, minus seat 2, yellow+green) and best move, and the
score one colour can guarantee in a four-player game, with the rules of
:class:`~solver.core.position.Position` (fixed rotation, forced passes, the game
ends when nobody can move, advanced scoring with both monomino bonuses).
:mod:`solver.endgame.gametree` is the plain-Python reference it is tested
against.

State: one row per ply of an explicit stack (copy-make, so undoing a move is
popping a row): per colour its forbidden squares (occupied, blocked, edge
contact with its pieces) and its attach candidates (corners of its pieces,
or its start squares), its hand as a bit mask, its final bonus once its hand
is empty, the colours that never move again, and a Zobrist key (squares and
pieces per colour, bonuses, the colour that moved last: that decides whose
turn it is, and lets a child's key be computed without making the move).

Search: alpha-beta with principal-variation search (null windows after the
first move, re-searched when they fail high) over the explicit stack, so the
kernel stops after a node budget and resumes where it was: the Python
driver (:mod:`solver.endgame.treeengine`) checks the clock between calls
and, when time runs out, reports the bounds proven at the root instead of a
value. A fixed-size transposition
table in numpy arrays (two-slot buckets: one kept for the biggest subtree,
one always replaced; each entry a lower and an upper bound, so it serves
any window) gives the first move to try; then killer moves per ply, the
history of cut-offs, and bigger pieces first; on the rows near the root
(``Params.order_mobility``) the moves that leave the other side the
fewest replies come right after the table's move and the killers.
Enhanced transposition cut-offs look the children up in the table before
searching any of them.

Settling: at each new position every colour's reach (squares its future
pieces could cover: king steps from its attach squares through squares it
may cover, as many as it has squares left; with ``Params.reach``, only the
squares of chains of placements inside that, a link per piece in hand,
:func:`solver.endgame.treereach.piece_reach`) is compared with the others'.
A colour whose reach meets nobody else's plays alone from then on: its
final score is its solo optimum, found by a one-colour max search
(memoised by colour, hand and the contents of the reach), and the colour is
taken out of the rotation with that score booked. That search decides
attach squares (:func:`_solo_search`: the attach square the fewest legal
placements cover is covered by one of them or closed to the colour for
good, so each set of placements is met once; each node bounded by the
colour's reach and the pieces that still fit in it); with
``Params.solo_attach`` off, and for Junior's pieces held twice, it tries
moves one by one instead (alpha pruning, an
optimistic bound from the room left, a table of its own), which the
bounding searches below use too (their memo entries after each move serve
``Params.mover``). Others end between their score now
and it plus what still fits, which cuts branches (as
:class:`solver.endgame.analysis.ScoreOutlook` does for the Python tree). With
``Params.tight`` (off by default: it cuts the tree's positions 3-4x at 12
and 16 placements before the end, but its solo searches cost more time
than that saves on many positions; benchmarks/RESULTS.md) a colour that still interacts is bounded by its solo optimum
with the others frozen too, where that can refute the node's window.
``Params.fit`` bounds a colour's rise by the pieces in hand that still fit
somewhere inside its reach (no bonus once one does not; each kept with a
placement as witness down the tree, since reaches only shrink), and
``Params.tight_pieces`` keeps the solo bounds to colours with few pieces in
hand, where those searches are small. With ``Params.mover`` the colour to
move gets one too (it may hold one piece more, having one fewer after its
move), searched with the alpha that refutes the row's children: the solo
memo then bounds its score after each of its moves, and a child that bound
refutes is not made at all. :func:`solve_two_player` (so ``blokus
analyze``'s two-player values) runs with ``treeengine.TWO_PLAYER``: fit
on, solo bounds on every ply for colours with at most 5 pieces in hand, 6
for the colour to move, reaches by chains of placements for every hand,
fastest first on the top five rows (benchmarks/RESULTS.md); guaranteed
scores with ``treeengine.GUARANTEED`` (fastest first, reaches by chains of
placements, and ``Params.private``:
the part of a counting colour's reach that no other colour's reach meets
stays free for it whatever they do, so its solo optimum there is a score it
makes sure of, a bound on the side it counts for; :func:`_private`);
:func:`params` and :func:`two_player_params` keep them off.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from solver.core.pieces import MONOMINO
from solver.endgame.treereach import find_fit, piece_reach
from solver.kernels.bitops import ONE, ZERO, count, ctz, king_fill, popcount
from solver.kernels.jit import njit
from solver.kernels.tables import N_PIECES

INF = 1000  # beyond any value (|value| <= 4 * 89)
VALUE_BIAS = 1024  # values are stored as value + VALUE_BIAS in 11 bits
MAX_MOVES = 4096  # legal moves of one colour in one position, at most
MAX_PLIES = 90  # 84 pieces and the root
SOLO_PLIES = N_PIECES + 2

# main loop modes
ENTER, NEXT, RETURN = 0, 1, 2
UNKNOWN = -2  # to_move of a row whose moves are not generated yet
# what the kernel returns
BUDGET, DONE, OVERFLOW = 0, 1, 2
# ctl: the kernel's counters (kept between calls)
C_DEPTH, C_MODE, C_VALUE, C_NODES, C_SOLO_NODES, C_SOLO_RUNS, C_SETTLED, C_ETC, C_REACHES = range(9)
C_BOUND_CALLS, C_BOUND_RUNS, C_BOUND_NODES, C_BOUND_CUTS = range(9, 13)  # _tighten's solo bounds
C_MOVE_CUTS = 13  # children refuted before they were made, by the mover's solo bound after its move
C_PRIVATE_CUTS = 14  # nodes refuted by what a colour makes sure of alone (_private)
# child search kinds (PVS)
FULL, NULL = 0, 1
# solo ctl
S_NODES, S_BUDGET, S_ABORT = range(3)
# solo frame columns (F_SQ: the attach square a node of the attach-square search decides)
F_ALPHA, F_TOP, F_BEST, F_N, F_NEXT, F_SQ = range(6)
MAX_OPTIONS = 1024  # placements covering the attach square an attach-square node decides, at most
GAVE_UP = np.uint64(0x9E3779B97F4A7C15)  # salt: "the solo search of this region gave up"
SOLO_SALT = np.uint64(0xD1B54A32D192ED03)
BOUND_GAVE_UP = np.uint64(0x8CB92BA72F3D8DD7)  # salt: "a bound search of this region gave up"


# -- the kernel's data ------------------------------------------------------------
class Stack(NamedTuple):
    """One row per ply: the position after the moves above it, and the
    alpha-beta frame of the search at that ply. Masks are rows of words."""

    forbidden: np.ndarray  # (D, 4, R) uint64
    corners: np.ndarray  # (D, 4, R) uint64 attach candidates
    hand: np.ndarray  # (D, 4) int64
    spare: np.ndarray  # (D, 4) int64 pieces held twice (Junior)
    bonus: np.ndarray  # (D, 4) int64 final bonus once the hand is empty
    started: np.ndarray  # (D, 4) int64 has a piece on the board
    skip: np.ndarray  # (D,) int64 colours that never move again (no move, or settled)
    gain: np.ndarray  # (D,) int64 weighted solo gains of the colours settled and taken out
    key: np.ndarray  # (D,) uint64
    to_move: np.ndarray  # (D,) int64, -1 when the game is over
    last: np.ndarray  # (D,) int64 the colour that moved last (part of the key)
    moves: np.ndarray  # (D, MAX_MOVES) int32 the moves at this ply ...
    order: np.ndarray  # (D, MAX_MOVES) int64 ... and their ordering scores
    n_moves: np.ndarray  # (D,) int64
    next: np.ndarray  # (D,) int64 index of the move being searched
    alpha: np.ndarray  # (D,) int64
    beta: np.ndarray  # (D,) int64
    alpha0: np.ndarray  # (D,) int64 the window at entry (after the table narrowed it)
    beta0: np.ndarray  # (D,) int64
    best: np.ndarray  # (D,) int64
    best_move: np.ndarray  # (D,) int64
    stage: np.ndarray  # (D,) int64 FULL or NULL: how the current child is searched
    entry_nodes: np.ndarray  # (D,) int64 node count when the ply was entered
    killers: np.ndarray  # (D, 2) int64
    scratch: np.ndarray  # (9, R) uint64 reaches of the four colours, then work rows
    reach: np.ndarray  # (D, 4, R) uint64 the reaches found at row d ...
    reach_ok: np.ndarray  # (D,) int64 ... for these colours (0: the row's outlook did not run)
    made: np.ndarray  # (D,) int64 1 when row d + 1 holds the current move of row d
    stats: np.ndarray  # (D, 8) int64 per ply: entered, game over, table, settled, cut by bounds, expanded, moves, children
    fits: np.ndarray  # (D, 4) int64 the pieces in hand that fit inside the colour's reach at row d (with reach_ok) ...
    witness: np.ndarray  # (D, 4, N_PIECES) int32 ... and a placement of each inside it (Params.fit)
    bound: np.ndarray  # (D, 3) int64 the outlook's bounds (lo, hi) of row d and whether they are set
    up: np.ndarray  # (D, 4) int64 the most each colour can still gain in those bounds
    solo_key: np.ndarray  # (D, 4) uint64 the solo memo key of a colour's bound search at row d ...
    solo_ok: np.ndarray  # (D,) int64 ... for these colours


class Params(NamedTuple):
    """What one search computes: the value is sum(weight[c] * score of c);
    the colours with maximiser[c] = 1 maximise it, the others minimise it."""

    weight: np.ndarray  # (4,) int64
    maximiser: np.ndarray  # (4,) int64
    settle: int  # 1: settle colours that no longer interact
    pvs: int  # 1: null windows after the first move
    etc_plies: int  # enhanced transposition cut-offs this many plies below the root
    solo_budget: int  # nodes of one solo search before it gives up
    bonus_all: int  # the bonus for placing everything (0: the variant has none)
    bonus_mono: int  # the bonus when the monomino went last
    helper: int  # 1: a helper thread of a parallel search (another move order near the root)
    tight: int  # plies below the root where a colour still interacting is bounded by its solo optimum too
    tight_budget: int  # nodes of one such bounding solo search before it gives up
    fit: int  # 1: a colour's rise is bounded by the pieces in hand that still fit inside its reach; 2: rechecked at every solo node too
    tight_pieces: int  # tight bounds only for colours with at most this many pieces in hand (0: any)
    tight_ratio: int  # no more tight bound searches once their positions exceed this many times the tree's (0: no cap)
    mover: int  # the colour to move gets a solo bound with up to tight_pieces + mover pieces in hand (-1: no such bound)
    reach: int  # reaches of hands of at most this many pieces shrunk to chains of placements (0: none)
    order_eval: int  # rows up to this many plies below the root order moves by a static evaluation too (0: none)
    solo_attach: int  # 1: settling solo optima by attach squares (_solo_search), else move by move
    order_mobility: int  # rows up to this many plies down: moves leaving the other side fewest replies first (0: off)
    root_ply: int = 0  # the ply of a larger tree the root stands at (a split root's child: 1); no move is wanted
    # of a root below the top, so it is settled and bounded as any node there
    private: int = 0  # rows up to this many plies down: a counting colour makes sure of its solo optimum in the part
    # of its reach no other colour's meets (_private), where that can refute the window (0: off)


class Table(NamedTuple):
    """A transposition table: 2**bits entries in buckets of two; an entry's
    key is stored xor its data (a torn entry cannot match). Entries of an
    earlier search (another generation) count as empty, so a new search
    needs no clearing."""

    key: np.ndarray  # (N,) uint64
    data: np.ndarray  # (N,) uint64: lo, hi (11 bits each), move + 1 (22 bits), work (6 bits), generation (14)
    generation: np.ndarray  # (1,) int64 the current search's


class Memory(NamedTuple):
    """Move-ordering memory and the duplicate marks of the generator."""

    history: np.ndarray  # (4, P) int64 cut-offs caused by colour c's placement p
    mark: np.ndarray  # (P,) int64 stamp of the last generation that listed p
    stamp: np.ndarray  # (1,) int64


class Solo(NamedTuple):
    """The one-colour searches: a stack of rows (colour axis of size 1, so
    the generator serves both; SOLO_PLIES of them for the move-by-move
    search, one per placement and per closed square for the attach-square
    search, which needs no moves rows), its table and counters."""

    forbidden: np.ndarray  # (SOLO_PLIES, 1, R) uint64
    corners: np.ndarray  # (SOLO_PLIES, 1, R) uint64
    hand: np.ndarray  # (SOLO_PLIES,) int64
    spare: np.ndarray  # (SOLO_PLIES,) int64
    bonus: np.ndarray  # (SOLO_PLIES,) int64
    started: np.ndarray  # (SOLO_PLIES, 1) int64
    key: np.ndarray  # (SOLO_PLIES,) uint64
    moves: np.ndarray  # (SOLO_PLIES, MAX_MOVES) int32
    region: np.ndarray  # (1, R) uint64 the colour's reach at the solo root
    fits: np.ndarray  # (SOLO_PLIES,) int64 the pieces in hand that fit in the room left at row sd (Params.fit) ...
    witness: np.ndarray  # (SOLO_PLIES, N_PIECES) int32 ... each with a placement inside it
    room: np.ndarray  # (1, R) uint64 work row: the region minus the forbidden squares
    frame: np.ndarray  # (SOLO_PLIES, 6) int64 the search at each row, columns F_*
    table: Table
    ctl: np.ndarray  # (3,) int64 S_NODES, S_BUDGET, S_ABORT
    options: np.ndarray  # (SOLO_PLIES, MAX_OPTIONS) int32 the attach-square search: a node's placements ...
    fill: np.ndarray  # (3, R) uint64 ... its work rows (the reach, scratch, the room) ...
    count: np.ndarray  # (S,) int64 ... and how many legal placements cover each attach square


# -- small helpers -----------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _squares(tb, hand):
    """Squares of the pieces in a hand (a bit mask of pieces)."""
    n = 0
    h = hand
    while h:
        k = ctz(np.uint64(h))
        h &= h - 1
        n += tb.piece_size[k]
    return n


@njit(cache=True, _nrt=False)
def _left(tb, hand, spare):
    """Squares left in hand (``spare``: pieces held twice, Junior)."""
    return _squares(tb, hand) + (_squares(tb, spare) if spare else 0)


@njit(cache=True, _nrt=False)
def _most(tb, sp, hand, spare, room):
    """The most a colour's score can still rise: the room it can cover, or
    everything plus the best bonus still possible."""
    left = _left(tb, hand, spare)
    if room < left:
        return room
    return left + (sp.bonus_mono if hand & 1 else sp.bonus_all)


@njit(cache=True, _nrt=False)
def _most_fit(tb, sp, hand, spare, room, fits):
    """_most, knowing that only the pieces in ``fits`` can still be placed
    (each fits somewhere inside the colour's reach): with one that does
    not, no bonus and at most the squares of those that do."""
    if sp.fit and hand & ~fits:
        return min(room, _left(tb, hand & fits, spare & fits))
    return _most(tb, sp, hand, spare, room)


@njit(cache=True, _nrt=False)
def _score(tb, hand, spare, bonus):
    """Advanced score: the bonus once everything is placed, else minus
    the squares left."""
    return bonus if hand == 0 else -_left(tb, hand, spare)


@njit(cache=True, _nrt=False)
def _take(sp, hand, spare, piece):
    """(hand, spare, bonus) after one copy of a piece left the hand; the
    bonus counts once the hand is empty."""
    bit = np.int64(1) << piece
    if spare & bit:
        return hand, spare & ~bit, 0
    hand &= ~bit
    bonus = 0
    if hand == 0:
        bonus = sp.bonus_mono if piece == MONOMINO else sp.bonus_all
    return hand, spare, bonus


@njit(cache=True, _nrt=False)
def _mix(h):
    """splitmix64's finaliser: a well-spread 64-bit hash step."""
    h ^= h >> np.uint64(30)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(27)
    h *= np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(31)
    return h


@njit(cache=True, _nrt=False)
def _pack(lo, hi, move, work, generation):
    return (np.uint64(lo + VALUE_BIAS) | (np.uint64(hi + VALUE_BIAS) << np.uint64(11))
            | (np.uint64(move + 1) << np.uint64(22)) | (np.uint64(work) << np.uint64(44))
            | (np.uint64(generation) << np.uint64(50)))


@njit(cache=True, _nrt=False)
def _unpack(data):
    lo = np.int64(data & np.uint64(0x7FF)) - VALUE_BIAS
    hi = np.int64((data >> np.uint64(11)) & np.uint64(0x7FF)) - VALUE_BIAS
    move = np.int64((data >> np.uint64(22)) & np.uint64(0x3FFFFF)) - 1
    work = np.int64((data >> np.uint64(44)) & np.uint64(0x3F))
    return lo, hi, move, work


@njit(cache=True, _nrt=False)
def _current(table, data):
    """Whether an entry's data belongs to the current search."""
    return np.int64(data >> np.uint64(50)) == table.generation[0]


@njit(cache=True, _nrt=False)
def _probe(table, key):
    """(found, lo, hi, move) of a key."""
    i = np.int64(key & np.uint64(table.key.shape[0] - 2))
    for j in range(i, i + 2):
        data = table.data[j]
        if table.key[j] ^ data == key and _current(table, data):
            lo, hi, move, _ = _unpack(data)
            return True, lo, hi, move
    return False, -INF, INF, -1


@njit(cache=True, _nrt=False)
def _store(table, key, lo, hi, move, work):
    """Record bounds [lo, hi] of a key (merged with what is known of it):
    slot 0 of the bucket keeps the biggest subtree, slot 1 takes the rest."""
    i = np.int64(key & np.uint64(table.key.shape[0] - 2))
    gen = table.generation[0]
    for j in range(i, i + 2):
        data = table.data[j]
        if table.key[j] ^ data == key and _current(table, data):
            olo, ohi, omove, owork = _unpack(data)
            lo = max(lo, olo)
            hi = min(hi, ohi)
            if move < 0:
                move = omove
            work = max(work, owork)
            data = _pack(lo, hi, move, work, gen)
            table.data[j] = data
            table.key[j] = key ^ data
            return
    data = _pack(lo, hi, move, work, gen)
    _, _, _, work0 = _unpack(table.data[i])
    if not _current(table, table.data[i]):
        work0 = -1
    if work >= work0:
        table.data[i + 1] = table.data[i]
        table.key[i + 1] = table.key[i]
        j = i
    else:
        j = i + 1
    table.data[j] = data
    table.key[j] = key ^ data


@njit(cache=True, _nrt=False)
def _bits(x):
    """Bit length of a non-negative int (the work of a subtree, log2 nodes)."""
    n = 0
    while x and n < 63:
        x >>= 1
        n += 1
    return n


# -- move generation and make ------------------------------------------------------
@njit(cache=True, _nrt=False)
def _closed(tb, forbidden, d, c, s):
    """Which edge neighbours of square s colour c may not cover (4 bits,
    the pattern index of the covering lists)."""
    f = 0
    for i in range(4):
        n = tb.neighbour[s, i]
        if n >= 0 and (forbidden[d, c, n >> 6] >> np.uint64(n & 63)) & ONE:
            f |= 1 << i
    return f


@njit(cache=True, _nrt=False)
def _generate(tb, forbidden, corners, d, c, hand, mem, out, od):
    """Write the legal placements of colour c (row d of the stacks) into
    out[od]; returns how many (MAX_MOVES + 1: too many). Each is listed
    once, from the first of its attach squares, bigger pieces first."""
    nw = tb.n_words
    stamp = mem.stamp[0] + 1
    mem.stamp[0] = stamp
    n = 0
    for w in range(nw):
        a = corners[d, c, w] & ~forbidden[d, c, w]
        while a:
            s = w * 64 + ctz(a)
            a &= a - ONE
            base = s * N_PIECES * 16 + _closed(tb, forbidden, d, c, s)
            for k in range(N_PIECES - 1, -1, -1):
                if not (hand >> k) & 1:
                    continue
                i = base + k * 16
                for j in range(tb.cover_start[i], tb.cover_start[i + 1]):
                    x = tb.cover_word[j]
                    if (tb.cover_mask[j, 0] & forbidden[d, c, x]) | (tb.cover_mask[j, 1] & forbidden[d, c, x + 1]) \
                            | (tb.cover_mask[j, 2] & forbidden[d, c, x + 2]):
                        continue
                    p = tb.cover[j]
                    if mem.mark[p] == stamp:
                        continue
                    mem.mark[p] = stamp
                    if n == MAX_MOVES:
                        return MAX_MOVES + 1
                    out[od, n] = p
                    n += 1
    return n


@njit(cache=True, _nrt=False)
def _has_move(tb, forbidden, corners, d, c, hand):
    """Whether colour c has a legal placement (row d)."""
    nw = tb.n_words
    for w in range(nw):
        a = corners[d, c, w] & ~forbidden[d, c, w]
        while a:
            s = w * 64 + ctz(a)
            a &= a - ONE
            base = s * N_PIECES * 16 + _closed(tb, forbidden, d, c, s)
            h = hand
            while h:
                k = ctz(np.uint64(h))
                h &= h - 1
                i = base + k * 16
                for j in range(tb.cover_start[i], tb.cover_start[i + 1]):
                    x = tb.cover_word[j]
                    if not ((tb.cover_mask[j, 0] & forbidden[d, c, x]) | (tb.cover_mask[j, 1] & forbidden[d, c, x + 1])
                            | (tb.cover_mask[j, 2] & forbidden[d, c, x + 2])):
                        return True
    return False


@njit(cache=True, _nrt=False)
def _place(tb, forbidden, corners, started, e, c, p):
    """Colour c's own rows at row e after it placed p (rows already copied):
    its forbidden squares grow by p's edge ring, its attach candidates by
    p's corners (they replace its start squares at its first piece)."""
    y = tb.ring_word[p]
    if not started[e, c]:
        for w in range(tb.n_words):
            corners[e, c, w] = ZERO
        started[e, c] = 1
    for k in range(4):
        forbidden[e, c, y + k] |= tb.edge[p, k]
        corners[e, c, y + k] |= tb.corner[p, k]


@njit(cache=True, _nrt=False)
def _make(tb, sp, st, d, c, p):
    """Row d + 1 of the stack: row d after colour c placed p (the key
    included; whose turn it is next is left to _next_to_move)."""
    e = d + 1
    nw = tb.n_words
    for o in range(4):
        for w in range(nw):
            st.forbidden[e, o, w] = st.forbidden[d, o, w]
            st.corners[e, o, w] = st.corners[d, o, w]
        st.hand[e, o] = st.hand[d, o]
        st.spare[e, o] = st.spare[d, o]
        st.bonus[e, o] = st.bonus[d, o]
        st.started[e, o] = st.started[d, o]
    st.skip[e] = st.skip[d]
    st.gain[e] = st.gain[d]
    st.reach_ok[e] = 0
    x = tb.mask_word[p]
    for o in range(4):
        for k in range(3):
            st.forbidden[e, o, x + k] |= tb.mask[p, k]
    _place(tb, st.forbidden, st.corners, st.started, e, c, p)
    st.key[e] = _child_key(tb, st, d, c, p)
    st.hand[e, c], st.spare[e, c], st.bonus[e, c] = _take(sp, st.hand[d, c], st.spare[d, c], tb.piece[p])
    st.last[e] = c


@njit(cache=True, _nrt=False)
def _child_key(tb, st, d, c, p):
    """The key after colour c placed p at row d (without making the move)."""
    key = st.key[d] ^ tb.zobrist[c, p] ^ tb.zlast[st.last[d]] ^ tb.zlast[c]
    piece = tb.piece[p]
    if piece == MONOMINO and st.hand[d, c] == 1 and st.spare[d, c] == 0:
        key ^= tb.zmono[c]
    return key


@njit(cache=True, _nrt=False)
def _next_to_move(tb, st, d, after):
    """The next colour in rotation after ``after`` that has a legal move
    (the mover itself last), -1 when nobody has; colours found without a
    move join the row's skip mask (they never move again)."""
    for i in range(1, 5):
        o = (after + i) & 3
        bit = np.int64(1) << o
        if st.skip[d] & bit:
            continue
        if st.hand[d, o] and _has_move(tb, st.forbidden, st.corners, d, o, st.hand[d, o]):
            return o
        st.skip[d] |= bit
    return -1


@njit(cache=True, _nrt=False)
def _final(tb, st, sp, d):
    """The value of a finished game at row d (settled colours' gains included)."""
    v = st.gain[d]
    for c in range(4):
        w = sp.weight[c]
        if w:
            v += w * _score(tb, st.hand[d, c], st.spare[d, c], st.bonus[d, c])
    return v


# -- settling: reaches and solo optima -------------------------------------------
@njit(cache=True, _nrt=False)
def _reach(tb, sp, st, d, o):
    """scratch[o] = colour o's reach at row d (see the module docstring)."""
    nw = tb.n_words
    sc = st.scratch
    for w in range(nw):
        free = tb.open[0, w] & ~st.forbidden[d, o, w]
        sc[4, w] = free
        sc[o, w] = st.corners[d, o, w] & free
    steps = _left(tb, st.hand[d, o], st.spare[d, o]) - 1
    if steps > 0:
        king_fill(sc, o, sc, 5, sc, 4, tb.not_left, tb.not_right, tb.width, nw, steps)
    if sp.reach and popcount(np.uint64(st.hand[d, o])) + popcount(np.uint64(st.spare[d, o])) <= sp.reach:
        for w in range(nw):
            sc[5, w] = st.corners[d, o, w]
        piece_reach(tb, sc, o, st.hand[d, o], st.spare[d, o], 6, 5, 7, 8, 4)


@njit(cache=True, _nrt=False)
def _fits(tb, st, d, o):
    """st.fits[d, o] = the pieces of colour o's hand with a placement inside
    its reach scratch[o] (each with one in st.witness[d, o]). A reach never
    grows down the tree (the squares a colour may cover only shrink, and
    its own move spends as many steps as it covers), so only the pieces
    that fitted at row d - 1 are tried, first at their placement there."""
    sc = st.scratch
    bit = np.int64(1) << o
    hand = st.hand[d, o]
    parent = d > 0 and st.reach_ok[d - 1] & bit
    todo = st.fits[d - 1, o] & hand if parent else hand
    fits = 0
    while todo:
        k = ctz(np.uint64(todo))
        todo &= todo - 1
        if parent:
            p = st.witness[d - 1, o, k]
            x = tb.mask_word[p]
            if not ((tb.mask[p, 0] & ~sc[o, x]) | (tb.mask[p, 1] & ~sc[o, x + 1]) | (tb.mask[p, 2] & ~sc[o, x + 2])):
                st.witness[d, o, k] = p
                fits |= np.int64(1) << k
                continue
        p = find_fit(tb, sc, o, k)
        if p >= 0:
            st.witness[d, o, k] = p
            fits |= np.int64(1) << k
    st.fits[d, o] = fits


@njit(cache=True, _nrt=False)
def _kept_reaches(tb, st, d):
    """The colours whose reach at row d is their reach at row d - 1: known
    there, not the colour that moved, and not touched by its piece (squares
    outside a reach cannot change it, nor its legal moves)."""
    kept = 0
    if d == 0:
        return kept
    c = st.last[d]
    p = st.moves[d - 1, st.next[d - 1]]
    x = tb.mask_word[p]
    for o in range(4):
        bit = np.int64(1) << o
        if o == c or not st.reach_ok[d - 1] & bit:
            continue
        if not ((tb.mask[p, 0] & st.reach[d - 1, o, x]) | (tb.mask[p, 1] & st.reach[d - 1, o, x + 1])
                | (tb.mask[p, 2] & st.reach[d - 1, o, x + 2])):
            kept |= bit
    return kept


@njit(cache=True, _nrt=False)
def _outlook(tb, st, sp, so, mem, ctl, d, alpha, beta):
    """Settle the colours at row d that no longer interact (take them out
    of the rotation, booking their solo gains) and return proven bounds
    (lo, hi) of the value (tightened by _tighten when that can refute the
    window (alpha, beta)). A colour's settling solo search runs only while
    the bounds do not refute the window yet."""
    nw = tb.n_words
    sc = st.scratch
    live = 0
    st.reach_ok[d] = 0
    kept = _kept_reaches(tb, st, d)
    for o in range(4):
        bit = np.int64(1) << o
        if st.skip[d] & bit:
            continue
        if kept & bit:
            for w in range(nw):
                sc[o, w] = st.reach[d - 1, o, w]
                st.reach[d, o, w] = sc[o, w]
            if sp.fit:
                fits = st.fits[d - 1, o]
                st.fits[d, o] = fits
                while fits:
                    k = ctz(np.uint64(fits))
                    fits &= fits - 1
                    st.witness[d, o, k] = st.witness[d - 1, o, k]
            st.reach_ok[d] |= bit
            live |= bit
            continue
        if st.hand[d, o] == 0 or not _has_move(tb, st.forbidden, st.corners, d, o, st.hand[d, o]):
            st.skip[d] |= bit  # never a move again
            continue
        _reach(tb, sp, st, d, o)
        ctl[C_REACHES] += 1
        for w in range(nw):
            st.reach[d, o, w] = sc[o, w]
        if sp.fit:
            _fits(tb, st, d, o)
        st.reach_ok[d] |= bit
        empty = True
        for w in range(nw):
            if sc[o, w]:
                empty = False
                break
        if empty:
            st.skip[d] |= bit  # no attach square left: never a move again
        else:
            live |= bit
    for o in range(4):
        bit = np.int64(1) << o
        if not live & bit:
            continue
        alone = True
        for q in range(4):
            if q != o and live & (np.int64(1) << q):
                for w in range(nw):
                    if sc[o, w] & sc[q, w]:
                        alone = False
                        break
        if not alone:
            continue
        if sp.weight[o] == 0:
            st.skip[d] |= bit  # plays alone and does not count: out of the tree
            ctl[C_SETTLED] += 1
            continue
        lo, hi = _bounds(tb, st, sp, d)
        if hi <= alpha or lo >= beta:  # refuted without this solo search (nor the rest)
            return _outlook_bounds(st, d, lo, hi)
        ok, value = _solo_value(tb, sp, st, so, mem, ctl, d, o, False)
        if ok:
            st.skip[d] |= bit
            st.gain[d] += sp.weight[o] * (value - _score(tb, st.hand[d, o], st.spare[d, o], st.bonus[d, o]))
            ctl[C_SETTLED] += 1
    lo, hi = _bounds(tb, st, sp, d)
    if d + sp.root_ply <= sp.tight:
        lo, hi = _tighten(tb, st, sp, so, mem, ctl, d, live, lo, hi, alpha, beta)
        if hi <= alpha or lo >= beta:
            ctl[C_BOUND_CUTS] += 1
    if d + sp.root_ply <= sp.private and lo < beta and hi > alpha:
        lo, hi = _private(tb, st, sp, so, mem, ctl, d, live, lo, hi, alpha, beta)
        if hi <= alpha or lo >= beta:
            ctl[C_PRIVATE_CUTS] += 1
    return _outlook_bounds(st, d, lo, hi)


@njit(cache=True, _nrt=False)
def _outlook_bounds(st, d, lo, hi):
    """Keep the outlook's bounds (lo, hi) of row d (the mover's bound reads
    them) and return them."""
    st.bound[d, 0] = lo
    st.bound[d, 1] = hi
    st.bound[d, 2] = 1
    return lo, hi


@njit(cache=True, _nrt=False)
def _tighten(tb, st, sp, so, mem, ctl, d, live, lo, hi, alpha, beta):
    """Bounds (lo, hi) of row d tightened by the solo optima of colours
    that still interact: a colour ends at most at its solo optimum with the
    others frozen where they are (they only take squares away from it; its
    reach, scratch[o], bounds where it can play), which is often far below
    _most (that books the whole bonus once the room is as big as the
    squares left). A solo search runs only while the side it tightens can
    still refute the window: hi down to alpha, lo up to beta."""
    nw = tb.n_words
    sc = st.scratch
    if sp.tight_ratio and ctl[C_BOUND_NODES] > sp.tight_ratio * ctl[C_NODES]:
        return lo, hi  # the bound searches have cost enough for now
    for side in range(2):  # 0: the maximisers' colours lower hi, 1: the minimisers' raise lo
        if side == 0 and hi <= alpha or side == 1 and lo >= beta:
            continue
        shave = 0  # the most the side's colours can take off
        for o in range(4):
            bit = np.int64(1) << o
            w = sp.weight[o]
            if w == 0 or (w > 0) != (side == 0) or not live & bit or st.skip[d] & bit:
                continue
            shave += abs(w) * _most_fit(tb, sp, st.hand[d, o], st.spare[d, o], count(sc, o, nw), st.fits[d, o])
        if (hi - shave > alpha) if side == 0 else (lo + shave < beta):
            continue  # even solo optima no better than now would not refute the window
        for o in range(4):
            bit = np.int64(1) << o
            w = sp.weight[o]
            if w == 0 or (w > 0) != (side == 0) or not live & bit or st.skip[d] & bit:
                continue
            if sp.tight_pieces and popcount(np.uint64(st.hand[d, o])) > sp.tight_pieces:
                continue
            now = _score(tb, st.hand[d, o], st.spare[d, o], st.bonus[d, o])
            up = _most_fit(tb, sp, st.hand[d, o], st.spare[d, o], count(sc, o, nw), st.fits[d, o])
            need = hi - alpha if side == 0 else beta - lo  # what is left to take off, in value
            a = abs(w)
            t = max(now, now + up - (need + a - 1) // a)  # this colour alone at t would do
            ok, value = _solo_bound(tb, sp, st, so, mem, ctl, d, o, t)
            st.solo_key[d, o] = so.key[0]  # its children's entries bound the colour after each of its moves
            st.solo_ok[d] |= bit
            if ok and value - now < up:
                if side == 0:
                    hi -= w * (up - (value - now))
                else:
                    lo -= w * (up - (value - now))
                st.up[d, o] = value - now
            if hi <= alpha if side == 0 else lo >= beta:
                break
    return lo, hi


@njit(cache=True, _nrt=False)
def _private(tb, st, sp, so, mem, ctl, d, live, lo, hi, alpha, beta):
    """Bounds (lo, hi) of row d raised (for a colour that counts for the
    maximisers; lowered for one that counts for the minimisers) by what the
    colour makes sure of alone: no other colour can ever cover a square of
    its reach that their reaches miss, so its placements inside that part
    stay legal whatever they do, and playing its solo optimum there first
    is a line it can always follow. A solo search (memoised with the
    settling ones) runs only where the part's size could refute the window."""
    nw = tb.n_words
    sc = st.scratch
    for o in range(4):
        bit = np.int64(1) << o
        w = sp.weight[o]
        if w == 0 or not live & bit or st.skip[d] & bit or (lo >= beta if w > 0 else hi <= alpha):
            continue
        room = 0
        for x in range(nw):
            r = sc[o, x]
            for q in range(4):
                if q != o and live & (np.int64(1) << q):
                    r &= ~sc[q, x]
            sc[4, x] = r
            room += popcount(r)
        if room == 0:
            continue
        now = _score(tb, st.hand[d, o], st.spare[d, o], st.bonus[d, o])
        up = _most_fit(tb, sp, st.hand[d, o], st.spare[d, o], room, st.fits[d, o])
        if (lo + w * up < beta) if w > 0 else (hi + w * up > alpha):
            continue  # even all of it would not refute the window
        for x in range(nw):
            sc[o, x] = sc[4, x]
        ok, v = _solo_value(tb, sp, st, so, mem, ctl, d, o, True)
        for x in range(nw):
            sc[o, x] = st.reach[d, o, x]
        if ok and v > now:
            if w > 0:
                lo += w * (v - now)
            else:
                hi += w * (v - now)
    return lo, hi


@njit(cache=True, _nrt=False)
def _bounds(tb, st, sp, d):
    """(lo, hi) of the value at row d: settled gains are booked, a colour
    out of the rotation keeps its score, the others gain 0 to _most."""
    lo = st.gain[d]
    hi = st.gain[d]
    for o in range(4):
        w = sp.weight[o]
        if w == 0:
            continue
        now = _score(tb, st.hand[d, o], st.spare[d, o], st.bonus[d, o])
        up = 0
        if not st.skip[d] & (np.int64(1) << o):
            up = _most_fit(tb, sp, st.hand[d, o], st.spare[d, o], count(st.scratch, o, tb.n_words), st.fits[d, o])
        st.up[d, o] = up
        if w > 0:
            lo += w * now
            hi += w * (now + up)
        else:
            lo += w * (now + up)
            hi += w * now
    return lo, hi


@njit(cache=True, _nrt=False)
def _solo_root(tb, sp, st, so, d, o):
    """Solo row 0 from colour o at row d inside its reach scratch[o];
    returns the memo key (the colour, its hand and the reach's contents)."""
    nw = tb.n_words
    sc = st.scratch
    h = SOLO_SALT ^ _mix(np.uint64(o + 1) ^ (np.uint64(st.hand[d, o]) << np.uint64(3)))
    h = _mix(h ^ np.uint64(st.spare[d, o]))
    for w in range(nw):
        r = sc[o, w]
        so.region[0, w] = r
        so.forbidden[0, 0, w] = st.forbidden[d, o, w]
        so.corners[0, 0, w] = st.corners[d, o, w]
        h = _mix(h ^ r)
        h = _mix(h ^ (st.forbidden[d, o, w] & r))
        h = _mix(h ^ (st.corners[d, o, w] & r & ~st.forbidden[d, o, w]))
    so.hand[0] = st.hand[d, o]
    so.fits[0] = st.hand[d, o]
    if sp.fit:
        fits = st.fits[d, o]
        so.fits[0] = fits
        while fits:
            k = ctz(np.uint64(fits))
            fits &= fits - 1
            so.witness[0, k] = st.witness[d, o, k]
    so.spare[0] = st.spare[d, o]
    so.bonus[0] = st.bonus[d, o]
    so.started[0, 0] = st.started[d, o]
    so.key[0] = h
    return h


@njit(cache=True, _nrt=False)
def _solo_value(tb, sp, st, so, mem, ctl, d, o, inside):
    """(found, final score) of colour o playing alone from row d inside its
    reach scratch[o] (``inside``: a region its placements must keep to, not
    a reach they cannot leave); memoised on the colour, its hand and the
    contents of the region (the same for both: inside a reach, every
    placement keeps to it); a search that gives up is remembered too."""
    h = _solo_root(tb, sp, st, so, d, o)
    if inside:
        for w in range(tb.n_words):
            so.forbidden[0, 0, w] |= tb.open[0, w] & ~st.scratch[o, w]
    found, lo, hi, _ = _probe(so.table, h)
    if found and lo == hi:
        return True, lo
    found, _, _, _ = _probe(so.table, h ^ GAVE_UP)
    if found:
        return False, 0
    so.ctl[S_NODES] = 0
    so.ctl[S_ABORT] = 0
    attach = sp.solo_attach and st.spare[d, o] == 0
    value = _solo_search(tb, sp, so, mem, o, -INF, attach)
    if attach and not so.ctl[S_ABORT]:
        _store(so.table, h, value, value, -1, 0)  # the attach-square search keeps no table of its own
    ctl[C_SOLO_NODES] += so.ctl[S_NODES]
    ctl[C_SOLO_RUNS] += 1
    if so.ctl[S_ABORT]:
        _store(so.table, h ^ GAVE_UP, 0, 0, -1, 63)
        return False, 0
    return True, value


@njit(cache=True, _nrt=False)
def _solo_bound(tb, sp, st, so, mem, ctl, d, o, t):
    """(found, an upper bound of colour o's solo optimum from row d inside
    its reach scratch[o]), searched only as far as needed to tell whether
    it is at most t: at most t, or the exact optimum above t. Shares the
    memo of _solo_value (its entries are bounds of the same positions)."""
    ctl[C_BOUND_CALLS] += 1
    h = _solo_root(tb, sp, st, so, d, o)
    found, lo, hi, _ = _probe(so.table, h)
    if found and (lo == hi or hi <= t):
        return True, hi
    found, _, _, _ = _probe(so.table, h ^ GAVE_UP)
    if found:
        return False, 0
    found, _, _, _ = _probe(so.table, h ^ BOUND_GAVE_UP)
    if found:
        return False, 0
    so.ctl[S_NODES] = 0
    so.ctl[S_ABORT] = 0
    budget = so.ctl[S_BUDGET]
    so.ctl[S_BUDGET] = sp.tight_budget
    value = _solo_search(tb, sp, so, mem, o, t, 0)
    so.ctl[S_BUDGET] = budget
    ctl[C_SOLO_NODES] += so.ctl[S_NODES]
    ctl[C_SOLO_RUNS] += 1
    ctl[C_BOUND_RUNS] += 1
    ctl[C_BOUND_NODES] += so.ctl[S_NODES]
    if so.ctl[S_ABORT]:
        _store(so.table, h ^ BOUND_GAVE_UP, 0, 0, -1, 63)
        return False, 0
    return True, value


@njit(cache=True, _nrt=False)
def _solo_make(tb, sp, so, sd, c, p):
    """Solo row sd + 1: row sd after the colour placed p."""
    e = sd + 1
    for w in range(tb.n_words):
        so.forbidden[e, 0, w] = so.forbidden[sd, 0, w]
        so.corners[e, 0, w] = so.corners[sd, 0, w]
    so.started[e, 0] = so.started[sd, 0]
    x = tb.mask_word[p]
    for k in range(3):
        so.forbidden[e, 0, x + k] |= tb.mask[p, k]
    _place(tb, so.forbidden, so.corners, so.started, e, 0, p)
    so.hand[e], so.spare[e], so.bonus[e] = _take(sp, so.hand[sd], so.spare[sd], tb.piece[p])
    so.key[e] = so.key[sd] ^ tb.zobrist[c, p]
    if sp.fit >= 2:
        _solo_fits(tb, so, e)
    else:
        so.fits[e] = so.fits[sd] & so.hand[e]  # those that did not fit at the solo root never will


@njit(cache=True, _nrt=False)
def _solo_fits(tb, so, e):
    """so.fits[e]: the pieces of row sd = e - 1 that fitted there and still
    fit inside the room left at row e (the region minus its forbidden
    squares), first tried at their placement there."""
    nw = tb.n_words
    for w in range(nw):
        so.room[0, w] = so.region[0, w] & ~so.forbidden[e, 0, w]
    todo = so.fits[e - 1] & so.hand[e]
    fits = 0
    r = so.room
    while todo:
        k = ctz(np.uint64(todo))
        todo &= todo - 1
        p = so.witness[e - 1, k]
        x = tb.mask_word[p]
        if not ((tb.mask[p, 0] & ~r[0, x]) | (tb.mask[p, 1] & ~r[0, x + 1]) | (tb.mask[p, 2] & ~r[0, x + 2])):
            so.witness[e, k] = p
            fits |= np.int64(1) << k
            continue
        p = find_fit(tb, r, 0, k)
        if p >= 0:
            so.witness[e, k] = p
            fits |= np.int64(1) << k
    so.fits[e] = fits


@njit(cache=True, _nrt=False)
def _solo_enter(tb, sp, so, mem, sd):
    """A new solo node at row sd: (done, value) when known at once, else
    its moves and frame are set up."""
    alpha = so.frame[sd, F_ALPHA]
    hand = so.hand[sd]
    if hand == 0:
        return True, so.bonus[sd]
    now = -_left(tb, hand, so.spare[sd])
    key = so.key[sd]
    found, lo, hi, _ = _probe(so.table, key)
    if found:
        if lo == hi or hi <= alpha:
            return True, hi
        if lo - 1 > alpha:
            alpha = lo - 1
    room = 0
    for w in range(tb.n_words):
        room += popcount(so.region[0, w] & ~so.forbidden[sd, 0, w])
    top = now + _most_fit(tb, sp, hand, so.spare[sd], room, so.fits[sd])
    if top <= alpha:
        return True, top
    n = _generate(tb, so.forbidden, so.corners, sd, 0, hand, mem, so.moves, sd)
    if n == 0:
        _store(so.table, key, now, now, -1, 0)
        return True, now
    so.frame[sd, F_ALPHA] = alpha
    so.frame[sd, F_TOP] = top
    so.frame[sd, F_BEST] = -INF
    so.frame[sd, F_N] = n
    so.frame[sd, F_NEXT] = 0
    return False, 0


@njit(cache=True, _nrt=False)
def _solo_search(tb, sp, so, mem, c, alpha, attach):
    """The best final score of colour c alone from solo row 0 (a max-only
    alpha search: a value above a node's alpha is exact, one at or below it
    an upper bound; ``alpha``: the root's). Gives up (S_ABORT) after the
    node budget. Move by move (``attach`` 0): a node tries each legal move,
    with a table of its own. By attach squares (``attach`` 1, not for
    Junior's pieces held twice): a node takes the attach square covered by
    the fewest legal placements, and either one of them covers it or the
    colour never will (the square is closed to it); every set of
    placements is met once, in one order (so no table below the root; the
    play order is recovered where the monomino's bonus needs it), and each
    node is bounded by the colour's reach and the pieces that still fit in
    it (_attach_enter)."""
    sd = 0
    mode = ENTER
    value = 0
    so.frame[0, F_ALPHA] = alpha
    while True:
        if mode == ENTER:
            so.ctl[S_NODES] += 1
            if so.ctl[S_NODES] > so.ctl[S_BUDGET]:
                so.ctl[S_ABORT] = 1
                return 0
            if attach:
                done, value = _attach_enter(tb, sp, so, mem, sd)
                if so.ctl[S_ABORT]:
                    return 0
            else:
                done, value = _solo_enter(tb, sp, so, mem, sd)
            mode = RETURN if done else NEXT
        elif mode == NEXT:
            i = so.frame[sd, F_NEXT]
            if attach:
                last = i == so.frame[sd, F_N] - 1
                _attach_make(tb, sp, so, sd, -1 if last else so.options[sd, i], so.frame[sd, F_SQ])
            else:
                _solo_make(tb, sp, so, sd, c, so.moves[sd, i])
            so.frame[sd + 1, F_ALPHA] = max(so.frame[sd, F_ALPHA], so.frame[sd, F_BEST])
            sd += 1
            mode = ENTER
        else:
            if sd == 0:
                return value
            sd -= 1
            if value > so.frame[sd, F_BEST]:
                so.frame[sd, F_BEST] = value
            nxt = so.frame[sd, F_NEXT] + 1
            best = so.frame[sd, F_BEST]
            if best >= so.frame[sd, F_TOP] or nxt >= so.frame[sd, F_N]:
                if not attach:
                    if best > so.frame[sd, F_ALPHA]:
                        _store(so.table, so.key[sd], best, best, -1, 0)
                    else:
                        _store(so.table, so.key[sd], -INF, best, -1, 0)
                value = best
            else:
                so.frame[sd, F_NEXT] = nxt
                mode = NEXT


@njit(cache=True, _nrt=False)
def _attach_make(tb, sp, so, sd, p, close):
    """Attach-square search row sd + 1: row sd after the colour placed p,
    or (p < 0) with square ``close`` closed to it for good."""
    e = sd + 1
    for w in range(tb.n_words):
        so.forbidden[e, 0, w] = so.forbidden[sd, 0, w]
        so.corners[e, 0, w] = so.corners[sd, 0, w]
    so.started[e, 0] = so.started[sd, 0]
    so.spare[e] = 0
    if p < 0:
        so.forbidden[e, 0, close >> 6] |= ONE << np.uint64(close & 63)
        so.hand[e], so.bonus[e] = so.hand[sd], so.bonus[sd]
        return
    x = tb.mask_word[p]
    for k in range(3):
        so.forbidden[e, 0, x + k] |= tb.mask[p, k]
    _place(tb, so.forbidden, so.corners, so.started, e, 0, p)
    so.hand[e], _, so.bonus[e] = _take(sp, so.hand[sd], 0, tb.piece[p])


@njit(cache=True, _nrt=False)
def _attach_bonus(tb, sp, so, sd):
    """The bonus of a hand emptied by the attach-square search at row sd:
    the monomino's only when it was placed in this search and every other
    piece placed here joins the colour's pieces of the solo root without
    it (then it can be played last; the search's order is not the play
    order)."""
    if not so.hand[0] & 1:
        return sp.bonus_all
    nw = tb.n_words
    f = so.fill
    for w in range(nw):
        f[0, w] = so.corners[0, 0, w]  # what joins the pieces of the solo root
    placed = so.moves[1]  # the other pieces placed in this search (a leaf generates no moves)
    n = 0
    for r in range(sd):
        i = so.frame[r, F_NEXT]
        if i < so.frame[r, F_N] - 1 and tb.piece[so.options[r, i]] != MONOMINO:
            placed[n] = so.options[r, i]
            n += 1
    todo = (np.int64(1) << n) - 1  # those not joined yet
    grew = True
    while todo and grew:
        grew = False
        t = todo
        while t:
            r = ctz(np.uint64(t))
            t &= t - 1
            q = placed[r]
            x = tb.mask_word[q]
            if (tb.mask[q, 0] & f[0, x]) | (tb.mask[q, 1] & f[0, x + 1]) | (tb.mask[q, 2] & f[0, x + 2]):
                y = tb.ring_word[q]
                for k in range(4):
                    f[0, y + k] |= tb.corner[q, k]
                todo &= ~(np.int64(1) << r)
                grew = True
    return sp.bonus_all if todo else sp.bonus_mono


@njit(cache=True, _nrt=False)
def _attach_enter(tb, sp, so, mem, sd):
    """A new node of the attach-square search at row sd: (done, value) when
    known at once (an emptied hand, no move left, or the bound below the
    node's alpha), else the attach square it decides (of the colour's legal
    placements, the one covered by the fewest) and their options."""
    alpha = so.frame[sd, F_ALPHA]
    hand = so.hand[sd]
    if hand == 0:
        return True, so.bonus[0] if sd == 0 else _attach_bonus(tb, sp, so, sd)
    nw = tb.n_words
    f = so.fill
    for w in range(nw):
        room = so.region[0, w] & ~so.forbidden[sd, 0, w]
        f[2, w] = room
        f[0, w] = so.corners[sd, 0, w] & room
    left = _squares(tb, hand)
    if left > 1:
        king_fill(f, 0, f, 1, f, 2, tb.not_left, tb.not_right, tb.width, nw, left - 1)
    todo = (so.fits[sd - 1] if sd > 0 else so.fits[0]) & hand  # the reach only shrinks down the search
    fits = 0
    while todo:
        k = ctz(np.uint64(todo))
        todo &= todo - 1
        q = so.witness[sd - 1, k] if sd > 0 else -1
        if q >= 0:
            x = tb.mask_word[q]
            if (tb.mask[q, 0] & ~f[0, x]) | (tb.mask[q, 1] & ~f[0, x + 1]) | (tb.mask[q, 2] & ~f[0, x + 2]):
                q = -1
        if q < 0:
            q = find_fit(tb, f, 0, k)
        if q >= 0:
            so.witness[sd, k] = q
            fits |= np.int64(1) << k
    so.fits[sd] = fits
    room = count(f, 0, nw)
    now = -left
    if hand & ~fits:
        top = now + min(room, _squares(tb, hand & fits))
    elif room < left:
        top = now + room
    else:  # everything may still fit: the best bonus this search can give
        top = sp.bonus_mono if so.hand[0] & 1 else sp.bonus_all
    if top <= alpha:
        return True, top
    n = _generate(tb, so.forbidden, so.corners, sd, 0, hand, mem, so.moves, 0)
    if n > MAX_MOVES:
        so.ctl[S_ABORT] = 1
        return True, 0
    if n == 0:
        return True, now
    moves = so.moves
    for i in range(n):  # count the placements covering each attach square ...
        q = moves[0, i]
        x = tb.mask_word[q]
        for k in range(3):
            a = tb.mask[q, k] & so.corners[sd, 0, x + k]
            while a:
                so.count[(x + k) * 64 + ctz(a)] += 1
                a &= a - ONE
    best, square = MAX_MOVES + 1, -1
    for i in range(n):  # ... take the fewest, and reset the counts
        q = moves[0, i]
        x = tb.mask_word[q]
        for k in range(3):
            a = tb.mask[q, k] & so.corners[sd, 0, x + k]
            while a:
                t = (x + k) * 64 + ctz(a)
                a &= a - ONE
                if so.count[t]:
                    if so.count[t] < best:
                        best, square = so.count[t], t
                    so.count[t] = 0
    if best > MAX_OPTIONS:
        so.ctl[S_ABORT] = 1
        return True, 0
    m = 0
    w, bit = square >> 6, ONE << np.uint64(square & 63)
    for size in range(5, 0, -1):  # its placements, bigger pieces first
        for i in range(n):
            q = moves[0, i]
            x = tb.mask_word[q]
            if tb.size[q] == size and w >= x and w < x + 3 and tb.mask[q, w - x] & bit:
                so.options[sd, m] = q
                m += 1
    so.frame[sd, F_ALPHA] = alpha
    so.frame[sd, F_TOP] = top
    so.frame[sd, F_BEST] = -INF
    so.frame[sd, F_N] = m + 1  # and last: the square closed to the colour
    so.frame[sd, F_NEXT] = 0
    so.frame[sd, F_SQ] = square
    return False, 0


# -- the search ---------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _eval(tb, sp, st, d, c, p):
    """A move's static worth for ordering: the other side's live attach
    squares it covers (twice) and the attach squares of its own it opens."""
    x = tb.mask_word[p]
    taken = 0
    for o in range(4):
        if sp.maximiser[o] == sp.maximiser[c] or st.hand[d, o] == 0:
            continue
        for k in range(3):
            taken += popcount(tb.mask[p, k] & st.corners[d, o, x + k] & ~st.forbidden[d, o, x + k])
    y = tb.ring_word[p]
    gain = 0
    for k in range(4):
        gain += popcount(tb.corner[p, k] & ~st.forbidden[d, c, y + k])
    return 2 * taken + gain


@njit(cache=True, _nrt=False)
def _other_side(sp, st, d, c):
    """The first colour after c in rotation on the other side (the other
    way to maximise) that is still in play at row d, -1 when none is."""
    for i in range(1, 4):
        o = (c + i) & 3
        if sp.maximiser[o] != sp.maximiser[c] and st.hand[d, o] and not st.skip[d] & (np.int64(1) << o):
            return o
    return -1


@njit(cache=True, _nrt=False)
def _replies(tb, st, mem, d, o, p):
    """How many legal moves colour o has once placement p (another
    colour's) is on the board at row d: only o's forbidden squares change,
    so only o's rows are written into row d + 1, which is free until the
    search makes a child there."""
    e = d + 1
    for w in range(tb.n_words):
        st.forbidden[e, o, w] = st.forbidden[d, o, w]
        st.corners[e, o, w] = st.corners[d, o, w]
    x = tb.mask_word[p]
    for k in range(3):
        st.forbidden[e, o, x + k] |= tb.mask[p, k]
    return _generate(tb, st.forbidden, st.corners, e, o, st.hand[d, o], mem, st.moves, e)


@njit(cache=True, _nrt=False)
def _order(tb, sp, st, mem, d, c, n, tt_move):
    """Ordering scores of the n moves at row d: the table's move, then the
    killers, then the history of cut-offs, then bigger pieces (and, on rows
    up to ``order_eval`` plies down, the static evaluation: a square of
    piece size counts as much as two squares taken from the other side).
    On rows up to ``order_mobility`` plies down, after the table's move and
    the killers, the moves that leave the next colour of the other side
    the fewest legal moves come first (fastest first, as endgame solvers of
    Othello order), bigger pieces among equals."""
    k0 = st.killers[d, 0]
    k1 = st.killers[d, 1]
    scored = d + sp.root_ply <= sp.order_eval
    other = _other_side(sp, st, d, c) if 0 < sp.order_mobility and d + sp.root_ply <= sp.order_mobility else -1
    for i in range(n):
        p = st.moves[d, i]
        if p == tt_move:
            s = np.int64(1) << 60
        elif p == k0:
            s = np.int64(1) << 59
        elif p == k1:
            s = np.int64(1) << 58
        elif other >= 0:
            s = np.int64(MAX_MOVES + 1 - _replies(tb, st, mem, d, other, p)) * 8 + tb.size[p]
        elif scored:
            s = mem.history[c, p] * 32 + tb.size[p] * 4 + _eval(tb, sp, st, d, c, p)
        else:
            s = mem.history[c, p] * 8 + tb.size[p]
            if sp.helper and d < 3:
                s = -s
        st.order[d, i] = s


@njit(cache=True, _nrt=False)
def _etc(tb, st, tt, d, c, n, maximising, alpha, beta):
    """Enhanced transposition cut-off: a child whose table bounds already
    refute the window. Returns (found, value)."""
    for i in range(n):
        p = st.moves[d, i]
        found, lo, hi, _ = _probe(tt, _child_key(tb, st, d, c, p))
        if found:
            if maximising and lo >= beta:
                return True, lo
            if not maximising and hi <= alpha:
                return True, hi
    return False, 0


@njit(cache=True, _nrt=False)
def _finish(tb, st, tt, d, nodes):
    """Store what the search at row d proved; returns its value."""
    best = st.best[d]
    if best <= st.alpha0[d]:
        lo, hi = -INF, best
    elif best >= st.beta0[d]:
        lo, hi = best, INF
    else:
        lo, hi = best, best
    _store(tt, st.key[d], lo, hi, st.best_move[d], _bits(nodes - st.entry_nodes[d]))
    return best


@njit(cache=True, _nrt=False)
def _pick(st, d):
    """Move the best-scored remaining move of row d to position next[d]."""
    i = st.next[d]
    n = st.n_moves[d]
    b = i
    for j in range(i + 1, n):
        if st.order[d, j] > st.order[d, b]:
            b = j
    if b != i:
        p = st.moves[d, i]
        st.moves[d, i] = st.moves[d, b]
        st.moves[d, b] = p
        s = st.order[d, i]
        st.order[d, i] = st.order[d, b]
        st.order[d, b] = s
    return st.moves[d, i]


@njit(cache=True, _nrt=False)
def _turn(tb, st, mem, d):
    """(whose turn it is at row d, its moves generated into row d): the next
    colour in rotation after the one that moved last that has a legal move
    (the mover itself last); (-1, 0) when nobody has one. Colours found
    without a move join the row's skip mask."""
    after = st.last[d]
    for i in range(1, 5):
        o = (after + i) & 3
        bit = np.int64(1) << o
        if st.skip[d] & bit:
            continue
        if st.hand[d, o]:
            n = _generate(tb, st.forbidden, st.corners, d, o, st.hand[d, o], mem, st.moves, d)
            if n:
                st.to_move[d] = o
                return o, n
        st.skip[d] |= bit
    st.to_move[d] = -1
    return -1, 0


@njit(cache=True, _nrt=False)
def _enter(tb, sp, st, tt, mem, so, ctl, d):
    """A new node at row d. Returns (done, value): done when its value is
    known without searching its moves (game over, table, settled bounds);
    otherwise its moves and frame are set up for NEXT. OVERFLOW (as value
    with done = 2): more moves than the buffer holds."""
    alpha = st.alpha[d]
    beta = st.beta[d]
    c = st.to_move[d]  # UNKNOWN below the root: found with the moves
    st.stats[d, 0] += 1
    st.bound[d, 2] = 0
    st.solo_ok[d] = 0
    if c == -1:
        st.stats[d, 1] += 1
        return 1, _final(tb, st, sp, d)
    key = st.key[d]
    found, lo, hi, tt_move = _probe(tt, key)
    if found:
        if lo == hi or lo >= beta:
            st.stats[d, 2] += 1
            return 1, lo
        if hi <= alpha:
            st.stats[d, 2] += 1
            return 1, hi
    elif d + sp.root_ply > 0 and sp.settle:
        lo, hi = _outlook(tb, st, sp, so, mem, ctl, d, alpha, beta)
        if c >= 0 and st.skip[d] & (np.int64(1) << c):
            c = UNKNOWN  # taken out as settled: the turn passes on
        if lo == hi or lo >= beta or hi <= alpha:
            _store(tt, key, lo, hi, -1, 0)
            st.stats[d, 3 if lo == hi else 4] += 1
            return 1, hi if hi <= alpha else lo
    if lo > alpha:
        alpha = lo
    if hi < beta:
        beta = hi
    if c == UNKNOWN:
        c, n = _turn(tb, st, mem, d)
        if c < 0:
            v = _final(tb, st, sp, d)
            _store(tt, key, v, v, -1, 0)
            st.stats[d, 1] += 1
            return 1, v
    else:
        n = _generate(tb, st.forbidden, st.corners, d, c, st.hand[d, c], mem, st.moves, d)
    if n > MAX_MOVES:
        return 2, 0
    if sp.tight and sp.mover >= 0 and st.bound[d, 2] and not st.solo_ok[d] & (np.int64(1) << c):
        cut, v = _mover_bound(tb, sp, st, so, mem, ctl, d, c, alpha, beta)
        if cut:
            _store(tt, key, st.bound[d, 0], st.bound[d, 1], -1, 0)
            st.stats[d, 4] += 1
            return 1, v
    maximising = sp.maximiser[c] == 1
    if 0 < d + sp.root_ply <= sp.etc_plies:
        cut, v = _etc(tb, st, tt, d, c, n, maximising, alpha, beta)
        if cut:
            ctl[C_ETC] += 1
            if maximising:
                _store(tt, key, v, INF, -1, 0)
            else:
                _store(tt, key, -INF, v, -1, 0)
            return 1, v
    _order(tb, sp, st, mem, d, c, n, tt_move)
    st.stats[d, 5] += 1
    st.stats[d, 6] += n
    st.n_moves[d] = n
    st.next[d] = 0
    st.alpha[d] = alpha
    st.beta[d] = beta
    st.alpha0[d] = alpha
    st.beta0[d] = beta
    st.best[d] = -INF if maximising else INF
    st.best_move[d] = -1
    st.entry_nodes[d] = ctl[C_NODES]
    return 0, 0


@njit(cache=True, _nrt=False)
def _child_window(sp, st, d, c):
    """The window of the next child of row d (PVS: a null window after the
    first move); sets the row's stage."""
    a = st.alpha[d]
    b = st.beta[d]
    if st.next[d] == 0 or not sp.pvs or b - a <= 1:
        st.stage[d] = FULL
        return a, b
    st.stage[d] = NULL
    if sp.maximiser[c]:
        return a, a + 1
    return b - 1, b


@njit(cache=True, _nrt=False)
def _descend(tb, sp, st, tt, so, ctl, d):
    """Take the next move of row d. When the table already decides what
    the child would return in its window, return (True, that value) without
    making the move (the child's own table check, done from here), or
    when the mover's solo bound after the move refutes it (_move_bound);
    else make it into row d + 1 with its window and return (False, 0)."""
    p = _pick(st, d)
    c = st.to_move[d]
    st.stats[d, 7] += 1
    a, b = _child_window(sp, st, d, c)
    found, lo, hi, _ = _probe(tt, _child_key(tb, st, d, c, p))
    if found:
        if lo == hi or lo >= b:
            st.made[d] = 0
            st.stats[d + 1, 2] += 1
            return True, lo
        if hi <= a:
            st.made[d] = 0
            st.stats[d + 1, 2] += 1
            return True, hi
    cut, v = _move_bound(tb, sp, st, so, d, c, p, a, b)
    if cut:
        st.made[d] = 0
        ctl[C_MOVE_CUTS] += 1
        return True, v
    _make_child(tb, sp, st, d)
    st.alpha[d + 1] = a
    st.beta[d + 1] = b
    return False, 0


@njit(cache=True, _nrt=False)
def _mover_bound(tb, sp, st, so, mem, ctl, d, c, alpha, beta):
    """The solo bound of the colour to move at row d when the outlook did
    not run one (it bounds colours with at most Params.tight_pieces in
    hand; the mover is bounded with one more, as it has one fewer after its
    move): the alpha of its search is what refutes the row's children, so
    the memo then holds a bound for every one of its moves (_move_bound).
    Returns (refuted, value) of the row itself when the bound refutes it."""
    bit = np.int64(1) << c
    w = sp.weight[c]
    if w == 0 or not st.reach_ok[d] & bit:
        return False, 0
    if sp.tight_pieces and popcount(np.uint64(st.hand[d, c])) > sp.tight_pieces + sp.mover:
        return False, 0
    up = st.up[d, c]
    if up <= 0:
        return False, 0
    a = abs(w)
    need = st.bound[d, 1] - alpha if w > 0 else beta - st.bound[d, 0]
    now = _score(tb, st.hand[d, c], st.spare[d, c], st.bonus[d, c])
    t = max(now, now + up - (need + a - 1) // a)
    ok, value = _solo_bound(tb, sp, st, so, mem, ctl, d, c, t)
    st.solo_key[d, c] = so.key[0]
    st.solo_ok[d] |= bit
    if not ok or value - now >= up:
        return False, 0
    drop = up - (value - now)
    st.up[d, c] = value - now
    if w > 0:
        st.bound[d, 1] -= w * drop
        return st.bound[d, 1] <= alpha, st.bound[d, 1]
    st.bound[d, 0] -= w * drop
    return st.bound[d, 0] >= beta, st.bound[d, 0]


@njit(cache=True, _nrt=False)
def _move_bound(tb, sp, st, so, d, c, p, a, b):
    """(refuted, value) of colour c's move p at row d before it is made:
    when the outlook of row d ran a solo bound search for c, the solo memo
    holds a bound of c's final score after p inside c's reach at row d (a
    child of that search's root). The row's bounds with c's gain replaced
    by it bound the child (every term of them bounds every line from row
    d), so it is refuted when they are outside its window (a, b)."""
    w = sp.weight[c]
    if w == 0 or not st.bound[d, 2] or not st.solo_ok[d] & (np.int64(1) << c):
        return False, 0
    found, _, hi, _ = _probe(so.table, st.solo_key[d, c] ^ tb.zobrist[c, p])
    if not found:
        return False, 0
    drop = st.up[d, c] - (hi - _score(tb, st.hand[d, c], st.spare[d, c], st.bonus[d, c]))
    if drop <= 0:
        return False, 0
    if w > 0:
        v = st.bound[d, 1] - w * drop
        return v <= a, v
    v = st.bound[d, 0] - w * drop
    return v >= b, v


@njit(cache=True, _nrt=False)
def _make_child(tb, sp, st, d):
    """Make the current move of row d into row d + 1 (whose turn next too)."""
    c = st.to_move[d]
    _make(tb, sp, st, d, c, st.moves[d, st.next[d]])
    st.to_move[d + 1] = UNKNOWN
    st.made[d] = 1


@njit(cache=True, _nrt=False)
def _ascend(tb, sp, st, mem, d, v):
    """A child of row d returned v. Returns 0: go on with the next move,
    1: re-search the same child (st.alpha/beta[d + 1] set), 2: cut-off or
    no moves left (the row is finished)."""
    c = st.to_move[d]
    a = st.alpha[d]
    b = st.beta[d]
    maximising = sp.maximiser[c] == 1
    if st.stage[d] == NULL and a < v < b:
        st.stage[d] = FULL
        if maximising:
            st.alpha[d + 1] = v
            st.beta[d + 1] = b
        else:
            st.alpha[d + 1] = a
            st.beta[d + 1] = v
        return 1
    i = st.next[d]
    p = st.moves[d, i]
    if maximising:
        if v > st.best[d]:
            st.best[d] = v
            st.best_move[d] = p
        if v > a:
            st.alpha[d] = v
    else:
        if v < st.best[d]:
            st.best[d] = v
            st.best_move[d] = p
        if v < b:
            st.beta[d] = v
    if st.alpha[d] >= st.beta[d]:
        mem.history[c, p] += 1
        if st.killers[d, 0] != p:
            st.killers[d, 1] = st.killers[d, 0]
            st.killers[d, 0] = p
        return 2
    st.next[d] = i + 1
    return 2 if i + 1 >= st.n_moves[d] else 0


@njit(cache=True, nogil=True)
def _search(tb, sp, st, tt, mem, so, ctl, budget):
    """Alpha-beta over the explicit stack from row 0 (its window in
    st.alpha[0], st.beta[0]) until done or ``budget`` more nodes; resumes
    from ctl. Returns DONE (value in ctl[C_VALUE], best move in
    st.best_move[0]), BUDGET or OVERFLOW. The budget counts the nodes of
    solo searches too: one tree node can run solo searches of many nodes,
    and the caller looks at the clock only between calls."""
    depth = ctl[C_DEPTH]
    mode = ctl[C_MODE]
    value = ctl[C_VALUE]
    limit = ctl[C_NODES] + ctl[C_SOLO_NODES] + ctl[C_BOUND_NODES] + budget
    while True:
        if mode == ENTER:
            if ctl[C_NODES] + ctl[C_SOLO_NODES] + ctl[C_BOUND_NODES] >= limit:
                ctl[C_DEPTH] = depth
                ctl[C_MODE] = mode
                return BUDGET
            ctl[C_NODES] += 1
            done, value = _enter(tb, sp, st, tt, mem, so, ctl, depth)
            if done == 2:
                return OVERFLOW
            mode = RETURN if done else NEXT
        elif mode == NEXT:
            known, value = _descend(tb, sp, st, tt, so, ctl, depth)
            depth += 1
            if known:
                ctl[C_NODES] += 1  # a position decided by the table, as at ENTER
                mode = RETURN
            else:
                mode = ENTER
        else:
            if depth == 0:
                ctl[C_VALUE] = value
                ctl[C_DEPTH] = 0
                ctl[C_MODE] = RETURN
                return DONE
            depth -= 1
            step = _ascend(tb, sp, st, mem, depth, value)
            if step == 1:
                if not st.made[depth]:
                    _make_child(tb, sp, st, depth)
                depth += 1
                mode = ENTER
            elif step == 2:
                value = _finish(tb, st, tt, depth, ctl[C_NODES])
            else:
                mode = NEXT
