"""Candidate challenges: an answer grown first, the clues around it.

Every candidate starts from its answer: blue's pieces grown one by one
under the game rule (each touches blue at a corner, never at an edge) from
a start corner, or, for ``connect``, from one blue piece, the grown piece
farthest from it (and not touching it) becoming the second set-up piece.
Then the clues of the kind are laid around it: pieces of the other
colours as obstacles, stars on the answer's squares
(``stars``), x squares where the answer could have gone on (``avoid-x``),
or the board cut down to the answer and a few spare squares
(``place-all``). A :class:`Draft` keeps everything as squares, so blocking
a square (which changes the board and its placement table) keeps it valid.

:func:`rule_out` changes a draft so that one other solution no longer
fits while its own answer still does (the uniqueness loop of
:mod:`solver.generate.unique` calls it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from enum import StrEnum

from solver.core.geometry import Board, Mask, mask_of, squares_of
from solver.core.pieces import PIECES, PIECE_SIZES, CLASSIC_PIECES
from solver.core.placements import placement_table
from solver.core.text import counted
from solver.puzzle.definition import Puzzle
from solver.puzzle.result import Solution

BLUE = 0
OBSTACLE_COLORS = (1, 2, 3)  # yellow, red, green: pieces the player works around
Squares = frozenset[int]


class Kind(StrEnum):
    """The kinds of challenge ``blokus generate`` makes."""

    STARS = "stars"  # cover every star
    AVOID_X = "avoid-x"  # leave every x empty
    CONNECT = "connect"  # join blue's two set-up pieces
    PLACE_ALL = "place-all"  # fill a cut-down board


KINDS = tuple(k.value for k in Kind)
MIN_SIDE, MAX_SIDE = 5, 12  # square boards the generator makes (a card holds 12 x 12 at most)
PLAYABLE = tuple(i for i in CLASSIC_PIECES if PIECE_SIZES[i] >= 2)  # pieces to place (the monomino only for all 21)
DEFAULT_OBSTACLES = {Kind.STARS: (5, 8), Kind.AVOID_X: (3, 6), Kind.CONNECT: (4, 7), Kind.PLACE_ALL: (0, 0)}


@dataclass
class Draft:
    """A challenge being made: blue's answer, its set-up pieces, obstacles
    (colour, squares), stars, x squares and blocked squares, all as squares."""

    kind: Kind
    width: int
    height: int
    answer: list[Squares]  # blue's pieces to place, as placed in the answer
    start: int | None = None  # blue's start square (None: no start square)
    setup: list[Squares] = field(default_factory=list)  # blue's set-up pieces (connect)
    obstacles: list[tuple[int, Squares]] = field(default_factory=list)
    stars: set[int] = field(default_factory=set)
    empty: set[int] = field(default_factory=set)
    blocked: set[int] = field(default_factory=set)

    @property
    def board(self) -> Board:
        starts = [frozenset()] * 4
        if self.start is not None:
            starts[BLUE] = frozenset([self.start])
        return Board(self.width, self.height, frozenset(self.blocked), tuple(starts))

    @property
    def answer_squares(self) -> Squares:
        return frozenset().union(*self.answer)

    def taken(self) -> set[int]:
        """Squares no new clue may cover: the answer, the set-up, obstacles,
        stars, x squares, blocked squares and the start."""
        out = set(self.answer_squares) | self.stars | self.empty | self.blocked
        for sqs in self.setup:
            out |= sqs
        for _, sqs in self.obstacles:
            out |= sqs
        if self.start is not None:
            out.add(self.start)
        return out

    def pieces(self) -> tuple[int, ...]:
        """The pieces to place (the answer's), largest first as a card lists them."""
        t = placement_table(Board(self.width, self.height))
        return tuple(sorted((t.piece[t.find(sqs)] for sqs in self.answer), key=lambda i: (-PIECE_SIZES[i], i)))

    def puzzle(self, name: str = "generated", description: str = "") -> Puzzle:
        t = placement_table(self.board)
        setup: dict[int, list[int]] = {c: [] for c in range(4)}
        setup[BLUE] = [t.find(sqs) for sqs in self.setup]
        for c, sqs in self.obstacles:
            setup[c].append(t.find(sqs))
        return Puzzle(self.board, (BLUE,), {BLUE: self.pieces()}, {c: tuple(ps) for c, ps in setup.items()},
                      stars=frozenset(self.stars), empty=frozenset(self.empty), name=name,
                      description=description)

    def solution(self) -> Solution:
        """The answer as (colour, placement) pairs on the draft's own board."""
        t = placement_table(self.board)
        return [(BLUE, t.find(sqs)) for sqs in self.answer]

    def copy(self) -> "Draft":
        return replace(self, answer=list(self.answer), setup=list(self.setup), obstacles=list(self.obstacles),
                       stars=set(self.stars), empty=set(self.empty), blocked=set(self.blocked))


def _grow(rng: random.Random, board: Board, pieces: list[int], own: Mask, start: int | None,
          free: Mask) -> list[Squares] | None:
    """Place ``pieces`` in turn under the game rule, each at a random legal
    place: covering ``start`` while blue has nothing, else touching blue at
    a corner; None when one has no place."""
    t = placement_table(board)
    placed: list[Squares] = []
    for i in pieces:
        edge = board.edge_neighbours(own)
        touch = board.corner_neighbours(own) & ~edge
        options = []
        for p in t.by_piece[i]:
            m = t.mask[p]
            if m & ~free or m & edge or m & own:
                continue
            if own == 0:
                if start is not None and not m >> start & 1:
                    continue
            elif not m & touch:
                continue
            options.append(p)
        if not options:
            return None
        p = rng.choice(options)
        placed.append(frozenset(t.squares[p]))
        own |= t.mask[p]
    return placed


def _distance(width: int, a: int, b: int) -> int:
    """King moves between two squares."""
    return max(abs(a // width - b // width), abs(a % width - b % width))


def _corners(width: int, height: int) -> tuple[int, ...]:
    return (0, width - 1, (height - 1) * width + width - 1, (height - 1) * width)


def new_draft(kind: Kind, rng: random.Random, width: int, height: int, pieces: int,
              obstacles: tuple[int, int] | None = None) -> Draft | None:
    """A candidate of ``kind`` with ``pieces`` blue pieces to place, or
    None when this draw did not fit (the caller draws again)."""
    board = Board(width, height)
    full = board.open_mask
    wanted = pieces + (2 if kind is Kind.CONNECT else 0)
    chosen = rng.sample(PLAYABLE if wanted <= len(PLAYABLE) else CLASSIC_PIECES, wanted)
    if kind is Kind.CONNECT:
        t = placement_table(board)
        first = rng.choice(t.by_piece[chosen[0]])
        grown = _grow(rng, board, chosen[1:], t.mask[first], None, full)
        if grown is None:
            return None
        here = t.mask[first]
        apart = [sqs for sqs in grown if not board.king_fill(here, here | mask_of(sqs)) & mask_of(sqs)]
        if not apart:
            return None  # every piece touches the first: nothing to connect
        far = max(apart, key=lambda sqs: min(_distance(width, a, b) for a in sqs for b in t.squares[first]))
        draft = Draft(kind, width, height, [sqs for sqs in grown if sqs != far],
                      setup=[frozenset(t.squares[first]), far])
    else:
        start = rng.choice(_corners(width, height))
        answer = _grow(rng, board, chosen, 0, start, full)
        if answer is None:
            return None
        draft = Draft(kind, width, height, answer, start=None if kind is Kind.PLACE_ALL else start)
    lo, hi = obstacles if obstacles is not None else DEFAULT_OBSTACLES[kind]
    for _ in range(rng.randint(lo, hi)):
        add_obstacle(draft, rng)
    if kind is Kind.STARS:
        on = rng.sample(range(len(draft.answer)), rng.randint(2, len(draft.answer)))
        draft.stars = {rng.choice(sorted(draft.answer[i])) for i in on}
    elif kind is Kind.AVOID_X:
        near = _open_corners(draft)
        draft.empty = set(rng.sample(sorted(near), min(len(near), rng.randint(1, 3))))
    elif kind is Kind.PLACE_ALL:
        keep = set(draft.taken())  # the answer and the obstacles stay on the board
        bumps = sorted(squares_of(board.edge_neighbours(mask_of(keep)) & full))
        keep |= set(rng.sample(bumps, min(len(bumps), rng.randint(2, 5))))
        draft.blocked = set(range(width * height)) - keep
    return draft


def _open_corners(draft: Draft) -> set[int]:
    """Free squares where blue could attach next to its answer (corner
    contact, no edge contact): where false paths start."""
    board = Board(draft.width, draft.height)
    own = mask_of(draft.answer_squares.union(*draft.setup))
    spots = board.corner_neighbours(own) & ~board.edge_neighbours(own) & board.open_mask
    return set(squares_of(spots)) - draft.taken()


def add_obstacle(draft: Draft, rng: random.Random, cover: int | None = None) -> bool:
    """Put a random piece of another colour on free squares (covering square
    ``cover`` when given), never edge to edge with a piece of its own colour
    and never twice the same piece in one colour. False when none fits."""
    board = Board(draft.width, draft.height)
    t = placement_table(board)
    taken = mask_of(draft.taken())
    colors = list(OBSTACLE_COLORS)
    rng.shuffle(colors)
    for c in colors:
        own = mask_of(sq for col, sqs in draft.obstacles if col == c for sq in sqs)
        used = {t.piece[t.find(sqs)] for col, sqs in draft.obstacles if col == c}
        edge = board.edge_neighbours(own)
        pool = t.covering[cover] if cover is not None else range(len(t))
        options = [p for p in pool if t.piece[p] not in used
                   and not t.mask[p] & (taken | edge)]
        if options:
            small = [p for p in options if PIECE_SIZES[t.piece[p]] <= 3]
            p = rng.choice(small if cover is not None and small and rng.random() < 0.6 else options)
            draft.obstacles.append((c, frozenset(t.squares[p])))
            return True
    return False


def rule_out(draft: Draft, others: list[Solution], rng: random.Random) -> bool:
    """Change ``draft`` so that the solution ``others[0]`` (placements on the
    draft's board) breaks a rule while the draft's answer still fits: an
    obstacle or an x on a square only it covers, a star on a square only
    the answer covers, or (place-all) such a square blocked; of those
    squares, one that rules out the most of ``others`` at once. False when
    no change does it."""
    t = placement_table(draft.board)
    covers = [frozenset(sq for _, p in other for sq in t.squares[p]) for other in others]
    ours = draft.answer_squares
    only_theirs = sorted(covers[0] - ours - draft.taken())
    only_ours = sorted(ours - covers[0] - draft.stars)

    def best(squares: list[int], hit) -> int:
        score = {sq: sum(1 for c in covers if hit(sq, c)) for sq in squares}
        top = max(score.values())
        return rng.choice([sq for sq in squares if score[sq] == top])

    moves = []
    if only_theirs:
        if draft.kind is Kind.PLACE_ALL:
            moves.append("block")
        elif draft.kind is Kind.AVOID_X:
            moves += ["x", "x", "obstacle"]
        else:
            moves.append("obstacle")
    if only_ours and draft.kind is Kind.STARS:
        moves += ["star", "star"]
    rng.shuffle(moves)
    for move in moves:
        if move == "star":
            draft.stars.add(best(only_ours, lambda sq, c: sq not in c))
            return True
        square = best(only_theirs, lambda sq, c: sq in c)
        if move == "block":
            draft.blocked.add(square)
        elif move == "x":
            draft.empty.add(square)
        elif not add_obstacle(draft, rng, cover=square):
            continue
        return True
    return False


def describe(draft: Draft) -> str:
    """A description in the style of the bundled challenges."""
    board = draft.board
    names = [PIECES[i].name for i in draft.pieces()]
    listed = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
    rule = "under the game rule (each piece touches a blue piece at a corner, never at an edge)"
    obstacles = " The other colours' pieces are obstacles." if draft.obstacles else ""
    if draft.kind is Kind.STARS:
        text = (f"Stars: blue starts in its corner {board.square_name(draft.start)} and must cover all "
                f"{counted(len(draft.stars), 'star')} (*) with {listed}, {rule}.")
    elif draft.kind is Kind.AVOID_X:
        text = (f"Avoid the x: blue starts in its corner {board.square_name(draft.start)} and places {listed} "
                f"{rule} without covering any x square.")
    elif draft.kind is Kind.CONNECT:
        text = (f"Connect: blue's two pieces are cut off from each other. Place {listed} so that all "
                f"{len(names) + 2} blue pieces form one group joined corner to corner (no two blue pieces "
                "share an edge).")
    else:
        text = (f"Place all: fill the open squares with {listed}, {rule}; "
                f"{counted(draft.board.open_mask.bit_count() - sum(len(a) for a in draft.answer), 'square')} "
                "stay empty.")
    return text + obstacles + " Exactly one solution."
