"""An objective-specific search for one colour's maximize puzzles
(:func:`add_play_order`, with :func:`parameters`): a fixed decision order
that first claims both bonuses (monomino last, every piece placed), then
places the pieces largest first, each piece's candidates in a row. Under a
fixed search this is a depth-first search over the pieces in hand with
CP-SAT's propagation and clause learning; it proves "every piece cannot be
placed" far sooner than the default search, which spends most of the time
on the hard endgames closing the bound at +15/+20 (the best solution is
found early). The default LP search runs beside it, finding the solutions
(measured in benchmarks/RESULTS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ortools.sat.python import cp_model

from solver.core.pieces import PIECE_SIZES
from solver.cpsat.warmstart import applies
from solver.puzzle.definition import Connect, Goal

if TYPE_CHECKING:
    from solver.cpsat.variables import PuzzleModel

# two full searches, the fixed one and the default LP one, sharing bounds
# and clauses (interleaved neighbourhood searches get no worker of their own)
PORTFOLIO = 'num_full_subsolvers:2,subsolvers:"fixed",subsolvers:"default_lp"'


def add_play_order(m: PuzzleModel) -> bool:
    """Add the decision order to the model when it applies (one colour's
    maximize puzzle); returns whether it did."""
    if not (applies(m) or _packing(m)):
        return False
    puzzle, t = m.puzzle, m.puzzle.table
    flags = [v for c in puzzle.colors for v in (m.mono_last.get(c), m.all_placed.get(c)) if v is not None]
    by_piece: dict[int, list] = {}
    for (_, p), v in m.x.items():
        by_piece.setdefault(t.piece[p], []).append(v)
    pieces = sorted(by_piece, key=lambda i: (-PIECE_SIZES[i], len(by_piece[i]), i))
    order = flags + [v for i in pieces for v in by_piece[i]]
    m.model.add_decision_strategy(order, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    return True


def _packing(m: PuzzleModel) -> bool:
    """A place-all puzzle under the game rule whose colours each choose
    among several start squares (Trigon's shared starting points): there the
    default search wanders (trigon-solo-22: no packing in 60 s), the pieces
    largest first find one in about 15 s. With one start square per colour
    (solo-21) the order loses: 5 s -> over 60 s (benchmarks/RESULTS.md)."""
    p = m.puzzle
    return (p.goal is Goal.PLACE_ALL and p.connect is Connect.GAME
            and all(len(p.board.starts[c]) > 1 and not p.masks.setup[c] for c in p.colors))


def parameters(workers: int) -> str:
    """The parameters that run the order: beside the default search with
    two or more workers, alone (a fixed search) with one."""
    return "search_branching:FIXED_SEARCH" if workers == 1 else PORTFOLIO
