"""Pentobi's Blokus SGF game records (``.blksgf``): read and write.

Reading parses the whole SGF collection (variations, comments and unknown
properties included) and keeps the main line: the first child at every
branch. Replaying it gives a :class:`Position`; a syntax error names line
and column, an illegal move names its move number, line and the reason.

Writing follows Pentobi's conventions: ``GM`` first, one node per line,
squares of a move in the order a1, b1, ..., a2, ...
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import IllegalMoveError, NotationError, RecordError
from .geometry import CLASSIC, COLORS, NUM_COLORS
from .position import Move, Position

VARIANTS = ("Blokus", "Blokus Two-Player")
MOVE_PROPS = {"1": 0, "2": 1, "3": 2, "4": 3, "BLUE": 0, "YELLOW": 1, "RED": 2, "GREEN": 3}
SETUP_PROPS = {"A1": 0, "A2": 1, "A3": 2, "A4": 3}
APPLICATION = "blokus-solver"


@dataclass
class SgfProperty:
    ident: str
    values: list[str]
    line: int
    col: int


@dataclass
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


class _Parser:
    """Recursive-descent SGF parser that tracks line and column."""

    def __init__(self, text: str, source: str):
        self.text, self.source = text, source
        self.i, self.line, self.col = 0, 1, 1

    def error(self, msg: str, line: int | None = None, col: int | None = None) -> RecordError:
        return RecordError(f"{self.source}:{line or self.line}:{col or self.col}: {msg}")

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def advance(self) -> str:
        ch = self.text[self.i]
        self.i += 1
        if ch == "\n":
            self.line, self.col = self.line + 1, 1
        else:
            self.col += 1
        return ch

    def skip_space(self) -> None:
        while self.peek() and self.peek().isspace():
            self.advance()

    def expect(self, ch: str) -> None:
        self.skip_space()
        if self.peek() != ch:
            found = repr(self.peek()) if self.peek() else "end of file"
            raise self.error(f"expected {ch!r}, found {found}")
        self.advance()

    def collection(self) -> list[SgfNode]:
        trees = []
        self.skip_space()
        if self.text.startswith("\ufeff"):
            self.advance()
        while True:
            self.skip_space()
            if not self.peek():
                break
            trees.append(self.game_tree())
        if not trees:
            raise self.error("no game tree (the file should start with '(;')")
        return trees

    def game_tree(self) -> SgfNode:
        self.expect("(")
        self.skip_space()
        if self.peek() != ";":
            raise self.error(f"expected ';' to start a node, found {self.peek()!r}" if self.peek() else "unexpected end of file")
        first = node = self.node()
        while True:
            self.skip_space()
            ch = self.peek()
            if ch == ";":
                child = self.node()
                node.children.append(child)
                node = child
            elif ch == "(":
                while self.peek() == "(":
                    node.children.append(self.game_tree())
                    self.skip_space()
                self.expect(")")
                return first
            elif ch == ")":
                self.advance()
                return first
            elif not ch:
                raise self.error("unexpected end of file: a game tree is not closed with ')'")
            else:
                raise self.error(f"unexpected {ch!r} between nodes")

    def node(self) -> SgfNode:
        node = SgfNode(self.line, self.col)
        self.advance()  # ';'
        while True:
            self.skip_space()
            ch = self.peek()
            if not (ch.isascii() and ch.isalnum()):
                return node
            line, col = self.line, self.col
            ident = ""
            while self.peek().isascii() and self.peek().isalnum():
                ident += self.advance()
            self.skip_space()
            if self.peek() != "[":
                raise self.error(f"property {ident} has no value", line, col)
            values = []
            while self.peek() == "[":
                values.append(self.value())
                self.skip_space()
            if node.get(ident):
                raise self.error(f"property {ident} appears twice in one node", line, col)
            node.props.append(SgfProperty(ident, values, line, col))

    def value(self) -> str:
        line, col = self.line, self.col
        self.advance()  # '['
        out = []
        while True:
            if not self.peek():
                raise self.error("unexpected end of file inside a property value", line, col)
            ch = self.advance()
            if ch == "]":
                return "".join(out)
            if ch == "\\":
                if not self.peek():
                    raise self.error("unexpected end of file inside a property value", line, col)
                nxt = self.advance()
                if nxt != "\n":  # escaped newline is a soft line break
                    out.append(nxt)
            else:
                out.append(ch)


def parse_sgf(text: str, source: str = "<text>") -> list[SgfNode]:
    """Parse SGF text into its game trees (root nodes)."""
    return _Parser(text, source).collection()


@dataclass
class GameRecord:
    """The main line of a Blokus game record."""

    variant: str
    nodes: list[SgfNode]  # root first, then the main line
    source: str = "<text>"

    @property
    def two_player(self) -> bool:
        return self.variant == "Blokus Two-Player"

    @property
    def move_count(self) -> int:
        return sum(1 for n in self.nodes if _move_prop(n, self.source) is not None)

    def position(self, moves: int | None = None) -> Position:
        """Replay the main line up to ``moves`` moves (default: all).

        Raises RecordError naming the move number and line for an illegal
        or malformed move, or a move number past the end."""
        total = self.move_count
        if moves is None:
            moves = total
        if moves < 0 or moves > total:
            raise RecordError(f"{self.source}: move {moves} is out of range: the record has {total} moves")
        pos = Position(CLASSIC)
        done = 0
        for node in self.nodes:
            prop = _move_prop(node, self.source)
            if done == moves and prop is not None:
                break  # everything before move N + 1, set-up nodes included
            self._apply_setup(pos, node)
            if prop is None:
                continue
            done += 1
            color = MOVE_PROPS[prop.ident]
            where = f"{self.source}: move {done} (line {prop.line})"
            if len(prop.values) != 1:
                raise RecordError(f"{where}: a move property holds one move, found {len(prop.values)}")
            try:
                move = pos.parse_move(prop.values[0], color)
            except (NotationError, IllegalMoveError) as e:
                raise RecordError(f"{where}: {e}") from None
            pos.push(move)
        return pos

    def _apply_setup(self, pos: Position, node: SgfNode) -> None:
        setup = {c: node.get(p) for p, c in SETUP_PROPS.items() if node.get(p)}
        empty = node.get("AE")
        player = node.get("PL")
        if not (setup or empty or player):
            return
        where = f"{self.source}:{node.line}:{node.col}"
        if pos.history:  # set-up after moves: restart from the current board
            pos.rebase()
        try:
            for value in empty.values if empty else []:
                p = pos.table.parse(value)
                owner = next((c for c in range(NUM_COLORS) if pos.table.mask[p] & pos.occupied[c]), None)
                if owner is None:
                    raise IllegalMoveError(f"AE[{value}] removes a piece that is not on the board")
                pos.remove(owner, p)
            placements = {c: [pos.table.parse(v) for v in prop.values] for c, prop in setup.items()}
            to_move = _player(player.values[0]) if player else pos.to_move
            pos.setup(placements, to_move)
        except (NotationError, IllegalMoveError) as e:
            raise RecordError(f"{where}: bad set-up: {e}") from None


def _player(value: str) -> int:
    v = value.strip()
    if v in ("1", "2", "3", "4"):
        return int(v) - 1
    raise NotationError(f"PL[{value}] is not a colour (1..4)")


def _move_prop(node: SgfNode, source: str) -> SgfProperty | None:
    found = [p for p in node.props if p.ident in MOVE_PROPS]
    if len(found) > 1:
        second = found[1]
        raise RecordError(
            f"{source}:{second.line}:{second.col}: a node holds two moves ({found[0].ident} and {second.ident})"
        )
    return found[0] if found else None


def read_record(text: str, source: str = "<text>") -> GameRecord:
    """Read the first game of an SGF text as a Blokus record (main line)."""
    roots = parse_sgf(text, source)
    root = roots[0]
    gm = root.get("GM")
    if gm is None:
        raise RecordError(f"{source}:{root.line}:{root.col}: the root node has no GM property")
    variant = gm.values[0].strip()
    if variant not in VARIANTS:
        raise RecordError(
            f"{source}:{gm.line}:{gm.col}: unsupported game GM[{variant}] (supported: {', '.join(VARIANTS)})"
        )
    nodes = [root]
    while nodes[-1].children:
        nodes.append(nodes[-1].children[0])
    for node in nodes:
        _move_prop(node, source)  # reject nodes with two moves early
        for bad in ("B", "W", "AB", "AW"):
            prop = node.get(bad)
            if prop:
                raise RecordError(
                    f"{source}:{prop.line}:{prop.col}: property {bad} is not used in GM[{variant}] (colours are 1..4)"
                )
    return GameRecord(variant, nodes, source)


def load_record(path: str) -> GameRecord:
    """Read a ``.blksgf`` file; RecordError when it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise RecordError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise RecordError(f"{path}: not UTF-8 text (byte {e.start})") from None
    return read_record(text, path)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def write_record(pos: Position, two_player: bool = False, comments: dict[int, str] | None = None) -> str:
    """The game that led to ``pos`` as Pentobi-style SGF text: set-up pieces
    (if any) in the root node, then one node per move. ``comments`` maps a
    move number (0 = root) to a comment."""
    from . import __version__

    comments = comments or {}
    t = pos.table
    variant = VARIANTS[1] if two_player else VARIANTS[0]
    root = f";GM[{variant}]CA[UTF-8]AP[{APPLICATION}:{__version__}]"
    for c in range(NUM_COLORS):
        if pos.initial_setup[c]:
            root += f"A{c + 1}" + "".join(f"[{t.name(p)}]" for p in pos.initial_setup[c])
    if any(pos.initial_setup) and pos.initial_to_move is not None:
        root += f"PL[{pos.initial_to_move + 1}]"
    lines = ["(", root + (f"C[{_escape(comments[0])}]" if 0 in comments else "")]
    for i, (c, p) in enumerate(pos.history, start=1):
        node = f";{c + 1}[{t.name(p)}]"
        if i in comments:
            node += f"C[{_escape(comments[i])}]"
        lines.append(node)
    lines.append(")")
    return "\n".join(lines) + "\n"
