"""Endgame analysis: the game-tree search against a plain minimax over the
whole tree, solo optima by both engines, independence, and ``blokus analyze``.

Small positions come from seeded random games on small boards, taken a few
plies before their end (so the whole rest of the game can be enumerated).
"""

from __future__ import annotations

import json
import re

import pytest

from solver.cli import main
from solver.core.geometry import COLORS, Board
from solver.core.position import Move, Position
from solver.endgame.analysis import Analysis, ScoreOutlook, analyze, interaction_groups, reach, solo_puzzle
from solver.endgame.gametree import guaranteed_score, two_player_value
from solver.formats.sgf import write_record
from solver.puzzle.result import Status
from solver.puzzle.verify import verify
from solver.solving import solve
from tests.util import ROOT, random_game


def minimax(pos: Position, value, maximiser: set[int]) -> int:
    """The value of the rest of the game by brute force: every line played out."""
    if pos.game_over:
        return value(pos)
    results = []
    color = pos.to_move
    for p in pos.legal_placements():
        pos.push(Move(color, p))
        results.append(minimax(pos, value, maximiser))
        pos.pop()
    return max(results) if color in maximiser else min(results)


def tree_size(pos: Position, cap: int) -> int:
    """Positions in the rest of the game, counting stops at ``cap``."""
    if pos.game_over:
        return 1
    n = 1
    color = pos.to_move
    for p in pos.legal_placements():
        pos.push(Move(color, p))
        n += tree_size(pos, cap - n)
        pos.pop()
        if n >= cap:
            break
    return n


def small_endgames(count: int, board: Board, back: int, cap: int = 3000) -> list[Position]:
    """Positions ``back`` plies before the end of seeded random games whose
    remaining tree has fewer than ``cap`` positions."""
    found = []
    for seed in range(500):
        end = random_game(seed, Position(board))
        line = list(end.history)
        pos = Position(board)
        for m in line[: max(0, len(line) - back)]:
            pos.push(m)
        if not pos.game_over and tree_size(pos, cap) < cap:
            found.append(pos)
            if len(found) == count:
                return found
    raise AssertionError("not enough small endgames")


def seat_difference(p: Position) -> int:
    s1, s2 = p.seat_scores()
    return s1 - s2


BOARDS = [Board.rectangle(7, 7, corners=True), Board.rectangle(8, 6, corners=True)]


@pytest.mark.parametrize("board", BOARDS, ids=["7x7", "8x6"])
def test_two_player_value_equals_minimax(board):
    for pos in small_endgames(4, board, back=8, cap=2000):
        expected = minimax(pos, seat_difference, {0, 2})
        value, move, _ = two_player_value(pos.copy(), None)
        assert value == expected
        settled, _, _ = two_player_value(pos.copy(), None, outlook=ScoreOutlook())
        assert settled == expected
        # the best move reaches the value
        pos.push(move)
        assert minimax(pos, seat_difference, {0, 2}) == expected
        pos.pop()


@pytest.mark.parametrize("board", BOARDS, ids=["7x7", "8x6"])
def test_guaranteed_score_equals_minimax_and_never_exceeds_the_solo_optimum(board):
    for pos in small_endgames(5, board, back=7, cap=10000):
        for c in range(4):
            expected = minimax(pos, lambda p: p.score(c), {c})
            value, _, _ = guaranteed_score(pos.copy(), c, None, outlook=ScoreOutlook())
            assert value == expected
            solo = solve(solo_puzzle(pos, c), time_limit=None) if pos.hand[c] and pos.has_legal_move(c) else None
            assert value <= (solo.objective if solo else pos.score(c))


def test_window_from_bounds_gives_the_same_value():
    for pos in small_endgames(6, BOARDS[0], back=6):
        exact, _, _ = two_player_value(pos.copy(), None)
        assert two_player_value(pos.copy(), None, window=(exact - 3, exact + 5))[0] == exact


def classic_endgames(seeds, back: int) -> list[Position]:
    out = []
    for seed in seeds:
        end = random_game(seed)
        pos = Position()
        for m in end.history[: len(end.history) - back]:
            pos.push(m)
        out.append(pos)
    return out


