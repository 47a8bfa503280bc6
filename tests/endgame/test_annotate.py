"""Annotating whole games: values against ``analyze`` at every move, losses
as value differences, the annotated record read back (moves, comments,
variations, move annotations), the plot, and ``blokus annotate``.

Games are seeded random games of Duo (and one classic four-player game),
annotated over their last few moves, where every value is proven quickly.
"""

from __future__ import annotations

import json
import re

import pytest
from PIL import Image

from solver.cli import main
from solver.core.position import Position
from solver.core.variants import CLASSIC, DUO, JUNIOR, VARIANTS
from solver.endgame.analysis import analyze
from solver.endgame.annotate import annotate
from solver.endgame.annotated_record import annotated_sgf
from solver.endgame.plot import plot_annotation
from solver.endgame.report import COMMENT_MARK
from solver.formats.sgf import parse_sgf, read_record, write_record
from tests.faults import signal_when
from tests.util import ROOT, random_game

DUO_SEEDS = (0, 5, 6)  # games whose last five moves are proven within a second
BACK = 4  # annotate the last BACK + 1 moves


def game_text(seed: int, variant=DUO) -> str:
    return write_record(random_game(seed, Position(variant)))


def annotated(seed: int, variant=DUO, back: int = BACK):
    text = game_text(seed, variant)
    record = read_record(text, f"{variant.key}-{seed}.blksgf")
    return text, record, annotate(record, 60.0, from_move=record.move_count - back)


@pytest.fixture(scope="module", params=DUO_SEEDS)
def duo(request):
    return annotated(request.param)


def test_every_move_from_n_is_analysed_and_proven(duo):
    _, record, ann = duo
    assert [n.move for n in ann.moves] == list(range(record.move_count - BACK, record.move_count + 1))
    assert all(n.before.exact and n.after.exact for n in ann.moves)
    assert ann.first_proven_move == record.move_count - BACK


def test_values_equal_analyze_at_each_move(duo):
    _, record, ann = duo
    for n in ann.moves:
        before = analyze(record.position(n.move - 1), True, 60.0)
        after = analyze(record.position(n.move), True, 60.0)
        assert before.game_value_proven and after.game_value_proven
        assert (n.before.lo, n.after.lo) == (before.game_value, after.game_value), f"move {n.move}"
    final = record.position()
    s1, s2 = final.seat_scores()
    assert ann.moves[-1].after.lo == s1 - s2


def test_loss_is_the_value_difference(duo):
    _, record, ann = duo
    for n in ann.moves:
        purple = n.color == 0  # seat 1: wants the value high
        assert n.maximising == purple
        assert n.loss == (n.before.lo - n.after.lo if purple else n.after.lo - n.before.lo) >= 0
        assert n.mistake == (n.loss > 0)
        assert n.best_value == n.before.lo
    assert ann.mistakes == sum(1 for n in ann.moves if n.loss > 0)


def test_the_best_move_reaches_the_best_value(duo):
    _, record, ann = duo
    for n in ann.moves:
        pos = record.position(n.move - 1)
        assert n.best_move is not None and pos.is_legal(n.best_move)
        if n.loss == 0:
            assert n.best_move == n.played
        pos.push(n.best_move)
        assert analyze(pos, True, 60.0).game_value == n.best_value, f"move {n.move}"


def test_best_lines_are_legal_and_reach_the_value(duo):
    _, record, ann = duo
    for n in ann.moves:
        if not n.mistake:
            assert n.best_line == []
            continue
        pos = record.position(n.move - 1)
        assert n.best_line[0] == n.best_move
        for m in n.best_line:
            assert pos.to_move == m.color and pos.is_legal(m)
            pos.push(m)
        if pos.game_over:
            s1, s2 = pos.seat_scores()
            assert s1 - s2 == n.best_value


def test_only_move_means_every_other_move_loses():
    _, record, ann = annotated(0)
    checked = [n for n in ann.moves if n.only_move is not None]
    assert checked, "no only-move verdict to check"
    for n in checked:
        pos = record.position(n.move - 1)
        keeps = []
        for m in pos.legal_moves(n.color):
            child = pos.copy()
            child.push(m)
            if analyze(child, True, 60.0).game_value == n.best_value:
                keeps.append(m)
        assert n.played in keeps
        assert n.only_move == (len(keeps) == 1), f"move {n.move}"


