"""Blokus Duo, Junior and Three-Player: boards, pieces, legal
moves against the slow reference generator, turn order with forced passes,
scores with both bonus cases, record round trips and bad records."""

from __future__ import annotations

import json
import random

import pytest

from solver.cli import main
from solver.core import reference
from solver.core.geometry import NUM_COLORS
from solver.core.pieces import CLASSIC_SET as PIECES
from solver.core.pieces import piece_by_name
from solver.core.placements import placement_table
from solver.core.position import Move, Position
from solver.core.variants import CLASSIC_3, DUO, JUNIOR, VARIANTS, variant_by_game
from solver.errors import RecordError
from solver.formats.sgf import read_record, write_record
from tests.util import ROOT

TWO_COLOR = [DUO, JUNIOR]


def reference_moves(pos: Position, color: int) -> set[frozenset]:
    """The slow generator's moves, from the board as (row, col) squares."""
    b = pos.board
    grid = {b.row_col(sq): c for c in range(NUM_COLORS) for sq in range(b.size) if pos.occupied[c] >> sq & 1}
    hand = {PIECES[i].name for i in pos.pieces_left(color)}
    starts = {b.row_col(s) for s in b.starts[color]}
    return reference.legal_moves(grid, b.height, b.width, color, hand, starts)


def fast_moves(pos: Position, color: int) -> set[frozenset]:
    t, b = pos.table, pos.board
    return {frozenset(b.row_col(s) for s in t.squares[p]) for p in pos.legal_placements(color)}


def random_game(variant, seed: int, max_moves: int | None = None) -> Position:
    rng = random.Random(seed)
    pos = Position(variant)
    while pos.to_move is not None and (max_moves is None or len(pos.history) < max_moves):
        pos.push(Move(pos.to_move, rng.choice(pos.legal_placements())))
    return pos


# -- boards and pieces ---------------------------------------------------------------------

def test_duo_board_and_placements():
    """Pentobi's counts: 13,729 placements of the 21 pieces on 14x14; Duo
    starts on e10 (colour 0) and j5 (colour 1)."""
    assert len(placement_table(DUO.board)) == 13729
    b = DUO.board
    assert [b.square_names(b.start_masks[c]) for c in range(NUM_COLORS)] == [["e10"], ["j5"], [], []]
    assert JUNIOR.board == DUO.board


def test_junior_piece_set():
    """12 pieces, two of each, 88 squares per colour; no bonuses."""
    names = sorted(PIECES[i].name for i in JUNIOR.pieces)
    assert names == sorted("1 2 I3 V3 I4 L4 O T4 Z4 I5 L5 P".split())
    pos = Position(JUNIOR)
    assert pos.squares_left(0) == 88 and len(pos.pieces_left(0)) == 24
    assert not JUNIOR.bonus and DUO.bonus and CLASSIC_3.bonus


def test_variant_names_and_lookup():
    assert [v.game for v in VARIANTS.values()] == [
        "Blokus", "Blokus Two-Player", "Blokus Three-Player", "Blokus Duo", "Blokus Junior",
        "Blokus Trigon", "Blokus Trigon Two-Player", "Blokus Trigon Three-Player"]
    assert variant_by_game("  blokus DUO ") is DUO
    assert [DUO.names[c] for c in DUO.colors] == ["purple", "orange"]
    assert [JUNIOR.names[c] for c in JUNIOR.colors] == ["green", "orange"]
    assert [DUO.color_index(t) for t in ("purple", "B", "1", "p", "orange", "W", "2", "o")] == [0] * 4 + [1] * 4


# -- legal moves ---------------------------------------------------------------------------

@pytest.mark.parametrize("variant, first", [(DUO, 414), (JUNIOR, 189)])
def test_first_moves_on_the_empty_board(variant, first):
    pos = Position(variant)
    for c in variant.colors:
        moves = fast_moves(pos, c)
        assert len(moves) == first
        assert moves == reference_moves(pos, c)
    assert [len(pos.legal_placements(c)) for c in range(2, NUM_COLORS)] == [0, 0]


@pytest.mark.parametrize("variant", TWO_COLOR + [CLASSIC_3])
@pytest.mark.parametrize("seed", range(3))
def test_legal_moves_agree_with_the_reference_every_ply(variant, seed):
    rng = random.Random(seed)
    pos = Position(variant)
    while pos.to_move is not None:
        for c in variant.colors:
            if len(pos.history) % 3 == 0 or c == pos.to_move:  # every colour at every third ply
                assert fast_moves(pos, c) == reference_moves(pos, c), (len(pos.history), c)
        pos.push(Move(pos.to_move, rng.choice(pos.legal_placements())))


