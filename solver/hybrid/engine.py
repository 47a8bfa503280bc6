"""The hybrid engine: the search engine builds a partial packing,
CP-SAT repairs it by large neighbourhood search (LNS).

1. The search engine runs for half the time limit (90% with the quarter
   turn: on 19x19 only the beam has completed packings), at most 120 s (its
   beams keep the longest partial packing they reached; a complete packing
   ends the solve). On a puzzle with the quarter-turn symmetry, or the
   half turn on rectangles, the symmetric search alone runs (under the half
   turn the compiled searches first: the two-colour halves where the
   puzzle halves, with 90% of the limit and no cap, as only they pack
   18x20; then the half-turn waste search; then the symmetric beam), and
   every LNS step below keeps the packing symmetric.
2. Then, step after step, a window of the board is freed: every piece
   that covers a square of a rectangle of about ``k`` x ``k`` squares
   (around an empty square, so that the holes get worked on) leaves the
   board, or, in half the steps, only one colour's pieces in a window
   twice as wide; the other pieces stay fixed. The first step frees
   nothing. CP-SAT solves the sub-puzzle: the fixed pieces are its set-up,
   its pieces are the freed ones and those never placed, it may cover the
   freed squares and every hole of the board, and it maximises the squares
   placed (among equals, holes near a sink square), hinted with the pieces
   it freed (so it starts from the current packing and can only improve on
   it).
3. A sub-solution that places at least as many squares (ties: when it
   differs, which moves the holes around) replaces the current packing
   once :func:`solver.puzzle.verify.verify` has checked the whole packing as a
   partial packing (legal, connected, nothing overlapping). Windows grow
   while steps bring nothing. What each of these did on the frontier
   puzzles: benchmarks/RESULTS.md.

The engine never claims a puzzle impossible on its own: it reports a
complete packing (OPTIMAL, as every place-all solution), or the best
partial packing at the time limit (UNKNOWN, ``best_partial``). Only a
proof by the search engine's exhaustive search is passed on as INFEASIBLE.
"""

from __future__ import annotations

import os
import random
import threading

from solver.deadline import Deadline
from solver.errors import OptionError
from solver.hybrid.lns import LnsStats, Repair
from solver.hybrid.settings import DEFAULT, Settings
from solver.hybrid.symmetric import halves_apply, symmetric_search
from solver.packing.driver import Mode
from solver.puzzle.definition import Goal, Puzzle
from solver.puzzle.result import ProgressCallback, Solution, SolveResult, Status
from solver.puzzle.symmetry import symmetry_applies, turn_symmetry


def solve(puzzle: Puzzle, time_limit: Deadline | float | None = 60.0, seed: int = 0, workers: int = 0,
          progress: ProgressCallback | None = None, stop: threading.Event | None = None,
          start: Solution | None = None, stats: LnsStats | None = None,
          search_share: float | None = None, symmetric: bool | None = None,
          settings: Settings = DEFAULT) -> SolveResult:
    """Solve a place-all puzzle with the hybrid (see the module docstring).
    ``start``: a partial packing to repair instead of the search engine's;
    ``stats`` (if given) is filled with what the LNS did; ``search_share``:
    the share of the limit the search engine gets first (default
    ``settings.search_share``, ``quarter_share`` with the quarter-turn
    symmetry, at most ``search_max`` seconds; ``halves_share``, with no cap,
    where the puzzle halves; 0: the LNS starts at once from nothing);
    ``symmetric``: True, search and
    repair only packings with the puzzle's turn symmetry (the quarter turn
    with the colours shifted on square boards, else the half turn with
    opposite colours swapped; OptionError when it has neither); None
    (auto), the same where the puzzle has a turn symmetry, no symmetry
    elsewhere; False, no symmetry (the search engine's general mode).
    ``settings``: the tunables (:mod:`solver.hybrid.settings`)."""
    if puzzle.goal is not Goal.PLACE_ALL:
        raise OptionError(f"{puzzle.name}: the hybrid engine packs place-all puzzles (the goal is {puzzle.goal.value})")
    clock = Deadline.of(time_limit)
    if clock.at is None:
        clock = Deadline(3600.0 * 24 * 365)  # no limit: until a packing is found or Ctrl-C
    time_limit = clock.left()
    nodes = 0
    S = settings
    found = turn_symmetry(puzzle) if symmetric is not False else "not asked for"
    symmetry = None if isinstance(found, str) else found  # auto: the puzzle's turn, if any (the half turn won
    if symmetric and symmetry is None:  # on 18x20, 13x14 and 10x18, tied on 21x17)
        raise OptionError(f"{puzzle.name}: no turn symmetry to search: {found}")
    quarter = symmetry is not None and symmetry_applies(puzzle) is None
    halving = symmetry is not None and not quarter and S.halves > 0 and halves_apply(puzzle)
    share = ((S.quarter_share if quarter else S.halves_share if halving else S.search_share) if search_share is None
             else search_share)
    if start is None and share <= 0:
        start = []
    if start is None:
        budget = share * time_limit if halving else min(S.search_max, share * time_limit)
        if symmetry is not None:
            first = symmetric_search(puzzle, clock.within(budget), seed, stop, progress, S)
        else:
            from solver.packing import solve as search_solve

            mode = Mode.GENERAL if symmetric is False else Mode.AUTO
            first = search_solve(puzzle, clock.within(budget), seed, mode, False, progress, stop)
        if first.status is not Status.UNKNOWN or first.interrupted:
            first.engine = "hybrid"
            first.method = f"search: {first.method}"
            return first
        nodes, start = first.nodes, first.placements
    repair = Repair(puzzle, list(start), clock, stats if stats is not None else LnsStats(), random.Random(seed),
                    workers or os.cpu_count() or 1, stop, symmetry, S)
    repair.run(progress)
    return repair.result(nodes)
