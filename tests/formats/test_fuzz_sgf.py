"""Fuzzing the game-record reader: no input crashes the tool.

Real records (the test records in ``tests/data`` and the bundled games) are
mutated the ways files get broken: characters typed or deleted, runs of
brackets and parentheses duplicated, properties renamed, values swapped
for odd ones, variations nested thousands deep, lines swapped, the end cut
off. Whatever comes out, ``read_record`` and ``position(k)`` for every move
count k give positions or a ``RecordError`` worded ``FILE...: what`` --
never another exception and never with much
memory (tracemalloc on deep nesting). Where reading succeeds,
writing the position and reading it back gives the same position.
"""

from __future__ import annotations

import re
import tracemalloc

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from solver import Position
from solver.errors import BlokusError, RecordError
from solver.formats.sgf import parse_sgf, read_record, write_record
from tests.util import ROOT

FILES = sorted((ROOT / "tests" / "data").glob("*.blksgf")) + sorted((ROOT / "puzzles" / "games").glob("*.blksgf"))
FULL: dict[str, str] = {p.name: p.read_text(encoding="utf-8") for p in FILES}
CUT_MOVES = 12

FUZZ = settings(
    derandomize=True,  # the same examples on every run (CI)
    max_examples=400,
    deadline=None,  # no wall-clock assertion (a busy CI machine); the slow inputs of old are refused early
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)

# Squares, moves and other values to put in place of a value.
VALUES = [
    "", " ", "a0", "a21", "u1", "zz999", "a1000", "a-1", "A20", "a20", "t20", "t1", "a1", "b19,c19", " b19 , c19 ",
    "a20,b20,b19", "a20,a20", "a20,,b20", ",", "a20,c20", "b19,c18", "1", "2", "3", "4", "5", "9", "0", "B", "W",
    "Blokus", "blokus", " BLOKUS TWO-PLAYER ", "Blokus Duo", "Blokus Three-Player", "\\", "\\]", "]",
    "a20][b20", "s1,t1,r2,s2,t2", "o2,n3,o3,p3", "a1," * 70 + "a1", "x" * 5000, "\u00e9\u0661", "\x00",
]
IDENTS = [
    "GM", "1", "2", "3", "4", "A1", "A2", "A3", "A4", "AE", "PL", "B", "W", "AB", "AW", "BLUE", "YELLOW", "RED",
    "GREEN", "C", "TE", "BM", "FF", "CA", "gm", "a1", "pl", "X", "A5", "ae",
]
TYPED = list("()[];\\,:. \n\r\t") + ["\ufeff", "\x00", "\u00e9", "\u2028", "\u00a0"] + list("abtz019AGMPLE")


def cut(text: str, moves: int) -> str:
    """The text up to its ``moves + 1``-th move node, the open trees
    closed: a shorter record of the same style (written without the
    package's parser)."""
    starts = [m.start() for m in re.finditer(r";\s*(?:[1-4]|B|W)\[", text)]
    if len(starts) <= moves:
        return text
    end = starts[moves]
    while text[:end].rstrip().endswith("("):
        end = len(text[:end].rstrip()) - 1
    depth, in_value, escaped = 0, False, False
    for ch in text[:end]:
        if in_value:
            in_value = escaped or ch != "]"
            escaped = not escaped and ch == "\\"
        elif ch == "[":
            in_value = True
        elif ch in "()":
            depth += 1 if ch == "(" else -1
    return text[:end].rstrip() + "\n" + ")" * depth + "\n"


SHORT: dict[str, str] = {name: cut(text, CUT_MOVES) for name, text in FULL.items()}


# -- mutations --------------------------------------------------------------------

def _insert(draw, text: str) -> str:
    at = draw(st.integers(0, len(text)))
    return text[:at] + draw(st.text(st.sampled_from(TYPED), min_size=1, max_size=6)) + text[at:]


def _delete(draw, text: str) -> str:
    at = draw(st.integers(0, len(text)))
    return text[:at] + text[at + draw(st.integers(1, 30)):]


