from collections import Counter

from solver.core import reference
from solver.core.pieces import CLASSIC_SET as PIECES  # the 21 square pieces (Trigon's: test_trigon.py)
from solver.core.pieces import PIECE_NAMES, canonical, piece_by_name, piece_of_shape

EXPECTED_ORIENTATIONS = {
    "1": 1, "2": 2, "I3": 2, "V3": 4, "I4": 2, "L4": 8, "O": 1, "T4": 4, "Z4": 4,
    "F": 8, "I5": 2, "L5": 8, "N": 8, "P": 8, "T5": 4, "U": 4, "V5": 4, "W": 4,
    "X": 1, "Y": 8, "Z5": 4,
}


def test_21_pieces_89_squares():
    assert len(PIECES) == 21
    assert sum(p.size for p in PIECES) == 89
    assert PIECE_NAMES == tuple("1 2 I3 V3 I4 L4 O T4 Z4 F I5 L5 N P T5 U V5 W X Y Z5".split())
    assert Counter(p.size for p in PIECES) == {1: 1, 2: 1, 3: 2, 4: 5, 5: 12}


def test_91_orientations_with_per_piece_counts():
    assert {p.name: len(p.orientations) for p in PIECES} == EXPECTED_ORIENTATIONS
    assert sum(len(p.orientations) for p in PIECES) == 91


def test_orientations_are_normalised_and_distinct():
    for p in PIECES:
        assert len(set(p.orientations)) == len(p.orientations)
        for o in p.orientations:
            assert min(r for r, _ in o) == 0 and min(c for _, c in o) == 0
            assert list(o) == sorted(o)


def _grow_fixed_polyominoes(max_size):
    """All fixed polyominoes up to max_size, grown cell by cell from a monomino."""
    level = {frozenset([(0, 0)])}
    found = set(level)
    for _ in range(max_size - 1):
        nxt = set()
        for shape in level:
            for r, c in shape:
                for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if n not in shape:
                        grown = shape | {n}
                        r0 = min(x for x, _ in grown)
                        c0 = min(y for _, y in grown)
                        nxt.add(frozenset((x - r0, y - c0) for x, y in grown))
        level = nxt
        found |= nxt
    return found


def test_orientations_are_exactly_the_fixed_polyominoes_up_to_5():
    grown = _grow_fixed_polyominoes(5)
    ours = {frozenset(o) for p in PIECES for o in p.orientations}
    assert len(grown) == 91
    assert ours == grown


def test_reference_module_has_the_same_orientations():
    for p in PIECES:
        assert {frozenset(o) for o in p.orientations} == set(reference.ORIENTATIONS[p.name])


def test_shape_lookup_by_any_orientation():
    for p in PIECES:
        for o in p.orientations:
            assert piece_of_shape(o) is p
            assert canonical(o) == canonical(p.orientations[0])
    assert piece_of_shape(((0, 0), (1, 1))) is None  # corner-touching, not a piece
    assert piece_of_shape(tuple((0, c) for c in range(6))) is None


def test_piece_by_name():
    assert piece_by_name("l5").name == "L5"
    try:
        piece_by_name("Q")
    except ValueError as e:
        assert "unknown piece name 'Q'" in str(e)
    else:
        raise AssertionError("no error")
