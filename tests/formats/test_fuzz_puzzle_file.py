"""Fuzzing the puzzle loader: no input crashes the tool.

Real inputs (the bundled puzzles and the documented example) are mutated the
ways people and editors break files: characters typed or deleted, values
swapped for other TOML values, runs of brackets, keys in another case,
other board sizes and numbers, duplicated lines, CRLF and tabs. Whatever
comes out, ``parse_puzzle`` returns a puzzle or raises a ``PuzzleError``
worded ``FILE:LINE: what`` -- never another exception and never with
much memory (tracemalloc on the worst inputs). Where parsing succeeds, writing the puzzle back and reading
it again gives the same puzzle.
"""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, currently_in_test_context, event, given, settings
from hypothesis import strategies as st

from solver.errors import BlokusError, PuzzleError
from solver.formats.puzzle_file import MAX_FILE_SIZE, load_puzzle, parse_puzzle, puzzle_to_toml
from solver.puzzle.definition import Puzzle
from tests.util import ROOT

_PAGE = (ROOT / "docs" / "solve.md").read_text(encoding="utf-8")
SEEDS: dict[str, str] = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "puzzles").glob("*.toml"))}
SEEDS["example.toml"] = re.search(r"## Puzzle files.*?```toml\n(.*?)```", _PAGE, re.S).group(1)
# drawn more often: small boards, whose placement tables cost milliseconds (20x20: 0.3 s)
SMALL_SEEDS = sorted(name for name, text in SEEDS.items() if "20x20" not in text and "14x14" not in text)

FUZZ = settings(
    derandomize=True,  # the same examples on every run (CI)
    max_examples=400,
    deadline=None,  # no wall-clock assertion (a busy CI machine); the slow inputs of old are refused early
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)

ERROR_FORMAT = re.compile(r"fuzz\.toml:\d+(:\d+)?: \S")

# TOML values to swap in for a value: other types, empty and odd strings, big ones
VALUES = [
    "1.5", "nan", "-inf", "0", "-1", "true", "1979-05-27", "07:32:00", "1979-05-27T07:32:00Z",
    "[]", "{}", "{a = 1}", "[[1], [\"a\"]]", "[1.5, true]", '""', '" "', '"+"', '"blue+"', '"+blue"',
    '"all"', '"ALL"', '"none"', '"corners"', '"a1"', '"A1"', '"a0"', '"zz999"', '["a1", "a1"]',
    '"blue+blue"', '"blue+red"', '" blue "', '["blue", ""]', '"\u200bblue"', '"🙂"', '"L5 L5"', '"l5 x 2 1"',
    '[1, 2, 3]', '"maximize"', '"count"', '"place-all"', '"game"', '"touch"', '"free"', '"edge"',
    '"corner"', '"score"', '"squares"', '{blue = "a1", Blue = "a2"}', '{blue = ["a1", "b2"]}',
    '"b.\\n.."', '"""\nb . .\n. . .\n"""', "'''\n#\tB\r\n'''", '"x\\ty"', '"\\u0000"', '"\\u00e9"',
    "9223372036854775807", "1" + "0" * 30, "1" * 5000, "0x" + "f" * 5000, "[0x" + "f" * 5000 + "]", '"' + "x" * 20000 + '"',
    "[" + '"a1",' * 5000 + "]", '"' + "a1 " * 5000 + '"', "[" * 40 + "]" * 40, "{a=" * 30 + "1" + "}" * 30,
]
# whole lines to add: case twins of colour keys, sections, rules
LINES = [
    'Blue = "L5"', 'BLUE = "all"', 'blue = "all"', 'Red = "all"', "[pieces]", "[board]", "[rules]", "[goal]",
    '[goal]\ntype = "maximize"\ntarget = []', 'target = "blue"', 'measure = "squares"', "monomino_last = true",
    'same_shape = "corner"', 'stars = "a1 b2"', 'empty = ["a1"]', 'starts = "corners"',
    'starts = {blue = "a1", Blue = "a2"}', 'rows = "b.\\n.."', 'size = "3x3"', "name.x.y = 1", "a" + ".a" * 20 + " = 1",
]
CHARS = "[]{}\"'=#.,+ \t\r\n\\xX0123456789BYRGbyrg*-_aAzZ\u2028\x85\x0c\ufeff\u200béß🙂\x00\x7f"


