"""The model's variable types: what a built CP-SAT model of a puzzle holds
(:class:`PuzzleModel`), shared by the model and the modules that add its
constraints (candidates, connectivity, counting)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ortools.sat.python import cp_model

from solver.core.placements import Placement
from solver.cpsat.encoding import Encoding
from solver.errors import BlokusError
from solver.puzzle.definition import Puzzle


class CpsatError(BlokusError, ValueError):
    """Bad CP-SAT parameters."""


BoolVar = cp_model.IntVar  # a boolean of the model (new_bool_var); .Not() is its negation
Covering = dict[tuple[int, int], list[tuple[Placement, BoolVar]]]  # (colour, square) -> its candidates


@dataclass
class PuzzleModel:
    """A built model with the handles needed to read and hint solutions."""

    puzzle: Puzzle
    encoding: Encoding
    model: cp_model.CpModel
    x: dict[tuple[int, Placement], BoolVar] = field(default_factory=dict)  # (colour, placement) -> chosen
    covered: dict[tuple[int, int], BoolVar] = field(default_factory=dict)  # (colour, square) -> covered
    levels: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    parents: dict[tuple[int, int, int], BoolVar] = field(default_factory=dict)  # (colour, square, parent)
    roots: dict[tuple[int, int], BoolVar] = field(default_factory=dict)
    all_placed: dict[int, BoolVar] = field(default_factory=dict)
    mono_last: dict[int, BoolVar] = field(default_factory=dict)
    region: dict[int, int] = field(default_factory=dict)  # colour -> squares it may cover
    root_mask: dict[int, int] = field(default_factory=dict)  # colour -> fixed root squares
    objective_bound: int | None = None
    objective: cp_model.IntVar | None = None
    monomino_chains: bool = True  # the monomino-last chains are in the model (model._monomino_last_chains)

    @property
    def size(self) -> dict[str, int]:
        """Numbers of variables, constraints and candidate placements."""
        proto = self.model.proto
        return {"variables": len(proto.variables), "constraints": len(proto.constraints), "placements": len(self.x)}

    def solution(self, value: Callable[[BoolVar], bool]) -> list[tuple[int, Placement]]:
        """The chosen placements, read with ``value`` (a solver's or a
        solution callback's ``boolean_value``)."""
        return [(c, p) for (c, p), v in self.x.items() if value(v)]