@pytest.mark.parametrize("variant", TWO_COLOR + [CLASSIC_3])
@pytest.mark.parametrize("seed", range(4))
def test_forced_passes_and_the_end_of_the_game(variant, seed):
    """After every move the next colour in rotation that can move moves
    (others pass, and never move again); the game ends when none can."""
    end = random_game(variant, seed)
    pos = Position(variant)
    can_move = set(variant.colors)
    for c, p in end.history:
        assert pos.to_move == c
        pos.push(Move(c, p))
        movers = [o for o in range(NUM_COLORS) if reference_moves(pos, o)]
        assert set(movers) <= can_move  # a colour that could not move never can again
        can_move = set(movers)
        rotation = [(c + k) % NUM_COLORS for k in range(1, NUM_COLORS + 1)]
        expected = next((o for o in rotation if o in can_move), None)
        assert pos.to_move == expected
    assert pos.game_over and not can_move


# -- scores ----------------------------------------------------------------------------------

def test_bonuses_per_variant():
    """Duo: +15 for placing everything, +20 with the monomino last; Junior:
    no bonus at all. Built by set-up of every piece but one, then a move."""
    for variant, bonus in ((DUO, True), (JUNIOR, False)):
        for last_name, expect in (("1", 20), ("2", 15)):
            pos = _finish_with(variant, last_name)
            assert pos.squares_left(0) == 0
            assert pos.score(0) == (expect if bonus else 0)


def pentobi_points(pos: Position, c: int) -> int:
    """Points as Pentobi counts them (Board::get_points): the squares of the
    colour on the board, +15 once every piece is placed, +5 more when the
    last one was the monomino; no bonus in Junior."""
    on_board = pos.occupied[c].bit_count()
    if not pos.variant.bonus or pos.squares_left(c):
        return on_board
    last = [p for col, p in pos.history if col == c][-1:]
    return on_board + 15 + (5 if last and PIECES[pos.table.piece[last[0]]].size == 1 else 0)


@pytest.mark.parametrize("variant", [v for v in VARIANTS.values() if v.board.grid == "square"], ids=lambda v: v.key)
def test_points_are_pentobi_s(variant):
    for seed in range(4):
        pos = random_game(variant, seed)
        for c in variant.colors:
            assert pos.points(c) == pentobi_points(pos, c)
    for last_name in ("1", "2"):
        if variant in (DUO, JUNIOR):
            pos = _finish_with(variant, last_name)
            assert pos.points(0) == pentobi_points(pos, 0)


def test_show_gives_the_points_pentobi_shows(capsys):
    """The sample game's end as Pentobi shows it: 62, 79, 62 and 56 points."""

    game = ROOT / "puzzles" / "games" / "sample-4p.blksgf"
    assert main(["show", str(game)]) == 0
    out = capsys.readouterr().out
    assert "Scores (advanced): blue -27  yellow -10  red -27  green -33" in out
    assert "Points (as Pentobi shows them, 89 + the score): blue 62  yellow 79  red 62  green 56" in out


def _finish_with(variant, last_name: str) -> Position:
    """Colour 0 has every piece but ``last_name`` set up (packed in rows from
    the top left: set-up pieces may touch) and plays ``last_name`` last."""
    pos = Position(variant)
    t, board = pos.table, pos.board
    rest = pos.pieces_left(0)
    rest.remove(piece_by_name(last_name).index)
    placements, row, col, tallest = [], 0, 0, 0
    for i in sorted(rest, key=lambda i: -PIECES[i].size):
        shape = PIECES[i].orientations[0]
        width, height = 1 + max(c for _, c in shape), 1 + max(r for r, _ in shape)
        if col + width > board.width:
            row, col, tallest = row + tallest, 0, 0
        placements.append(t.find([board.square(row + r, col + c) for r, c in shape]))
        col, tallest = col + width, max(tallest, height)
    pos.setup({0: placements}, to_move=0)
    last = next(p for p in pos.legal_placements(0) if PIECES[t.piece[p]].name == last_name)
    pos.push(Move(0, last))
    return pos


# -- records ---------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", TWO_COLOR + [CLASSIC_3])
@pytest.mark.parametrize("seed", range(3))
def test_generated_games_round_trip(variant, seed):
    end = random_game(variant, seed)
    text = write_record(end)
    assert text.startswith(f"(\n;GM[{variant.game}]")
    rec = read_record(text)
    assert rec.variant is variant and rec.move_count == len(end.history)
    back = rec.position()
    assert back.state_key() == end.state_key() and back.history == end.history
    assert write_record(back) == text
    ids = {line[1:line.index("[")] for line in text.splitlines()[2:-1]}
    assert ids <= {variant.move_ids[c] for c in variant.colors}


