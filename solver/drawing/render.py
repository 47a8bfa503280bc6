"""Images of boards: positions, puzzles and their solutions, game animations.

PNG and SVG come from matplotlib (a ``Figure`` with its own Agg canvas, so no
pyplot and no global backend state), GIF from Pillow. The rules core never
imports this module; ``Position._repr_png_`` and ``Puzzle._repr_png_``
import it lazily for notebooks.

Colours are the Okabe-Ito palette, chosen to stay distinguishable with the
common forms of colour blindness: blue ``#0072B2``, yellow ``#F0E442``, red
(vermillion) ``#D55E00``, green (bluish green) ``#009E73``. Every piece also
gets a thick dark outline, so pieces are told apart by shape as well as by
colour; blocked squares are dark grey. Marks: a start square holds a disc in
its colour, a star square a star, a square that must stay empty an x, the
last move a black dot in each of its squares; suggested placements
(highlights) are a translucent, hatched fill in the colour with an outline in
a dark shade of it.

Layout: the image is ``size_px`` wide (default 600), the board centred under
a title band with column letters above and below and row numbers on both
sides (``a20`` top left, as in the text notation), and a legend below
(one swatch per colour with its score or pieces, then a note line).
:func:`square_pixel` gives the pixel centre of a square in such an image.

Triangle boards (Blokus Trigon) are drawn as triangles: a column is half a
side wide, a row sqrt(3)/2 sides high, so every cell is equilateral; cells
outside the board (the corners around Trigon's hexagon) are not drawn, and
the outline runs around the hexagon. A starting point open to several
colours (all six on Trigon) is a neutral dark disc: nested discs of four
colours would not fit in a triangle, and a colour disc would say the point
belongs to that colour. Column letters run straight above and below the
board; row numbers sit just outside each row's first and last cell.
"""

from __future__ import annotations

import io
import math
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, NamedTuple, Sequence, Union

from solver import files
from solver.core.geometry import COLORS, NUM_COLORS, TRIANGLE, Board, column_name
from solver.core.placements import Placement, placement_table
from solver.core.position import Position
from solver.core.text import counted
from solver.core.variants import CLASSIC, Variant
from solver.errors import OutputError
from solver.files import check_writable
from solver.puzzle.definition import Puzzle


class Paint(NamedTuple):
    """How one colour is drawn: its fill, a dark shade of it (highlight
    outlines and hatching) and the move-number text colour on it (the one
    with the better contrast)."""

    fill: str
    dark: str
    text: str


PAINTS: dict[str, Paint] = {
    "blue": Paint("#0072B2", "#00466E", "#FFFFFF"),
    "yellow": Paint("#F0E442", "#8A8200", "#000000"),
    "red": Paint("#D55E00", "#843A00", "#000000"),  # vermillion
    "green": Paint("#009E73", "#005C44", "#000000"),  # bluish green
    "purple": Paint("#CC79A7", "#7A3F66", "#000000"),  # reddish purple (Duo)
    "orange": Paint("#E69F00", "#7F5800", "#000000"),  # (Duo, Junior)
    "": Paint("#FFFFFF", "#000000", "#000000"),  # a colour slot not in the game
}
"""The Okabe-Ito palette by colour name."""
COLOR_HEX: tuple[str, ...] = tuple(PAINTS[n].fill for n in COLORS)
"""Fill colour per classic colour index (blue, yellow, red, green)."""
EMPTY_HEX = "#FFFFFF"
BLOCKED_HEX = "#4D4D4D"
GRID_HEX = "#BDBDBD"
OUTLINE_HEX = "#1A1A1A"
SHARED_START_HEX = "#5A5A5A"  # triangle grid: a starting point open to several colours
FORMATS = ("png", "svg", "gif")
DPI = 100
PT = 72 / DPI  # points per pixel: line widths and font sizes are in points

Highlight = tuple[Union[int, str], Union[Placement, str, Iterable[int]]]
"""A suggested placement: (colour index or name, placement index, move text
such as ``"a20,b20,b19"``, or square indices)."""


class RenderError(OutputError, ValueError):
    """An image cannot be written (unknown format, unwritable path)."""


# -- layout -------------------------------------------------------------------

@dataclass(frozen=True)
class Layout:
    """Pixel geometry of an image (y counted from the top)."""

    width: int  # image width in pixels
    height: int  # image height in pixels
    cell: int  # square side in pixels (triangle grid: a column's width, half a side)
    left: int  # x of the board's left edge
    top: int  # y of the board's top edge
    label: int  # height of the coordinate bands
    title: int  # height of the title band
    legend: int  # height of the legend band
    pad: int


