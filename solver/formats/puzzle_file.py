"""Puzzle files: TOML text describing a :class:`~solver.puzzle.definition.Puzzle`.

A complete example (only ``[pieces]`` and a board size or drawing are required)::

    name = "stars-7x7"          # default: the file name without .toml
    description = "Cover every star with the three blue pieces."

    [board]
    size = "7x7"                # WIDTHxHEIGHT; optional when rows is given
    # starts = "corners"        # "corners", "none" (default), or a table:
                                # {blue = "a7", yellow = ["g7", "f7"]}
    rows = \"\"\"
    b * . . . . .
    . . . * . . .
    . . R R . # .
    . . . R R . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    \"\"\"

    [pieces]                    # the colours taking part, and their pieces
    blue = "L5 T4 V3"           # "all", a list ["L5", "T4"] or names in a string
    # red takes no part: its set-up piece is an obstacle

    [rules]
    connect = "game"            # game (default) | touch | free
    monomino_last = false
    same_shape = "none"         # none (default) | edge | corner
    stars = ["g2"]              # squares to cover (also '*' in rows)
    empty = []                  # squares that must stay empty (also 'x' in rows)

    [goal]
    type = "place-all"          # place-all (default) | maximize | count
    # target = "blue+red"       # maximize only (required there)
    # measure = "score"         # maximize only: score (default) | squares

Meaning (see :class:`~solver.puzzle.definition.Puzzle` for the rules themselves):

- ``[board]``: ``size`` gives the rectangle; ``rows`` draws it, top row
  first, one character per square (spaces between characters are ignored,
  blank lines before and after the drawing too). Characters: ``.`` empty,
  ``#`` blocked, ``*`` star (must be covered), ``x`` must stay empty,
  ``B Y R G`` set-up pieces (each edge-connected group of one letter is one
  piece, so same-colour set-up pieces never share an edge), ``b y r g`` a
  start square of that colour (an empty square). Start squares come from
  ``starts`` and the drawing together; ``"corners"`` are blue top-left,
  yellow top-right, red bottom-right, green bottom-left.
- ``[pieces]``: one key per colour taking part (``Puzzle.colors``, in colour
  order blue yellow red green). ``"all"`` is the 21 pieces minus that
  colour's set-up pieces. Set-up pieces of colours not listed are obstacles.
  Piece names: ``1 2 I3 V3 I4 L4 O T4 Z4 F I5 L5 N P T5 U V5 W X Y Z5``
  (case-insensitive; ``1`` and ``2`` may be written as numbers in a list).
- ``[rules]``, ``[goal]``: the fields of the same names of ``Puzzle``
  (``goal.type`` is ``Puzzle.goal``); ``stars``/``empty`` may also be one
  string of squares separated by spaces or commas.

Errors raise :class:`~solver.errors.PuzzleError` as ``FILE:LINE: message``
quoting the bad input (TOML syntax errors as ``FILE:LINE:COLUMN:``);
something missing altogether is reported at line 1. Any input, however
odd, gives such an error rather than another exception: files over
:data:`MAX_FILE_SIZE`, arrays or tables nested deeper than
:data:`MAX_NESTING` and boards over
:data:`~solver.core.geometry.MAX_BOARD_SQUARES` squares are refused before any
work that grows with them, and quoted values are shortened.
"""

from __future__ import annotations

import difflib
import re
import reprlib
import tomllib
from pathlib import Path

from solver.core.geometry import NUM_COLORS, TRIANGLE, Board, board_size_problem, squares_of
from solver.core.pieces import PIECES, is_monomino, normalise, piece_by_name, piece_names, piece_of_shape
from solver.core.placements import placement_table
from solver.core.variants import CLASSIC, VARIANTS, Variant
from solver.errors import NotationError, PuzzleError
from solver.files import read_input
from solver.puzzle.definition import CONNECT_RULES, GOALS, MEASURES, SAME_SHAPE_RULES, Goal, Puzzle

__all__ = ["load_puzzle", "parse_puzzle", "puzzle_to_toml"]

_KNOWN = {
    (): ("name", "description", "variant", "board", "pieces", "rules", "goal"),
    ("board",): ("size", "starts", "rows", "first"),
    ("rules",): ("connect", "monomino_last", "same_shape", "stars", "empty"),
    ("goal",): ("type", "target", "measure"),
}
_SECTIONS = ("board", "pieces", "rules", "goal")

MAX_FILE_SIZE = 1 << 18
"""Longest puzzle file read, in bytes (or characters of text): 256 KiB. Real
ones are a few KB (a 32x32 drawing is 2 KB); the limit bounds every pass
over the text (the worst, 256 KiB of ``[],``, takes tomllib about a second)
and keeps ``load_puzzle("/dev/zero")`` from reading forever."""

MAX_NESTING = 16
"""Deepest nesting of arrays and inline tables (a puzzle file needs 2:
``starts = {blue = ["a1"]}``), and most parts of a dotted key. Checked on
the raw text before TOML parsing, because tomllib recurses once per level
(RecursionError, at a depth that depends on the interpreter and the
caller's stack) and takes time quadratic in the parts of a dotted key
(0.6 s for 4000 parts, hours for a megabyte of them)."""

class _Repr(reprlib.Repr):
    """repr() shortened (an input value may be 256 KiB long or nested, and
    repr() recurses), with TOML's dates, times and booleans as TOML writes them."""

    def __init__(self) -> None:
        super().__init__()
        self.maxstring = self.maxother = self.maxlong = 60
        self.maxlist = self.maxdict = 6
        self.maxlevel = 3

    def repr_bool(self, value: bool, level: int) -> str:
        return "true" if value else "false"

    def repr_int(self, value: int, level: int) -> str:
        text = repr(value) if value.bit_length() <= 64 else hex(value)  # repr() refuses 4300 digits
        if len(text) > self.maxlong:
            text = text[:28] + "..." + text[-28:]
        return text

    def repr_date(self, value, level: int) -> str:
        return value.isoformat()

    repr_datetime = repr_time = repr_date


