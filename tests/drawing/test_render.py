"""The image renderer (solver/drawing/render.py) and ``blokus render``.

Images are read back with Pillow and checked pixel by pixel at square
centres (``render.square_pixel``): piece colours, empty and blocked squares,
start discs, the last-move dot, highlights. Error cases must match ``blokus
show`` exactly and leave no file behind.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from solver import Board, Position
from solver.cli import main
from solver.core.geometry import COLORS
from solver.drawing import render
from solver.formats.puzzle_file import load_puzzle
from solver.formats.sgf import load_record
from tests.util import DATA, ROOT

SAMPLE_2P = str(ROOT / "puzzles" / "games" / "sample-2p.blksgf")
VARIATIONS = str(DATA / "variations.blksgf")
WHITE = (255, 255, 255)


def rgb(hex_color: str) -> tuple[int, int, int]:
    return tuple(int(hex_color[i : i + 2], 16) for i in (1, 3, 5))


def pixel(image: Image.Image, board: Board, name: str, size_px: int = 600) -> tuple[int, int, int]:
    x, y = render.square_pixel(board, board.parse_square(name), size_px)
    return image.convert("RGB").getpixel((int(x), int(y)))


def close(a, b, tol: int = 6) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a, b))


def play(pos: Position, *moves: str) -> Position:
    for m in moves:
        pos.push(pos.parse_move(m))
    return pos


def png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data))


# Boards: classic, 8x10 without start squares, and a masked 10x10 board.
MASKED = Board.rectangle(10, 10, corners=True, blocked=[44, 45, 54, 55, 9 * 10 + 4])  # e6 f6 e5 f5 e1


def classic_position() -> Position:
    return play(Position(), "a20,b20,b19", "t20,s20", "t1", "a1,a2,a3,a4,a5")


def small_position() -> Position:
    return play(Position(Board.rectangle(8, 10)), "a10,b10,c10,d10", "h1,h2,g1,g2")


def masked_position() -> Position:
    return play(Position(MASKED), "a10,b10", "j10,j9,i9", "j1")


CASES = {
    "classic": (classic_position, {"a20": 0, "b19": 0, "s20": 1, "a5": 3, "k10": None, "t10": None}),
    "8x10": (small_position, {"a10": 0, "d10": 0, "g1": 1, "e5": None}),
    "masked": (masked_position, {"a10": 0, "i9": 1, "e6": "#", "f5": "#", "e1": "#", "c3": None}),
}


@pytest.mark.parametrize("case", CASES)
def test_png_and_svg_on_each_board(case, tmp_path):
    make, expected = CASES[case]
    pos = make()
    board = pos.board
    render.render_position(pos, tmp_path / "pos.png", title=case, last_move=False)
    image = Image.open(tmp_path / "pos.png")
    lay = render.layout(board)
    assert image.size == (600, lay.height) == (lay.width, lay.height)
    for name, owner in expected.items():
        want = WHITE if owner is None else rgb(render.BLOCKED_HEX) if owner == "#" else rgb(render.COLOR_HEX[owner])
        assert pixel(image, board, name) == want, name
    render.render_position(pos, tmp_path / "pos.svg", title=case)
    svg = (tmp_path / "pos.svg").read_text(encoding="utf-8")
    assert "<svg" in svg and f'width="{600 * 72 / 100:g}pt"' in svg
    assert f'height="{lay.height * 72 / 100:g}pt"' in svg


def test_size_and_start_discs_and_last_move(tmp_path):
    pos = masked_position()
    image = png(render.render_position(pos, size_px=400))
    assert image.size == (400, render.layout(pos.board, 400).height)
    b = pos.board
    assert pixel(image, b, "a1", 400) == rgb(render.COLOR_HEX[3])  # green's free start square
    assert pixel(image, b, "j1", 400) == (0, 0, 0)  # the last move's dot
    assert pixel(image, b, "a10", 400) == rgb(render.COLOR_HEX[0])


def test_highlights_tint_empty_squares():
    pos = classic_position()
    image = png(render.render_position(pos, highlights=[("blue", "c18,d18,d17"), (2, [pos.board.parse_square("k10")])]))
    b = pos.board
    for name, color in (("d18", 0), ("k10", 2)):
        x, y = render.square_pixel(b, b.parse_square(name))
        box = image.convert("RGB").crop((int(x) - 4, int(y) - 4, int(x) + 5, int(y) + 5))
        mean = np.asarray(box, dtype=float).reshape(-1, 3).mean(axis=0)
        want = [0.45 * c + 0.55 * 255 for c in rgb(render.COLOR_HEX[color])]
        assert all(abs(m - w) < 40 for m, w in zip(mean, want)), (name, mean, want)
        assert max(mean) - min(mean) > 40  # clearly tinted, not white or grey
    assert pixel(image, b, "t10") == WHITE


def test_legal_highlights_are_legal_moves():
    pos = classic_position()
    hl = render.legal_highlights(pos, "red", limit=3)
    legal = set(pos.legal_placements(2))
    assert len(hl) == 3 and all(c == 2 and p in legal for c, p in hl)


def test_classic_full_game_png_is_small():
    pos = load_record(SAMPLE_2P).position()
    data = render.render_position(pos, numbers=True, title="sample-2p")
    assert len(data) < 200_000
    assert png(data).size[0] == 600


def test_puzzle_marks_and_solution(tmp_path):
    puzzle = load_puzzle(ROOT / "puzzles" / "stars-8x8.toml")
    b = puzzle.board
    image = png(render.render_solution(puzzle))
    assert pixel(image, b, "a8") == rgb(render.COLOR_HEX[0])  # blue start disc
    assert close(pixel(image, b, "b8"), (0x22, 0x22, 0x22))  # star on an empty square
    assert pixel(image, b, "e8") == rgb(render.COLOR_HEX[1])  # set-up piece
    avoid = load_puzzle(ROOT / "puzzles" / "avoid-x-7x7.toml")
    assert close(pixel(png(render.render_solution(avoid)), avoid.board, "b7"), (0x55, 0x55, 0x55), 30)
    # solve --render: the covered stars turn white on blue
    out = tmp_path / "stars.png"
    assert main(["solve", str(ROOT / "puzzles" / "stars-8x8.toml"), "--render", str(out)]) == 0
    solved = Image.open(out)
    for star in ("b8", "b4", "g3"):
        assert close(pixel(solved, b, star), WHITE), star


def test_solve_render_json(capsys, tmp_path):
    out = tmp_path / "avoid.svg"
    code, text, err = cli(capsys, "solve", str(ROOT / "puzzles" / "avoid-x-7x7.toml"), "--render", str(out), "--json")
    assert code == 0 and json.loads(text)["image"] == str(out)
    assert "<svg" in out.read_text(encoding="utf-8")


def test_repr_png_for_notebooks():
    assert png(Position()._repr_png_()).size[0] == 600
    assert png(load_puzzle(ROOT / "puzzles" / "solo-21.toml")._repr_png_()).size[0] == 600


def test_animation_has_initial_frame_plus_one_per_move(tmp_path):
    pos = load_record(VARIATIONS).position(6)
    render.render_animation(pos, tmp_path / "game.gif", size_px=300)
    gif = Image.open(tmp_path / "game.gif")
    assert gif.n_frames == 7
    gif.seek(0)
    assert close(pixel(gif, pos.board, "b18", 300), WHITE)  # the empty board first
    gif.seek(6)
    assert close(pixel(gif, pos.board, "b18", 300), rgb(render.COLOR_HEX[0]))


def test_core_does_not_import_matplotlib():
    code = ("import sys, solver, solver.core.position, solver.puzzle.definition, solver.formats.puzzle_file, solver.formats.sgf, solver.cli; "
            "sys.exit('matplotlib' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


# -- errors -----------------------------------------------------------------------

@pytest.mark.parametrize("game", ["sample-duo", "sample-junior", "sample-3p", "sample-trigon"])
def test_replay_plays_the_record_s_own_game(game):
    record = load_record(str(ROOT / "puzzles" / "games" / f"{game}.blksgf"))
    frames = render.replay(record.position())
    assert len(frames) == record.move_count + 1
    for i, frame in enumerate(frames):
        expected = record.position(i)
        assert frame.variant == expected.variant
        assert frame.state_key() == expected.state_key() and frame.scores() == expected.scores()


def test_a_duo_animation_draws_duo_colours(tmp_path):
    pos = load_record(str(ROOT / "puzzles" / "games" / "sample-duo.blksgf")).position(3)
    render.render_animation(pos, tmp_path / "duo.gif", size_px=300)
    gif = Image.open(tmp_path / "duo.gif")
    gif.seek(3)  # the third move carries the last-move dots, the first two their colours
    first, second, _ = pos.history
    for move, paint in ((first, render.PAINTS["purple"]), (second, render.PAINTS["orange"])):
        sq = pos.table.squares[move.placement][0]
        assert close(pixel(gif, pos.board, pos.board.square_name(sq), 300), rgb(paint.fill))


def test_unknown_suffix_and_missing_folder_write_nothing(tmp_path):
    pos = classic_position()
    with pytest.raises(render.RenderError, match="unknown image format '.bmp'"):
        render.render_position(pos, tmp_path / "x.bmp")
    with pytest.raises(render.RenderError, match="does not exist"):
        render.render_position(pos, tmp_path / "nowhere" / "x.png")
    with pytest.raises(render.RenderError, match="folder"):
        render.render_position(pos, tmp_path)
    with pytest.raises(render.RenderError, match=r"\.gif"):
        render.render_animation(pos, tmp_path / "x.png")
    assert list(tmp_path.iterdir()) == []


def test_failed_write_leaves_no_partial_file(tmp_path, monkeypatch):
    def fail(*args):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(render.os, "replace", fail)
    with pytest.raises(render.RenderError, match="cannot write: Permission denied"):
        render.render_position(classic_position(), tmp_path / "x.png")
    assert list(tmp_path.iterdir()) == []


def cli(capsys, *args) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("content, extra", [
    (None, []),  # missing file
    ("(;GM[Blokus]\n;1[a20\n", []),  # syntax error
    ("(\n;GM[Blokus]\n;1[a20]\n;2[a20,b20]\n)\n", []),  # illegal move
    ("(;GM[Blokus Callisto];1[r15])\n", []),  # unsupported variant
    ("(\n;GM[Blokus]\n;1[a20]\n)\n", ["--move", "5"]),  # move past the end
])
def test_bad_file_fails_like_show(capsys, tmp_path, monkeypatch, content, extra):
    monkeypatch.chdir(tmp_path)
    bad = tmp_path / "bad.blksgf"
    if content is not None:
        bad.write_text(content, encoding="utf-8")
    shown = cli(capsys, "show", str(bad), *extra)
    rendered = cli(capsys, "render", str(bad), *extra)
    assert shown[0] == rendered[0] == 2
    assert rendered[1] == ""
    assert rendered[2] == shown[2] and rendered[2].startswith("blokus: error: ") and "Traceback" not in rendered[2]
    assert not (tmp_path / "output").exists()


def test_cli_errors(capsys, tmp_path):
    assert cli(capsys, "render", SAMPLE_2P, "-o", str(tmp_path / "x.jpg"))[2].startswith(
        "blokus: error: ") and not list(tmp_path.iterdir())
    code, out, err = cli(capsys, "render", SAMPLE_2P, "--animate", "-o", str(tmp_path / "x.png"))
    assert code == 2 and "unknown image format '.png' (use .gif)" in err
    code, out, err = cli(capsys, "render", str(ROOT / "puzzles" / "stars-8x8.toml"), "--move", "2")
    assert code == 2 and "apply to game records" in err
    code, out, err = cli(capsys, "solve", str(ROOT / "puzzles" / "solo-21.toml"), "--render", str(tmp_path / "a.txt"))
    assert code == 2 and out == "" and "unknown image format '.txt'" in err


def test_cli_render_default_paths(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "render", SAMPLE_2P, "--move", "20", "--numbers")
    assert (code, out, err) == (0, "output/sample-2p.png\n", "")
    assert Image.open(tmp_path / "output" / "sample-2p.png").size[0] == 600
    code, out, err = cli(capsys, "render", VARIATIONS, "--move", "3", "--animate", "--size", "200")
    assert (code, out) == (0, "output/variations.gif\n")
    assert Image.open(tmp_path / "output" / "variations.gif").n_frames == 4
    code, out, err = cli(capsys, "render", str(ROOT / "puzzles" / "tetromino-8x10.toml"), "-o", "t.svg")
    assert (code, out) == (0, "t.svg\n") and "<svg" in (tmp_path / "t.svg").read_text(encoding="utf-8")


def test_every_variant_color_has_a_distinct_paint():
    from solver.core.variants import VARIANTS

    for v in VARIANTS.values():
        paints = [render.PAINTS[v.names[c]] for c in v.colors]
        assert len({p.fill for p in paints}) == len(v.colors)
    assert render.COLOR_HEX == tuple(render.PAINTS[n].fill for n in COLORS)


def test_duo_draws_purple_and_orange():
    from solver.core.variants import DUO

    pos = Position(DUO)
    for text in ("e10", "j5"):
        pos.push(pos.parse_move(text))
    image = png(render.render_position(pos, size_px=400, last_move=False))
    assert pixel(image, pos.board, "e10", 400) == rgb(render.PAINTS["purple"].fill)
    assert pixel(image, pos.board, "j5", 400) == rgb(render.PAINTS["orange"].fill)


# -- small things people see ------------------------------------------------------------------

def test_one_square_to_leave_empty_is_singular():
    from solver.formats.puzzle_file import parse_puzzle

    puzzle = parse_puzzle('[board]\nsize = "4x4"\n[pieces]\nblue = "I3"\n[rules]\nempty = ["d1"]\nstars = ["a4"]\n')
    note = render._solution_scene(puzzle, (), False, None, (), None).note
    assert note == "goal: place-all, 1 star to cover, 1 square to leave empty"


def test_move_numbers_are_not_drawn_over_stars():
    from solver.formats.puzzle_file import parse_puzzle
    from solver.solving import solve

    # the I3's middle square, where its number would go, is a star
    puzzle = parse_puzzle('[board]\nsize = "3x1"\n[pieces]\nblue = "I3"\n[rules]\nconnect = "free"\nstars = ["b1"]\n')
    order = solve(puzzle).order
    fig = render._figure(render._solution_scene(puzzle, order, True, None, (), None), 600)
    ax = fig.axes[0]
    b = puzzle.board
    numbers = {tuple(t.get_position()) for t in ax.texts if t.get_text().isdigit()
               and 0 < t.get_position()[0] < b.width and 0 < t.get_position()[1] < b.height}  # not the row numbers
    assert len(numbers) == len(order)
    stars = {render._centre(puzzle.board, sq) for sq in puzzle.stars}
    assert stars and not numbers & stars


def test_a_puzzle_draws_start_discs_of_its_own_colours_only():
    puzzle = load_puzzle(ROOT / "puzzles" / "solo-21.toml")  # blue alone, on a board with four corner starts
    image = png(render.render_solution(puzzle))
    b = puzzle.board
    assert pixel(image, b, "a20") == rgb(render.COLOR_HEX[0])
    for corner in ("t20", "t1", "a1"):
        assert pixel(image, b, corner) == WHITE, corner


def test_trigon_column_letters_are_readable():
    pos = load_record(str(ROOT / "puzzles" / "games" / "sample-trigon.blksgf")).position()
    fig = render._figure(render._position_scene(pos, False, None, (), True, None), 600)
    letters = [t for t in fig.axes[0].texts if t.get_text().isalpha() and len(t.get_text()) == 1]
    assert letters and min(t.get_fontsize() for t in letters) >= 9  # points, at 600 px


def test_solve_render_gif_places_the_pieces_one_by_one(tmp_path, capsys):
    out = tmp_path / "s.gif"
    assert main(["solve", str(ROOT / "puzzles" / "stars-8x8.toml"), "--render", str(out), "--json"]) == 0
    placed = len(json.loads(capsys.readouterr().out)["placements"])
    assert Image.open(out).n_frames == placed + 1
