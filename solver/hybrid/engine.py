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
import time
from dataclasses import dataclass, field

from solver.core.geometry import mask_of, squares_of
from solver.core.placements import Placement
from solver.core.text import counted
from solver.errors import OptionError
from solver.puzzle.definition import Goal, Measure, Puzzle
from solver.puzzle.result import Progress, ProgressCallback, Solution, SolveResult, Status, Stopwatch
from solver.puzzle.symmetry import symmetry_applies
from solver.puzzle.verify import VerificationError, verify

SEARCH_SHARE = 0.5  # share of the time limit the search engine gets first (0.25 lost 19x19 packings the beam finds)
QUARTER_SHARE = 0.9  # ... on quarter-turn puzzles (19x19: the symmetric LNS never completed one, the beam did)
SEARCH_MAX = 120.0  # ... but at most this many seconds
STEP_LIMIT = 3.0  # seconds of CP-SAT per LNS step
SIZES = (6, 7, 8, 9, 10, 11, 12)  # window sides, grown while steps bring nothing
PATIENCE = 6  # steps without a gain before the window grows
HOLES = True  # the empty squares outside the window are open to the sub-puzzle too
ONE_COLOR = 0.5  # share of the steps that free one colour's pieces in a window twice as wide
SINK = True  # holes are drawn towards a sink square (moved at each gain)
CLUMP = False  # among equals, prefer packings whose empty squares touch (instead of the sink)
HOLE_WINDOWS = 0.0  # share of the steps that free the pieces near a few holes close to one another
STEP_MAX = STEP_LIMIT  # steps get longer while stuck (STEP_LIMIT more per 2 * PATIENCE steps), up to this
RESTART = 0  # steps without a gain before the LNS starts again from nothing (0: never)
BEAM_CAP = 0  # the symmetric beams' widths stop growing here, new seeds at this width instead (0: no cap)
SCATTER = 0.0  # share of the steps that free the pieces next to holes all over the board (and under a target placement)
SCATTER_FREE = 0.2  # ... at most this share of the pieces placed (holes dropped until it holds)
HALVES = 0.8  # share of the half-turn search phase for the two-colour halves first, where the puzzle halves (18x20)
HALVES_SHARE = 0.9  # ... and then the search phase gets this share of the limit, with no SEARCH_MAX (only it packs 18x20)
HALVES_LANES = 0  # ... searched on this many threads at once (0: one per core)
HALF_TURN_WASTE = 0.5  # share of the phase's time left for the compiled waste search next (13x14: found in seconds)
HALF_TURN_RESTART = 6_000_000  # ... which starts again with the next seed's order every so many nodes


@dataclass
class LnsStats:
    """What the LNS did, for people (benchmarks, progress)."""

    steps: int = 0
    gains: int = 0  # steps that placed more squares
    moves: int = 0  # steps that changed the packing at equal squares
    restarts: int = 0  # times the LNS started again from nothing (RESTART)
    rejected: int = 0  # sub-solutions the verifier refused (a bug if ever > 0)
    start_pieces: int = 0  # pieces placed by the search engine
    history: list[tuple[float, int]] = field(default_factory=list)  # (seconds, pieces) at each gain


def _squares(puzzle: Puzzle, placements: Solution) -> int:
    t = puzzle.table
    return sum(len(t.squares[p]) for _, p in placements)


def window_mask(puzzle: Puzzle, row: int, col: int, height: int, width: int) -> int:
    """The squares of a rectangle (clipped to the board) with top-left corner (row, col)."""
    b = puzzle.board
    return mask_of(b.square(r, c) for r in range(max(0, row), min(b.height, row + height))
                   for c in range(max(0, col), min(b.width, col + width)) if b.on_board(r, c))


