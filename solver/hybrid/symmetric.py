"""The hybrid's symmetric search phase under the puzzle's turn symmetry
(:func:`solver.puzzle.symmetry.turn_symmetry`): the searches that keep a
packing symmetric, the compiled ones under the half turn (the two-colour
halves, the half-turn waste search), then the symmetric beam."""

from __future__ import annotations

import os
import threading

from solver.core.geometry import mask_of, squares_of
from solver.deadline import Deadline
from solver.hybrid.settings import DEFAULT, Settings
from solver.puzzle.definition import Puzzle
from solver.puzzle.result import Progress, ProgressCallback, Solution, SolveResult, Status
from solver.puzzle.symmetry import symmetry_applies


def halves_apply(puzzle: Puzzle) -> bool:
    """Whether the puzzle halves into two-colour halves (:mod:`solver.packing.halves`)."""
    from solver.packing.halves import cuts

    return not isinstance(cuts(puzzle), str)


def orbit_mask(mask: int, square_map: list[int]) -> int:
    """``mask`` with all its images under the turn (closed under it)."""
    while True:
        grown = mask | mask_of(square_map[s] for s in squares_of(mask))
        if grown == mask:
            return mask
        mask = grown


def symmetric_search(puzzle: Puzzle, budget: Deadline | float, seed: int, stop: threading.Event | None,
                     progress: ProgressCallback | None = None, settings: Settings = DEFAULT) -> SolveResult:
    """The symmetric search for ``budget`` seconds: under the half turn the
    compiled searches first (the two-colour halves where the puzzle halves,
    then the half-turn waste search), then the symmetric beam (quarter
    turn, else half turn; beams of growing width): a complete packing, or
    the beam's longest symmetric partial one."""
    from solver.packing.driver import beam_task
    from solver.packing.halfturn import HalfTurnBeam
    from solver.packing.symmetric import SymmetricBeam

    clock = Deadline.of(budget)
    quarter = symmetry_applies(puzzle) is None
    compiled_best: tuple[Solution, str] = ([], "")
    for lanes, share in ([] if quarter else compiled_searches(puzzle, seed, settings)):
        found, partial = compiled_phase(puzzle, lanes, clock.within(share * clock.left()), stop, progress)
        if found is not None:
            return found
        compiled_best = max(compiled_best, (partial, lanes[0].name), key=lambda b: len(b[0]))
    runner = SymmetricBeam(puzzle) if quarter else HalfTurnBeam(puzzle)
    name = "symmetric beam" if quarter else "half-turn beam"
    found: list = []
    task = beam_task(runner, seed, found, name, settings.beam_cap)
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


def compiled_searches(puzzle: Puzzle, seed: int, settings: Settings = DEFAULT) -> list[tuple[list, float]]:
    """The compiled searches of the half-turn search phase, each with its
    share of the phase's time left and its lanes (searches run at once on
    threads): the two-colour halves (:mod:`solver.packing.halves`, a lane
    per core) where the puzzle halves, then the half-turn waste search
    (:mod:`solver.packing.wastefast`, a new seed's order every
    ``half_turn_restart`` nodes), on the boards their tables take."""
    from solver.packing.halves import HalvesSearch
    from solver.packing.wastefast import CompiledWasteSearch, Restarts

    out: list[tuple[list, float]] = []
    try:
        if settings.halves > 0 and halves_apply(puzzle):
            out.append(([HalvesSearch(puzzle, seed, lane=j) for j in range(settings.halves_lanes or os.cpu_count() or 1)],
                        settings.halves))
        if settings.half_turn_waste > 0:
            waste = Restarts(lambda i: CompiledWasteSearch(puzzle, seed=(seed + i) or None, symmetric=True),
                             settings.half_turn_restart, name="half-turn waste search")
            out.append(([waste], settings.half_turn_waste))
    except ValueError:  # a board the compiled tables do not take
        pass
    return out


def compiled_phase(puzzle: Puzzle, lanes: list, budget: Deadline | float, stop: threading.Event | None,
                    progress: ProgressCallback | None = None) -> tuple[SolveResult | None, Solution]:
    """Run the lanes of a compiled search (each restarted with new orders;
    the first here, the others on threads of their own: the kernel runs
    without the GIL) for ``budget`` seconds: (the first packing found
    (OPTIMAL) or None, the best partial packing). The partials are shown
    when the solve is stopped before the beam gets as far, never given to
    the LNS: they fill the board row by row, the beam's grow from the
    corners."""
    clock = Deadline.of(budget)
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
