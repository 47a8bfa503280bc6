"""Reading and writing Pentobi game records (``solver.formats.sgf``).

The records under ``tests/data`` were made for these tests from legal games
played with the package (seeded random games), then laid out by hand the
way Pentobi writes files: variations, indentation, TE/BM annotations and
comments with escaped brackets. Expected outcomes are computed here from the
record text with helpers that share no code with the package (square
names, squares per colour), or written out literally.
"""

from __future__ import annotations

import random
import re

import pytest

from solver import Position, RecordError
from solver.core.pieces import CLASSIC_SET as PIECES
from solver.errors import IllegalMoveError
from solver.formats import sgf
from solver.formats.sgf import load_record, parse_sgf, read_record, write_record
from tests.util import DATA

COLOR_NAMES = ("blue", "yellow", "red", "green")


# -- helpers independent of the package ---------------------------------------

def sq(name: str) -> int:
    """Square index of a name like 'a20' on the 20x20 board (row 0 on top)."""
    col = ord(name[0]) - ord("a")
    number = int(name[1:])
    return (20 - number) * 20 + col


def squares(value: str) -> list[str]:
    return [s.strip() for s in value.split(",")]


def pentobi_key(name: str) -> tuple[int, int]:
    """Pentobi writes a1, b1, ..., t1, a2, ...: row number first, then column."""
    return int(name[1:]), ord(name[0]) - ord("a")


def move_values(text: str) -> list[tuple[int, str]]:
    """(colour index, squares text) of every move node in the text, in order."""
    return [(int(c) - 1, v) for c, v in re.findall(r";\s*([1-4])\[([^\]]*)\]", text)]


def hand_names(pos: Position, color: int) -> set[str]:
    return {PIECES[i].name for i in pos.pieces_left(color)}


def random_game(seed: int, limit: int | None = None) -> Position:
    rng = random.Random(seed)
    pos = Position()
    while not pos.game_over and (limit is None or len(pos.history) < limit):
        pos.push(rng.choice(pos.legal_moves()))
    return pos