@st.composite
def _insert(draw, text: str) -> str:
    i = draw(st.integers(0, len(text)))
    return text[:i] + draw(st.text(CHARS, min_size=1, max_size=6)) + text[i:]


@st.composite
def _delete(draw, text: str) -> str:
    i = draw(st.integers(0, len(text)))
    return text[:i] + text[i + draw(st.integers(1, 30)) :]


@st.composite
def _brackets(draw, text: str) -> str:
    i = draw(st.integers(0, len(text)))
    run = draw(st.sampled_from(["[", "{", "{a=", "[[", "a.", "]", "}"])) * draw(st.sampled_from([1, 2, 15, 17, 600, 5000]))
    return text[:i] + run + text[i:]


def _pick(draw, pattern: str, text: str) -> re.Match | None:
    found = list(re.finditer(pattern, text, re.M))
    return draw(st.sampled_from(found)) if found else None


@st.composite
def _swap_value(draw, text: str) -> str:
    m = _pick(draw, r"^(\s*[\w\"'.-]+\s*=\s*)(.*)$", text)
    return text if m is None else text[: m.start(2)] + draw(st.sampled_from(VALUES)) + text[m.end(2) :]


@st.composite
def _key_case(draw, text: str) -> str:
    m = _pick(draw, r"^\s*\[?([A-Za-z_]+)", text)
    if m is None:
        return text
    key = m.group(1)
    new = draw(st.sampled_from([key.upper(), key.title(), key.swapcase(), key[:1].upper() + key[1:]]))
    return text[: m.start(1)] + new + text[m.end(1) :]


@st.composite
def _size(draw, text: str) -> str:
    m = _pick(draw, r"\d+x\d+", text)
    side = st.integers(0, 12) | st.sampled_from([33, 500, 702, 703, 999, 1000, 10**6, 10**40])
    new = f"{draw(side)}x{draw(side)}"
    return text + f'\n[board]\nsize = "{new}"\n' if m is None else text[: m.start()] + new + text[m.end() :]


@st.composite
def _number(draw, text: str) -> str:
    m = _pick(draw, r"\d+", text)
    new = draw(st.integers(0, 30).map(str) | st.sampled_from(["-1", "99", "999", "1000000000", "1" + "0" * 19, "9" * 5000]))
    return text if m is None else text[: m.start()] + new + text[m.end() :]


@st.composite
def _line(draw, text: str) -> str:
    lines = text.split("\n")
    i = draw(st.integers(0, len(lines)))
    if draw(st.booleans()) and lines:
        lines.insert(i, lines[draw(st.integers(0, len(lines) - 1))])  # a duplicated line
    else:
        lines.insert(i, draw(st.sampled_from(LINES)))
    return "\n".join(lines)


@st.composite
def _whitespace(draw, text: str) -> str:
    how = draw(st.sampled_from(["crlf", "tabs", "cr", "nbsp", "bom"]))
    return {
        "crlf": text.replace("\n", "\r\n"),
        "tabs": text.replace(" ", "\t"),
        "cr": text.replace("\n", "\r", 1),
        "nbsp": text.replace(" ", "\u00a0", 3),
        "bom": "\ufeff" + text,
    }[how]


MUTATIONS = [_insert, _delete, _brackets, _swap_value, _key_case, _size, _number, _line, _whitespace]


@st.composite
def mutated(draw, mutations=MUTATIONS, max_steps: int = 3) -> str:
    name = draw(st.sampled_from(SMALL_SEEDS) | st.sampled_from(sorted(SEEDS)))
    text = SEEDS[name]
    for _ in range(draw(st.integers(1, max_steps))):
        text = draw(draw(st.sampled_from(mutations))(text))
    return text


def parse_or_error(text: str) -> Puzzle | None:
    """The puzzle, or None after checking the error is a well-worded PuzzleError."""
    try:
        p = parse_puzzle(text, "fuzz.toml")
    except BlokusError as e:
        message = str(e)
        assert isinstance(e, PuzzleError), message
        assert ERROR_FORMAT.match(message), message
        assert len(message) < 1000, message[:300]
        _event("error: TOML syntax" if "TOML syntax" in message else "error: puzzle")
        return None
    _event("parsed")
    return p


def _event(what: str) -> None:
    """Count outcomes for --hypothesis-show-statistics (inside a given test only)."""
    if currently_in_test_context():
        event(what)


