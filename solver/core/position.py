"""A Blokus position: squares and pieces per colour, the colour to move, the
move history, legality, scores.

Move generation is incremental (the Pentobi scheme, adapted to Python ints):
per colour we keep a ``forbidden`` mask (squares it may not cover: occupied,
blocked, edge-adjacent to its own pieces, plus one bit per piece already
used) and a tuple of candidate placements that is a superset of its legal
moves: every placement that covered an attach square (a square touching the
colour at a corner) when that square appeared and was not forbidden then.
The forbidden mask only grows, so a candidate that fails once is dropped for
good; generating moves is one AND per candidate.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from solver.core.geometry import NUM_COLORS, Board, Mask, squares_of
from solver.core.pieces import ALL_PIECES_MASK, NUM_PIECES, PIECE_SIZES, PIECES, is_monomino
from solver.core.placements import Placement, PlacementTable, placement_table
from solver.core.scoring import advanced_score
from solver.core.variants import CLASSIC, Variant, variant_on
from solver.errors import IllegalMoveError


def grow_candidates(
    t: PlacementTable, p: Placement, fc: Mask, reach: Mask, cands: tuple[Placement, ...]
) -> tuple[Mask, tuple[Placement, ...]]:
    """After a colour placed ``p`` (``fc``: its forbidden mask afterwards),
    register the new attach squares at p's corners and append the placements
    through them to the candidates. ``reach`` holds every attach square ever
    registered: a placement through an old one is already a candidate (or
    was forbidden then, and so is now), and one through several new squares
    is added once, at the first. Returns the new (reach, candidates)."""
    fresh = t.corner[p] & ~fc & ~reach
    key = t.key
    new: list[Placement] = []
    seen = reach
    while fresh:
        low = fresh & -fresh
        fresh ^= low
        block = fc | seen
        seen |= low
        new += [q for q in t.attach_candidates(low.bit_length() - 1, fc) if not key[q] & block]
    return seen, cands + tuple(new)


@lru_cache(maxsize=1 << 16)
def _hand_squares(hand: int) -> int:
    """Squares of the pieces in a hand (bit i: piece i); the endgame search
    asks for it millions of times."""
    return sum(PIECE_SIZES[i] for i in range(len(PIECES)) if hand >> i & 1)


class Move(NamedTuple):
    """A colour placing one placement (an index into the board's table)."""

    color: int
    placement: Placement


class Position:
    """A position on a board, with push/pop. ``push`` trusts its move; the
    checking entry points are :meth:`parse_move` and :meth:`check_move`."""

    def __init__(self, variant: Variant | Board = CLASSIC):
        if isinstance(variant, Board):
            variant = variant_on(variant)
        self.variant = variant
        self.board = board = variant.board
        self.table: PlacementTable = placement_table(board)
        self.occupied: list[Mask] = [0] * NUM_COLORS
        self.hand: list[int] = [variant.hand if c in variant.colors else 0 for c in range(NUM_COLORS)]
        # pieces with a second copy in hand (Junior): the hand bit goes when the last copy does
        self.spare: list[int] = [h if variant.copies == 2 else 0 for h in self.hand]
        self.last_piece: list[int | None] = [None] * NUM_COLORS
        self.forbidden: list[Mask] = [board.blocked_mask] * NUM_COLORS
        self.reach: list[Mask] = [0] * NUM_COLORS
        self.cands: list[tuple[Placement, ...]] = [()] * NUM_COLORS
        self.history: list[Move] = []
        self.initial_setup: list[list[Placement]] = [[] for _ in range(NUM_COLORS)]
        self.initial_to_move: int | None = None
        self._stack: list[tuple] = []
        for c in range(NUM_COLORS):
            self._rebuild_candidates(c)
        self.to_move: int | None = 0
        self.to_move = self._next_to_move(NUM_COLORS - 1)

    # -- set-up ---------------------------------------------------------------
    def copy(self) -> "Position":
        """An independent copy (history included, undo stack not)."""
        other = Position.__new__(Position)
        other.variant, other.board, other.table = self.variant, self.board, self.table
        for name in ("occupied", "hand", "spare", "last_piece", "forbidden", "reach", "cands", "history"):
            setattr(other, name, list(getattr(self, name)))
        other.initial_setup = [list(ps) for ps in self.initial_setup]
        other.initial_to_move = self.initial_to_move
        other._stack = []
        other.to_move = self.to_move
        return other

    def setup(self, placements: dict[int, list[Placement]], to_move: int | None = None) -> None:
        """Put pieces on the board without playing them (record set-up,
        puzzle givens). Pieces must not overlap and each colour may place each
        piece as often as it holds it; contact rules are not checked. Only
        before the first move (see :meth:`rebase`)."""
        if self.history:
            raise ValueError("set-up after moves: call rebase() first")
        t = self.table
        taken = self.all_occupied
        for c, ps in placements.items():
            for p in ps:
                piece = t.piece[p]
                if c not in self.variant.colors:
                    raise IllegalMoveError(f"set-up {t.name(p)!r}: colour {c + 1} does not play in {self.variant.game}")
                if not self.hand[c] >> piece & 1:
                    raise IllegalMoveError(
                        f"set-up {t.name(p)!r}: {self.name(c)} piece {PIECES[piece].name} is already on the board")
                if t.mask[p] & taken:
                    raise IllegalMoveError(f"set-up {t.name(p)!r} overlaps another piece")
                taken |= t.mask[p]
                self.occupied[c] |= t.mask[p]
                self._take(c, piece)
                self.last_piece[c] = piece
                self.initial_setup[c].append(p)
        self._after_setup(to_move)

    def remove(self, color: int, p: Placement) -> None:
        """Take one of the colour's set-up pieces off the board (record
        ``AE``); it returns to the hand. ``p`` must be exactly such a piece,
        not part of one: IllegalMoveError says which piece is there instead.
        Moves count once :meth:`rebase` has made them set-up pieces."""
        t = self.table
        if self.history:
            raise ValueError("removing pieces after moves: call rebase() first")
        given = self.initial_setup[color]
        if p not in given:
            there = [t.name(q) for q in given if t.mask[q] & t.mask[p]]
            name = self.name(color)
            found = f"{name}'s piece there is {there[0]!r}" if there else f"no {name} piece is there"
            raise IllegalMoveError(f"cannot remove {t.name(p)!r}: it is not a whole {name} piece on the board; {found}")
        self.occupied[color] &= ~t.mask[p]
        bit = 1 << t.piece[p]
        if self.hand[color] & bit:
            self.spare[color] |= bit
        self.hand[color] |= bit
        given.remove(p)
        self.last_piece[color] = t.piece[given[-1]] if given else None
        self._after_setup(self.to_move)

    def rebase(self) -> None:
        """Turn the moves played so far into set-up pieces (as Pentobi does
        for set-up in a later node); the board does not change."""
        for c, p in self.history:
            self.initial_setup[c].append(p)
        self.history.clear()
        self._stack.clear()
        self.initial_to_move = self.to_move

    def _after_setup(self, to_move: int | None) -> None:
        for c in range(NUM_COLORS):
            self._rebuild_candidates(c)
        self._stack.clear()
        if to_move is None or not self.has_legal_move(to_move):
            start = NUM_COLORS - 1 if to_move is None else (to_move - 1) % NUM_COLORS
            to_move = self._next_to_move(start)
        self.to_move = self.initial_to_move = to_move

    def _rebuild_candidates(self, c: int) -> None:
        """Compute forbidden, reach and candidates of colour c from scratch."""
        b, t = self.board, self.table
        own = self.occupied[c]
        used = (ALL_PIECES_MASK & ~self.hand[c]) << t.piece_bit_base
        f = b.blocked_mask | self.all_occupied | b.edge_neighbours(own) | used
        self.forbidden[c] = f
        if own:
            reach = b.corner_neighbours(own) & b.open_mask
        elif b.start_masks[c]:
            reach = b.start_masks[c]
        else:
            reach = b.open_mask
        self.reach[c] = reach
        key = t.key
        found = set()
        for sq in squares_of(reach & ~f):
            found.update(p for p in t.covering[sq] if not key[p] & f)
        self.cands[c] = tuple(sorted(found))

    # -- queries --------------------------------------------------------------
    @property
    def all_occupied(self) -> Mask:
        o = self.occupied
        return o[0] | o[1] | o[2] | o[3]

    @property
    def game_over(self) -> bool:
        return self.to_move is None

    def legal_placements(self, color: int | None = None) -> list[Placement]:
        """Legal placements of a colour (default: the colour to move); the
        hot path. Each is a distinct set of squares."""
        c = self.to_move if color is None else color
        if c is None:
            return []
        f = self.forbidden[c]
        key = self.table.key
        cands = self.cands[c]
        legal = [p for p in cands if not key[p] & f]
        if len(legal) != len(cands):
            self.cands[c] = tuple(legal)
        return legal

    def legal_moves(self, color: int | None = None) -> list[Move]:
        c = self.to_move if color is None else color
        return [Move(c, p) for p in self.legal_placements(c)] if c is not None else []

    def has_legal_move(self, color: int) -> bool:
        f = self.forbidden[color]
        key = self.table.key
        for p in self.cands[color]:
            if not key[p] & f:
                return True
        return False

    def is_legal(self, move: Move) -> bool:
        """Whether the move's colour may place it now (turn order aside:
        records may hold a move of any colour, see docs/rules.md)."""
        return self.illegal_reason(move) is None

    def illegal_reason(self, move: Move) -> str | None:
        """Why the rules forbid this move, or None when it is legal."""
        c, p = move
        t, b = self.table, self.board
        piece = PIECES[t.piece[p]]
        m = t.mask[p]
        if self.to_move is None:
            return "the game is over"
        if not self.hand[c] >> piece.index & 1:
            return f"{self.name(c)} has already used piece {piece.name}"
        if m & self.all_occupied:
            sq = next(squares_of(m & self.all_occupied))
            return f"it overlaps a piece on {b.square_name(sq)}"
        own = self.occupied[c]
        if m & b.edge_neighbours(own):
            sq = next(squares_of(m & b.edge_neighbours(own)))
            return f"{b.square_name(sq)} shares an edge with a {self.name(c)} piece"
        if own:
            if not m & b.corner_neighbours(own):
                return f"it does not touch a {self.name(c)} piece at a corner"
        elif b.start_masks[c] and not m & b.start_masks[c]:
            names = " or ".join(b.square_names(b.start_masks[c]))
            return f"{self.name(c)}'s first piece must cover its start square {names}"
        return None

    def check_move(self, move: Move, text: str | None = None) -> None:
        """Raise IllegalMoveError (quoting ``text``, or the move's squares)
        unless it is legal."""
        reason = self.illegal_reason(move)
        if reason is not None:
            text = self.table.name(move.placement) if text is None else text
            raise IllegalMoveError(f"illegal move {text!r} for {self.name(move.color)}: {reason}")

    def parse_move(self, text: str, color: int | None = None) -> Move:
        """Parse squares text into a legal move for ``color`` (default: the
        colour to move); NotationError or IllegalMoveError say why not."""
        c = self.to_move if color is None else color
        p = self.table.parse(text)
        if c is None:
            raise IllegalMoveError(f"illegal move {text!r}: the game is over")
        move = Move(c, p)
        self.check_move(move, text)
        return move

    def move_text(self, move: Move) -> str:
        """A move as people read it: its colour, its piece and its squares in
        Pentobi's notation (``blue I3 a20,a19,a18``); :meth:`parse_move`
        reads the squares back."""
        t = self.table
        return f"{self.name(move.color)} {PIECES[t.piece[move.placement]].name} {t.name(move.placement)}"

    # -- play -----------------------------------------------------------------
    def push(self, move: Move) -> None:
        """Play a move (not checked) and pass the turn to the next colour in
        rotation that has a legal move; when none has, the game is over."""
        c, p = move
        t = self.table
        self._stack.append(
            (
                self.occupied[:], self.hand[:], self.spare[:], self.last_piece[:], self.forbidden[:],
                self.reach[:], self.cands[:], self.to_move,
            )
        )
        m = t.mask[p]
        f = self.forbidden
        for o in range(NUM_COLORS):
            f[o] |= m
        piece = t.piece[p]
        last_copy = self._take(c, piece)
        fc = f[c] = f[c] | t.edge[p] | (last_copy << (t.piece_bit_base + piece))
        first = not self.occupied[c]
        self.occupied[c] |= m
        self.last_piece[c] = piece
        self.reach[c], self.cands[c] = grow_candidates(
            t, p, fc, 0 if first else self.reach[c], () if first else self.cands[c]
        )
        self.history.append(move)
        self.to_move = self._next_to_move(c)

    def pop(self) -> Move:
        """Undo the last push, restoring the exact earlier state."""
        (
            self.occupied, self.hand, self.spare, self.last_piece, self.forbidden,
            self.reach, self.cands, self.to_move,
        ) = self._stack.pop()
        return self.history.pop()

    def _take(self, c: int, piece: int) -> int:
        """Take one copy of a piece from c's hand; 1 when it was the last."""
        bit = 1 << piece
        if self.spare[c] & bit:
            self.spare[c] &= ~bit
            return 0
        self.hand[c] &= ~bit
        return 1

    def _next_to_move(self, after: int) -> int | None:
        for i in range(1, NUM_COLORS + 1):
            o = (after + i) % NUM_COLORS
            if self.has_legal_move(o):
                return o
        return None

    # -- scores ---------------------------------------------------------------
    def pieces_left(self, color: int) -> list[int]:
        """Piece indices in hand, a piece twice while both copies are."""
        hand, spare = self.hand[color], self.spare[color]
        return sorted([i for i in range(NUM_PIECES) if hand >> i & 1] + [i for i in range(NUM_PIECES) if spare >> i & 1])

    def squares_left(self, color: int) -> int:
        return _hand_squares(self.hand[color]) + (_hand_squares(self.spare[color]) if self.spare[color] else 0)

    def score(self, color: int, basic: bool = False) -> int:
        """Advanced score (default): minus the squares left in hand; +15 when
        all pieces are placed, +20 when the monomino went last (no bonus in
        Junior). Basic score: the squares left in hand (lower is better).
        A colour slot not in the game scores 0."""
        if color not in self.variant.colors:
            return 0
        left = self.squares_left(color)
        if basic:
            return left
        if not self.variant.bonus:
            return -left
        last = self.last_piece[color]
        return advanced_score(left, last is not None and is_monomino(last))

    def points(self, color: int) -> int:
        """The score as Pentobi shows it: the squares of the colour's
        pieces on the board plus the bonuses, so the advanced score plus
        the squares of a whole set (89 in the classic games: advanced -27
        is 62 points)."""
        if color not in self.variant.colors:
            return 0
        return self.score(color) + self.variant.squares

    def scores(self, basic: bool = False) -> list[int]:
        return [self.score(c, basic) for c in range(NUM_COLORS)]

    def seat_scores(self) -> tuple[int, int]:
        """Two seats: colours 0 and 2 against 1 and 3 (blue+red against
        yellow+green; in Duo and Junior the two colours themselves)."""
        s = self.scores()
        return s[0] + s[2], s[1] + s[3]

    def player_scores(self) -> list[int]:
        """Each player's score: the sum of the player's colours (the shared
        colour of the Three-Player game counts for nobody)."""
        s = self.scores()
        return [sum(s[c] for c in colors) for colors in self.variant.players]

    def shared_player(self) -> int | None:
        """Three-Player: the player whose turn it is with the shared colour,
        (its pieces on the board, set-up included) mod 3; else None."""
        shared = self.variant.shared
        if shared is None:
            return None
        placed = len(self.initial_setup[shared]) + sum(1 for c, _ in self.history if c == shared)
        return placed % len(self.variant.players)

    def name(self, color: int) -> str:
        """The colour's name in this variant (``blue``, ``purple``)."""
        return self.variant.names[color]

    # -- misc -----------------------------------------------------------------
    def color_at(self, sq: int) -> int | None:
        for c in range(NUM_COLORS):
            if self.occupied[c] >> sq & 1:
                return c
        return None

    def state_key(self) -> tuple:
        """Everything that decides the future of the game (for comparisons
        and transposition tables)."""
        return (tuple(self.occupied), tuple(self.hand), tuple(self.spare), tuple(self.last_piece), self.to_move)

    def __repr__(self) -> str:
        to_move = self.name(self.to_move) if self.to_move is not None else "nobody"
        return f"<Position {len(self.history)} moves, {to_move} to move>"

    def _repr_png_(self) -> bytes:
        """The board as a PNG, for notebooks (matplotlib is imported only here)."""
        from solver.drawing.render import render_position

        return render_position(self)
