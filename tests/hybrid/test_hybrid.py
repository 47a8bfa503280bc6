"""The hybrid engine: every LNS step returns a legal partial
packing (checked again here with the verifier on small random puzzles),
the engine reports a verified packing or a verified partial, never
INFEASIBLE, and solution files verify (``blokus solve --check``)."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import pytest

from solver.cli import main
from solver.errors import OptionError
from solver.formats.puzzle_file import load_puzzle, parse_puzzle
from solver.formats.solution_file import solution_to_json
from solver.hybrid import engine as hybrid
from solver.hybrid import lns
from solver.hybrid import portfolio as pf
from solver.hybrid import symmetric as sym
from solver.hybrid.settings import Settings
from solver.puzzle.definition import Goal
from solver.puzzle.result import SolveResult, Status
from solver.puzzle.symmetry import turn_square_map, turn_symmetry
from solver.puzzle.verify import VerificationError, verify
from solver.solving import solve
from tests.faults import signal_when
from tests.puzzlegen import random_puzzle
from tests.util import ROOT

PUZZLES = ROOT / "puzzles"

SMALL_TWO_COLOURS = """
name = "two-7x7"
description = "Two colours with seven pieces each on a 7x7 board from opposite corners, game rule."
[board]
size = "7x7"
starts = {blue = "a7", red = "g1"}
[pieces]
blue = "1 2 I3 V3 L4 T4 Z4"
red = "1 2 I3 V3 L4 T4 Z4"
[rules]
connect = "game"
[goal]
type = "place-all"
"""


def _squares(puzzle, placements) -> int:
    return sum(len(puzzle.table.squares[p]) for _, p in placements)


def _partial(puzzle, seed: int):
    """A legal partial packing: a prefix of a legal play order of what the
    search engine finds in a moment (empty when it finds nothing)."""
    r = solve(puzzle, "search", time_limit=0.5, seed=seed)
    k = random.Random(seed).randint(0, len(r.order))
    while k:  # (under the touch rule, or with start squares off the game rule, not every prefix is legal)
        try:
            verify(puzzle, r.order[:k], partial=True)
            break
        except VerificationError:
            k -= 1
    return r.order[:k]


@pytest.mark.parametrize("seed", range(12))
def test_lns_step_never_returns_anything_illegal(seed):
    puzzle = random_puzzle(seed, max_pieces=5, goals=("place-all",))
    rng = random.Random(seed)
    current = _partial(puzzle, seed)
    try:
        verify(puzzle, current, partial=True)
    except VerificationError:
        assert not current
        pytest.skip("nothing placed is no legal partial packing here (a set-up piece off its start square)")
    b = puzzle.board
    for step in range(3):
        h, w = rng.randint(1, b.height), rng.randint(1, b.width)
        window = lns.window_mask(puzzle, rng.randrange(b.height), rng.randrange(b.width), h, w)
        colors = None if rng.random() < 0.5 else (rng.choice(puzzle.colors),)
        sink = rng.randrange(b.size) if rng.random() < 0.5 else None
        new = lns.lns_step(puzzle, current, window, 2.0, seed=step, workers=2, holes=rng.random() < 0.7,
                              sink=sink, colors=colors)
        if new is None:
            continue
        verify(puzzle, new, partial=True)  # legal, connected, nothing overlapping
        t = puzzle.table
        assert len({(c, t.piece[p]) for c, p in new}) == len(new)  # each piece once
        kept = [(c, p) for c, p in current if not (t.mask[p] & window and (colors is None or c in colors))]
        assert set(kept) <= set(new)  # the pieces outside the window stay
        assert _squares(puzzle, new) >= _squares(puzzle, current)  # it starts from the current packing
        current = new


def test_lns_step_repairs_a_packing_on_a_two_colour_board():
    puzzle = parse_puzzle(SMALL_TWO_COLOURS)
    current = _partial(puzzle, 3)
    verify(puzzle, current, partial=True)
    new = lns.lns_step(puzzle, current, lns.window_mask(puzzle, 0, 0, 7, 7), 3.0, workers=2)
    assert new is not None
    verify(puzzle, new, partial=True)
    assert _squares(puzzle, new) >= _squares(puzzle, current)


def test_hybrid_reaches_a_verified_packing_or_partial_never_infeasible():
    puzzle = parse_puzzle(SMALL_TWO_COLOURS)
    stats = lns.LnsStats()
    result = hybrid.solve(puzzle, time_limit=6.0, seed=1, workers=2, start=[], stats=stats)  # the LNS alone
    assert result.status in (Status.OPTIMAL, Status.UNKNOWN)
    assert stats.steps >= 1 and stats.rejected == 0
    if result.status is Status.OPTIMAL:
        verify(puzzle, result.placements)
    else:
        assert result.best_partial
        verify(puzzle, result.placements, partial=True)


def test_engine_hybrid_through_solve():
    puzzle = parse_puzzle(SMALL_TWO_COLOURS)
    result = solve(puzzle, "hybrid", time_limit=5.0, seed=2, workers=2)
    assert result.engine == "hybrid" and result.status is not Status.INFEASIBLE
    verify(puzzle, result.placements, partial=result.status is not Status.OPTIMAL)
    assert result.order  # filled by solve, which verified it


def test_hybrid_takes_place_all_puzzles_only():
    puzzle = load_puzzle(PUZZLES / "stars-8x8.toml")
    with pytest.raises(OptionError):
        solve(puzzle, "hybrid", count=True)
    with pytest.raises(OptionError):
        solve(replace(puzzle, goal=Goal.MAXIMIZE, target=puzzle.colors), "hybrid")


# -- solution files --------------------------------------------------------------------------

def test_check_a_solution_file(tmp_path, capsys):
    path = PUZZLES / "stars-8x8.toml"
    puzzle = load_puzzle(path)
    result = solve(puzzle, "search", time_limit=10)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(solution_to_json(puzzle, result.placements)))
    assert main(["solve", str(path), "--check", str(good)]) == 0
    assert "a solution" in capsys.readouterr().out
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps(solution_to_json(puzzle, result.order[:1], partial=True)))
    assert main(["solve", str(path), "--check", str(partial)]) == 4
    not_partial = tmp_path / "short.json"
    not_partial.write_text(json.dumps(solution_to_json(puzzle, result.order[:1])))
    assert main(["solve", str(path), "--check", str(not_partial)]) == 2  # claims a solution, places too little
    twice = tmp_path / "twice.json"
    obj = solution_to_json(puzzle, result.placements)
    obj["placements"].append(dict(obj["placements"][0], color="yellow" if obj["placements"][0]["color"] != "yellow"
                                  else "blue"))
    twice.write_text(json.dumps(obj))
    assert main(["solve", str(path), "--check", str(twice)]) == 2  # overlap (or a colour not taking part)
    assert "blokus: error" in capsys.readouterr().err


def test_the_json_of_solve_is_a_solution_file(tmp_path, capsys):
    path = PUZZLES / "solo-21.toml"
    assert main(["solve", str(path), "--json"]) == 0
    out = tmp_path / "solo-21.json"
    out.write_text(capsys.readouterr().out)
    assert main(["solve", str(path), "--check", str(out)]) == 0


FRONTIER_FILES = sorted((ROOT / "docs" / "frontier").glob("*.json"))


@pytest.mark.parametrize("path", FRONTIER_FILES, ids=lambda p: p.stem)
def test_each_committed_frontier_solution_file_verifies(path):
    from solver.formats.solution_file import check_solution

    obj = json.loads(path.read_text())
    puzzle = load_puzzle(PUZZLES / f"{obj['puzzle']}.toml")
    checked = check_solution(puzzle, path)  # raises when a rule is broken
    assert checked.complete != checked.partial  # what the file claims is what it is


def test_a_portfolio_of_seeds_keeps_the_best_run():
    puzzle = parse_puzzle(SMALL_TWO_COLOURS)
    result = pf.portfolio(puzzle, [1, 2], time_limit=0.5, workers=2, jobs=1)  # one after the other, here
    assert result.engine == "hybrid" and result.method.startswith("portfolio of 2 seeds")
    verify(puzzle, result.placements, partial=result.status is not Status.OPTIMAL)
    with pytest.raises(OptionError):
        solve(puzzle, "search", portfolio=2)


@pytest.mark.slow
def test_a_portfolio_of_more_runs_than_jobs_runs_them_all_in_turn(capsys):
    # a puzzle no run packs in seconds (a complete packing would stop the runs not started)
    path = PUZZLES / "frontier-2c-12x15.toml"
    code = main(["solve", str(path), "--engine", "hybrid", "--portfolio", "3", "--jobs", "2", "--workers", "1",
                 "--time-limit", "3", "--json"])
    captured = capsys.readouterr()
    obj = json.loads(captured.out)
    assert "portfolio: 3 runs on 2 workers" in captured.err
    assert sorted(re.findall(r"seed (\d): ", captured.err)) == ["0", "1", "2"]
    assert code == (0 if obj["status"] == "OPTIMAL" else 4) and obj["method"].startswith("portfolio of 3 seeds")


@pytest.mark.parametrize("args, message", [
    (["--jobs", "2"], "jobs are the processes of a portfolio's local cluster: they need a portfolio"),
    (["--engine", "hybrid", "--portfolio", "2", "--jobs", "2", "--scheduler", "tcp://localhost:1"],
     "jobs start a local cluster; scheduler uses an existing one: give one of them"),
])
def test_portfolio_options_that_do_not_go_together(tmp_path, capsys, args, message):
    path = tmp_path / "small.toml"
    path.write_text(SMALL_TWO_COLOURS)
    assert main(["solve", str(path), *args]) == 2
    assert capsys.readouterr().err == f"blokus: error: {message}\n"


# -- the turn symmetries (half turn on rectangles) -------------------------------------------

def _symmetric(puzzle, placements, symmetry) -> bool:
    pmap, cmap = symmetry
    return set(placements) == {(cmap[c], pmap[p]) for c, p in placements}


def test_half_turn_symmetry_of_the_two_colour_puzzles():
    from solver.puzzle.symmetry import half_turn

    pmap, cmap = half_turn(load_puzzle(PUZZLES / "frontier-2c-13x14.toml"))
    assert cmap == {0: 2, 2: 0}
    pmap, cmap = half_turn(load_puzzle(PUZZLES / "frontier-18x20.toml"))
    assert cmap == {0: 2, 1: 3, 2: 0, 3: 1} and all(q is not None for q in pmap)
    assert isinstance(half_turn(load_puzzle(PUZZLES / "solo-21.toml")), str)  # one colour: no partner


def test_the_half_turn_beam_and_symmetric_lns_steps_keep_the_symmetry():
    from solver.packing.halfturn import HalfTurnBeam

    puzzle = parse_puzzle(SMALL_TWO_COLOURS)
    symmetry = turn_symmetry(puzzle)
    beam = HalfTurnBeam(puzzle)
    state = beam.run(4, 6, seed=1)
    current = list(state.placed) if state is not None else beam.best
    verify(puzzle, current, partial=state is None)
    assert current and _symmetric(puzzle, current, symmetry)
    current = current[:2]  # blue's first piece and its image: a symmetric partial packing
    verify(puzzle, current, partial=True)
    for step in range(2):
        window = sym.orbit_mask(lns.window_mask(puzzle, 0, 0, 4, 4), turn_square_map(puzzle))
        new = lns.lns_step(puzzle, current, window, 2.0, seed=step, workers=2, symmetry=symmetry)
        if new is None:
            continue
        verify(puzzle, new, partial=True)
        assert _symmetric(puzzle, new, symmetry) and _squares(puzzle, new) >= _squares(puzzle, current)
        current = new


def test_the_hybrid_searches_symmetric_packings_only_where_the_puzzle_has_a_turn_symmetry():
    solo = load_puzzle(PUZZLES / "solo-21.toml")
    with pytest.raises(OptionError):
        hybrid.solve(solo, time_limit=5.0, symmetric=True)  # one colour: no turn maps it onto another
    result = solve(load_puzzle(PUZZLES / "solo-84.toml"), "hybrid", time_limit=120, seed=1, workers=2)
    assert result.status is Status.OPTIMAL and "symmetric beam" in result.method  # the quarter turn, by default
    verify(load_puzzle(PUZZLES / "solo-84.toml"), result.placements)


def test_the_hybrid_takes_the_half_turn_by_default_on_a_rectangle_that_has_it():
    puzzle = parse_puzzle(SMALL_TWO_COLOURS)
    result = solve(puzzle, "hybrid", time_limit=30, seed=1, workers=2)  # verified by solve
    assert result.status is Status.OPTIMAL and "half-turn" in result.method
    assert _symmetric(puzzle, result.placements, turn_symmetry(puzzle))
    general = solve(puzzle, "hybrid", time_limit=30, seed=1, workers=2, mode="general")
    assert general.status is Status.OPTIMAL and "half-turn" not in general.method


# -- scattered hole neighbourhoods (SCATTER) and the waste search ----------------------------

@pytest.mark.parametrize("seed", range(4))
def test_scattered_hole_steps_never_return_anything_illegal(seed):
    import random as _random

    from solver.deadline import Deadline

    puzzle = parse_puzzle(SMALL_TWO_COLOURS)
    current = _partial(puzzle, seed)
    verify(puzzle, current, partial=True)
    repair = lns.Repair(puzzle, list(current), Deadline(60), lns.LnsStats(), _random.Random(seed), 2, None)
    t = puzzle.table
    for step in range(3):
        covered = sum(t.mask[p] for _, p in repair.current)
        holes = [s for s in range(puzzle.board.size) if puzzle.masks.free >> s & 1 and not covered >> s & 1]
        if not holes:
            break
        window = repair.scatter_window(holes, covered)
        freed = [cp for cp in repair.current if t.mask[cp[1]] & window]
        new = lns.lns_step(puzzle, repair.current, window, 1.0, seed=step, workers=2, sink=holes[0])
        if new is not None:
            verify(puzzle, new, partial=True)  # legal, connected, nothing overlapping
            assert set(repair.current) - set(freed) <= set(new)  # the pieces outside the window stay
            assert _squares(puzzle, new) >= repair.value
        repair.take(new)


def test_the_lns_with_scattered_hole_steps_reports_a_verified_packing():
    puzzle = parse_puzzle(SMALL_TWO_COLOURS)
    stats = lns.LnsStats()
    result = hybrid.solve(puzzle, time_limit=4.0, seed=3, workers=2, start=[], stats=stats,
                          settings=Settings(scatter=1.0))
    assert stats.rejected == 0 and result.status in (Status.OPTIMAL, Status.UNKNOWN)
    verify(puzzle, result.placements, partial=result.status is not Status.OPTIMAL)


@pytest.mark.slow
@pytest.mark.parametrize("change", [{"clump": True}, {"hole_windows": 1.0}, {"restart": 2}, {"step_max": 6.0}],
                         ids=["clump", "hole-windows", "restart", "long-steps"])
def test_the_measured_ideas_that_are_off_still_give_verified_packings(change):
    """Settings left off by default (benchmarks/frontier_ideas.py compares
    them): switched on, the LNS still hands in legal packings only."""
    puzzle = parse_puzzle(SMALL_TWO_COLOURS)
    stats = lns.LnsStats()
    result = hybrid.solve(puzzle, time_limit=4.0, seed=3, workers=2, start=[], stats=stats, settings=Settings(**change))
    assert stats.rejected == 0 and stats.steps > 0 and result.status in (Status.OPTIMAL, Status.UNKNOWN)
    verify(puzzle, result.placements, partial=result.status is not Status.OPTIMAL)


@pytest.mark.slow
def test_capped_symmetric_beams_still_pack_solo_84():
    puzzle = load_puzzle(PUZZLES / "solo-84.toml")
    result = hybrid.solve(puzzle, time_limit=60, seed=1, workers=2, settings=Settings(beam_cap=64))
    assert result.status is Status.OPTIMAL
    verify(puzzle, result.placements)


@pytest.mark.parametrize("seed", [4, 5, 16, 17, 25, 32, 53])
def test_the_waste_search_finds_exactly_the_brute_force_packings(seed):
    from solver.packing.waste import WasteSearch
    from tests.bruteforce import solve_all
    from tests.puzzlegen import random_puzzle

    puzzle = random_puzzle(seed, max_pieces=5, goals=("place-all",))
    want = solve_all(puzzle)
    got = [s for s in WasteSearch(puzzle).solutions() if s is not None]
    for s in got:
        verify(puzzle, s)
    assert len({frozenset(s) for s in got}) == len(got)  # each packing once
    assert {frozenset(s) for s in got} == want


def test_a_stopped_portfolio_returns_its_best_so_far_and_skips_the_runs_not_started():
    import threading

    puzzle = parse_puzzle(SMALL_TWO_COLOURS)
    stop = threading.Event()
    heard = []

    def progress(info) -> None:  # Ctrl-C as the first run ends
        heard.append(info.text)
        stop.set()

    result = pf.portfolio(puzzle, [1, 2, 3], time_limit=0.5, workers=1, jobs=1, progress=progress, stop=stop)
    assert len(heard) == 1 and heard[0].startswith("seed 1: ") and heard[0].endswith("1 of 3 runs done, best "
                                                                                    f"{len(result.placements)}/14")
    assert result.interrupted and result.method.startswith("portfolio of 3 seeds, best seed 1: ")
    verify(puzzle, result.placements, partial=result.status is not Status.OPTIMAL)


def test_a_portfolio_passes_mode_and_search_share_to_every_run(monkeypatch):
    seen = []

    def fake(*args, **kw):
        seen.append((args[2], kw["symmetric"], kw["search_share"]))
        return SolveResult(Status.UNKNOWN, "hybrid", "fake")

    monkeypatch.setattr(pf, "solve", fake)
    pf.portfolio(parse_puzzle(SMALL_TWO_COLOURS), [4, 5], time_limit=1, jobs=1, search_share=0.3, symmetric=False)
    assert seen == [(4, False, 0.3), (5, False, 0.3)]


def test_stopped_in_the_half_turn_waste_search_the_hybrid_shows_its_partial():
    """Ctrl-C while the compiled waste search runs (before the half-turn
    beam has anything): its deepest partial packing is reported."""
    import threading

    puzzle = load_puzzle(PUZZLES / "frontier-2c-12x15.toml")
    stop = threading.Event()
    result = hybrid.solve(puzzle, 300, 3, 1, progress=lambda info: stop.set(), stop=stop)
    assert result.interrupted and result.status is Status.UNKNOWN
    assert result.method == "search: half-turn waste search" and result.best_partial
    verify(puzzle, result.placements, partial=True)


def test_a_portfolio_stops_at_the_first_complete_packing(monkeypatch):
    puzzle = load_puzzle(PUZZLES / "solo-21.toml")  # the search engine packs it at once
    runs = []
    solve_one = pf.solve

    def counted(*args, **kw):
        runs.append(args[2])
        return solve_one(*args, **kw)

    monkeypatch.setattr(pf, "solve", counted)
    result = pf.portfolio(puzzle, [1, 2, 3], time_limit=20, workers=2, jobs=1)  # one after the other, here
    assert result.status is Status.OPTIMAL and runs == [1]
    verify(puzzle, result.placements)


def test_ctrl_c_in_the_waste_search_hands_in_what_progress_said():
    """Progress of the compiled waste search counts the pieces joined to
    their starts (what a stop hands in) beside the search's depth; SIGINT
    after a report hands in at least that many."""
    progress = re.compile(r"(\d+)/42 pieces deep, (\d+) joined to their starts, half-turn waste search")
    proc, found = signal_when(["solve", "frontier-2c-12x15", "--engine", "hybrid", "--time-limit", "300", "--json"],
                              progress.search)
    out = proc.stdout
    assert found and proc.returncode == 130
    obj = json.loads(out)
    assert obj["interrupted"] and obj["best_partial"]
    assert len(obj["placements"]) >= int(found[2])  # (the search may have gone on after the report)
