"""Puzzle files: the bundled ones load and round-trip, every error names
file and line, and the small puzzles have the solution counts the
brute-force oracle finds."""

import textwrap
from dataclasses import replace

import pytest

from solver.core.geometry import MAX_BOARD_SQUARES, Board
from solver.core.pieces import CLASSIC_SET as PIECES
from solver.core.pieces import piece_by_name
from solver.errors import BlokusError, BoardError, PuzzleError
from solver.formats.puzzle_file import MAX_FILE_SIZE, load_puzzle, parse_puzzle, puzzle_to_toml
from solver.puzzle.definition import Puzzle
from solver.puzzle.verify import verify
from tests import bruteforce
from tests.util import ROOT

PUZZLES = ROOT / "puzzles"
FILES = sorted(PUZZLES.glob("*.toml"))
BLUE, YELLOW, RED, GREEN = range(4)

# name -> exact number of solutions (the small puzzles the oracle can solve)
SMALL = {
    "stars-8x8": 1,
    "avoid-x-7x7": 1,
    "connect-8x8": 1,
    "fill-6x6-impossible": 0,
}


def canonical(p: Puzzle) -> tuple:
    """Everything a puzzle says, independent of the order of set-up pieces."""
    return (
        p.board, p.colors, {c: tuple(sorted(ps)) for c, ps in p.pieces.items()},
        {c: frozenset(ps) for c, ps in p.setup.items() if ps},
        p.connect, p.monomino_last, p.same_shape, p.stars, p.empty,
        p.goal, p.target, p.measure, p.name, p.description,
    )


# -- the bundled files ----------------------------------------------------------------
def test_bundled_files_are_there():
    names = {f.stem for f in FILES}
    assert {
        "solo-21", "solo-84", "solo-84-monomino-last", "tetromino-8x10",
        "tetromino-8x10-distinct", "duo-solo-21",
    } | set(SMALL) <= names


@pytest.mark.parametrize("path", FILES, ids=lambda f: f.stem)
def test_every_file_loads_and_round_trips(path):
    p = load_puzzle(path)
    assert p.name == path.stem
    assert len(p.description) > 40
    again = parse_puzzle(puzzle_to_toml(p), "again.toml")
    assert canonical(again) == canonical(p)


def pieces_total(p: Puzzle) -> int:
    return sum(len(p.pieces[c]) for c in p.colors)


def test_solo_challenges():
    p = load_puzzle(PUZZLES / "solo-21.toml")
    assert (p.board, p.colors, pieces_total(p), p.connect) == (Board.classic(), (BLUE,), 21, "game")
    assert p.spare_squares == 400 - 89
    for name, mono in (("solo-84", False), ("solo-84-monomino-last", True)):
        p = load_puzzle(PUZZLES / f"{name}.toml")
        assert p.board == Board.classic() and p.colors == (0, 1, 2, 3)
        assert pieces_total(p) == 84 and p.spare_squares == 44
        assert p.monomino_last is mono and p.goal == "place-all"
    p = load_puzzle(PUZZLES / "duo-solo-21.toml")
    assert (p.board.width, p.board.height, pieces_total(p)) == (14, 14, 21)
    assert p.board.starts[BLUE] == {p.board.parse_square("e10")} == {4 * 14 + 4}
    assert p.spare_squares == 196 - 89


def test_tetromino_challenges():
    tetrominoes = tuple(piece_by_name(n).index for n in "I4 L4 O T4 Z4".split())
    for name, same in (("tetromino-8x10", "none"), ("tetromino-8x10-distinct", "corner")):
        p = load_puzzle(PUZZLES / f"{name}.toml")
        assert (p.board.width, p.board.height) == (8, 10)
        assert not any(p.board.starts) and p.colors == (0, 1, 2, 3)
        assert all(p.pieces[c] == tetrominoes for c in p.colors)
        assert pieces_total(p) == 20 and p.spare_squares == 0
        assert (p.connect, p.same_shape) == ("touch", same)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_puzzles_solution_counts(name):
    p = load_puzzle(PUZZLES / f"{name}.toml")
    assert p.board.width <= 10 and p.board.height <= 10
    solutions = bruteforce.solve_all(p)
    assert len(solutions) == SMALL[name]
    for s in solutions:
        v = verify(p, sorted(s))
        assert sorted(v.order) == sorted(s)


