"""Trigon puzzle files: triangle boards drawn one character per
cell, their round trips and error messages, and the bundled Trigon
challenges solved by both engines, agreeing, every answer verified."""

from __future__ import annotations

import textwrap

import pytest

from solver.core.geometry import NUM_COLORS, TRIANGLE
from solver.core.pieces import PIECES, TRIGON_PIECES
from solver.core.variants import TRIGON, TRIGON_3
from solver.errors import PuzzleError
from solver.formats.puzzle_file import load_puzzle, parse_puzzle, puzzle_to_toml
from solver.puzzle.verify import verify
from solver.solving import solve
from tests.formats.test_puzzle_file import canonical
from tests.util import ROOT

PUZZLES = ROOT / "puzzles"

SMALL = '''\
variant = "trigon"

[board]
rows = """
 .+.
.....
..*..
 ...
"""

[pieces]
blue = "1 2"
'''


def parse(text: str):
    return parse_puzzle(textwrap.dedent(text), "p.toml")


def error(text: str) -> str:
    with pytest.raises(PuzzleError) as info:
        parse(text)
    return str(info.value)


# -- the drawing --------------------------------------------------------------------
def test_a_small_drawn_board():
    p = parse(SMALL)
    b = p.board
    assert (b.grid, b.width, b.height) == (TRIANGLE, 5, 4)
    assert b.outside == b.blocked == {0, 4, 15, 19}  # the spaces, and the cell right of row 1's end
    assert b.size - len(b.outside) == 16
    assert b.points_up(1) and not b.points_up(2) and not b.points_up(6)  # first = "up" by default, then alternating
    start = b.parse_square("c4")
    assert start == 2 and all(b.starts[c] == {start} for c in range(NUM_COLORS))  # '+': every colour
    assert p.stars == {b.parse_square("c2")} == {12}
    # c4 points down: it shares sides with b4 and d4 (its flat side is the board's top edge), and
    # only a corner with c3 below it
    assert b.square_names(b.edge_neighbours(1 << 2)) == ["b4", "d4"]
    assert "c3" in b.square_names(b.corner_neighbours(1 << 2))
    assert p.colors == (0,) and sorted(PIECES[i].name for i in p.pieces[0]) == ["1", "2"]


def test_first_down_turns_every_triangle():
    up = parse(SMALL).board
    down = parse(SMALL.replace("[board]", '[board]\nfirst = "down"')).board
    assert all(up.points_up(sq) != down.points_up(sq) for sq in range(up.size))
    assert 'first = "down"' in puzzle_to_toml(parse(SMALL.replace("[board]", '[board]\nfirst = "down"')))


def test_drawing_letters_and_starts_table():
    p = parse('''\
        variant = "trigon"
        [board]
        starts = {red = "e1"}
        rows = """
          b.BB.
         ..#..x.
        ........
         ......
        """
        [pieces]
        blue = ["1", "I3"]
        ''')
    b = p.board
    assert (b.width, b.height) == (8, 4)
    assert [len(p.setup_of(c)) for c in range(NUM_COLORS)] == [1, 0, 0, 0]
    assert PIECES[p.table.piece[p.setup_of(0)[0]]].name == "2"
    assert b.starts[0] == {b.parse_square("c4")} and b.starts[2] == {b.parse_square("e1")}
    assert b.parse_square("d3") in b.blocked and p.empty == {b.parse_square("g3")}


def test_the_variant_hexagon_when_board_is_left_out():
    p = parse('variant = "trigon"\n[pieces]\nblue = "all"\n')
    assert p.board.size - len(p.board.blocked) == 486
    assert p.board.starts == TRIGON.board.starts and len(p.board.starts[0]) == 6
    assert sorted(p.pieces[0]) == sorted(TRIGON_PIECES) and len(p.pieces[0]) == 22
    p = parse('variant = "trigon_3"\n[pieces]\nblue = "all"\n')
    assert p.board.size - len(p.board.blocked) == 384
    assert [len(s) for s in p.board.starts] == [6, 6, 6, 0]  # green takes no part in the three-player game
    assert p.board.outside == TRIGON_3.board.outside


