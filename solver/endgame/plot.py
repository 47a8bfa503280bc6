"""The plot of an annotated game: each position's proven value (or bounds)
over the moves, with the mistakes marked."""

from __future__ import annotations

import io
from pathlib import Path

from solver.drawing.render import DPI, PAINTS, check_output
from solver.endgame.annotation import Bounds, GameAnnotation
from solver.files import write_file

PLOT_SIZE = (800, 450)  # pixels
LINE_HEX = "#0072B2"  # Okabe-Ito blue: the exact values
BAND_HEX = "#56B4E9"  # Okabe-Ito sky blue: proven bounds


def _series(ann: GameAnnotation, color: int | None) -> list[tuple[int, Bounds]]:
    """(position after move j, its value) along the analysed moves, for the
    game value (``color`` None) or one colour's guaranteed score."""
    points: dict[int, Bounds] = {}
    for n in ann.moves:
        if color is None or n.color == color:
            points[n.move - 1], points[n.move] = n.before, n.after
    return sorted(points.items())


def _draw_series(ax, points: list[tuple[int, Bounds]], hex_: str, label: str) -> None:
    import matplotlib.patheffects as pe

    xs = [j for j, _ in points]
    ax.fill_between(xs, [b.lo for _, b in points], [b.hi for _, b in points], color=hex_, alpha=0.25, linewidth=0,
                    step=None)
    ys = [b.lo if b.exact else None for _, b in points]
    outline = [pe.withStroke(linewidth=3.2, foreground="#1A1A1A")] if hex_ == "#F0E442" else None
    ax.plot(xs, [float("nan") if y is None else y for y in ys], color=hex_, linewidth=2, marker="o",
            markersize=3.5, label=label, path_effects=outline)


def _draw_mistakes(ax, ann: GameAnnotation, paints) -> None:
    """A triangle in the mover's colour on the position after each proven
    mistake, with the points it lost (at least, when not exact): under the
    triangle, or over it near the bottom of the plot, where a label under
    it would be cut off. Called once the value range is set."""
    bottom, top = ax.get_ylim()
    for n in ann.moves:
        if not n.mistake:
            continue
        y = n.after.lo if n.after.exact else (n.after.lo + n.after.hi) / 2
        y = min(max(y, bottom), top)  # a mid-band point may lie where the range was cut
        ax.plot([n.move], [y], linestyle="none", marker="v", markersize=9, zorder=5,
                color=paints[ann.end.name(n.color)].fill, markeredgecolor="#1A1A1A")
        text = f"\u2212{n.loss}" if n.loss is not None else f"\u2212{n.loss_bounds.lo} or more"
        low = (y - bottom) < 0.15 * (top - bottom)
        ax.annotate(text, (n.move, y), textcoords="offset points", xytext=(0, 9 if low else -10), ha="center",
                    va="bottom" if low else "top", fontsize=8, color="#1A1A1A", fontweight="bold")


def _legend(ax, ann: GameAnnotation) -> None:
    """The lines (one per colour in games of more players), the band of
    bounds when there is one, and a mistake triangle per colour that made
    one."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles, labels = ax.get_legend_handles_labels()
    if any(not b.exact for n in ann.moves for b in (n.before, n.after)):
        handles.append(Patch(color=BAND_HEX if ann.two_player else "#BDBDBD", alpha=0.4))
        labels.append("proven bounds")
    pos = ann.end
    for c in sorted({n.color for n in ann.moves if n.mistake}):
        handles.append(Line2D([], [], linestyle="none", marker="v", markersize=8,
                              color=PAINTS[pos.name(c)].fill, markeredgecolor="#1A1A1A"))
        labels.append(f"mistake by {pos.name(c)} (points lost)")
    ax.legend(handles, labels, loc="best", fontsize=8, framealpha=0.9)


def _y_range(ax, ann: GameAnnotation) -> None:
    """Keep the exact values readable: a wide band of bounds is cut off
    at one span of the exact values beyond them."""
    exact = [b.lo for n in ann.moves for b in (n.before, n.after) if b.exact]
    if not exact:
        return
    lo, hi = min(exact), max(exact)
    span = max(hi - lo, 10)
    bottom, top = ax.get_ylim()
    ax.set_ylim(max(bottom, lo - span), min(top, hi + span))


def plot_annotation(ann: GameAnnotation, path=None, size: tuple[int, int] = PLOT_SIZE, fmt: str = "png"
                    ) -> bytes | None:
    """Draw the value per move (exact values as a line, proven bounds as a
    band, mistakes as triangles with their loss) into ``path`` (.png or
    .svg; written atomically) or, without a path, return the image bytes.
    Two-player games draw the game value; others each colour's guaranteed
    score around its own moves, in the colour's Okabe-Ito paint."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    if path is not None:
        fmt = check_output(path, ("png", "svg"))
    w, h = size
    fig = Figure(figsize=(w / DPI, h / DPI), dpi=DPI, facecolor="white", layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    pos = ann.end
    if ann.two_player:
        ax.axhline(0, color="#BDBDBD", linewidth=1)
        _draw_series(ax, _series(ann, None), LINE_HEX, ann.value_name())
        ax.set_ylabel(f"value ({ann.value_name()})")
    else:
        for c in pos.variant.colors:
            points = _series(ann, c)
            if points:
                _draw_series(ax, points, PAINTS[pos.name(c)].fill, pos.name(c))
        ax.set_ylabel("guaranteed score of the mover")
    _y_range(ax, ann)
    ax.set_ylim(*ax.get_ylim())  # fixed now: the marks below must not move it
    _draw_mistakes(ax, ann, PAINTS)
    _legend(ax, ann)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("move")
    ax.grid(True, color="#E5E5E5", linewidth=0.8)
    ax.set_title(f"{_short(ann.source)}: {ann.mistakes} mistake{'s' if ann.mistakes != 1 else ''}, "
                 f"proven from move {ann.first_proven_move}", fontsize=10)
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=DPI, facecolor="white",
                metadata={"Date": None} if fmt == "svg" else {"Software": None})
    if path is None:
        return buf.getvalue()
    write_file(path, buf.getvalue())
    return None


def _short(source: str) -> str:
    return Path(source).name
