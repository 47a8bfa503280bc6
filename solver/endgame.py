"""Endgame analysis of a game position: what each colour can still make of it.

- Solo optimum: a colour's best advanced score if the other colours placed
  nothing more; an upper bound on what it can really reach. It is a maximize
  puzzle (the board as it is, the colour's pieces in hand, the ``game``
  rule), solved by either engine or by both with a cross-check.
- Independence: when no square can be reached by two colours' future
  pieces, the colours no longer interact and the solo optima are the exact
  outcome of best play. Otherwise the colours that still interact are named
  in groups.
- Two-player games: the exact game value (seat 1 minus seat 2) and the best
  move, by alpha-beta over real play when the rest of the game is small
  enough; otherwise proven bounds from the solo optima and current scores.
- Four-player games: the score each colour can guarantee whatever the
  others do, when that search finishes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from .geometry import COLORS, Mask
from .pieces import MONOMINO, PIECES
from .position import Move, Position
from .puzzle import Puzzle, SolveResult, Status


@dataclass
class ColourReport:
    color: int
    score_now: int
    solo_optimum: int | None
    proven: bool
    proven_by: str | None = None
    bound: int | None = None  # upper bound on the solo optimum when not proven
    placements: list = field(default_factory=list)  # [(colour, placement)] reaching the solo optimum
    guaranteed: int | None = None  # four-player: score it can guarantee (when proven)
    disagreement: str | None = None


@dataclass
class Analysis:
    position: Position
    two_player: bool
    game_over: bool
    colours: list[ColourReport]
    independent: bool
    groups: list[list[int]]  # colours that still interact, each group of two or more
    game_value: int | None = None
    game_value_proven: bool = False
    game_bounds: tuple[int, int] | None = None
    best_move: Move | None = None
    notes: list[str] = field(default_factory=list)


def solo_puzzle(pos: Position, color: int) -> Puzzle:
    """The maximize puzzle of a colour playing alone from this position."""
    setup = {}
    for c in range(4):
        placed = list(pos.initial_setup[c]) + [p for col, p in pos.history if col == c]
        if placed:
            setup[c] = tuple(placed)
    return Puzzle(
        board=pos.board,
        colors=(color,),
        pieces={color: tuple(pos.pieces_left(color))},
        setup=setup,
        connect="game",
        goal="maximize",
        target=(color,),
        measure="score",
        name=f"{COLORS[color]} alone",
    )


def reach(pos: Position, color: int) -> Mask:
    """Squares that some future piece of the colour could cover (a superset):
    its legal placements, grown by king steps through squares it may cover,
    at most as many steps as it has squares left beyond one piece (each
    further piece touches an earlier one at a corner)."""
    if not pos.hand[color]:
        return 0
    b, t = pos.board, pos.table
    seed = 0
    for p in pos.legal_placements(color):
        seed |= t.mask[p]
    return b.king_fill(seed, ~pos.forbidden[color] & b.full_mask, steps=pos.squares_left(color) - 1)


def interaction_groups(pos: Position) -> list[list[int]]:
    """Groups of colours whose future squares overlap (directly or through
    others); colours alone in their group are left out."""
    regions = [reach(pos, c) for c in range(4)]
    parent = list(range(4))

    def find(c):
        while parent[c] != c:
            c = parent[c]
        return c

    for a in range(4):
        for b in range(a + 1, 4):
            if regions[a] & regions[b]:
                parent[find(a)] = find(b)
    groups: dict[int, list[int]] = {}
    for c in range(4):
        groups.setdefault(find(c), []).append(c)
    return [g for g in groups.values() if len(g) > 1]


class ScoreOutlook:
    """``outlook(pos)``: for each colour, (lowest, highest) final score it can
    still end with, for the game-tree search. A colour whose reach meets no
    other colour's reach is settled: nobody can change what it makes, so its
    final score is exactly its score now plus its solo gain (found by the
    search engine and memoised on what it depends on: the hand, the reach,
    and the forbidden and attach squares in it). Any other colour ends
    between its score now (scores never fall) and its score now plus the
    squares it can still cover (capped by its reach), plus the bonuses when
    everything might still fit. A solo search that does not finish within
    ``limit`` seconds leaves the colour unsettled."""

    def __init__(self, limit: float = 1.0):
        self.limit = limit
        self.memo: dict = {}

    def __call__(self, pos: Position) -> list[tuple[int, int]]:
        regions = [reach(pos, c) for c in range(4)]
        out = []
        for c in range(4):
            now, region = pos.score(c), regions[c]
            others = 0
            for o in range(4):
                if o != c:
                    others |= regions[o]
            gain = self.gain(pos, c, region) if not region & others else None
            out.append((now + gain, now + gain) if gain is not None else (now, now + self.most(pos, c, region)))
        return out

    @staticmethod
    def most(pos: Position, c: int, region: Mask) -> int:
        left, room = pos.squares_left(c), region.bit_count()
        if not region:
            return 0
        if room < left:
            return room
        return left + 15 + (5 if pos.hand[c] >> MONOMINO & 1 else 0)

    def gain(self, pos: Position, c: int, region: Mask) -> int | None:
        if not region:  # no legal move (the reach grows from the legal moves)
            return 0
        key = (c, pos.hand[c], region, pos.forbidden[c] & region, pos.board.corner_neighbours(pos.occupied[c]) & region)
        if key not in self.memo:
            from .search.driver import best_value

            value = best_value(solo_puzzle(pos, c), time_limit=self.limit)
            self.memo[key] = None if value is None else value - pos.score(c)
        return self.memo[key]


def _solo(pos: Position, color: int, engine: str, time_limit: float, options: dict) -> ColourReport:
    now = pos.score(color)
    if not pos.hand[color] or not pos.legal_placements(color):
        # nothing left to place, or never a move again: the score is final
        return ColourReport(color, now, now, True, "rules")
    puzzle = solo_puzzle(pos, color)
    check_note = None
    if engine == "search":
        from .search import solve

        result = solve(puzzle, time_limit=time_limit)
    elif engine == "cpsat":
        from . import cpsat

        result = cpsat.solve(puzzle, time_limit=time_limit, **options)
    else:
        from .crosscheck import solve_both

        both = solve_both(puzzle, time_limit=time_limit, cpsat_options=options)
        result, check_note = both.combined, both.disagreement
        proven_by = [n for n, r in both.results.items() if r.status is Status.OPTIMAL]
        result.engine = "+".join(proven_by) if proven_by else "both"
    return _report(color, now, result, check_note)


def _report(color: int, now: int, result: SolveResult, disagreement: str | None) -> ColourReport:
    proven = result.status is Status.OPTIMAL
    return ColourReport(color, now, result.objective, proven, result.engine if proven else None,
                        None if proven else result.bound, result.placements, disagreement=disagreement)


ENGINES = ("search", "cpsat", "both")


def analyze(pos: Position, two_player: bool, time_limit: float = 60.0, engine: str = "search",
            options: dict | None = None, progress: Callable[[str], None] | None = None) -> Analysis:
    """Analyse a position; ``time_limit`` is shared over all the work: about
    half for the solo optima, the rest for the game-tree search.
    ``progress(text)`` hears what is being worked on."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    options = options or {}
    say = progress or (lambda text: None)
    start = time.monotonic()
    deadline = start + time_limit
    groups = interaction_groups(pos)
    active = [c for c in range(4) if pos.hand[c] and pos.legal_placements(c)]
    reports = []
    for c in range(4):
        say(f"solo optimum of {COLORS[c]}")
        left = sum(1 for a in active if a >= c)
        share = max(0.5, (deadline - time.monotonic()) / (2 * max(1, left)))
        reports.append(_solo(pos, c, engine, share, options))
    analysis = Analysis(pos, two_player, pos.game_over, reports, not groups, groups)
    if pos.game_over:
        analysis.notes.append("the game is over: these are the final scores")
    all_proven = all(r.proven for r in reports)
    if two_player:
        say("game value (alpha-beta)")
        _two_player(analysis, deadline, all_proven)
    else:
        say("guaranteed scores (alpha-beta)")
        _four_player(analysis, deadline)
    return analysis


