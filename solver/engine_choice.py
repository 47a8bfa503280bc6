"""Which engine ``--engine auto`` (the default) runs on a puzzle, and why.

The rules follow what the engines did on every bundled puzzle
(``benchmarks/challenges.py`` and ``benchmarks/frontier.py``, figures in
benchmarks/RESULTS.md):

- counts and maximize goals: the search engine (its exhaustive count took
  29 s on tetromino-8x10 where CP-SAT took 107 s; solo optima are small),
  except a count on the triangle board, where CP-SAT counted
  trigon-stars-hex3 in 0.5 s and the search engine in 1.9 s;
- place-all puzzles of many pieces that leave few squares spare (the
  frontier boards): the hybrid (the search engine alone stayed 4 to 12
  pieces short in 60 s; the hybrid packed 18x20 and 19x19), started again
  with the next seed every 30 s (a stuck seed rarely recovers);
- every other place-all puzzle: the search engine (solo-21 in 0.02 s,
  solo-84 by its quarter-turn search in 2 s, CP-SAT alone ran out of time
  on both of those and on trigon-solo-22);
- options only one engine takes choose that engine: a hint or CP-SAT
  parameters CP-SAT, a portfolio or a search share the hybrid, the
  exhaustive mode the search engine.
"""

from __future__ import annotations

from solver.core.geometry import SQUARE
from solver.puzzle.definition import Goal, Puzzle

RESTART_EVERY = 30.0  # seconds: auto's hybrid starts again with the next seed (solver.hybrid.portfolio.restarts)
MANY_PIECES = 42  # two colours' sets: below this the search engine packs alone (solo-21, trigon-solo-22)
FEW_SPARE = 0.05  # spare squares over the free squares: at most this is a tight packing (frontier: 0.3 % to 2.2 %)


def choose_engine(puzzle: Puzzle, *, count: bool = False, hint: bool = False, cpsat_options: bool = False,
                  hybrid_options: bool = False, search_options: bool = False) -> tuple[str, str]:
    """The engine for ``puzzle`` (``"search"``, ``"cpsat"`` or
    ``"hybrid"``) and the reason, one sentence for the user. ``count``:
    solutions are counted; ``hint``: a complete solution is given to start
    from; ``cpsat_options`` / ``hybrid_options``: options only that engine
    takes were given (they are checked in that order)."""
    if hybrid_options:
        return "hybrid", "a portfolio and a search share are the hybrid engine's options"
    if hint or cpsat_options:
        return "cpsat", "a hint and CP-SAT parameters are CP-SAT's options"
    if search_options:
        return "search", "the exhaustive mode is the search engine's"
    counting = count or puzzle.goal is Goal.COUNT
    if counting and puzzle.board.grid != SQUARE:
        return "cpsat", "counting on the triangle board, where CP-SAT counts faster than the search engine"
    if counting:
        return "search", "counting: the search engine's exhaustive count"
    if puzzle.goal is Goal.MAXIMIZE:
        return "search", "a maximize goal: the search engine's branch and bound proves the optimum"
    pieces = sum(len(puzzle.pieces.get(c, ())) for c in puzzle.colors)
    free, spare = puzzle.free_squares, puzzle.spare_squares
    if pieces >= MANY_PIECES and free and spare <= FEW_SPARE * free:
        return "hybrid", (f"{pieces} pieces with {spare} of {free} squares spare: a tight packing, where the "
                          f"hybrid packs and the search engine alone falls short (a new seed every "
                          f"{RESTART_EVERY:g} s)")
    return "search", f"a place-all puzzle of {pieces} pieces with {spare} squares spare: the search engine packs these"
