"""The two-player tree split over a Dask cluster (solver.endgame.treecluster)
on a real LocalCluster of two worker processes, started here: values and
best moves as minimax's and as one process's search, bounds when time runs
out, the caller's stop, and positions rebuilt in another process."""

from __future__ import annotations

import json
import logging
import random
import threading
import time

import pytest

from solver.core.geometry import Board
from solver.core.position import Move, Position
from solver.core.variants import DUO, JUNIOR
from solver.endgame import treecluster as tc
from solver.endgame import treeengine as te
from solver.endgame import treekernel as tk
from solver.endgame.gametree import OutOfTime
from solver.formats.sgf import load_record
from tests.endgame.test_treekernel import SMALL, endgames, hundred_endgames
from tests.util import ROOT, random_game


def before_end(end: Position, back: int, start: Position | None = None) -> Position:
    pos = start.copy() if start is not None else Position(end.variant)
    for m in end.history[: len(end.history) - back]:
        pos.push(m)
    return pos


@pytest.mark.parametrize("variant", [None, DUO, JUNIOR])
def test_snapshots_rebuild_the_same_position(variant):
    """Set-up pieces, hands of its own, a second copy of a piece (Junior)
    and moves: the rebuilt position has the same board, hands, turn and
    legal moves."""
    for seed in range(6):
        start = Position(variant) if variant else Position()
        rng = random.Random(seed)
        if seed % 2:
            for c in start.variant.colors:
                start.hand[c] = sum(1 << k for k in rng.sample(range(21), 8))
            start.setup({})
        end = random_game(seed, start.copy())
        pos = before_end(end, rng.randrange(1, 8), start)
        if seed % 3 == 0:
            pos.rebase()
            pos.push(Move(pos.to_move, pos.legal_placements()[0])) if pos.to_move is not None else None
        again = tc.Snapshot.of(pos).position()
        assert again.state_key() == pos.state_key()
        assert (again.hand, again.spare, again.to_move) == (pos.hand, pos.spare, pos.to_move)
        for c in range(4):
            assert sorted(again.legal_placements(c)) == sorted(pos.legal_placements(c))


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL) as cluster:
        with Client(cluster, set_as_default=False) as c:  # as the commands: no default client to fall back on
            yield c


def test_cluster_split_equals_minimax(client):
    """Values and best moves as minimax's, with the root alone split and
    with the principal variation split two plies down, the winner first or
    not; every task finished and the search's positions are the tasks' sum."""
    found = endgames(SMALL[0], 5, most=9, cap=1500, seed0=600)
    found += endgames(Board.rectangle(8, 8, corners=True), 4, most=10, cap=1500, hand_pieces=6, seed0=600)
    for pos, oracle in found:
        for plies, winner_first in ((1, False), (2, False), (1, True)):
            split = tc.solve_two_player(pos.copy(), client, None, plies=plies, table_bits=14,
                                        winner_first=winner_first)
            out = split.outcome
            assert out.value == oracle(pos)[0], (plies, winner_first)
            pos.push(out.move)
            assert oracle(pos)[0] == out.value
            pos.pop()
            assert all(r.finished for r in split.tasks)
            assert out.nodes == sum(r.nodes for r in split.tasks) > 0
            assert {r.path[0] for r in split.tasks} <= set(pos.legal_moves())
    assert {p.to_move % 2 for p, _ in found} == {0, 1}  # maximising and minimising roots


def test_cluster_split_in_a_proven_window_equals_minimax(client):
    """The principal variation split two plies down (``analyze``'s
    setting) when the root's value is proven on one side only, with the
    value on the window's edge (as the winner's tests leave it): the
    first move's value can lie outside the window, so its node is searched
    within its own proven bounds. Values and best moves as minimax's."""
    small, large = hundred_endgames(0)
    roots = [(pos, oracle) for pos, oracle in (small + large)[20:30] if pos.to_move is not None]
    for pos, oracle in roots:
        want = oracle(pos)[0]
        for window in ((want, tk.INF - 2), (-tk.INF + 2, want)):
            out = tc.solve_two_player(pos.copy(), client, None, window, plies=2, table_bits=14).outcome
            assert out.value == want, window
            pos.push(out.move)
            assert oracle(pos)[0] == want, window
            pos.pop()
    assert len(roots) >= 8


