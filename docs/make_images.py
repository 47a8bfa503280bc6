"""Regenerate the README sample images in docs/: ``python docs/make_images.py``.

- ``docs/solo-21.png``: the solo-21 challenge solved by the search engine,
  pieces numbered in play order.
- ``docs/endgame-2p.png``: puzzles/games/sample-2p.blksgf after move 56,
  analysed (about 3 s): the placements reaching the solo optimum of the
  colour to move are hatched; the same as
  ``blokus analyze puzzles/games/sample-2p.blksgf --move 56 --render docs/endgame-2p.png``.
- ``docs/trigon.png``: puzzles/games/sample-trigon.blksgf (a seeded Blokus
  Trigon game, largest piece first) after move 60; the same as
  ``blokus render puzzles/games/sample-trigon.blksgf --move 60 -o docs/trigon.png``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the working tree's solver, not an installed copy

from solver.cli import main  # noqa: E402 (after the path set-up)
from solver.drawing.render import render_solution  # noqa: E402
from solver.formats.puzzle_file import load_puzzle  # noqa: E402
from solver.packing import solve  # noqa: E402
from solver.puzzle.verify import verify  # noqa: E402

DOCS = ROOT / "docs"


def solo_21() -> Path:
    puzzle = load_puzzle(ROOT / "puzzles" / "solo-21.toml")
    result = solve(puzzle, time_limit=60, seed=0)
    order = verify(puzzle, result.placements).order
    out = DOCS / "solo-21.png"
    render_solution(puzzle, order, out, numbers=True, title=f"solo-21: {result.status.value}",
                    note="all 21 blue pieces from a20, numbered in play order")
    return out


def endgame_2p(move: int = 56) -> Path:
    out = DOCS / "endgame-2p.png"
    game = ROOT / "puzzles" / "games" / "sample-2p.blksgf"
    if main(["analyze", str(game), "--move", str(move), "--render", str(out)]) != 0:
        raise SystemExit("the analysis failed")
    return out


def trigon(move: int = 60) -> Path:
    out = DOCS / "trigon.png"
    game = ROOT / "puzzles" / "games" / "sample-trigon.blksgf"
    if main(["render", str(game), "--move", str(move), "-o", str(out)]) != 0:
        raise SystemExit("the render failed")
    return out


if __name__ == "__main__":
    for path in (solo_21(), endgame_2p(), trigon()):
        print(path.relative_to(ROOT))
