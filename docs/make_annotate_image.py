"""Regenerate the README's annotated-game plot: ``python docs/make_annotate_image.py``.

``docs/annotate-duo.png``: puzzles/games/sample-duo.blksgf annotated from
move 20 to the end (every value proven; about 25 s), the same as
``blokus annotate puzzles/games/sample-duo.blksgf --from 20 --time-limit 300 --plot docs/annotate-duo.png``.
``--from`` keeps the picture the same on any machine: without it the walk
goes back as far as the time limit allows, which depends on the machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the working tree's solver, not an installed copy

from solver.cli import main  # noqa: E402 (after the path set-up)


def annotate_duo(first: int = 20) -> Path:
    out = ROOT / "docs" / "annotate-duo.png"
    game = ROOT / "puzzles" / "games" / "sample-duo.blksgf"
    if main(["annotate", str(game), "--from", str(first), "--time-limit", "300", "--plot", str(out)]) != 0:
        raise SystemExit("the annotation failed")
    return out


if __name__ == "__main__":
    print(annotate_duo().relative_to(ROOT))
