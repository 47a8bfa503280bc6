"""The compiled game tree (solver.endgame.treekernel) against plain minimax.

Endgames come from seeded random games on 7x7, 8x6, 14x14 and the classic
board, a few plies before their end, and from games where every colour
starts with a small hand (so colours place everything: both bonuses). One
memoised minimax pass over each endgame gives all five values at once (the
two-player value and the four guaranteed scores) for every position of its
tree; the compiled engine must give the same values at the root and a best
move whose child has that value, with and without settling, with a tiny
table too (replacements), and within the solo-optimum bounds.
"""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest

from solver.core.geometry import CLASSIC_BOARD, Board
from solver.core.pieces import MONOMINO, PIECE_NAMES
from solver.core.position import Move, Position
from solver.core.variants import DUO, JUNIOR
from solver.endgame import treeengine as te
from solver.endgame import treekernel as tk
from solver.endgame.analysis import solo_puzzle
from solver.endgame.gametree import OutOfTime as TreeOutOfTime
from solver.endgame.gametree import _key
from solver.kernels.tables import unsupported
from solver.packing.driver import best_value
from tests.util import random_game, reference_moves

SEAT = (1, -1, 1, -1)


class Oracle:
    """Plain minimax over the whole rest of the game, memoised per position:
    values[key] = (two-player value, guaranteed score of colours 0..3)."""

    def __init__(self, cap: int):
        self.values: dict = {}
        self.cap = cap
        self.passes = 0  # positions after a forced pass (a colour skipped, the game not over)
        self.bonuses: set[int] = set()  # final bonuses seen (15, 20)

    def __call__(self, pos: Position) -> tuple[int, ...]:
        key = _key(pos)
        hit = self.values.get(key)
        if hit is not None:
            return hit
        if len(self.values) >= self.cap:
            raise OverflowError
        if pos.game_over:
            s = pos.scores()
            self.bonuses.update(x for x in s if x > 0)
            out = (sum(w * x for w, x in zip(SEAT, s)), *s)
        else:
            c = pos.to_move
            rows = []
            for p in pos.legal_placements():
                pos.push(Move(c, p))
                if pos.to_move is not None and pos.to_move != (c + 1) % 4:
                    self.passes += 1
                rows.append(self(pos))
                pos.pop()
            two = max(r[0] for r in rows) if c in (0, 2) else min(r[0] for r in rows)
            out = (two, *(max(r[1 + k] for r in rows) if c == k else min(r[1 + k] for r in rows) for k in range(4)))
        self.values[key] = out
        return out


def endgames(board, count: int, most: int, cap: int, hand_pieces: int | None = None, seed0: int = 0):
    """(position, oracle) pairs from seeded random games: the position the
    most plies (up to ``most``) before the end whose rest of the game has at
    most ``cap`` positions (one oracle per game, shared as the cut moves
    back). ``hand_pieces``: every colour starts with that many random
    pieces, the monomino among them in every other game."""
    found = []
    for seed in range(seed0, seed0 + 400):
        start = Position(board)
        if hand_pieces:
            rng = random.Random(seed)
            for c in range(4):
                pieces = rng.sample(range(1, len(PIECE_NAMES)), hand_pieces - (seed % 2))
                start.hand[c] = sum(1 << k for k in pieces) | ((seed % 2) << MONOMINO)
            start.setup({})
        end = random_game(seed, start.copy())
        oracle, best = Oracle(cap), None
        for back in range(2, most + 1):
            pos = start.copy()
            for m in end.history[: max(0, len(end.history) - back)]:
                pos.push(m)
            for c in range(4):
                pos.legal_placements(c)  # prunes the candidates (has_legal_move does not)
            try:
                oracle(pos)
            except OverflowError:
                break
            best = pos
        if best is not None and not best.game_over:
            found.append((best, oracle))
            if len(found) == count:
                return found
    raise AssertionError(f"not enough small endgames on {board}")