def read_data(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


# The main line of tests/data/variations.blksgf, and squares that only its
# side variations cover.
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
SIDE_ONLY_SQUARES = ["a18", "r1", "a2", "c2", "b15", "o3", "q3", "p4", "g2", "a12", "o15", "q4", "r5", "g6"]


# -- reading: main line and variations -----------------------------------------

class TestMainLine:
    def test_main_line_is_first_child_everywhere(self):
        rec = read_record(read_data("variations.blksgf"), "variations.blksgf")
        assert rec.variant.game == "Blokus"
        assert not rec.two_player
        assert rec.move_count == len(VARIATIONS_MAIN) == 10
        pos = rec.position()
        assert [(c, pos.table.name(p)) for c, p in pos.history] == VARIATIONS_MAIN
        for color, value in VARIATIONS_MAIN:
            for name in squares(value):
                assert pos.color_at(sq(name)) == color, name
        occupied = sum(len(squares(v)) for _, v in VARIATIONS_MAIN)
        assert sum(bin(m).count("1") for m in pos.occupied) == occupied
        # Squares that only the second, third... variations cover stay empty.
        for name in SIDE_ONLY_SQUARES:
            assert pos.color_at(sq(name)) is None, name
        # Blue's first move in the main line is the L5; the side line's L4
        # was not played, so blue still holds the L4.
        assert "L5" not in hand_names(pos, 0)
        assert "L4" in hand_names(pos, 0)
        assert pos.to_move == 2  # red moves after yellow's 10th move

    def test_variations_at_root_and_deeper(self):
        roots = parse_sgf(read_data("variations.blksgf"))
        assert len(roots) == 1
        root = roots[0]
        assert len(root.children) == 2  # two variations of blue's first move
        assert root.children[0].get("1").values == ["b17,b18,b19,a20,b20"]
        assert root.children[1].get("1").values == ["a18,a19,a20,b20"]
        yellow = root.children[0].children[0]
        assert [c.get("3").values[0] for c in yellow.children] == ["s1,t1,r2,s2,t2", "r1,s1,t1,s2"]

    def test_position_after_n_moves(self):
        rec = read_record(read_data("variations.blksgf"))
        for n in range(len(VARIATIONS_MAIN) + 1):
            pos = rec.position(n)
            assert len(pos.history) == n
            placed = {sq(s) for _, v in VARIATIONS_MAIN[:n] for s in squares(v)}
            on_board = {s for s in range(400) if pos.color_at(s) is not None}
            assert on_board == placed
            # Every colour can still move here, so the next node's colour moves.
            expected = VARIATIONS_MAIN[n][0] if n < len(VARIATIONS_MAIN) else 2
            assert pos.to_move == expected

    def test_comments_and_escapes_kept(self):
        rec = read_record(read_data("variations.blksgf"))
        comment = rec.nodes[0].get("C").values[0]
        assert comment == "Main line first, side variations after it.\nBrackets in comments are escaped: a ] b \\ c"
        assert rec.nodes[0].get("GN").values == ["Variations test"]
        green = rec.nodes[8]
        assert green.get("4").values == ["f1,g1,e2,f2,f3"]
        assert green.get("C").values == ["Green's F."]
        assert rec.nodes[1].get("TE").values == ["1"]

    def test_escaped_bracket_in_a_side_variation_comment(self):
        rec = read_record(read_data("two_player.blksgf"))
        roots = parse_sgf(read_data("two_player.blksgf"))
        node = roots[0]
        while len(node.children) == 1:
            node = node.children[0]
        assert len(node.children) == 2
        side = node.children[1]
        assert side.get("BM").values == ["1"]
        assert side.get("C").values == ["Worse: it leaves ] a hole."]
        # The side variation's green domino j4,k4 is not played: the main
        # line's O on j4,k4,j5,k5 is.
        pos = rec.position()
        assert {pos.color_at(sq(s)) for s in ("j4", "k4", "j5", "k5")} == {3}

    def test_whitespace_indentation_and_annotations_tolerated(self):
        moves = VARIATIONS_MAIN[:6]
        compact = "(;GM[Blokus]" + "".join(f";{c + 1}[{v}]" for c, v in moves) + ")"
        spaced = (
            "\ufeff  \r\n(\r\n\t;GM [Blokus]\r\n  CA[UTF-8] AP[Pentobi:18.4]\r\n"
            + "".join(
                f"   ;  {c + 1}\t[ {v.replace(',', ', ')} ]  TE[1]\r\n  C[note {i}: \\]\\\\]\r\n"
                for i, (c, v) in enumerate(moves)
            )
            + "\r\n)\r\n\r\n"
        )
        a = read_record(compact).position()
        b = read_record(spaced).position()
        assert a.state_key() == b.state_key()
        assert a.history == b.history
        assert len(b.history) == 6
        assert read_record(spaced).nodes[2].get("C").values == ["note 1: ]\\"]

    def test_soft_line_break_in_comment(self):
        rec = read_record("(;GM[Blokus]C[one \\\ntwo\nthree];1[a20])")
        assert rec.nodes[0].get("C").values == ["one two\nthree"]
        assert rec.position().color_at(sq("a20")) == 0

    def test_only_first_game_of_a_collection(self):
        text = "(;GM[Blokus];1[a20])\n(;GM[Blokus];1[a20,b20])\n"
        pos = read_record(text).position()
        assert pos.color_at(sq("a20")) == 0
        assert pos.color_at(sq("b20")) is None

    def test_move_out_of_rotation_accepted(self):
        # Blue plays twice in a row: legal for blue, so accepted; then the
        # turn passes to the colour after blue.
        pos = read_record("(;GM[Blokus];1[a20];1[b19,c19])").position()
        assert pos.color_at(sq("b19")) == 0 and pos.color_at(sq("c19")) == 0
        assert [c for c, _ in pos.history] == [0, 0]
        assert pos.to_move == 1
        # A first move by yellow with no blue move before it.
        pos = read_record("(;GM[Blokus];2[t20,t19])").position()
        assert pos.color_at(sq("t19")) == 1
        assert pos.to_move == 2


# -- two-player ----------------------------------------------------------------

class TestTwoPlayer:
    def main_line_moves(self):
        text = read_data("two_player.blksgf")
        return move_values(text[: text.rindex("(\n ;")])  # drop the last (side) variation

    def test_variant_and_final_scores(self):
        rec = load_record(str(DATA / "two_player.blksgf"))
        assert rec.variant.game == "Blokus Two-Player"
        assert rec.two_player
        moves = self.main_line_moves()
        assert rec.move_count == len(moves) == 59
        pos = rec.position()
        assert pos.game_over and pos.to_move is None
        placed = [sum(len(squares(v)) for c, v in moves if c == k) for k in range(4)]
        counts = [sum(1 for c, _ in moves if c == k) for k in range(4)]
        assert max(counts) < 21  # nobody placed every piece: score = -squares left
        expected = [-(89 - n) for n in placed]
        assert pos.scores() == expected == [-28, -34, -33, -23]
        assert pos.scores(basic=True) == [89 - n for n in placed]
        seat1, seat2 = pos.seat_scores()
        assert (seat1, seat2) == (expected[0] + expected[2], expected[1] + expected[3]) == (-61, -57)
        assert seat1 + seat2 == sum(pos.scores())
        for k in range(4):
            assert len(pos.pieces_left(k)) == 21 - counts[k]

    def test_to_move_follows_passes(self):
        # Near the end yellow and red cannot move: after blue's 57th move the
        # next node is green's, and after it green moves again.
        rec = read_record(read_data("two_player.blksgf"))
        moves = self.main_line_moves()
        assert [c for c, _ in moves[56:]] == [0, 3, 3]
        for n in range(len(moves)):
            assert rec.position(n).to_move == moves[n][0], n
        pos = rec.position(57)
        assert pos.to_move == 3
        assert pos.legal_placements(1) == [] and pos.legal_placements(2) == []


# -- set-up ----------------------------------------------------------------------

SETUP_ROOT = {
    0: ["b18,a19,b19,a20", "e19,f19,c20,d20,e20"],  # Z4, N
    1: ["t17,t18,t19,t20", "r15,s15,s16"],  # I4, V3
    2: ["t1,q2,r2,s2,t2", "o2,n3,o3,p3"],  # L5, T4
    3: ["a1,a2,b2,c2,a3", "d3,e3,d4"],  # T5, V3
}


class TestSetup:
    def test_root_setup_with_player(self):
        rec = read_record(read_data("setup.blksgf"))
        assert rec.move_count == 7
        pos = rec.position(0)
        assert pos.history == []
        for color, values in SETUP_ROOT.items():
            for value in values:
                for name in squares(value):
                    assert pos.color_at(sq(name)) == color
        assert sum(bin(m).count("1") for m in pos.occupied) == 4 + 5 + 4 + 3 + 5 + 4 + 5 + 3
        assert hand_names(pos, 0) == {p.name for p in PIECES} - {"Z4", "N"}
        assert hand_names(pos, 1) == {p.name for p in PIECES} - {"I4", "V3"}
        assert hand_names(pos, 2) == {p.name for p in PIECES} - {"L5", "T4"}
        assert hand_names(pos, 3) == {p.name for p in PIECES} - {"T5", "V3"}
        assert pos.to_move == 1  # PL[2]: yellow, not blue
        # The set-up pieces count as placed: blue's next piece must touch
        # them at a corner, not cover a20 again.
        assert all(pos.table.mask[p] & (1 << sq("a20")) == 0 for p in pos.legal_placements(0))

    def test_later_setup_with_ae(self):
        rec = read_record(read_data("setup.blksgf"))
        pos = rec.position()
        # AE in the later node took red's T4 off the board and back to hand.
        for name in ("o2", "n3", "o3", "p3"):
            assert pos.color_at(sq(name)) is None
        assert "T4" in hand_names(pos, 2)
        assert hand_names(pos, 2) == {p.name for p in PIECES} - {"L5", "V5"}
        # A4 in the same node added a green X.
        for name in ("j9", "i10", "j10", "k10", "j11"):
            assert pos.color_at(sq(name)) == 3
        assert hand_names(pos, 3) == {p.name for p in PIECES} - {"T5", "V3", "L5", "X", "Y"}
        assert len(pos.pieces_left(0)) == 17 and len(pos.pieces_left(1)) == 17
        # The three moves after the set-up node are on the board.
        for color, value in [(3, "g2,g3,f4,g4,g5"), (0, "i18,i19,g20,h20,i20"), (1, "q16,q17,r17,r18")]:
            assert all(pos.color_at(sq(s)) == color for s in squares(value))
        assert pos.to_move == 2

    def test_later_setup_player_sets_color_to_move(self):
        text = read_data("setup.blksgf")
        cut = text.index(";4[g2,g3")
        pos = read_record(text[:cut] + ")").position()
        # Without PL[4] red would be next (blue made the last move).
        assert pos.to_move == 3

    def test_ae_returns_played_piece_to_hand(self):
        pos = read_record("(;GM[Blokus];1[a20];2[t20];AE[a20])").position()
        assert pos.color_at(sq("a20")) is None
        assert pos.color_at(sq("t20")) == 1
        assert len(pos.pieces_left(0)) == 21
        assert "1" not in hand_names(pos, 1)
        # Blue has no piece on the board again: its first piece must cover a20.
        assert pos.legal_placements(0)
        assert all(pos.table.mask[p] >> sq("a20") & 1 for p in pos.legal_placements(0))
        # ... and the monomino may be played again.
        pos = read_record("(;GM[Blokus];1[a20];2[t20];AE[a20];1[a20])").position()
        assert pos.color_at(sq("a20")) == 0
        assert "1" not in hand_names(pos, 0)

    def test_setup_in_root_counts_as_position_zero(self):
        rec = read_record("(;GM[Blokus]A3[t1,t2]PL[3];3[s3,s4,s5])")
        pos0 = rec.position(0)
        assert pos0.color_at(sq("t1")) == 2 and pos0.to_move == 2
        pos = rec.position()
        assert pos.color_at(sq("s5")) == 2
        assert hand_names(pos, 2) == {p.name for p in PIECES} - {"2", "I3"}
        assert pos.to_move == 3

    def test_multiple_setup_values_one_piece_each(self):
        pos = read_record("(;GM[Blokus]A1[a20][b19,c19][d18,e18,f18]PL[1])").position()
        assert hand_names(pos, 0) == {p.name for p in PIECES} - {"1", "2", "I3"}
        assert {pos.color_at(sq(s)) for s in ("a20", "b19", "c19", "d18", "e18", "f18")} == {0}
        assert pos.color_at(sq("d19")) is None
        assert pos.to_move == 0


# -- round trip ----------------------------------------------------------------------

class TestRoundTrip:
    @pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
    def test_random_complete_games(self, seed):
        pos = random_game(seed)
        assert pos.game_over
        text = write_record(pos)
        back = read_record(text).position()
        assert back.state_key() == pos.state_key()
        assert back.history == pos.history
        assert back.scores() == pos.scores()
        assert back.game_over

    @pytest.mark.parametrize("seed", [6, 7])
    def test_two_player_flag_round_trips(self, seed):
        pos = random_game(seed)
        text = write_record(pos, two_player=True)
        rec = read_record(text)
        assert rec.variant.game == "Blokus Two-Player" and rec.two_player
        assert rec.position().state_key() == pos.state_key()
        assert not read_record(write_record(pos)).two_player

    @pytest.mark.parametrize("seed", [1, 8])
    def test_written_text_follows_pentobi_conventions(self, seed):
        pos = random_game(seed)
        text = write_record(pos)
        lines = text.splitlines()
        assert lines[0] == "("
        assert lines[-1] == ")"
        assert lines[1].startswith(";GM[Blokus]")
        assert parse_sgf(text)[0].props[0].ident == "GM"
        node_lines = lines[2:-1]
        assert len(node_lines) == len(pos.history)
        for line, (color, p) in zip(node_lines, pos.history):
            m = re.fullmatch(r";([1-4])\[([a-t0-9,]+)\]", line)
            assert m, line
            assert int(m.group(1)) == color + 1
            names = squares(m.group(2))
            assert names == sorted(names, key=pentobi_key)
            assert {sq(n) for n in names} == set(pos.table.squares[p])

    def test_square_order_of_a_known_move(self):
        pos = Position()
        pos.push(pos.parse_move("a20,a19,a18,b18,a17"))  # given top to bottom
        text = write_record(pos)
        assert text.splitlines()[2] == ";1[a17,a18,b18,a19,a20]"

    def test_comments_round_trip(self):
        pos = random_game(3, limit=6)
        text = write_record(pos, comments={0: "root [x] \\ y", 4: "a ] b"})
        assert "C[root [x\\] \\\\ y]" in text
        rec = read_record(text)
        assert rec.nodes[0].get("C").values == ["root [x] \\ y"]
        assert rec.nodes[4].get("C").values == ["a ] b"]
        assert rec.nodes[3].get("C") is None
        assert rec.position().state_key() == pos.state_key()

    def test_file_on_disk(self, tmp_path):
        pos = random_game(9)
        path = tmp_path / "game.blksgf"
        path.write_text(write_record(pos), encoding="utf-8")
        rec = load_record(str(path))
        assert rec.position().history == pos.history

    @pytest.mark.parametrize(
        "text, player",
        [
            ("(;GM[Blokus];PL[4])", "PL[4]"),
            # A played piece taken back leaves an empty board, yellow to move.
            ("(;GM[Blokus];PL[3];1[b17,b18,b19,a20,b20];AE[b17,b18,b19,a20,b20])", "PL[2]"),
        ],
    )
    def test_color_to_move_round_trips_without_pieces(self, text, player):
        # Found by fuzzing: PL was written only with set-up pieces on the board.
        pos = read_record(text).position()
        written = write_record(pos)
        assert written.splitlines()[1].endswith(player)
        back = read_record(written).position()
        assert back.state_key() == pos.state_key() and back.to_move == pos.to_move

    def test_data_records_round_trip(self):
        for name in ("variations.blksgf", "two_player.blksgf"):
            rec = read_record(read_data(name))
            pos = rec.position()
            again = read_record(write_record(pos, two_player=rec.two_player))
            assert again.variant == rec.variant
            assert again.position().state_key() == pos.state_key()
            assert again.position().history == pos.history

    def test_setup_record_round_trips(self):
        rec = read_record(read_data("setup.blksgf"))
        pos0 = rec.position(0)
        text = write_record(pos0)
        root = text.splitlines()[1]
        assert root.startswith(";GM[Blokus]")
        for prop in ("A1[", "A2[", "A3[", "A4[", "PL[2]"):
            assert prop in root
        back = read_record(text).position()
        assert back.state_key() == pos0.state_key()
        assert back.to_move == 1
        # The whole record, later set-up node included.
        pos = rec.position()
        back = read_record(write_record(pos)).position()
        assert back.state_key() == pos.state_key()
        assert back.history == pos.history


# -- errors ------------------------------------------------------------------------

def record_error(text: str, source: str = "game.blksgf", moves: int | None = None) -> str:
    with pytest.raises(RecordError) as info:
        read_record(text, source).position(moves)
    assert isinstance(info.value, ValueError)
    return str(info.value)


OPENING = "(\n;GM[Blokus]\n;1[a20]\n;2[t20]\n;3[t1]\n;4[a1]\n"  # moves 1-4 on lines 3-6


class TestErrors:
    def test_unclosed_bracket(self):
        msg = record_error("(;GM[Blokus]\n;1[a20]\n;2[t20")
        assert msg.startswith("game.blksgf:3:3:")
        assert "end of file inside a property value" in msg

    def test_missing_close_paren(self):
        msg = record_error("(;GM[Blokus]\n;1[a20]\n;2[t20]\n")
        assert msg.startswith("game.blksgf:4:1:")
        assert "not closed" in msg and "')'" in msg

    def test_missing_close_paren_of_outer_tree(self):
        msg = record_error("(;GM[Blokus]\n(;1[a20]\n;2[t20])\n")
        assert msg.startswith("game.blksgf:4:1:")
        assert "expected ')'" in msg and "end of file" in msg

    def test_stray_character_names_line_and_column(self):
        msg = record_error("(;GM[Blokus]\n;1[a20]\n  %;2[t20])")
        assert msg.startswith("game.blksgf:3:3:")
        assert "'%'" in msg

    def test_property_without_value(self):
        msg = record_error("(;GM[Blokus]\n;1[a20] TE\n)")
        assert msg.startswith("game.blksgf:2:9:")
        assert "TE has no value" in msg

    def test_not_sgf(self):
        assert "game.blksgf:1:1:" in record_error("GM[Blokus]")
        assert "no game tree" in record_error("   \n")

    def test_missing_gm(self):
        msg = record_error("(;FF[4]CA[UTF-8]\n;1[a20])")
        assert msg.startswith("game.blksgf:1:2:")
        assert "no GM property" in msg

    @pytest.mark.parametrize("game", ["Blokus Callisto", "Blokus Nexos", "1"])
    def test_unsupported_gm(self, game):
        msg = record_error(f"(;FF[4]GM[{game}]\n;1[a20])")
        assert msg.startswith("game.blksgf:1:8:")
        assert f"unsupported game GM[{game}]" in msg
        assert "Blokus Two-Player" in msg

    def test_go_properties_rejected(self):
        msg = record_error("(;GM[Blokus]\n;B[aa])")
        assert msg.startswith("game.blksgf:2:2:")
        assert "property B" in msg

    @pytest.mark.parametrize(
        "move, reason",
        [
            ("a20,b20", "it overlaps a piece on a20"),
            ("b20,c20", "b20 shares an edge with a blue piece"),
            ("c18,d18", "it does not touch a blue piece at a corner"),
            ("b19", "blue has already used piece 1"),
        ],
    )
    def test_illegal_move_reasons(self, move, reason):
        msg = record_error(OPENING + f"  ;1[{move}]TE[1]\n)")
        assert msg.startswith("game.blksgf: move 5 (line 7):")
        assert f"'{move}'" in msg
        assert "blue" in msg
        assert msg.endswith(reason)

    def test_first_piece_not_on_start_corner(self):
        msg = record_error("(\n;GM[Blokus]\n;1[a20]\n;2[s19,s20]\n)")
        assert msg.startswith("game.blksgf: move 2 (line 4):")
        assert "'s19,s20'" in msg and "yellow" in msg
        assert msg.endswith("yellow's first piece must cover its start square t20")

    def test_illegal_move_quoted_as_written(self):
        msg = record_error("(\n;GM[Blokus]\n;1[a20]\n;2[s20,s19]\n)")
        assert "'s20,s19'" in msg

    def test_illegal_move_on_a_later_line(self):
        # The fifth move is fine; the sixth, on line 9 after a comment
        # spanning two lines, is not.
        text = OPENING + ";1[b19,c19]C[two\nlines]\n;2[t20,s20]\n)"
        msg = record_error(text)
        assert msg.startswith("game.blksgf: move 6 (line 9):")
        assert "overlaps a piece on t20" in msg

    def test_illegal_move_in_position_n_only_when_reached(self):
        text = OPENING + ";1[c18,d18]\n)"
        assert read_record(text).position(4).color_at(sq("a1")) == 3
        assert "move 5" in record_error(text, moves=5)

    @pytest.mark.parametrize(
        "value, part",
        [
            ("b19,z5", "square 'z5' is off the 20x20 board"),
            ("b19,b21", "square 'b21' is off the 20x20 board"),
            ("b19,19", "not a square: '19'"),
            ("b19,b19", "a square appears twice"),
            ("b19,d17", "the squares are not a piece shape"),
            ("b19,c19,d19,e19,f19,g19", "the squares are not a piece shape"),
            ("", "not a move"),
        ],
    )
    def test_malformed_moves(self, value, part):
        msg = record_error(OPENING + f";1[{value}]\n)")
        assert msg.startswith("game.blksgf: move 5 (line 7):")
        assert part in msg

    def test_several_values_are_the_squares_of_one_move(self):
        # Pentobi before 0.3 wrote one value per square; Pentobi reads
        # such moves still, and so does this reader.
        msg = record_error(OPENING + ";1[b19][c18]\n)")
        assert msg == "game.blksgf: move 5 (line 7): bad move 'b19,c18': the squares are not a piece shape"
        pos = read_record(OPENING + ";1[b19][c19]\n)").position()
        assert {pos.color_at(sq("b19")), pos.color_at(sq("c19"))} == {0}

    def test_two_moves_in_one_node(self):
        msg = record_error("(;GM[Blokus]\n;1[a20]2[t20])")
        assert msg == "game.blksgf:2:8: a node holds two moves (1 and 2)"

    @pytest.mark.parametrize(
        "text, part",
        [
            ("(;GM[Blokus]\n;1[a20];AE[b20])", "AE[b20] removes a piece that is not on the board"),
            ("(;GM[Blokus]\n;A1[a20][a20,b20])", "overlaps another piece"),
            ("(;GM[Blokus]\n;A1[a20][c18])", "blue piece 1 is already on the board"),
            ("(;GM[Blokus]\n;PL[5])", "PL[5] is not a colour"),
            ("(;GM[Blokus]\n;A2[a20,c20])", "not a piece shape"),
        ],
    )
    def test_bad_setup(self, text, part):
        msg = record_error(text)
        assert "game.blksgf:2:" in msg and "bad set-up" in msg
        assert part in msg

    @pytest.mark.parametrize("n", [5, 100, -1])
    def test_position_out_of_range(self, n):
        rec = read_record(OPENING + ")", "game.blksgf")
        with pytest.raises(RecordError, match=rf"move {n} is out of range: the record has 4 moves"):
            rec.position(n)

    def test_load_missing_and_non_utf8(self, tmp_path):
        with pytest.raises(RecordError, match="cannot read"):
            load_record(str(tmp_path / "nope.blksgf"))
        bad = tmp_path / "bad.blksgf"
        bad.write_bytes(b"(;GM[Blokus]C[\xff\xfe])")
        with pytest.raises(RecordError, match="not UTF-8"):
            load_record(str(bad))


# -- no input crashes the reader -------------------------------------------------

class TestReproducers:
    """The inputs that crashed the reader before: each gives a RecordError
    now, or reads as Pentobi reads it."""

    def test_thousand_nested_variations_read(self):
        text = "(;GM[Blokus]" + "(;" * 1000 + ")" * 1001
        rec = read_record(text, "game.blksgf")
        assert len(rec.nodes) == 1001 and rec.move_count == 0
        assert rec.position().history == []

    def test_thousand_nested_variations_unclosed(self):
        msg = record_error("(;GM[Blokus]\n" + "(;" * 1000 + ")" * 1000)
        assert msg == "game.blksgf:2:3001: expected ')', found end of file"

    def test_deep_nesting_costs_no_recursion(self):
        # A move at the bottom of 50000 nested variations, and as deep a
        # side variation that is parsed and dropped.
        deep = "(;GM[Blokus]" + "(;" * 50_000 + "1[a20]" + ")" * 50_001
        rec = read_record(deep)
        assert len(rec.nodes) == 50_001 and rec.move_count == 1
        side = "(;GM[Blokus](;1[a20])" + "(;" * 50_000 + "1[a20,b20]" + ")" * 50_001
        rec = read_record(side)
        assert len(rec.nodes) == 2 and rec.position().color_at(sq("b20")) is None
        msg = record_error("(;GM[Blokus](;1[a20])" + "(;" * 50_000 + "1[a20]" + ")" * 50_000)
        assert msg.endswith("expected ')', found end of file")

    def test_ae_names_part_of_a_setup_piece(self):
        msg = record_error("(;GM[Blokus]A1[a20][b19,c19];AE[b19])")
        assert msg == (
            "game.blksgf:1:29: bad set-up: AE[b19]: cannot remove 'b19': "
            "it is not a whole blue piece on the board; blue's piece there is 'b19,c19'"
        )

    def test_ae_names_part_of_a_played_piece(self):
        # Set-up after moves turns the moves into set-up pieces (rebase), so
        # the same check applies to played pieces.
        msg = record_error("(;GM[Blokus]\n;1[a20]\n;2[t20]\n;1[b19,c19]\n;AE[b19])")
        assert msg == (
            "game.blksgf:5:1: bad set-up: AE[b19]: cannot remove 'b19': "
            "it is not a whole blue piece on the board; blue's piece there is 'b19,c19'"
        )
        msg = record_error("(;GM[Blokus]\n;1[a20]\n;2[t20]\n;AE[a20,b20])")
        assert msg.endswith("AE[a20,b20]: cannot remove 'a20,b20': it is not a whole blue piece on the board; "
                            "blue's piece there is 'a20'")

    def test_ae_of_a_whole_played_piece_then_play_it_again(self):
        rec = read_record("(;GM[Blokus]\n;1[a20]\n;2[t20]\n;1[b19,c19]\n;AE[b19,c19]PL[1]\n;1[b19,c19])")
        pos = rec.position()
        assert pos.color_at(sq("b19")) == 0 and pos.color_at(sq("c19")) == 0
        assert hand_names(pos, 0) == {p.name for p in PIECES} - {"1", "2"}
        assert rec.position().to_move == 1
        # After three moves the set-up node (before move 4) has taken the
        # domino back: blue to move (PL), domino in hand.
        pos = rec.position(3)
        assert pos.color_at(sq("b19")) is None and pos.to_move == 0
        assert "2" in hand_names(pos, 0)

    def test_position_remove_checks_the_whole_piece(self):
        pos = Position()
        t = pos.table
        pos.setup({0: [t.parse("a20"), t.parse("b19,c19")]})
        with pytest.raises(IllegalMoveError) as info:
            pos.remove(0, t.parse("c19"))
        assert str(info.value) == (
            "cannot remove 'c19': it is not a whole blue piece on the board; blue's piece there is 'b19,c19'"
        )
        with pytest.raises(IllegalMoveError, match="no blue piece is there"):
            pos.remove(0, t.parse("t1"))
        pos.remove(0, t.parse("b19,c19"))
        assert pos.color_at(sq("c19")) is None and pos.color_at(sq("a20")) == 0


class TestBadInput:
    """Odd and broken records: a RecordError saying where and what, or the
    record reads the way Pentobi reads it."""

    @pytest.mark.parametrize(
        "text, message",
        [
            ("", "game.blksgf:1:1: no game tree (the file should start with '(;')"),
            ("\ufeff", "game.blksgf:1:1: no game tree (the file should start with '(;')"),
            ("\ufeff \r\n\t", "game.blksgf:2:2: no game tree (the file should start with '(;')"),
            ("\x00", "game.blksgf:1:1: expected '(', found '\\x00'"),
            ("(", "game.blksgf:1:2: unexpected end of file"),
            ("()", "game.blksgf:1:2: expected ';' to start a node, found ')'"),
            ("(;GM[Blokus]())", "game.blksgf:1:14: expected ';' to start a node, found ')'"),
            ("(;GM[Blokus](;1[a20]);2[t20])", "game.blksgf:1:22: expected ')', found ';'"),
            ("(;GM[Blokus];1[a20]) junk", "game.blksgf:1:22: expected '(', found 'j'"),
            ("(;GM[Blokus])\n(;GM[Blokus];1[a20]",
             "game.blksgf:2:20: unexpected end of file: a game tree is not closed with ')'"),
            ("(;GM[Blokus]C[abc\\", "game.blksgf:1:14: unexpected end of file inside a property value"),
            ("(;GM[Blokus]C[a][b", "game.blksgf:1:17: unexpected end of file inside a property value"),
            ("(;GM[Blokus]\n;É[x])", "game.blksgf:2:2: unexpected 'É' between nodes"),
            ("(;GM;1[a20])", "game.blksgf:1:3: property GM has no value"),
            ("(;GM[]\n;1[a20])", "game.blksgf:1:3: unsupported game GM[] (supported: Blokus, Blokus Two-Player, Blokus Three-Player, Blokus Duo, Blokus Junior, Blokus Trigon, Blokus Trigon Two-Player, Blokus Trigon Three-Player)"),
            ("(;GM[Blokus]GM[Blokus])", "game.blksgf:1:13: property GM appears twice in one node"),
            ("(;gm[Blokus];1[a20])", "game.blksgf:1:2: the root node has no GM property"),
            ("(;FF[4];GM[Blokus])", "game.blksgf:1:2: the root node has no GM property"),
            ("(;GM[" + "x" * 100 + "])", "game.blksgf:1:3: unsupported game GM[" + "x" * 40
             + "...] (supported: Blokus, Blokus Two-Player, Blokus Three-Player, Blokus Duo, Blokus Junior, Blokus Trigon, Blokus Trigon Two-Player, Blokus Trigon Three-Player)"),
            ("(;GM[Blokus]AB[a20])", "game.blksgf:1:13: property AB is not used in GM[Blokus] (colours are 1..4)"),
            # a move or set-up of a colour the game does not have: skipping it would replay the rest without it
            ("(;GM[Blokus Duo];B[e10];W[j5]\n;3[n14,m14,l14,k14,j14])",
             "game.blksgf:2:2: property 3 is not used in GM[Blokus Duo] (colours are B and W, or 1 and 2)"),
            ("(;GM[Blokus]\n;5[a1])", "game.blksgf:2:2: property 5 is not used in GM[Blokus] (colours are 1..4)"),
            ("(;GM[Blokus Duo]\n;YELLOW[e10])",
             "game.blksgf:2:2: property YELLOW is not used in GM[Blokus Duo] (colours are B and W, or 1 and 2)"),
            ("(;GM[Blokus Trigon Three-Player]\n;4[a1])",
             "game.blksgf:2:2: property 4 is not used in GM[Blokus Trigon Three-Player] (colours are 1..3)"),
            # SZ, where present, must be the game's board
            ("(;GM[Blokus]SZ[14])", "game.blksgf:1:13: SZ[14] disagrees with GM[Blokus], whose board is 20 x 20"),
            ("(;GM[Blokus]SZ[-1])", "game.blksgf:1:13: SZ[-1] is not a board size (expected SZ[20])"),
            ("(;GM[Blokus]SZ[abc])", "game.blksgf:1:13: SZ[abc] is not a board size (expected SZ[20])"),
            ("(;GM[Blokus Duo]SZ[20])",
             "game.blksgf:1:17: SZ[20] disagrees with GM[Blokus Duo], whose board is 14 x 14"),
            ("(;GM[Blokus Trigon]SZ[9])", "game.blksgf:1:20: SZ[9] does not apply to GM[Blokus Trigon] "
             "(its board is the hexagon the game fixes)"),
            # a puzzle file given where a record belongs
            ("# a puzzle\nname = \"x\"\n[board]\n", "game.blksgf:1:1: expected '(', found '#': this is not a game "
             "record; it looks like a puzzle file (TOML), which 'blokus solve' reads"),
            ("(;GM[Blokus];1[a20]BLUE[a20])", "game.blksgf:1:20: a node holds two moves (1 and BLUE)"),
            ("(;GM[Blokus]\n;PL[9])", "game.blksgf:2:1: bad set-up: PL[9] is not a colour (1..4)"),
            ("(;GM[Blokus]\n;PL[])", "game.blksgf:2:1: bad set-up: PL[] is not a colour (1..4)"),
            ("(;GM[Blokus]\n;AE[])",
             "game.blksgf:2:1: bad set-up: AE[]: not a move: '' (expected squares like a20,b20,b19)"),
            ("(;GM[Blokus]A1" + "[a20]" * 22 + ")", "game.blksgf:1:2: bad set-up: A1 lists 22 pieces; a colour has 21"),
            (OPENING + ";1[]\n)", "game.blksgf: move 5 (line 7): not a move: '' (expected squares like a20,b20,b19)"),
            (OPENING + ";1[" + "a1," * 70 + "a1]\n)",
             "game.blksgf: move 5 (line 7): not a move: '" + "a1," * 13 + "a...' lists more than 64 squares"),
            ("(;GM[Blokus]\r;1[a20]\r;2[s20])", "game.blksgf: move 2 (line 3): illegal move 's20' for yellow: "
             "yellow's first piece must cover its start square t20"),
        ],
    )
    def test_exact_messages(self, text, message):
        assert record_error(text) == message

    @pytest.mark.parametrize("value", ["a0", "zz999", "a1000", "21", "a-1", "\u0661\u0662"])
    def test_bad_squares(self, value):
        msg = record_error(OPENING + f";1[{value}]\n)")
        assert msg.startswith("game.blksgf: move 5 (line 7): bad move ") and repr(value) in msg

    @pytest.mark.parametrize("text", ["(;GM[Blokus]SZ[20];1[a20])", "(;GM[Blokus Duo]SZ[14:14];B[e10])",
                                      "(;GM[Blokus Three-Player]A4[a1])", "(;GM[Blokus Duo]AB[e10]AW[j5])"])
    def test_sizes_and_colours_of_the_game_are_read(self, text):
        read_record(text).position()

    def test_huge_move_number(self):
        rec = read_record(OPENING + ")", "game.blksgf")
        for n in (10**30, -(10**30)):
            with pytest.raises(RecordError, match=rf"move {n} is out of range: the record has 4 moves"):
                rec.position(n)

    @pytest.mark.parametrize(
        "gm, variant",
        [("blokus", "Blokus"), (" BLOKUS two-player\n", "Blokus Two-Player"), ("Blokus][Blokus Duo", "Blokus")],
    )
    def test_gm_read_as_pentobi_reads_it(self, gm, variant):
        # Pentobi trims GM and ignores case; of several values it takes the first.
        rec = read_record(f"(;GM[{gm}];1[a20])")
        assert rec.variant.game == variant
        assert rec.position().color_at(sq("a20")) == 0

    @pytest.mark.parametrize("value, color", [("B", 0), ("W", 1), (" 3 ", 2)])
    def test_player_read_as_pentobi_reads_it(self, value, color):
        assert read_record(f"(;GM[Blokus]PL[{value}])").position().to_move == color

    def test_odd_whitespace_accepted(self):
        texts = [
            "(;GM[Blokus];1[a20];2[t20])",
            "\ufeff\r\n( ;\tGM\r\n[Blokus]\x0c;\x0b1 [ a20 ]\r;2\n[\tT20\n])\r\n",
            "(\u00a0;GM[Blokus]\u2003;1[A20];2[t20])",
        ]
        keys = {read_record(t).position().state_key() for t in texts}
        assert len(keys) == 1

    def test_unknown_and_lowercase_properties_ignored(self):
        # As in Pentobi: identifiers are case-sensitive, unknown ones are kept
        # and ignored; 'b' is not a move.
        rec = read_record("(;GM[Blokus]XY[1]a1[z];1[a20]b[t20]A5[q1])")
        assert rec.move_count == 1
        assert rec.nodes[1].get("b").values == ["t20"]

    def test_too_many_nodes(self, monkeypatch):
        monkeypatch.setattr(sgf, "MAX_NODES", 50)
        read_record("(;GM[Blokus]" + ";" * 49 + ")")
        msg = record_error("(;GM[Blokus]\n" + ";" * 60 + ")")
        assert msg == "game.blksgf:2:50: more than 50 nodes: too large for a game record"
        # Side variations are not kept, so they do not count.
        read_record("(;GM[Blokus](;)" + "(;;;)" * 100 + ")")
        with pytest.raises(RecordError, match="more than 50 nodes"):
            parse_sgf("(;GM[Blokus](;)" + "(;;;)" * 100 + ")")

    def test_too_large(self, monkeypatch, tmp_path):
        monkeypatch.setattr(sgf, "MAX_RECORD_SIZE", 2**20)
        text = "(;GM[Blokus]C[" + "x" * 2**20 + "])"
        assert record_error(text) == "game.blksgf: larger than 1 MB: too large for a game record"
        path = tmp_path / "big.blksgf"
        path.write_text(text)
        with pytest.raises(RecordError, match=r"big.blksgf: larger than 1 MB: too large for a game record"):
            load_record(str(path))

    def test_load_errors(self, tmp_path):
        with pytest.raises(RecordError, match="cannot read"):
            load_record(str(tmp_path))  # a directory
        bad = tmp_path / "latin1.blksgf"
        bad.write_bytes("(;GM[Blokus]C[Über])".encode("latin-1"))
        with pytest.raises(RecordError, match=r"latin1.blksgf: not UTF-8 text \(byte 14\)"):
            load_record(str(bad))
        bom = tmp_path / "bom.blksgf"
        bom.write_bytes(b"\xef\xbb\xbf(;GM[Blokus];1[a20])")
        assert load_record(str(bom)).move_count == 1


class TestPentobiStyleFiles:
    """Files laid out as Pentobi writes them (written for these tests)."""

    BOOK_MAIN = [
        (0, "a20,b20,c20,d20"), (1, "s18,s19,t19,s20,t20"), (2, "q1,r1,s1,t1,r2"), (3, "a1,b1,c1,c2,d2"),
        (0, "e19,f19,g19,g20,h20"), (1, "q15,p16,q16,r16,r17"), (2, "p3,q3,q4,r4,q5"),
    ]

    def test_book_main_line_and_every_variation(self):
        text = read_data("book.blksgf")
        rec = read_record(text, "book.blksgf")
        pos = rec.position()
        assert [(c, pos.table.name(p)) for c, p in pos.history] == self.BOOK_MAIN
        # Every path from the root to a leaf is a legal game.
        root = parse_sgf(text)[0]
        nodes = leaves = 0
        stack = [(root, "")]
        while stack:
            node, body = stack.pop()
            nodes += 1
            body += ";" + "".join(p.ident + "".join(f"[{v}]" for v in p.values) for p in node.props)
            if not node.children:
                leaves += 1
                read_record("(" + body + ")").position()
            stack.extend((child, body) for child in node.children)
        assert (nodes, leaves) == (171, 61)
        assert text.count(";") == nodes

    def test_old_format_moves(self):
        rec = load_record(str(DATA / "old_format.blksgf"))
        assert rec.two_player and rec.move_count == 12
        pos = rec.position()
        assert pos.table.name(pos.history[1].placement) == "q19,r19,s19,t19,t20"
        assert pos.table.name(pos.history[-1].placement) == "d2,e2,f2,d3,e3"
        again = read_record(write_record(pos, two_player=True)).position()
        assert again.history == pos.history

    def test_crlf_bom_tabs_and_later_setup(self):
        rec = load_record(str(DATA / "crlf_bom.blksgf"))
        assert rec.move_count == 7
        comment = rec.nodes[0].get("C").values[0]
        assert comment == ("CRLF line ends, a byte order mark, tabs, spaces inside values, "
                           "a soft line break and escaped ] brackets \\.")
        assert rec.nodes[5].line == 10  # lines count from the first, BOM or not
        pos = rec.position(3)
        assert pos.color_at(sq("t1")) == 2 and pos.to_move == 3
        pos = rec.position(4)  # up to move 5, so with the set-up node before it
        assert pos.color_at(sq("t1")) is None and pos.to_move == 2
        pos = rec.position()
        assert [c for c, _ in pos.history] == [2, 0, 1]  # moves after the set-up node
        assert pos.color_at(sq("t1")) == 2 and pos.to_move == 2
