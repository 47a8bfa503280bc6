"""Solving with CP-SAT (:func:`solve`): build the model, set the
parameters, solve (in rounds of connectivity cuts under the ``cuts``
encoding), and read the status, solution, objective or count."""

from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator

from ortools.sat.python import cp_model

from solver.core.text import counted
from solver.cpsat.connectivity import violations
from solver.cpsat.counting import add_exact_cover_branching, first_square, images
from solver.cpsat.encoding import Encoding
from solver.cpsat.hints import add_hint
from solver.cpsat.memory import fit_workers
from solver.cpsat.model import build
from solver.cpsat.playorder import add_play_order
from solver.cpsat.playorder import parameters as play_order_parameters
from solver.cpsat.variables import CpsatError, PuzzleModel
from solver.cpsat.warmstart import warm_start
from solver.deadline import Deadline
from solver.puzzle.definition import Connect, Goal, Puzzle
from solver.puzzle.result import Progress, ProgressCallback, Solution, SolveResult, Status
from solver.puzzle.symmetry import interchangeable_colors, turn_name


class _Watcher(cp_model.CpSolverSolutionCallback):
    """Collects the distinct solutions while counting (dropping those a
    connectivity cut would exclude) and reports progress: solutions, or
    objective and bound."""

    def __init__(self, m: PuzzleModel, progress: ProgressCallback | None, collect: bool, start: float):
        super().__init__()
        self.m, self.progress, self.collect, self.start = m, progress, collect, start
        self.solutions: list[Solution] = []
        self.seen: set[frozenset] = set()

    def on_solution_callback(self) -> None:
        if self.collect:
            sol = self.m.solution(self.boolean_value)
            key = frozenset(sol)
            if key not in self.seen and not violations(self.m, sol, self.boolean_value):
                self.seen.add(key)
                self.solutions.append(sol)
        if self.progress:
            text = counted(len(self.solutions), "solution") if self.collect else "solution found"
            if self.m.objective is not None:
                text = f"objective {int(self.objective_value)} bound {int(self.best_objective_bound)}"
            self.progress(Progress(time.monotonic() - self.start, self.num_branches, text))


def solve(
    puzzle: Puzzle,
    time_limit: Deadline | float | None = 60.0,
    workers: int = 0,
    seed: int = 0,
    params: str = "",
    encoding: Encoding | str = Encoding.AUTO,
    count: bool = False,
    hint: Solution | None = None,
    progress: ProgressCallback | None = None,
    symmetric: bool = False,
    stop: threading.Event | None = None,
) -> SolveResult:
    """Solve a puzzle with CP-SAT. ``params`` is a text of extra CP-SAT
    parameters (``"num_workers:4,random_seed:3"``); ``workers`` 0 means
    one per core. Statuses map one to one; a place-all puzzle with a
    solution is OPTIMAL. ``stop`` set (by a Ctrl-C handler: CP-SAT itself
    stops its search at SIGINT) ends the rounds of cuts, and the result
    says it was interrupted. ``time_limit``: seconds or a Deadline (the
    model's building counts too). ``symmetric``: only solutions the
    puzzle's turn maps onto themselves (:func:`build`); then no solution
    is UNKNOWN, not INFEASIBLE, and a count counts the symmetric ones."""
    deadline = Deadline.of(time_limit)
    start = deadline.start
    counting = count or puzzle.goal is Goal.COUNT
    if counting:
        puzzle = puzzle.with_goal(Goal.COUNT)
        encoding = Encoding.CUTS  # auxiliary variables would count a solution many times
    # (the symmetric model ties colours to turns: no relabelling there)
    ordered = counting and not symmetric and interchangeable_colors(puzzle) and bool(puzzle.pieces[puzzle.colors[0]])
    first = first_square(puzzle) if counting and not symmetric else None
    fitted, why = fit_workers(puzzle, workers or os.cpu_count() or 1)  # before the model takes the memory
    if why is not None:
        workers = fitted
        if progress is not None:
            progress(Progress(time.monotonic() - start, 0, why, notice=True))
    m = build(puzzle, encoding, symmetric, order_colors=ordered, order_board=first)
    if counting:
        add_exact_cover_branching(m)
    if not hint and not counting:
        hint = warm_start(m)  # our own, for one colour's maximize puzzles (None elsewhere)
    ordered_search = not counting and play_order(m)
    if hint:
        add_hint(m, hint)
    solver = cp_model.CpSolver()
    _set_parameters(solver.parameters, puzzle, workers, seed, params, counting, bool(hint), ordered_search)
    watcher = _Watcher(m, progress, counting, start)
    if stop is not None:
        solver.parameters.catch_sigint_signal = False  # the caller's stop event takes Ctrl-C
    with supervised(solver, stop, progress, start):
        status, rounds = _solve_with_cuts(solver, m, watcher, deadline, stop)
    if status == cp_model.MODEL_INVALID:
        raise CpsatError(f"CP-SAT rejected the model: {m.model.validate()}")
    stats = {"rounds": rounds, **m.size}
    if rounds:
        stats.update(conflicts=solver.num_conflicts, branches=solver.num_branches)
    result = SolveResult(Status.UNKNOWN, "cpsat", method=f"cp-sat ({m.encoding})", stats=stats)
    result.nodes = stats.get("branches", 0)
    if counting:
        _read_count(result, puzzle, status, watcher.solutions, ordered, expand=ordered or first is not None)
    else:
        _read_solution(result, m, solver, status, rounds)
    if symmetric:
        _only_symmetric(result, puzzle, counting)
    result.seconds = time.monotonic() - start
    result.interrupted = stop is not None and stop.is_set()
    return result


