"""The verifier: it accepts valid solutions built by hand, rejects each kind
of broken rule with its message, and returns a legal play order."""

import random

import pytest

from solver.core.geometry import CLASSIC_BOARD, Board, color_index
from solver.core.pieces import CLASSIC_SET as PIECES
from solver.core.pieces import MONOMINO, piece_by_name
from solver.core.position import Move, Position
from solver.errors import PuzzleError
from solver.puzzle.definition import Puzzle
from solver.puzzle.verify import VerificationError, verify
from tests.util import random_game

BLUE, YELLOW, RED, GREEN = range(4)
CORNERS6 = Board.rectangle(6, 6, corners=True)  # blue a6, yellow f6, red f1, green a1
OPEN6 = Board.rectangle(6, 6)


def make(board=CORNERS6, pieces=None, setup=None, **kw) -> Puzzle:
    """A puzzle from text: ``pieces={"blue": "V3 2"}``,
    ``setup={"red": ["c3,d3"]}``; stars/empty as square names."""
    pieces = pieces or {"blue": "V3 2"}
    t = Puzzle(board=board, colors=(), pieces={}).table
    for key in ("stars", "empty"):
        if key in kw:
            kw[key] = frozenset(board.parse_square(s) for s in kw[key].split())
    return Puzzle(
        board=board,
        colors=tuple(sorted(color_index(c) for c in pieces)),
        pieces={color_index(c): tuple(sorted(piece_by_name(n).index for n in names.split())) for c, names in pieces.items()},
        setup={color_index(c): tuple(t.parse(s) for s in ps) for c, ps in (setup or {}).items()},
        name="t",
        **kw,
    )


def moves(puzzle: Puzzle, *items: str) -> list[tuple[int, int]]:
    """``moves(p, "blue a6,b6,a5", "yellow f6")``"""
    out = []
    for item in items:
        color, squares = item.split()
        out.append((color_index(color), puzzle.table.parse(squares)))
    return out


def rejected(puzzle: Puzzle, *items: str) -> str:
    with pytest.raises(VerificationError) as e:
        verify(puzzle, moves(puzzle, *items))
    return str(e.value)


V3_CORNER = "blue a6,b6,a5"  # covers blue's start a6
DOMINO_OK = "blue b4,c4"  # touches a5 at a corner only


# -- valid solutions --------------------------------------------------------------
def test_accepts_a_valid_solution_and_orders_it():
    p = make()
    sol = moves(p, DOMINO_OK, V3_CORNER)  # given out of order
    v = verify(p, sol)
    assert v.order == [sol[1], sol[0]]  # the start piece first
    assert v.objective is None
    assert v.monomino_last == {BLUE: False}


def test_accepts_several_colors_and_obstacles():
    p = make(
        pieces={"blue": "V3 2", "red": "O"},
        setup={"green": ["a1,b1,c1"]},
        stars="c4 e2",
        empty="f6",
        same_shape="corner",
    )
    v = verify(p, moves(p, V3_CORNER, DOMINO_OK, "red e1,f1,e2,f2"))
    assert [c for c, _ in v.order] == [BLUE, RED, BLUE]


def test_maximize_objective():
    p = make(pieces={"blue": "V3 2 I3"}, goal="maximize", target=(BLUE,), measure="squares")
    assert verify(p, moves(p, V3_CORNER, DOMINO_OK)).objective == 5
    p = make(pieces={"blue": "V3 2 I3"}, goal="maximize", target=(BLUE,), measure="score")
    assert verify(p, moves(p, V3_CORNER, DOMINO_OK)).objective == -3
    assert verify(p, []).objective == -8


# -- rejections ---------------------------------------------------------------------
def test_overlap():
    p = make(setup={"red": ["a5,a4"]})
    msg = rejected(p, V3_CORNER, DOMINO_OK)
    assert "red 2 at a4,a5 overlaps blue V3 at a5,a6,b6 on a5" in msg
    p = make(pieces={"blue": "V3 2", "yellow": "I3"})
    assert "overlaps" in rejected(p, V3_CORNER, DOMINO_OK, "yellow c4,d4,e4")


