"""Which engine ``--engine auto`` (the default) runs on a puzzle, and why.

The rules follow what the engines did on every bundled puzzle
(``benchmarks/challenges.py`` and ``benchmarks/frontier.py``, figures in
benchmarks/RESULTS.md):

- counts and maximize goals: the search engine (its exhaustive count took
  29 s on tetromino-8x10 where CP-SAT took 107 s; solo optima are small),
  except a count on the triangle board, where CP-SAT counted
  trigon-stars-hex3 in 0.5 s and the search engine in 1.9 s;
- place-all puzzles of 42 pieces or more: the hybrid (on the frontier
  boards the search engine alone stayed 4 to 12 pieces short in 60 s
  where the hybrid packed 18x20 and 19x19; solo-84 in 0.5-0.7 s against
  the search engine's 1.2-1.8 s, solo-84-monomino-last in 1.8-2.1 s
  against 4.4-5.2 s), started again with the next seed every 30 s (a
  stuck seed rarely recovers);
- every other place-all puzzle: the search engine (solo-21 in 0.02 s,
  trigon-solo-22 in 0.1 s; CP-SAT alone took 1.4 s and 1.1 s, or ran out
  of time; on 30 small puzzles drawn at random, most of them impossible,
  ``benchmarks/small_place_all.py``, it decided all 30 at a median of
  0.05 s, CP-SAT 24 at 0.21 s, and 59 of 60 on two such sets);
- options only one engine takes choose that engine: a hint or CP-SAT
  parameters CP-SAT, a portfolio or a search share the hybrid, the
  exhaustive mode the search engine.
"""

from __future__ import annotations

from solver.core.geometry import SQUARE
from solver.puzzle.definition import Goal, Puzzle

RESTART_EVERY = 30.0  # seconds: auto's hybrid starts again with the next seed (solver.hybrid.portfolio.restarts)
MANY_PIECES = 42  # two colours' sets: below this the search engine packs alone (solo-21, trigon-solo-22)


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
    if pieces >= MANY_PIECES:
        return "hybrid", (f"{pieces} pieces to place: the hybrid packs large puzzles fastest, and the tight ones "
                          f"only it does (a new seed every {RESTART_EVERY:g} s)")
    return "search", f"a place-all puzzle of {pieces} pieces: the search engine packs these fastest"