def test_cluster_null_window_tests_prove_what_they_say(client):
    """The winner's tests as tasks: for thresholds around the value and
    zero, v >= t proves value >= v and v < t value <= v."""
    found = endgames(SMALL[1], 4, most=9, cap=1500, seed0=610)
    found += endgames(DUO, 4, most=8, cap=1500, seed0=610)
    for pos, oracle in found:
        value = oracle(pos)[0]
        search = tc._Search(client, pos, te.two_player_params(pos, te.TWO_PLAYER), None, 14, None)
        try:
            for t in sorted({value, value + 1, 1, 0}):
                v = search.null_window(pos, t, None).value
                assert (v >= t) == (value >= t), (t, v, value)
                assert value >= v if v >= t else value <= v
        finally:
            search.close()


def test_the_clusters_value_search_starts_from_the_move_that_decided_a_test(client, monkeypatch):
    """As on threads: the move that decided the last of the winner's tests
    is the value search's first task; values and best moves stay minimax's."""
    tests = tc._Search.null_window
    decided: list = []  # (the test's move, the records collected when it ended)

    def test(self, *args, **kwargs):
        out = tests(self, *args, **kwargs)
        decided.append((out.move, len(self.records)))
        return out

    monkeypatch.setattr(tc._Search, "null_window", test)
    found = endgames(SMALL[0], 5, most=9, cap=1500, seed0=620)
    found += endgames(DUO, 5, most=8, cap=1500, seed0=620)
    started = 0
    for pos, oracle in found:
        decided.clear()
        split = tc.solve_two_player(pos.copy(), client, None, table_bits=14, winner_first=True)
        out = split.outcome
        assert out.value == oracle(pos)[0]
        pos.push(out.move)
        assert oracle(pos)[0] == out.value
        pos.pop()
        moves = [m for m, _ in decided if m is not None]
        if moves:
            assert split.tasks[decided[-1][1]].path[0] == moves[-1]
            started += 1
    assert started >= 5


@pytest.mark.parametrize("variant,back", [pytest.param(DUO, 7, id="duo"),
                                          pytest.param(None, 6, id="classic", marks=pytest.mark.slow)])  # two minutes
def test_cluster_split_equals_one_process(client, variant, back):
    """Full-size boards: the same values as one process's search, and a best
    move of that value; the two workers both searched."""
    workers = set()
    for seed in range(4):
        end = random_game(seed, Position(variant) if variant else Position())
        pos = before_end(end, back)
        if pos.game_over:
            continue
        want = te.solve_two_player(pos.copy(), None)
        split = tc.solve_two_player(pos.copy(), client, None, plies=2)
        assert split.outcome.value == want.value
        pos.push(split.outcome.move)
        assert te.solve_two_player(pos.copy(), None).value == want.value
        workers |= {r.worker for r in split.tasks}
    assert len(workers) == 2


def _hard_position() -> Position:
    end = random_game(7)
    return before_end(end, 11)


def _record_after(seconds: float) -> tc.TaskRecord:
    time.sleep(seconds)
    return tc.TaskRecord(path=(), test=False, phases=(), value=1, bound=None)


def test_waiting_for_tasks_that_end_as_the_clock_is_looked_at(client):
    """Tasks ending around each look at the clock: every record comes back
    (distributed's own short result timeout lost some to an UnboundLocalError)."""
    search = tc._Search(client, Position(DUO), te.two_player_params(Position(DUO), te.TWO_PLAYER), None, 16, None)
    rng = random.Random(3)
    for _ in range(150):
        future = client.submit(_record_after, rng.uniform(0.0, 0.01), pure=False)
        assert search._result(future, poll=0.002).value == 1
    assert len(search.records) == 150