def test_same_color_edge():
    p = make()
    assert rejected(p, V3_CORNER, "blue c6,d6") == "t: blue V3 at a5,a6,b6 shares an edge with blue 2 at c6,d6"


def test_other_colors_may_share_edges():
    p = make(board=OPEN6, pieces={"blue": "V3", "yellow": "I3"}, connect="free")
    placed = moves(p, V3_CORNER, "yellow c6,d6,e6")
    assert verify(p, placed).order == placed


def test_piece_placed_twice():
    p = make(board=OPEN6, connect="free")
    assert rejected(p, V3_CORNER, "blue d3,e3,d2", DOMINO_OK) == "t: blue V3 at d2,d3,e3: piece placed twice"


def test_piece_not_in_hand():
    p = make()
    assert "blue has no piece I3 to place" in rejected(p, V3_CORNER, "blue b4,c4,d4")


def test_color_not_taking_part():
    p = make()
    assert "colour yellow does not take part" in rejected(p, V3_CORNER, DOMINO_OK, "yellow f6")


def test_missing_piece():
    p = make(pieces={"blue": "V3 2 1"})
    assert rejected(p, V3_CORNER, DOMINO_OK) == "t: blue has not placed: 1"
    # count goals need every piece too; maximize does not
    verify(make(pieces={"blue": "V3 2 1"}, goal="maximize", target=(BLUE,)), moves(p, V3_CORNER, DOMINO_OK))
    with pytest.raises(VerificationError, match="has not placed: 1"):
        verify(make(pieces={"blue": "V3 2 1"}, goal="count"), moves(p, V3_CORNER, DOMINO_OK))


def test_star_uncovered():
    p = make(stars="c4 f1")
    assert rejected(p, V3_CORNER, DOMINO_OK) == "t: star square f1 is not covered"


def test_empty_square_covered():
    p = make(empty="c4")
    assert "blue 2 at b4,c4 covers c4, which must stay empty" in rejected(p, V3_CORNER, DOMINO_OK)


def test_same_shape_corner_contact_differs_between_modes():
    both = {"blue": "V3", "yellow": "V3"}
    corner_only = (V3_CORNER, "yellow c5,d5,c4")  # c5 touches b6 at a corner only
    for rule in ("none", "edge"):
        p = make(board=OPEN6, pieces=both, connect="free", same_shape=rule)
        verify(p, moves(p, *corner_only))
    p = make(board=OPEN6, pieces=both, connect="free", same_shape="corner")
    assert "blue V3 at a5,a6,b6 touches yellow V3 at c4,c5,d5 of the same shape" in rejected(p, *corner_only)


def test_same_shape_edge_contact():
    both = {"blue": "V3", "yellow": "V3"}
    edge = (V3_CORNER, "yellow c6,d6,c5")
    p = make(board=OPEN6, pieces=both, connect="free")
    verify(p, moves(p, *edge))
    for rule in ("edge", "corner"):
        p = make(board=OPEN6, pieces=both, connect="free", same_shape=rule)
        msg = rejected(p, *edge)
        assert "of the same shape" in msg and ("shares an edge with" in msg) == (rule == "edge")
    # different shapes may touch in either mode
    p = make(board=OPEN6, pieces={"blue": "V3", "yellow": "I3"}, connect="free", same_shape="corner")
    verify(p, moves(p, V3_CORNER, "yellow c6,d6,e6"))


def test_start_square_not_covered():
    p = make()
    assert rejected(p, "blue b6,c6,b5", "blue c4,d4") == "t: no blue piece covers its start square a6"
    # several start squares: covering any one of them is enough
    board = Board(6, 6, starts=(frozenset({0, 5}),) + (frozenset(),) * 3)
    p = make(board=board)
    verify(p, moves(p, "blue f6,e6,f5", "blue d4,e4"))
    assert "covers its start square a6 or f6" in rejected(p, "blue b6,c6,b5", "blue c4,d4")


