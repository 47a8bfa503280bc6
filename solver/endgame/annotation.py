"""What the annotation of a game holds: the proven bounds of each position's
value (:class:`Bounds`), one note per analysed move (:class:`MoveNote`) and
the whole game's (:class:`GameAnnotation`, with its ``--json`` object)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from solver.core.pieces import PIECES
from solver.core.position import Move, Position
from solver.formats.sgf import GameRecord


class Bounds(NamedTuple):
    """Proven lowest and highest value of a position; exact when equal."""

    lo: int
    hi: int

    @property
    def exact(self) -> bool:
        return self.lo == self.hi

    def meet(self, other: "Bounds | None") -> "Bounds":
        if other is None:
            return self
        return Bounds(max(self.lo, other.lo), min(self.hi, other.hi))


@dataclass
class MoveNote:
    """One analysed move: ``before`` bounds the value of the position it was
    played in, ``after`` the value of the position it led to, both from the
    point of view of the game value (two players) or of the mover's
    guaranteed score. ``loss`` is exact when both are; ``loss_bounds`` is
    what is proven either way (None when the move is not scored: out of
    turn, or the shared colour's)."""

    move: int  # 1-based number in the record
    color: int
    played: Move
    before: Bounds
    after: Bounds
    maximising: bool  # whether the mover wants the value high
    best_move: Move | None = None
    loss_bounds: Bounds | None = None
    only_move: bool | None = None  # the played move is the only one keeping the value (None: not checked)
    best_line: list[Move] = field(default_factory=list)
    solo_optimum: int | None = None  # games of three or four players: the mover's, before the move

    @property
    def loss(self) -> int | None:
        b = self.loss_bounds
        return b.lo if b is not None and b.exact else None

    @property
    def best_value(self) -> int | None:
        return self.before.lo if self.before.exact else None

    @property
    def mistake(self) -> bool:
        """Proven to have lost points."""
        return self.loss_bounds is not None and self.loss_bounds.lo > 0


@dataclass
class GameAnnotation:
    """The annotation of one game's main line (``moves`` in record order)."""

    source: str
    record: GameRecord
    end: Position  # the position at the end of the main line
    moves: list[MoveNote]
    seconds: float = 0.0
    nodes: int = 0
    notes: list[str] = field(default_factory=list)
    interrupted: bool = False  # stopped by Ctrl-C: the moves proven by then

    @property
    def two_player(self) -> bool:
        return self.record.variant.two_player

    @property
    def first_proven_move(self) -> int | None:
        return min((n.move for n in self.moves if n.before.exact), default=None)

    @property
    def mistakes(self) -> int:
        return sum(1 for n in self.moves if n.mistake)

    def value_name(self) -> str:
        v = self.record.variant
        if self.two_player:
            return f"{v.player_name(0)} minus {v.player_name(1)}"
        return "guaranteed score of the colour to move"

    def to_json(self) -> dict:
        """The ``--json`` object (the field names are a contract)."""
        pos = self.end
        return {
            "file": self.source,
            "variant": self.record.variant.game,
            "two_player": self.two_player,
            "value": self.value_name(),
            "moves_total": self.record.move_count,
            "from": self.moves[0].move if self.moves else None,
            "moves_analysed": len(self.moves),
            "first_proven_move": self.first_proven_move,
            "mistakes": self.mistakes,
            "seconds": round(self.seconds, 3),
            "nodes": self.nodes,
            "final_scores": {pos.name(c): pos.score(c) for c in pos.variant.colors},
            "game_over": pos.game_over,
            "notes": self.notes,
            "interrupted": self.interrupted,
            "moves": [_move_json(pos, n, self.two_player) for n in self.moves],
        }


def _move_text(pos: Position, move: Move | None) -> dict | None:
    if move is None:
        return None
    t = pos.table
    return {"color": pos.name(move.color), "piece": PIECES[t.piece[move.placement]].name,
            "squares": t.name(move.placement)}


def _exact(b: Bounds) -> int | None:
    return b.lo if b.exact else None


def _move_json(pos: Position, n: MoveNote, two_player: bool) -> dict:
    t = pos.table
    obj = {
        "move": n.move,
        "color": pos.name(n.color),
        "piece": PIECES[t.piece[n.played.placement]].name,
        "played": t.name(n.played.placement),
        "value_before": _exact(n.before),
        "proven": n.before.exact,
        "bounds": list(n.before),
        "best_move": None if n.best_move is None else t.name(n.best_move.placement),
        "best_piece": None if n.best_move is None else PIECES[t.piece[n.best_move.placement]].name,
        "best_value": n.best_value,
        "value_played": _exact(n.after),
        "played_bounds": list(n.after),
        "loss": n.loss,
        "loss_bounds": None if n.loss_bounds is None else list(n.loss_bounds),
        "only_move": n.only_move,
        "best_line": [_move_text(pos, m) for m in n.best_line],
    }
    if not two_player:
        obj["solo_optimum"] = n.solo_optimum
    return obj