def hundred_endgames(seed0: int) -> tuple[list, list]:
    """100 endgames for checking a bound or an ordering against minimax:
    75 on small boards (30 and 20 on the two of SMALL, 25 from hands of
    five pieces that place everything: both bonuses), and 25 on the Duo
    board and the classic one (15 and 10), forced passes among them."""
    small = endgames(SMALL[0], 30, most=9, cap=1500, seed0=seed0)
    small += endgames(SMALL[1], 20, most=9, cap=1500, seed0=seed0)
    hands = endgames(Board.rectangle(8, 8, corners=True), 25, most=10, cap=1500, hand_pieces=5, seed0=seed0)
    large = endgames(DUO, 15, most=8, cap=1500, seed0=seed0)
    large += endgames(CLASSIC_BOARD, 10, most=8, cap=1500, seed0=seed0)
    assert len(small + hands + large) == 100
    assert sum(o.passes for _, o in small + hands + large) > 0
    assert set().union(*(o.bonuses for _, o in hands)) == {15, 20}
    return small + hands, large


def check(pos: Position, oracle: Oracle, colors=range(4), table_bits: int = 14,
          two_player: te.Settings = te.TWO_PLAYER, guaranteed: te.Settings = te.GUARANTEED) -> None:
    """The compiled engine's two-player value, guaranteed scores and best
    moves equal the oracle's, with and without settling (the two-player
    value), searched with the settings given."""
    want = oracle(pos)
    for settle in (True, False):
        settings = replace(two_player, settle=settle)
        value, move, _ = te.two_player_value(pos.copy(), None, settings=settings, table_bits=table_bits)
        assert value == want[0], (settle, value, want)
        pos.push(move)
        assert oracle(pos)[0] == value
        pos.pop()
    for c in colors:
        value, move, _ = te.guaranteed_score(pos.copy(), c, None, guaranteed, table_bits=table_bits)
        assert value == want[1 + c], (c, value, want)
        pos.push(move)
        assert oracle(pos)[1 + c] == value
        pos.pop()


def solo_bounds(pos: Position) -> list[tuple[int, int]]:
    """(score now, solo optimum) per colour, from the Python search engine."""
    out = []
    for c in range(4):
        now = pos.score(c)
        best = best_value(solo_puzzle(pos, c)) if pos.hand[c] and pos.has_legal_move(c) else now
        out.append((now, best))
    return out


SMALL = [Board.rectangle(7, 7, corners=True), Board.rectangle(8, 6, corners=True)]


@pytest.mark.parametrize("board", SMALL, ids=["7x7", "8x6"])
def test_small_boards_equal_minimax(board):
    found = endgames(board, 20, most=9, cap=1500)
    passes = 0
    for pos, oracle in found:
        check(pos, oracle)
        passes += oracle.passes
    assert passes > 0  # forced passes happen inside these trees


def test_small_hands_reach_both_bonuses():
    """Colours start with four or five pieces: they place everything, with
    the monomino last or not (advanced scoring's two bonuses)."""
    found = endgames(Board.rectangle(8, 8, corners=True), 20, most=10, cap=1500, hand_pieces=5)
    bonuses = set()
    for pos, oracle in found:
        check(pos, oracle)
        bonuses |= oracle.bonuses
    assert bonuses == {15, 20}


def test_duo_board_equals_minimax():
    found = endgames(Board.rectangle(14, 14, corners=True), 15, most=8, cap=1500)
    for pos, oracle in found:
        check(pos, oracle, colors=(pos.to_move,))


@pytest.mark.parametrize("variant", [DUO, JUNIOR], ids=["duo", "junior"])
def test_two_color_variants_equal_minimax(variant):
    """Duo (two colours, own start squares) and Junior (two copies of each
    piece, no bonuses): the empty colour slots never move and score 0."""
    for pos, oracle in endgames(variant, 8, most=8, cap=1500):
        check(pos, oracle, colors=(0, 1))


def test_late_classic_positions_equal_minimax():
    found = endgames(CLASSIC_BOARD, 15, most=8, cap=1500)
    for pos, oracle in found:
        check(pos, oracle, colors=(pos.to_move, (pos.to_move + 1) % 4))


def test_values_stay_within_the_solo_optimum_bounds():
    for pos, oracle in endgames(SMALL[0], 8, most=9, cap=1500, seed0=100):
        bounds = solo_bounds(pos)
        value = te.two_player_value(pos.copy(), None, table_bits=14)[0]
        lo = bounds[0][0] + bounds[2][0] - bounds[1][1] - bounds[3][1]
        hi = bounds[0][1] + bounds[2][1] - bounds[1][0] - bounds[3][0]
        assert lo <= value <= hi
        for c in range(4):
            g = te.guaranteed_score(pos.copy(), c, None, table_bits=14)[0]
            assert bounds[c][0] <= g <= bounds[c][1]


