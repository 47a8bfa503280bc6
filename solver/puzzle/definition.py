"""The puzzle model shared by both engines.

A puzzle is a board (size, blocked squares, start squares), the colours
taking part with the pieces each has, pieces already on the board (set-up),
a goal and extra constraints. Placements are indices into the board's
placement table, so a solution from either engine means the same thing.
The rules are str-enums: ``Connect.GAME == "game"``, and a constructor
given a string checks it and turns it into the enum.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum, StrEnum
from functools import cached_property

from solver.core.geometry import COLORS, NUM_COLORS, Board, Mask, mask_of
from solver.core.pieces import MONOMINO, NUM_PIECES, PIECE_SIZES
from solver.core.placements import Placement, PlacementTable, placement_table
from solver.core.scoring import advanced_score
from solver.core.variants import CLASSIC, Variant
from solver.errors import PuzzleError


class Connect(StrEnum):
    """How a colour's pieces hang together (see :class:`Puzzle`)."""

    GAME = "game"
    TOUCH = "touch"
    FREE = "free"


class SameShape(StrEnum):
    """Whether pieces of one shape and different colours may touch."""

    NONE = "none"
    EDGE = "edge"
    CORNER = "corner"


class Goal(StrEnum):
    PLACE_ALL = "place-all"
    MAXIMIZE = "maximize"
    COUNT = "count"


class Measure(StrEnum):
    """What a maximize goal counts: the advanced score, or squares placed."""

    SCORE = "score"
    SQUARES = "squares"


def _names(kind: type[Enum]) -> tuple[str, ...]:
    return tuple(member.value for member in kind)


CONNECT_RULES = _names(Connect)
SAME_SHAPE_RULES = _names(SameShape)
GOALS = _names(Goal)
MEASURES = _names(Measure)


@dataclass(frozen=True)
class PuzzleMasks:
    """Square masks of a puzzle that every engine starts from (computed once
    per puzzle, see :attr:`Puzzle.masks`)."""

    setup: tuple[Mask, ...]  # per colour: squares of its set-up pieces
    stars: Mask  # squares that must be covered
    empty: Mask  # squares that must stay empty
    taken: Mask  # blocked, must-stay-empty or covered by a set-up piece
    free: Mask  # squares a new piece may cover: open and not taken


def _union(masks) -> Mask:
    out = 0
    for m in masks:
        out |= m
    return out


