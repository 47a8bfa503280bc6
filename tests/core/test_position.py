import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.geometry import CLASSIC_BOARD, Board
from solver.core.pieces import CLASSIC_SET as PIECES
from solver.core.pieces import piece_by_name
from solver.core.position import Move, Position
from solver.errors import IllegalMoveError
from tests.util import fast_moves, observable_state, random_game, reference_moves

BLUE, YELLOW, RED, GREEN = range(4)


def play(pos, color, text):
    pos.push(pos.parse_move(text, color))


def test_58_first_moves_for_each_color():
    pos = Position()
    assert [len(pos.legal_placements(c)) for c in range(4)] == [58, 58, 58, 58]
    assert pos.to_move == BLUE


def test_first_piece_must_cover_the_start_corner():
    pos = Position()
    with pytest.raises(IllegalMoveError) as e:
        pos.parse_move("b19", BLUE)
    assert str(e.value) == "illegal move 'b19' for blue: blue's first piece must cover its start square a20"
    with pytest.raises(IllegalMoveError, match="yellow's first piece must cover its start square t20"):
        pos.parse_move("a20", YELLOW)
    play(pos, BLUE, "a20")
    assert pos.to_move == YELLOW


def test_edge_contact_with_own_color_is_illegal():
    pos = Position()
    play(pos, BLUE, "a20")
    with pytest.raises(IllegalMoveError) as e:
        pos.parse_move("b20,c20", BLUE)
    assert str(e.value) == "illegal move 'b20,c20' for blue: b20 shares an edge with a blue piece"


def test_corner_contact_is_required_and_enough():
    pos = Position()
    play(pos, BLUE, "a20")
    pos.parse_move("b19,c19", BLUE)  # touches a20 at a corner: legal
    with pytest.raises(IllegalMoveError) as e:
        pos.parse_move("d17,e17", BLUE)
    assert str(e.value) == "illegal move 'd17,e17' for blue: it does not touch a blue piece at a corner"


def test_a_chain_of_diagonal_steps_is_not_corner_contact():
    # docs/rules.md: contact is direct. A piece that reaches its colour only
    # through a closure of diagonal steps (a20 -> b19 -> c18) has no contact.
    pos = Position()
    play(pos, BLUE, "a20,b20")
    with pytest.raises(IllegalMoveError, match="does not touch a blue piece at a corner"):
        pos.parse_move("d18", BLUE)  # b20 -> c19 -> d18: a chain, no contact
    with pytest.raises(IllegalMoveError, match="does not touch a blue piece at a corner"):
        pos.parse_move("d18,e18,e17", BLUE)
    pos.parse_move("c19,d19,d18", BLUE)  # covers c19, at b20's corner: legal
    # the only square touching blue at a corner is c19: every legal move covers it
    c19 = CLASSIC_BOARD.parse_square("c19")
    legal = pos.legal_placements(BLUE)
    assert legal and all(pos.table.mask[p] >> c19 & 1 for p in legal)


def test_other_colors_may_touch_at_edges():
    board = Board.rectangle(6, 6, corners=True)
    pos = Position(board)
    play(pos, BLUE, "a6,b6,c6,d6,e6")
    play(pos, YELLOW, "f6,f5")  # shares an edge with blue's e6
    assert pos.occupied[YELLOW]


def test_overlap_and_used_piece():
    pos = Position()
    play(pos, BLUE, "a20,b20")
    with pytest.raises(IllegalMoveError) as e:
        pos.parse_move("b20,b19,b18", BLUE)
    assert str(e.value) == "illegal move 'b20,b19,b18' for blue: it overlaps a piece on b20"
    with pytest.raises(IllegalMoveError) as e:
        pos.parse_move("c19,c18", BLUE)
    assert str(e.value) == "illegal move 'c19,c18' for blue: blue has already used piece 2"


def test_pass_only_when_no_legal_move_and_game_end():
    # On small boards colours run out of moves at different times.
    for seed in range(30):
        rng = random.Random(seed)
        pos = Position(Board.rectangle(7, 7, corners=True))
        while not pos.game_over:
            mover = pos.to_move
            assert pos.legal_placements(mover), "the colour to move must have a move"
            pos.push(Move(mover, rng.choice(pos.legal_placements())))
            nxt = pos.to_move
            skipped = [(mover + i) % 4 for i in range(1, 5)]
            skipped = skipped[: skipped.index(nxt)] if nxt is not None else skipped
            for c in skipped:
                assert not pos.legal_placements(c), "a colour passed although it could move"
        assert all(not pos.legal_placements(c) for c in range(4))
        assert pos.legal_moves() == []


def test_game_over_position_rejects_moves():
    pos = random_game(3, Position(Board.rectangle(5, 5, corners=True)))
    assert pos.game_over and pos.to_move is None
    with pytest.raises(IllegalMoveError, match="the game is over"):
        pos.parse_move("c3", BLUE)