@pytest.mark.parametrize("join", [True, False])
def test_guaranteed_scores_on_two_threads_equal_minimax(join):
    """Four colours' searches on two threads at once, an engine each (the
    way analyze runs them, with and without a thread left idle joining
    another's colour): every score and best move as minimax's."""
    from solver.endgame import treesplit

    for pos, oracle in endgames(SMALL[0], 6, most=9, cap=1500, seed0=300):
        want = oracle(pos)
        found = treesplit.solve_guaranteed_all(pos, range(4), None, workers=2, table_bits=14, join=join)
        assert list(found) == [0, 1, 2, 3]
        for c, out in found.items():
            assert out.value == want[1 + c]
            if pos.to_move is not None:
                pos.push(out.move)
                assert oracle(pos)[1 + c] == out.value
                pos.pop()


def test_guaranteed_scores_on_more_threads_than_colours_take_two_each_at_most(monkeypatch):
    """Sixteen threads asked for four colours: eight engines built (each
    colour on two threads at most), the scores minimax's."""
    from solver.endgame import treesplit

    built = []
    kept = te.kept_engines

    def spy(board, table_bits, count, **kwargs):
        built.append(count)
        return kept(board, table_bits, count, **kwargs)

    monkeypatch.setattr(te, "kept_engines", spy)
    for pos, oracle in endgames(SMALL[0], 6, most=3, cap=1500, seed0=300):
        want = oracle(pos)
        for colors in (range(4), [1]):
            found = treesplit.solve_guaranteed_all(pos, colors, None, workers=16, table_bits=14)
            assert [out.value for out in found.values()] == [want[1 + c] for c in colors]
    assert set(built) == {8, 2}


# classic positions (seed of tests.util.random_game, placements before its end)
# where some colour's guaranteed score takes the compiled tree 5,000-700,000
# positions: more than its first slice, so a search can be taken over
TAKEN_OVER = [(0, 10), (2, 8), (5, 9), (5, 10), (6, 10), (7, 9)]


def test_a_thread_left_without_a_colour_takes_over_half_of_one(monkeypatch):
    """A thread that finds no colour left takes over half of one still
    searched: that search stops and goes on as a root split between the two
    threads on its own table, from the bounds it proved. The scores are one
    thread's, each best move keeps its colour's score, and the take-over
    happened (one colour on two threads: at once)."""
    from solver.endgame import treesplit

    taken = []
    split = treesplit.split_root

    def spy(*args, **kwargs):
        taken.append(kwargs.get("engs") is not None)
        return split(*args, **kwargs)

    monkeypatch.setattr(treesplit, "split_root", spy)
    for seed, back in TAKEN_OVER:
        end = random_game(seed)
        pos = Position(end.variant)
        for m in end.history[: len(end.history) - back]:
            pos.push(m)
        want = [te.solve_guaranteed(pos.copy(), c, None, table_bits=16).value for c in range(4)]
        found = treesplit.solve_guaranteed_all(pos, range(4), None, workers=2, table_bits=16)
        for c in range(4):
            alone = treesplit.solve_guaranteed_all(pos, [c], None, workers=2, table_bits=16)[c]
            for out in (found[c], alone):
                assert out.value == want[c], (seed, back, c)
                pos.push(out.move)
                assert te.solve_guaranteed(pos.copy(), c, None, table_bits=16).value == want[c]
                pos.pop()
    assert sum(taken) >= len(TAKEN_OVER)


def test_a_tiny_table_still_gives_exact_values():
    """2**8 entries: replacements and overwritten bounds all the time."""
    for pos, oracle in endgames(SMALL[1], 6, most=9, cap=1500, seed0=200):
        check(pos, oracle, colors=(0,), table_bits=8)


def _split_two_player(pos, deadline, window):
    from solver.endgame import treesplit

    return treesplit.solve_two_player(pos, deadline, window=window)


@pytest.mark.parametrize("solve", [lambda pos, deadline, window: te.two_player_value(pos, deadline, window=window),
                                   _split_two_player], ids=["one thread", "root split"])