def layout(board: Board, size_px: int = 600) -> Layout:
    """The layout of an image of ``board`` that is ``size_px`` wide (100 to
    5000; wider only when the board has more columns than fit at 4 pixels a
    square)."""
    if not 100 <= size_px <= 5000:
        raise RenderError(f"image width {size_px} px is out of range (100 to 5000)")
    s = int(size_px)
    label, title, legend, pad = round(0.045 * s), round(0.06 * s), round(0.09 * s), round(0.015 * s)
    if board.grid == TRIANGLE:
        return _triangle_layout(board, s, label, title, legend, pad)
    cell = max((s - 2 * (label + pad)) // board.width, 4)
    width = max(s, board.width * cell + 2 * (label + pad))
    height = pad + title + label + board.height * cell + label + legend + pad
    left = (width - board.width * cell) // 2
    return Layout(width, height, cell, left, pad + title + label, label, title, legend, pad)


def _triangle_layout(board: Board, s: int, label: int, title: int, legend: int, pad: int) -> Layout:
    """The layout of a triangle board: ``width + 1`` half sides across,
    rows sqrt(3) half sides high."""
    cell = max((s - 2 * (label + pad)) // (board.width + 1), 4)
    board_w, board_h = _extent(board, cell)
    width = max(s, board_w + 2 * (label + pad))
    height = pad + title + label + board_h + label + legend + pad
    return Layout(width, height, cell, (width - board_w) // 2, pad + title + label, label, title, legend, pad)


_ROW = math.sqrt(3)
"""Triangle grid: a row's height in half sides (the data unit across)."""


def _extent(board: Board, cell: int) -> tuple[int, int]:
    """The board's width and height in pixels."""
    if board.grid == TRIANGLE:
        return (board.width + 1) * cell, round(board.height * _ROW * cell)
    return board.width * cell, board.height * cell


def square_pixel(board: Board, sq: int, size_px: int = 600) -> tuple[float, float]:
    """Pixel (x, y) of the centre of square ``sq`` in an image rendered at
    ``size_px`` (y from the top, as image libraries count); on the triangle
    grid, of the triangle's centroid."""
    lay = layout(board, size_px)
    row, col = board.row_col(sq)
    if board.grid == TRIANGLE:
        down = 2 / 3 if board.points_up(sq) else 1 / 3  # the centroid, from the row's top line
        return lay.left + (col + 1) * lay.cell, lay.top + (row + down) * _extent(board, lay.cell)[1] / board.height
    return lay.left + (col + 0.5) * lay.cell, lay.top + (row + 0.5) * lay.cell


# -- what to draw -------------------------------------------------------------

@dataclass
class _Scene:
    board: Board
    pieces: list[tuple[int, tuple[int, ...], int | None]]  # (colour, squares, move number)
    stars: frozenset[int] = frozenset()
    empty: frozenset[int] = frozenset()
    highlights: Sequence[tuple[int, tuple[int, ...]]] = ()
    last: tuple[int, ...] = ()
    numbers: bool = False
    title: str = ""
    legend: Sequence[tuple[int, str]] = ()  # (colour, label)
    note: str = ""
    paints: tuple[Paint, ...] = tuple(PAINTS[n] for n in COLORS)  # per colour slot
    playing: frozenset[int] = frozenset(range(NUM_COLORS))  # colours whose free start squares get a disc


def _resolve_highlights(board: Board, highlights: Iterable[Highlight],
                        variant: Variant = CLASSIC) -> list[tuple[int, tuple[int, ...]]]:
    table = placement_table(board)
    out = []
    for color, what in highlights:
        c = variant.color_index(color) if isinstance(color, str) else int(color)
        if isinstance(what, str):
            what = table.parse(what)
        squares = tuple(table.squares[what]) if isinstance(what, int) else tuple(what)
        out.append((c, squares))
    return out


def _position_scene(pos: Position, numbers: bool, title: str | None, highlights: Iterable[Highlight],
                    last_move: bool, note: str | None) -> _Scene:
    t = pos.table
    pieces = [(c, t.squares[p], None) for c in range(NUM_COLORS) for p in pos.initial_setup[c]]
    pieces += [(c, t.squares[p], i) for i, (c, p) in enumerate(pos.history, start=1)]
    last = t.squares[pos.history[-1].placement] if last_move and pos.history else ()
    scores = pos.scores()
    legend = [(c, f"{pos.name(c)} {scores[c]:+d}") for c in pos.variant.colors]
    if note is None:
        turn = "game over" if pos.game_over else f"{pos.name(pos.to_move)} to move"
        note = f"after {len(pos.history)} moves, {turn}"
    return _Scene(pos.board, pieces, highlights=_resolve_highlights(pos.board, highlights, pos.variant),
                  last=tuple(last), numbers=numbers, title=title or "", legend=legend, note=note,
                  paints=tuple(PAINTS[n] for n in pos.variant.names), playing=frozenset(pos.variant.colors))


def _solution_scene(puzzle: Puzzle, placements: Sequence[tuple[int, Placement]], numbers: bool,
                    title: str | None, highlights: Iterable[Highlight], note: str | None) -> _Scene:
    t = puzzle.table
    pieces = [(c, t.squares[p], None) for c, ps in puzzle.setup.items() for p in ps]
    pieces += [(c, t.squares[p], i) for i, (c, p) in enumerate(placements, start=1)]
    legend = []
    for c in range(NUM_COLORS):
        if c in puzzle.colors:
            placed = sum(1 for col, _ in placements if col == c)
            legend.append((c, f"{puzzle.color_name(c)} {placed}/{len(puzzle.pieces[c])}"))
        elif puzzle.setup_of(c):
            legend.append((c, f"{puzzle.color_name(c)} (set-up)"))
    if note is None:
        note = f"goal: {puzzle.goal}" + (f", {counted(len(puzzle.stars), 'star')} to cover" if puzzle.stars else "")
        note += f", {counted(len(puzzle.empty), 'square')} to leave empty" if puzzle.empty else ""
    return _Scene(puzzle.board, pieces, stars=puzzle.stars, empty=puzzle.empty,
                  highlights=_resolve_highlights(puzzle.board, highlights, puzzle.variant), numbers=numbers,
                  title=puzzle.name if title is None else title, legend=legend, note=note,
                  paints=tuple(PAINTS[puzzle.color_name(c)] for c in range(NUM_COLORS)),
                  playing=frozenset(puzzle.colors))


# -- drawing ------------------------------------------------------------------

def _boundary(board: Board, region: dict[int, object], thick) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Unit segments (data coordinates) between edge neighbours a, b (or a
    and the outside, b = None) for which ``thick(region.get(a), region.get(b))``."""
    W, H = board.width, board.height
    segs = []
    for r in range(H):
        for c in range(W):
            a = region.get(r * W + c)
            y0, y1 = H - 1 - r, H - r
            right = region.get(r * W + c + 1) if c + 1 < W else None
            below = region.get((r + 1) * W + c) if r + 1 < H else None
            if thick(a, right):
                segs.append(((c + 1, y0), (c + 1, y1)))
            if thick(a, below):
                segs.append(((c, y0), (c + 1, y0)))
            if c == 0 and thick(a, None):
                segs.append(((0, y0), (0, y1)))
            if r == 0 and thick(a, None):
                segs.append(((c, H), (c + 1, H)))
    return segs


def _figure(scene: _Scene, size_px: int, extra_px: int = 0):
    """Draw a scene on a new matplotlib Figure: the squares, highlights,
    piece outlines, marks, move numbers, coordinates, title and legend, in
    that order (later ones on top). ``extra_px``: an empty band that high
    under the legend (a card's pieces go there)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    lay = layout(scene.board, size_px)
    lay = replace(lay, height=lay.height + extra_px)
    fig = Figure(figsize=(lay.width / DPI, lay.height / DPI), dpi=DPI, facecolor="white")
    FigureCanvasAgg(fig)
    ax = _board_axes(fig, scene.board, lay)
    owner, region = _owners(scene)
    grid = _TRIANGLE_STEPS if scene.board.grid == TRIANGLE else _SQUARE_STEPS
    grid.cells(ax, scene.board, lay, {sq: scene.paints[c].fill for sq, c in owner.items()})
    for c, sqs in scene.highlights:
        grid.highlight(ax, scene.board, lay, scene.paints[c], sqs)
    grid.outlines(ax, scene.board, lay, region)
    _draw_start_discs(ax, scene.board, lay, owner, scene.paints, scene.playing)
    _draw_stars_and_xs(ax, scene, lay, owner)
    numbered = _draw_numbers(ax, scene, lay) if scene.numbers else set()
    _draw_last_move(ax, scene, lay, numbered)
    grid.coordinates(ax, scene.board, lay)
    _draw_title(fig, scene.title, lay, size_px)
    _draw_legend(fig, scene, lay, size_px)
    return fig


def _board_axes(fig, board: Board, lay: Layout):
    """Axes over the board's pixels, y up: one data unit per square (on the
    triangle grid: per half side, a row sqrt(3) high)."""
    board_w, board_h = _extent(board, lay.cell)
    ax = fig.add_axes((lay.left / lay.width, 1 - (lay.top + board_h) / lay.height,
                       board_w / lay.width, board_h / lay.height))
    if board.grid == TRIANGLE:
        ax.set_xlim(0, board.width + 1)
        ax.set_ylim(0, board.height * _ROW)
    else:
        ax.set_xlim(0, board.width)
        ax.set_ylim(0, board.height)
    ax.set_axis_off()
    return ax


def _centre(board: Board, sq: int) -> tuple[float, float]:
    """Data coordinates of the centre of square ``sq`` (of a triangle's centroid)."""
    r, c = divmod(sq, board.width)
    if board.grid == TRIANGLE:
        return c + 1, (board.height - r - (2 / 3 if board.points_up(sq) else 1 / 3)) * _ROW
    return c + 0.5, board.height - r - 0.5


def _mark_px(board: Board, lay: Layout) -> float:
    """The size marks and numbers scale with: a square's side, a triangle's
    inscribed circle (side / sqrt(3))."""
    return 2 * lay.cell / _ROW if board.grid == TRIANGLE else lay.cell


def _owners(scene: _Scene) -> tuple[dict[int, int], dict[int, object]]:
    """The colour on each covered square, and the region each square
    belongs to for outlines (the piece's number, or ``#`` if blocked)."""
    owner: dict[int, int] = {}
    region: dict[int, object] = {sq: "#" for sq in scene.board.blocked}
    for i, (c, sqs, _) in enumerate(scene.pieces):
        for sq in sqs:
            owner[sq] = c
            region[sq] = i
    return owner, region


def _draw_squares(ax, b: Board, lay: Layout, fills: dict[int, str]) -> None:
    """Every square filled (colour, empty or blocked) with a thin grid line."""
    from matplotlib.collections import PolyCollection

    W, H = b.width, b.height
    faces = []
    polys = []
    for sq in range(b.size):
        r, c = divmod(sq, W)
        polys.append(((c, H - r - 1), (c + 1, H - r - 1), (c + 1, H - r), (c, H - r)))
        faces.append(BLOCKED_HEX if sq in b.blocked else fills.get(sq, EMPTY_HEX))
    ax.add_collection(PolyCollection(polys, facecolors=faces, edgecolors=GRID_HEX,
                                     linewidths=max(0.5, lay.cell / 40) * PT, antialiased=False))


def _draw_highlight(ax, b: Board, lay: Layout, paint: Paint, sqs: tuple[int, ...]) -> None:
    """A suggested placement: translucent hatched squares in its colour,
    with an outline in the colour's dark shade."""
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Rectangle

    for sq in sqs:
        x, y = _centre(b, sq)
        ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor=paint.fill, alpha=0.45,
                               edgecolor=paint.dark, hatch="///", linewidth=0))
    segs = _boundary(b, {sq: 1 for sq in sqs}, lambda a, z: (a is None) != (z is None))
    ax.add_collection(LineCollection(segs, colors=paint.dark, linewidths=max(1.5, lay.cell / 10) * PT,
                                     capstyle="projecting"))


def _draw_outlines(ax, b: Board, lay: Layout, region: dict[int, object]) -> None:
    """A thick dark line around every piece, and around the board."""
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Rectangle

    def piece_edge(a, z) -> bool:
        return a != z and (isinstance(a, int) or isinstance(z, int))

    thick = max(1.5, lay.cell / 9) * PT
    ax.add_collection(LineCollection(_boundary(b, region, piece_edge), colors=OUTLINE_HEX,
                                     linewidths=thick, capstyle="projecting"))
    ax.add_patch(Rectangle((0, 0), b.width, b.height, fill=False, edgecolor=OUTLINE_HEX, linewidth=thick,
                           clip_on=False))


def _marks(ax, b: Board, squares: Iterable[int], **style) -> None:
    """One marker at the centre of each square (matplotlib ``plot`` style)."""
    pts = [_centre(b, sq) for sq in sorted(squares)]  # (sorted: a set gives the same file in every process)
    if pts:
        ax.plot([p[0] for p in pts], [p[1] for p in pts], linestyle="none", **style)


def _draw_start_discs(ax, b: Board, lay: Layout, owner: dict[int, int], paints: tuple[Paint, ...],
                      playing: frozenset[int]) -> None:
    """A disc in its colour on each free start square of a colour that
    plays; a square shared by colours gets nested discs (on the triangle
    grid one neutral disc)."""
    cell_pt = _mark_px(b, lay) * PT
    starts = [b.starts[c] if c in playing else frozenset() for c in range(NUM_COLORS)]
    shared_starts: set[int] = set()
    if b.grid == TRIANGLE:
        shared_starts = {sq for sq in set().union(*starts) if sum(sq in s for s in starts) > 1}
        _marks(ax, b, sorted(shared_starts - owner.keys()), marker="o", markersize=cell_pt * 0.55,
               markerfacecolor=SHARED_START_HEX, markeredgecolor=OUTLINE_HEX, markeredgewidth=max(0.8, lay.cell / 30) * PT)
    for c in range(NUM_COLORS):
        free = [sq for sq in starts[c] if sq not in owner and sq not in shared_starts]
        for k in range(c + 1):
            shared = [sq for sq in free if sum(sq in starts[o] for o in range(c)) == k]
            _marks(ax, b, shared, marker="o", markersize=cell_pt * (0.55 - 0.12 * k), markerfacecolor=paints[c].fill,
                   markeredgecolor=OUTLINE_HEX, markeredgewidth=max(0.8, lay.cell / 30) * PT)


def _draw_stars_and_xs(ax, scene: _Scene, lay: Layout, owner: dict[int, int]) -> None:
    """Star squares (dark star, white once covered) and the x of squares
    that must stay empty."""
    b, cell_pt = scene.board, _mark_px(scene.board, lay) * PT
    for covered in (False, True):
        stars = [sq for sq in scene.stars if (sq in owner) == covered]
        _marks(ax, b, stars, marker="*", markersize=cell_pt * 0.7, markerfacecolor="white" if covered else "#222222",
               markeredgecolor="#222222", markeredgewidth=max(0.6, lay.cell / 40) * PT)
    _marks(ax, b, scene.empty, marker="x", markersize=cell_pt * 0.5, markeredgecolor="#555555",
           markeredgewidth=max(1.0, lay.cell / 12) * PT)


def _draw_numbers(ax, scene: _Scene, lay: Layout) -> set[int]:
    """Each placed piece's move number on its square nearest its centre
    (the last move's in a white disc). Returns the squares used."""
    b, cell_pt = scene.board, _mark_px(scene.board, lay) * PT
    numbered: set[int] = set()
    for c, sqs, n in scene.pieces:
        if n is None:
            continue
        mx = sum(_centre(b, sq)[0] for sq in sqs) / len(sqs)
        my = sum(_centre(b, sq)[1] for sq in sqs) / len(sqs)
        free = [s for s in sqs if s not in scene.stars] or list(sqs)  # not over a star's mark
        sq = min(free, key=lambda s: ((_centre(b, s)[0] - mx) ** 2 + (_centre(b, s)[1] - my) ** 2, s))
        numbered.add(sq)
        is_last = set(sqs) == set(scene.last)
        ax.text(*_centre(b, sq), str(n), ha="center", va="center_baseline", color="black" if is_last else scene.paints[c].text,
                fontsize=min(cell_pt * (0.55 if n < 100 else 0.42), 16), fontweight="bold",
                bbox=dict(boxstyle="circle,pad=0.12", facecolor="white", edgecolor="black",
                          linewidth=0.8) if is_last else None)
    return numbered


def _draw_last_move(ax, scene: _Scene, lay: Layout, numbered: set[int]) -> None:
    """A black dot on each square of the last move that carries no number."""
    _marks(ax, scene.board, [sq for sq in scene.last if sq not in numbered], marker="o",
           markersize=_mark_px(scene.board, lay) * PT * 0.3, markerfacecolor="black", markeredgecolor="white",
           markeredgewidth=max(0.6, lay.cell / 40) * PT)


def _draw_coordinates(ax, b: Board, lay: Layout) -> None:
    """Column letters above and below the board, row numbers left and right."""
    W, H = b.width, b.height
    font = min(0.5 * lay.cell, 0.55 * lay.label) * PT
    gap = (lay.label / 2) / lay.cell  # band centre, in squares
    for col in range(W):
        for y in (-gap, H + gap):
            ax.text(col + 0.5, y, column_name(col), ha="center", va="center", fontsize=font,
                    color="#333333", clip_on=False)
    for row in range(H):
        for x in (-gap, W + gap):
            ax.text(x, H - row - 0.5, str(H - row), ha="center", va="center", fontsize=font,
                    color="#333333", clip_on=False)


# -- the triangle grid: the same steps drawn as triangles ---------------------------

def _triangle_points(b: Board, sq: int) -> tuple[tuple[float, float], ...]:
    """Data coordinates of a triangle's corners: the two ends of its
    horizontal side, then its apex."""
    r, c = divmod(sq, b.width)
    top, bottom = (b.height - r) * _ROW, (b.height - r - 1) * _ROW
    if b.points_up(sq):
        return (c, bottom), (c + 2, bottom), (c + 1, top)
    return (c, top), (c + 2, top), (c + 1, bottom)


def _triangle_sides(b: Board, sq: int):
    """The three sides of a triangle: (the board cell across it, or None
    when the outside is, the side's two ends)."""
    r, c = divmod(sq, b.width)
    left, right, apex = _triangle_points(b, sq)

    def across(row: int, col: int) -> int | None:
        n = row * b.width + col
        return n if b.on_board(row, col) and n not in b.outside else None

    return ((across(r, c - 1), left, apex), (across(r, c + 1), right, apex),
            (across(r + (1 if b.points_up(sq) else -1), c), left, right))


def _triangle_boundary(b: Board, region: dict[int, object], thick) -> list:
    """Sides between board cells a, z (or a and the outside, z = None) for
    which ``thick(region.get(a), region.get(z))``, each side once."""
    segs = []
    for sq in range(b.size):
        if sq in b.outside:
            continue
        for n, p, q in _triangle_sides(b, sq):
            if (n is None or n > sq) and thick(region.get(sq), None if n is None else region.get(n)):
                segs.append((p, q))
    return segs


def _draw_triangles(ax, b: Board, lay: Layout, fills: dict[int, str]) -> None:
    """Every cell of the board as a triangle (colour, empty or blocked) with
    a thin grid line; cells outside the board are left out."""
    from matplotlib.collections import PolyCollection

    cells = [sq for sq in range(b.size) if sq not in b.outside]
    faces = [BLOCKED_HEX if sq in b.blocked else fills.get(sq, EMPTY_HEX) for sq in cells]
    ax.add_collection(PolyCollection([_triangle_points(b, sq) for sq in cells], facecolors=faces,
                                     edgecolors=GRID_HEX, linewidths=max(0.5, lay.cell / 20) * PT))


def _draw_triangle_highlight(ax, b: Board, lay: Layout, paint: Paint, sqs: tuple[int, ...]) -> None:
    """A suggested placement on triangles, drawn as on squares."""
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Polygon

    for sq in sqs:
        ax.add_patch(Polygon(_triangle_points(b, sq), closed=True, facecolor=paint.fill, alpha=0.45,
                             edgecolor=paint.dark, hatch="///", linewidth=0))
    segs = _triangle_boundary(b, {sq: 1 for sq in sqs}, lambda a, z: (a is None) != (z is None))
    ax.add_collection(LineCollection(segs, colors=paint.dark, linewidths=max(1.5, lay.cell / 5) * PT,
                                     capstyle="round"))


def _draw_triangle_outlines(ax, b: Board, lay: Layout, region: dict[int, object]) -> None:
    """A thick dark line around every piece, and around the board's shape
    (round caps: the sides meet at 60 degrees)."""
    from matplotlib.collections import LineCollection

    def piece_edge(a, z) -> bool:
        return a != z and (isinstance(a, int) or isinstance(z, int))

    board = {sq: 1 for sq in range(b.size) if sq not in b.outside}
    segs = _triangle_boundary(b, region, piece_edge) + _triangle_boundary(b, board, lambda a, z: z is None)
    ax.add_collection(LineCollection(segs, colors=OUTLINE_HEX, linewidths=max(1.5, lay.cell / 4.5) * PT,
                                     capstyle="round", clip_on=False))


def _draw_triangle_coordinates(ax, b: Board, lay: Layout) -> None:
    """Column letters in straight lines above and below the board (a column
    is a vertical strip of triangles), each row's number just outside its
    first and last cell."""
    W, H = b.width, b.height
    # a column is half a side wide: letters as wide as it allows (two-letter names a little narrower),
    # row numbers as large as the label band allows
    letter = min(1.0 * lay.cell, 0.6 * lay.label) * PT
    number = 0.55 * lay.label * PT
    gap_x = (lay.label / 2) / lay.cell
    gap_y = (lay.label / 2) / (_extent(b, lay.cell)[1] / (H * _ROW))
    style = dict(ha="center", va="center", color="#333333", clip_on=False)
    for col in range(W):
        if any(r * W + col not in b.outside for r in range(H)):
            name = column_name(col)
            for y in (-gap_y, H * _ROW + gap_y):
                ax.text(col + 1, y, name, fontsize=letter * (0.72 if len(name) > 1 else 1), **style)
    for row in range(H):
        cols = [c for c in range(W) if row * W + c not in b.outside]
        if cols:
            for x in (cols[0] - gap_x, cols[-1] + 2 + gap_x):
                ax.text(x, (H - row - 0.5) * _ROW, str(H - row), fontsize=number, **style)


class _GridSteps(NamedTuple):
    """The drawing steps that differ between the grids."""

    cells: object
    highlight: object
    outlines: object
    coordinates: object


_SQUARE_STEPS = _GridSteps(_draw_squares, _draw_highlight, _draw_outlines, _draw_coordinates)
_TRIANGLE_STEPS = _GridSteps(_draw_triangles, _draw_triangle_highlight, _draw_triangle_outlines,
                             _draw_triangle_coordinates)


def _draw_title(fig, title: str, lay: Layout, size_px: int) -> None:
    """The title, bold, centred in the title band."""
    if title:
        fig.text(0.5, 1 - (lay.pad + lay.title / 2) / lay.height, title, ha="center", va="center",
                 fontsize=0.032 * size_px * PT, fontweight="bold")


def _draw_legend(fig, scene: _Scene, lay: Layout, size_px: int) -> None:
    """The legend band under the board: a swatch and a label per colour on
    one line, the note centred on the next."""
    from matplotlib.patches import Rectangle

    s = lay.width
    band_top = lay.top + _extent(scene.board, lay.cell)[1] + lay.label
    line_h = lay.legend / 2
    legend_font = 0.024 * size_px * PT
    if scene.legend:
        slot = (s - 2 * lay.pad) / len(scene.legend)
        y = band_top + line_h / 2
        box = 0.55 * line_h
        for i, (c, label) in enumerate(scene.legend):
            x = lay.pad + i * slot + slot / 2 - 0.9 * box - 0.5 * len(label) * legend_font / PT * 0.55
            fig.add_artist(Rectangle((x / s, 1 - (y + box / 2) / lay.height), box / s, box / lay.height,
                                     facecolor=scene.paints[c].fill, edgecolor=OUTLINE_HEX, linewidth=1.2 * PT,
                                     transform=fig.transFigure))
            fig.text((x + 1.4 * box) / s, 1 - y / lay.height, label, ha="left", va="center",
                     fontsize=legend_font)
    if scene.note:
        fig.text(0.5, 1 - (band_top + 1.5 * line_h) / lay.height, scene.note, ha="center", va="center",
                 fontsize=legend_font, color="#444444")


# -- output -------------------------------------------------------------------

def image_format(path: str | os.PathLike, allowed: Sequence[str] = FORMATS) -> str:
    """The format named by the path's suffix; RenderError when unknown."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in allowed:
        what = f"unknown image format {'.' + suffix!r}" if suffix else "no image format suffix"
        raise RenderError(f"{path}: {what} (use {', '.join('.' + f for f in allowed)})")
    return suffix


def check_output(path: str | os.PathLike, allowed: Sequence[str] = FORMATS) -> str:
    """Check an output path before any work: a known suffix, an existing
    folder that takes a new file. Returns the format."""
    if Path(path).is_dir():
        raise RenderError(f"{path}: cannot write: it is a folder")
    fmt = image_format(path, allowed)
    check_writable(path, RenderError)
    return fmt


def _write_image(path: str | os.PathLike, data: bytes) -> None:
    """Write an image all or nothing (see :func:`solver.files.write_file`)."""
    files.write_file(path, data, RenderError)


def _rgb_image(fig):
    from PIL import Image

    fig.canvas.draw()
    w, h = fig.canvas.get_width_height()
    return Image.frombuffer("RGBA", (w, h), fig.canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert("RGB")


def _encode(fig, fmt: str) -> bytes:
    buf = io.BytesIO()
    if fmt == "gif":
        _rgb_image(fig).quantize(colors=64, dither=0).save(buf, format="GIF")
    else:
        import matplotlib

        metadata = {"Date": None} if fmt == "svg" else {"Software": None}
        with matplotlib.rc_context({"svg.hashsalt": "blokus"}):  # the same ids every time: the same image, the same file
            fig.savefig(buf, format=fmt, dpi=DPI, facecolor="white", metadata=metadata)
    return buf.getvalue()


def _output(fig, path, fmt: str | None) -> bytes | None:
    if path is None:
        return _encode(fig, image_format(f"x.{fmt or 'png'}"))
    _write_image(path, _encode(fig, check_output(path)))
    return None


# -- public entry points ----------------------------------------------------------

def render_position(position: Position, path: str | os.PathLike | None = None, *, numbers: bool = False,
                    title: str | None = None, highlights: Iterable[Highlight] = (), last_move: bool = True,
                    note: str | None = None, size_px: int = 600, fmt: str | None = None) -> bytes | None:
    """Draw a position, optionally with highlighted placements (suggested
    moves: (colour, placement index or squares)). Writes ``path`` (format
    from its suffix: .png, .svg, .gif) and returns None, or returns the
    image bytes (``fmt``, default png) when ``path`` is None. ``numbers``
    puts each piece's move number on it; ``note`` replaces the line under
    the scores (default: moves played and whose turn it is)."""
    return _output(_figure(_position_scene(position, numbers, title, highlights, last_move, note), size_px),
                   path, fmt)


def render_solution(puzzle: Puzzle, placements: Sequence[tuple[int, Placement]] = (),
                    path: str | os.PathLike | None = None, *, numbers: bool = False, title: str | None = None,
                    highlights: Iterable[Highlight] = (), note: str | None = None, size_px: int = 600,
                    fmt: str | None = None) -> bytes | None:
    """Draw a puzzle (board, set-up, start, star and x squares) with the
    placements of a solution ((colour, placement), numbered in this order).
    With no placements it draws the puzzle itself. Output as in
    :func:`render_position`."""
    return _output(_figure(_solution_scene(puzzle, placements, numbers, title, highlights, note), size_px),
                   path, fmt)


def replay(position: Position) -> list[Position]:
    """The positions from the initial set-up to ``position``, one per move."""
    pos = Position(position.variant)
    setup = {c: list(ps) for c, ps in enumerate(position.initial_setup) if ps}
    if setup:
        pos.setup(setup, position.initial_to_move)
    frames = [pos.copy()]
    for move in position.history:
        pos.push(move)
        frames.append(pos.copy())
    return frames


def render_animation(position: Position, path: str | os.PathLike | None = None, *, numbers: bool = False,
                     title: str | None = None, size_px: int = 600, frame_ms: int = 700,
                     last_frame_ms: int = 3000) -> bytes | None:
    """An animated GIF of the game that led to ``position``: one frame for
    the initial board (empty or set up) and one per move, so
    ``len(position.history) + 1`` frames; the last one stays longer. Writes
    ``path`` (must end in .gif) or returns the bytes."""
    if path is not None:
        check_output(path, allowed=("gif",))
    figures = (_figure(_position_scene(pos, numbers, title, (), True, None), size_px) for pos in replay(position))
    return _write_gif(figures, path, frame_ms, last_frame_ms)


def render_solution_animation(puzzle: Puzzle, placements: Sequence[tuple[int, Placement]],
                              path: str | os.PathLike | None = None, *, numbers: bool = True,
                              title: str | None = None, size_px: int = 600, frame_ms: int = 500,
                              last_frame_ms: int = 3000) -> bytes | None:
    """An animated GIF of a solution placed piece by piece in the order
    given (a play order): the puzzle first, then one frame per placement.
    Writes ``path`` (must end in .gif) or returns the bytes."""
    if path is not None:
        check_output(path, allowed=("gif",))
    figures = (_figure(_solution_scene(puzzle, placements[:k], numbers, title, (), None), size_px)
               for k in range(len(placements) + 1))
    return _write_gif(figures, path, frame_ms, last_frame_ms)


def _write_gif(figures, path, frame_ms: int, last_frame_ms: int) -> bytes | None:
    """Frames (figures, drawn one at a time) as an animated GIF on one
    palette, the last's: written to ``path`` or returned."""
    from PIL import Image

    frames = [_rgb_image(fig) for fig in figures]
    palette = frames[-1].quantize(colors=64, dither=Image.Dither.NONE)
    images = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    durations = [frame_ms] * (len(images) - 1) + [last_frame_ms]
    buf = io.BytesIO()
    images[0].save(buf, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0,
                   disposal=1)
    if path is None:
        return buf.getvalue()
    _write_image(path, buf.getvalue())
    return None


def legal_highlights(position: Position, color: int | str, limit: int | None = None) -> list[Highlight]:
    """Highlights for the legal moves of a colour (at most ``limit``, largest
    pieces first): a quick way to show where a colour can still play."""
    c = position.variant.color_index(color) if isinstance(color, str) else color
    t = position.table
    moves = sorted(position.legal_placements(c), key=lambda p: (-len(t.squares[p]), t.name(p)))
    return [(c, p) for p in moves[:limit]]