def test_impossible_puzzle_is_impossible_by_coloring():
    p = load_puzzle(PUZZLES / "fill-6x6-impossible.toml")
    assert p.spare_squares == 0
    open_squares = [sq for sq in range(p.board.size) if sq not in p.board.blocked]
    dark = sum(1 for sq in open_squares if sum(p.board.row_col(sq)) % 2 == 0)
    assert dark * 2 == len(open_squares) == 20
    assert "impossible" in p.description.lower()


# -- the oracle on puzzles counted by hand ------------------------------------------------
def test_bruteforce_counts_known_by_hand():
    free = parse_puzzle('[board]\nsize = "3x3"\n[pieces]\nblue = "V3"\n[rules]\nconnect = "free"\n')
    assert len(bruteforce.solve_all(free)) == 16  # 4 orientations x 4 positions
    corner = parse_puzzle('[board]\nrows = "b..\\n...\\n..."\n[pieces]\nblue = "V3"\n')
    assert len(bruteforce.solve_all(corner)) == 3  # the orientations covering a3
    # domino on a3 (a3-b3 or a3-a2) and the monomino on the one diagonal square
    # left, or the monomino on a3 and the domino on b2 (b2-c2 or b2-b1)
    two = parse_puzzle('[board]\nrows = "b..\\n...\\n..."\n[pieces]\nblue = "1 2"\n')
    got = {frozenset(two.table.name(p) for _, p in s) for s in bruteforce.solve_all(two)}
    assert got == {
        frozenset({"a3,b3", "c2"}), frozenset({"a2,a3", "b1"}),
        frozenset({"a3", "b2,c2"}), frozenset({"a3", "b1,b2"}),
    }


def test_bruteforce_maximize():
    p = parse_puzzle(
        '[board]\nrows = "b..\\n...\\n..."\n[pieces]\nblue = "1 2 V3 O"\n'
        '[goal]\ntype = "maximize"\ntarget = "blue"\nmeasure = "squares"\n'
    )
    best, solutions = bruteforce.maximize(p)
    # O on a3 leaves only c1 (monomino); V3 + monomino also make 4, the domino cannot join the O
    assert best == 5
    assert all(sum(len(p.table.squares[q]) for _, q in s) == 5 for s in solutions)


# -- round trip of made-up puzzles ----------------------------------------------------------
def test_round_trip_of_a_generated_puzzle():
    board = Board(7, 6, blocked=frozenset({10, 11}), starts=(frozenset({0}), frozenset({0, 6}), frozenset(), frozenset({12})))
    t = Puzzle(board=board, colors=(), pieces={}).table
    p = Puzzle(
        board=board,
        colors=(BLUE, RED),
        pieces={BLUE: (0, 3, 20), RED: (0, 5)},
        setup={RED: (t.parse("a1,b1"),), GREEN: (t.parse("g1,g2,g3"), t.parse("e1"))},
        connect="touch",
        monomino_last=True,
        same_shape="edge",
        stars=frozenset({board.parse_square("e4"), 12}),
        empty=frozenset({board.parse_square("b3")}),
        goal="maximize",
        target=(BLUE, RED),
        measure="squares",
        name='odd "name" \\ with\ttab',
        description="line one\nline two: ünïcode",
    )
    text = puzzle_to_toml(p)
    assert canonical(parse_puzzle(text)) == canonical(p)
    assert 'target = "blue+red"' in text
    # the classic corners are written as such
    q = replace(p, board=Board.rectangle(7, 6, corners=True), setup={}, stars=frozenset(), empty=frozenset())
    assert 'starts = "corners"' in puzzle_to_toml(q)
    assert canonical(parse_puzzle(puzzle_to_toml(q))) == canonical(q)
    # a colour taking part with nothing to place, the count goal
    q = replace(q, colors=(BLUE, YELLOW), pieces={BLUE: (4,), YELLOW: ()}, monomino_last=False, goal="count", target=(), measure="score")
    assert "yellow = []" in puzzle_to_toml(q)
    assert canonical(parse_puzzle(puzzle_to_toml(q))) == canonical(q)