def sub_puzzle(puzzle: Puzzle, placements: Solution, window: int, holes: bool = True,
               colors: tuple[int, ...] | None = None) -> tuple[Puzzle, Solution]:
    """The sub-puzzle of one LNS step: the pieces of ``placements`` that
    cover a square of ``window`` are freed, the others become set-up; the
    freed pieces and the ones never placed are to be placed, on the freed
    squares and (``holes``) the empty squares anywhere on the board, or
    else on the freed squares only, maximising the squares placed. With
    ``colors``, only those colours' pieces in the window are freed. Returns the sub-puzzle and the freed placements (a
    solution of it, the hint)."""
    t = puzzle.table
    colors = puzzle.colors if colors is None else colors
    freed = [(c, p) for c, p in placements if t.mask[p] & window and c in colors]
    fixed = [(c, p) for c, p in placements if not (t.mask[p] & window and c in colors)]
    region = window & puzzle.masks.free
    for _, p in freed:
        region |= t.mask[p]
    covered = mask_of(s for _, p in fixed for s in t.squares[p])
    outside = 0 if holes else puzzle.masks.free & ~region & ~covered
    setup: dict[int, list[Placement]] = {c: list(ps) for c, ps in puzzle.setup.items()}  # obstacles too
    setup.update({c: list(puzzle.setup_of(c)) for c in puzzle.colors})
    for c, p in fixed:
        setup[c].append(p)
    placed = {(c, t.piece[p]) for c, p in fixed}
    pieces = {c: tuple(i for i in puzzle.pieces[c] if (c, i) not in placed) for c in puzzle.colors}
    sub = Puzzle(
        board=puzzle.board, colors=puzzle.colors, pieces=pieces, setup=setup, connect=puzzle.connect,
        same_shape=puzzle.same_shape, empty=puzzle.empty | frozenset(squares_of(outside)),
        goal=Goal.MAXIMIZE, target=puzzle.colors, measure=Measure.SQUARES,
        name=f"{puzzle.name} (lns)", variant=puzzle.variant,
    )
    return sub, freed


