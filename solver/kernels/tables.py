"""The constant arrays of the compiled kernels (the game tree's, and the
waste search's), built once per board from its :class:`~solver.core.placements.PlacementTable`, and the conversion of a
:class:`~solver.core.position.Position` into the engine's per-ply state rows.

Masks are rows of uint64 words (see :mod:`solver.kernels.bitops`). A
placement's squares are kept as a window of ``MASK_WORDS`` words starting at
the word of its lowest square, its edge and corner rings as a window of
``RING_WORDS`` words starting at the word of their lowest square: testing a
placement against a colour's forbidden squares is three ANDs whatever the
board size. Boards whose placements do not fit these windows (wider than
31 columns) are not supported (:func:`unsupported` says why).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from solver.core.geometry import Board, Mask
from solver.core.pieces import MONOMINO, PIECE_SIZES, PIECES
from solver.core.placements import placement_table
from solver.core.position import Position
from solver.core.scoring import ALL_PLACED_BONUS, MONOMINO_LAST_BONUS

MASK_WORDS = 3
RING_WORDS = 4
PAD = RING_WORDS  # spare zero words after a board's words
N_PIECES = len(PIECES)
ZOBRIST_SEED = 20261130


class Tables(NamedTuple):
    """Constant per-board arrays (P placements, S squares, W words a mask)."""

    width: int  # board width (a shift by one row)
    n_words: int  # W = ceil(S / 64); rows have W + PAD words
    mask_word: np.ndarray  # (P,) int64 first word of the placement's square window
    mask: np.ndarray  # (P, MASK_WORDS) uint64 its squares
    ring_word: np.ndarray  # (P,) int64 first word of its edge/corner window
    edge: np.ndarray  # (P, RING_WORDS) uint64 squares sharing an edge with it
    corner: np.ndarray  # (P, RING_WORDS) uint64 squares touching it at a corner only
    piece: np.ndarray  # (P,) int64
    size: np.ndarray  # (P,) int64 squares of its piece
    neighbour: np.ndarray  # (S, 4) int64 the squares sharing an edge with s, -1 off the board
    cover_start: np.ndarray  # (S * N_PIECES * 16 + 1,) int64: placements of piece k covering s ...
    cover: np.ndarray  # ... and none of the neighbours of s in pattern f (4 bits) are
    #                    cover[cover_start[i]:cover_start[i + 1]], i = (s * N_PIECES + k) * 16 + f (int32)
    cover_word: np.ndarray  # (C,) int64 mask_word of cover[j] (read in order: no cache misses)
    cover_mask: np.ndarray  # (C, MASK_WORDS) uint64 mask of cover[j]
    zobrist: np.ndarray  # (4, P) uint64 key change when colour c makes placement p
    zlast: np.ndarray  # (4,) uint64 colour c moved last
    zmono: np.ndarray  # (4,) uint64 colour c placed everything, the monomino last
    piece_size: np.ndarray  # (N_PIECES,) int64
    open: np.ndarray  # (1, W + PAD) uint64 squares a piece may cover
    not_left: np.ndarray  # (W + PAD,) uint64 all but the left column
    not_right: np.ndarray  # (W + PAD,) uint64 all but the right column
    start: np.ndarray  # (4, W + PAD) uint64 start squares


def n_words(board: Board) -> int:
    return (board.size + 63) // 64


def words(mask: Mask, n: int) -> np.ndarray:
    """A mask as n uint64 words, lowest squares first."""
    out = np.zeros(n, dtype=np.uint64)
    for i in range(n):
        out[i] = (mask >> (64 * i)) & 0xFFFFFFFFFFFFFFFF
    return out


def _window(mask: Mask, n: int, what: str) -> tuple[int, list[int]]:
    """(first word, n words from it) of a non-empty mask; ValueError when it
    does not fit in n words."""
    if not mask:
        return 0, [0] * n
    first = ((mask & -mask).bit_length() - 1) // 64
    shifted = mask >> (64 * first)
    if shifted >> (64 * n):
        raise ValueError(f"a placement's {what} spans more than {n} words")
    return first, [(shifted >> (64 * i)) & 0xFFFFFFFFFFFFFFFF for i in range(n)]


def unsupported(board: Board) -> str | None:
    """Why the compiled engine cannot take this board, or None."""
    if not board.geometry.shifts:
        return f"a {board.grid} grid (the compiled engine grows regions by shifting squares)"
    if board.width > 31:
        return f"the board is {board.width} columns wide (the compiled engine takes up to 31)"
    return None


@lru_cache(maxsize=8)
def tables(board: Board) -> Tables:
    """The engine's arrays for a board (built on first use, cached)."""
    problem = unsupported(board)
    if problem:
        raise ValueError(problem)
    t = placement_table(board)
    nw = n_words(board)
    row = nw + PAD
    P = t.count
    mask_word = np.zeros(P, dtype=np.int64)
    mask = np.zeros((P, MASK_WORDS), dtype=np.uint64)
    ring_word = np.zeros(P, dtype=np.int64)
    edge = np.zeros((P, RING_WORDS), dtype=np.uint64)
    corner = np.zeros((P, RING_WORDS), dtype=np.uint64)
    for p in range(P):
        mask_word[p], mask[p] = _window(t.mask[p], MASK_WORDS, "squares")
        ring = t.edge[p] | t.corner[p]
        first, _ = _window(ring, RING_WORDS, "edge and corner squares")
        ring_word[p] = first
        edge[p] = [(t.edge[p] >> (64 * (first + i))) & 0xFFFFFFFFFFFFFFFF for i in range(RING_WORDS)]
        corner[p] = [(t.corner[p] >> (64 * (first + i))) & 0xFFFFFFFFFFFFFFFF for i in range(RING_WORDS)]
    piece = np.array(t.piece, dtype=np.int64)
    sizes = np.array(PIECE_SIZES, dtype=np.int64)
    neighbour = _neighbours(board)
    cover_start, cover = _covering(t, neighbour)
    zsquare, zpiece, zlast, zmono = _zobrist_keys(board.size)
    zobrist = np.zeros((4, P), dtype=np.uint64)
    for c in range(4):
        for p in range(P):
            z = zpiece[c, t.piece[p]]
            for s in t.squares[p]:
                z ^= zsquare[c, s]
            zobrist[c, p] = z
    start = np.zeros((4, row), dtype=np.uint64)
    for c in range(4):
        start[c, :nw] = words(board.start_masks[c], nw)
    open_ = np.zeros((1, row), dtype=np.uint64)
    open_[0, :nw] = words(board.open_mask, nw)
    not_left = np.zeros(row, dtype=np.uint64)
    not_left[:nw] = words(board.not_left, nw)
    not_right = np.zeros(row, dtype=np.uint64)
    not_right[:nw] = words(board.not_right, nw)
    return Tables(board.width, nw, mask_word, mask, ring_word, edge, corner, piece, sizes[piece],
                  neighbour, cover_start, cover, mask_word[cover], mask[cover], zobrist, zlast, zmono, sizes, open_, not_left, not_right, start)