def test_all_means_the_pieces_not_on_the_board():
    p = parse_puzzle(
        '[board]\nrows = """\nB B . .\n. . . .\n. . . Y\n"""\n[pieces]\nblue = "all"\nred = "all"\n', "x/all.toml"
    )
    assert p.name == "all"
    assert p.pieces[BLUE] == tuple(range(len(PIECES)))[:1] + tuple(range(2, len(PIECES)))
    assert p.pieces[RED] == tuple(range(len(PIECES)))
    assert p.colors == (BLUE, RED) and set(p.setup) == {BLUE, YELLOW}
    assert "blue = \"all\"" in puzzle_to_toml(p)


def test_format_variants():
    p = parse_puzzle(
        textwrap.dedent(
            """\
            [board]
            size = "5x4"
            starts = {blue = "a4", green = ["a1", "b1"]}
            rows = '''
            *.x..
            .....
            ..#..
            y....'''
            [pieces]
            blue = ["I4", 2, "1"]
            green = "L4, O"
            [rules]
            stars = "e1 d1"
            empty = ["e4"]
            """
        )
    )
    b = p.board
    assert b.starts[BLUE] == {0} and b.starts[GREEN] == {15, 16} and b.starts[YELLOW] == {15}
    assert b.blocked == {12}
    assert p.pieces[BLUE] == (0, 1, 4) and p.pieces[GREEN] == (5, 6)
    assert p.stars == {0, 19, 18} and p.empty == {2, 4}


# -- errors ----------------------------------------------------------------------------------
GOOD = """\
[board]
size = "6x6"
[pieces]
blue = "all"
"""