_show = _Repr().repr  # a value quoted in an error message


# -- locating keys in the raw text ---------------------------------------------
_BARE = r"[A-Za-z0-9_-]+"
_KEYPART = rf'(?:{_BARE}|"[^"\\]*(?:\\.[^"\\]*)*"|\'[^\']*\')'  # no regex stack per character
_DOTTED = rf"{_KEYPART}(?:\s*\.\s*{_KEYPART}){{0,{MAX_NESTING - 1}}}"  # bounded: no regex stack per part
_KEY_RE = re.compile(rf"\s*({_DOTTED})\s*=\s*")
_HEADER_RE = re.compile(rf"\s*\[\[?\s*({_DOTTED})\s*\]\]?\s*(?:#.*)?$")
_TOO_DOTTED_RE = re.compile(rf"\s*(?:\[\[?\s*)?{_KEYPART}(?:\s*\.\s*{_KEYPART}){{{MAX_NESTING}}}")
_CODE_STOP = re.compile(r"[#\"'\[\]{}.=,]")  # outside strings: what the scan must look at
_STRING_STOP = {'"': re.compile(r'["\\]'), "'": re.compile("'")}  # inside a string


def _key_parts(text: str) -> tuple[str, ...]:
    return tuple(p.strip("\"'") for p in re.findall(_KEYPART, text))


class _Source:
    """The raw lines of a TOML text, with the line of each key and table
    header, for error messages, and the first line (if any) where arrays
    and inline tables nest deeper than :data:`MAX_NESTING` or a dotted key
    has more parts (``too_deep``: line and what). Lines are counted as TOML
    counts them: split at "\\n" only."""

    def __init__(self, text: str, source: str):
        self.source = source
        self.lines = [line.removesuffix("\r") for line in text.split("\n")]
        self.keys: dict[tuple[str, ...], tuple[int, int]] = {}  # path -> (line, column of value)
        self.too_deep: tuple[int, str] | None = None
        self._scan()

    def _scan(self) -> None:
        section: tuple[str, ...] = ()
        depth, in_str = 0, None
        deep = f"arrays or tables nested more than {MAX_NESTING} deep (a puzzle file needs 2)"
        dotted = f"a dotted key of more than {MAX_NESTING} parts"
        for lineno, line in enumerate(self.lines, 1):
            j = dots = 0  # dots: of the dotted key being read
            if depth == 0 and in_str is None:
                if _TOO_DOTTED_RE.match(line):
                    self.too_deep = lineno, dotted
                    return
                m = _HEADER_RE.match(line)
                if m:
                    section = _key_parts(m.group(1))
                    self.keys.setdefault(section, (lineno, 0))
                    continue
                m = _KEY_RE.match(line)
                if not m:
                    continue
                self.keys.setdefault(section + _key_parts(m.group(1)), (lineno, m.end()))
                j = m.end()
            while True:  # follow strings, brackets and dotted keys in inline tables across lines
                if in_str is None:
                    m = _CODE_STOP.search(line, j)
                    if not m or m.group() == "#":
                        break
                    j = m.start()
                    if line.startswith(('"""', "'''"), j):
                        in_str, j = line[j : j + 3], j + 3
                        continue
                    c, j = line[j], j + 1
                    if c == ".":
                        dots += 1
                    elif c not in "\"'":  # quoted parts of a dotted key are parts too
                        dots = 0
                    if c in "\"'":
                        in_str = c
                    elif c in "[{":
                        depth += 1
                    elif c in "]}":
                        depth = max(0, depth - 1)
                    if depth > MAX_NESTING or dots >= MAX_NESTING:  # 16 dots join 17 parts
                        self.too_deep = lineno, deep if depth > MAX_NESTING else dotted
                        return
                    continue
                m = _STRING_STOP[in_str[0]].search(line, j)
                if not m:
                    break
                j = m.start()
                if line[j] == "\\":
                    j += 2
                elif line.startswith(in_str, j):
                    j += len(in_str)
                    while len(in_str) == 3 and line.startswith(in_str[0], j):
                        j += 1  # up to two quotes may end a multi-line string's text
                    in_str = None
                else:
                    j += 1
            if in_str in ('"', "'"):
                in_str = None

    def line(self, *path: str, needle: str | None = None) -> int:
        """The line assigning ``path`` (or the nearest enclosing key or table
        found); with ``needle``, the first line from there on that quotes it."""
        for n in range(len(path), 0, -1):
            if path[:n] in self.keys:
                start = self.keys[path[:n]][0]
                break
        else:
            return 1
        if needle is not None:
            for i in range(start - 1, min(len(self.lines), start + 200)):
                text = self.lines[i]
                if i > start - 1 and (_KEY_RE.match(text) or _HEADER_RE.match(text)):
                    break  # the value ended: keep the key's line
                if needle in text:
                    return i + 1
        return start

    def string_lines(self, *path: str) -> tuple[int, int]:
        """The line of the first character of a string value and the step
        to the line of the next line of its text: 1 in a multi-line string,
        0 in a one-line string (where "\\n" escapes split it)."""
        if path not in self.keys:
            return self.line(*path), 0
        lineno, col = self.keys[path]
        rest = self.lines[lineno - 1][col:]
        step = 1 if rest.startswith(('"""', "'''")) else 0
        return self.first_string_line(*path), step

    def first_string_line(self, *path: str) -> int:
        """The line of the first character of a string value (a multi-line
        string's text starts on the next line when the quotes end theirs)."""
        if path not in self.keys:
            return self.line(*path)
        lineno, col = self.keys[path]
        rest = self.lines[lineno - 1][col:]
        if rest.startswith('"""') and rest[3:].strip() == "\\":  # a line-ending backslash
            while lineno < len(self.lines) and not self.lines[lineno].strip():  # trims blank lines too
                lineno += 1
            return lineno + 1
        for q in ('"""', "'''"):
            if rest.startswith(q) and not rest[3:].strip():
                return lineno + 1
        return lineno

    def error(self, line: int, message: str) -> PuzzleError:
        return PuzzleError(f"{self.source}:{line}: {message}")


