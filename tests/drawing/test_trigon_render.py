"""Triangle boards for people: images, text pictures and puzzle
drawings of Blokus Trigon.

Images are read back with Pillow and checked at triangle centroids
(``render.square_pixel``): piece colours, empty, blocked and outside cells,
the neutral disc of a shared starting point. The text picture of the empty
Trigon board has rows of 19 to 35 cells. Puzzle drawings of triangle boards
parse, fail with exact messages, and round-trip through ``puzzle_to_toml``.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from solver.core.position import Position
from solver.core.text import board_picture, board_rows
from solver.core.variants import TRIGON, TRIGON_3
from solver.drawing import render

WHITE = (255, 255, 255)


def rgb(hex_color: str) -> tuple[int, int, int]:
    return tuple(int(hex_color[i : i + 2], 16) for i in (1, 3, 5))


def pixel(image: Image.Image, board, sq: int, size_px: int = 600) -> tuple[int, int, int]:
    x, y = render.square_pixel(board, sq, size_px)
    return image.convert("RGB").getpixel((int(x), int(y)))


def png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data))


def trigon_position() -> Position:
    pos = Position(TRIGON)
    for move in ("r15,s15,t15", "j12,k12", "z7", "z12,aa12,ab12,ac12"):
        pos.push(pos.parse_move(move))
    return pos


# -- images -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def position_image() -> Image.Image:
    return png(render.render_position(trigon_position(), last_move=False))


def test_triangle_centroids_have_their_colors(position_image):
    b = TRIGON.board
    for name, color in (("r15", 0), ("s15", 0), ("t15", 0), ("j12", 1), ("k12", 1), ("z7", 2), ("ab12", 3)):
        assert pixel(position_image, b, b.parse_square(name)) == rgb(render.COLOR_HEX[color]), name
    for name in ("i12", "l12", "q15", "u15", "r14", "r9", "a9", "ai10"):  # empty, next to pieces and at the tips
        assert pixel(position_image, b, b.parse_square(name)) == WHITE, name


def test_outside_cells_are_background_and_free_starts_neutral(position_image):
    b = TRIGON.board
    corners = (0, 1, b.width - 1, b.size - 1, b.size - b.width, 4 * b.width + 1)  # around the hexagon
    assert all(sq in b.outside for sq in corners)
    for sq in corners:
        assert pixel(position_image, b, sq) == WHITE, sq
    for name in ("j7", "r4"):  # starting points nobody took
        assert pixel(position_image, b, b.parse_square(name)) == rgb(render.SHARED_START_HEX), name


def test_centroids_lie_inside_their_triangles():
    b = TRIGON.board
    lay = render.layout(b)
    row_px = render._extent(b, lay.cell)[1] / b.height
    for sq in (b.parse_square(n) for n in ("r15", "s15", "a9", "a10", "ai9")):
        x, y = render.square_pixel(b, sq)
        row, col = divmod(sq, b.width)
        top = lay.top + row * row_px
        assert lay.left + col * lay.cell < x < lay.left + (col + 2) * lay.cell
        assert (y - top) / row_px == pytest.approx(2 / 3 if b.points_up(sq) else 1 / 3)


def test_position_png_and_svg(tmp_path):
    pos = trigon_position()
    render.render_position(pos, tmp_path / "trigon.png", numbers=True, title="Trigon",
                           highlights=render.legal_highlights(pos, pos.to_move, 3))
    image = Image.open(tmp_path / "trigon.png")
    lay = render.layout(pos.board)
    assert image.size == (600, lay.height)
    render.render_position(pos, tmp_path / "trigon.svg", numbers=True)
    svg = (tmp_path / "trigon.svg").read_text(encoding="utf-8")
    assert "<svg" in svg and f'height="{lay.height * 72 / 100:g}pt"' in svg


def test_three_player_board_renders():
    image = png(render.render_position(Position(TRIGON_3), size_px=400))
    b = TRIGON_3.board
    assert image.size == (400, render.layout(b, 400).height)
    assert pixel(image, b, 0, 400) == WHITE and pixel(image, b, b.parse_square("p14"), 400) == rgb(render.SHARED_START_HEX)


# -- text -------------------------------------------------------------------------------------
def test_text_picture_of_the_empty_board():
    b = TRIGON.board
    rows = board_rows(b, {})
    assert len(rows) == 18 and {len(r) for r in rows} == {35}
    assert [len(r.strip()) for r in rows] == list(range(19, 37, 2)) + list(range(35, 17, -2))
    assert all(r.strip() == "." * len(r.strip()) for r in rows)
    lines = board_picture(b, {}).split("\n")
    assert lines[0] == " " * 29 + "a" * 9
    assert lines[1] == "   abcdefghijklmnopqrstuvwxyzabcdefghi"
    assert lines[2] == "18 " + " " * 8 + "." * 19 + " " * 8 + " 18"
    assert lines[11] == " 9 " + "." * 35 + "  9"
    assert lines[-2:] == lines[:2] and len(lines) == 22


def test_text_picture_shows_pieces():
    pos = trigon_position()
    from solver.core.text import position_owner

    rows = board_rows(pos.board, position_owner(pos))
    b = pos.board
    for name, letter in (("r15", "B"), ("k12", "Y"), ("z7", "R"), ("ac12", "G")):
        row, col = divmod(b.parse_square(name), b.width)
        assert rows[row][col] == letter
