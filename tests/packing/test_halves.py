"""The two-colour halves: which puzzles halve and why not; on
small four-colour boards the search finds exactly those packings it looks
for (half-turn symmetric, each half's two colours inside it,
mirror-symmetric there) among all the packings the general waste search
finds (itself checked against a brute force in test_wastefast.py), every
one verified; and it packs all 84 pieces on 18x20."""

from __future__ import annotations

import pytest

from solver.cli import main
from solver.formats.puzzle_file import load_puzzle, parse_puzzle
from solver.packing.halves import HalvesSearch, cuts
from solver.packing.wastefast import CompiledWasteSearch
from solver.puzzle.symmetry import half_turn
from solver.puzzle.verify import verify
from tests.util import ROOT

PUZZLES = ROOT / "puzzles"


def _small(width: int, height: int, pieces: str):
    return parse_puzzle(f"""
name = "four-{width}x{height}"
[board]
size = "{width}x{height}"
starts = "corners"
[pieces]
blue = "{pieces}"
yellow = "{pieces}"
red = "{pieces}"
green = "{pieces}"
""")


def test_the_frontier_puzzles_that_halve_and_why_the_others_do_not():
    found = cuts(load_puzzle(PUZZLES / "frontier-18x20.toml"))
    assert [c.name for c in found] == ["left half", "top half"]
    left, top = (c.half for c in found)
    assert (left.board.width, left.board.height, left.colors, left.spare_squares) == (9, 20, (0, 3), 2)
    assert (top.board.width, top.board.height, top.colors, top.spare_squares) == (18, 10, (0, 1), 2)
    odd = "the spare squares cannot be shared by two halves (an odd number)"
    assert cuts(load_puzzle(PUZZLES / "frontier-21x17.toml")) == odd
    assert cuts(load_puzzle(PUZZLES / "frontier-2c-13x14.toml")) == "it is not a place-all puzzle of four colours"
    assert cuts(load_puzzle(PUZZLES / "frontier-19x19.toml")) == odd
    assert [c.name for c in cuts(_small(8, 5, "1 2 I3"))] == ["left half"]


def _looked_for(puzzle, packing, cut: str) -> bool:
    """Half-turn symmetric, the half's two colours inside it, mirror-symmetric there."""
    b, t = puzzle.board, puzzle.table
    pmap, cmap = half_turn(puzzle)
    if any((cmap[c], pmap[p]) not in packing for c, p in packing):
        return False
    half = {0, 3} if cut == "left" else {0, 1}
    other = 3 if cut == "left" else 1
    inside = lambda s: b.row_col(s)[1] < b.width // 2 if cut == "left" else b.row_col(s)[0] < b.height // 2  # noqa: E731
    mine = [(c, p) for c, p in packing if c in half]
    if not all(inside(s) for _, p in mine for s in t.squares[p]):
        return False
    mirror = (lambda r, c: (b.height - 1 - r, c)) if cut == "left" else (lambda r, c: (r, b.width // 2 * 2 - 1 - c))
    swap = {0: other, other: 0}
    image = {(swap[c], t.find(b.square(*mirror(*b.row_col(s))) for s in t.squares[p])) for c, p in mine}
    return image == set(mine)


# 48, 170, 961 and 644 packings in all; 2 (left), 2 + 2, 7 (left, 3 of them top too) and 6 (top) looked for
@pytest.mark.parametrize("width, height, pieces", [(6, 4, "1 2 V3"), (6, 6, "2 I3 L4"), (6, 4, "1 V3"),
                                                   (4, 6, "2 V3")])
def test_the_halves_find_exactly_the_packings_they_look_for(width, height, pieces):
    puzzle = _small(width, height, pieces)
    every = {frozenset(s) for s in CompiledWasteSearch(puzzle).solutions() if s is not None}
    want = {s for s in every if _looked_for(puzzle, s, "left") or _looked_for(puzzle, s, "top")}
    search = HalvesSearch(puzzle, restart=10**12)  # each run searches its cut through
    got = []
    while not search.finished:
        sol = search.step(1_000)
        if sol is not None:
            verify(puzzle, sol)
            got.append(frozenset(sol))
    assert want and set(got) == want  # (a packing of both kinds comes once from each cut)


def test_the_halves_pack_all_84_pieces_on_18x20():
    puzzle = load_puzzle(PUZZLES / "frontier-18x20.toml")
    search = HalvesSearch(puzzle, seed=3)  # its second run (the top half) packs it
    sol = None
    while sol is None and search.nodes < 2_000_000:
        sol = search.step(200_000)
    assert sol is not None and search.index == 1 and len(sol) == 84
    verify(puzzle, sol)
    partial = search.best_partial()
    assert len(partial) == 84 and search.deepest == 84


def test_the_hybrid_packs_18x20_by_the_halves(tmp_path, capsys):
    out = tmp_path / "18x20.json"
    code = main(["solve", str(PUZZLES / "frontier-18x20.toml"), "--engine", "hybrid", "--seed", "3", "--json"])
    text = capsys.readouterr().out
    out.write_text(text)
    assert code == 0 and '"method": "search: two-colour halves"' in text
    assert main(["solve", str(PUZZLES / "frontier-18x20.toml"), "--check", str(out)]) == 0