def test_four_player_guaranteed_scores_equal_analyze():
    _, record, ann = annotated(4, CLASSIC, back=3)
    assert not ann.two_player and len(ann.moves) == 4
    for n in ann.moves:
        pos = record.position(n.move - 1)
        a = analyze(pos, False, 60.0)
        assert n.before.exact and n.before.lo == a.colors[n.color].guaranteed, f"move {n.move}"
        assert n.solo_optimum == a.colors[n.color].solo_optimum
        assert n.after.lo == analyze(record.position(n.move), False, 60.0).colors[n.color].guaranteed
        assert n.loss == n.before.lo - n.after.lo >= 0
    assert any(n.mistake for n in ann.moves)


@pytest.mark.parametrize("variant, seed, back", [(DUO, 6, 6), (CLASSIC, 4, 5)], ids=["duo", "four-player"])
def test_a_value_split_between_threads_agrees_with_one_thread(variant, seed, back, monkeypatch):
    """The compiled tree's values on one thread, two and three (the root's
    moves split between engines on one table): the same values, bounds and
    losses at every move, and the split ran."""
    from solver.endgame import treesplit

    split = treesplit.split_root
    calls = []

    def spy(*args, **kwargs):
        calls.append(len(kwargs["engs"]))
        return split(*args, **kwargs)

    monkeypatch.setattr(treesplit, "split_root", spy)
    record = read_record(game_text(seed, variant))
    start = record.move_count - back
    anns = [annotate(record, 60.0, from_move=start, threads=t) for t in (1, 2, 3)]
    notes = [[(n.move, n.before, n.after, n.loss_bounds) for n in a.moves] for a in anns]
    assert notes[1] == notes[0] and notes[2] == notes[0]
    assert all(n.before.exact for n in anns[0].moves)
    assert set(calls) == {2, 3}


@pytest.mark.parametrize("variant, seed, back", [(DUO, 6, 6), (JUNIOR, 2, 4), (CLASSIC, 4, 5)],
                         ids=["duo", "junior", "four-player"])
def test_the_compiled_tree_agrees_with_the_python_tree(variant, seed, back):
    """The walk on the compiled engine (the default) against the plain-Python
    reference tree: the same values, bounds and losses at every move."""
    record = read_record(game_text(seed, variant))
    start = record.move_count - back
    anns = [annotate(record, 60.0, from_move=start, tree=tree) for tree in ("compiled", "python")]
    compiled, python = ([(n.move, n.before, n.after, n.loss_bounds) for n in a.moves] for a in anns)
    assert compiled == python
    assert all(n.before.exact for n in anns[0].moves)


@pytest.mark.parametrize("key", ["trigon_2", "classic_3"])
def test_games_the_compiled_tree_does_not_take_equal_analyze(key):
    """Trigon and Three-Player (a shared colour) go to the Python tree."""
    variant = VARIANTS[key]
    record = read_record(game_text(3, variant))
    ann = annotate(record, 60.0, from_move=record.move_count - 3)
    assert len(ann.moves) == 4
    for n in ann.moves:
        a = analyze(record.position(n.move - 1), variant.two_player, 60.0)
        value = a.game_value if variant.two_player else a.colors[n.color].guaranteed
        assert n.before.exact and n.before.lo == value, f"move {n.move}"


def test_bounds_hold_the_true_value_when_time_runs_out():
    text = game_text(0)
    record = read_record(text)
    ann = annotate(record, 0.05, from_move=record.move_count - 5)
    assert len(ann.moves) == 6
    for n in ann.moves:
        assert n.before.lo <= n.before.hi and n.after.lo <= n.after.hi
        true = analyze(record.position(n.move - 1), True, 60.0).game_value
        assert n.before.lo <= true <= n.before.hi, f"move {n.move}"
        if n.loss_bounds is not None:
            assert n.loss_bounds.lo <= n.loss_bounds.hi


def test_without_from_it_goes_back_while_time_allows():
    _, record, _ = annotated(6)
    ann = annotate(record, 2.0)
    assert ann.moves and ann.moves[-1].move == record.move_count
    assert all(n.before.exact for n in ann.moves)  # only what it proved
    if ann.moves[0].move > 1:
        assert f"the time limit ran out at move {ann.moves[0].move - 1}: it and the moves before it are not analysed" \
            in ann.notes


# -- the annotated record ---------------------------------------------------------

def main_line(text: str):
    node, line = parse_sgf(text)[0], []
    while True:
        line.append(node)
        if not node.children:
            return line
        node = node.children[0]