ERRORS = [
    # (text, line, part of the message)
    ('name = "x"\n[board\nsize = "6x6"\n', "2:7", "TOML syntax error"),
    ('name = "x"\nname = "y"\n', "2:", "TOML syntax error"),
    (GOOD + '[rules]\nconect = "game"\n', 6, "unknown key 'conect' in [rules] (did you mean 'connect'?"),
    ('description = """\n[rules]\nconect = 1\n"""\n' + GOOD + '[rules]\nconect = "game"\n', 10, "unknown key 'conect'"),
    (GOOD + '[rule]\nconnect = "game"\n', 5, "unknown key 'rule' in the top level"),
    ('nmae = "x"\n' + GOOD, 1, "unknown key 'nmae' in the top level (did you mean 'name'?"),
    ('[board]\nsize = "6x6"\nstart = "corners"\n[pieces]\nblue = "all"\n', 3, "unknown key 'start' in [board]"),
    ('[goal]\ntype = "count"\ntargte = "blue"\n' + GOOD, 3, "unknown key 'targte' in [goal]"),
    ('[board]\nsize = "6x6"\n[pieces]\nblue = "I4 Q7"\n', 4, "blue: unknown piece name 'Q7'"),
    ('[board]\nsize = "6x6"\n[pieces]\nblue = [\n  "I4",\n  "Q7",\n]\n', 6, "unknown piece name 'Q7'"),
    ('[board]\nsize = "6x6"\n[pieces]\nblue = "I4 L4 i4"\n', 4, "blue: piece 'i4' is listed twice"),
    ('[board]\nsize = "6x6"\n[pieces]\nblue = 5\n', 4, 'blue must be "all", a list'),
    ('[board]\nrows = """\n. . .\n. .\n"""\n[pieces]\nblue = "all"\n', 4, "board row '. .' has 2 squares, the first row has 3"),
    ('[board]\nrows = """\n. . .\n. q .\n"""\n[pieces]\nblue = "all"\n', 4, "unknown character 'q' in board row '. q .'"),
    ('[board]\nrows = """. . .\n. . .\n. q .\n"""\n[pieces]\nblue = "all"\n', 4, "unknown character 'q'"),
    ('[board]\nrows = """\\\n\n  . . .\n  . x .\n  . q .\n"""\n[pieces]\nblue = "all"\n', 6, "unknown character 'q'"),
    ('[board]\nrows = """\n. . .\n\n. . .\n"""\n[pieces]\nblue = "all"\n', 4, "empty line inside the rows drawing"),
    ('[board]\nsize = "4x4"\nrows = """\n...\n...\n"""\n[pieces]\nblue = "all"\n', 2, "size '4x4' does not match the rows drawing (3 wide, 2 high)"),
    ('[board]\nsize = "20 by 20"\n[pieces]\nblue = "all"\n', 2, "bad board size '20 by 20' (expected WIDTHxHEIGHT"),
    ('[board]\nsize = "0x5"\n[pieces]\nblue = "all"\n', 2, "bad board size '0x5'"),
    ('[board]\nsize = 20\n[pieces]\nblue = "all"\n', 2, "size must be a string, not 20"),
    ('[pieces]\nblue = "all"\n', 1, "the board needs a size"),
    ('[board]\nrows = """\n. . . . . .\n. . . . . .\nB B B B B B\n"""\n[pieces]\nblue = "all"\n', 5,
     "set-up squares a1,b1,c1,d1,e1,f1 (B, blue) are not a piece shape"),
    ('[board]\nrows = """\nB B . .\n. . . .\n. . B B\n"""\n[pieces]\nblue = "all"\n', 5,
     "blue has piece 2 twice on the board: a3,b3 and c1,d1"),
    ('[board]\nrows = """\nB B . .\n. . . .\n"""\n[pieces]\nblue = "I3 2"\n', 7,
     "blue: piece '2' is already on the board (set-up at a2,b2), so it cannot be placed again"),
    ('[board]\nsize = "6x6"\nstarts = {blue = "z9"}\n[pieces]\nblue = "all"\n', 3, "bad start square 'z9': square 'z9' is off the 6x6 board"),
    ('[board]\nsize = "6x6"\nstarts = {blue = ["a1", "7b"]}\n[pieces]\nblue = "all"\n', 3, "bad start square '7b': not a square: '7b'"),
    ('[board]\nsize = "6x6"\nstarts = "everywhere"\n[pieces]\nblue = "all"\n', 3, "unknown starts 'everywhere'"),
    ('[board]\nstarts = "corners"\nrows = """\n. . #\n. . .\n"""\n[pieces]\nblue = "all"\n', 2,
     "yellow start square c2 is on a blocked square"),
    ('[board]\nsize = "6x6"\n\n[board.starts]\nblue = "a1"\nred = "c9"\n[pieces]\nblue = "all"\n', 6, "bad start square"),
    ('[board]\nstarts = "none"\nrows = """\nb . .\n"""\n[pieces]\nblue = "all"\n', 2, "the rows drawing marks start squares"),
    (GOOD + '[rules]\nstars = ["a1", "g7"]\n', 6, "bad star square 'g7': square 'g7' is off the 6x6 board"),
    (GOOD + '[rules]\nstars = [\n  "a1",\n  "b",\n]\n', 8, "bad star square 'b': not a square"),
    ('[board]\nrows = """\n. # .\n"""\n[pieces]\nblue = "all"\n[rules]\nstars = "b1"\n', 8, "star square b1 is on a blocked square"),
    ('[board]\nrows = """\n. R R\n"""\n[pieces]\nblue = "all"\n[rules]\nempty = "c1"\n', 8, "empty square c1 is covered by a red set-up piece"),
    ('[board]\nrows = """\n. # .\n"""\n[pieces]\nblue = "all"\n[rules]\nempty = ["b1"]\n', 8, "empty square b1 is on a blocked square"),
    ('[board]\nrows = """\nB B .\n"""\n[pieces]\nblue = "all"\n[rules]\nstars = ["a1"]\n', 8, "star square a1 is covered by a blue set-up piece"),
    ('[board]\nrows = """\n* . .\n"""\n[pieces]\nblue = "all"\n[rules]\nempty = ["a1"]\n', 8, "square a1 is both a star and a square that must stay empty"),
    ('[board]\nsize = "6x6"\n[pieces]\nblue = "all"\npurple = "all"\n', 5, "unknown colour 'purple' (known: blue yellow red green)"),
    ('[board]\nsize = "6x6"\nstarts = {pink = "a1"}\n[pieces]\nblue = "all"\n', 3, "unknown colour 'pink'"),
    (GOOD + '[rules]\nconnect = "loose"\n', 6, "unknown connect 'loose' (expected one of: game touch free)"),
    (GOOD + '[rules]\nsame_shape = "diagonal"\n', 6, "unknown same_shape 'diagonal' (expected one of: none edge corner)"),
    (GOOD + '[rules]\nmonomino_last = "yes"\n', 6, "monomino_last must be true or false"),
    ('[board]\nsize = "6x6"\n[pieces]\nblue = "2 I3"\n[rules]\nmonomino_last = true\n', 6, "blue has no monomino to place"),
    (GOOD + '[goal]\ntype = "solve"\n', 6, "unknown goal type 'solve' (expected one of: place-all maximize count)"),
    (GOOD + '[goal]\ntype = "maximize"\ntarget = "blue"\nmeasure = "points"\n', 8, "unknown measure 'points' (expected one of: score squares)"),
    (GOOD + '[goal]\ntype = "maximize"\n', 6, 'goal type "maximize" needs a target'),
    (GOOD + '[goal]\ntype = "maximize"\ntarget = "blue+red"\n', 7, "target colour red does not take part"),
    (GOOD + '[goal]\ntype = "maximize"\ntarget = "blue+orange"\n', 7, "unknown colour 'orange'"),
    (GOOD + '[goal]\ntype = "maximize"\ntarget = "blue+blue"\n', 7, "target colour blue is named twice"),
    (GOOD + '[goal]\ntarget = "blue"\n', 6, 'target is only used with type = "maximize"'),
    ('[board]\nsize = "6x6"\n', 1, "no [pieces] section"),
    ('[board]\nsize = "6x6"\n[pieces]\n', 3, "[pieces] lists no colour"),
    ('board = "6x6"\n[pieces]\nblue = "all"\n', 1, "board must be a table [board]"),
    ('rules = 3\n' + GOOD, 1, "rules must be a table [rules]"),
    ('name = 3\n' + GOOD, 1, "name must be a string, not 3"),
]


