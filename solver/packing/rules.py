"""End-of-search checks shared by the search methods: the rules that a
method's branching does not enforce on its own (start squares, one group
per colour, a play order that ends with the monomino)."""

from __future__ import annotations

from collections import deque

from solver.core.pieces import MONOMINO
from solver.core.placements import Placement, PlacementTable
from solver.puzzle.definition import Connect, Puzzle


def corner_connected(t: PlacementTable, pieces: list[Placement]) -> bool:
    """The pieces form one group under corner contact."""
    if not pieces:
        return True
    group, queue = {pieces[0]}, deque([pieces[0]])
    while queue:
        p = queue.popleft()
        for q in pieces:
            if q not in group and t.corner[p] & t.mask[q]:
                group.add(q)
                queue.append(q)
    return len(group) == len(pieces)


def final_rules_hold(puzzle: Puzzle, placed: list[tuple[int, Placement]], grown: bool) -> bool:
    """Start squares, the ``game`` rule's single group (``grown``: every new
    piece was attached to its colour when placed, so only separate set-up
    groups can break it) and ``monomino_last``, for every colour."""
    t, b = puzzle.table, puzzle.board
    for c in puzzle.colors:
        mine = [p for col, p in placed if col == c]
        given = list(puzzle.setup_of(c))
        if not mine and not given:
            continue
        starts = b.start_masks[c]
        if starts and not any(t.mask[p] & starts for p in mine + given):
            return False
        if puzzle.connect is Connect.GAME and (not grown or len(given) > 1) and not corner_connected(t, mine + given):
            return False
        if puzzle.monomino_last and mine and not _monomino_can_be_last(puzzle, mine, given, starts):
            return False
    return True


def _monomino_can_be_last(puzzle: Puzzle, mine, given, starts: int) -> bool:
    """Some play order of the new pieces ends with the monomino."""
    t = puzzle.table
    mono = [p for p in mine if t.piece[p] == MONOMINO]
    if not mono:
        return False
    rest = [p for p in mine if p != mono[0]] + given
    if puzzle.connect is not Connect.GAME or not rest:
        return True
    if starts and not given and not any(t.mask[p] & starts for p in rest):
        return False
    return corner_connected(t, rest) and any(t.corner[mono[0]] & t.mask[q] for q in rest)
