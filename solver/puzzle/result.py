"""What a solve reports, the same for both engines: a status, the placements,
the objective and its bound, counts, and progress reports on the way.

Statuses follow CP-SAT's convention: OPTIMAL (solved; for a place-all puzzle
any solution is a complete answer), FEASIBLE (a solution, but the optimum or
the full count is not proven), INFEASIBLE (proven impossible), UNKNOWN
(time ran out before an answer). A time limit never becomes INFEASIBLE.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Callable

from solver.core.placements import Placement

Solution = list[tuple[int, Placement]]  # (colour, placement) pairs, set-up pieces excluded


class Status(StrEnum):
    OPTIMAL = "OPTIMAL"
    FEASIBLE = "FEASIBLE"
    INFEASIBLE = "INFEASIBLE"
    UNKNOWN = "UNKNOWN"

    @property
    def definitive(self) -> bool:
        """A proven answer: solved to the end, or proven impossible."""
        return self in (Status.OPTIMAL, Status.INFEASIBLE)


@dataclass(frozen=True)
class Progress:
    """One progress report of a long solve: seconds since the start, nodes
    searched so far (0 when the engine does not count them) and what the
    engine has to show (``"81/84 pieces"``, ``"objective 12 bound 15"``).
    ``notice``: shown however early it comes (a solve's own reports start
    after a second). ``done`` of ``total`` steps (games of a batch, runs
    of a portfolio, positions of an annotation) when the work counts them:
    a progress bar shows that share and what is left; else the time."""

    elapsed: float
    nodes: int
    text: str
    notice: bool = False
    done: int = 0
    total: int = 0


ProgressCallback = Callable[[Progress], None]


@dataclass
class SolveResult:
    """A solve's answer. ``placements`` are the pieces placed (set-up pieces
    excluded) as (colour, placement) pairs, and ``order`` the same pieces in
    a legal play order (filled by :func:`solver.solving.solve`, which has
    verified them). ``objective`` is the maximize goal's value of the
    placements and ``bound`` the best proven upper bound. Counting runs set
    ``solution_count`` (raw), ``count_complete`` and, when complete,
    ``count_classes`` (up to the puzzle's symmetries); ``solutions`` holds
    the solutions themselves. ``method`` says which part of the engine gave
    the answer; ``stats`` holds engine figures for people (model size,
    conflicts), never anything a caller decides on. With engine ``both``,
    ``engines`` holds each engine's own result and ``disagreement`` what
    they contradict each other on (None when they agree). A place-all solve
    that ends without a solution (time limit, Ctrl-C) reports the most
    pieces it managed to place as ``placements`` with ``best_partial``: a
    legal partial packing, never a claim about the puzzle."""

    status: Status
    engine: str
    method: str = ""
    seconds: float = 0.0  # the solve's own time: kernel compiles not counted (they stop the clock)
    compile_seconds: float = 0.0  # kernel compiles during the solve (a first run on a machine)
    nodes: int = 0
    placements: Solution = field(default_factory=list)
    order: Solution = field(default_factory=list)
    objective: int | None = None
    bound: int | None = None
    solution_count: int | None = None
    count_complete: bool = False
    count_classes: int | None = None
    solutions: list[Solution] | None = None
    engines: dict[str, "SolveResult"] | None = None  # engine "both": each engine's own result
    disagreement: str | None = None  # engine "both": what the two contradict each other on
    best_partial: bool = False  # placements are the best partial packing found, not a solution
    interrupted: bool = False  # stopped by Ctrl-C (SIGINT): what was found so far
    stats: dict[str, int] = field(default_factory=dict)
    engine_reason: str = ""  # why this engine ran: the caller named it, or what ``auto`` saw in the puzzle
