"""The ``blokus`` command line: ``show`` and ``moves`` on game records.

Most tests call ``solver.cli.main`` in-process; one group runs
``python -m solver`` to check exit codes and that errors carry no traceback.
Expected values come from the record text (squares per colour, the colour of
the next node) and from the slow reference move generator.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from solver import Position
from solver.cli import main
from solver.core import reference
from solver.core.pieces import CLASSIC_SET as PIECES
from solver.formats.sgf import load_record
from tests.util import DATA, ROOT

VARIATIONS = str(DATA / "variations.blksgf")
TWO_PLAYER = str(DATA / "two_player.blksgf")
SETUP = str(DATA / "setup.blksgf")
COLORS = ["blue", "yellow", "red", "green"]
ALL_PIECES = [p.name for p in PIECES]

# Main line of variations.blksgf (see test_sgf.py).
VARIATIONS_MAIN = [
    (0, "b17,b18,b19,a20,b20"),
    (1, "t17,s18,t18,t19,t20"),
    (2, "s1,t1,r2,s2,t2"),
    (3, "a1,b1,c1,d1,b2"),
    (0, "e15,c16,d16,e16,f16"),
    (1, "r15,r16,q17,r17,q18"),
    (2, "o1,p1,q1,p2,p3"),
    (3, "f1,g1,e2,f2,f3"),
    (0, "g17,g18,g19,h19,i19"),
    (1, "o16,p16,n17,o17,o18"),
]


def rc(name: str) -> tuple[int, int]:
    """(row, col) of a square name, row 0 at the top."""
    return 20 - int(name[1:]), ord(name[0]) - ord("a")


def run_json(capsys, *args) -> dict:
    code = main(list(args) + ["--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert err == ""
    return json.loads(out)


def run_error(capsys, *args) -> str:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.startswith("blokus: error: ")
    assert "Traceback" not in err
    assert err.count("\n") == 1
    return err


def two_player_main_line() -> list[tuple[int, str]]:
    text = (DATA / "two_player.blksgf").read_text(encoding="utf-8")
    text = text[: text.rindex("(\n ;")]  # drop the side variation
    return [(int(c) - 1, v) for c, v in re.findall(r";\s*([1-4])\[([^\]]*)\]", text)]


# -- show --------------------------------------------------------------------------

class TestShow:
    def test_json_mid_game(self, capsys):
        obj = run_json(capsys, "show", VARIATIONS, "--move", "6")
        assert obj["to_move"] == "red"
        assert obj["game_over"] is False
        assert obj["variant"] == "Blokus"
        assert obj["move"] == 6 and obj["moves_total"] == 10
        # Blue played L5 and Y, yellow Y and N, red P, green Y (5 squares each).
        assert obj["scores"] == {"blue": -79, "yellow": -79, "red": -84, "green": -84}
        assert obj["basic_scores"] == {"blue": 79, "yellow": 79, "red": 84, "green": 84}
        assert set(obj["pieces_left"]) == set(COLORS)
        assert obj["pieces_left"]["blue"] == [n for n in ALL_PIECES if n not in ("L5", "Y")]
        assert obj["pieces_left"]["yellow"] == [n for n in ALL_PIECES if n not in ("Y", "N")]
        assert obj["pieces_left"]["red"] == [n for n in ALL_PIECES if n != "P"]
        assert obj["pieces_left"]["green"] == [n for n in ALL_PIECES if n != "Y"]
        assert "seat_scores" not in obj
        board = obj["board"]
        assert len(board) == 20 and all(len(row) == 20 for row in board)
        for color, value in VARIATIONS_MAIN[:6]:
            for name in value.split(","):
                r, c = rc(name)
                assert board[r][c] == "BYRG"[color]
        assert sum(ch != "." for row in board for ch in row) == 30

    def test_json_default_is_the_end(self, capsys):
        obj = run_json(capsys, "show", VARIATIONS)
        assert obj["move"] == 10
        assert obj["to_move"] == "red"
        assert obj["scores"]["blue"] == -(89 - 15)

    def test_to_move_at_every_move_of_a_game_with_passes(self, capsys):
        moves = two_player_main_line()
        for n in (0, 1, 30, 55, 56, 57, 58):
            obj = run_json(capsys, "show", TWO_PLAYER, "--move", str(n))
            assert obj["to_move"] == COLORS[moves[n][0]], n
            assert obj["game_over"] is False
        assert COLORS[moves[57][0]] == "green"  # yellow and red pass after move 57

    def test_finished_two_player_game(self, capsys):
        obj = run_json(capsys, "show", TWO_PLAYER)
        assert obj["to_move"] is None
        assert obj["game_over"] is True
        assert obj["variant"] == "Blokus Two-Player"
        moves = two_player_main_line()
        placed = {c: sum(len(v.split(",")) for k, v in moves if k == i) for i, c in enumerate(COLORS)}
        assert obj["scores"] == {c: -(89 - placed[c]) for c in COLORS}
        for i, c in enumerate(COLORS):
            assert len(obj["pieces_left"][c]) == 21 - sum(1 for k, _ in moves if k == i)
        s = obj["scores"]
        assert obj["seat_scores"] == {
            "blue+red": s["blue"] + s["red"],
            "yellow+green": s["yellow"] + s["green"],
        }
        assert obj["seat_scores"]["blue+red"] + obj["seat_scores"]["yellow+green"] == sum(s.values())

    def test_setup_record(self, capsys):
        obj = run_json(capsys, "show", SETUP, "--move", "0")
        assert obj["to_move"] == "yellow"  # PL[2]
        assert obj["move"] == 0 and obj["moves_total"] == 7
        assert obj["pieces_left"]["red"] == [n for n in ALL_PIECES if n not in ("L5", "T4")]
        obj = run_json(capsys, "show", SETUP)
        assert obj["pieces_left"]["red"] == [n for n in ALL_PIECES if n not in ("L5", "V5")]
        assert obj["scores"]["red"] == -(89 - 10)
        r, c = rc("n3")
        assert obj["board"][r][c] == "."

    def test_text_output(self, capsys):
        assert main(["show", VARIATIONS, "--move", "2"]) == 0
        out = capsys.readouterr().out
        assert "after move 2 of 10" in out
        assert "To move: red" in out
        assert re.search(r"blue\s+20 pieces, 84 squares", out)
        assert re.search(r"green\s+21 pieces, 89 squares", out)
        assert main(["show", TWO_PLAYER]) == 0
        out = capsys.readouterr().out
        assert "Game over" in out
        assert "Seats: blue+red -61  yellow+green -57" in out


# -- moves --------------------------------------------------------------------------

def reference_moves(n: int, color: int) -> set[frozenset]:
    """Legal moves after n main-line moves of variations.blksgf, computed by
    the slow reference generator from the record text."""
    board = {}
    used = [set() for _ in range(4)]
    pos = Position()
    for c, value in VARIATIONS_MAIN[:n]:
        for name in value.split(","):
            board[rc(name)] = c
        move = pos.parse_move(value, c)
        used[c].add(PIECES[pos.table.piece[move.placement]].name)
        pos.push(move)
    starts = [(0, 0), (0, 19), (19, 19), (19, 0)]
    hand = set(ALL_PIECES) - used[color]
    return reference.legal_moves(board, 20, 20, color, hand, {starts[color]})


class TestMoves:
    @pytest.mark.parametrize("n", [0, 3, 10])
    def test_json_default_color(self, capsys, n):
        obj = run_json(capsys, "moves", VARIATIONS, "--move", str(n))
        rec = load_record(VARIATIONS)
        pos = rec.position(n)
        expected_to_move = COLORS[VARIATIONS_MAIN[n][0]] if n < 10 else "red"
        assert obj["to_move"] == expected_to_move
        assert obj["color"] == expected_to_move
        assert set(obj["legal_counts"]) == set(COLORS)
        for i, c in enumerate(COLORS):
            assert obj["legal_counts"][c] == len(pos.legal_placements(i))
        assert len(obj["moves"]) == obj["legal_counts"][expected_to_move]
        listed = {frozenset(rc(s) for s in m.split(",")) for m in obj["moves"]}
        assert len(listed) == len(obj["moves"])
        assert listed == reference_moves(n, COLORS.index(expected_to_move))
        assert len(obj["pieces"]) == len(obj["moves"])

    def test_empty_board_counts(self, capsys):
        obj = run_json(capsys, "moves", VARIATIONS, "--move", "0")
        # 58 distinct placements cover a corner square on an empty board.
        assert obj["legal_counts"] == {c: 58 for c in COLORS}
        assert obj["to_move"] == "blue"
        assert all("a20" in m.split(",") for m in obj["moves"])

    def test_json_other_color(self, capsys):
        obj = run_json(capsys, "moves", VARIATIONS, "--move", "4", "--color", "green")
        assert obj["to_move"] == "blue"
        assert obj["color"] == "green"
        assert len(obj["moves"]) == obj["legal_counts"]["green"]
        listed = {frozenset(rc(s) for s in m.split(",")) for m in obj["moves"]}
        assert listed == reference_moves(4, 3)
        # Every listed move is written in Pentobi's square order.
        for m in obj["moves"]:
            names = m.split(",")
            assert names == sorted(names, key=lambda s: (int(s[1:]), s[0]))

    def test_color_letter_accepted(self, capsys):
        a = run_json(capsys, "moves", VARIATIONS, "--color", "y")
        b = run_json(capsys, "moves", VARIATIONS, "--color", "yellow")
        assert a["color"] == "yellow" and a["moves"] == b["moves"]

    def test_finished_game(self, capsys):
        obj = run_json(capsys, "moves", TWO_PLAYER)
        assert obj["to_move"] is None
        assert obj["legal_counts"] == {c: 0 for c in COLORS}
        assert obj["moves"] == []
        assert main(["moves", TWO_PLAYER]) == 0
        assert "Game over" in capsys.readouterr().out

    def test_setup_record_counts(self, capsys):
        obj = run_json(capsys, "moves", SETUP)
        pos = load_record(SETUP).position()
        assert obj["to_move"] == "red"
        for i, c in enumerate(COLORS):
            assert obj["legal_counts"][c] == len(pos.legal_placements(i))
        assert obj["legal_counts"]["red"] > 0
        # Red's T4 went back to the hand in the record's set-up node.
        assert "T4" in obj["pieces"]

    def test_text_output(self, capsys):
        assert main(["moves", VARIATIONS, "--move", "1"]) == 0
        out = capsys.readouterr().out
        assert "To move: yellow" in out
        n = len(load_record(VARIATIONS).position(1).legal_placements(1))
        assert f"yellow ({n}):" in out
        assert re.search(r"^\s+1\s+t20$", out, re.M)


# -- errors --------------------------------------------------------------------------

class TestErrors:
    def test_missing_file(self, capsys, tmp_path):
        missing = str(tmp_path / "missing.blksgf")
        err = run_error(capsys, "show", missing)
        assert missing in err and "cannot read" in err
        run_error(capsys, "moves", missing)

    def test_bad_record(self, capsys, tmp_path):
        bad = tmp_path / "bad.blksgf"
        bad.write_text("(\n;GM[Blokus]\n;1[a20]\n;2[a20,b20]\n)\n", encoding="utf-8")
        err = run_error(capsys, "show", str(bad))
        assert "move 2 (line 4)" in err and "overlaps" in err

    def test_bad_record_not_reached(self, capsys, tmp_path):
        bad = tmp_path / "bad.blksgf"
        bad.write_text("(\n;GM[Blokus]\n;1[a20]\n;2[a20,b20]\n)\n", encoding="utf-8")
        obj = run_json(capsys, "moves", str(bad), "--move", "1")
        assert obj["to_move"] == "yellow"

    def test_syntax_error(self, capsys, tmp_path):
        bad = tmp_path / "bad.blksgf"
        bad.write_text("(;GM[Blokus]\n;1[a20\n", encoding="utf-8")
        err = run_error(capsys, "show", str(bad))
        assert f"{bad}:2:3:" in err

    def test_unsupported_variant(self, capsys, tmp_path):
        bad = tmp_path / "trigon.blksgf"
        bad.write_text("(;GM[Blokus Callisto];1[r15])\n", encoding="utf-8")
        assert "unsupported game GM[Blokus Callisto]" in run_error(capsys, "show", str(bad))

    @pytest.mark.parametrize("cmd", ["show", "moves"])
    def test_move_past_end(self, capsys, cmd):
        err = run_error(capsys, cmd, VARIATIONS, "--move", "11")
        assert "move 11 is out of range" in err and "10 moves" in err

    def test_unknown_color(self, capsys):
        err = run_error(capsys, "moves", VARIATIONS, "--color", "purple")
        assert "unknown colour 'purple'" in err

    def test_usage_error_exits_2(self, capsys):
        with pytest.raises(SystemExit) as info:
            main(["show", VARIATIONS, "--move", "many"])
        assert info.value.code == 2
        assert "blokus: error:" in capsys.readouterr().err


# -- as a program ---------------------------------------------------------------------

def run_program(*args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "solver", *args],
        capture_output=True, text=True, timeout=60,
    )


class TestProgram:
    def test_show_json(self):
        proc = run_program("show", TWO_PLAYER, "--json")
        assert proc.returncode == 0, proc.stderr
        obj = json.loads(proc.stdout)
        assert obj["game_over"] is True and obj["to_move"] is None

    @pytest.mark.parametrize(
        "args, part",
        [
            (["show", "no-such-file.blksgf"], "cannot read"),
            (["moves", VARIATIONS, "--move", "99"], "out of range"),
            (["moves", VARIATIONS, "--color", "orange"], "unknown colour"),
        ],
    )
    def test_errors_exit_2_without_traceback(self, args, part):
        proc = run_program(*args)
        assert proc.returncode == 2
        assert proc.stdout == ""
        assert proc.stderr.startswith("blokus: error: ")
        assert part in proc.stderr
        assert "Traceback" not in proc.stderr


# -- solve ------------------------------------------------------------------------

PUZZLE_DIR = ROOT / "puzzles"


def test_solve_json_fields_and_verified_order(capsys):
    from solver.formats.puzzle_file import load_puzzle
    from solver.puzzle.verify import verify

    path = PUZZLE_DIR / "solo-21.toml"
    assert main(["solve", str(path), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["status"] == "OPTIMAL" and obj["engine"] == "search"
    assert isinstance(obj["seconds"], float)
    assert len(obj["placements"]) == 21 and len(obj["order"]) == 21
    puzzle = load_puzzle(path)
    t = puzzle.table
    placements = [(COLORS.index(x["color"]), t.parse(x["squares"])) for x in obj["placements"]]
    verify(puzzle, placements)
    assert {x["piece"] for x in obj["order"]} == {p.name for p in PIECES}
    # the order replays legally from the start on the real board
    pos = Position()
    for x in obj["order"]:
        pos.push(pos.parse_move(x["squares"], COLORS.index(x["color"])))


def test_solve_infeasible_exit_code_and_text(capsys, tmp_path):
    path = tmp_path / "tiny.toml"  # a V3 and an I3 cannot tile 3 x 2
    path.write_text('[board]\nsize = "3x2"\n[pieces]\nblue = "V3 I3"\n[rules]\nconnect = "free"\n')
    assert main(["solve", str(path)]) == 3
    assert "Status: INFEASIBLE" in capsys.readouterr().out


@pytest.mark.slow
def test_solve_the_bundled_impossible_fill_exit_code_and_text(capsys):
    code = main(["solve", str(PUZZLE_DIR / "fill-6x6-impossible.toml")])
    out = capsys.readouterr().out
    assert code == 3
    assert "Status: INFEASIBLE" in out


def test_solve_count_json(capsys, tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text('[board]\nsize = "4x6"\n[pieces]\nblue = "V3 I3 2"\nyellow = "V3 I3 2"\nred = "V3 I3 2"\n'
                    '[rules]\nconnect = "touch"\n')
    assert main(["solve", str(path), "--count", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["solution_count"] == 24 and obj["count_complete"] is True
    assert obj["count_up_to_symmetry"] >= 1


def test_solve_unknown_exit_code(capsys):
    code = main(["solve", str(PUZZLE_DIR / "solo-84.toml"), "--mode", "general", "--time-limit", "0.2", "--json"])
    assert code == 4
    assert json.loads(capsys.readouterr().out)["status"] == "UNKNOWN"


def test_solve_bad_puzzle_file(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[board]\nsize = "5x5"\n[pieces]\nblue = "I4 Q7"\n')
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("blokus: error: ") and "bad.toml:4" in err and "Q7" in err


# -- records and puzzles mixed up, moves of colours a game lacks ------------------------------

SAMPLE_DUO = PUZZLE_DIR / "games" / "sample-duo.blksgf"


def test_a_move_of_a_colour_the_game_lacks_is_refused(capsys, tmp_path):
    lines = SAMPLE_DUO.read_text().split("\n")
    lines.insert(6, ";3[n14,m14,l14,k14,j14]")  # after move 4
    path = tmp_path / "duo.blksgf"
    path.write_text("\n".join(lines))
    assert main(["show", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"blokus: error: {path}:7:2: property 3 is not used in GM[Blokus Duo] (colours are B and W, or 1 and 2)\n"


def test_a_puzzle_given_to_a_record_command_is_named(capsys):
    path = PUZZLE_DIR / "solo-21.toml"
    assert main(["analyze", str(path)]) == 2
    assert capsys.readouterr().err == (f"blokus: error: {path}:1:1: expected '(', found 'n': this is not a game "
                                       "record; it looks like a puzzle file (TOML), which 'blokus solve' reads\n")


def test_a_record_given_to_solve_is_named(capsys):
    assert main(["solve", str(SAMPLE_DUO)]) == 2
    assert capsys.readouterr().err == (f"blokus: error: {SAMPLE_DUO}:1: this is not a puzzle file; it looks like a game "
                                       "record (.blksgf), which 'blokus show', 'analyze', 'annotate' and 'render' read\n")


def test_both_engines_and_one_solution_read_right(capsys):
    assert main(["solve", str(PUZZLE_DIR / "stars-8x8.toml"), "--engine", "both", "--count"]) == 0
    out = capsys.readouterr().out
    assert "Status: OPTIMAL (both engines, " in out
    assert "Solutions: 1\n" in out and ", 1 solution" in out and "1 solutions" not in out
    assert "  The engines agree.\n" in out


def test_both_engines_say_whether_each_reached_a_final_answer(capsys):
    obj = run_json(capsys, "solve", str(PUZZLE_DIR / "stars-8x8.toml"), "--engine", "both", "--count")
    assert obj["agree"] is True and obj["both_final"] is True
    args = ["solve", str(PUZZLE_DIR / "tetromino-8x10.toml"), "--engine", "both", "--count", "--time-limit", "2"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "  No contradiction, but neither engine reached a final answer (search " in out
    assert main(args + ["--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["agree"] is True and obj["both_final"] is False
