"""The winner before the value (solver.endgame.winnerfirst) against plain
minimax: the root split's null-window test proves what it says for every
threshold, and the winner-first search gives minimax's values and best
moves, or bounds that hold the value and decide the winner when only the
value search runs out of time."""

from __future__ import annotations

import time

import pytest

from solver.core.position import Position
from solver.endgame import treeengine as te
from solver.endgame import treekernel as tk
from solver.endgame import treesplit
from solver.endgame.gametree import OutOfTime
from solver.endgame.winnerfirst import narrowed, winner_then_value
from tests.endgame.test_treekernel import hundred_endgames
from tests.util import random_game


@pytest.fixture(scope="module")
def positions():
    """100 endgames: small boards, hands that place everything (both
    bonuses), the Duo board and the classic one, forced passes among them."""
    small, large = hundred_endgames(seed0=900)
    assert {p.to_move % 2 for p, _ in small + large} == {0, 1}  # maximising and minimising roots
    return small + large


@pytest.mark.parametrize("kind", ["two-player", "guaranteed"])
def test_null_window_tests_prove_what_they_say(positions, kind):
    """For thresholds around the value and around zero: a fail-soft answer
    v >= t means value >= v, v < t means value <= v; the move that decides
    a test at the side to move's favour reaches v. The two-player value,
    and the score the colour to move guarantees (finished positions below
    the root scored as that score, not as the two-player value)."""
    for pos, oracle in positions:
        if kind == "two-player":
            k, params = 0, te.two_player_params(pos, te.TWO_PLAYER)
        else:
            k, params = 1 + pos.to_move, te.guaranteed_params(pos, pos.to_move)
        value = oracle(pos)[k]
        maximising = bool(params.maximiser[pos.to_move])
        engs = treesplit.fresh_engines(pos.board, 14, 2, True)
        for t in sorted({value, value + 1, 1, 0}):
            out = treesplit.null_window(pos, params, None, t, engs)
            assert (out.value >= t) == (value >= t), (t, out.value, value)
            assert value >= out.value if out.value >= t else value <= out.value
            if out.move is not None:
                assert (out.value >= t) == maximising
                pos.push(out.move)
                reached = oracle(pos)[k]
                pos.pop()
                assert reached >= out.value if maximising else reached <= out.value


@pytest.mark.parametrize("limit", [None, 600.0], ids=["no-deadline", "deadline"])
def test_winner_first_gives_minimax_values_and_best_moves(positions, limit):
    """With no deadline, and with one (the tests then keep to a third of it)."""
    for pos, oracle in positions:
        want = oracle(pos)[0]
        deadline = None if limit is None else time.monotonic() + limit
        out = treesplit.solve_two_player(pos.copy(), deadline, workers=2, table_bits=14, winner_first=True)
        assert out.value == want
        pos.push(out.move)
        assert oracle(pos)[0] == want
        pos.pop()


def test_the_value_search_starts_from_the_move_that_decided_a_test(positions, monkeypatch):
    """The move that decided the last of the winner's tests for the side to
    move is the first the value search tries (its split root's first
    move); values and best moves stay minimax's."""
    tests, split = treesplit.null_window, treesplit.split_root
    decided: list = []
    firsts: list = []

    def test(*args, **kwargs):
        out = tests(*args, **kwargs)
        decided.append(out.move)
        return out

    def value(*args, first=None, **kwargs):
        firsts.append(first)
        return split(*args, first=first, **kwargs)

    monkeypatch.setattr(treesplit, "null_window", test)
    monkeypatch.setattr(treesplit, "split_root", value)
    started = 0
    for pos, oracle in positions:
        decided.clear()
        firsts.clear()
        out = treesplit.solve_two_player(pos.copy(), None, workers=2, table_bits=14, winner_first=True)
        assert out.value == oracle(pos)[0]
        pos.push(out.move)
        assert oracle(pos)[0] == out.value
        pos.pop()
        moves = [m for m in decided if m is not None]
        assert firsts == [moves[-1] if moves else None]
        started += bool(moves)
    assert started >= 10


def test_when_only_the_value_runs_out_of_time_the_winner_is_proven(positions):
    """The tests finish, the value search gives up at once (proving nothing
    beyond its window): OutOfTime with bounds that hold the value and say
    who wins (or that it is a draw)."""
    windows = []

    def no_value(window, deadline, first):
        windows.append(window)
        raise OutOfTime(window, 0, 0, 0.0)

    for pos, oracle in positions:
        want = oracle(pos)[0]
        params = te.two_player_params(pos, te.TWO_PLAYER)
        engs = treesplit.fresh_engines(pos.board, 14, 2, True)
        with pytest.raises(OutOfTime) as info:
            winner_then_value(lambda t, until: treesplit.null_window(pos, params, until, t, engs), no_value,
                              (-tk.INF + 2, tk.INF - 2), None)
        assert info.value.bounds == windows[-1]
        lo, hi = info.value.bounds
        assert lo <= want <= hi
        if want > 0:
            assert lo >= 1
        elif want < 0:
            assert hi <= -1
        else:
            assert lo == hi == 0


def test_a_test_out_of_time_leaves_the_window_to_the_value_search():
    """A deadline already passed: the tests prove nothing, the value search
    still gets the time left, and its OutOfTime bounds hold the value."""
    end = random_game(7)
    pos = Position()
    for m in end.history[: len(end.history) - 11]:  # more than a kernel call's first budget
        pos.push(m)
    want = te.two_player_value(pos.copy(), None)[0]
    params = te.two_player_params(pos, te.TWO_PLAYER)
    engs = treesplit.fresh_engines(pos.board, 14, 2, True)
    with pytest.raises(OutOfTime):
        treesplit.null_window(pos, params, time.monotonic() - 1, 1, engs)
    with pytest.raises(OutOfTime) as info:
        treesplit.solve_two_player(pos.copy(), time.monotonic() - 1, window=(want - 40, want + 40), table_bits=14,
                                   winner_first=True)
    lo, hi = info.value.bounds
    assert want - 40 <= lo <= want <= hi <= want + 40


def test_narrowed_bounds_follow_a_fail_soft_answer():
    assert narrowed(-10, 10, 1, 4) == (4, 10)  # value >= 4
    assert narrowed(-10, 10, 1, -3) == (-10, -3)  # value <= -3
    assert narrowed(-10, 0, 0, 0) == (0, 0)  # a draw
