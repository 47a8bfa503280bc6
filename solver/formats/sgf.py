"""Pentobi's Blokus SGF game records (``.blksgf``): read and write.

Reading parses the whole SGF collection (variations, comments and unknown
properties included) and keeps the main line: the first child at every
branch. Replaying it gives a :class:`Position`; a syntax error names line
and column, an illegal move names its move number, line and the reason.
Any bad input gives a RecordError: the parser is iterative (no recursion
limit), and sizes are capped so that memory and time follow the input.

Writing follows Pentobi's conventions: ``GM`` first, one node per line,
squares of a move in the order a1, b1, ..., a2, ...
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from solver.core.geometry import NUM_COLORS, TRIANGLE
from solver.core.position import Position
from solver.core.variants import CLASSIC, CLASSIC_2, VARIANTS, Variant, variant_by_game
from solver.errors import IllegalMoveError, NotationError, RecordError
from solver.files import read_input
from solver.version import __version__

# Move properties as Pentobi reads them (NodeUtil.cpp): the colour numbers,
# B and W in two-colour games, and the names older versions wrote.
MOVE_PROPS_4 = {"1": 0, "2": 1, "3": 2, "4": 3, "BLUE": 0, "YELLOW": 1, "RED": 2, "GREEN": 3}
MOVE_PROPS_3 = {"1": 0, "2": 1, "3": 2, "BLUE": 0, "YELLOW": 1, "RED": 2}
MOVE_PROPS_2 = {"B": 0, "W": 1, "1": 0, "2": 1, "BLUE": 0, "GREEN": 1}
SETUP_PROPS = {"A1": 0, "A2": 1, "A3": 2, "A4": 3, "AB": 0, "AW": 1}
# Identifiers that are moves in some game: a colour number, a colour name, B or W.
_MOVE_LIKE = re.compile(r"[0-9]+|BLUE|YELLOW|RED|GREEN|B|W")
APPLICATION = "blokus-solver"
# Limits that keep a hostile file from costing much more than its size: the
# size of a record (real ones take a few KB, Pentobi's opening books up to
# about 1 MB), nodes kept in memory (a game has a few hundred) and squares in
# one move or set-up value.
MAX_RECORD_SIZE = 16 * 2**20  # bytes of a file, characters of a text
MAX_NODES = 100_000
MAX_SQUARES = 64

_SPACE = re.compile(r"\s*")
# A property value: '[', anything up to the first ']' not escaped by a
# backslash, ']'.
_VALUE_BODY = r"[^\\\]]*(?:\\.[^\\\]]*)*"
_ONE_VALUE = re.compile(r"\[(" + _VALUE_BODY + r")\]", re.S)
# One token after optional space: ';', '(' or ')', or a property with its values.
_TOKEN = re.compile(
    r"\s*(?:(?P<punct>[;()])|(?P<ident>[A-Za-z0-9]+)\s*(?P<values>(?:\[" + _VALUE_BODY + r"\]\s*)*))", re.S
)
_SEQUENCE, _FIRST, _VARIATIONS = range(3)  # parser states: after a node, after '(', after a variation
_ESCAPE = re.compile(r"\\(?:\n|(.))", re.S)


@dataclass(slots=True)
class SgfProperty:
    ident: str
    values: list[str]
    line: int
    col: int


@dataclass(slots=True)
class SgfNode:
    line: int
    col: int
    props: list[SgfProperty] = field(default_factory=list)
    children: list["SgfNode"] = field(default_factory=list)

    def get(self, ident: str) -> SgfProperty | None:
        for p in self.props:
            if p.ident == ident:
                return p
        return None


def _clip(text: str, limit: int = 40) -> str:
    """Text for an error message, shortened when long."""
    return text if len(text) <= limit else text[:limit] + "..."


def _unescape(raw: str) -> str:
    """SGF escapes: a backslash keeps the next character; before a newline
    it is a soft line break and both go."""
    return _ESCAPE.sub(r"\1", raw)  # an unmatched group gives ""


class _Parser:
    """SGF parser that tracks line and column. It is iterative (an explicit
    stack), so deep nesting costs no Python recursion; with ``main_only``
    it keeps only the main line of the first game (the rest is checked for
    syntax and dropped), so memory follows the main line, not the file."""

    def __init__(self, text: str, source: str, main_only: bool = False):
        if len(text) > MAX_RECORD_SIZE:
            raise RecordError(f"{source}: larger than {MAX_RECORD_SIZE // 2**20} MB: too large for a game record")
        if "\r" in text:  # as Pentobi: CR LF or CR alone is a newline
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        self.text = text[1:] if text.startswith("\ufeff") else text
        self.source, self.main_only = source, main_only
        self.i = 0
        self.kept = 0
        self._mark = (0, 1, 0)  # offset, its line, where that line starts

    # -- positions and errors ---------------------------------------------------
    def where(self, off: int) -> tuple[int, int]:
        """Line and column (both from 1) of an offset; cheap for offsets
        that only grow, as the parser asks for them."""
        mark, line, start = self._mark if off >= self._mark[0] else (0, 1, 0)
        n = self.text.count("\n", mark, off)
        if n:
            line, start = line + n, self.text.rfind("\n", mark, off) + 1
        self._mark = (off, line, start)
        return line, off - start + 1

    def error(self, msg: str, off: int | None = None) -> RecordError:
        line, col = self.where(self.i if off is None else off)
        return RecordError(f"{self.source}:{line}:{col}: {msg}")

    def peek(self) -> str:
        return self.text[self.i : self.i + 1]

    def skip_space(self) -> None:
        self.i = _SPACE.match(self.text, self.i).end()

    def found(self) -> str:
        return repr(self.peek()) if self.peek() else "end of file"

    # -- grammar ---------------------------------------------------------------------
    def collection(self) -> list[SgfNode]:
        trees = []
        while True:
            self.skip_space()
            if not self.peek():
                break
            root = self.game_tree(keep=not (self.main_only and trees))
            if root is not None:
                trees.append(root)
        if not trees:
            raise self.error("no game tree (the file should start with '(;')")
        return trees

    def game_tree(self, keep: bool = True) -> SgfNode | None:
        """One game tree, read token by token with an explicit stack; its
        root, or None when ``keep`` is false."""
        text = self.text
        node = self.first_node()  # the node that gets the next properties
        root = current = node if keep else None  # current: the last kept node
        if keep:
            self.count(node)
        stack: list[SgfNode] = []  # kept nodes whose variations are open
        dropped = 0  # open variations below them that are not kept
        state, seen = _SEQUENCE, set()
        while True:
            m = _TOKEN.match(text, self.i)
            punct = m and m["punct"]
            if punct == ";" and state != _VARIATIONS:
                node, seen = SgfNode(*self.where(m.start("punct"))), set()
                current, state = self.attach(current, node), _SEQUENCE
            elif punct == "(" and state != _FIRST:
                if current is None:
                    dropped += 1
                else:
                    stack.append(current)
                state = _FIRST
            elif punct == ")" and state != _FIRST:
                if dropped:
                    dropped -= 1
                elif not stack:
                    self.i = m.end()
                    return root
                else:
                    current = stack.pop()
                state = _VARIATIONS
            elif m and m["ident"] and state == _SEQUENCE:
                self.add_property(node, seen, m)
            else:
                raise self.unexpected(state)
            self.i = m.end()

    def first_node(self) -> SgfNode:
        """'(' and the ';' of a game tree's first node."""
        self.skip_space()
        if self.peek() != "(":
            raise self.error(f"expected '(', found {self.found()}")
        self.i += 1
        self.skip_space()
        if self.peek() != ";":
            raise self.unexpected(_FIRST)
        node = SgfNode(*self.where(self.i))
        self.i += 1
        return node

    def unexpected(self, state: int) -> RecordError:
        """The error for the next character, which cannot come here."""
        self.skip_space()
        ch = self.peek()
        if state == _FIRST:
            return self.error(f"expected ';' to start a node, found {ch!r}" if ch else "unexpected end of file")
        if state == _VARIATIONS:
            return self.error(f"expected ')', found {self.found()}")
        if not ch:
            return self.error("unexpected end of file: a game tree is not closed with ')'")
        return self.error(f"unexpected {ch!r} between nodes")

    def attach(self, parent: SgfNode | None, child: SgfNode) -> SgfNode | None:
        """Link a node to its parent when it is kept; the kept node or None."""
        if parent is None or (self.main_only and parent.children):
            return None
        self.count(child)
        parent.children.append(child)
        return child

    def count(self, node: SgfNode) -> None:
        """Count a kept node; too many is an error, not a memory hog."""
        self.kept += 1
        if self.kept > MAX_NODES:
            where = f"{self.source}:{node.line}:{node.col}"
            raise RecordError(f"{where}: more than {MAX_NODES} nodes: too large for a game record")

    def add_property(self, node: SgfNode, seen: set[str], m: re.Match) -> None:
        """A property token: its identifier and values go to ``node``."""
        ident, off = m["ident"], m.start("ident")
        if self.text.startswith("[", m.end()):
            raise self.error("unexpected end of file inside a property value", m.end())
        if not m["values"]:
            raise self.error(f"property {_clip(ident)} has no value", off)
        if ident in seen:
            raise self.error(f"property {_clip(ident)} appears twice in one node", off)
        seen.add(ident)
        values = [_unescape(v) if "\\" in v else v for v in _ONE_VALUE.findall(m["values"])]
        node.props.append(SgfProperty(ident, values, *self.where(off)))