def _neighbours(board: Board) -> np.ndarray:
    """The edge neighbours of each square (up, down, left, right; -1: off
    the board)."""
    out = np.full((board.size, 4), -1, dtype=np.int64)
    for sq in range(board.size):
        r, c = board.row_col(sq)
        for i, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
            if board.on_board(r + dr, c + dc):
                out[sq, i] = board.square(r + dr, c + dc)
    return out


def _covering(t, neighbour: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lists of the placements covering a square, by piece and by which of
    the square's edge neighbours are closed (Pentobi's idea: at an attach
    square whose neighbours are forbidden, only the placements avoiding them
    are tried). A placement covering neighbours N of s is in the lists of
    every pattern without a bit of N."""
    n_squares = neighbour.shape[0]
    sq = np.full((t.count, 5), -1, dtype=np.int64)
    for p, squares in enumerate(t.squares):
        sq[p, : len(squares)] = squares
    size = (sq >= 0).sum(axis=1)
    cp = np.repeat(np.arange(t.count), size)  # one entry per (placement, square)
    cs = sq[sq >= 0]
    ck = np.array(t.piece, dtype=np.int64)[cp]
    near = np.zeros(len(cp), dtype=np.int64)
    for i in range(4):
        n = neighbour[cs, i]
        near |= ((n >= 0) & (sq[cp] == n[:, None]).any(axis=1)).astype(np.int64) << i
    keys, places = [], []
    for f in range(16):
        keep = (near & f) == 0
        keys.append(((cs[keep] * N_PIECES + ck[keep]) * 16 + f))
        places.append(cp[keep])
    keys = np.concatenate(keys)
    places = np.concatenate(places)
    order = np.argsort(keys, kind="stable")
    counts = np.bincount(keys, minlength=n_squares * N_PIECES * 16)
    start = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])
    return start, places[order].astype(np.int32)


def _zobrist_keys(n_squares: int):
    rng = np.random.default_rng(ZOBRIST_SEED)

    def draw(*shape):
        return rng.integers(0, 2**64 - 1, size=shape, dtype=np.uint64, endpoint=True)

    return draw(4, n_squares), draw(4, N_PIECES), draw(4), draw(4)


class Root(NamedTuple):
    """A position as the engine's ply-0 state (per colour rows of words)."""

    forbidden: np.ndarray  # (4, W + PAD) occupied, blocked, edge-adjacent to its pieces
    corners: np.ndarray  # (4, W + PAD) its attach candidates: corners of its pieces, else its start
    hand: np.ndarray  # (4,) int64 pieces in hand (bit k: piece k)
    spare: np.ndarray  # (4,) int64 pieces held twice (Junior)
    bonus: np.ndarray  # (4,) int64 its final bonus once its hand is empty (0, 15 or 20)
    started: np.ndarray  # (4,) int64 1 when it has a piece on the board
    key: np.uint64  # Zobrist key (squares, pieces used, bonuses, last mover)
    to_move: int
    last: int  # the colour taken to have moved last: the one before to_move


