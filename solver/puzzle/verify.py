"""The one verifier: checks a claimed solution of a puzzle against every rule
and constraint from scratch (square by square, no engine state), and builds
a play order for it.

Every solution either engine reports goes through :func:`verify` before it
is shown; the tests run it on every solution they see.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from solver.core.geometry import COLORS, SQUARE
from solver.core.pieces import MONOMINO, PIECES
from solver.core.placements import Placement
from solver.errors import BlokusError
from solver.puzzle.definition import Connect, Goal, Puzzle, SameShape, objective_value


class VerificationError(BlokusError):
    """A claimed solution breaks a rule (an engine bug, never user input)."""


@dataclass
class Verified:
    order: list[tuple[int, Placement]]  # new pieces in a legal play order
    objective: int | None  # the maximize goal's value, else None
    monomino_last: dict[int, bool]  # per colour: its last piece is the monomino


def verify(puzzle: Puzzle, placements: list[tuple[int, Placement]], partial: bool = False) -> Verified:
    """Check ``placements`` (the new pieces, as (colour, placement)) and
    return a play order; raise VerificationError naming the first broken rule.
    ``partial``: a partial packing (the best a solve found), checked for
    every rule of placement but not for the goal (every piece placed, every
    star covered, the monomino last)."""
    check = _Checker(puzzle, placements)
    check.edges()
    if not partial:
        check.goal()
    check.same_shape()
    check.starts()
    orders, mono_last = check.orders(partial)
    objective = None
    if puzzle.goal is Goal.MAXIMIZE:
        t = puzzle.table
        last = {c: t.piece[o[-1]] for c, o in orders.items() if o}
        objective = objective_value(puzzle, placements, last)
    return Verified(_rotation(orders, puzzle.colors), objective, mono_last)


class _Checker:
    """One verification: who owns which square, and one method per rule."""

    def __init__(self, puzzle: Puzzle, placements: list[tuple[int, Placement]]):
        self.puzzle, self.t, self.b = puzzle, puzzle.table, puzzle.board
        t = self.t
        self.pieces: dict[int, list[Placement]] = {c: list(puzzle.setup_of(c)) for c in puzzle.colors}
        for c, ps in puzzle.setup.items():
            self.pieces.setdefault(c, list(ps))
        self.new: dict[int, list[Placement]] = {c: [] for c in self.pieces}
        for c, p in placements:
            if c not in puzzle.colors:
                self.fail(f"colour {COLORS[c]} does not take part")
            if not 0 <= p < len(t):
                self.fail(f"placement index {p} is not on the board")
            if t.piece[p] not in puzzle.pieces[c]:
                self.fail(f"{self.label(c, p)}: {COLORS[c]} has no piece {PIECES[t.piece[p]].name} to place")
            if any(t.piece[q] == t.piece[p] for q in self.new[c]):
                self.fail(f"{self.label(c, p)}: piece placed twice")
            self.new[c].append(p)
            self.pieces[c].append(p)
        self.owner = self._owners()

    def fail(self, msg: str):
        raise VerificationError(f"{self.puzzle.name}: {msg}")

    def label(self, c: int, p: Placement) -> str:
        return f"{COLORS[c]} {PIECES[self.t.piece[p]].name} at {self.t.name(p)}"

    def _owners(self) -> dict[int, tuple[int, Placement]]:
        """Square -> (colour, placement): no blocked or must-stay-empty
        square covered, no square covered twice."""
        b, empty = self.b, self.puzzle.empty
        owner: dict[int, tuple[int, Placement]] = {}
        for c, ps in self.pieces.items():
            for p in ps:
                for sq in self.t.squares[p]:
                    if sq in b.blocked:
                        self.fail(f"{self.label(c, p)} covers blocked square {b.square_name(sq)}")
                    if sq in empty and p not in self.puzzle.setup_of(c):
                        self.fail(f"{self.label(c, p)} covers {b.square_name(sq)}, which must stay empty")
                    if sq in owner:
                        self.fail(f"{self.label(c, p)} overlaps {self.label(*owner[sq])} on {b.square_name(sq)}")
                    owner[sq] = (c, p)
        return owner

    def neighbours(self, sq: int, diagonal: bool) -> list[int]:
        """Cells sharing a side with sq, or (``diagonal``) only a corner,
        worked out here from the cells' corners, not from any table."""
        b = self.b
        r, col = b.row_col(sq)
        if b.grid == SQUARE:
            steps = ((1, 1), (1, -1), (-1, 1), (-1, -1)) if diagonal else ((1, 0), (-1, 0), (0, 1), (0, -1))
            return [b.square(r + dr, col + dc) for dr, dc in steps if b.on_board(r + dr, col + dc)]
        mine = _corners(b, r, col)
        shared = 1 if diagonal else 2
        return [b.square(r + dr, col + dc) for dr in (-1, 0, 1) for dc in range(-2, 3)
                if (dr or dc) and b.on_board(r + dr, col + dc)
                and len(mine & _corners(b, r + dr, col + dc)) == shared]

    def touching(self, c: int, p: Placement, diagonal: bool) -> set[Placement]:
        """Other pieces of colour c sharing an edge (or only a corner) with p."""
        found = set()
        for sq in self.t.squares[p]:
            for n in self.neighbours(sq, diagonal):
                o = self.owner.get(n)
                if o and o[0] == c and o[1] != p:
                    found.add(o[1])
        return found

    def edges(self) -> None:
        """No two pieces of one colour share an edge."""
        for c, ps in self.pieces.items():
            for p in ps:
                near = self.touching(c, p, diagonal=False)
                if near:
                    self.fail(f"{self.label(c, p)} shares an edge with {self.label(c, next(iter(near)))}")

    def goal(self) -> None:
        """Every piece placed (place-all, count), every star covered."""
        puzzle, t = self.puzzle, self.t
        if puzzle.goal is not Goal.MAXIMIZE:
            for c in puzzle.colors:
                missing = set(puzzle.pieces[c]) - {t.piece[p] for p in self.new[c]}
                if missing:
                    names = " ".join(PIECES[i].name for i in sorted(missing))
                    self.fail(f"{COLORS[c]} has not placed: {names}")
        for sq in sorted(puzzle.stars):
            if sq not in self.owner:
                self.fail(f"star square {self.b.square_name(sq)} is not covered")

    def same_shape(self) -> None:
        """Pieces of one shape and different colours do not share an edge
        (or a corner, under the ``corner`` rule)."""
        rule = self.puzzle.same_shape
        if rule is SameShape.NONE:
            return
        diagonal = rule is SameShape.CORNER
        t = self.t
        for sq, (c, p) in self.owner.items():
            near = self.neighbours(sq, False) + (self.neighbours(sq, True) if diagonal else [])
            for n in near:
                o = self.owner.get(n)
                if o and o[0] != c and t.piece[o[1]] == t.piece[p]:
                    how = "touches" if diagonal else "shares an edge with"
                    self.fail(f"{self.label(c, p)} {how} {self.label(*o)} of the same shape")

    def starts(self) -> None:
        """A colour with start squares and pieces covers one of them."""
        b, t = self.b, self.t
        for c in self.puzzle.colors:
            starts = b.starts[c]
            mine = self.pieces[c]
            if starts and mine and not any(sq in starts for p in mine for sq in t.squares[p]):
                names = " or ".join(b.square_name(s) for s in sorted(starts))
                self.fail(f"no {COLORS[c]} piece covers its start square {names}")

    def orders(self, partial: bool = False) -> tuple[dict[int, list[Placement]], dict[int, bool]]:
        """Per colour a play order of its new pieces under the connection
        rule, and whether it ends with the monomino."""
        puzzle, t = self.puzzle, self.t
        orders: dict[int, list[Placement]] = {}
        mono_last: dict[int, bool] = {}
        for c in puzzle.colors:
            if puzzle.connect is Connect.TOUCH:
                for p in self.pieces[c]:
                    if not self.touching(c, p, diagonal=True):
                        self.fail(f"{self.label(c, p)} touches no other {COLORS[c]} piece at a corner")
            if puzzle.connect is Connect.GAME:
                orders[c] = _game_order(puzzle, c, self.pieces[c], self.new[c],
                                        lambda p, c=c: self.touching(c, p, True), self.fail, self.label)
            else:
                orders[c] = _mono_last_first(t, self.new[c])
            mono_last[c] = bool(orders[c]) and t.piece[orders[c][-1]] == MONOMINO
            if puzzle.monomino_last and orders[c] and not mono_last[c] and not partial:
                self.fail(f"{COLORS[c]}: no legal play order ends with the monomino")
        return orders, mono_last