def test_game_rule_disconnected_group():
    p = make()
    assert "blue 2 at e2,f2 is not connected by corner contact to the other blue pieces" in rejected(
        p, V3_CORNER, "blue e2,f2"
    )


def test_game_rule_set_up_pieces_must_be_joined_by_the_new_ones():
    p = make(board=OPEN6, pieces={"blue": "2"}, setup={"blue": ["a6,b6,a5", "d3,e3,f3"]})
    assert "is not connected by corner contact" in rejected(p, "blue e1,f1")
    verify(p, moves(p, "blue b4,c4"))  # b4 touches a5, c4 touches d3
    # also when nothing new is placed (maximize may place nothing)
    p = make(board=OPEN6, pieces={"blue": "2"}, setup={"blue": ["a6,b6,a5", "d3,e3,f3"]}, goal="maximize", target=(BLUE,))
    with pytest.raises(VerificationError, match="not connected"):
        verify(p, [])


def test_touch_rule_lonely_piece():
    p = make(board=OPEN6, pieces={"blue": "V3 2 1"}, connect="touch")
    assert "blue 1 at f1 touches no other blue piece at a corner" in rejected(p, V3_CORNER, DOMINO_OK, "blue f1")
    # under touch a colour may form several groups
    p = make(board=OPEN6, pieces={"blue": "V3 2 1 I3"}, connect="touch")
    placed = moves(p, V3_CORNER, DOMINO_OK, "blue f1", "blue e4,e3,e2")
    verified = verify(p, placed)
    assert verified.order == placed[:2] + placed[3:] + placed[2:3]  # the monomino moved to the end
    assert verified.monomino_last == {BLUE: True}
    # ... but under game it may not
    p = make(board=OPEN6, pieces={"blue": "V3 2 1 I3"}, connect="game")
    assert rejected(p, V3_CORNER, DOMINO_OK, "blue f1", "blue e4,e3,e2") == (
        "t: blue 1 at f1 is not connected by corner contact to the other blue pieces")


def test_free_rule_needs_no_contact():
    p = make(board=OPEN6, pieces={"blue": "V3 2"}, connect="free")
    verify(p, moves(p, V3_CORNER, "blue e1,f1"))


def test_monomino_last():
    # monomino b4 touches a5; the domino touches only the monomino: it cannot go last
    p = make(pieces={"blue": "V3 2 1"}, monomino_last=True)
    assert rejected(p, V3_CORNER, "blue b4", "blue c3,d3") == "t: blue: no legal play order ends with the monomino"
    # the domino touches the V3 directly: the monomino can go last
    v = verify(p, moves(p, "blue b4", V3_CORNER, "blue c5,d5"))
    assert PIECES[p.table.piece[v.order[-1][1]]].name == "1" and v.monomino_last == {BLUE: True}
    # the monomino on the start square has to be played first
    assert "no legal play order" in rejected(p, "blue a6", "blue b5,c5,b4", "blue c3,d3")
    with pytest.raises(PuzzleError, match="^t: monomino_last, but blue has no monomino to place$"):
        make(pieces={"blue": "V3 2"}, monomino_last=True)


def test_monomino_last_with_two_start_squares():
    board = Board(5, 5, starts=(frozenset({0, 4}),) + (frozenset(),) * 3)
    p = make(board=board, pieces={"blue": "1 L5"}, monomino_last=True)
    # the monomino covers a5, the L5 covers e5 and touches the monomino: L5 first, then 1
    v = verify(p, moves(p, "blue a5", "blue b4,c4,d4,e4,e5"))
    assert [PIECES[p.table.piece[q]].name for _, q in v.order] == ["L5", "1"]