@pytest.mark.parametrize("text", [
    SMALL,
    SMALL.replace("[board]", '[board]\nfirst = "down"'),
    SMALL.replace("+", "b").replace("..*..", "RR*x."),
    SMALL.replace("[board]", '[board]\nstarts = {yellow = ["a2"]}'),
    'variant = "trigon"\n[pieces]\nblue = "all"\n',
    'variant = "trigon_3"\n[pieces]\nyellow = "I6 L6"\n',
    'variant = "trigon"\n[rules]\nstars = ["r15"]\n[pieces]\nblue = "all"\n',
], ids=["small", "down", "letters", "starts-table", "hexagon", "hexagon-3", "hexagon-star"])
def test_round_trip(text):
    p = parse(text)
    again = parse_puzzle(puzzle_to_toml(p), "again.toml")
    assert canonical(again) == canonical(p)
    assert puzzle_to_toml(again) == puzzle_to_toml(p)


# -- errors --------------------------------------------------------------------------
def test_unknown_character():
    assert error(SMALL.replace(".+.", ".?.")) == (
        "p.toml:5: unknown character '?' in board row '.?.' (known: . # * x B Y R G b y r g +,"
        " and a space for a cell outside the board)")


def test_tab():
    assert error(SMALL.replace(" .+.", "\t.+.")) == (
        "p.toml:5: a tab in the rows drawing of a triangle board (indent with spaces:"
        " each space is one cell outside the board)")


def test_corners_on_a_triangle_board():
    assert error(SMALL.replace("[board]", '[board]\nstarts = "corners"')) == (
        'p.toml:4: starts = "corners" is for square boards: on a triangle board mark starting points'
        ' with "+" (every colour) or b y r g in the drawing, or list them {blue = "r15"}')


def test_first_on_a_square_board():
    assert error('[board]\nsize = "5x5"\nfirst = "up"\n[pieces]\nblue = "1"\n') == (
        'p.toml:3: first is only used on triangle boards (variant = "trigon", "trigon_2" or "trigon_3")')


def test_other_bad_drawings():
    assert error(SMALL.replace("[board]", '[board]\nfirst = "left"')) == (
        "p.toml:4: unknown first 'left' (expected one of: up down)")
    assert error('variant = "trigon"\n[board]\nfirst = "down"\n[pieces]\nblue = "all"\n') == (
        "p.toml:3: first needs a rows drawing or a size (the Blokus Trigon board is fixed)")
    assert error(SMALL.replace(".....\n..*", ".....\n\n..*")) == "p.toml:7: empty line inside the rows drawing"
    assert error(SMALL.replace("[board]", '[board]\nsize = "5x3"')) == (
        "p.toml:4: size '5x3' does not match the rows drawing (5 wide, 4 high)")


# -- the bundled Trigon challenges ---------------------------------------------------
def test_trigon_solo_22():
    p = load_puzzle(PUZZLES / "trigon-solo-22.toml")
    assert p.variant is TRIGON and p.colors == (0,) and len(p.pieces[0]) == 22
    assert p.board.size - len(p.board.blocked) == 486 and p.spare_squares == 486 - 110
    result = solve(p, "search", time_limit=30)
    assert result.status.value == "OPTIMAL" and len(result.placements) == 22
    assert verify(p, result.placements)


def test_small_trigon_puzzle_has_one_solution_by_both_engines():
    p = load_puzzle(PUZZLES / "trigon-stars-hex3.toml")
    assert p.board.grid == TRIANGLE and p.board.size - len(p.board.outside) == 54 and len(p.stars) == 4
    result = solve(p, "both", count=True, time_limit=60, workers=1)
    assert result.disagreement is None
    for name in ("search", "cpsat"):
        own = result.engines[name]
        assert own.count_complete and own.solution_count == 1, name
    assert result.solution_count == 1 and result.count_complete and len(result.solutions) == 1
    assert verify(p.with_goal("count"), result.solutions[0])  # solve() verified it already; once more here
    assert {sq for c, pl in result.solutions[0] for sq in p.table.squares[pl]} >= p.stars


def test_the_documented_trigon_example_is_the_bundled_puzzle():
    import re

    page = (PUZZLES.parent / "docs" / "solve.md").read_text(encoding="utf-8")
    block = re.search(r"## Puzzles on the Trigon board.*?```toml\n(.*?)```", page, re.S).group(1)
    example = parse_puzzle(block, "example.toml")
    bundled = load_puzzle(PUZZLES / "trigon-stars-hex3.toml")
    assert canonical(example)[:-2] == canonical(bundled)[:-2]  # all but the name and description