def test_solo_optima_agree_between_engines_and_are_legal():
    checked = 0
    for pos in classic_endgames(range(5), back=8):
        for c in range(4):
            if not pos.hand[c] or not pos.has_legal_move(c):
                continue
            puzzle = solo_puzzle(pos, c)
            a = solve(puzzle, time_limit=60)
            b = solve(puzzle, "cpsat", time_limit=60)
            assert a.status is Status.OPTIMAL and b.status is Status.OPTIMAL
            assert a.objective == b.objective >= pos.score(c)
            for r in (a, b):
                assert verify(puzzle, r.placements).objective == r.objective
            checked += 1
    assert checked >= 10


def test_reach_holds_every_square_of_the_solo_optimum():
    for pos in classic_endgames(range(6, 10), back=12):
        for c in range(4):
            if pos.hand[c] and pos.has_legal_move(c):
                r = solve(solo_puzzle(pos, c), time_limit=60)
                covered = 0
                for _, p in r.placements:
                    covered |= pos.table.mask[p]
                assert covered & ~reach(pos, c) == 0


def test_independent_position_value_is_the_sum_of_solo_optima():
    """Where the colours no longer interact, the analysis says so and the
    game value is the seat sum of solo optima, which alpha-beta confirms."""
    seen = 0
    for pos in classic_endgames(range(40), back=6):
        if interaction_groups(pos):
            continue
        a = analyze(pos.copy(), two_player=True, time_limit=60)
        assert a.independent and a.game_value_proven
        optimum = [r.solo_optimum for r in a.colors]
        assert a.game_value == optimum[0] + optimum[2] - optimum[1] - optimum[3]
        assert two_player_value(pos.copy(), None)[0] == a.game_value
        seen += 1
        if seen == 3:
            break
    assert seen >= 1


def test_analysis_of_a_small_two_player_endgame():
    pos = small_endgames(1, BOARDS[0], back=6)[0]
    a = analyze(pos.copy(), two_player=True, time_limit=60, engine="both")
    assert a.game_value_proven and a.game_value == minimax(pos, seat_difference, {0, 2})
    lo, hi = a.game_bounds
    assert lo <= a.game_value <= hi
    for r in a.colors:
        assert r.proven and r.disagreement is None
        if r.placements:
            assert verify(solo_puzzle(pos, r.color), r.placements).objective == r.solo_optimum


@pytest.mark.parametrize("two_player", [True, False])
def test_the_tree_answers_alike_on_one_two_or_three_threads(two_player, monkeypatch):
    """analyze's threads: the two-player value, or each colour's
    guaranteed score, as minimax's on one thread, two and three (more
    than this machine's cores: the split is exact whatever the count),
    and the threads asked for are the threads the split is given."""
    from solver.endgame import treesplit

    split = treesplit.solve_two_player if two_player else treesplit.solve_guaranteed_all
    given = set()

    def spy(*args, **kwargs):
        given.add(kwargs["workers"] if "workers" in kwargs else args[3])
        return split(*args, **kwargs)

    monkeypatch.setattr(treesplit, split.__name__, spy)
    searched = 0
    for pos in small_endgames(4, BOARDS[1], back=7):
        if two_player:
            want = minimax(pos, seat_difference, {0, 2})
        else:
            want = [guaranteed_score(pos.copy(), c, None)[0] for c in range(4)]
        for threads in (1, 2, 3):
            a = analyze(pos.copy(), two_player, time_limit=60, threads=threads)
            got = a.game_value if two_player else [r.guaranteed for r in a.colors]
            assert got == want, threads
            searched += bool(a.nodes)
    assert searched >= 6  # positions where the game tree ran, not the solo optima alone
    assert given == ({2, 3} if two_player else {1, 2, 3})


# -- blokus analyze -----------------------------------------------------------------

def record_file(tmp_path, pos: Position, two_player: bool) -> str:
    path = tmp_path / "game.blksgf"
    path.write_text(write_record(pos, two_player=two_player), encoding="utf-8")
    return str(path)


