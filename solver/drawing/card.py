"""Challenge cards to print: the board with its clues and, below it, the
pieces to place; the answer on an image of its own; a booklet PDF of many
cards, then all their answers, one per page.

A card is drawn as :mod:`solver.drawing.render` draws a puzzle (same
palette, outlines, start disc, stars and x marks), with the task in one
line under the board and a band of the pieces to use, each in blue with
its name, turned to lie flat (the fewest rows). PNG and SVG come from the
suffix of the path; the booklet uses matplotlib's PDF backend, with no
dates in it, so the same cards give the same file.
"""

from __future__ import annotations

import io
import os
from typing import Sequence

from solver import files
from solver.core.pieces import PIECES
from solver.core.placements import Placement
from solver.drawing.render import (
    OUTLINE_HEX, PT, RenderError, _figure, _solution_scene, _encode, check_output, image_format,
)
from solver.puzzle.definition import Puzzle

CARD_PX = 600  # image width


def _task_line(puzzle: Puzzle) -> str:
    n = sum(len(ps) for ps in puzzle.pieces.values())
    what = f"place the {n} pieces below"
    if puzzle.stars:
        return f"{what} and cover every star"
    if puzzle.empty:
        return f"{what}, leaving every x empty"
    if puzzle.setup_of(puzzle.colors[0]):
        return f"{what} to join the blue pieces into one group"
    return f"{what} into the open squares"


def _flat(piece: int) -> tuple[tuple[int, int], ...]:
    """The piece's orientation with the fewest rows (then the first)."""
    return min(PIECES[piece].orientations, key=lambda cells: (max(r for r, _ in cells), cells))


def _tray_height(puzzle: Puzzle, width: int) -> tuple[int, float]:
    """The tray band's height in pixels and its cell size."""
    n = max(1, sum(len(ps) for ps in puzzle.pieces.values()))
    slot = (width * 0.94) / n
    cell = min(width / 22, slot / 6.5)
    return round(cell * 5.2), cell


def _draw_tray(fig, puzzle: Puzzle, band_px: int, cell: float) -> None:
    """The pieces to place in a row in the band at the bottom, each in its
    colour with its name under it."""
    from matplotlib.patches import Rectangle

    width = fig.get_figwidth() * fig.dpi
    ax = fig.add_axes((0, 0, 1, band_px / (fig.get_figheight() * fig.dpi)))
    ax.set_xlim(0, width)
    ax.set_ylim(0, band_px)
    ax.set_axis_off()
    from solver.drawing.render import PAINTS

    shown = [(c, i) for c in puzzle.colors for i in puzzle.pieces[c]]
    slot = width * 0.94 / max(1, len(shown))
    for k, (c, i) in enumerate(shown):
        cells = _flat(i)
        rows, cols = max(r for r, _ in cells) + 1, max(q for _, q in cells) + 1
        x0 = width * 0.03 + k * slot + (slot - cols * cell) / 2
        y0 = band_px - cell * 0.6 - (3 - rows) * cell / 2
        paint = PAINTS[puzzle.color_name(c)]
        for r, q in cells:
            ax.add_patch(Rectangle((x0 + q * cell, y0 - (r + 1) * cell), cell, cell, facecolor=paint.fill,
                                   edgecolor=OUTLINE_HEX, linewidth=max(1.0, cell / 14) * PT))
        ax.text(x0 + cols * cell / 2, cell * 0.9, PIECES[i].name, ha="center", va="center",
                fontsize=cell * 0.55 * PT, color="#222222")


def _card_figure(puzzle: Puzzle, size_px: int = CARD_PX):
    scene = _solution_scene(puzzle, [], False, puzzle.name, (), _task_line(puzzle))
    scene.legend = []
    band, cell = _tray_height(puzzle, size_px)
    fig = _figure(scene, size_px, band)
    _draw_tray(fig, puzzle, band, cell)
    return fig


def _answer_figure(puzzle: Puzzle, solution: Sequence[tuple[int, Placement]], size_px: int = CARD_PX):
    scene = _solution_scene(puzzle, list(solution), True, f"{puzzle.name}: answer", (), "the one solution")
    scene.legend = []
    return _figure(scene, size_px)


def _write(fig, path: str | os.PathLike) -> None:
    files.write_file(path, _encode(fig, check_output(path, ("png", "svg"))), RenderError)


def render_card(puzzle: Puzzle, path: str | os.PathLike | None = None, *, size_px: int = CARD_PX,
                fmt: str = "png") -> bytes | None:
    """A challenge's card: the board, the task and the pieces to place.
    Writes ``path`` (.png or .svg) and returns None, or returns the bytes."""
    fig = _card_figure(puzzle, size_px)
    if path is None:
        return _encode(fig, image_format(f"x.{fmt}", ("png", "svg")))
    _write(fig, path)
    return None


def render_answer(puzzle: Puzzle, solution: Sequence[tuple[int, Placement]], path: str | os.PathLike | None = None,
                  *, size_px: int = CARD_PX, fmt: str = "png") -> bytes | None:
    """The answer to a card: the board with the solution, numbered in play order."""
    fig = _answer_figure(puzzle, solution, size_px)
    if path is None:
        return _encode(fig, image_format(f"x.{fmt}", ("png", "svg")))
    _write(fig, path)
    return None


def check_booklet(path: str | os.PathLike) -> None:
    """Refuse a booklet path before any work (a .pdf in a folder that exists)."""
    check_output(path, ("pdf",))


def write_booklet(path: str | os.PathLike, cards: Sequence[tuple[Puzzle, Sequence[tuple[int, Placement]]]]) -> None:
    """All cards, then all answers, one per page, as one PDF written whole."""
    from matplotlib.backends.backend_pdf import PdfPages

    check_booklet(path)
    buf = io.BytesIO()
    with PdfPages(buf, metadata={"CreationDate": None, "ModDate": None, "Creator": "blokus generate",
                                 "Producer": None}) as pdf:
        for puzzle, _ in cards:
            pdf.savefig(_card_figure(puzzle))
        for puzzle, solution in cards:
            pdf.savefig(_answer_figure(puzzle, solution))
    files.write_file(path, buf.getvalue(), RenderError)