def test_annotated_record_reads_back_with_comments_and_variations(duo):
    text, record, ann = duo
    out = annotated_sgf(text, ann)
    again = read_record(out)
    assert again.position().history == record.position().history
    line = main_line(out)
    notes = {n.move: n for n in ann.moves}
    for k, node in enumerate(line[1:], start=1):  # the root holds no move in these records
        c = node.get("C")
        if k not in notes:
            assert c is None
            continue
        n = notes[k]
        assert c is not None and c.values[0].startswith(COMMENT_MARK)
        assert f"{n.before.lo:+d}" in c.values[0]
        marks = {p.ident: p.values[0] for p in node.props if p.ident in ("BM", "DO", "IT", "TE")}
        if n.mistake:
            assert marks == {"BM": "2" if n.loss >= 5 else "1"}
            assert "best:" in c.values[0]
            variation = line[k - 1].children[-1]
            assert len(line[k - 1].children) == 2
            moves = []
            while True:
                prop = next(p for p in variation.props if p.ident in ("B", "W"))
                moves.append(prop.values[0])
                if not variation.children:
                    break
                variation = variation.children[0]
            t = record.position().table
            assert moves == [t.name(m.placement) for m in n.best_line]
        else:
            assert marks in ({}, {"TE": "1"})
            assert len(line[k - 1].children) == 1