def parse_sgf(text: str, source: str = "<text>") -> list[SgfNode]:
    """Parse SGF text into its game trees (root nodes), variations included."""
    return _Parser(text, source).collection()


def move_props(variant: Variant) -> dict[str, int]:
    """The move properties of a variant's records, by colour."""
    return {2: MOVE_PROPS_2, 3: MOVE_PROPS_3, 4: MOVE_PROPS_4}[len(variant.colors)]


@dataclass
class GameRecord:
    """The main line of a Blokus game record of a variant."""

    variant: Variant
    nodes: list[SgfNode]  # root first, then the main line
    source: str = "<text>"

    @property
    def two_player(self) -> bool:
        return self.variant.two_player

    @property
    def move_count(self) -> int:
        """Moves on the main line (set-up nodes are not moves)."""
        props = move_props(self.variant)
        return sum(1 for n in self.nodes if _move_prop(n, self.source, props) is not None)

    def position(self, moves: int | None = None) -> Position:
        """Replay the main line up to ``moves`` moves (default: all).

        Raises RecordError naming the move number and line for an illegal
        or malformed move, or a move number past the end."""
        total = self.move_count
        if moves is None:
            moves = total
        if moves < 0 or moves > total:
            raise RecordError(f"{self.source}: move {moves} is out of range: the record has {total} moves")
        pos = Position(self.variant)
        props = move_props(self.variant)
        done = 0
        for node in self.nodes:
            prop = _move_prop(node, self.source, props)
            if done == moves and prop is not None:
                break  # everything before move N + 1, set-up nodes included
            self._apply_setup(pos, node)
            if prop is None:
                continue
            done += 1
            where = f"{self.source}: move {done} (line {prop.line})"
            # Several values are the squares of one move, as Pentobi before
            # 0.3 wrote them (BLUE[a17][b17]...); Pentobi still reads them.
            text = ",".join(prop.values)
            try:
                _check_size(text)
                move = pos.parse_move(text, props[prop.ident])
            except (NotationError, IllegalMoveError) as e:
                raise RecordError(f"{where}: {e}") from None
            pos.push(move)
        return pos

    def _apply_setup(self, pos: Position, node: SgfNode) -> None:
        """Apply a node's AE, then A1..A4 (AB and AW: the first two colours)
        and PL. Set-up after moves makes the moves set-up pieces first (as
        Pentobi does), so AE can take back a played piece; AE must name a
        whole piece that is on the board."""
        setup: dict[int, SgfProperty] = {}
        for ident, c in SETUP_PROPS.items():
            prop = node.get(ident)
            if prop is not None:
                if c in setup:
                    raise RecordError(f"{self.source}:{prop.line}:{prop.col}: {ident} and {setup[c].ident} "
                                      f"both set up {pos.name(c) or 'colour ' + str(c + 1)}")
                setup[c] = prop
        empty = node.get("AE")
        player = node.get("PL")
        if not (setup or empty or player):
            return
        where = f"{self.source}:{node.line}:{node.col}"
        if pos.history:  # set-up after moves: restart from the current board
            pos.rebase()
        try:
            for value in empty.values if empty else []:
                _remove(pos, value)
            most = len(self.variant.pieces) * self.variant.copies
            for prop in setup.values():
                if len(prop.values) > most:
                    raise IllegalMoveError(f"{prop.ident} lists {len(prop.values)} pieces; a colour has {most}")
            placements = {c: [_parse(pos, v) for v in prop.values] for c, prop in setup.items()}
            to_move = _player(player.values[0], self.variant) if player else pos.to_move
            pos.setup(placements, to_move)
        except (NotationError, IllegalMoveError) as e:
            raise RecordError(f"{where}: bad set-up: {e}") from None