# -- reading --------------------------------------------------------------------
def load_puzzle(path) -> Puzzle:
    """Read a puzzle file (UTF-8 TOML; a byte order mark is allowed): at
    most :data:`MAX_FILE_SIZE` bytes, so even an endless file is refused."""
    raw = read_input(path, MAX_FILE_SIZE, PuzzleError)
    if len(raw) > MAX_FILE_SIZE:
        raise _too_long(str(path), raw[:MAX_FILE_SIZE].count(b"\n") + 1, "bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise PuzzleError(f"{path}: cannot read: not UTF-8 text ({e.reason} at byte {e.start})") from None
    return parse_puzzle(text, str(path))


def parse_puzzle(text: str, source: str = "<puzzle>") -> Puzzle:
    """Parse puzzle TOML text; ``source`` names it in error messages and
    gives the default name (the file name without ``.toml``)."""
    if len(text) > MAX_FILE_SIZE:
        raise _too_long(source, text.count("\n", 0, MAX_FILE_SIZE) + 1, "characters")
    text = text.removeprefix("\ufeff")  # a byte order mark, as some editors write
    if _GAME_RECORD_START.match(text):
        raise PuzzleError(f"{source}:1: this is not a puzzle file; it looks like a game record (.blksgf), "
                          "which 'blokus show', 'analyze', 'annotate' and 'render' read")
    src = _Source(text, source)
    if src.too_deep is not None:  # before tomllib, which would recurse or take hours
        raise src.error(*src.too_deep)
    return _Parser(_toml(text, src), src).puzzle()


_GAME_RECORD_START = re.compile(r"\s*\(\s*;")  # SGF: '(;' opens a game tree


def _too_long(source: str, line: int, unit: str) -> PuzzleError:
    """The error for a text over MAX_FILE_SIZE, at the line where it goes over."""
    return PuzzleError(f"{source}:{line}: the file is too long: over {MAX_FILE_SIZE} {unit} (puzzle files are a few KB)")


def _toml(text: str, src: _Source) -> dict:
    """The TOML data, or a PuzzleError at the line of the problem."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        msg = str(e)  # tomllib quotes keys in full: shorten them
        msg = msg if len(msg) < 300 else msg[:150] + "..." + msg[-100:]
        m = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", msg, re.S)
        if m:
            raise PuzzleError(f"{src.source}:{m.group(2)}:{m.group(3)}: TOML syntax error: {m.group(1)}") from None
        m = re.fullmatch(r"(.*) \(at end of document\)", msg, re.S)
        last = max(1, text.count("\n") + (not text.endswith("\n")))
        raise src.error(last, f"TOML syntax error: {m.group(1) if m else msg}") from None
    except RecursionError:  # nesting the scan did not see: a safety net
        raise src.error(1, "arrays or tables nested too deep (a puzzle file needs 2)") from None
    except ValueError as e:  # int() refuses numbers of over 4300 digits
        if "digits" not in str(e):
            raise src.error(1, f"TOML error: {e}") from None
        line = next((i for i, t in enumerate(src.lines, 1) if _LONG_NUMBER.search(t)), 1)
        raise src.error(line, "TOML error: a number of thousands of digits (TOML integers have up to 19)") from None


_LONG_NUMBER = re.compile(r"(?<![\w.])(?:0[xob][0-9A-Fa-f_]{4300}|[0-9_]{4300})")


def _split_words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s,]+", text) if w]


class _Parser:
    """Turns the TOML data into a :class:`Puzzle`, checking every value
    against the file's lines (``src``) so that errors name them."""

    def __init__(self, data: dict, src: _Source):
        self.data = data
        self.src = src
        self.row_lines: list[int] = []  # the line of each drawn row
        self.use_variant(CLASSIC)

    def use_variant(self, variant: Variant) -> None:
        """Colour names and drawing letters of the variant's colours in play
        (B Y R G set-up pieces and b y r g starts; P O in Duo, G O in Junior)."""
        self.variant = variant
        self.grid = variant.board.grid
        self.names = {c: variant.names[c] for c in variant.colors}
        self.letters = {variant.names[c][0].upper(): c for c in variant.colors}
        self.cell_chars = ". # * x " + " ".join(self.letters) + " " + " ".join(self.letters).lower()
        if self.grid == TRIANGLE:
            self.cell_chars += " +"  # a starting point of every colour in play

    def read_variant(self) -> Variant:
        value = self.data.get("variant", CLASSIC.key)
        key = self.string(("variant",), value).strip().lower()
        if key not in VARIANTS:
            self.fail(("variant",), f"unknown variant {_show(value)} (known: {' '.join(VARIANTS)})")
        return VARIANTS[key]

    def fail(self, path: tuple[str, ...], message: str, needle: str | None = None):
        raise self.src.error(self.src.line(*path, needle=needle), message)

    # -- generic checks -----------------------------------------------------------
    def check_keys(self, path: tuple[str, ...], table: dict, known) -> None:
        where = f"[{'.'.join(path)}]" if path else "the top level"
        for key in table:
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1) if len(key) < 40 else []
                hint = f"did you mean {close[0]!r}? " if close else ""
                self.fail(path + (key,), f"unknown key {_show(key)} in {where} ({hint}known: {' '.join(known)})")

    def section(self, name: str) -> dict:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            self.fail((name,), f"{name} must be a table [{name}], not {_show(value)}")
        return value

    def string(self, path: tuple[str, ...], value, choices=None, what: str | None = None) -> str:
        if not isinstance(value, str):
            self.fail(path, f"{path[-1]} must be a string, not {_show(value)}")
        if choices is not None and value not in choices:
            self.fail(path, f"unknown {what or path[-1]} {_show(value)} (expected one of: {' '.join(choices)})")
        return value

    def color(self, path: tuple[str, ...], name, needle: str | None = None) -> int:
        key = name.strip().lower() if isinstance(name, str) else name
        found = [c for c, n in self.names.items() if n == key]
        if not found:
            self.fail(path, f"unknown colour {_show(name)} (known: {' '.join(self.names.values())})", needle)
        return found[0]

    def color_keys(self, path: tuple[str, ...], table: dict) -> list[tuple[int, str]]:
        """The colour of each key of a table keyed by colour names. Colour
        names ignore case, so ``blue`` and ``Blue`` are one colour: both in
        one table would silently lose or merge one entry, so it is an error."""
        seen: dict[int, str] = {}
        for key in table:
            c = self.color(path + (key,), key)
            if c in seen:
                self.fail(
                    path + (key,),
                    f"keys {_show(seen[c])} and {_show(key)} in [{'.'.join(path)}] both name"
                    f" {self.names[c]} (colour names ignore case): keep one",
                )
            seen[c] = key
        return [(c, key) for c, key in seen.items()]

    def squares(self, path: tuple[str, ...], value, board: Board, what: str) -> list[int]:
        """A list of square names, or one string of them."""
        if isinstance(value, str):
            items = _split_words(value)
        elif isinstance(value, list):
            items = value
        else:
            self.fail(path, f"{path[-1]} must be a list of squares like [\"a1\", \"b2\"], not {_show(value)}")
        out = []
        for item in items:
            if not isinstance(item, str):
                self.fail(path, f"{what} {_show(item)} is not a square name like \"a1\"")
            try:
                out.append(board.parse_square(item))
            except NotationError as e:  # its message quotes the item in full: not when long
                self.fail(path, f"bad {what} {_show(item)}: {e if len(item) < 20 else 'not a square'}", needle=item)
        return out

    # -- the puzzle ---------------------------------------------------------------
    def puzzle(self) -> Puzzle:
        data, src = self.data, self.src
        self.check_keys((), data, _KNOWN[()])
        name = data.get("name")
        if name is None:
            base = Path(src.source).name
            name = base[: -len(".toml")] if base.endswith(".toml") else base
        name = self.string(("name",), name)
        description = self.string(("description",), data.get("description", ""))
        self.use_variant(self.read_variant())
        for s in _SECTIONS:
            self.section(s)

        board, cells = self.board(self.section("board"))
        setup = self.setup(board, cells)

        if "pieces" not in data:
            raise src.error(1, 'no [pieces] section: list the colours taking part and their pieces, e.g. blue = "all"')
        colors, pieces = self.pieces(self.section("pieces"), setup, board)
        rules = self.rules(board, cells, setup, colors, pieces)
        goal = self.goal(colors)
        try:
            return Puzzle(
                board=board, colors=colors, pieces=pieces, setup=setup, **rules, **goal,
                name=name, description=description, variant=self.variant,
            )
        except PuzzleError as e:  # a check this parser lacks: still name the file
            raise src.error(1, str(e)) from None

    def rules(self, board: Board, cells, setup, colors, pieces) -> dict:
        """The [rules] fields of :class:`Puzzle`."""
        rules = self.section("rules")
        self.check_keys(("rules",), rules, _KNOWN[("rules",)])
        connect = self.string(("rules", "connect"), rules.get("connect", "game"), CONNECT_RULES)
        same_shape = self.string(("rules", "same_shape"), rules.get("same_shape", "none"), SAME_SHAPE_RULES)
        mono_last = rules.get("monomino_last", False)
        if not isinstance(mono_last, bool):
            self.fail(("rules", "monomino_last"), f"monomino_last must be true or false, not {_show(mono_last)}")
        if mono_last:
            for c in colors:
                if not any(is_monomino(i) for i in pieces[c]):
                    self.fail(("rules", "monomino_last"), f"monomino_last = true, but {self.names[c]} has no monomino to place")
        stars = self.marks("stars", "*", rules, board, cells, setup)
        empty = self.marks("empty", "x", rules, board, cells, setup)
        both = stars & empty
        if both:
            sq = board.square_name(min(both))
            self.fail(("rules", "empty"), f"square {sq} is both a star and a square that must stay empty", needle=sq)
        return dict(connect=connect, same_shape=same_shape, monomino_last=mono_last, stars=stars, empty=empty)

    def goal(self, colors: tuple[int, ...]) -> dict:
        """The [goal] fields of :class:`Puzzle`: goal, target, measure."""
        goal_t = self.section("goal")
        self.check_keys(("goal",), goal_t, _KNOWN[("goal",)])
        goal = self.string(("goal", "type"), goal_t.get("type", "place-all"), GOALS, "goal type")
        target: tuple[int, ...] = ()
        measure = "score"
        if goal == "maximize":
            if "target" not in goal_t:
                self.fail(("goal", "type"), 'goal type "maximize" needs a target, e.g. target = "blue" or "blue+red"')
            target = self.target(goal_t["target"], colors)
            measure = self.string(("goal", "measure"), goal_t.get("measure", "score"), MEASURES)
        else:
            for key in ("target", "measure"):
                if key in goal_t:
                    self.fail(("goal", key), f'{key} is only used with type = "maximize" (the goal is {goal!r})')
        return dict(goal=goal, target=target, measure=measure)

    def board(self, board_t: dict) -> tuple[Board, dict[int, str]]:
        """The board, and the drawing's characters other than '.' by cell."""
        self.check_keys(("board",), board_t, _KNOWN[("board",)])
        if self.grid == TRIANGLE:
            return self.triangle_board(board_t)
        if "first" in board_t:
            self.fail(("board", "first"), 'first is only used on triangle boards (variant = "trigon", "trigon_2" or "trigon_3")')
        if self.variant is not CLASSIC and not board_t:  # the variant's own board and starts
            board_t = {"size": f"{self.variant.board.width}x{self.variant.board.height}",
                       "starts": {self.names[c]: self.variant.board.square_names(self.variant.board.start_masks[c])
                                  for c in self.variant.colors}}
        width, height, cells = self.board_shape(board_t)
        blocked = frozenset(sq for sq, ch in cells.items() if ch == "#")
        plain = Board(width, height, blocked)
        starts = self.starts(board_t, plain, cells)
        return Board(width, height, blocked, starts), cells

    def triangle_board(self, board_t: dict) -> tuple[Board, dict[int, str]]:
        """A triangle board: drawn (``rows``), a rectangle (``size``), or
        the variant's own hexagon with its starting points."""
        if "rows" not in board_t and "size" not in board_t:
            if "first" in board_t:
                self.fail(("board", "first"), f"first needs a rows drawing or a size (the {self.variant.game} board is fixed)")
            own = default_board(self.variant)
            if "starts" not in board_t:
                return own, {}
            width, height, outside, parity, cells = own.width, own.height, own.outside, own.parity, {}
        else:
            first = self.string(("board", "first"), board_t.get("first", "up"), ("up", "down"), "first")
            if "rows" in board_t:
                width, height, cells, outside = self.triangle_shape(board_t)
            else:
                (width, height), cells, outside = self.board_size(board_t), {}, frozenset()
            top = next(c for c in range(width) if c not in outside)  # the first cell of the top row
            parity = (top + (first == "down")) % 2
        blocked = outside | frozenset(sq for sq, ch in cells.items() if ch == "#")
        plain = Board(width, height, blocked, grid=TRIANGLE, parity=parity, outside=outside)
        starts = self.starts(board_t, plain, cells)
        return Board(width, height, blocked, starts, TRIANGLE, parity, outside), cells

    def drawing_lines(self, board_t: dict) -> list[tuple[int, str]]:
        """The lines of the rows drawing with their line numbers, blank lines
        before and after it left out."""
        text = self.string(("board", "rows"), board_t["rows"])
        first, step = self.src.string_lines("board", "rows")
        numbered = [(first + i * step, line) for i, line in enumerate(text.split("\n"))]
        while numbered and not numbered[0][1].strip():
            numbered.pop(0)
        while numbered and not numbered[-1][1].strip():
            numbered.pop()
        if not numbered:
            self.fail(("board", "rows"), "the rows drawing is empty")
        return numbered

    def triangle_shape(self, board_t: dict) -> tuple[int, int, dict[int, str], frozenset[int]]:
        """Width, height, the drawing's characters other than '.' and ' ' by
        cell, and the cells outside the board (spaces, and the cells right
        of a row's end), of a triangle drawing: one character per cell, the
        indentation the rows share removed."""
        numbered = [(lineno, line.replace("\r", "").rstrip(" ")) for lineno, line in self.drawing_lines(board_t)]
        for lineno, line in numbered:
            if "\t" in line:
                raise self.src.error(lineno, "a tab in the rows drawing of a triangle board (indent with spaces:"
                                             " each space is one cell outside the board)")
        indent = min(len(line) - len(line.lstrip(" ")) for _, line in numbered if line.strip())
        rows: list[tuple[int, str]] = []
        width = 0
        for lineno, line in numbered:
            row = line[indent:]
            if not row.strip():
                raise self.src.error(lineno, "empty line inside the rows drawing")
            unknown = set(row) - set(self.cell_chars.split()) - {" "}
            if unknown:
                ch = next(ch for ch in row if ch in unknown)
                raise self.src.error(
                    lineno, f"unknown character {ch!r} in board row {_show(row.strip())} (known: {self.cell_chars},"
                            " and a space for a cell outside the board)"
                )
            rows.append((lineno, row))
            width = max(width, len(row))
            problem = board_size_problem(width, len(rows))
            if problem:
                raise self.src.error(lineno, f"the board drawn is too large ({width}x{len(rows)} by this row): {problem}")
        height = len(rows)
        size = self.board_size(board_t)
        if size is not None and size != (width, height):
            self.fail(("board", "size"),
                      f"size {_show(board_t['size'])} does not match the rows drawing ({width} wide, {height} high)")
        self.row_lines = [lineno for lineno, _ in rows]
        padded = [row.ljust(width) for _, row in rows]
        cells = {r * width + c: ch for r, row in enumerate(padded) for c, ch in enumerate(row) if ch not in ". "}
        outside = frozenset(r * width + c for r, row in enumerate(padded) for c, ch in enumerate(row) if ch == " ")
        return width, height, cells, outside

    def board_size(self, board_t: dict) -> tuple[int, int] | None:
        """``size = "WIDTHxHEIGHT"``, checked against the board limits."""
        if "size" not in board_t:
            return None
        text = self.string(("board", "size"), board_t["size"])
        m = re.fullmatch(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*", text)
        if not m:
            self.fail(("board", "size"), f'bad board size {_show(text)} (expected WIDTHxHEIGHT, e.g. "20x20")')
        width, height = (int(g) if len(g) <= 6 else 10**6 for g in m.groups())  # int() refuses 4300 digits
        problem = board_size_problem(width, height)
        if problem:
            self.fail(("board", "size"), f"bad board size {_show(text)}: {problem}")
        return width, height

    def board_shape(self, board_t: dict) -> tuple[int, int, dict[int, str]]:
        """Width, height and the drawing's non-'.' characters by square."""
        size = self.board_size(board_t)
        if "rows" not in board_t:
            if size is None:
                raise self.src.error(
                    self.src.line("board"), 'the board needs a size ("WIDTHxHEIGHT") or a rows drawing'
                )
            return size[0], size[1], {}
        rows = self.drawn_rows(self.drawing_lines(board_t))
        width, height = len(rows[0][1]), len(rows)
        if size is not None and size != (width, height):
            self.fail(
                ("board", "size"),
                f"size {_show(board_t['size'])} does not match the rows drawing ({width} wide, {height} high)",
            )
        self.row_lines = [lineno for lineno, _ in rows]
        cells = {r * width + c: ch for r, (_, row) in enumerate(rows) for c, ch in enumerate(row) if ch != "."}
        return width, height, cells

    def drawn_rows(self, numbered: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """The rows of the drawing without spaces, each with its line,
        checked one by one (so a huge drawing stops at the row too many)."""
        width = None
        rows = []
        for lineno, line in numbered:
            row = re.sub(r"[ \t\r]", "", line)
            if not row:
                raise self.src.error(lineno, "empty line inside the rows drawing")
            unknown = set(row) - set(self.cell_chars.split())
            if unknown:
                ch = next(ch for ch in row if ch in unknown)
                raise self.src.error(
                    lineno, f"unknown character {ch!r} in board row {_show(line.strip())} (known: {self.cell_chars})"
                )
            if width is None:
                width = len(row)
            elif len(row) != width:
                raise self.src.error(
                    lineno,
                    f"board row {_show(line.strip())} has {len(row)} squares, the first row has {width}",
                )
            rows.append((lineno, row))
            problem = board_size_problem(width, len(rows))
            if problem:
                raise self.src.error(lineno, f"the board drawn is too large ({width}x{len(rows)} by this row): {problem}")
        return rows

    def row_line(self, board: Board, sq: int) -> int:
        return self.row_lines[board.row_col(sq)[0]]

    def starts(self, board_t: dict, plain: Board, cells: dict[int, str]) -> tuple[frozenset[int], ...]:
        path = ("board", "starts")
        starts: list[set[int]] = [set() for _ in range(NUM_COLORS)]
        starters = {letter.lower(): c for letter, c in self.letters.items()}
        for sq, ch in cells.items():
            if ch in starters:
                starts[starters[ch]].add(sq)
            elif ch == "+":
                for c in self.variant.colors:
                    starts[c].add(sq)
        value = board_t.get("starts", "none")
        if isinstance(value, str):
            if value not in ("corners", "none"):
                self.fail(path, f'unknown starts {_show(value)} (expected "corners", "none" or a table like {{blue = "a20"}})')
            if value == "none" and "starts" in board_t and any(starts):
                marks = " ".join(starters) + (" +" if self.grid == TRIANGLE else "")
                self.fail(path, f'starts = "none", but the rows drawing marks start squares ({marks})')
            if value == "corners" and self.grid == TRIANGLE:
                self.fail(path, 'starts = "corners" is for square boards: on a triangle board mark starting points'
                                ' with "+" (every colour) or b y r g in the drawing, or list them {blue = "r15"}')
            if value == "corners":
                corners = Board.rectangle(plain.width, plain.height, corners=True).starts
                for c in range(NUM_COLORS):
                    starts[c] |= corners[c]
        elif isinstance(value, dict):
            for c, key in self.color_keys(path, value):
                starts[c].update(self.squares(path + (key,), value[key], plain, "start square"))
        else:
            self.fail(path, f'starts must be "corners", "none" or a table like {{blue = "a20"}}, not {_show(value)}')
        for c in range(NUM_COLORS):
            for sq in sorted(starts[c]):
                if sq in plain.blocked:
                    name = plain.square_name(sq)
                    self.fail(path, f"{self.names[c]} start square {name} is on a blocked square", needle=name)
        return tuple(frozenset(s) for s in starts)

    def setup(self, board: Board, cells: dict[int, str]) -> dict[int, tuple[int, ...]]:
        """The set-up pieces drawn with B Y R G, colour by colour, each in
        the order of its top-left square."""
        table = placement_table(board)
        seen: set[int] = set()
        found: dict[int, list[int]] = {}
        for sq in sorted(cells):
            ch = cells[sq]
            if ch not in self.letters or sq in seen:
                continue
            group, stack = [], [sq]
            seen.add(sq)
            while stack:
                s = stack.pop()
                group.append(s)
                for n in _side_neighbours(board, s):
                    if n not in seen and cells.get(n) == ch:
                        seen.add(n)
                        stack.append(n)
            c = self.letters[ch]
            names = board.square_names(sum(1 << s for s in group))
            word = "cells" if board.grid == TRIANGLE else "squares"
            names_text = ",".join(names if len(names) <= 6 else names[:5] + [f"... ({len(names)} {word})"])
            line = self.row_line(board, min(group))
            triangle = board.grid == TRIANGLE
            p = table.find(group) if triangle or piece_of_shape(normalise(board.row_col(s) for s in group)) else None
            if p is None:
                raise self.src.error(
                    line, f"set-up {word} {names_text} ({ch}, {self.names[c]}) are not a piece shape"
                    " (each edge-connected group of one letter is one piece)"
                )
            for q in found.get(c, []):
                if table.piece[q] == table.piece[p]:
                    raise self.src.error(
                        line, f"{self.names[c]} has piece {PIECES[table.piece[p]].name} twice on the board:"
                        f" {table.name(q)} and {names_text}"
                    )
            found.setdefault(c, []).append(p)
        return {c: tuple(ps) for c, ps in sorted(found.items())}

    def pieces(self, table: dict, setup, board: Board) -> tuple[tuple[int, ...], dict[int, tuple[int, ...]]]:
        if not table:
            self.fail(("pieces",), '[pieces] lists no colour: add e.g. blue = "all"')
        t = placement_table(board)
        pieces: dict[int, tuple[int, ...]] = {}
        for c, key in self.color_keys(("pieces",), table):
            value = table[key]
            path = ("pieces", key)
            on_board = {t.piece[p]: p for p in setup.get(c, ())}
            if isinstance(value, str) and value.strip().lower() == "all":
                pieces[c] = tuple(i for i in self.variant.pieces if i not in on_board)
                continue
            if isinstance(value, str):
                names = _split_words(value)
            elif isinstance(value, list):
                names = [str(v) if type(v) is int and abs(v) < 10**9 else v for v in value]  # 1, 2: piece names
            else:
                self.fail(path, f'{key} must be "all", a list of piece names or a string of them, not {_show(value)}')
            chosen: list[int] = []
            for n in names:
                known = " ".join(piece_names(self.grid))
                if not isinstance(n, str):
                    self.fail(path, f"{key}: {_show(n)} is not a piece name (known: {known})")
                try:
                    i = piece_by_name(n, self.grid).index
                except NotationError:
                    self.fail(path, f"{key}: unknown piece name {_show(n)} (known: {known})", needle=n)
                if i in chosen:
                    self.fail(path, f"{key}: piece {_show(n)} is listed twice", needle=n)
                if i in on_board:
                    self.fail(
                        path,
                        f"{key}: piece {_show(n)} is already on the board (set-up at {t.name(on_board[i])}),"
                        " so it cannot be placed again",
                        needle=n,
                    )
                chosen.append(i)
            pieces[c] = tuple(sorted(chosen))
        colors = tuple(sorted(pieces))
        return colors, {c: pieces[c] for c in colors}

    def marks(self, key: str, ch: str, rules: dict, board: Board, cells, setup) -> frozenset[int]:
        """Star squares ('*') or squares to keep empty ('x')."""
        what = "star square" if key == "stars" else "empty square"
        listed = self.squares(("rules", key), rules.get(key, []), board, what)
        t = placement_table(board)
        covered = {sq: c for c, ps in setup.items() for p in ps for sq in t.squares[p]}
        for sq in listed:
            name = board.square_name(sq)
            if sq in board.blocked:
                self.fail(("rules", key), f"{what} {name} is on a blocked square", needle=name)
            if sq in covered:
                self.fail(("rules", key), f"{what} {name} is covered by a {self.names[covered[sq]]} set-up piece", needle=name)
        return frozenset(listed) | frozenset(sq for sq, c in cells.items() if c == ch)

    def target(self, value, colors) -> tuple[int, ...]:
        path = ("goal", "target")
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            names = value
        elif isinstance(value, str):
            names = [n.strip() for n in value.split("+")]
        else:
            self.fail(path, f'target must be a colour or colours joined by "+", e.g. "blue+red", not {_show(value)}')
        if not any(n.strip() for n in names):
            self.fail(path, f'target {_show(value)} names no colour: write a colour or colours joined by "+", e.g. "blue+red"')
        if not all(n.strip() for n in names):
            self.fail(path, f'target {_show(value)} has an empty colour name: join colours by one "+", e.g. "blue+red"')
        out: list[int] = []
        for n in names:
            c = self.color(path, n)
            if c not in colors:
                self.fail(path, f"target colour {self.names[c]} does not take part (it has no entry in [pieces])")
            if c in out:
                self.fail(path, f"target colour {self.names[c]} is named twice in {_show(value)}")
            out.append(c)
        return tuple(sorted(out))


# -- writing --------------------------------------------------------------------
def _toml_string(s: str) -> str:
    out = []
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _side_neighbours(board: Board, sq: int) -> list[int]:
    """The cells sharing a side with ``sq`` (on the board's rectangle)."""
    if board.grid == TRIANGLE:
        return list(squares_of(board.edge_neighbours(1 << sq)))
    r, col = board.row_col(sq)
    return [board.square(r + dr, col + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if board.on_board(r + dr, col + dc)]


def default_board(variant: Variant) -> Board:
    """The board of a puzzle file of a triangle variant without [board]:
    the variant's hexagon, its starting points open to the colours in play."""
    b = variant.board
    starts = tuple(b.starts[c] if c in variant.colors else frozenset() for c in range(NUM_COLORS))
    return Board(b.width, b.height, b.blocked, starts, b.grid, b.parity, b.outside)


def _start_lines(b: Board, grid: list[str], names: list[str], letters: list[str], every=()) -> list[str]:
    """Start squares drawn as letters in ``grid`` (``+`` where exactly the
    colours ``every`` start), the others as a ``starts`` table."""
    owners: dict[int, list[int]] = {}
    for c, squares in enumerate(b.starts):
        for sq in squares:
            owners.setdefault(sq, []).append(c)
    rest: dict[int, list[str]] = {}
    for sq, cs in sorted(owners.items()):
        if grid[sq] == "." and len(cs) > 1 and tuple(cs) == tuple(every):
            grid[sq] = "+"
        elif len(cs) == 1 and grid[sq] == ".":
            grid[sq] = letters[cs[0]].lower()
        else:
            for c in cs:
                rest.setdefault(c, []).append(b.square_name(sq))
    if not rest:
        return []
    items = ", ".join(f"{names[c]} = [{', '.join(_toml_string(n) for n in squares)}]" for c, squares in sorted(rest.items()))
    return [f"starts = {{{items}}}"]


def _square_board_lines(b: Board, grid: list[str], names: list[str], letters: list[str]) -> list[str]:
    """The [board] section of a square board: size, starts, rows."""
    lines = ["", "[board]", f'size = "{b.width}x{b.height}"']
    corners = Board.rectangle(b.width, b.height, corners=True).starts
    if any(b.starts):
        if b.starts == corners:
            lines.append('starts = "corners"')
        else:
            lines += _start_lines(b, grid, names, letters)
    lines.append('rows = """')
    for r in range(b.height):
        lines.append(" ".join(grid[r * b.width : (r + 1) * b.width]))
    return lines + ['"""']


def _triangle_board_lines(puzzle: Puzzle, grid: list[str], names: list[str], letters: list[str]) -> list[str]:
    """The [board] section of a triangle board (none for the variant's own
    board with nothing drawn on it): size, first, starts, rows drawn one
    character per cell, a space outside the board."""
    b = puzzle.board
    if b == default_board(puzzle.variant) and not (puzzle.setup or puzzle.stars or puzzle.empty):
        return []
    rows = ["".join(grid[r * b.width : (r + 1) * b.width]) for r in range(b.height)]
    if not all(row.strip() for row in rows) or all(row[0] == " " for row in rows) \
            or all(row[-1] == " " for row in rows):
        raise PuzzleError(f"{puzzle.name}: cannot write this triangle board: a row, or its first or last column,"
                          " lies wholly outside the board (a drawing starts and ends with cells)")
    top = len(rows[0]) - len(rows[0].lstrip(" "))  # the first cell of the top row
    lines = ["", "[board]", f'size = "{b.width}x{b.height}"']
    if not b.points_up(top):
        lines.append('first = "down"')
    every = tuple(c for c in range(NUM_COLORS) if c in puzzle.variant.colors)
    lines += _start_lines(b, grid, names, letters, every)
    rows = ["".join(grid[r * b.width : (r + 1) * b.width]).rstrip() for r in range(b.height)]
    return lines + ['rows = """', *rows, '"""']


def puzzle_to_toml(puzzle: Puzzle) -> str:
    """The puzzle as puzzle-file text (with a rows drawing; a triangle
    variant's own board with nothing on it is left out);
    ``parse_puzzle(puzzle_to_toml(p))`` describes the same puzzle.
    Same-colour set-up pieces must not share an edge (they never may)."""
    b, t = puzzle.board, puzzle.table
    names = [puzzle.color_name(c) for c in range(NUM_COLORS)]
    letters = [n[0].upper() for n in names]
    grid = ["."] * b.size
    for sq in b.blocked:
        grid[sq] = " " if sq in b.outside else "#"
    for c, ps in puzzle.setup.items():
        for p in ps:
            for sq in t.squares[p]:
                grid[sq] = letters[c]
    for sq in puzzle.stars:
        grid[sq] = "*"
    for sq in puzzle.empty:
        grid[sq] = "x"

    lines = [f"name = {_toml_string(puzzle.name)}"]
    if puzzle.description:
        lines.append(f"description = {_toml_string(puzzle.description)}")
    if puzzle.variant.key != CLASSIC.key:  # (a puzzle from another process has its own copy)
        lines.append(f"variant = {_toml_string(puzzle.variant.key)}")
    if b.grid == TRIANGLE:
        lines += _triangle_board_lines(puzzle, grid, names, letters)
    else:
        lines += _square_board_lines(b, grid, names, letters)
    lines += ["", "[pieces]"]
    for c in puzzle.colors:
        on_board = {t.piece[p] for p in puzzle.setup_of(c)}
        everything = tuple(i for i in puzzle.variant.pieces if i not in on_board)
        if tuple(sorted(puzzle.pieces[c])) == everything:
            value = '"all"'
        elif not puzzle.pieces[c]:
            value = "[]"
        else:
            value = _toml_string(" ".join(PIECES[i].name for i in sorted(puzzle.pieces[c])))
        lines.append(f"{names[c]} = {value}")
    lines += [
        "",
        "[rules]",
        f"connect = {_toml_string(puzzle.connect)}",
        f"monomino_last = {'true' if puzzle.monomino_last else 'false'}",
        f"same_shape = {_toml_string(puzzle.same_shape)}",
        "",
        "[goal]",
        f"type = {_toml_string(puzzle.goal)}",
    ]
    if puzzle.goal is Goal.MAXIMIZE:
        lines.append(f"target = {_toml_string('+'.join(names[c] for c in puzzle.target))}")
        lines.append(f"measure = {_toml_string(puzzle.measure)}")
    return "\n".join(lines) + "\n"
