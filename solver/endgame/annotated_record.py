"""The annotated record: the game's own file with, on each analysed move, a
comment, a move annotation (``BM``/``DO``/``TE``, as Pentobi shows them)
and, for a proven mistake, the best line as a variation."""

from __future__ import annotations

from solver.core.position import Move, Position
from solver.endgame.annotation import GameAnnotation
from solver.endgame.report import COMMENT_MARK, comment, move_mark, signed
from solver.formats.sgf import SgfNode, SgfProperty, move_props, parse_sgf, write_tree

_MOVE_MARKS = ("BM", "DO", "IT", "TE")


def _sgf_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _set_comment(node, text: str) -> None:
    """Put our comment on a node after any comment it had (an earlier
    comment of ours, from COMMENT_MARK on, is replaced)."""
    old = node.get("C")
    kept = old.values[0] if old else ""
    if COMMENT_MARK in kept:
        kept = kept[: kept.index(COMMENT_MARK)]
    kept = kept.rstrip()
    value = f"{kept}\n\n{text}" if kept else text
    if old:
        old.values = [value]
    else:
        node.props.append(SgfProperty("C", [value], 0, 0))


def _add_variation(parent, line: list[Move], pos: Position, text: str) -> None:
    """Append the best line as the last variation under ``parent``, unless
    a child there already starts with the same move."""
    ids, t = pos.variant.move_ids, pos.table
    first = (ids[line[0].color], t.name(line[0].placement))
    for child in parent.children:
        prop = child.get(first[0])
        if prop is not None and ",".join(prop.values) == first[1] and child is not parent.children[0]:
            return
    node = parent
    for i, m in enumerate(line):
        child = SgfNode(0, 0, [SgfProperty(ids[m.color], [t.name(m.placement)], 0, 0)])
        if i == 0:
            child.props.append(SgfProperty("C", [text], 0, 0))
        node.children.append(child)
        node = child


def annotated_sgf(text: str, ann: GameAnnotation) -> str:
    """The record ``text`` (the one that was annotated) with, on each
    analysed move, a comment, a move annotation (BM, DO or TE) and, for a
    proven mistake, the best line as a variation. Everything else in the
    file is kept."""
    trees = parse_sgf(text, ann.source)
    props = move_props(ann.record.variant)
    line, node = [], trees[0]
    while True:
        line.append(node)
        if not node.children:
            break
        node = node.children[0]
    move_nodes = [(i, n) for i, n in enumerate(line) if any(p.ident in props for p in n.props)]
    notes = {n.move: n for n in ann.moves}
    for k, (i, node) in enumerate(move_nodes, start=1):
        n = notes.get(k)
        if n is None:
            continue
        mark = move_mark(n)
        if mark or (n.loss_bounds is not None and n.loss_bounds.exact):  # a verdict: it replaces earlier marks
            node.props = [p for p in node.props if p.ident not in _MOVE_MARKS]
        if mark:  # right after the move, as Pentobi writes it
            at = next(i for i, p in enumerate(node.props) if p.ident in props) + 1
            node.props.insert(at, SgfProperty(mark[0], [mark[1]], 0, 0))
        _set_comment(node, comment(ann, n))
        if n.mistake and n.best_line:
            value = f"best line: {n.best_value:+d} instead of {signed(n.after)}"
            _add_variation(line[i - 1], n.best_line, ann.end, f"{COMMENT_MARK}\n{value}")
    out = []
    for tree in trees:
        out += write_tree(tree)
    # the file's own byte order mark and line ends, as it had them
    newline = "\r\n" if "\r\n" in text else "\n"
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    return bom + ("\n".join(out) + "\n").replace("\n", newline)