def _check_size(value: str) -> None:
    """Refuse a value listing absurdly many squares before parsing them."""
    if value.count(",") >= MAX_SQUARES:
        raise NotationError(f"not a move: {_clip(value)!r} lists more than {MAX_SQUARES} squares")


def _parse(pos: Position, value: str) -> int:
    _check_size(value)
    return pos.table.parse(value)


def _remove(pos: Position, value: str) -> None:
    """AE[value]: take the piece on those squares back to its colour's hand."""
    try:
        p = _parse(pos, value)
    except NotationError as e:
        raise IllegalMoveError(f"AE[{_clip(value)}]: {e}") from None
    owner = next((c for c in range(NUM_COLORS) if pos.table.mask[p] & pos.occupied[c]), None)
    if owner is None:
        raise IllegalMoveError(f"AE[{_clip(value)}] removes a piece that is not on the board")
    try:
        pos.remove(owner, p)
    except IllegalMoveError as e:
        raise IllegalMoveError(f"AE[{_clip(value)}]: {e}") from None


def _player(value: str, variant: Variant) -> int:
    """PL value as Pentobi reads it: B or 1, W or 2, and 3 and 4 where the
    game has that many colours."""
    v = value.strip()
    c = {"B": 0, "W": 1}.get(v, int(v) - 1 if v in ("1", "2", "3", "4") else None)
    if c is None or c not in variant.colors:
        ids = f"1..{len(variant.colors)}" if len(variant.colors) > 2 else "B or W"
        raise NotationError(f"PL[{_clip(value)}] is not a colour ({ids})")
    return c