# -- play orders replayed with Position ------------------------------------------------
def replay(puzzle: Puzzle, order) -> Position:
    pos = Position(puzzle.board)
    if puzzle.setup:
        pos.setup({c: list(ps) for c, ps in puzzle.setup.items()})
    for c, p in order:
        move = Move(c, p)
        pos.check_move(move)
        pos.push(move)
    return pos


def puzzle_of(board, placed: dict[int, list[int]], setup=None, **kw) -> Puzzle:
    t = Puzzle(board=board, colors=(), pieces={}).table
    return Puzzle(
        board=board,
        colors=tuple(sorted(placed)),
        pieces={c: tuple(sorted(t.piece[p] for p in ps)) for c, ps in placed.items()},
        setup=setup or {},
        name="game",
        **kw,
    )


@pytest.mark.parametrize("seed", [1, 2])
def test_order_of_a_random_game_replays(seed):
    pos = random_game(seed)
    placed: dict[int, list[int]] = {c: [] for c in range(4)}
    for c, p in pos.history:
        placed[c].append(p)
    puzzle = puzzle_of(CLASSIC_BOARD, placed)
    sol = list(pos.history)
    random.Random(seed).shuffle(sol)
    v = verify(puzzle, sol)
    assert sorted(v.order) == sorted(pos.history)
    end = replay(puzzle, v.order)
    assert end.occupied == pos.occupied


def test_order_with_set_up_pieces_replays():
    pos = random_game(3, max_moves=60)
    setup: dict[int, list[int]] = {}
    placed: dict[int, list[int]] = {c: [] for c in range(4)}
    for i, (c, p) in enumerate(pos.history):
        (setup.setdefault(c, []) if i < 12 else placed[c]).append(p)
    puzzle = puzzle_of(CLASSIC_BOARD, placed, {c: tuple(ps) for c, ps in setup.items()})
    sol = list(pos.history[12:])
    random.Random(3).shuffle(sol)
    v = verify(puzzle, sol)
    assert replay(puzzle, v.order).occupied == pos.occupied


def mono_last_game(seed: int, rounds: int) -> Position:
    """Each colour plays `rounds` random non-monomino pieces, then its monomino."""
    rng = random.Random(seed)
    pos = Position()
    for _ in range(rounds):
        for c in range(4):
            options = [p for p in pos.legal_placements(c) if pos.table.piece[p] != MONOMINO]
            pos.push(Move(c, rng.choice(options)))
    for c in range(4):
        pos.push(Move(c, rng.choice([p for p in pos.legal_placements(c) if pos.table.piece[p] == MONOMINO])))
    return pos


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_monomino_last_order_replays_in_rotation(seed):
    rounds = 8
    pos = mono_last_game(seed, rounds)
    placed: dict[int, list[int]] = {c: [] for c in range(4)}
    for c, p in pos.history:
        placed[c].append(p)
    puzzle = puzzle_of(CLASSIC_BOARD, placed, monomino_last=True)
    sol = list(pos.history)
    random.Random(seed).shuffle(sol)
    v = verify(puzzle, sol)
    assert v.monomino_last == {c: True for c in range(4)}
    assert [c for c, _ in v.order] == [0, 1, 2, 3] * (rounds + 1)  # blue, yellow, red, green, ...
    for c in range(4):
        own = [p for col, p in v.order if col == c]
        assert pos.table.piece[own[-1]] == MONOMINO
    end = replay(puzzle, v.order)
    assert end.last_piece == [MONOMINO] * 4


def test_rotation_when_colors_have_different_numbers_of_pieces():
    p = make(pieces={"blue": "V3 2", "yellow": "1", "red": "O I3"})
    v = verify(p, moves(p, "red f1,e1,f2,e2", DOMINO_OK, "red d3,d4,d5", "yellow f6", V3_CORNER))
    assert [c for c, _ in v.order] == [BLUE, YELLOW, RED, BLUE, RED]
    replay(p, v.order)