@pytest.mark.parametrize("text,line,message", ERRORS, ids=[m[:40] for _, _, m in ERRORS])
def test_errors_name_file_and_line(tmp_path, text, line, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(PuzzleError) as e:
        load_puzzle(path)
    got = str(e.value)
    assert got.startswith(f"{path}:{line}" + ("" if isinstance(line, str) else ": ")), got
    assert message in got, got


def test_a_game_record_given_as_a_puzzle_is_named_as_one():
    with pytest.raises(PuzzleError) as e:
        parse_puzzle("\ufeff(\n;GM[Blokus Duo]\n;B[e10])\n", "game.blksgf")
    assert str(e.value) == ("game.blksgf:1: this is not a puzzle file; it looks like a game record (.blksgf), "
                            "which 'blokus show', 'analyze', 'annotate' and 'render' read")


def test_error_source_name_from_parse_puzzle():
    with pytest.raises(PuzzleError, match=r"^my\.toml:4: blue: unknown piece name 'Q7'"):
        parse_puzzle('[board]\nsize = "6x6"\n[pieces]\nblue = "Q7"\n', "my.toml")


def test_unreadable_file(tmp_path):
    missing = tmp_path / "missing.toml"
    with pytest.raises(PuzzleError) as e:
        load_puzzle(missing)
    assert str(e.value) == f"{missing}: cannot read: No such file or directory"
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"name = '\xff'\n")
    with pytest.raises(PuzzleError, match=r"binary\.toml: cannot read: not UTF-8"):
        load_puzzle(binary)
    with pytest.raises(PuzzleError, match="cannot read"):
        load_puzzle(tmp_path)  # a directory


def test_good_minimal_file_defaults(tmp_path):
    path = tmp_path / "minimal.toml"
    path.write_text(GOOD)
    p = load_puzzle(path)
    assert p.name == "minimal" and p.description == ""
    assert (p.connect, p.monomino_last, p.same_shape, p.goal, p.measure) == ("game", False, "none", "place-all", "score")
    assert not any(p.board.starts) and p.colors == (BLUE,) and len(p.pieces[BLUE]) == 21


def test_documented_examples_parse():
    import re

    import solver.formats.puzzle_file as pf

    page = (PUZZLES.parent / "docs" / "solve.md").read_text()
    block = re.search(r"## Puzzle files.*?```toml\n(.*?)```", page, re.S).group(1)
    doc = textwrap.dedent(pf.__doc__.split("::\n\n")[1].split("\n\nMeaning")[0])
    for text in (block, doc):
        p = parse_puzzle(text, "example.toml")
        assert p.name == "stars-7x7" and p.board.starts[BLUE] == {0}
        assert sorted(p.board.square_name(s) for s in p.stars) == ["b7", "d6", "g2"]


# -- no input crashes the loader ------------------------------------------------------------
def error(text: str) -> str:
    """The message of the PuzzleError that parsing ``text`` as bad.toml raises."""
    with pytest.raises(PuzzleError) as e:
        parse_puzzle(text, "bad.toml")
    return str(e.value)