def _move_prop(node: SgfNode, source: str, props: dict[str, int]) -> SgfProperty | None:
    found = [p for p in node.props if p.ident in props]
    if len(found) > 1:
        second = found[1]
        raise RecordError(
            f"{source}:{second.line}:{second.col}: a node holds two moves ({found[0].ident} and {second.ident})"
        )
    return found[0] if found else None


def read_record(text: str, source: str = "<text>") -> GameRecord:
    """Read the first game of an SGF text as a Blokus record (main line).
    Side variations and further games are checked for syntax, not kept."""
    try:
        root = _Parser(text, source, main_only=True).collection()[0]
    except RecordError as e:
        if _looks_like_toml(text):
            raise RecordError(f"{e}: this is not a game record; it looks like a puzzle file (TOML), "
                              "which 'blokus solve' reads") from None
        raise
    gm = root.get("GM")
    if gm is None:
        raise RecordError(f"{source}:{root.line}:{root.col}: the root node has no GM property")
    # Pentobi reads GM without regard to case or surrounding space.
    variant = variant_by_game(gm.values[0])
    if variant is None:
        supported = ", ".join(v.game for v in VARIANTS.values())
        raise RecordError(
            f"{source}:{gm.line}:{gm.col}: unsupported game GM[{_clip(gm.values[0].strip())}] (supported: {supported})"
        )
    nodes = [root]
    while nodes[-1].children:
        nodes.append(nodes[-1].children[0])
    props = move_props(variant)
    for node in nodes:
        _move_prop(node, source, props)  # reject nodes with two moves early
        _check_colors(node, variant, source)
    _check_board_size(root, variant, source)
    return GameRecord(variant, nodes, source)


def _colors_text(variant: Variant) -> str:
    n = len(variant.colors)
    return "colours are B and W, or 1 and 2" if n == 2 else f"colours are 1..{n}"


def _check_colors(node: SgfNode, variant: Variant, source: str) -> None:
    """Refuse a move property of a colour the game does not have (``3[...]``
    in Duo, ``5[...]`` or ``B[...]`` in a four-colour game): skipping it
    would replay the rest of the game without that move. (Set-up of such a
    colour is refused when it is applied; AB and AW belong to two-colour
    games.)"""
    moves = move_props(variant)
    for prop in node.props:
        if (_MOVE_LIKE.fullmatch(prop.ident) and prop.ident not in moves) or (
                prop.ident in ("AB", "AW") and len(variant.colors) > 2):
            raise RecordError(f"{source}:{prop.line}:{prop.col}: property {_clip(prop.ident)} is not used in "
                              f"GM[{variant.game}] ({_colors_text(variant)})")