def _record_when_set(name: str) -> tc.TaskRecord:
    from distributed import Event

    Event(name).wait()
    return tc.TaskRecord(path=(), test=False, phases=(), value=1, bound=None)


def test_waiting_for_tasks_ends_at_the_deadline_while_they_run(client):
    """Tasks still running at the search's deadline: the wait for them ends
    with OutOfTime before any of them finishes (a task queued behind others
    counts its seconds from its own start, so the caller's clock keeps the
    limit; Dask's as_completed would wait for the next task however long)."""
    from distributed import Event

    pos = Position(DUO)
    release = Event(f"release-{random.getrandbits(64)}", client=client)
    search = tc._Search(client, pos, te.two_player_params(pos, te.TWO_PLAYER), time.monotonic() + 0.3, 16, None)
    futures = [client.submit(_record_when_set, release.name, pure=False) for _ in range(3)]
    try:
        with pytest.raises(OutOfTime):
            for future in search._completed(futures):
                search._result(future)
        assert not any(f.done() for f in futures)
    finally:
        release.set()
    assert [f.result().value for f in futures] == [1, 1, 1]


def test_out_of_time_gives_bounds_around_the_value(client):
    pos = _hard_position()
    exact = te.two_player_value(pos.copy(), None)[0]
    with pytest.raises(OutOfTime) as info:
        tc.solve_two_player(pos.copy(), client, time.monotonic() + 0.5, window=(exact - 40, exact + 40))
    lo, hi = info.value.bounds
    assert exact - 40 <= lo <= exact <= hi <= exact + 40


def test_the_callers_stop_ends_the_search_and_the_workers_go_on(client):
    """Stop set while tasks run: OutOfTime soon after, and the next search
    on the same workers is exact."""
    end = random_game(3)
    pos = before_end(end, 24)  # far more than a second's search
    stop = threading.Event()
    threading.Timer(1.0, stop.set).start()
    with pytest.raises(OutOfTime):
        tc.solve_two_player(pos.copy(), client, None, stop=stop)
    small = before_end(end, 6)
    assert tc.solve_two_player(small.copy(), client, None).outcome.value == te.solve_two_player(small, None).value


def test_analyze_splits_the_tree_over_a_local_cluster(capsys):
    """blokus analyze --workers 2: the same proven value and best move as
    the threads of one process, from tasks on the cluster it starts."""
    from solver.cli import main

    game = str(ROOT / "puzzles/games/sample-2p.blksgf")
    results = []
    for extra in ([], ["--workers", "2"]):
        assert main(["analyze", game, "--move", "56", "--json", *extra]) == 0
        results.append(json.loads(capsys.readouterr().out))
    here, there = results
    assert there["game_value_proven"] and there["game_value"] == here["game_value"]
    assert there["cluster_tasks"] > 0 and here["cluster_tasks"] is None
    pos = load_record(game).position(56)
    pos.push(pos.parse_move(there["best_move"]["squares"]))
    assert te.solve_two_player(pos, None).value == here["game_value"]


def test_analyze_takes_threads_or_a_cluster_not_both(capsys):
    from solver.cli import main

    game = str(ROOT / "puzzles/games/sample-2p.blksgf")
    for cluster in (["--workers", "2"], ["--scheduler", "tcp://127.0.0.1:8786"]):
        assert main(["analyze", game, "--move", "56", "--threads", "2", *cluster]) == 2
        assert capsys.readouterr().err == ("blokus: error: --threads is for the game tree in this process; --workers "
                                           "and --scheduler split it over Dask: give one of them\n")


def test_analyze_refuses_a_malformed_scheduler_address(capsys):
    from solver.cli import main

    game = str(ROOT / "puzzles/games/sample-2p.blksgf")
    assert main(["analyze", game, "--move", "56", "--scheduler", "tcp://nowhere"]) == 2
    assert "bad scheduler address 'tcp://nowhere'" in capsys.readouterr().err