def test_deep_nesting_is_a_puzzle_error_not_a_recursion_error():
    deep = "arrays or tables nested more than 16 deep (a puzzle file needs 2)"
    assert error("description = " + "[" * 5000 + "]" * 5000 + "\n" + GOOD) == f"bad.toml:1: {deep}"
    assert error("description = " + "{a=" * 5000 + "1" + "}" * 5000 + "\n" + GOOD) == f"bad.toml:1: {deep}"
    assert error(GOOD + '[rules]\nstars = [\n  "a1",\n  ' + "[" * 17 + "]" * 17 + "\n]\n") == f"bad.toml:8: {deep}"
    # 16 levels pass the scan and are quoted shortly; brackets inside strings do not count
    assert error("description = " + "[" * 16 + "]" * 16 + "\n" + GOOD) == (
        "bad.toml:1: description must be a string, not [[[[...]]]]"
    )
    assert parse_puzzle('description = "' + "[" * 5000 + '"\n' + GOOD).description == "[" * 5000
    # dotted keys nest tables too, and tomllib takes time quadratic in their parts
    dotted = "a dotted key of more than 16 parts"
    assert error("name" + ".a" * 50000 + " = 1\n" + GOOD) == f"bad.toml:1: {dotted}"
    assert error(GOOD + "[rules" + ".a" * 16 + "]\n") == f"bad.toml:5: {dotted}"
    assert error("x = {" + "a." * 16 + "a = 1}\n" + GOOD) == f"bad.toml:1: {dotted}"


def test_board_size_limit():
    squares = "squares, more than the 1024 allowed (e.g. 32x32)"
    for size in ("500x500", "100x100"):  # took 17 s (MemoryError) and 35 s (3.5 GB): refused before any table
        w, h = map(int, size.split("x"))
        assert error(f'[board]\nsize = "{size}"\n[pieces]\nblue = "all"\n') == (
            f"bad.toml:2: bad board size '{size}': {w * h} {squares}"
        )
    assert error('[board]\nsize = "33x32"\n[pieces]\nblue = "all"\n') == f"bad.toml:2: bad board size '33x32': 1056 {squares}"
    assert error('[board]\nsize = "703x1"\n[pieces]\nblue = "all"\n') == (
        "bad.toml:2: bad board size '703x1': wider than 702 columns (the last column is zz)"
    )
    assert error('[board]\nsize = "1x1000"\n[pieces]\nblue = "all"\n') == (
        "bad.toml:2: bad board size '1x1000': higher than 999 rows"
    )
    assert error('[board]\nsize = "' + "9" * 5000 + 'x1"\n[pieces]\nblue = "all"\n') == (
        "bad.toml:2: bad board size '" + "9" * 27 + "..." + "9" * 26 + "x1': wider than 702 columns (the last column is zz)"
    )  # int() of 5000 digits raised ValueError; the quote is shortened
    drawing = '[board]\nrows = """\n' + ("." * 32 + "\n") * 33 + '"""\n[pieces]\nblue = "all"\n'
    assert error(drawing) == f"bad.toml:35: the board drawn is too large (32x33 by this row): 1056 {squares}"
    assert error('[board]\nrows = "' + "." * 800 + '"\n[pieces]\nblue = "all"\n') == (
        "bad.toml:2: the board drawn is too large (800x1 by this row): wider than 702 columns (the last column is zz)"
    )  # was a ValueError from Board


def test_board_errors_are_blokus_errors():
    with pytest.raises(BoardError) as e:
        Board(100, 100)
    assert str(e.value) == "board size 100x100: 10000 squares, more than the 1024 allowed (e.g. 32x32)"
    assert isinstance(e.value, BlokusError) and isinstance(e.value, ValueError)
    with pytest.raises(BoardError, match="^board size 0x3: the board is empty$"):
        Board(0, 3)
    with pytest.raises(BoardError, match="^square index 9 is off the 3x3 board$"):
        Board(3, 3, blocked=frozenset({9}))
    assert Board(32, 32).size == MAX_BOARD_SQUARES