@contextmanager
def supervised(solver: cp_model.CpSolver, stop: threading.Event | None, progress: ProgressCallback | None,
                start: float) -> Iterator[None]:
    """While solving, a thread reports progress every second (CP-SAT may
    search for minutes without a solution to report) and stops the search
    once ``stop`` is set (``stop_search`` is meant to be called from another
    thread; it is repeated, since a stop between two rounds of cuts reaches
    no search)."""
    if stop is None and progress is None:
        yield
        return
    done = threading.Event()

    def watch() -> None:
        next_report = 1.0
        while not done.wait(0.1):
            elapsed = time.monotonic() - start
            if stop is not None and stop.is_set():
                solver.stop_search()
            elif progress is not None and elapsed >= next_report:
                progress(Progress(elapsed, 0, "searching"))
                next_report = elapsed + 1.0

    thread = threading.Thread(target=watch, name="cpsat-supervisor", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def play_order(m: PuzzleModel) -> bool:
    """Add the play-order search when it applies (one colour's maximize
    puzzle; a name of its own, so a benchmark can switch it off)."""
    return add_play_order(m)


def _set_parameters(p, puzzle: Puzzle, workers: int, seed: int, params: str, counting: bool, hinted: bool,
                    ordered_search: bool = False) -> None:
    """Our defaults for the kind of solve, then the caller's ``params``."""
    if workers:
        p.num_workers = workers
    p.random_seed = seed
    if puzzle.goal is Goal.MAXIMIZE:
        # presolve does little on these models and has been seen to leave the
        # bound far off; without it, endgames are proven 1.5-3x sooner
        p.cp_model_presolve = False
    if puzzle.goal is Goal.PLACE_ALL and puzzle.connect is Connect.GAME and not counting:
        # the challenges (solo-21, duo-solo-21): presolve took 5 of solo-21's
        # 9-11 s and removed only 1,387 of 30,833 variables; without it 4.6-6 s
        p.cp_model_presolve = False
    if counting:
        p.enumerate_all_solutions = True
        p.search_branching = cp_model.FIXED_SEARCH
        # measured on tetromino-8x10: long learned clauses, kept few and unminimised
        p.merge_text_format("use_sat_inprocessing:false,minimization_algorithm:NONE,clause_cleanup_period:1000")
    if ordered_search:
        # one colour's endgame: the play order (playorder.py) beside the default search
        p.merge_text_format(play_order_parameters(workers))
    if hinted:
        # the hint is complete: presolve would only delay using it
        p.cp_model_presolve = False
        if puzzle.goal is Goal.PLACE_ALL and not counting:
            # a verified complete hint is the answer: finding symmetries first
            # took 0.25 of the 0.45 s CP-SAT spent on solo-21
            p.symmetry_level = 0
    if params and not p.merge_text_format(params):
        raise CpsatError(f"bad CP-SAT parameters {params!r} (expected e.g. 'num_workers:4,random_seed:3')")


def _solve_with_cuts(solver: cp_model.CpSolver, m: PuzzleModel, watcher: _Watcher, deadline: Deadline,
                     stop: threading.Event | None = None) -> tuple[int, int]:
    """Solve within what is left of the time limit; under the ``cuts``
    encoding of the ``game`` rule (not when counting: the watcher drops
    disconnected solutions), add the cuts a solution breaks and solve again
    until one breaks none. Returns the CP-SAT status and the number of solves."""
    cutting = not watcher.collect and m.encoding is Encoding.CUTS and m.puzzle.connect is Connect.GAME
    rounds = 0
    while True:
        if stop is not None and stop.is_set():
            return cp_model.UNKNOWN, rounds
        left = deadline.left()
        if left is not None:
            if left <= 0:
                return cp_model.UNKNOWN, rounds
            solver.parameters.max_time_in_seconds = left
        status = solver.solve(m.model, watcher)
        rounds += 1
        if not cutting or status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return status, rounds
        value = _reader(solver)
        cuts = violations(m, m.solution(value), value)
        if not cuts:
            return status, rounds
        for cut in cuts:
            cut.add_to(m)


def _reader(solver: cp_model.CpSolver) -> Callable[[cp_model.IntVar], bool]:
    """The value of a model variable (never a negation) in the solver's
    solution, read from the response in one go (30,000 calls of
    ``boolean_value`` took 0.1 s on solo-21)."""
    values = list(solver.response_proto.solution)
    return lambda v: bool(values[v.index])


def _read_count(result: SolveResult, puzzle: Puzzle, status: int, found: list[Solution], ordered: bool,
                expand: bool) -> None:
    """Fill in a count: the solutions found, expanded to all their images
    when symmetry was broken; complete when CP-SAT finished."""
    done = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    solutions = images(puzzle, found, ordered) if expand else found
    n = len(solutions)
    result.status = (Status.OPTIMAL if n else Status.INFEASIBLE) if done else (Status.FEASIBLE if n else Status.UNKNOWN)
    result.solution_count = n
    result.placements = found[0] if found else []
    result.count_complete = done
    result.stats["found"] = len(found)
    result.solutions = solutions


def _only_symmetric(result: SolveResult, puzzle: Puzzle, counting: bool) -> None:
    """What a model that allowed only symmetric solutions may claim: its
    solutions, and for a count the number of symmetric ones; never that the
    puzzle has no solution, nor that a symmetric optimum is the optimum."""
    result.method += f", {turn_name(puzzle)} symmetric"
    if counting:
        result.method += " solutions counted"
    elif result.status is Status.INFEASIBLE:
        result.status = Status.UNKNOWN
        result.method += " (none exists; other solutions may)"
    elif puzzle.goal is Goal.MAXIMIZE and result.status is Status.OPTIMAL:
        result.status = Status.FEASIBLE  # the best symmetric solution, not proven best of all
    if puzzle.goal is Goal.MAXIMIZE:
        result.bound = None


def _read_solution(result: SolveResult, m: PuzzleModel, solver: cp_model.CpSolver, status: int, rounds: int) -> None:
    """Fill in a solve: the placements, and the objective and bound of a
    maximize goal (the model's bound when no solution was found)."""
    maximize = m.puzzle.goal is Goal.MAXIMIZE
    if rounds and status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        result.placements = m.solution(_reader(solver))
        if maximize:
            result.objective = int(solver.objective_value)
            result.bound = int(solver.best_objective_bound)
            result.status = Status.OPTIMAL if status == cp_model.OPTIMAL else Status.FEASIBLE
        else:
            result.status = Status.OPTIMAL
    elif status == cp_model.INFEASIBLE:
        result.status = Status.INFEASIBLE
    elif maximize and m.objective_bound is not None:
        result.bound = m.objective_bound
