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

The game tree is the compiled engine (:mod:`solver.endgame.treekernel`);
``analyze(..., tree="python")`` takes the plain-Python reference tree
(:mod:`solver.endgame.gametree`) instead, as do boards the compiled engine
does not take.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from solver.core.geometry import NUM_COLORS, Mask
from solver.core.pieces import MONOMINOES
from solver.core.position import Move, Position
from solver.core.scoring import best_bonus
from solver.core.text import counted
from solver.deadline import Deadline
from solver.endgame.trees import (
    TABLE_BITS,
    Tree,
    choose,
    compiled_tree_ready,
    compiling_in_background,
    load_compiled_tree,
    tree_cache_writable,
    tree_threads,
)
from solver.options import check_time_limit, choice
from solver.puzzle.definition import Connect, Goal, Measure, Puzzle
from solver.puzzle.result import Progress, ProgressCallback, Status
from solver.solving import ENGINES, Engine, ctrl_c_stops, solve

if TYPE_CHECKING:
    from solver.endgame.treecluster import TreeCluster


@dataclass
class ColorReport:
    color: int
    score_now: int
    solo_optimum: int | None
    proven: bool
    proven_by: str | None = None
    bound: int | None = None  # upper bound on the solo optimum when not proven
    placements: list = field(default_factory=list)  # [(colour, placement)] reaching the solo optimum, in play order
    guaranteed: int | None = None  # four-player: score it can guarantee (when proven)
    disagreement: str | None = None


@dataclass
class Analysis:
    position: Position
    two_player: bool
    game_over: bool
    colors: list[ColorReport]
    independent: bool
    groups: list[list[int]]  # colours that still interact, each group of two or more
    game_value: int | None = None
    game_value_proven: bool = False
    game_bounds: tuple[int, int] | None = None
    best_move: Move | None = None
    notes: list[str] = field(default_factory=list)
    nodes: int | None = None  # positions the game tree searched (None: no search ran)
    seconds: float | None = None  # the game tree's time
    depth: int | None = None  # the most plies below this position its lines reached
    tree_proven: bool = False  # every game-tree search finished
    interrupted: bool = False  # stopped by Ctrl-C: what was proven by then
    cluster_tasks: int | None = None  # tasks of the two-player search split over a Dask cluster

    @property
    def winner(self) -> int | None:
        """Who wins under best play, where the value or its proven bounds
        decide it: 1 seat 1, -1 seat 2, 0 a draw; None where they do not
        (or four players)."""
        if not self.two_player or not (self.game_value_proven or self.game_bounds):
            return None
        lo, hi = (self.game_value, self.game_value) if self.game_value_proven else self.game_bounds
        if lo > 0 or hi < 0:
            return 1 if lo > 0 else -1
        return 0 if lo == hi == 0 else None

    @property
    def positions_per_second(self) -> float | None:
        if self.nodes is None or not self.seconds:
            return None
        return self.nodes / self.seconds