def test_color_keys_differing_in_case_are_an_error():
    assert error('[board]\nsize = "6x6"\n[pieces]\nblue = "all"\nBlue = "L5"\n') == (
        "bad.toml:5: keys 'blue' and 'Blue' in [pieces] both name blue (colour names ignore case): keep one"
    )
    assert error('[board]\nsize = "6x6"\nstarts = {blue = "a1", BLUE = "a6"}\n[pieces]\nblue = "all"\n') == (
        "bad.toml:3: keys 'blue' and 'BLUE' in [board.starts] both name blue (colour names ignore case): keep one"
    )
    assert error('[board]\nsize = "6x6"\n[board.starts]\nred = "a1"\n" Red" = "a2"\n[pieces]\nred = "all"\n') == (
        "bad.toml:5: keys 'red' and ' Red' in [board.starts] both name red (colour names ignore case): keep one"
    )


@pytest.mark.parametrize(
    "target,message",
    [
        ("[]", "target [] names no colour"),
        ('""', "target '' names no colour"),
        ('"+"', "target '+' names no colour"),
        ('" + "', "target ' + ' names no colour"),
        ('"blue+"', "target 'blue+' has an empty colour name"),
        ('["blue", ""]', "target ['blue', ''] has an empty colour name"),
    ],
)
def test_empty_target_is_an_error(target, message):
    text = GOOD + f'[goal]\ntype = "maximize"\ntarget = {target}\n'
    hint = ': write a colour or colours joined by "+"' if "no colour" in message else ': join colours by one "+"'
    assert error(text) == f'bad.toml:7: {message}{hint}, e.g. "blue+red"'


def test_odd_values_found_by_fuzzing():
    # a number of thousands of digits made int() raise ValueError inside tomllib
    assert error("description = " + "9" * 5000 + "\n" + GOOD) == (
        "bad.toml:1: TOML error: a number of thousands of digits (TOML integers have up to 19)"
    )
    # a hexadecimal one parses, but repr() of it raised ValueError
    assert error("description = 0x" + "f" * 5000 + "\n" + GOOD) == (
        "bad.toml:1: description must be a string, not 0x" + "f" * 26 + "..." + "f" * 28
    )
    # quoted values are shortened (a message quoted a whole 256 KiB row or string)
    assert error('[board]\nrows = "' + "#" * 600 + 'q"\n[pieces]\nblue = "all"\n') == (
        "bad.toml:2: unknown character 'q' in board row '" + "#" * 27 + "..." + "#" * 27 + "q'"
        " (known: . # * x B Y R G b y r g)"
    )
    assert error('[board]\nsize = "6x6"\nstarts = {blue = "a' + "9" * 5000 + '"}\n[pieces]\nblue = "all"\n') == (
        "bad.toml:3: bad start square 'a" + "9" * 26 + "..." + "9" * 28 + "': not a square"
    )
    assert error("name = 1979-05-27\n" + GOOD) == "bad.toml:1: name must be a string, not 1979-05-27"
    assert error('[board]\nsize = "6x6"\n[pieces]\nblue = [true]\n') == (
        f"bad.toml:4: blue: true is not a piece name (known: {' '.join(p.name for p in PIECES)})"
    )
    # rows in a one-line string are all on its line; CR of CRLF and tabs are spacing
    assert error('[board]\nrows = "b..\\n.q."\n[pieces]\nblue = "all"\n').startswith("bad.toml:2: unknown character 'q'")
    p = parse_puzzle('[board]\nrows = "b\\t.\\r\\n.\\t."\n[pieces]\nblue = "all"\n')
    assert (p.board.width, p.board.height, p.board.starts[BLUE]) == (2, 2, {0})
    # lines are counted at "\n" only, as TOML counts them (U+2028 shifted the count)
    assert error('description = "a\u2028b\u2028c"\n[board]\nsize = "6x6"\n[pieces]\nblue = "Q7"\n').startswith(
        "bad.toml:5: blue: unknown piece name 'Q7'"
    )
    # a byte order mark, as some editors write, is allowed
    assert parse_puzzle("\ufeff" + GOOD).colors == (BLUE,)


def test_too_long_file(tmp_path):
    path = tmp_path / "long.toml"
    path.write_text(GOOD + "# " + "x" * MAX_FILE_SIZE + "\n")
    with pytest.raises(PuzzleError) as e:
        load_puzzle(path)
    assert str(e.value) == f"{path}:5: the file is too long: over 262144 bytes (puzzle files are a few KB)"
    assert error(GOOD + "\n" * MAX_FILE_SIZE) == (
        f"bad.toml:{MAX_FILE_SIZE - len(GOOD) + 5}: the file is too long: over 262144 characters"
        " (puzzle files are a few KB)"
    )
