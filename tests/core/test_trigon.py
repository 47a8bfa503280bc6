"""Blokus Trigon: the 22 pieces, Pentobi's placement counts, legal
moves against a slow reference written from plane geometry (it shares no
code with the board or the tables), record round trips in the three Trigon
games, shared starting points and scores with both bonus cases."""

from __future__ import annotations

import random

import pytest

from solver.core import reference
from solver.core.geometry import NUM_COLORS, TRIANGLE
from solver.core.pieces import PIECES, TRIGON_PIECES, TRIGON_SET, is_monomino, piece_by_name
from solver.core.placements import placement_table
from solver.core.position import Move, Position
from solver.core.variants import TRIGON, TRIGON_2, TRIGON_3
from solver.formats.sgf import read_record, write_record

ORIENTATIONS = {
    "I6": 6, "L6": 12, "V": 6, "S": 6, "P6": 12, "F": 12, "W": 6, "A6": 6, "G": 12, "Y": 12, "X": 3, "O": 1,
    "I5": 6, "L5": 12, "C5": 6, "P5": 12, "I4": 6, "C4": 6, "A4": 2, "I3": 6, "2": 3, "1": 2,
}


def test_22_pieces_of_110_triangles():
    assert [p.name for p in TRIGON_SET] == list(ORIENTATIONS)
    assert sum(p.size for p in TRIGON_SET) == 110 and all(p.grid == TRIANGLE for p in TRIGON_SET)
    assert {p.name: len(p.orientations) for p in TRIGON_SET} == ORIENTATIONS
    assert piece_by_name("i6", TRIANGLE).index == TRIGON_PIECES[0]
    assert piece_by_name("1", TRIANGLE) is not piece_by_name("1")  # one triangle, one square
    assert [p.name for p in TRIGON_SET if is_monomino(p.index)] == ["1"]


@pytest.mark.parametrize("variant, cells, placements", [(TRIGON, 486, 32131), (TRIGON_3, 384, 24859)])
def test_boards_and_placement_counts(variant, cells, placements):
    """Pentobi's counts (libpentobi_base/Move.h)."""
    b = variant.board
    assert b.size - len(b.outside) == cells
    assert len(placement_table(b)) == placements


def _reference_moves(pos: Position, color: int) -> set[frozenset]:
    b = pos.board
    cells = {(sq % b.width, sq // b.width): b.points_up(sq) for sq in range(b.size) if sq not in b.outside}
    occupied = {(sq % b.width, sq // b.width): c for c in range(NUM_COLORS) for sq in range(b.size)
                if pos.occupied[c] >> sq & 1}
    starts = {(sq % b.width, sq // b.width) for sq in b.starts[color]}
    hand = {PIECES[i].name for i in pos.pieces_left(color)}
    return reference.trigon_legal_moves(cells, occupied, color, hand, starts)


def _fast_moves(pos: Position, color: int) -> set[frozenset]:
    b, t = pos.board, pos.table
    return {frozenset((sq % b.width, sq // b.width) for sq in t.squares[p]) for p in pos.legal_placements(color)}


@pytest.mark.parametrize("variant", [TRIGON, TRIGON_3])
def test_first_moves_against_the_reference(variant):
    pos = Position(variant)
    moves = _fast_moves(pos, 0)
    assert len(moves) == 2478 and moves == _reference_moves(pos, 0)


def test_legal_moves_against_the_reference_in_a_game():
    """Every colour's moves at a few plies of a seeded random game: starting
    points taken by others, corners, sides and the end of the game."""
    rng = random.Random(4)
    pos = Position(TRIGON)
    checked = 0
    while pos.to_move is not None:
        if len(pos.history) in (5, 40):
            for c in (pos.to_move, (pos.to_move + 2) % NUM_COLORS):
                assert _fast_moves(pos, c) == _reference_moves(pos, c), (len(pos.history), c)
                checked += 1
        pos.push(Move(pos.to_move, rng.choice(pos.legal_placements())))
    assert checked == 4


def test_starting_points_are_shared():
    """Any colour may start on any free starting point; a point covered by
    one colour is gone for the others."""
    pos = Position(TRIGON)
    first = next(p for p in pos.legal_placements(0) if pos.table.name(p).endswith("r15") or "r15" in pos.table.name(p))
    pos.push(Move(0, first))
    r15 = pos.board.parse_square("r15")
    assert all(not pos.table.mask[p] >> r15 & 1 for p in pos.legal_placements(1))
    assert any(pos.table.mask[p] >> pos.board.parse_square("j7") & 1 for p in pos.legal_placements(1))


@pytest.mark.parametrize("variant", [TRIGON, TRIGON_2, TRIGON_3])
def test_generated_games_round_trip(variant):
    rng = random.Random(11)
    pos = Position(variant)
    while pos.to_move is not None:
        pos.push(Move(pos.to_move, rng.choice(pos.legal_placements())))
    text = write_record(pos)
    assert text.startswith(f"(\n;GM[{variant.game}]")
    back = read_record(text).position()
    assert back.state_key() == pos.state_key() and back.history == pos.history
    ids = {line[1:line.index("[")] for line in text.splitlines()[2:-1]}
    assert ids <= {str(c + 1) for c in variant.colors}
    assert len(variant.colors) == (3 if variant is TRIGON_3 else 4)


def test_scores_with_both_bonuses():
    """+15 with every piece placed, +20 when the one triangle went last."""
    for last, expect in (("1", 20), ("2", 15)):
        pos = Position(TRIGON)
        t = pos.table
        rest = [i for i in pos.pieces_left(0) if PIECES[i].name != last]
        placements, used = [], 0
        for i in rest:  # set up the others anywhere they fit (set-up ignores contact)
            p = next(p for p in t.by_piece[i] if not t.mask[p] & used)
            placements.append(p)
            used |= t.mask[p]
        pos.setup({0: placements}, to_move=0)
        moves = [p for p in pos.legal_placements(0) if PIECES[t.piece[p]].name == last]
        pos.push(Move(0, moves[0]))
        assert pos.squares_left(0) == 0 and pos.score(0) == expect
        assert pos.score(1) == -110


def test_moves_parse_as_pentobi_writes_them():
    rec = read_record("(;GM[Blokus Trigon];1[r12,r13,s13,r14,s14,r15];2[j7,k7,l7,m7,n7,m8])")
    pos = rec.position()
    assert [pos.table.name(p) for _, p in pos.history] == ["r12,r13,s13,r14,s14,r15", "j7,k7,l7,m7,n7,m8"]
    assert [PIECES[pos.table.piece[p]].name for _, p in pos.history] == ["V", "P6"]
    with pytest.raises(ValueError, match="off the 35x18 board"):
        read_record("(;GM[Blokus Trigon];1[a1])").position()


def test_both_engines_agree_on_trigon_solo_optima():
    """Late positions of seeded games: the search engine and the CP-SAT
    model (written over the geometry) prove the same solo optimum, and every
    answer passes the verifier (solving.solve checks them)."""
    from solver.endgame.analysis import solo_puzzle
    from solver.solving import solve

    proven = 0
    for seed, variant, plies in ((0, TRIGON, 60), (3, TRIGON_3, 44)):
        rng = random.Random(seed)
        pos = Position(variant)
        while pos.to_move is not None and len(pos.history) < plies:
            pos.push(Move(pos.to_move, rng.choice(pos.legal_placements())))
        for c in variant.colors:
            if pos.hand[c] and pos.legal_placements(c):
                result = solve(solo_puzzle(pos, c), "both", time_limit=30, workers=1)
                assert result.disagreement is None
                proven += result.status.value == "OPTIMAL"
    assert proven >= 3