@dataclass(frozen=True)
class Puzzle:
    """A puzzle. ``pieces[c]`` lists the piece indices colour c may place;
    ``setup[c]`` the placements of c already on the board (their pieces are
    not in ``pieces[c]``). Rules:

    - connect ``game``: each colour's pieces (set-up ones included) form one
      group under corner contact, so they could have been played one by one;
      ``touch``: every piece touches another piece of its colour at a corner;
      ``free``: no connection needed. Same-colour pieces never share an edge.
    - start squares: when colour c has some (``board.starts[c]``), one of its
      pieces covers one of them (under ``game`` the group grows from it).
    - ``monomino_last``: there is a play order in which every colour's last
      piece is its monomino (so the monomino is among the pieces to place).
    - ``same_shape``: pieces of the same shape and different colours may not
      share an edge (``edge``) or even a corner (``corner``).
    - ``stars``: squares that must be covered; ``empty``: squares that must
      stay empty.
    - goal ``place-all``: place every listed piece; ``count``: count the ways
      to do so; ``maximize``: maximise ``target``'s (colours summed) score
      (``measure`` advanced ``score`` or ``squares`` placed), any subset of
      pieces may stay in hand.

    A definition that breaks these rules raises :class:`PuzzleError`
    quoting the bad value.
    """

    board: Board
    colors: tuple[int, ...]
    pieces: dict[int, tuple[int, ...]]
    setup: dict[int, tuple[Placement, ...]] = field(default_factory=dict)
    connect: Connect = Connect.GAME
    monomino_last: bool = False
    same_shape: SameShape = SameShape.NONE
    stars: frozenset[int] = frozenset()
    empty: frozenset[int] = frozenset()
    goal: Goal = Goal.PLACE_ALL
    target: tuple[int, ...] = ()
    measure: Measure = Measure.SCORE
    name: str = "puzzle"
    description: str = ""
    variant: Variant = CLASSIC  # colour names and piece set (the board is ``board``)

    def __post_init__(self) -> None:
        set_ = lambda name, value: object.__setattr__(self, name, value)  # noqa: E731 (frozen)
        for name, kind in _RULES.items():
            set_(name, _rule(kind, name, getattr(self, name)))
        set_("colors", tuple(self.colors))
        set_("pieces", {c: tuple(ps) for c, ps in self.pieces.items()})
        set_("setup", {c: tuple(ps) for c, ps in self.setup.items() if ps})
        set_("target", tuple(self.target))
        set_("stars", frozenset(self.stars))
        set_("empty", frozenset(self.empty))
        self._check()

    def _check(self) -> None:
        def fail(what: str):
            raise PuzzleError(f"{self.name}: {what}")

        for c in (*self.colors, *self.pieces, *self.setup, *self.target):
            if not (isinstance(c, int) and 0 <= c < NUM_COLORS):
                fail(f"colour {c!r} is not a colour index 0..{NUM_COLORS - 1}")
        if len(set(self.colors)) != len(self.colors):
            fail(f"a colour takes part twice: {self.colors!r}")
        for c in self.colors:
            if c not in self.pieces:
                fail(f"{self.color_name(c)} takes part but has no entry in pieces")
        for c, ps in self.pieces.items():
            if c not in self.colors:
                fail(f"pieces lists {self.color_name(c)}, which does not take part")
            if any(not (isinstance(i, int) and 0 <= i < NUM_PIECES) for i in ps) or len(set(ps)) != len(ps):
                fail(f"{self.color_name(c)}'s pieces {ps!r} are not distinct piece indices 0..{NUM_PIECES - 1}")
        table = self.table
        for c, ps in self.setup.items():
            if any(not (isinstance(p, int) and 0 <= p < len(table)) for p in ps):
                fail(f"{self.color_name(c)}'s set-up {ps!r} holds a placement that is not on the board")
        for name in ("stars", "empty"):
            squares = getattr(self, name)
            if any(not (isinstance(s, int) and 0 <= s < self.board.size) for s in squares):
                fail(f"{name} {sorted(squares)!r} holds a square that is not on the board")
        if self.goal is Goal.MAXIMIZE:
            if not self.target:
                fail("a maximize goal needs a target colour")
            for c in self.target:
                if c not in self.colors:
                    fail(f"target colour {self.color_name(c)} does not take part")
        elif self.target:
            fail(f"target is only used with goal maximize (the goal is {self.goal.value!r})")
        if self.monomino_last:
            for c in self.colors:
                if MONOMINO not in self.pieces[c]:
                    fail(f"monomino_last, but {self.color_name(c)} has no monomino to place")

    def _key(self) -> tuple:
        return (
            self.board, self.colors, tuple(sorted(self.pieces.items())), tuple(sorted(self.setup.items())),
            self.connect, self.monomino_last, self.same_shape, self.stars, self.empty, self.goal,
            self.target, self.measure, self.name, self.description, self.variant.key,
        )

    def __eq__(self, other) -> bool:
        return isinstance(other, Puzzle) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    @property
    def table(self) -> PlacementTable:
        return placement_table(self.board)

    @cached_property
    def masks(self) -> PuzzleMasks:
        """The square masks every engine starts from (computed once)."""
        t, b = self.table, self.board
        setup = tuple(mask_of(s for p in self.setup.get(c, ()) for s in t.squares[p]) for c in range(NUM_COLORS))
        empty = mask_of(self.empty)
        taken = b.blocked_mask | empty | _union(setup)
        return PuzzleMasks(setup, mask_of(self.stars), empty, taken, b.open_mask & ~taken)

    def setup_of(self, color: int) -> tuple[Placement, ...]:
        return self.setup.get(color, ())

    @property
    def piece_squares(self) -> int:
        """Squares of all pieces still to place."""
        return sum(PIECE_SIZES[p] for c in self.colors for p in self.pieces[c])

    @property
    def free_squares(self) -> int:
        """Squares a new piece could cover (not blocked, set-up or empty-marked)."""
        return self.masks.free.bit_count()

    @property
    def spare_squares(self) -> int:
        """Free squares minus the squares to place (44 for solo-84)."""
        return self.free_squares - self.piece_squares

    def with_goal(self, goal: Goal) -> "Puzzle":
        return replace(self, goal=goal, target=self.target if goal is Goal.MAXIMIZE else ())

    def _repr_png_(self) -> bytes:
        """The puzzle's board as a PNG, for notebooks (imports the renderer here)."""
        from solver.drawing.render import render_solution

        return render_solution(self)

    def color_name(self, c: int) -> str:
        """Colour c's name in the puzzle's variant (``blue``; ``purple`` in Duo)."""
        return self.variant.names[c] or COLORS[c]

    def summary(self) -> str:
        cols = ", ".join(f"{self.color_name(c)} {len(self.pieces[c])}" for c in self.colors)
        return (f"{self.name}: {self.board.width}x{self.board.height}, pieces {cols}, "
                f"connect={self.connect.value}, goal={self.goal.value}")


_RULES: dict[str, type[Enum]] = {"connect": Connect, "same_shape": SameShape, "goal": Goal, "measure": Measure}


def _rule(kind: type[Enum], name: str, value) -> Enum:
    try:
        return kind(value)
    except ValueError:
        raise PuzzleError(f"unknown {name} {value!r} (known: {' '.join(_names(kind))})") from None


def objective_value(puzzle: Puzzle, placements, last_piece: dict[int, int] | None = None) -> int:
    """The maximize goal's value of a set of placements: per target colour,
    squares placed (``squares``) or the advanced score (``score``), where
    ``last_piece[c]`` is colour c's last piece in play order."""
    t = puzzle.table
    total = 0
    for c in puzzle.target:
        squares = sum(len(t.squares[p]) for col, p in placements if col == c)
        if puzzle.measure is Measure.SQUARES:
            total += squares
        else:
            left = sum(PIECE_SIZES[i] for i in puzzle.pieces[c]) - squares
            total += advanced_score(left, (last_piece or {}).get(c) == MONOMINO)
    return total