def test_annotated_record_opens_in_show(duo, tmp_path, capsys):
    text, record, ann = duo
    path = tmp_path / "annotated.blksgf"
    path.write_text(annotated_sgf(text, ann), encoding="utf-8")
    assert main(["show", str(path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["moves_total"] == record.move_count and shown["game_over"]


def test_annotating_again_replaces_the_earlier_annotation(duo):
    text, _, ann = duo
    once = annotated_sgf(text, ann)
    twice = annotated_sgf(once, ann)
    assert twice == once


def count_nodes(text: str) -> int:
    stack, n = parse_sgf(text), 0
    while stack:
        node = stack.pop()
        n += 1
        stack += node.children
    return n


def test_a_pentobi_record_keeps_its_comments_variations_and_marks():
    path = "tests/data/variations.blksgf"
    with open(path, encoding="utf-8") as f:
        text = f.read()
    record = read_record(text, path)
    ann = annotate(record, 0.5, from_move=record.move_count)  # bounds only: no verdict, no variation
    out = annotated_sgf(text, ann)
    assert count_nodes(out) == count_nodes(text)
    line, before = main_line(out), main_line(text)
    assert line[0].get("C").values == before[0].get("C").values  # the root comment, brackets and all
    assert [n.get("C").values for n in line if n.get("C")][1:2] == [["Green's F."]]
    last = line[-1]
    assert last.get("C").values[0].startswith(COMMENT_MARK)
    assert last.get("TE") is not None  # no verdict here: Pentobi's mark stays
    assert read_record(out).position().history == record.position().history


# -- the plot --------------------------------------------------------------------------

def test_plot_png_has_the_expected_size(duo, tmp_path):
    _, _, ann = duo
    path = tmp_path / "plot.png"
    plot_annotation(ann, path)
    with Image.open(path) as im:
        assert im.format == "PNG" and im.size == (800, 450)
    plot_annotation(ann, tmp_path / "small.png", size=(400, 300))
    with Image.open(tmp_path / "small.png") as im:
        assert im.size == (400, 300)


def test_plot_svg_and_four_player(tmp_path):
    _, _, ann = annotated(4, CLASSIC, back=3)
    path = tmp_path / "plot.svg"
    plot_annotation(ann, path)
    assert path.read_text().lstrip().startswith("<?xml") and "<svg" in path.read_text()


# -- the command --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def duo_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("games") / "duo-6.blksgf"
    path.write_text(game_text(6), encoding="utf-8")
    return path


def test_cli_json_fields(duo_file, capsys):
    record = read_record(duo_file.read_text())
    n = record.move_count - BACK
    assert main(["annotate", str(duo_file), "--from", str(n), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["moves_total"] == record.move_count and obj["two_player"]
    assert [m["move"] for m in obj["moves"]] == list(range(n, record.move_count + 1))
    for m in obj["moves"]:
        for name in ("move", "color", "played", "value_before", "proven", "best_move", "best_value",
                     "value_played", "loss"):
            assert name in m
        assert m["color"] in ("purple", "orange") and m["proven"]
        assert m["loss"] == abs(m["value_before"] - m["value_played"])


def test_cli_writes_record_and_plot(duo_file, tmp_path, capsys):
    out, plot = tmp_path / "a.blksgf", tmp_path / "a.png"
    n = read_record(duo_file.read_text()).move_count - BACK
    code = main(["annotate", str(duo_file), "--from", str(n), "-o", str(out), "--plot", str(plot)])
    text = capsys.readouterr().out
    assert code == 0 and out.exists() and plot.exists()
    assert "move" in text and f"Annotated record: {out}" in text
    assert read_record(out.read_text()).move_count == read_record(duo_file.read_text()).move_count


@pytest.mark.parametrize("args, part", [
    (["--from", "999"], "out of range"),
    (["--plot", "x.gif"], "unknown image format"),
    (["--workers", "2"], "apply to many games"),
    (["--force"], "apply to many games"),
    (["EXTRA"], "need --out-dir"),
])
def test_cli_errors(duo_file, capsys, args, part):
    argv = ["annotate", str(duo_file)] + (args if args != ["EXTRA"] else [str(duo_file)])
    assert main(argv) == 2
    assert part in capsys.readouterr().err


def test_cli_bad_record(tmp_path, capsys):
    bad = tmp_path / "bad.blksgf"
    bad.write_text("(;GM[Blokus Duo];B[z99])")
    assert main(["annotate", str(bad)]) == 2
    assert "bad.blksgf" in capsys.readouterr().err


def test_cli_keeps_the_byte_order_mark_and_crlf_line_ends(duo_file, tmp_path, capsys):
    game = tmp_path / "crlf.blksgf"
    game.write_bytes(b"\xef\xbb\xbf" + duo_file.read_bytes().replace(b"\n", b"\r\n"))
    out = tmp_path / "out.blksgf"
    n = read_record(duo_file.read_text()).move_count - BACK
    assert main(["annotate", str(game), "--from", str(n), "-o", str(out)]) == 0, capsys.readouterr().err
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf(")
    assert data.count(b"\n") == data.count(b"\r\n") > 10
    assert COMMENT_MARK.encode() in data


@pytest.mark.slow
def test_ctrl_c_writes_and_prints_the_moves_proven_so_far(tmp_path):
    """SIGINT, as Ctrl-C sends it, once the walk has proven a few moves of a
    game too long to annotate in the limit: the proven moves are written to
    -o and printed (exit 130)."""
    game, out = ROOT / "puzzles" / "games" / "sample-2p.blksgf", tmp_path / "out.blksgf"
    total = read_record(game.read_text()).move_count

    def proven_a_few(line: str) -> bool:
        found = re.search(r"back to move (\d+)", line)
        return bool(found) and int(found[1]) <= total - 3

    proc, _ = signal_when(["annotate", str(game), "-o", str(out), "--time-limit", "600", "--json"], proven_a_few)
    stdout, stderr = proc.stdout, proc.stderr
    assert proc.returncode == 130, stderr
    obj = json.loads(stdout)
    assert obj["interrupted"] is True
    moves = [m["move"] for m in obj["moves"]]
    assert moves == list(range(moves[0], total + 1)) and len(moves) >= 4
    assert all(m["proven"] for m in obj["moves"])
    assert f"interrupted (Ctrl-C): moves before {moves[0]} are not analysed" in obj["notes"]
    line = [n for n in main_line(out.read_text(encoding="utf-8")) if any(p.ident in ("1", "2", "3", "4") for p in n.props)]
    commented = [i for i, n in enumerate(line, start=1) if n.get("C") and COMMENT_MARK in n.get("C").values[0]]
    assert commented == moves


def test_without_from_only_proven_moves_are_written(tmp_path, capsys):
    """Early in a long game a short limit proves the last moves only: the
    record gets those, never a loss 'of up to' the width of wide bounds."""
    game, out = ROOT / "puzzles" / "games" / "sample-2p.blksgf", tmp_path / "out.blksgf"
    assert main(["annotate", str(game), "-o", str(out), "--time-limit", "3", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["moves"] and all(m["proven"] for m in obj["moves"])
    first = obj["moves"][0]["move"]
    assert first > 1 and obj["first_proven_move"] == first
    assert f"the time limit ran out at move {first - 1}: it and the moves before it are not analysed" in obj["notes"]
    text = out.read_text()
    assert "may have lost" not in text and "DO[" not in text


def test_mistake_labels_near_the_bottom_go_above_their_mark(duo):
    from matplotlib.figure import Figure

    from solver.endgame.plot import PAINTS, _draw_mistakes

    _, _, ann = duo
    mistakes = [n for n in ann.moves if n.mistake]
    assert mistakes
    ax = Figure().add_subplot()
    low = min(n.after.lo for n in mistakes)
    ax.set_ylim(low, low + 100)  # the lowest mistake sits on the bottom edge
    _draw_mistakes(ax, ann, PAINTS)
    for label in ax.texts:
        y = label.xy[1]
        under = label.get_va() == "top"
        assert not (under and y - low < 15), f"label {label.get_text()} at {y} would be cut off"
    assert any(label.get_va() == "bottom" for label in ax.texts)