def _duplicate_run(draw, text: str) -> str:
    """A run of text at a bracket or parenthesis, repeated up to 300 times."""
    spots = [m.start() for m in re.finditer(r"[()\[\]]", text)]
    if not spots:
        return text
    at = draw(st.sampled_from(spots))
    run = text[at : at + draw(st.integers(1, 8))]
    return text[:at] + run * draw(st.integers(2, 300)) + text[at:]


def _rename(draw, text: str) -> str:
    props = list(re.finditer(r"[A-Za-z0-9]+(?=\s*\[)", text))
    if not props:
        return text
    m = draw(st.sampled_from(props))
    return text[: m.start()] + draw(st.sampled_from(IDENTS)) + text[m.end() :]


def _revalue(draw, text: str) -> str:
    values = list(re.finditer(r"\[((?:[^\\\]]|\\.)*)\]", text, re.S))
    if not values:
        return text
    m = draw(st.sampled_from(values))
    new = draw(st.sampled_from(VALUES) | st.text(st.sampled_from(TYPED), max_size=8))
    return text[: m.start(1)] + new + text[m.end(1) :]


def _nest(draw, text: str) -> str:
    """Thousands of nested variations before a ')', with a node at the
    bottom; closed right, or too few or too many times."""
    spots = [m.start() for m in re.finditer(r"\)", text)]
    if not spots:
        return text
    at, n = draw(st.sampled_from(spots)), draw(st.integers(1, 3000))
    bottom = draw(st.sampled_from(["", "C[deep]", "1[a20]", "4[a1]TE[1]", "AE[a20]"]))
    closing = n if draw(st.booleans()) else draw(st.integers(0, n + 2))
    return text[:at] + "(;" * n + bottom + ")" * closing + text[at:]


def _swap_values(draw, text: str) -> str:
    """Two values trade places: moves out of order, set-up in a move."""
    values = list(re.finditer(r"\[((?:[^\\\]]|\\.)*)\]", text, re.S))
    if len(values) < 2:
        return text
    a, b = sorted(draw(st.lists(st.sampled_from(values), min_size=2, max_size=2, unique_by=lambda m: m.start())),
                  key=lambda m: m.start())
    return text[: a.start(1)] + b[1] + text[a.end(1) : b.start(1)] + a[1] + text[b.end(1) :]


def _drop_node(draw, text: str) -> str:
    """A node left out: the colours after it move out of turn."""
    nodes = list(re.finditer(r";[^;()]*", text))
    if len(nodes) < 2:
        return text
    m = draw(st.sampled_from(nodes[1:]))
    return text[: m.start()] + text[m.end() :]


def _swap_lines(draw, text: str) -> str:
    lines = text.split("\n")
    i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _truncate(draw, text: str) -> str:
    return text[: draw(st.integers(0, len(text)))]


# Mutations that mostly keep the syntax come twice, so that many inputs get
# past the parser to the moves and set-up.
MUTATIONS = [_insert, _delete, _duplicate_run, _swap_lines, _truncate] + 2 * [_rename, _revalue, _swap_values,
                                                                           _drop_node, _nest]


@st.composite
def mutated(draw, seeds: dict[str, str]) -> str:
    text = seeds[draw(st.sampled_from(sorted(seeds)))]
    for _ in range(draw(st.integers(1, 3))):
        text = draw(st.sampled_from(MUTATIONS))(draw, text)
    return text


# -- the property -----------------------------------------------------------------

SYNTAX_ERROR = re.compile(r"fuzz\.blksgf:\d+:\d+: \S")  # FILE:LINE:COL: what


def check_record(text: str) -> None:
    """Read, replay every move count, write back what read: only RecordError,
    saying where."""
    try:
        parse_sgf(text, "fuzz.blksgf")
    except RecordError as e:
        assert SYNTAX_ERROR.match(str(e)), e
    try:
        rec = read_record(text, "fuzz.blksgf")
    except RecordError as e:
        assert SYNTAX_ERROR.match(str(e)), e
        event("syntax or root error")
        return
    pos = None
    for k in range(rec.move_count + 1):
        try:
            pos = rec.position(k)
        except RecordError as e:
            # position(k - 1) read, so it is move k or a set-up node after it
            assert re.match(rf"fuzz\.blksgf:(\d+:\d+: bad set-up: | move {k} \(line \d+\): )\S", str(e)), e
            event("error in the moves or set-up")
            break
    else:
        event("every move count reads")
    if pos is not None:
        back = read_record(write_record(pos, rec.two_player), "written.blksgf").position()
        assert back.state_key() == pos.state_key()
        assert back.history == pos.history