def test_duo_record_in_pentobi_style():
    """B/W moves, AB/AW set-up and PL[W] as Pentobi writes them; 1 and 2 are
    read as the two colours too."""
    text = "(;GM[Blokus Duo]AB[e10]AW[j5]PL[W]\n;W[i4,i3]\n;1[f9,f8])"
    pos = read_record(text).position()
    assert [pos.name(c) for c, _ in pos.history] == ["orange", "purple"]
    assert pos.to_move == 1
    again = write_record(pos)
    assert "AB[e10]AW[j5]PL[W]" in again and ";W[i3,i4]" in again and ";B[f8,f9]" in again


def test_three_player_shared_color_turns():
    """Green's k-th piece (set-up pieces count) is played by player k mod 3."""
    end = random_game(CLASSIC_3, 5)
    pos = Position(CLASSIC_3)
    greens = 0
    for c, p in end.history:
        if c == 3:
            assert pos.shared_player() == greens % 3
            greens += 1
        pos.push(Move(c, p))
    assert greens >= 6
    assert end.player_scores() == end.scores()[:3]


@pytest.mark.parametrize("text, message", [
    ("(;GM[Blokus Duo];B[o1])", "square 'o1' is off the 14x14 board"),
    ("(;GM[Blokus Duo];B[a1])", "purple's first piece must cover its start square e10"),
    ("(;GM[Blokus Duo];W[e10])", "orange's first piece must cover its start square j5"),
    ("(;GM[Blokus Duo];B[e10];W[j5];B[d11])", "purple has already used piece 1"),
    ("(;GM[Blokus Duo];B[e10];W[j5];B[f10,g10])", "f10 shares an edge with a purple piece"),
    ("(;GM[Blokus Duo]AB[e10][e10,f10])", "overlaps another piece"),
    ("(;GM[Blokus Duo]A3[a1])", "set-up 'a1': colour 3 does not play in Blokus Duo"),
    ("(;GM[Blokus Duo]PL[3])", "PL[3] is not a colour (B or W)"),
    ("(;GM[Blokus Duo];B[e10];B[e11,e12])", "e11 shares an edge with a purple piece"),
    # a move of a colour Duo lacks: refused, not skipped (the rest would be replayed without it)
    ("(;GM[Blokus Duo];3[a1])", "property 3 is not used in GM[Blokus Duo] (colours are B and W, or 1 and 2)"),
])
def test_malformed_duo_records(tmp_path, capsys, text, message):
    path = tmp_path / "duo.blksgf"
    path.write_text(text, encoding="utf-8")
    code = main(["show", str(path), "--json"])
    out = capsys.readouterr()
    assert code == 2 and out.err.startswith("blokus: error: ") and message in out.err


