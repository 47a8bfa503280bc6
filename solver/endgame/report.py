"""Annotations in words: the text report of a game and the comment of each
move, as ``blokus annotate`` prints them and the annotated record keeps them."""

from __future__ import annotations

from solver.core.pieces import PIECES
from solver.core.position import Move, Position
from solver.endgame.annotation import Bounds, GameAnnotation, MoveNote

COMMENT_MARK = "blokus annotate:"  # the first line of our comments in a record
BIG_LOSS = 5  # a loss of this many points or more is BM[2] ("??"), a smaller one BM[1] ("?")
DOUBTFUL = 10  # a possible (not proven) loss of up to this many points is DO ("?!")


def signed(b: Bounds) -> str:
    return f"{b.lo:+d}" if b.exact else f"{b.lo:+d}..{b.hi:+d}"


def _loss_text(n: MoveNote) -> str:
    b = n.loss_bounds
    if b is None:
        return "-"
    if b.exact:
        return str(b.lo)
    return f"{b.lo}..{b.hi}"


def move_mark(n: MoveNote) -> tuple[str, str] | None:
    """The SGF move annotation of a move and its value, as Pentobi reads
    them (libboardgame_base/SgfTree.cpp; shown as ?? ? ?! !): BM[2] for a
    proven loss of BIG_LOSS points or more, BM[1] for a smaller one, DO
    (doubtful) where the value after the move is proven, the one before
    only bounded, and the bounds allow a loss of at most DOUBTFUL points
    (wider bounds say nothing about the move);
    TE[1] for the only move that keeps the value. IT is not used."""
    b = n.loss_bounds
    if b is None:
        return None
    if b.lo >= BIG_LOSS:
        return "BM", "2"
    if b.lo > 0:
        return "BM", "1"
    if 0 < b.hi <= DOUBTFUL and n.after.exact:
        return "DO", ""
    if n.only_move:
        return "TE", "1"
    return None


_GLYPHS = {("BM", "2"): "??", ("BM", "1"): "?", ("DO", ""): "?!", ("TE", "1"): "!"}


def _describe(pos: Position, m: Move | None) -> str:
    if m is None:
        return "-"
    t = pos.table
    return f"{PIECES[t.piece[m.placement]].name} {t.name(m.placement)}"


def text_report(ann: GameAnnotation) -> str:
    """The annotation as a table for people."""
    pos, rec = ann.end, ann.record
    lines = [f"{rec.variant.game}: {ann.source}, {rec.move_count} moves; value: {ann.value_name()}",
             _scale_text(rec.variant, ann.two_player)]
    if not ann.moves:
        return "\n".join(lines + ["No move analysed."])
    lines.append(f"{'move':>4}  {'colour':<7}{'played':<26}{'before':>10}{'after':>10}{'loss':>8}    best")
    for n in ann.moves:
        mark = move_mark(n)
        glyph = _GLYPHS[mark] if mark else ""
        best = "" if n.best_move is None or n.loss == 0 else f"{_describe(pos, n.best_move)}"
        lines.append(f"{n.move:>4}  {pos.name(n.color):<7}{_describe(pos, n.played):<26}{signed(n.before):>10}"
                     f"{signed(n.after):>10}{_loss_text(n):>8} {glyph:<2} {best}")
    first = ann.first_proven_move
    lost = sum(n.loss_bounds.lo for n in ann.moves if n.mistake)
    lines.append("")
    lines.append(f"Proven from move {first}" if first is not None else "No value proven")
    lines[-1] += f"; {ann.mistakes} mistake{'s' if ann.mistakes != 1 else ''} ({lost} points); {ann.seconds:.1f} s"
    lines += [f"Note: {note}" for note in ann.notes]
    return "\n".join(lines)


def _scale_text(variant, two_player: bool) -> str:
    """Which scores the values are in, and how they relate to Pentobi's points."""
    if two_player:
        return (f"(advanced scores; Pentobi's points are {variant.squares} more per colour, so their differences "
                "are the same)")
    return f"(advanced scores; Pentobi's points are {variant.squares} more)"


def comment(ann: GameAnnotation, n: MoveNote) -> str:
    """The comment on an analysed move (value, loss, best move)."""
    pos = ann.end
    who = pos.name(n.color)
    if ann.two_player:
        head = f"value before the move ({ann.value_name()}): {signed(n.before)}"
    else:
        head = f"{who} can guarantee {signed(n.before)} before the move"
        if n.solo_optimum is not None:
            head += f" (solo optimum {n.solo_optimum:+d})"
    head += ", proven" if n.before.exact else " (proven bounds)"
    played = f"played {_describe(pos, n.played)}: {signed(n.after)}"
    if n.loss_bounds is None:
        played += ", not scored" if n.color == pos.variant.shared else ", played out of turn"
    elif n.loss_bounds.exact:
        played += f", lost {n.loss} point{'s' if n.loss != 1 else ''}" if n.loss else ", lost nothing"
    elif n.loss_bounds.lo > 0:
        played += f", lost at least {n.loss_bounds.lo} points"
    elif n.loss_bounds.hi > 0 and not n.before.exact:
        played += ", its loss is not proven (the value before it is only bounded)"
    elif n.loss_bounds.hi > 0:
        played += f", may have lost up to {n.loss_bounds.hi} points"
    text = [COMMENT_MARK, head, played]
    if n.only_move:
        text.append("the only move that keeps the value")
    if n.best_move is not None and n.mistake:
        text.append(f"best: {_describe(pos, n.best_move)} ({n.best_value:+d})")
    return "\n".join(text)