def solo_puzzle(pos: Position, color: int) -> Puzzle:
    """The maximize puzzle of a colour playing alone from this position."""
    setup = {}
    for c in range(NUM_COLORS):
        placed = list(pos.initial_setup[c]) + [p for col, p in pos.history if col == c]
        if placed:
            setup[c] = tuple(placed)
    return Puzzle(
        board=pos.board,
        colors=(color,),
        pieces={color: tuple(pos.pieces_left(color))},
        setup=setup,
        connect=Connect.GAME,
        goal=Goal.MAXIMIZE,
        target=(color,),
        measure=Measure.SCORE,
        name=f"{pos.name(color)} alone",
        variant=pos.variant,
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
    regions = [reach(pos, c) for c in range(NUM_COLORS)]
    parent = list(range(NUM_COLORS))

    def find(c):
        while parent[c] != c:
            c = parent[c]
        return c

    for a in range(NUM_COLORS):
        for b in range(a + 1, 4):
            if regions[a] & regions[b]:
                parent[find(a)] = find(b)
    groups: dict[int, list[int]] = {}
    for c in range(NUM_COLORS):
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
        regions = [reach(pos, c) for c in range(NUM_COLORS)]
        out = []
        for c in range(NUM_COLORS):
            now, region = pos.score(c), regions[c]
            others = 0
            for o in range(NUM_COLORS):
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
        return left + (best_bonus(bool(pos.hand[c] & MONOMINOES)) if pos.variant.bonus else 0)

    def gain(self, pos: Position, c: int, region: Mask) -> int | None:
        if not region:  # no legal move (the reach grows from the legal moves)
            return 0
        key = (c, pos.hand[c], region, pos.forbidden[c] & region, pos.board.corner_neighbours(pos.occupied[c]) & region)
        if key not in self.memo:
            self.memo[key] = _solo_gain(pos, c, self.limit)
        return self.memo[key]


def _solo_gain(pos: Position, c: int, limit: float) -> int | None:
    """What colour c alone still adds to its score, or None when the solo
    search does not finish within ``limit`` seconds."""
    if pos.variant.copies > 1:  # pieces twice: by play (the puzzle engines place each piece once)
        from solver.endgame.gametree import OutOfTime, solo_optimum

        try:
            return solo_optimum(pos, c, Deadline(limit).at)[0] - pos.score(c)
        except OutOfTime:
            return None
    from solver.packing.driver import best_value

    value = best_value(solo_puzzle(pos, c), time_limit=limit)
    return None if value is None else value - pos.score(c)


def _solo(pos: Position, color: int, engine: Engine, deadline: Deadline, options: dict,
          tree: Tree) -> ColorReport:
    now = pos.score(color)
    if not pos.hand[color] or not pos.legal_placements(color):
        # nothing left to place, or never a move again: the score is final
        return ColorReport(color, now, now, True, "rules")
    if pos.variant.copies > 1:
        return _solo_by_play(pos, color, deadline, tree)
    result = solve(solo_puzzle(pos, color), engine, time_limit=deadline, **options)
    proven = result.status is Status.OPTIMAL
    proven_by = None
    if proven:
        engines = result.engines or {result.engine: result}
        proven_by = "+".join(name for name, r in engines.items() if r.status is Status.OPTIMAL)
    return ColorReport(color, now, result.objective, proven, proven_by, None if proven else result.bound,
                       result.order, disagreement=result.disagreement)


def _solo_by_play(pos: Position, color: int, deadline: Deadline, tree: Tree) -> ColorReport:
    """A solo optimum by a one-colour game tree (Junior: each piece twice,
    which the puzzle engines do not model): the compiled one where it
    applies, else the Python one over the rules core; the line it reports
    is replayed by the rules core, which must reach the value."""
    from solver.endgame.gametree import OutOfTime  # (the compiled engine's is a subclass)

    if choose(pos, tree) is Tree.COMPILED:
        from solver.endgame.treeengine import solo_optimum
    else:
        from solver.endgame.gametree import solo_optimum
    now = pos.score(color)
    try:
        value, line, _ = solo_optimum(pos, color, deadline.at)
    except OutOfTime:
        return ColorReport(color, now, None, False, bound=now + ScoreOutlook.most(pos, color, reach(pos, color)))
    _check_line(pos, color, line, value)
    return ColorReport(color, now, value, True, "game tree", placements=[(m.color, m.placement) for m in line])


def _check_line(pos: Position, color: int, line: list[Move], value: int) -> None:
    """The rules core replays a solo line: every move legal, the value reached."""
    from solver.endgame.gametree import playing_alone

    alone = playing_alone(pos, color)
    for move in line:
        alone.check_move(move)
        alone.push(move)
    if alone.score(color) != value:
        raise AssertionError(f"{pos.name(color)}'s solo line reaches {alone.score(color)}, not {value}: a bug")


def analyze(pos: Position, two_player: bool, time_limit: Deadline | float = 60.0, engine: Engine | str = Engine.SEARCH,
            options: dict | None = None, progress: ProgressCallback | None = None,
            tree: Tree | str = Tree.COMPILED, cluster: TreeCluster | None = None,
            threads: int | None = None) -> Analysis:
    """Analyse a position; ``time_limit`` is shared over all the work: about
    half for the solo optima, the rest for the game-tree search.
    ``options`` go to :func:`solver.solving.solve` (CP-SAT's workers,
    encoding and parameters); ``progress`` hears what is being worked on;
    ``tree``: ``compiled`` (the numba engine) or ``python`` (the reference);
    ``cluster``: split the compiled two-player search's tree over a Dask
    cluster (:mod:`solver.endgame.treecluster`) instead of threads here;
    ``threads``: the compiled tree's threads here (default one per core).

    The compiled tree is loaded before the limit starts. When it is not
    compiled yet (a first run), a process of its own compiles it while the
    Python tree analyses here; an analysis the Python tree completes first
    is the answer, else the compiled tree's, with the whole limit, once
    the compile is done. The compile goes on after an early answer, so
    that the next run finds it done."""
    check_time_limit(time_limit)
    engine = choice(Engine, engine, "engine", ENGINES)
    tree = choose(pos, tree)
    options = options or {}
    groups = interaction_groups(pos)
    with ctrl_c_stops() as stop:  # Ctrl-C: what was proven by then
        result = None
        if tree is Tree.COMPILED and (groups or pos.variant.copies > 1):
            if not compiled_tree_ready() and tree_cache_writable():
                result = _race_the_compile(pos, two_player, time_limit, engine, options, progress, groups, stop)
            if result is None:
                load_compiled_tree(pos, progress)
        if result is None:
            result = _analyze(pos, two_player, time_limit, engine, options, progress, tree, groups, stop, cluster,
                              tree_threads(threads))
    result.interrupted = stop.is_set()
    if result.interrupted:
        result.notes.append("interrupted (Ctrl-C): what was proven by then")
    return result


def _race_the_compile(pos: Position, two_player: bool, time_limit: Deadline | float, engine: Engine, options: dict,
                      progress: ProgressCallback | None, groups: list[list[int]],
                      stop: threading.Event) -> Analysis | None:
    """The Python tree's analysis while the compiled tree compiles in the
    background: returned when complete (or when Ctrl-C comes), else None
    once the compile is done (the compiled tree then analyses)."""
    from solver.endgame.gametree import EitherSet

    with compiling_in_background() as background:
        compiled = background.done
        if progress is not None:
            progress(Progress(0.0, 0, "the compiled game tree compiles in the background (once per install, about "
                                      "a minute): the Python tree searches meanwhile", notice=True))
        first = _analyze(pos, two_player, time_limit, engine, options, progress, Tree.PYTHON, groups,
                         EitherSet(stop, compiled))
        if stop.is_set():
            background.cancel()
            return first
        if first.tree_proven and all(r.proven for r in first.colors):
            first.notes.append("the Python tree answered while the compiled one compiled; the compile goes on "
                               "in the background for the next runs ('blokus warm-up' compiles every kernel ahead)")
            return first
        if progress is not None:
            progress(Progress(0.0, 0, "waiting for the compiled game tree to finish compiling", notice=True))
        while not compiled.wait(0.2):
            if stop.is_set():  # Ctrl-C while waiting: what the Python tree proved
                background.cancel()
                return first
    return None


def _analyze(pos: Position, two_player: bool, time_limit: Deadline | float, engine: Engine, options: dict,
             progress: ProgressCallback | None, tree: Tree, groups: list[list[int]],
             stop: threading.Event, cluster: TreeCluster | None = None, threads: int = 1) -> Analysis:
    clock = Deadline.of(time_limit)  # (from here: the compiled tree is loaded)

    def say(text: str) -> None:
        if progress:
            progress(Progress(clock.elapsed, 0, text))

    active = [c for c in range(NUM_COLORS) if pos.hand[c] and pos.legal_placements(c)]
    reports = []
    for c in range(NUM_COLORS):
        if stop.is_set():
            reports.append(_unsolved(pos, c))
            continue
        if c in pos.variant.colors:  # (a slot not in play has nothing to place)
            say(f"solo optimum of {pos.name(c)}")
        left = sum(1 for a in active if a >= c)
        share = max(0.5, clock.left() / (2 * max(1, left)))
        reports.append(_solo(pos, c, engine, clock.within(share), options, tree))
    analysis = Analysis(pos, two_player, pos.game_over, reports, not groups, groups)
    if pos.game_over:
        analysis.notes.append("the game is over: these are the final scores")
    all_proven = all(r.proven for r in reports)
    if two_player:
        say("game value (alpha-beta)" if cluster is None or tree is not Tree.COMPILED
            else "game value (alpha-beta, the tree split over a Dask cluster)")
        _two_player(analysis, clock.at, all_proven, tree, stop, cluster, threads)
    else:
        say("guaranteed scores (alpha-beta)")
        _four_player(analysis, clock.at, tree, stop, threads)
    return analysis


def _unsolved(pos: Position, color: int) -> ColorReport:
    """A colour's report with no search: its score now, the bound of its reach."""
    now = pos.score(color)
    if not pos.hand[color] or not pos.legal_placements(color):
        return ColorReport(color, now, now, True, "rules")
    return ColorReport(color, now, None, False, bound=now + ScoreOutlook.most(pos, color, reach(pos, color)))


class _TreeRun:
    """One game-tree engine for an analysis: the compiled one where it
    applies, else the Python reference; adds up what its searches did."""

    def __init__(self, analysis: Analysis, tree: Tree, stop: threading.Event | None = None,
                 cluster: TreeCluster | None = None, threads: int = 1):
        from solver.endgame import treeengine

        self.analysis = analysis
        self.stop = stop
        self.cluster = cluster
        self.threads = threads
        self.compiled = tree is Tree.COMPILED
        self.kernel = treeengine
        analysis.nodes, analysis.seconds, analysis.depth = 0, 0.0, 0

    def two_player(self, deadline: float, window: tuple[int, int]) -> tuple[int, Move | None]:
        pos = self.analysis.position.copy()
        if self.compiled:
            return self._count(lambda: self._solve_two_player(pos, deadline, window))
        from solver.endgame.gametree import two_player_value

        return self._python(lambda: two_player_value(pos, deadline, window=window, outlook=self._outlook(),
                                                             stop=self.stop))

    def guaranteed(self, colors: list[int], deadline: float) -> dict[int, tuple[int, Move | None] | Exception]:
        """The guaranteed scores of ``colors`` (value and best move, or the
        OutOfTime of a colour not proven by the deadline); the compiled
        engine searches ``threads`` colours at once, and a thread with no
        colour left helps with one still searched."""
        pos = self.analysis.position
        if self.compiled:
            from solver.endgame import treesplit

            outs = treesplit.solve_guaranteed_all(pos, colors, deadline, self.threads, TABLE_BITS, self.stop)
            return {c: self._tally(out) for c, out in outs.items()}
        from solver.endgame.gametree import OutOfTime, guaranteed_score

        found: dict = {}
        for c in colors:
            try:
                found[c] = self._python(lambda: guaranteed_score(pos.copy(), c, deadline, outlook=self._outlook(),
                                                                     stop=self.stop))
            except OutOfTime as e:
                found[c] = e
        return found

    def _tally(self, out):
        """Add a compiled search's figures (an Outcome or an OutOfTime) to the analysis."""
        a = self.analysis
        a.nodes += out.nodes
        a.seconds += out.seconds
        a.depth = max(a.depth, out.depth)
        return out if isinstance(out, Exception) else (out.value, out.move)

    def _solve_two_player(self, pos: Position, deadline: float, window: tuple[int, int]):
        """The compiled two-player search, its root moves split between
        ``threads`` threads (solver.endgame.treesplit) when that is over one,
        or over the analysis's Dask cluster."""
        if self.cluster is not None:
            from solver.cluster import connect
            from solver.endgame import treecluster

            with connect(self.cluster.workers, self.cluster.scheduler) as client:
                split = treecluster.solve_two_player(pos, client, deadline, window, self.cluster.plies, TABLE_BITS,
                                                     self.stop, winner_first=True)
            self.analysis.cluster_tasks = len(split.tasks)
            return split.outcome
        if self.threads > 1:
            from solver.endgame import treesplit

            return treesplit.solve_two_player(pos, deadline, window, workers=self.threads, table_bits=TABLE_BITS,
                                              stop=self.stop, winner_first=True)
        return self.kernel.solve_two_player(pos, deadline, window, table_bits=TABLE_BITS, stop=self.stop)

    def _outlook(self):
        """The Python tree's score outlook, which also ends its search at ``stop``."""
        from solver.endgame.gametree import OutOfTime

        look = ScoreOutlook()
        if self.stop is None:
            return look

        def checked(p: Position):
            if self.stop.is_set():
                raise OutOfTime
            return look(p)

        return checked

    def _count(self, search) -> tuple[int, Move | None]:
        try:
            out = search()
        except self.kernel.OutOfTime as e:
            self._tally(e)
            raise
        return self._tally(out)

    def _python(self, search) -> tuple[int, Move | None]:
        a = self.analysis
        a.depth = None
        t0 = time.perf_counter()
        try:
            value, move, nodes = search()
        finally:
            a.seconds += time.perf_counter() - t0
        a.nodes += nodes
        return value, move


def _two_player(analysis: Analysis, deadline: float, all_proven: bool, tree: Tree,
                stop: threading.Event | None = None, cluster: TreeCluster | None = None, threads: int = 1) -> None:
    from solver.endgame.gametree import OutOfTime

    pos, reps = analysis.position, analysis.colors
    now = [r.score_now for r in reps]
    best = [r.solo_optimum if r.proven else (r.bound if r.bound is not None else best_bonus(True)) for r in reps]
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
    run = _TreeRun(analysis, tree, stop, cluster, threads)
    try:
        value, move = run.two_player(deadline, (lo, hi))
    except OutOfTime as e:
        bounds = e.bounds
        if bounds is not None:
            analysis.game_bounds = (max(lo, bounds[0]), min(hi, bounds[1]))
        if not (stop is not None and stop.is_set()):
            analysis.notes.append(too_far_note(pos, analysis.game_bounds == (lo, hi)))
        return
    analysis.game_value, analysis.game_value_proven, analysis.best_move = value, True, move
    analysis.tree_proven = True
    analysis.notes.append(f"game value by alpha-beta over the rest of the game ({analysis.nodes:,} positions)")


def too_far_note(pos: Position, solo_bounds_only: bool) -> str:
    """The note of a game value not proven in time: the position is too far
    from the end, how far it is, and where proofs start."""
    left = sum(len(pos.pieces_left(c)) for c in pos.variant.colors if pos.legal_placements(c))
    bounds = " (the bounds follow from the solo optima alone)" if solo_bounds_only else ""
    return (f"the position is too far from the end to prove in the time given: {counted(left, 'piece')} "
            f"still in hand, and values are proven in seconds from about a dozen placements before the end{bounds}; "
            "'blokus annotate' finds the first move it can prove")


def _four_player(analysis: Analysis, deadline: float, tree: Tree,
                 stop: threading.Event | None = None, threads: int = 1) -> None:
    from solver.endgame.gametree import OutOfTime

    pos = analysis.position
    if pos.game_over:
        for r in analysis.colors:
            r.guaranteed = r.score_now
        return
    if analysis.independent:
        for r in analysis.colors:
            r.guaranteed = r.solo_optimum if r.proven else None
        analysis.best_move = _first_move(analysis)
        analysis.notes.append("the colours no longer interact: each can guarantee its solo optimum")
        return
    run = _TreeRun(analysis, tree, stop, threads=threads)
    proven = 0
    players = [r for r in analysis.colors if any(r.color in colors for colors in pos.variant.players)]
    found = run.guaranteed([r.color for r in players], deadline)
    for r in players:
        if isinstance(found[r.color], OutOfTime):
            if not (stop is not None and stop.is_set()):
                analysis.notes.append(f"{pos.name(r.color)}: the guaranteed score was not proven within the time limit")
            continue
        value, move = found[r.color]
        proven += 1
        r.guaranteed = value
        if move is not None and pos.to_move == r.color:
            analysis.best_move = move
    analysis.tree_proven = proven == len(players)


def _first_move(analysis: Analysis) -> Move | None:
    """In a position without interaction: the first move of the colour to move
    in a play order reaching its solo optimum."""
    c = analysis.position.to_move
    if c is None or not analysis.colors[c].placements:
        return None
    return Move(*analysis.colors[c].placements[0])