def test_seeds_read():
    assert set(FULL) >= {"variations.blksgf", "book.blksgf", "old_format.blksgf", "sample-2p.blksgf"}
    for name, text in FULL.items():
        rec, short = read_record(text, name), read_record(SHORT[name], name)
        assert short.move_count == min(rec.move_count, CUT_MOVES), name
        assert short.position().state_key() == rec.position(short.move_count).state_key(), name


@FUZZ
@given(mutated(SHORT))
def test_mutated_records(text):
    check_record(text)


@settings(FUZZ, max_examples=40)
@given(mutated(FULL))
def test_mutated_whole_games(text):
    check_record(text)


@settings(FUZZ, max_examples=300)
@given(st.lists(st.sampled_from(TYPED + ["GM[Blokus]", "1[a20]", "2[t20]", "AE[a20]", "(;", "PL[2]"]), max_size=40))
def test_random_tokens(tokens):
    check_record("".join(tokens))


@st.composite
def games_with_setup(draw) -> str:
    """A record of legal moves (some out of turn) and set-up nodes that take
    played pieces back (AE), add pieces (A1..A4) and name the colour to
    move (PL): the paths through rebase() and remove()."""
    pos, played, nodes = Position(), [], []
    for _ in range(draw(st.integers(1, 14))):
        color = draw(st.integers(0, 3))
        moves = pos.legal_moves(color)
        if draw(st.integers(0, 2)) and moves:
            m = draw(st.sampled_from(moves))
            nodes.append(f";{m.color + 1}[{pos.table.name(m.placement)}]")
            pos.push(m)
            played.append(m)
            continue
        props = ""
        if played and draw(st.booleans()):
            gone = draw(st.lists(st.sampled_from(played), min_size=1, max_size=3))
            props += "AE" + "".join(f"[{pos.table.name(m.placement)}]" for m in gone)
        if moves and draw(st.booleans()):
            props += f"A{color + 1}[{pos.table.name(draw(st.sampled_from(moves)).placement)}]"
        if draw(st.booleans()):
            props += f"PL[{draw(st.sampled_from('1234BW'))}]"
        nodes.append(";" + props)
    return "(;GM[Blokus]" + "".join(nodes) + ")"


@settings(FUZZ, max_examples=40)
@given(games_with_setup())
def test_games_with_setup(text):
    check_record(text)


def test_errors_are_blokus_errors():
    assert issubclass(RecordError, BlokusError) and issubclass(RecordError, ValueError)


def test_deep_nesting_memory_and_time():
    """Nesting costs no recursion; nested side
    variations cost almost no memory (they are parsed and dropped), nested
    main-line variations a few hundred bytes a node. (tracemalloc makes
    reading 5x slower, so it watches smaller inputs.)"""
    rec = read_record("(;GM[Blokus](;1[a20])" + "(;" * 100_000 + "C[deep]" + ")" * 100_001)  # ~0.5 s
    assert len(rec.nodes) == 2
    side = "(;GM[Blokus](;1[a20])" + "(;" * 30_000 + "C[deep]" + ")" * 30_001
    tracemalloc.start()
    try:
        rec = read_record(side)
        side_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        main = "(;GM[Blokus]" + "(;" * 5_000 + "1[a20]" + ")" * 5_001
        before = tracemalloc.get_traced_memory()[0]
        deep = read_record(main)
        main_peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert len(rec.nodes) == 2 and len(deep.nodes) == 5_001
    assert side_peak < 100_000, side_peak
    assert main_peak < 5_001 * 600, main_peak
    assert deep.position().color_at(0) == 0