def test_cli_json(tmp_path, capsys):
    end = random_game(3)
    path = record_file(tmp_path, end, two_player=True)
    n = len(end.history) - 6
    assert main(["analyze", path, "--move", str(n), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert [c["color"] for c in obj["colors"]] == ["blue", "yellow", "red", "green"]
    pos = Position()
    for m in end.history[:n]:
        pos.push(m)
    for c, entry in enumerate(obj["colors"]):
        assert entry["score_now"] == pos.score(c)
        assert entry["proven"] and entry["solo_optimum"] >= entry["score_now"]
        if entry["placements"]:
            placed = [(c, pos.table.parse(x["squares"])) for x in entry["placements"]]
            assert verify(solo_puzzle(pos, c), placed).objective == entry["solo_optimum"]
    assert obj["game_value_proven"] and obj["game_value"] == two_player_value(pos.copy(), None)[0]
    v = obj["game_value"]
    assert obj["winner"] == ("blue+red" if v > 0 else "yellow+green" if v < 0 else "draw")
    groups = interaction_groups(pos)
    assert obj["independent"] == (not groups) and obj["move"] == n
    assert obj["groups"] == [[COLORS[c] for c in g] for g in groups]
    assert obj["best_move"]["color"] == obj["to_move"]


def test_cli_finished_game_reports_final_scores(tmp_path, capsys):
    end = random_game(4)
    path = record_file(tmp_path, end, two_player=False)
    assert main(["analyze", path, "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["game_over"] and obj["to_move"] is None
    assert [c["solo_optimum"] for c in obj["colors"]] == end.scores()
    assert [c["guaranteed"] for c in obj["colors"]] == end.scores()
    assert "the game is over: these are the final scores" in obj["notes"]


def test_cli_errors(tmp_path, capsys):
    end = random_game(5)
    path = record_file(tmp_path, end, two_player=False)
    assert main(["analyze", path, "--move", "999"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("blokus: error: ") and "999" in err
    bad = tmp_path / "bad.blksgf"
    bad.write_text("(;GM[Blokus];B[a1", encoding="utf-8")
    assert main(["analyze", str(bad)]) == 2
    err_analyze = capsys.readouterr().err
    assert main(["show", str(bad)]) == 2
    assert capsys.readouterr().err == err_analyze


def test_when_only_one_color_can_move_its_solo_optimum_is_the_outcome():
    """The others cannot move: both engines' solo optimum is exactly what the
    colour gets (the four-player guaranteed score from the game tree)."""
    seen = 0
    for seed in range(60):
        end = random_game(seed)
        for back in range(2, 12):
            pos = Position()
            for m in end.history[: len(end.history) - back]:
                pos.push(m)
            movers = [c for c in range(4) if pos.has_legal_move(c)]
            if len(movers) != 1:
                continue
            c = movers[0]
            puzzle = solo_puzzle(pos, c)
            a, b = solve(puzzle, time_limit=60), solve(puzzle, "cpsat", time_limit=60)
            assert a.status is Status.OPTIMAL and b.status is Status.OPTIMAL
            assert a.objective == b.objective
            assert guaranteed_score(pos.copy(), c, None)[0] == a.objective
            seen += 1
            break
        if seen == 4:
            break
    assert seen == 4


def test_time_limit_gives_bounds_not_a_value():
    """Early in a game a 2 s analysis keeps to what it proved: a game value
    only with the proof, else bounds and a note saying so (on any machine)."""
    pos = Position()
    for m in random_game(11).history[:24]:
        pos.push(m)
    a = analyze(pos.copy(), two_player=True, time_limit=2)
    lo, hi = a.game_bounds
    assert lo <= hi
    if a.game_value_proven:
        assert lo <= a.game_value <= hi and a.best_move is not None
    else:
        assert a.game_value is None and a.best_move is None
        assert any(n.startswith("the position is too far from the end to prove in the time given: ") for n in a.notes)
    for r in a.colors:
        if not r.proven:
            assert r.bound is not None and (r.solo_optimum is None or r.solo_optimum <= r.bound)


@pytest.mark.parametrize("value, bounds, winner", [
    (None, (1, 30), 1), (None, (-12, -1), -1), (None, (0, 0), 0), (None, (0, 9), None), (None, (-5, 5), None),
    (None, None, None), (4, (-5, 5), 1), (-2, (-5, 5), -1), (0, (-5, 5), 0)])
def test_the_winner_follows_from_the_value_or_its_bounds(value, bounds, winner):
    a = Analysis(Position(), True, False, [], False, [], game_value=value, game_value_proven=value is not None,
                 game_bounds=bounds)
    assert a.winner == winner
    a.two_player = False
    assert a.winner is None


def test_a_position_far_from_the_end_says_so(capsys):
    game = str(ROOT / "puzzles" / "games" / "sample-2p.blksgf")
    assert main(["analyze", game, "--move", "10", "--time-limit", "3"]) == 0
    out = capsys.readouterr().out
    assert "Game value (blue+red minus yellow+green): not proven in the time given (proven bounds " in out
    assert "Note: the position is too far from the end to prove in the time given: 74 pieces still in hand" in out
    assert "'blokus annotate' finds the first move it can prove" in out


@pytest.mark.parametrize("game, names", [("sample-duo", {"purple", "orange"}), ("sample-junior", {"green", "orange"})])
def test_progress_names_only_the_game_s_colours(game, names):
    from solver.formats.sgf import load_record

    record = load_record(str(ROOT / "puzzles" / "games" / f"{game}.blksgf"))
    said: list[str] = []
    analyze(record.position(record.move_count - 6), True, 10.0, progress=lambda p: said.append(p.text))
    solo = {t.removeprefix("solo optimum of ") for t in said if t.startswith("solo optimum of ")}
    assert solo == names


def test_junior_solo_optima_by_the_compiled_engine_equal_the_python_tree():
    from solver.endgame import gametree, treeengine
    from solver.formats.sgf import load_record

    record = load_record(str(ROOT / "puzzles" / "games" / "sample-junior.blksgf"))
    for n in (24, 26, 28, 30):
        pos = record.position(n)
        for c in (0, 1):
            value, line, _ = treeengine.solo_optimum(pos, c, None)
            assert value == gametree.solo_optimum(pos, c, None)[0], (n, c)
            alone = gametree.playing_alone(pos, c)
            for move in line:
                alone.check_move(move)
                alone.push(move)
            assert alone.score(c) == value


def test_an_unproven_solo_optimum_shows_its_proven_range(capsys):
    game = str(ROOT / "puzzles" / "games" / "sample-junior.blksgf")
    assert main(["analyze", game, "--move", "8", "--time-limit", "2"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("green ", "orange "))]
    assert len(rows) == 2 and any("not proven" in row for row in rows)  # 2 s, 22 pieces each: not proven
    for row in rows:
        assert "none" not in row
        if "not proven" in row:
            assert re.search(r"[+-]\d+\.\.[+-]\d+", row), row


@pytest.mark.slow
def test_ctrl_c_ends_an_analysis_with_what_was_proven():
    """SIGINT, as Ctrl-C sends it, in the middle of a long game-tree search:
    the threads stop (no wait for the deadline), the analysis is printed
    with what was proven, exit 130."""
    import signal
    import subprocess
    import sys
    import time

    game = str(ROOT / "puzzles" / "games" / "sample-2p.blksgf")
    warm = subprocess.run([sys.executable, "-m", "solver", "analyze", game, "--move", "60", "--time-limit", "30"],
                          capture_output=True, cwd=ROOT, timeout=600)  # the compiled tree loaded, not compiled, below
    assert warm.returncode == 0
    proc = subprocess.Popen([sys.executable, "-m", "solver", "analyze", game, "--move", "40", "--time-limit", "600",
                             "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        time.sleep(8)  # loading takes about a second, the solo optima two: the tree search is under way
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)  # a hang until the deadline would be ten minutes
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    obj = json.loads(out)
    assert obj["interrupted"] and not obj["game_value_proven"]
    assert "interrupted (Ctrl-C): what was proven by then" in obj["notes"]