def _check_board_size(root: SgfNode, variant: Variant, source: str) -> None:
    """SZ, where a record has it (Pentobi writes none: GM fixes the board),
    must be the board of the game: ``SZ[20]`` (or ``SZ[20:20]``) for the
    classic games, ``SZ[14]`` for Duo and Junior; Trigon's hexagon has no
    SGF size."""
    prop = root.get("SZ")
    if prop is None:
        return
    b = variant.board
    value = prop.values[0].strip()
    where = f"{source}:{prop.line}:{prop.col}"
    if b.grid == TRIANGLE:
        raise RecordError(f"{where}: SZ[{_clip(value)}] does not apply to GM[{variant.game}] (its board is "
                          "the hexagon the game fixes)")
    m = re.fullmatch(r"(\d{1,4})(?::(\d{1,4}))?", value)
    if m is None:
        raise RecordError(f"{where}: SZ[{_clip(value)}] is not a board size (expected SZ[{b.width}])")
    width, height = int(m[1]), int(m[2] or m[1])
    if (width, height) != (b.width, b.height):
        raise RecordError(f"{where}: SZ[{_clip(value)}] disagrees with GM[{variant.game}], whose board is "
                          f"{b.width} x {b.height}")


_TOML_START = re.compile(r"\A\ufeff?(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*(?:\[[A-Za-z]|[A-Za-z0-9_\-\"]+[ \t]*=)")


def _looks_like_toml(text: str) -> bool:
    """Whether a text starts as a puzzle file does: comments, then a table
    header or a ``key =`` line."""
    return _TOML_START.match(text[:10_000]) is not None


def load_record(path: str) -> GameRecord:
    """Read a ``.blksgf`` file; RecordError when it cannot be read, is not
    a regular file, is not UTF-8 or is larger than any game record
    (``MAX_RECORD_SIZE``)."""
    return load_record_text(path)[1]


def load_record_text(path: str) -> tuple[str, GameRecord]:
    """The text of a ``.blksgf`` file as it is (a byte order mark and CR LF
    line ends kept, for writing it back) and the record read from it."""
    data = read_input(path, MAX_RECORD_SIZE, RecordError)
    if len(data) > MAX_RECORD_SIZE:
        raise RecordError(f"{path}: larger than {MAX_RECORD_SIZE // 2**20} MB: too large for a game record")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RecordError(f"{path}: not UTF-8 text (byte {e.start})") from None
    return text, read_record(text, path)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def write_tree(root: SgfNode) -> list[str]:
    """SGF text of a game tree, one node per line (an explicit stack: deep
    variations cost no recursion)."""
    out: list[str] = []
    stack: list = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):  # the end of a game tree
            out.append(")")
            continue
        out.append("(")
        node = item
        while True:
            out.append(";" + "".join(p.ident + "".join(f"[{_escape(v)}]" for v in p.values) for p in node.props))
            if len(node.children) != 1:
                break
            node = node.children[0]
        stack.append(")")
        stack.extend(reversed(node.children))
    return out


def write_record(pos: Position, two_player: bool = False, comments: dict[int, str] | None = None) -> str:
    """The game that led to ``pos`` as Pentobi-style SGF text: set-up pieces
    (if any) in the root node, then one node per move, with the property
    names of the position's variant (``two_player``: write a classic
    four-player position as the two-player game). ``comments`` maps a move
    number (0 = root) to a comment."""

    comments = comments or {}
    t = pos.table
    variant = CLASSIC_2 if two_player and pos.variant == CLASSIC else pos.variant
    root = f";GM[{variant.game}]CA[UTF-8]AP[{APPLICATION}:{__version__}]"
    for c in range(NUM_COLORS):
        if pos.initial_setup[c]:
            root += variant.setup_ids[c] + "".join(f"[{t.name(p)}]" for p in pos.initial_setup[c])
    if pos.initial_to_move is not None:  # set by set-up, even one that left the board empty
        root += f"PL[{variant.move_ids[pos.initial_to_move]}]"
    lines = ["(", root + (f"C[{_escape(comments[0])}]" if 0 in comments else "")]
    for i, (c, p) in enumerate(pos.history, start=1):
        node = f";{variant.move_ids[c]}[{t.name(p)}]"
        if i in comments:
            node += f"C[{_escape(comments[i])}]"
        lines.append(node)
    lines.append(")")
    return "\n".join(lines) + "\n"