def lns_step(puzzle: Puzzle, placements: Solution, window: int, time_limit: float, seed: int = 0,
             workers: int = 1, stop: threading.Event | None = None, holes: bool = True,
             sink: int | None = None, colors: tuple[int, ...] | None = None,
             symmetry: tuple[list, dict[int, int]] | None = None) -> Solution | None:
    """One LNS step: free ``window``, solve the sub-puzzle with CP-SAT and
    return the whole packing it gives (fixed pieces and the sub-solution),
    verified as a partial packing of ``puzzle``; None when CP-SAT found
    nothing within the time. With a ``sink`` square, among the packings
    placing the most squares CP-SAT prefers those whose empty squares lie
    near the sink (so that holes drift together over the steps). With
    ``symmetry`` (placement map, colour map: see :func:`tie_images`) only
    packings that the symmetry maps onto themselves (``placements`` must be
    one, and the window and colours closed under it). Raises
    VerificationError if the packing breaks a rule (a bug)."""
    from ortools.sat.python import cp_model

    from solver.cpsat import add_hint, build, supervised

    deadline = time.monotonic() + time_limit  # building the model counts too
    sub, freed = sub_puzzle(puzzle, placements, window, holes, colors)
    if not any(sub.pieces.values()):
        return None
    m = build(sub, "levels")
    try:
        add_hint(m, freed)  # the current packing (nothing placed, when nothing is freed)
    except VerificationError:  # nothing placed may break a start-square rule of the set-up: no hint
        m.model.clear_hints()
    if symmetry is not None:
        tie_images(m, *symmetry)
    if CLUMP and m.objective is not None:
        _clump_holes(m, puzzle, placements, freed)
    elif sink is not None and m.objective is not None:
        b = puzzle.board
        sr, sc = b.row_col(sink)
        dist = {}
        for (_, s) in m.covered:
            r, c = b.row_col(s)
            dist[s] = abs(r - sr) + abs(c - sc)
        weight = sum(dist.values()) + 1  # one square placed outweighs any arrangement of holes
        m.model.maximize(weight * m.objective + sum(dist[s] * v for (_, s), v in m.covered.items()))
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.num_workers = max(2, workers)  # with one worker CP-SAT barely leaves the hint on these models
    p.random_seed = seed
    left = deadline - time.monotonic()
    if left < 0.05:
        return None
    p.max_time_in_seconds = left
    p.cp_model_presolve = False
    p.catch_sigint_signal = False
    with supervised(solver, stop, None, 0.0):
        status = solver.solve(m.model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    freed_set = set(freed)
    new = [cp for cp in placements if cp not in freed_set] + m.solution(solver.boolean_value)
    verify(puzzle, new, partial=True)
    return new


def _clump_holes(m, puzzle: Puzzle, placements: Solution, freed: Solution) -> None:
    """Among the packings placing the most squares, prefer those with the
    most pairs of edge-adjacent empty squares (holes that merge leave room
    for a piece), instead of the sink."""
    b, t = puzzle.board, puzzle.table
    fixed = set(placements) - set(freed)
    taken = puzzle.masks.taken | mask_of(s for _, p in fixed for s in t.squares[p])
    cover: dict[int, list] = {}
    for (_, s), v in m.covered.items():
        cover.setdefault(s, []).append(v)
    model, pairs = m.model, []
    for s in cover:
        for n in squares_of(b.edge_neighbours(1 << s)):
            if n in cover and n < s:
                e = model.new_bool_var("")
                model.add(sum(cover[s]) + e <= 1)
                model.add(sum(cover[n]) + e <= 1)
                pairs.append(e)
            elif n not in cover and not taken >> n & 1:  # an empty square nothing can cover
                e = model.new_bool_var("")
                model.add(sum(cover[s]) + e <= 1)
                pairs.append(e)
    model.maximize((len(pairs) + 1) * m.objective + sum(pairs))


def tie_images(m, pmap: list, cmap: dict[int, int]) -> None:
    """Only symmetric packings in model ``m``: a placement of colour c is
    chosen exactly when its image ``pmap[p]`` is, in colour ``cmap[c]``."""
    for (c, p), v in m.x.items():
        q = pmap[p]
        image = m.x.get((cmap[c], q)) if q is not None else None
        if image is None:
            m.model.add_bool_or([v.Not()])
        elif (c, p) < (cmap[c], q):
            m.model.add(v == image)


def solve(puzzle: Puzzle, time_limit: float | None = 60.0, seed: int = 0, workers: int = 0,
          progress: ProgressCallback | None = None, stop: threading.Event | None = None,
          start: Solution | None = None, stats: LnsStats | None = None,
          search_share: float | None = None, symmetric: bool | None = None) -> SolveResult:
    """Solve a place-all puzzle with the hybrid (see the module docstring).
    ``start``: a partial packing to repair instead of the search engine's;
    ``stats`` (if given) is filled with what the LNS did; ``search_share``:
    the share of the limit the search engine gets first (default
    SEARCH_SHARE, QUARTER_SHARE with the quarter-turn symmetry, at most
    SEARCH_MAX seconds; HALVES_SHARE, with no cap, where the puzzle halves;
    0: the LNS starts at once from nothing); ``symmetric`` (default SYMMETRIC): True, search and
    repair only packings with the puzzle's turn symmetry (the quarter turn
    with the colours shifted on square boards, else the half turn with
    opposite colours swapped; OptionError when it has neither); None
    (auto), the same where the puzzle has a turn symmetry, no symmetry
    elsewhere; False, no symmetry (the search engine's general mode)."""
    if puzzle.goal is not Goal.PLACE_ALL:
        raise OptionError(f"{puzzle.name}: the hybrid engine packs place-all puzzles (the goal is {puzzle.goal.value})")
    if time_limit is None:
        time_limit = 3600.0 * 24 * 365  # no limit: until a packing is found or Ctrl-C
    clock = Stopwatch(time_limit)
    nodes = 0
    symmetric = SYMMETRIC if symmetric is None else symmetric
    if symmetric is None:  # auto: the puzzle's turn, if any (the half turn won on 18x20, 13x14 and 10x18, tied on 21x17)
        symmetry = _symmetry(puzzle)
    else:
        symmetry = _symmetry(puzzle) if symmetric else None
        if symmetric and symmetry is None:
            raise OptionError(f"{puzzle.name}: no turn symmetry to search: {symmetry_applies(puzzle)}; "
                              f"{_half_turn_reason(puzzle)}")
    quarter = symmetry is not None and symmetry_applies(puzzle) is None
    halving = symmetry is not None and not quarter and HALVES > 0 and _halves(puzzle)
    share = ((QUARTER_SHARE if quarter else HALVES_SHARE if halving else SEARCH_SHARE) if search_share is None
             else search_share)
    if start is None and share <= 0:
        start = []
    if start is None:
        budget = share * time_limit if halving else min(SEARCH_MAX, share * time_limit)
        if symmetry is not None:
            first = _symmetric_search(puzzle, budget, seed, stop, progress)
        else:
            from solver.packing import solve as search_solve

            first = search_solve(puzzle, budget, seed, "general" if symmetric is False else "auto", False,
                                 progress, stop)
        if first.status is not Status.UNKNOWN or first.interrupted:
            first.engine = "hybrid"
            first.method = f"search: {first.method}"
            return first
        nodes, start = first.nodes, first.placements
    repair = _Repair(puzzle, list(start), clock, stats if stats is not None else LnsStats(), random.Random(seed),
                     workers or os.cpu_count() or 1, stop, symmetry)
    repair.run(progress)
    return repair.result(nodes)


SYMMETRIC: bool | None = None  # symmetric packings only: None (auto) where the puzzle has a turn symmetry


def _halves(puzzle: Puzzle) -> bool:
    """Whether the puzzle halves into two-colour halves (:mod:`solver.packing.halves`)."""
    from solver.packing.halves import cuts

    return not isinstance(cuts(puzzle), str)


def _half_turn_reason(puzzle: Puzzle) -> str:
    from solver.packing.halfturn import half_turn

    found = half_turn(puzzle)
    return found if isinstance(found, str) else "it has the half turn"


def _symmetry(puzzle: Puzzle) -> tuple[list, dict[int, int]] | None:
    """The puzzle's turn symmetry as (placement map, colour map): the
    quarter turn with the colours shifted on square boards where it applies
    (:func:`solver.puzzle.symmetry.symmetry_applies`), else the half turn with
    opposite colours swapped (:func:`solver.packing.halfturn.half_turn`);
    None when neither applies."""
    from solver.packing.halfturn import half_turn
    from solver.puzzle.symmetry import quarter_turn_placements

    if symmetry_applies(puzzle) is None:
        return quarter_turn_placements(puzzle), {c: (c + 1) % 4 for c in puzzle.colors}
    found = half_turn(puzzle)
    return None if isinstance(found, str) else found


def _square_map(puzzle: Puzzle) -> list[int]:
    """The square map of :func:`_symmetry`'s turn."""
    from solver.packing.halfturn import half_turn_map
    from solver.puzzle.symmetry import quarter_turn

    if symmetry_applies(puzzle) is None:
        return [quarter_turn(puzzle.board, s) for s in range(puzzle.board.size)]
    return half_turn_map(puzzle)


def _orbit_mask(mask: int, square_map: list[int]) -> int:
    """``mask`` with all its images under the turn (closed under it)."""
    while True:
        grown = mask | mask_of(square_map[s] for s in squares_of(mask))
        if grown == mask:
            return mask
        mask = grown


def _symmetric_search(puzzle: Puzzle, budget: float, seed: int, stop: threading.Event | None,
                      progress: ProgressCallback | None = None) -> SolveResult:
    """The symmetric search for ``budget`` seconds: under the half turn the
    compiled searches first (the two-colour halves where the puzzle halves,
    then the half-turn waste search), then the symmetric beam (quarter
    turn, else half turn; beams of growing width): a complete packing, or
    the beam's longest symmetric partial one."""
    from solver.packing.driver import beam_task
    from solver.packing.halfturn import HalfTurnBeam
    from solver.packing.symmetric import SymmetricBeam

    clock = Stopwatch(budget)
    quarter = symmetry_applies(puzzle) is None
    compiled_best: tuple[Solution, str] = ([], "")
    for lanes, share in ([] if quarter else _compiled_searches(puzzle, seed)):
        found, partial = _compiled_phase(puzzle, lanes, share * clock.left(), stop, progress)
        if found is not None:
            return found
        compiled_best = max(compiled_best, (partial, lanes[0].name), key=lambda b: len(b[0]))
    runner = SymmetricBeam(puzzle) if quarter else HalfTurnBeam(puzzle)
    name = "symmetric beam" if quarter else "half-turn beam"
    found: list = []
    task = beam_task(runner, seed, found, name, BEAM_CAP)
    total, reported = sum(len(puzzle.pieces[c]) for c in puzzle.colors), 0.0
    while not found and not clock.expired() and not (stop is not None and stop.is_set()):
        try:
            next(task)
        except StopIteration:  # (it ends once it has found a packing)
            break
        if progress is not None and clock.elapsed - reported >= 1.0:
            reported = clock.elapsed
            progress(Progress(clock.elapsed, runner.nodes, f"{len(runner.best)}/{total} pieces, {name}"))
    interrupted = stop is not None and stop.is_set()
    if found:
        return SolveResult(Status.OPTIMAL, "search", name, nodes=runner.nodes, placements=found[0][1],
                           interrupted=interrupted)
    best = list(runner.best)
    if interrupted and len(compiled_best[0]) > len(best):  # stopped before the beam got as far: show that one
        best, name = compiled_best
    return SolveResult(Status.UNKNOWN, "search", name, nodes=runner.nodes, placements=best,
                       best_partial=bool(best), interrupted=interrupted)


def _compiled_searches(puzzle: Puzzle, seed: int) -> list[tuple[list, float]]:
    """The compiled searches of the half-turn search phase, each with its
    share of the phase's time left and its lanes (searches run at once on
    threads): the two-colour halves (:mod:`solver.packing.halves`, a lane
    per core) where the puzzle halves, then the half-turn waste search
    (:mod:`solver.packing.wastefast`, a new seed's order every
    HALF_TURN_RESTART nodes), on the boards their tables take."""
    from solver.packing.halves import HalvesSearch
    from solver.packing.wastefast import CompiledWasteSearch, Restarts

    out: list[tuple[list, float]] = []
    try:
        if HALVES > 0 and _halves(puzzle):
            out.append(([HalvesSearch(puzzle, seed, lane=j) for j in range(HALVES_LANES or os.cpu_count() or 1)],
                        HALVES))
        if HALF_TURN_WASTE > 0:
            waste = Restarts(lambda i: CompiledWasteSearch(puzzle, seed=(seed + i) or None, symmetric=True),
                             HALF_TURN_RESTART, name="half-turn waste search")
            out.append(([waste], HALF_TURN_WASTE))
    except ValueError:  # a board the compiled tables do not take
        pass
    return out


def _compiled_phase(puzzle: Puzzle, lanes: list, budget: float, stop: threading.Event | None,
                    progress: ProgressCallback | None = None) -> tuple[SolveResult | None, Solution]:
    """Run the lanes of a compiled search (each restarted with new orders;
    the first here, the others on threads of their own: the kernel runs
    without the GIL) for ``budget`` seconds: (the first packing found
    (OPTIMAL) or None, the best partial packing). The partials are shown
    when the solve is stopped before the beam gets as far, never given to
    the LNS: they fill the board row by row, the beam's grow from the
    corners."""
    clock = Stopwatch(budget)
    total, reported = sum(len(puzzle.pieces[c]) for c in puzzle.colors), 0.0
    done = threading.Event()
    found: list[Solution] = []

    def go_on(search) -> bool:
        return (not search.finished and not done.is_set() and not clock.expired()
                and not (stop is not None and stop.is_set()))

    def run(search) -> None:
        while go_on(search):
            sol = search.step(200_000)
            if sol is not None:
                found.append(sol)
                done.set()

    threads = [threading.Thread(target=run, args=(search,), name="compiled-lane", daemon=True)
               for search in lanes[1:]]
    for t in threads:
        t.start()
    lead = lanes[0]
    try:
        while go_on(lead):
            sol = lead.step(200_000)
            if sol is not None:
                found.append(sol)
                done.set()
            elif progress is not None and clock.elapsed - reported >= 1.0:
                reported = clock.elapsed
                deepest = max(search.deepest for search in lanes)
                joined = max(len(search.best_partial()) for search in lanes)  # what a stop would hand in
                progress(Progress(clock.elapsed, sum(search.nodes for search in lanes),
                                  f"{deepest}/{total} pieces deep, {joined} joined to their starts, {lead.name}"))
    finally:
        done.set()
        for t in threads:
            t.join()
    nodes = sum(search.nodes for search in lanes)
    if found:
        return SolveResult(Status.OPTIMAL, "search", lead.name, nodes=nodes, placements=found[0]), found[0]
    return None, max((search.best_partial() for search in lanes), key=len)


class _Repair:
    """The LNS loop over one packing: the current packing and its squares,
    the steps without a gain (windows grow with them) and the sink; the
    best packing of all restarts."""

    def __init__(self, puzzle: Puzzle, current: Solution, clock: Stopwatch, stats: LnsStats, rng: random.Random,
                 workers: int, stop: threading.Event | None, symmetry: tuple[list, dict[int, int]] | None = None):
        try:
            verify(puzzle, current, partial=True)
        except VerificationError:  # (e.g. nothing placed yet, and a set-up piece off its colour's start square)
            if current:
                raise
        self.puzzle, self.current, self.clock, self.stats = puzzle, current, clock, stats
        self.rng, self.workers, self.stop = rng, workers, stop
        self.symmetry = symmetry
        self.square_map = _square_map(puzzle) if symmetry is not None else None
        if symmetry is not None and set(current) != {(symmetry[1][c], symmetry[0][p]) for c, p in current}:
            self.symmetry = None  # (a packing that is not symmetric: repaired without the symmetry)
        self.value = _squares(puzzle, current)
        self.best, self.best_value = current, self.value
        self.stale = 0
        self.sink: int | None = None
        stats.start_pieces = len(current)
        stats.history.append((clock.elapsed, len(current)))

    def stopped(self) -> bool:
        return self.stop is not None and self.stop.is_set()

    def run(self, progress: ProgressCallback | None) -> None:
        """Steps until the packing is complete, the time is up or Ctrl-C."""
        total = sum(len(self.puzzle.pieces[c]) for c in self.puzzle.colors)
        fresh = True
        while self.value < self.puzzle.piece_squares and not self.clock.expired() and not self.stopped():
            left = self.clock.left()
            step_time = min(STEP_MAX, STEP_LIMIT * (1 + self.stale // (2 * PATIENCE)))
            step_time = min(step_time, left) if left is not None else step_time
            if step_time < 0.2:
                break
            if RESTART and self.stale >= RESTART:  # stuck: again from nothing
                self.current, self.value, self.stale, self.sink, fresh = [], 0, 0, None, True
                self.stats.restarts += 1
            if fresh and HOLES:  # first the holes alone: the pieces left, wherever they fit
                window, colors, sink = 0, None, None
            else:
                window, colors = self.next_window()
                sink = self.sink if SINK else None
            fresh = False
            self.stats.steps += 1
            try:
                new = lns_step(self.puzzle, self.current, window, step_time, self.rng.randrange(1 << 30),
                               self.workers, self.stop, HOLES, sink, colors, self.symmetry)
            except VerificationError:
                self.stats.rejected += 1
                raise
            self.take(new)
            if progress:
                progress(Progress(self.clock.elapsed, self.stats.steps,
                                  f"{len(self.best)}/{total} pieces, lns step {self.stats.steps}"))

    def next_window(self) -> tuple[int, tuple[int, ...] | None]:
        """A window around a hole (its side grown by the steps without a
        gain), of every colour or, in a share of the steps, of one colour
        and twice as wide; or (HOLE_WINDOWS) the squares near a few holes
        close to one another; the sink moves now and then. Under a
        symmetry, the window and colours with their images."""
        puzzle, rng, b = self.puzzle, self.rng, self.puzzle.board
        grown = self.stale // PATIENCE
        size = SIZES[min(grown, len(SIZES) - 1)]
        covered = mask_of(s for _, p in self.current for s in puzzle.table.squares[p])
        holes = list(squares_of(puzzle.masks.free & ~covered))
        if self.sink is None or self.stale and self.stale % (2 * PATIENCE) == 0:
            self.sink = rng.choice(holes) if holes else rng.randrange(b.size)
        colors = None
        if SCATTER and holes and rng.random() < SCATTER:
            window = self.scatter_window(holes, covered)
        elif holes and rng.random() < HOLE_WINDOWS:
            window = self.hole_window(holes, grown)
        else:
            r, c = b.row_col(rng.choice(holes) if holes else rng.randrange(b.size))
            h, w = size + rng.randint(-1, 1), size + rng.randint(-1, 1)
            if rng.random() < ONE_COLOR:
                colors = (rng.choice(puzzle.colors),)
                h, w = 2 * h, 2 * w
            window = window_mask(puzzle, r - rng.randrange(h), c - rng.randrange(w), h, w)
        if self.symmetry is not None:  # the window's and the colours' orbits
            cmap = self.symmetry[1]
            window = _orbit_mask(window, self.square_map)
            if colors is not None:
                orbit = set(colors)
                while {cmap[c] for c in orbit} - orbit:
                    orbit |= {cmap[c] for c in orbit}
                colors = tuple(sorted(orbit))
        return window, colors

    def hole_window(self, holes: list[int], grown: int) -> int:
        """The squares within king distance d of a hole and of its nearest
        1 to 3 other holes (d from 1, growing with the steps without a
        gain), so that the pieces between holes move and holes merge."""
        rng, b = self.rng, self.puzzle.board
        h0 = rng.choice(holes)
        r0, c0 = b.row_col(h0)
        near = sorted(holes, key=lambda s: max(abs(b.row_col(s)[0] - r0), abs(b.row_col(s)[1] - c0)))
        chosen = near[:1 + rng.randint(1, 3)]
        d = 1 + min(grown, 3) + rng.randint(0, 1)
        return b.king_fill(mask_of(chosen), b.open_mask, d)

    def scatter_window(self, holes: list[int], covered: int) -> int:
        """The squares next to (edge, or in half the steps king) a random
        set of holes anywhere on the board, so that pieces may be exchanged
        between distant holes (a piece of one more square moving into a
        hole's place moves the hole), and in half the steps the squares of
        a placement of a piece left over that covers a hole (the pieces
        under it are freed too). Holes are dropped at random until at most
        SCATTER_FREE of the placed pieces are freed."""
        puzzle, rng, b, t = self.puzzle, self.rng, self.puzzle.board, self.puzzle.table
        target = 0
        if rng.random() < 0.5:
            placed = {(c, t.piece[p]) for c, p in self.current}
            left = [i for c in puzzle.colors for i in puzzle.pieces[c] if (c, i) not in placed]
            if left:
                hole_mask = mask_of(holes)
                options = [p for p in t.by_piece[rng.choice(left)] if t.mask[p] & hole_mask
                           and not t.mask[p] & ~puzzle.masks.free]
                if options:
                    target = t.mask[rng.choice(options)]
        king = rng.random() < 0.5
        chosen = list(holes)
        rng.shuffle(chosen)
        cap = max(4, int(SCATTER_FREE * len(self.current)))
        keep = len(chosen)
        while True:
            seed = mask_of(chosen[:keep])
            near = b.king_fill(seed, b.open_mask, 1) if king else seed | b.edge_neighbours(seed)
            window = (near & covered) | target
            freed = sum(1 for _, p in self.current if t.mask[p] & window)
            if freed <= cap or keep <= 1:
                return window
            keep -= 1

    def take(self, new: Solution | None) -> None:
        """Keep a packing with more squares (a gain), or as many but placed
        differently (a move of the holes)."""
        new_value = _squares(self.puzzle, new) if new is not None else -1
        if new_value > self.value:
            self.stats.gains += 1
            self.stale, self.sink = 0, None
            if new_value > self.best_value:
                self.stats.history.append((self.clock.elapsed, len(new)))
        else:
            self.stale += 1
            if new_value < self.value or set(new) == set(self.current):
                return
            self.stats.moves += 1
        self.current, self.value = new, new_value
        if new_value > self.best_value:
            self.best, self.best_value = new, new_value

    def result(self, nodes: int) -> SolveResult:
        """OPTIMAL with the complete packing, or UNKNOWN with the best partial."""
        stats, total = self.stats, sum(len(self.puzzle.pieces[c]) for c in self.puzzle.colors)
        method = f"search then lns ({stats.steps} steps, {stats.gains} gains, from {stats.start_pieces}/{total} pieces)"
        if self.symmetry is not None:
            turn = "quarter-turn" if symmetry_applies(self.puzzle) is None else "half-turn"
            method = f"{turn} symmetric {method}"
        figures = {"start_pieces": stats.start_pieces, "lns_steps": stats.steps, "lns_gains": stats.gains,
                   "lns_moves": stats.moves, "lns_restarts": stats.restarts}
        if self.best_value == self.puzzle.piece_squares:
            verify(self.puzzle, self.best)
            return SolveResult(Status.OPTIMAL, "hybrid", method, nodes=nodes, placements=self.best,
                               interrupted=self.stopped(), stats=figures)
        return SolveResult(Status.UNKNOWN, "hybrid", method, nodes=nodes, placements=self.best,
                           best_partial=bool(self.best), interrupted=self.stopped(), stats=figures)


# -- a portfolio of seeds --------------------------------------------------------------------

def _portfolio_task(seed: int, puzzle: Puzzle, time_limit: float | None, workers: int,
                    search_share: float | None = None, symmetric: bool | None = None,
                    stop: threading.Event | None = None) -> SolveResult:
    """One hybrid run of the portfolio (module level: Dask pickles it)."""
    return solve(puzzle, time_limit, seed, workers, stop=stop, search_share=search_share, symmetric=symmetric)


class _Halt(threading.Event):
    """The portfolio's stop: set by the portfolio once a run has a complete
    packing, and set whenever the caller's stop (Ctrl-C) is."""

    def __init__(self, caller: threading.Event | None):
        super().__init__()
        self.caller = caller

    def is_set(self) -> bool:
        return super().is_set() or (self.caller is not None and self.caller.is_set())


def portfolio(puzzle: Puzzle, seeds: list[int], time_limit: float | None = 60.0, workers: int = 0,
              jobs: int | None = None, scheduler: str | None = None, progress: ProgressCallback | None = None,
              stop: threading.Event | None = None, search_share: float | None = None,
              symmetric: bool | None = None) -> SolveResult:
    """Hybrid runs with different seeds on Dask (:func:`solver.cluster.run_tasks`:
    a LocalCluster of ``jobs`` processes, one per seed by default, or the
    cluster of ``scheduler``, where runs beyond its workers wait their turn;
    ``jobs`` 1 runs them one after the other here), each with the whole
    ``time_limit``. The first complete packing wins (the runs still going
    are stopped), else the best partial one (most squares placed). When
    ``stop`` is set (Ctrl-C), the runs going stop and report their best
    partials, the runs not started are skipped, and the best so far is
    returned, ``interrupted``. ``progress`` hears of each run as it ends.
    ``workers`` are CP-SAT's per LNS step; ``search_share`` and
    ``symmetric`` as in :func:`solve`."""
    from functools import partial as bind

    from solver.cluster import run_serial, run_tasks

    clock = Stopwatch()
    task = bind(_portfolio_task, puzzle=puzzle, time_limit=time_limit, workers=workers,
                search_share=search_share, symmetric=symmetric)
    inputs = [(f"seed {s}", s) for s in seeds]
    halt = _Halt(stop)

    def ready(workers: int) -> None:
        if progress is not None:
            progress(Progress(clock.elapsed, 0, f"portfolio: {counted(len(seeds), 'run')} on {counted(workers, 'worker')}", notice=True))

    if jobs == 1 and scheduler is None:
        stream = run_serial(task, inputs, stop=halt)
    else:
        stream = run_tasks(task, inputs, workers=jobs or len(seeds), scheduler=scheduler, stop=halt, ready=ready)
    total = sum(len(puzzle.pieces.get(c, ())) for c in puzzle.colors)
    best: SolveResult | None = None
    errors = []
    ended = 0
    for outcome in stream:
        if outcome.skipped:
            continue
        ended += 1
        if not outcome.ok:
            errors.append(f"{outcome.name}: {outcome.error}")
            continue
        r = outcome.value
        verify(puzzle, r.placements, partial=r.status is not Status.OPTIMAL)
        key = (r.status is Status.OPTIMAL, _squares(puzzle, r.placements))
        if best is None or key > (best.status is Status.OPTIMAL, _squares(puzzle, best.placements)):
            best = r
            best.method = f"portfolio of {len(seeds)} seeds, best {outcome.name}: {r.method}"
        if progress is not None:
            progress(Progress(clock.elapsed, 0, f"{outcome.name}: {r.status.value} {len(r.placements)}/{total} pieces;"
                                                f" {ended} of {len(seeds)} runs done, best {len(best.placements)}/{total}"))
        if r.status is Status.OPTIMAL:  # the first complete packing wins: the other runs are stopped
            halt.set()
    stream.close()  # (shuts down a cluster started here)
    if best is None:
        if stop is not None and stop.is_set() and not errors:
            return SolveResult(Status.UNKNOWN, "hybrid", f"portfolio of {len(seeds)} seeds, stopped before a run ended",
                               interrupted=True)
        raise OptionError(f"{puzzle.name}: every run of the portfolio failed: {'; '.join(errors)}")
    best.stats["portfolio_failed"] = len(errors)
    best.interrupted = stop is not None and stop.is_set()
    return best