def test_out_of_time_gives_bounds_around_the_value(solve):
    """A deadline already passed: OutOfTime with bounds that hold the value."""
    end = random_game(7)
    pos = Position()
    for m in end.history[: len(end.history) - 11]:  # more than the first node budget
        pos.push(m)
    exact = te.two_player_value(pos.copy(), None)[0]
    with pytest.raises(TreeOutOfTime) as info:
        solve(pos.copy(), time.monotonic() - 1, (exact - 40, exact + 40))
    lo, hi = info.value.bounds
    assert exact - 40 <= lo <= exact <= hi <= exact + 40


def test_wide_boards_are_left_to_the_python_tree():
    assert unsupported(Board.rectangle(32, 8)) is not None
    assert unsupported(CLASSIC_BOARD) is None


def test_analyze_uses_the_compiled_tree_and_reports_its_figures(tmp_path, capsys):
    import json

    from solver.cli import main
    from solver.endgame.analysis import analyze
    from solver.formats.sgf import write_record

    end = random_game(3)
    pos = Position()
    for m in end.history[: len(end.history) - 6]:
        pos.push(m)
    compiled = analyze(pos.copy(), two_player=True, time_limit=60)
    python = analyze(pos.copy(), two_player=True, time_limit=60, tree="python")
    assert compiled.game_value_proven and compiled.game_value == python.game_value
    assert compiled.tree_proven and compiled.nodes > 0 and compiled.depth >= 1
    path = tmp_path / "game.blksgf"
    path.write_text(write_record(end, two_player=True), encoding="utf-8")
    assert main(["analyze", str(path), "--move", str(len(end.history) - 6), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["game_value"] == compiled.game_value
    assert obj["nodes"] > 0 and obj["positions_per_second"] > 0
    assert main(["analyze", str(path), "--move", str(len(end.history) - 6)]) == 0
    assert "Game tree: proven to the end of the game, lines of up to" in capsys.readouterr().out


@pytest.mark.parametrize("budget", [2_000, 30], ids=["budget-2000", "budget-30"])
def test_solo_bounds_of_interacting_colours_keep_values_exact(budget):
    """Params.tight (off by default): colours that still interact bounded by
    their solo optima with the others frozen, on every ply; budget 30 makes
    the bounding solo searches give up often."""
    tight = {"tight": tk.MAX_PLIES, "tight_budget": budget}
    settings = {"two_player": replace(te.TWO_PLAYER, **tight), "guaranteed": replace(te.GUARANTEED, **tight)}
    found = endgames(SMALL[0], 10, most=9, cap=1500, seed0=300)
    found += endgames(Board.rectangle(8, 8, corners=True), 10, most=10, cap=1500, hand_pieces=5)
    for pos, oracle in found:
        check(pos, oracle, **settings)
    for pos, oracle in endgames(CLASSIC_BOARD, 5, most=8, cap=1500):
        check(pos, oracle, colors=(pos.to_move,), **settings)


@pytest.mark.parametrize("fit", [1, 2], ids=["fit-tree", "fit-solo-nodes"])
def test_pieces_that_fit_bound_keeps_values_exact(fit):
    """Params.fit: a colour's rise bounded by the pieces in hand that still
    fit inside its reach (in the tree, and with 2 at every solo node);
    small boards, where pieces stop fitting early, and small hands
    (bonuses)."""
    settings = {"two_player": replace(te.TWO_PLAYER, fit=fit), "guaranteed": replace(te.GUARANTEED, fit=fit)}
    found = endgames(SMALL[1], 10, most=9, cap=1500, seed0=400)
    found += endgames(Board.rectangle(8, 8, corners=True), 10, most=10, cap=1500, hand_pieces=5, seed0=400)
    for pos, oracle in found:
        check(pos, oracle, **settings)
    for pos, oracle in endgames(CLASSIC_BOARD, 4, most=8, cap=1500, seed0=400):
        check(pos, oracle, colors=(pos.to_move,), **settings)


@pytest.mark.parametrize("reach", [tk.N_PIECES, 6], ids=["every-hand", "hands-of-6"])
def test_reaches_by_chains_of_placements_keep_values_exact(reach):
    """Params.reach: reaches shrunk to chains of placements (so colours
    settle earlier and solo searches get smaller regions), with the other
    bounds of the two-player settings on, and for some hands only (a
    colour's reach then changes kind down the tree)."""
    chains = replace(te.TWO_PLAYER, reach=reach)
    settings = {"two_player": chains, "guaranteed": chains}
    found = endgames(SMALL[0], 8, most=9, cap=1500, seed0=700)
    found += endgames(Board.rectangle(8, 8, corners=True), 8, most=10, cap=1500, hand_pieces=6, seed0=700)
    for pos, oracle in found:
        check(pos, oracle, **settings)
    for pos, oracle in endgames(CLASSIC_BOARD, 4, most=8, cap=1500, seed0=700):
        check(pos, oracle, colors=(pos.to_move,), **settings)


def test_moves_refuted_by_the_movers_solo_bound_keep_values_exact():
    """The two-player settings' mover bound: children refuted before they are
    made, by the solo memo's bound of the mover after its move; the values
    and best moves stay minimax's, and the cuts do happen."""
    assert te.TWO_PLAYER.mover >= 0
    found = endgames(SMALL[0], 10, most=9, cap=1500, seed0=500)
    found += endgames(Board.rectangle(8, 8, corners=True), 10, most=10, cap=1500, hand_pieces=6, seed0=500)
    cuts = 0
    for pos, oracle in found:
        value, move, _ = te.two_player_value(pos.copy(), None, table_bits=14)
        cuts += int(te.engine(pos.board, 14).ctl[tk.C_MOVE_CUTS])
        assert value == oracle(pos)[0]
        pos.push(move)
        assert oracle(pos)[0] == value
        pos.pop()
    assert cuts > 0


def test_root_split_on_two_threads_equals_minimax():
    """The root's moves shared out between two threads (solver.endgame.treesplit,
    as analyze runs the two-player value): values and best moves as
    minimax's, with one table for both threads or one each, and with the
    first move's value split one ply deeper too."""
    from solver.endgame import treesplit

    found = endgames(SMALL[0], 8, most=9, cap=1500, seed0=600)
    found += endgames(Board.rectangle(8, 8, corners=True), 6, most=10, cap=1500, hand_pieces=6, seed0=600)
    for pos, oracle in found:
        for share, plies in ((True, 1), (False, 1), (True, 2)):
            out = treesplit.solve_two_player(pos.copy(), None, workers=2, table_bits=14, share=share, plies=plies)
            assert out.value == oracle(pos)[0], (share, plies)
            pos.push(out.move)
            assert oracle(pos)[0] == out.value
            pos.pop()
        assert {c % 2 for c in [p.to_move for p, _ in found]} == {0, 1}  # maximising and minimising roots


def test_a_split_principal_variation_in_a_proven_window_equals_minimax():
    """The first move's value split further down (two and three plies)
    when the root's value is proven in a narrow window with the value on
    its edge (as a winner's test leaves it): the first move's own value
    can lie outside the window, so it is searched within its own proven
    bounds. Values and best moves as minimax's."""
    from solver.endgame import treesplit

    small, large = hundred_endgames(0)
    checked = 0
    for pos, oracle in (small + large)[:60]:
        if pos.to_move is None:
            continue
        want = oracle(pos)[0]
        params = te.two_player_params(pos, te.TWO_PLAYER)
        for window in ((want, tk.INF - 2), (-tk.INF + 2, want), (want - 1, want + 1), (want, want + 3)):
            for plies in (2, 3):
                engs = treesplit.fresh_engines(pos.board, 14, 2, True)
                out = treesplit.split_root(pos.copy(), params, None, 2, window, 14, plies=plies, engs=engs)
                assert out.value == want, (window, plies)
                pos.push(out.move)
                assert oracle(pos)[0] == want, (window, plies)
                pos.pop()
                checked += 1
    assert checked >= 400


@pytest.mark.parametrize("variant", [None, DUO])
def test_split_nodes_take_the_kernels_order_at_a_fresh_root(variant):
    """treesplit.root_moves: every legal move once; where the parameters
    order fastest first at the node's ply, the fewest legal moves left to
    the next colour of the other side (counted by the slow reference
    generator) first, bigger pieces among equals; below those plies, or
    without it, bigger pieces first. Two-player values and a guaranteed
    score, mid-game positions."""
    from solver.endgame import treesplit

    def size(m: Move) -> int:
        return len(pos.table.squares[m.placement])

    ordered = 0
    for seed in range(2):
        start = Position(variant) if variant else Position()
        pos = random_game(seed, start, max_moves=(18 if variant else 44) + 4 * seed)
        replies: dict[tuple[Move, int], int] = {}
        for params in (te.two_player_params(pos, te.TWO_PLAYER), te.guaranteed_params(pos, (pos.to_move + 1) % 4),
                       te.two_player_params(pos, te.PLAIN),
                       te.two_player_params(pos, te.TWO_PLAYER)._replace(root_ply=te.FASTEST_FIRST_ROWS + 1)):
            moves = treesplit.root_moves(pos, params)
            assert sorted(moves) == sorted(pos.legal_moves())
            if params.order_mobility == 0 or params.root_ply > params.order_mobility:
                assert [size(m) for m in moves] == sorted((size(m) for m in moves), reverse=True)
                continue
            c = pos.to_move
            other = next(o for o in ((c + i) % 4 for i in (1, 2, 3))
                         if params.maximiser[o] != params.maximiser[c] and reference_moves(pos, o))
            keys = []
            for m in moves:
                if (m, other) not in replies:
                    child = pos.copy()
                    child.push(m)
                    replies[m, other] = len(reference_moves(child, other))
                keys.append((replies[m, other], -size(m)))
            assert keys == sorted(keys)
            ordered += keys[0][0] < keys[-1][0]
    assert ordered >= 2  # positions where the replies told the moves apart


def test_a_root_below_the_top_keeps_values_exact():
    """Params.root_ply (a split root's child searched as a root of its own:
    settled, bounded and ordered as the row below the top): minimax's
    values at one and two plies down, on 100 endgames, and no move (the
    colour to move may be settled there and the turn passed on: the row's
    best move can be another colour's)."""
    small, large = hundred_endgames(seed0=700)
    settled = 0
    for pos, oracle in small + large:
        for ply in (1, 2):
            params = te.two_player_params(pos, te.TWO_PLAYER)._replace(root_ply=ply)
            eng = te.engine(pos.board, 14)
            out = eng.run(pos.copy(), params, None)
            assert (out.value, out.move) == (oracle(pos)[0], None), ply
            settled += int(eng.st.stats[0, 3] + eng.st.stats[0, 4])  # the root settled or bounded at once
    assert settled > 0


def test_moves_ordered_fastest_first_keep_values_exact():
    """Params.order_mobility on every row (the moves that leave the other
    side the fewest replies first, the replies counted in the row below
    before the search makes a child there): on 100 endgames the two-player
    value, guaranteed scores and best moves stay minimax's."""
    settings = {"two_player": replace(te.TWO_PLAYER, order_mobility=90),
                "guaranteed": replace(te.GUARANTEED, order_mobility=90)}
    small, large = hundred_endgames(seed0=1000)
    for pos, oracle in small:
        check(pos, oracle, **settings)
    for pos, oracle in large:
        check(pos, oracle, colors=(pos.to_move,), **settings)


def test_moves_ordered_by_the_static_evaluation_keep_values_exact():
    """Params.order_eval (moves near the root ordered by the attach squares
    they take and open): on 100 endgames the two-player value, guaranteed
    scores and best moves stay minimax's."""
    ordered = replace(te.TWO_PLAYER, order_eval=4)
    settings = {"two_player": ordered, "guaranteed": replace(te.GUARANTEED, order_eval=4)}
    small, large = hundred_endgames(seed0=800)
    for pos, oracle in small:
        check(pos, oracle, **settings)
    for pos, oracle in large:
        check(pos, oracle, colors=(pos.to_move,), **settings)


def test_what_a_colour_makes_sure_of_alone_keeps_values_exact():
    """Params.private on every row (a counting colour's solo optimum in the
    part of its reach no other colour's meets, as a bound on the side it
    counts for; treeengine.GUARANTEED has it, and here the two-player
    settings too): on 100 endgames the two-player value, guaranteed scores
    and best moves stay minimax's, and the bound refutes nodes."""
    settings = {"two_player": replace(te.TWO_PLAYER, private=tk.MAX_PLIES),
                "guaranteed": replace(te.GUARANTEED, private=tk.MAX_PLIES)}
    small, large = hundred_endgames(seed0=1100)
    for pos, oracle in small:
        check(pos, oracle, **settings)
    for pos, oracle in large:
        check(pos, oracle, colors=(pos.to_move,), **settings)
    cuts = 0
    for pos, _ in small:
        eng = te.engine(pos.board, 14)
        for c in range(4):
            eng.run(pos.copy(), te.guaranteed_params(pos, c, settings["guaranteed"]), None)
            cuts += int(eng.ctl[tk.C_PRIVATE_CUTS])
    assert cuts > 0
