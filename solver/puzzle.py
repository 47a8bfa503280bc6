"""The puzzle model shared by both engines, and the result type they return.

A puzzle is a board (size, blocked squares, start squares), the colours
taking part with the pieces each has, pieces already on the board (set-up),
a goal and extra constraints. Placements are indices into the board's
placement table, so a solution from either engine means the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .geometry import COLORS, Board
from .pieces import MONOMINO, PIECE_SIZES, PIECES
from .placements import Placement, PlacementTable, placement_table

CONNECT_RULES = ("game", "touch", "free")
SAME_SHAPE_RULES = ("none", "edge", "corner")
GOALS = ("place-all", "maximize", "count")
MEASURES = ("score", "squares")


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
    """

    board: Board
    colors: tuple[int, ...]
    pieces: dict[int, tuple[int, ...]]
    setup: dict[int, tuple[Placement, ...]] = field(default_factory=dict)
    connect: str = "game"
    monomino_last: bool = False
    same_shape: str = "none"
    stars: frozenset[int] = frozenset()
    empty: frozenset[int] = frozenset()
    goal: str = "place-all"
    target: tuple[int, ...] = ()
    measure: str = "score"
    name: str = "puzzle"
    description: str = ""

    def __post_init__(self) -> None:
        assert self.connect in CONNECT_RULES and self.same_shape in SAME_SHAPE_RULES
        assert self.goal in GOALS and self.measure in MEASURES
        assert all(c in self.pieces for c in self.colors)

    def __hash__(self) -> int:  # dict fields: hash by identity, compare by value
        return id(self)

    @property
    def table(self) -> PlacementTable:
        return placement_table(self.board)

    def setup_of(self, color: int) -> tuple[Placement, ...]:
        return self.setup.get(color, ())

    @property
    def piece_squares(self) -> int:
        """Squares of all pieces still to place."""
        return sum(PIECE_SIZES[p] for c in self.colors for p in self.pieces[c])

    @property
    def free_squares(self) -> int:
        """Squares a new piece could cover (not blocked, set-up or empty-marked)."""
        t = self.table
        taken = sum(len(t.squares[p]) for ps in self.setup.values() for p in ps)
        return self.board.size - len(self.board.blocked) - taken - len(self.empty)

    @property
    def spare_squares(self) -> int:
        """Free squares minus the squares to place (44 for solo-84)."""
        return self.free_squares - self.piece_squares

    def with_goal(self, goal: str) -> "Puzzle":
        from dataclasses import replace

        return replace(self, goal=goal)

    def _repr_png_(self) -> bytes:
        """The puzzle's board as a PNG, for notebooks (imports the renderer here)."""
        from .render import render_solution

        return render_solution(self)

    def summary(self) -> str:
        cols = ", ".join(f"{COLORS[c]} {len(self.pieces[c])}" for c in self.colors)
        return f"{self.name}: {self.board.width}x{self.board.height}, pieces {cols}, connect={self.connect}, goal={self.goal}"


class Status(str, Enum):
    OPTIMAL = "OPTIMAL"
    FEASIBLE = "FEASIBLE"
    INFEASIBLE = "INFEASIBLE"
    UNKNOWN = "UNKNOWN"


@dataclass
class SolveResult:
    """What an engine reports. ``placements`` are the pieces it placed (set-up
    pieces excluded) as (colour, placement) pairs; ``objective`` the goal's
    value for them (maximize), ``bound`` the best proven bound.
    ``solution_count`` is set for counting runs that finished (and the
    count under symmetry in ``count_classes``)."""

    status: Status
    engine: str
    seconds: float = 0.0
    placements: list[tuple[int, Placement]] = field(default_factory=list)
    objective: int | None = None
    bound: int | None = None
    solution_count: int | None = None
    count_classes: int | None = None
    nodes: int = 0
    stats: dict = field(default_factory=dict)
    solutions: list | None = None  # counting runs: the solutions found

    @property
    def solved(self) -> bool:
        return self.status in (Status.OPTIMAL, Status.FEASIBLE)


def objective_value(puzzle: Puzzle, placements, last_piece: dict[int, int] | None = None) -> int:
    """The maximize goal's value of a set of placements: per target colour,
    squares placed (``squares``) or the advanced score (``score``: minus the
    squares left, +15 when all placed, +20 when the monomino went last)."""
    t = puzzle.table
    total = 0
    for c in puzzle.target:
        placed = [p for col, p in placements if col == c]
        squares = sum(len(t.squares[p]) for p in placed)
        if puzzle.measure == "squares":
            total += squares
            continue
        left = sum(PIECE_SIZES[i] for i in puzzle.pieces[c]) - squares
        if left:
            total -= left
        else:
            mono_last = (last_piece or {}).get(c) == MONOMINO
            total += 20 if mono_last else 15
    return total


def all_pieces_names(indices) -> list[str]:
    return [PIECES[i].name for i in indices]