def _two_player(analysis: Analysis, deadline: float, all_proven: bool) -> None:
    from .search.gametree import OutOfTime, two_player_value

    pos, reps = analysis.position, analysis.colours
    now = [r.score_now for r in reps]
    best = [r.solo_optimum if r.proven else (r.bound if r.bound is not None else 20) for r in reps]
    # seat 1 can at most reach its solo optima while seat 2 gains nothing, and the other way round
    hi = best[0] + best[2] - now[1] - now[3]
    lo = now[0] + now[2] - best[1] - best[3]
    analysis.game_bounds = (lo, hi)
    if analysis.independent and all_proven:
        analysis.game_value = reps[0].solo_optimum + reps[2].solo_optimum - reps[1].solo_optimum - reps[3].solo_optimum
        analysis.game_value_proven = True
        analysis.best_move = _first_move(analysis)
        analysis.notes.append("the colours no longer interact: the game value is the sum of the solo optima")
        return
    if pos.game_over:
        s1, s2 = pos.seat_scores()
        analysis.game_value, analysis.game_value_proven = s1 - s2, True
        return
    try:
        value, move, nodes = two_player_value(pos.copy(), deadline, window=(lo, hi), outlook=ScoreOutlook())
    except OutOfTime:
        analysis.notes.append("the game tree was too big for the time limit: only the bounds are proven")
        return
    analysis.game_value, analysis.game_value_proven, analysis.best_move = value, True, move
    analysis.notes.append(f"game value by alpha-beta over the rest of the game ({nodes:,} positions)")


def _four_player(analysis: Analysis, deadline: float) -> None:
    from .search.gametree import OutOfTime, guaranteed_score

    pos = analysis.position
    if pos.game_over:
        for r in analysis.colours:
            r.guaranteed = r.score_now
        return
    if analysis.independent:
        for r in analysis.colours:
            r.guaranteed = r.solo_optimum if r.proven else None
        analysis.best_move = _first_move(analysis)
        analysis.notes.append("the colours no longer interact: each can guarantee its solo optimum")
        return
    for r in analysis.colours:
        if time.monotonic() > deadline:
            break
        try:
            value, move, _ = guaranteed_score(pos.copy(), r.color, deadline, outlook=ScoreOutlook())
        except OutOfTime:
            analysis.notes.append(f"{COLORS[r.color]}: the guaranteed score was not proven within the time limit")
            continue
        r.guaranteed = value
        if move is not None and pos.to_move == r.color:
            analysis.best_move = move


def _first_move(analysis: Analysis) -> Move | None:
    """In a position without interaction: the first move of the colour to move
    in a play order reaching its solo optimum."""
    from .verify import verify

    pos = analysis.position
    if pos.to_move is None:
        return None
    report = analysis.colours[pos.to_move]
    if not report.placements:
        return None
    order = verify(solo_puzzle(pos, pos.to_move), report.placements).order
    return Move(*order[0]) if order else None


def piece_names(pos: Position, color: int) -> list[str]:
    return [PIECES[i].name for i in pos.pieces_left(color)]
