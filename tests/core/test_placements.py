import pytest

from solver.core.geometry import CLASSIC_BOARD, Board
from solver.core.pieces import CLASSIC_SET as PIECES
from solver.core.placements import placement_table
from solver.errors import NotationError


def test_placement_counts_pentobi_values():
    assert len(placement_table(CLASSIC_BOARD)) == 30433
    assert len(placement_table(Board.rectangle(14, 14))) == 13729


def _brute_force_count(width, height, blocked):
    n = 0
    for p in PIECES:
        for o in p.orientations:
            for r0 in range(height):
                for c0 in range(width):
                    cells = [(r0 + r, c0 + c) for r, c in o]
                    if all(0 <= r < height and 0 <= c < width and (r, c) not in blocked for r, c in cells):
                        n += 1
    return n


@pytest.mark.parametrize("width,height,blocked", [(8, 10, set()), (7, 5, {(2, 3), (0, 0), (4, 6)}), (12, 9, {(r, 4) for r in range(9)})])
def test_placement_counts_on_rectangles_and_masks(width, height, blocked):
    board = Board.rectangle(width, height, blocked=[r * width + c for r, c in blocked])
    assert len(placement_table(board)) == _brute_force_count(width, height, blocked)


def test_placement_masks_match_definitions():
    b = CLASSIC_BOARD
    t = placement_table(b)
    for p in range(0, len(t), 97):
        cells = {b.row_col(s) for s in t.squares[p]}
        edge, corner = set(), set()
        for r, c in cells:
            for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if n not in cells and b.on_board(*n):
                    edge.add(n)
        for r, c in cells:
            for n in ((r + 1, c + 1), (r - 1, c + 1), (r + 1, c - 1), (r - 1, c - 1)):
                if n not in cells and n not in edge and b.on_board(*n):
                    corner.add(n)
        assert {b.row_col(s) for s in range(b.size) if t.mask[p] >> s & 1} == cells
        assert {b.row_col(s) for s in range(b.size) if t.edge[p] >> s & 1} == edge
        assert {b.row_col(s) for s in range(b.size) if t.corner[p] >> s & 1} == corner
        assert t.key[p] == t.mask[p] | 1 << (b.size + t.piece[p])
        for s in t.squares[p]:
            assert p in t.covering[s]


def test_square_names():
    b = CLASSIC_BOARD
    assert b.square_name(0) == "a20"
    assert b.square_name(19) == "t20"
    assert b.square_name(19 * 20) == "a1"
    assert b.parse_square("T1") == 399
    for text, why in [("u1", "off the 20x20 board"), ("a21", "off the 20x20 board"), ("a0", "off the 20x20 board"), ("1a", "not a square")]:
        with pytest.raises(NotationError, match=why):
            b.parse_square(text)


def test_wide_board_column_names():
    b = Board.rectangle(30, 3)
    assert b.square_name(26) == "aa3"
    assert b.parse_square("ad1") == 2 * 30 + 29


def test_move_text_round_trip_in_pentobi_order():
    t = placement_table(CLASSIC_BOARD)
    p = t.parse("a20,b20,b19")
    assert t.name(p) == "b19,a20,b20"
    assert t.parse(t.name(p)) == p
    assert PIECES[t.piece[p]].name == "V3"


@pytest.mark.parametrize(
    "text,message",
    [
        ("a20,b20,z19", "bad move 'a20,b20,z19': square 'z19' is off the 20x20 board"),
        ("a20,c20", "bad move 'a20,c20': the squares are not a piece shape"),
        ("a20,b19", "bad move 'a20,b19': the squares are not a piece shape"),
        ("a1,b1,c1,d1,e1,f1", "bad move 'a1,b1,c1,d1,e1,f1': the squares are not a piece shape"),
        ("a20,a20", "bad move 'a20,a20': a square appears twice"),
        ("", "not a move: ''"),
        ("a20,,b20", "not a move: 'a20,,b20'"),
    ],
)
def test_move_text_errors(text, message):
    with pytest.raises(NotationError) as e:
        placement_table(CLASSIC_BOARD).parse(text)
    assert str(e.value).startswith(message)


def test_move_on_blocked_square():
    b = Board.rectangle(5, 5, blocked=[0])
    with pytest.raises(NotationError, match="covers a blocked square"):
        placement_table(b).parse("a5,b5")