def bonuses(pos: Position) -> tuple[int, int]:
    """(bonus for placing everything, with the monomino last) in the
    position's variant (0, 0 when it has none)."""
    if not pos.variant.bonus:
        return 0, 0
    return ALL_PLACED_BONUS, ALL_PLACED_BONUS + MONOMINO_LAST_BONUS


def root_state(pos: Position) -> Root:
    """The engine's view of a position. Its key is the xor of the keys of
    the placements on the board (set-up pieces included), as the engine's
    moves add them, and of the colour before the one to move."""
    b, tb = pos.board, tables(pos.board)
    nw = tb.n_words
    row = nw + PAD
    forbidden = np.zeros((4, row), dtype=np.uint64)
    corners = np.zeros((4, row), dtype=np.uint64)
    bonus = np.zeros(4, dtype=np.int64)
    started = np.zeros(4, dtype=np.int64)
    all_placed, mono_last = bonuses(pos)
    key = np.uint64(0)
    for c in range(4):
        own = pos.occupied[c]
        forbidden[c, :nw] = words(pos.forbidden[c] & b.full_mask, nw)
        if own:
            attach = b.corner_neighbours(own) & b.open_mask
        else:
            attach = b.start_masks[c] or b.open_mask
        corners[c, :nw] = words(attach, nw)
        started[c] = 1 if own else 0
        if not pos.hand[c] and c in pos.variant.colors:
            bonus[c] = mono_last if pos.last_piece[c] == MONOMINO else all_placed
            if pos.last_piece[c] == MONOMINO:
                key ^= tb.zmono[c]
        for p in list(pos.initial_setup[c]) + [q for col, q in pos.history if col == c]:
            key ^= tb.zobrist[c, p]
    to_move = pos.to_move if pos.to_move is not None else 0
    last = (to_move - 1) % 4
    key ^= tb.zlast[last]
    return Root(forbidden, corners, np.array(pos.hand, dtype=np.int64), np.array(pos.spare, dtype=np.int64),
                bonus, started, np.uint64(key), to_move, last)
