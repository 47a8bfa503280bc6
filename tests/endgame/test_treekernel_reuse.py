"""The compiled game tree searched again on a kept table (``fresh=False``,
as ``blokus annotate`` walks a game): a root the table already settles
gives its proven value and no move, never the previous search's move."""

from __future__ import annotations

from solver.core.position import Position
from solver.core.variants import DUO
from solver.endgame import treeengine as te
from tests.util import random_game


def test_a_root_settled_by_the_kept_table_has_no_stale_move():
    checked = settled = 0
    for seed in range(6):
        line = random_game(seed, Position(DUO)).history
        before = Position(DUO)
        for m in line[: len(line) - 6]:
            before.push(m)
        engine = te.Engine(before.board, table_bits=16)
        first = engine.run(before.copy(), te.two_player_params(before), None)
        assert first.move is not None and before.is_legal(first.move)
        after = before.copy()
        after.push(first.move)
        if after.game_over:
            continue
        again = engine.run(after.copy(), te.two_player_params(after), None, fresh=False)
        fresh = te.Engine(after.board, table_bits=16).run(after.copy(), te.two_player_params(after), None)
        assert again.value == fresh.value == first.value
        assert again.move is None or (again.move.color == after.to_move and after.is_legal(again.move))
        checked += 1
        settled += again.nodes == 1  # the root was a table hit: the case that once returned a stale move
    assert checked >= 4 and settled >= 1
