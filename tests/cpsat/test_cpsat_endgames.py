"""CP-SAT on endgame solo optima: alone, it proves the same
optimum as the search engine alone, on late positions of seeded games
under two policies; its own warm start is a legal solution never better
than that optimum; its play-order search (fixed, one worker) agrees too."""

from __future__ import annotations

import random

import pytest

from solver.core.position import Move, Position
from solver.cpsat import driver
from solver.cpsat.model import build
from solver.cpsat.playorder import add_play_order
from solver.cpsat.warmstart import warm_start
from solver.endgame.analysis import solo_puzzle
from solver.formats.puzzle_file import load_puzzle
from solver.puzzle.result import Status
from solver.puzzle.verify import verify
from solver.solving import solve
from tests.util import ROOT

PUZZLE_FILES = ROOT / "puzzles"


def seeded_position(seed: int, policy: str, moves: int) -> Position:
    """The position after ``moves`` moves of a seeded game: uniformly random
    legal moves, or (``greedy``) a random move of the largest piece left."""
    rng = random.Random(f"{seed}/{policy}")
    pos = Position()
    while not pos.game_over and len(pos.history) < moves:
        legal = pos.legal_placements()
        if policy == "greedy":
            size = max(len(pos.table.squares[p]) for p in legal)
            legal = [p for p in legal if len(pos.table.squares[p]) == size]
        pos.push(Move(pos.to_move, rng.choice(legal)))
    return pos


def endgame_puzzles():
    """Small solo-optimum problems: every colour with a legal move, 4 to 8
    pieces in hand, after rounds 14-15 of four seeded games."""
    out = []
    for seed, policy, moves in [(2, "random", 60), (4, "random", 56), (1, "greedy", 56), (3, "greedy", 60)]:
        pos = seeded_position(seed, policy, moves)
        for c in range(4):
            if pos.hand[c] and pos.has_legal_move(c) and len(pos.pieces_left(c)) <= 8:
                out.append((f"{policy}{seed}-{c}", pos, c))
    return out


PUZZLES = endgame_puzzles()


def test_enough_endgames():
    assert len(PUZZLES) >= 10
    assert {name.split("-")[0] for name, _, _ in PUZZLES} >= {"random2", "greedy1"}


@pytest.mark.parametrize("name,pos,c", PUZZLES, ids=[p[0] for p in PUZZLES])
def test_cpsat_alone_proves_the_search_optimum(name, pos, c):
    puzzle = solo_puzzle(pos, c)
    a = solve(puzzle, "search", time_limit=30)
    b = solve(puzzle, "cpsat", time_limit=30)  # solving.solve verifies both
    assert a.status is Status.OPTIMAL and b.status is Status.OPTIMAL
    assert a.objective == b.objective >= verify(puzzle, []).objective  # no better than playing nothing
    assert verify(puzzle, b.placements).objective == b.objective
    # the play order alone (one worker: a fixed search) proves the same
    one = driver.solve(puzzle, time_limit=30, workers=1)
    assert one.status is Status.OPTIMAL and one.objective == a.objective
    assert verify(puzzle, one.placements).objective == a.objective


@pytest.mark.parametrize("name,pos,c", PUZZLES, ids=[p[0] for p in PUZZLES])
def test_warm_start_is_legal_and_never_beats_the_optimum(name, pos, c):
    puzzle = solo_puzzle(pos, c)
    m = build(puzzle)
    hint = warm_start(m)
    assert hint is not None  # it applies to every solo optimum, and the empty solution is legal
    value = verify(puzzle, hint).objective
    optimum = solve(puzzle, "search", time_limit=30)
    assert optimum.status is Status.OPTIMAL
    assert value <= optimum.objective
    assert add_play_order(m)  # the play order applies to the same puzzles


def test_play_order_leaves_other_puzzles_alone():
    for name in ("solo-21.toml", "connect-8x8.toml"):  # place-all puzzles (their warm start: test_cpsat_warmstart.py)
        m = build(load_puzzle(PUZZLE_FILES / name))
        assert not add_play_order(m)


def test_play_order_packs_from_shared_starting_points_only():
    """Place-all with a choice of start squares for every colour (Trigon's
    shared starting points) gets the pieces-largest-first order; one start
    square per colour (solo-21, above) and set-up pieces do not."""
    m = build(load_puzzle(PUZZLE_FILES / "trigon-solo-22.toml"))
    assert add_play_order(m)
    strategy = m.model.proto.search_strategy[0]
    placement = {v.index: p for (_, p), v in m.x.items()}
    order = list(strategy.variables) or [e.vars[0] for e in strategy.exprs]
    sizes = [len(m.puzzle.table.squares[placement[i]]) for i in order]
    assert len(sizes) == len(m.x) and sizes == sorted(sizes, reverse=True)
