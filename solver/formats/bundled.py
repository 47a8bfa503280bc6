"""The puzzles and sample games that come with the package, by name.

The files live in the repository's ``puzzles/`` folder (games in
``puzzles/games/``); an install ships them inside the package as
``solver.bundled_puzzles`` (pyproject.toml maps that folder), so
``blokus solve solo-21`` works wherever the package is installed, not
only in a clone. A command's FILE argument that is no file but the name
of a bundled one (with or without its suffix) means that one.
"""

from __future__ import annotations

from pathlib import Path

PUZZLE_SUFFIX, GAME_SUFFIX = ".toml", ".blksgf"


def folder() -> Path:
    """The folder of the bundled files: the installed package data, else
    (running from a clone) the repository's ``puzzles/``."""
    package = Path(__file__).resolve().parent.parent
    installed = package / "bundled_puzzles"
    return installed if installed.is_dir() else package.parent / "puzzles"


def puzzle_files() -> list[Path]:
    return sorted(folder().glob(f"*{PUZZLE_SUFFIX}"))


def game_files() -> list[Path]:
    return sorted((folder() / "games").glob(f"*{GAME_SUFFIX}"))


def find(name: str, suffix: str) -> str | None:
    """The bundled file of that name (``solo-21`` or ``solo-21.toml`` with
    the puzzle suffix; ``sample-duo`` with the game one), or None."""
    wanted = name if name.endswith(suffix) else name + suffix
    for path in puzzle_files() if suffix == PUZZLE_SUFFIX else game_files():
        if path.name == wanted:
            return str(path)
    return None
