"""Regenerate the README sample images in docs/: ``python docs/make_images.py``.

- ``docs/solo-21.png``: the solo-21 challenge solved by the search engine,
  pieces numbered in play order.
- ``docs/endgame-2p.png``: puzzles/games/sample-2p.blksgf after move 56,
  with placements of the colour to move highlighted. For now these are
  non-overlapping legal moves (largest first), a stand-in until the endgame
  analysis supplies the optimal placements.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the working tree's solver, not an installed copy

from solver.geometry import COLORS
from solver.puzzle_file import load_puzzle
from solver.render import render_position, render_solution
from solver.search import solve
from solver.sgf import load_record
from solver.verify import verify  # noqa: E402 (after the path set-up)

DOCS = ROOT / "docs"


def solo_21() -> Path:
    puzzle = load_puzzle(ROOT / "puzzles" / "solo-21.toml")
    result = solve(puzzle, time_limit=60, seed=0)
    order = verify(puzzle, result.placements).order
    out = DOCS / "solo-21.png"
    render_solution(puzzle, order, out, numbers=True, title=f"solo-21: {result.status.value}",
                    note="all 21 blue pieces from a20, numbered in play order")
    return out


def endgame_2p(move: int = 56, count: int = 4) -> Path:
    pos = load_record(str(ROOT / "puzzles" / "games" / "sample-2p.blksgf")).position(move)
    color = pos.to_move
    t = pos.table
    picked, used, taken = [], set(), 0
    for p in sorted(pos.legal_placements(color), key=lambda p: (-len(t.squares[p]), t.name(p))):
        if t.piece[p] not in used and not t.mask[p] & taken and len(picked) < count:
            picked.append((color, p))
            used.add(t.piece[p])
            taken |= t.mask[p] | t.edge[p]
    out = DOCS / "endgame-2p.png"
    render_position(pos, out, highlights=picked, title=f"sample-2p.blksgf: move {move}",
                    note=f"after {move} moves, {COLORS[color]} to move; hatched: {COLORS[color]} placements")
    return out


if __name__ == "__main__":
    for path in (solo_21(), endgame_2p()):
        print(path.relative_to(ROOT))