def _spread_out_setup(board, names):
    """Blue pieces placed in bands two squares apart (no contact at all)."""
    table = Position(board).table
    placements, row, col, band = [], 0, 0, 0
    for name in names:
        shape = piece_by_name(name).orientations[0]
        h = 1 + max(r for r, _ in shape)
        w = 1 + max(c for _, c in shape)
        if col + w > board.width:
            row, col, band = row + band + 1, 0, 0
        placements.append(table.find([board.square(row + r, col + c) for r, c in shape]))
        col += w + 1
        band = max(band, h)
    assert None not in placements
    return placements


def test_scores_20_15_and_squares_left():
    board = Board.rectangle(20, 20, corners=True)
    names = [p.name for p in PIECES if p.name != "1"]
    pos = Position(board)
    pos.setup({BLUE: _spread_out_setup(board, names)})
    assert pos.score(BLUE) == -1 and pos.score(BLUE, basic=True) == 1
    mono = [p for p in pos.legal_placements(BLUE) if pos.table.piece[p] == 0]
    assert mono
    pos.push(Move(BLUE, mono[0]))
    assert pos.score(BLUE) == 20 and pos.score(BLUE, basic=True) == 0
    # the same 21 pieces with another piece placed last: +15
    pos = Position(board)
    order = ["1"] + [n for n in names if n != "X"]
    pos.setup({BLUE: _spread_out_setup(board, order)})
    assert pos.score(BLUE) == -5
    x = [p for p in pos.legal_placements(BLUE) if pos.table.piece[p] == piece_by_name("X").index]
    pos.push(Move(BLUE, x[0]))
    assert pos.score(BLUE) == 15
    assert pos.scores()[1:] == [-89, -89, -89]
    assert pos.scores(basic=True)[1:] == [89, 89, 89]


def test_two_player_seat_sums():
    pos = random_game(11)
    s = pos.scores()
    assert pos.seat_scores() == (s[0] + s[2], s[1] + s[3])


def test_pop_restores_the_exact_state():
    for seed in range(6):
        rng = random.Random(seed)
        pos = Position()
        states = []
        while not pos.game_over:
            states.append(observable_state(pos))
            pos.push(Move(pos.to_move, rng.choice(pos.legal_placements())))
        while pos.history:
            pos.pop()
            assert observable_state(pos) == states[len(pos.history)]


@pytest.mark.parametrize("seed", range(6))
def test_fast_generator_agrees_with_reference_every_ply_classic(seed):
    rng = random.Random(seed)
    pos = Position()
    while True:
        for c in range(4):
            assert fast_moves(pos, c) == reference_moves(pos, c), (seed, len(pos.history), c)
        if pos.game_over:
            break
        pos.push(Move(pos.to_move, rng.choice(pos.legal_placements())))


BOARDS = [
    Board.rectangle(8, 10, corners=True),
    Board.rectangle(14, 14, corners=True),
    Board.rectangle(9, 7),  # no start squares: first pieces anywhere
    Board.rectangle(11, 11, corners=True, blocked=[5 * 11 + c for c in range(3, 8)] + [2 * 11 + 2, 8 * 11 + 8]),
]


@pytest.mark.parametrize("board", BOARDS, ids=["8x10", "14x14", "9x7-free", "11x11-masked"])
def test_fast_generator_agrees_with_reference_on_other_boards(board):
    for seed in range(5):
        rng = random.Random(seed)
        pos = Position(board)
        for _ in range(12 if not board.starts[0] else 200):
            for c in range(4):
                assert fast_moves(pos, c) == reference_moves(pos, c)
            if pos.game_over:
                break
            pos.push(Move(pos.to_move, rng.choice(pos.legal_placements())))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=60), st.integers(0, 60))
def test_push_pop_property(choices, undo):
    """Any sequence of legal moves, partly undone, equals replaying its prefix."""
    board = Board.rectangle(10, 10, corners=True)
    pos = Position(board)
    for x in choices:
        if pos.game_over:
            break
        moves = pos.legal_placements()
        pos.push(Move(pos.to_move, moves[x % len(moves)]))
    played = list(pos.history)
    undo = min(undo, len(played))
    for _ in range(undo):
        pos.pop()
    fresh = Position(board)
    for m in played[: len(played) - undo]:
        assert fresh.is_legal(m)
        fresh.push(m)
    assert observable_state(pos) == observable_state(fresh)


def test_setup_pieces_and_first_move_rules():
    pos = Position()
    t = pos.table
    pos.setup({RED: [t.parse("j10,k10,j11")]}, to_move=RED)
    assert pos.to_move == RED
    # red has a piece on the board: its next piece must touch it at a corner,
    # not the start corner
    assert pos.is_legal(pos.parse_move("l9", RED))
    with pytest.raises(IllegalMoveError, match="does not touch a red piece at a corner"):
        pos.parse_move("t1", RED)
    assert fast_moves(pos, RED) == reference_moves(pos, RED)