def essence(p: Puzzle) -> tuple:
    """What a puzzle says: board, colours, pieces, set-up, rules, goal, names."""
    return (
        p.board, p.colors, {c: tuple(sorted(ps)) for c, ps in p.pieces.items()},
        {c: frozenset(ps) for c, ps in p.setup.items() if ps},
        p.connect, p.monomino_last, p.same_shape, p.stars, p.empty, p.goal, p.target, p.measure,
        p.name, p.description,
    )


def assert_round_trip(p: Puzzle) -> None:
    again = parse_puzzle(puzzle_to_toml(p), "again.toml")
    assert essence(again) == essence(p)


@FUZZ
@given(mutated())
def test_mutated_files_parse_or_raise_puzzle_errors(text):
    p = parse_or_error(text)
    if p is not None:
        assert_round_trip(p)


# mutations that mostly keep the file valid: swapped values, key case, sizes, numbers, lines
GENTLE = [_swap_value, _key_case, _size, _number, _line, _whitespace]


@settings(FUZZ, max_examples=200)
@given(mutated(GENTLE, max_steps=2))
def test_round_trip_where_parsing_succeeds(text):
    p = parse_or_error(text)
    if p is not None:
        assert_round_trip(p)


def test_every_seed_parses_and_round_trips():
    for name, text in SEEDS.items():
        p = parse_puzzle(text, name)
        assert_round_trip(p)


# -- the worst inputs: bounded time and memory ---------------------------------------------
GOOD = '[board]\nsize = "6x6"\n[pieces]\nblue = "all"\n'
WORST = {
    "nested arrays": "description = " + "[" * 5000 + "]" * 5000 + "\n" + GOOD,
    "nested tables": "description = " + "{a=" * 5000 + "1" + "}" * 5000 + "\n" + GOOD,
    "dotted key": "name" + ".a" * 50000 + " = 1\n" + GOOD,
    "dotted header": "[rules" + ".a" * 50000 + "]\n" + GOOD,
    "500x500": '[board]\nsize = "500x500"\n[pieces]\nblue = "all"\n',
    "100x100": '[board]\nsize = "100x100"\n[pieces]\nblue = "all"\n',
    "5000-digit size": '[board]\nsize = "' + "9" * 5000 + 'x1"\n[pieces]\nblue = "all"\n',
    "5000-digit number": "description = " + "9" * 5000 + "\n" + GOOD,
    "5000-digit hex number": "description = 0x" + "f" * 5000 + "\n" + GOOD,
    "16 levels quoted": "description = " + "[" * 16 + "]" * 16 + "\n" + GOOD,
    "wide drawing": '[board]\nrows = "' + "." * 100000 + '"\n[pieces]\nblue = "all"\n',
    "tall drawing": '[board]\nrows = """\n' + ".\n" * 50000 + '"""\n[pieces]\nblue = "all"\n',
    "too long": "# " + "x" * MAX_FILE_SIZE + "\n" + GOOD,
    "long string": 'description = "' + "x" * (MAX_FILE_SIZE - 100) + '"\n' + GOOD,
    "long key": '[goal]\n"' + "x" * (MAX_FILE_SIZE - 100) + '" = 1\n' + GOOD,
    "many squares": GOOD + "[rules]\nstars = [" + '"f6",' * 20000 + "]\n",
    "many bad squares": GOOD + '[rules]\nstars = "' + "a1 " * 20000 + 'zz1"\n',
}


@pytest.mark.parametrize("name", sorted(WORST))
def test_worst_inputs_take_little_memory(name):
    """Each parses or fails with a PuzzleError in a few MB (the old loader:
    RecursionError, MemoryError, or hours for dotted keys; their time is
    measured by hand, not asserted)."""
    text = WORST[name]
    tracemalloc.start()
    try:
        parse_or_error(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20e6, f"{name}: {peak / 1e6:.0f} MB"


def test_largest_boards_load():
    for size in ("32x32", "702x1", "1x999"):
        p = parse_puzzle(f'[board]\nsize = "{size}"\nstarts = "corners"\n[pieces]\nblue = "all"\n', "big.toml")
        assert f"{p.board.width}x{p.board.height}" == size


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_unending_file_is_cut_off():
    with pytest.raises(PuzzleError, match=rf"^/dev/zero:1: the file is too long: over {MAX_FILE_SIZE} bytes"):
        load_puzzle("/dev/zero")