def _corners(b, row: int, col: int) -> set[tuple[int, int]]:
    """A triangle's corners as (x, line): x in half sides from the left of
    the rectangle, lines between the rows of triangles counted downwards. A
    triangle in column ``col`` spans x = col .. col + 2."""
    if (row + col + b.parity) % 2 == 0:  # points up: apex on its upper line
        return {(col + 1, row), (col, row + 1), (col + 2, row + 1)}
    return {(col, row), (col + 2, row), (col + 1, row + 1)}


def _mono_last_first(t, ps: list[Placement]) -> list[Placement]:
    """Any order, with the monomino moved to the end (no connection rule)."""
    return [p for p in ps if t.piece[p] != MONOMINO] + [p for p in ps if t.piece[p] == MONOMINO]


def _game_order(puzzle, c, all_pieces, new, corner_touching, fail, label) -> list[Placement]:
    """A play order of colour c's new pieces: breadth first from its set-up
    pieces, or from its start-square piece. The monomino goes last when the
    others can all be played first."""
    t, b = puzzle.table, puzzle.board
    if not all_pieces:
        return []
    given = [p for p in all_pieces if p not in new]
    if given:
        roots = given
    else:  # the first piece: one on a start square (any when there are none),
        # preferably not the monomino so that it can still go last
        starts = b.starts[c]
        roots = [p for p in new if not starts or any(sq in starts for sq in t.squares[p])]
        roots = sorted(roots, key=lambda p: t.piece[p] == MONOMINO)[:1]

    def bfs(skip: set[Placement]) -> list[Placement]:
        seen = set(roots)
        queue = deque(roots)
        order = []
        while queue:
            p = queue.popleft()
            if p not in given:
                order.append(p)
            for q in sorted(corner_touching(p)):
                if q not in seen and q not in skip:
                    seen.add(q)
                    queue.append(q)
        return order

    group = {all_pieces[0]}
    queue = deque(group)
    while queue:
        for q in corner_touching(queue.popleft()):
            if q not in group:
                group.add(q)
                queue.append(q)
    if len(group) != len(all_pieces):
        lost = next(p for p in all_pieces if p not in group)
        fail(f"{label(c, lost)} is not connected by corner contact to the other {COLORS[c]} pieces")
    if not new:
        return []

    mono = [p for p in new if t.piece[p] == MONOMINO and p not in roots]
    if mono:
        order = bfs(set(mono))
        if len(order) == len(new) - 1 and corner_touching(mono[0]):
            return order + mono
    order = bfs(set())
    if len(order) != len(new):  # cannot happen once the group is connected
        fail(f"{COLORS[c]}: no play order reaches every piece")
    return order


def _rotation(orders: dict[int, list[Placement]], colors) -> list[tuple[int, Placement]]:
    """Interleave the colours' orders in the play rotation (blue, yellow, ...)."""
    out = []
    queues = {c: deque(orders.get(c, [])) for c in sorted(colors)}
    while any(queues.values()):
        for c in sorted(colors):
            if queues[c]:
                out.append((c, queues[c].popleft()))
    return out