def test_show_json_lists_the_variant_colors(tmp_path, capsys):
    end = random_game(DUO, 1)
    path = tmp_path / "duo.blksgf"
    path.write_text(write_record(end), encoding="utf-8")
    assert main(["show", str(path), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["variant"] == "Blokus Duo"
    assert list(obj["scores"]) == list(obj["pieces_left"]) == ["purple", "orange"]
    assert obj["seat_scores"] == {"purple": end.score(0), "orange": end.score(1)}
    assert main(["moves", str(path), "--move", "3", "--json", "--color", "W"]) == 0
    moves = json.loads(capsys.readouterr().out)
    assert list(moves["legal_counts"]) == ["purple", "orange"] and moves["color"] == "orange"


def test_bad_color_names_the_variant(tmp_path, capsys):
    path = tmp_path / "duo.blksgf"
    path.write_text("(;GM[Blokus Duo];B[e10])", encoding="utf-8")
    assert main(["moves", str(path), "--color", "blue"]) == 2
    assert "unknown colour 'blue' in Blokus Duo (known: purple orange)" in capsys.readouterr().err


def test_a_record_error_names_the_move():
    with pytest.raises(RecordError, match=r"move 2 \(line 1\)"):
        read_record("(;GM[Blokus Junior];B[e10];W[a1])").position()


# -- puzzles ----------------------------------------------------------------------------------

def test_a_duo_puzzle_in_a_few_lines():
    from solver.formats.puzzle_file import parse_puzzle, puzzle_to_toml

    p = parse_puzzle('variant = "duo"\n[pieces]\npurple = "all"\n', "duo.toml")
    assert p.variant is DUO and p.board == DUO.board and p.colors == (0,) and len(p.pieces[0]) == 21
    assert parse_puzzle(puzzle_to_toml(p), "duo.toml") == p
    drawn = parse_puzzle('variant = "duo"\n[board]\nrows = """\np . .\n. O .\n. . ."""\n[pieces]\npurple = "1"\n')
    assert drawn.board.starts[0] == {0} and len(drawn.setup[1]) == 1


@pytest.mark.parametrize("text, message", [
    ('variant = "callisto"\n[pieces]\nblue = "1"\n',
     "unknown variant 'callisto' (known: classic classic_2 classic_3 duo junior trigon trigon_2 trigon_3)"),
    ('variant = "duo"\n[pieces]\nblue = "1"\n', "unknown colour 'blue' (known: purple orange)"),
    ('variant = "duo"\n[board]\nrows = "B.."\n[pieces]\npurple = "1"\n', "unknown character 'B'"),
])
def test_bad_variant_puzzles(text, message):
    from solver.errors import PuzzleError
    from solver.formats.puzzle_file import parse_puzzle

    with pytest.raises(PuzzleError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_puzzle(text, "bad.toml")


def test_duo_solo_challenge_is_solved_by_both_engines():

    from solver.formats.puzzle_file import load_puzzle
    from solver.solving import solve

    puzzle = load_puzzle(ROOT / "puzzles" / "duo-solo-21.toml")
    result = solve(puzzle, "both", time_limit=60)
    assert result.disagreement is None and result.status.value == "OPTIMAL" and len(result.order) == 21


# -- analysis ---------------------------------------------------------------------------------

def _shared_minimax(pos: Position, player: int) -> int:
    """Brute force for the Three-Player game: the player's colour and, when
    it is the player's turn with green, green maximise the player's score."""
    if pos.game_over:
        return pos.score(player)
    c = pos.to_move
    mine = c == player or (c == CLASSIC_3.shared and _green_turn(pos) == player)
    values = []
    for p in pos.legal_placements():
        pos.push(Move(c, p))
        values.append(_shared_minimax(pos, player))
        pos.pop()
    return max(values) if mine else min(values)


def _tree_size(pos: Position, cap: int) -> int:
    """Final positions below pos, counted up to just over ``cap``."""
    if pos.game_over:
        return 1
    n = 0
    for p in pos.legal_placements():
        pos.push(Move(pos.to_move, p))
        n += _tree_size(pos, cap - n)
        pos.pop()
        if n > cap:
            break
    return n


def _green_turn(pos: Position) -> int:
    """Whose turn with green: counted here from the board, not asked."""
    greens = sum(1 for c, _ in pos.history if c == 3) + len(pos.initial_setup[3])
    return greens % 3


def test_three_player_guaranteed_scores_follow_the_shared_color():
    from solver.endgame.analysis import analyze

    checked = 0
    for seed in range(40):
        end = random_game(CLASSIC_3, seed)
        pos = Position(CLASSIC_3)
        for c, p in end.history[: len(end.history) - 5]:
            pos.push(Move(c, p))
        if pos.game_over or 3 not in {c for c, _ in end.history[len(pos.history):]}:
            continue  # green has no say in the rest of this game
        if _tree_size(pos, 20_000) > 20_000:
            continue  # too many lines for the brute force
        a = analyze(pos.copy(), two_player=False, time_limit=60)
        for player in range(3):
            assert a.colors[player].guaranteed == _shared_minimax(pos, player)
        assert a.colors[3].guaranteed is None
        checked += 1
        if checked == 2:
            break
    assert checked == 2


def test_junior_solo_optimum_by_play():
    """Junior (pieces twice, no bonus): the solo optimum comes from a
    one-colour game tree; it is the best of every way to play on alone."""
    from solver.endgame.analysis import analyze

    end = random_game(JUNIOR, 2)
    pos = Position(JUNIOR)
    for c, p in end.history[: len(end.history) - 4]:
        pos.push(Move(c, p))
    a = analyze(pos.copy(), two_player=True, time_limit=60)
    for c in JUNIOR.colors:
        report = a.colors[c]
        assert report.proven
        alone = pos.copy()
        alone.hand[1 - c] = alone.spare[1 - c] = 0
        alone.cands[1 - c] = ()
        alone.to_move = c if alone.has_legal_move(c) else None
        assert report.solo_optimum == _best_alone(alone, c)
        for color, p in report.placements:  # the line reaching it is legal, in order
            alone.push(alone.check_move(Move(color, p)) or Move(color, p))
        assert alone.score(c) == report.solo_optimum


def _best_alone(pos: Position, c: int) -> int:
    if pos.to_move is None:
        return pos.score(c)
    best = -10**9
    for p in pos.legal_placements():
        pos.push(Move(c, p))
        best = max(best, _best_alone(pos, c))
        pos.pop()
    return best
