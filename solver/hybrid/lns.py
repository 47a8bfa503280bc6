"""The large neighbourhood search of the hybrid: one step frees a window of
the board and CP-SAT repairs it (:func:`lns_step`), and :class:`Repair`
steps over one packing until it is complete or the time is up."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field

from solver.core.geometry import mask_of, squares_of
from solver.core.placements import Placement
from solver.deadline import Deadline
from solver.hybrid.settings import DEFAULT, Settings
from solver.hybrid.symmetric import orbit_mask
from solver.puzzle.definition import Goal, Measure, Puzzle
from solver.puzzle.result import Progress, ProgressCallback, Solution, SolveResult, Status
from solver.puzzle.symmetry import turn_name, turn_square_map
from solver.puzzle.verify import VerificationError, verify


@dataclass
class LnsStats:
    """What the LNS did, for people (benchmarks, progress)."""

    steps: int = 0
    gains: int = 0  # steps that placed more squares
    moves: int = 0  # steps that changed the packing at equal squares
    restarts: int = 0  # times the LNS started again from nothing (Settings.restart)
    rejected: int = 0  # sub-solutions the verifier refused (a bug if ever > 0)
    start_pieces: int = 0  # pieces placed by the search engine
    history: list[tuple[float, int]] = field(default_factory=list)  # (seconds, pieces) at each gain


def squares_placed(puzzle: Puzzle, placements: Solution) -> int:
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


def lns_step(puzzle: Puzzle, placements: Solution, window: int, time_limit: Deadline | float, seed: int = 0,
             workers: int = 1, stop: threading.Event | None = None, holes: bool = True,
             sink: int | None = None, colors: tuple[int, ...] | None = None,
             symmetry: tuple[list, dict[int, int]] | None = None, clump: bool = False) -> Solution | None:
    """One LNS step: free ``window``, solve the sub-puzzle with CP-SAT and
    return the whole packing it gives (fixed pieces and the sub-solution),
    verified as a partial packing of ``puzzle``; None when CP-SAT found
    nothing within the time. With a ``sink`` square, among the packings
    placing the most squares CP-SAT prefers those whose empty squares lie
    near the sink (so that holes drift together over the steps). With
    ``symmetry`` (placement map, colour map: see :func:`tie_images`) only
    packings that the symmetry maps onto themselves (``placements`` must be
    one, and the window and colours closed under it). ``clump``: among
    equals, packings whose empty squares touch instead (a measured idea,
    off by default). Raises
    VerificationError if the packing breaks a rule (a bug)."""
    from ortools.sat.python import cp_model

    from solver.cpsat import add_hint, build, supervised
    from solver.cpsat.model import tie_images

    deadline = Deadline.of(time_limit)  # building the model counts too
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
    if clump and m.objective is not None:
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
    left = deadline.left()
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


class Repair:
    """The LNS loop over one packing: the current packing and its squares,
    the steps without a gain (windows grow with them) and the sink; the
    best packing of all restarts."""

    def __init__(self, puzzle: Puzzle, current: Solution, clock: Deadline, stats: LnsStats, rng: random.Random,
                 workers: int, stop: threading.Event | None, symmetry: tuple[list, dict[int, int]] | None = None,
                 settings: Settings = DEFAULT):
        try:
            verify(puzzle, current, partial=True)
        except VerificationError:  # (e.g. nothing placed yet, and a set-up piece off its colour's start square)
            if current:
                raise
        self.puzzle, self.current, self.clock, self.stats = puzzle, current, clock, stats
        self.rng, self.workers, self.stop = rng, workers, stop
        self.symmetry, self.settings = symmetry, settings
        self.square_map = turn_square_map(puzzle) if symmetry is not None else None
        if symmetry is not None and set(current) != {(symmetry[1][c], symmetry[0][p]) for c, p in current}:
            self.symmetry = None  # (a packing that is not symmetric: repaired without the symmetry)
        self.value = squares_placed(puzzle, current)
        self.best, self.best_value = current, self.value
        self.stale = 0
        self.sink: int | None = None
        stats.start_pieces = len(current)
        stats.history.append((clock.elapsed, len(current)))

    def stopped(self) -> bool:
        return self.stop is not None and self.stop.is_set()

    def run(self, progress: ProgressCallback | None) -> None:
        """Steps until the packing is complete, the time is up or Ctrl-C."""
        S, total = self.settings, sum(len(self.puzzle.pieces[c]) for c in self.puzzle.colors)
        fresh = True
        while self.value < self.puzzle.piece_squares and not self.clock.expired() and not self.stopped():
            left = self.clock.left()
            step_time = min(S.step_max, S.step_limit * (1 + self.stale // (2 * S.patience)))
            step_time = min(step_time, left) if left is not None else step_time
            if step_time < 0.2:
                break
            if S.restart and self.stale >= S.restart:  # stuck: again from nothing
                self.current, self.value, self.stale, self.sink, fresh = [], 0, 0, None, True
                self.stats.restarts += 1
            if fresh and S.holes:  # first the holes alone: the pieces left, wherever they fit
                window, colors, sink = 0, None, None
            else:
                window, colors = self.next_window()
                sink = self.sink if S.sink else None
            fresh = False
            self.stats.steps += 1
            try:
                new = lns_step(self.puzzle, self.current, window, step_time, self.rng.randrange(1 << 30),
                               self.workers, self.stop, S.holes, sink, colors, self.symmetry, S.clump)
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
        and twice as wide; or (``hole_windows``) the squares near a few holes
        close to one another; the sink moves now and then. Under a
        symmetry, the window and colours with their images."""
        puzzle, rng, b, S = self.puzzle, self.rng, self.puzzle.board, self.settings
        grown = self.stale // S.patience
        size = S.sizes[min(grown, len(S.sizes) - 1)]
        covered = mask_of(s for _, p in self.current for s in puzzle.table.squares[p])
        holes = list(squares_of(puzzle.masks.free & ~covered))
        if self.sink is None or self.stale and self.stale % (2 * S.patience) == 0:
            self.sink = rng.choice(holes) if holes else rng.randrange(b.size)
        colors = None
        if S.scatter and holes and rng.random() < S.scatter:
            window = self.scatter_window(holes, covered)
        elif holes and rng.random() < S.hole_windows:
            window = self.hole_window(holes, grown)
        else:
            r, c = b.row_col(rng.choice(holes) if holes else rng.randrange(b.size))
            h, w = size + rng.randint(-1, 1), size + rng.randint(-1, 1)
            if rng.random() < S.one_color:
                colors = (rng.choice(puzzle.colors),)
                h, w = 2 * h, 2 * w
            window = window_mask(puzzle, r - rng.randrange(h), c - rng.randrange(w), h, w)
        if self.symmetry is not None:  # the window's and the colours' orbits
            cmap = self.symmetry[1]
            window = orbit_mask(window, self.square_map)
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
        ``scatter_free`` of the placed pieces are freed."""
        puzzle, rng, b, t = self.puzzle, self.rng, self.puzzle.board, self.puzzle.table
        S, target = self.settings, 0
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
        cap = max(4, int(S.scatter_free * len(self.current)))
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
        new_value = squares_placed(self.puzzle, new) if new is not None else -1
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
            turn = turn_name(self.puzzle)
            method = f"{turn} symmetric {method}"
        figures = {"start_pieces": stats.start_pieces, "lns_steps": stats.steps, "lns_gains": stats.gains,
                   "lns_moves": stats.moves, "lns_restarts": stats.restarts}
        if self.best_value == self.puzzle.piece_squares:
            verify(self.puzzle, self.best)
            return SolveResult(Status.OPTIMAL, "hybrid", method, nodes=nodes, placements=self.best,
                               interrupted=self.stopped(), stats=figures)
        return SolveResult(Status.UNKNOWN, "hybrid", method, nodes=nodes, placements=self.best,
                           best_partial=bool(self.best), interrupted=self.stopped(), stats=figures)
