"""The library's face: what ``import solver`` offers, and the examples of
docs/library.md run as written (a comment on a ``print`` line is what the
line prints)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import solver

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "library.md"


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def checked(block: str) -> str:
    """The block with each top-level ``print(...)  # text`` turned into a
    call that also checks it printed ``text``."""
    lines = []
    for line in block.splitlines():
        if line.startswith("print(") and "  # " in line:
            call, want = line.split("  # ", 1)
            line = f"_check_print({want!r}, {call[len('print('):]}"
        lines.append(line)
    return "\n".join(lines)


def _check_print(want: str, *args) -> None:
    got = " ".join(str(a) for a in args)
    assert got == want, f"docs/library.md says {want!r}, the code prints {got!r}"


def test_every_name_of_the_face_is_there():
    missing = [name for name in solver.__all__ if not hasattr(solver, name)]
    assert missing == []


def test_a_move_is_told_in_words_and_its_squares_read_back():
    record = solver.load_record(str(ROOT / "puzzles" / "games" / "sample-2p.blksgf"))
    pos = record.position(61)
    for move in pos.legal_moves()[:50]:
        color, piece, squares = pos.move_text(move).split(" ")
        assert color == pos.name(move.color)
        assert piece == solver.PIECES[pos.table.piece[move.placement]].name
        assert pos.parse_move(squares) == move


def test_the_library_page_runs_as_written(tmp_path, monkeypatch):
    """Every python block of docs/library.md, in order, in one namespace;
    each print that has a comment prints it."""
    (tmp_path / "puzzles").symlink_to(ROOT / "puzzles")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"_check_print": _check_print}
    blocks = python_blocks(PAGE.read_text())
    assert len(blocks) >= 5
    with contextlib.redirect_stdout(io.StringIO()):
        for block in blocks:
            exec(compile(checked(block), str(PAGE), "exec"), namespace)
    assert (tmp_path / "position.png").stat().st_size > 0
    assert (tmp_path / "solo-21.svg").stat().st_size > 0
