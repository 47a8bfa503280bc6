"""What the command line shows a person at a terminal, and only there:
a progress bar (tqdm) on stderr, a notice while kernels compile, boards
in the colours' own colours. Piped or redirected, stderr gets plain
progress lines (one per report) and stdout plain text, as scripts want;
``NO_COLOR`` (https://no-color.org) turns the colours off.

tqdm rather than rich: one small package without dependencies that
imports in about 20 ms, where rich brings its own dependencies and a
slower import into a command that should start fast; the colours are a
dozen ANSI codes, written here.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from typing import TextIO

from solver.puzzle.result import Progress

QUIET_FOR = 1.0  # seconds: work that ends sooner shows no progress (notices excepted)
TICK = 0.5  # seconds between redraws of the bar while nothing is reported (the clock keeps moving)

# what compiles, by the kernel's package, in the words of the notice
KERNEL_KINDS = {"solver.endgame": "the game-tree engine", "solver.packing": "the packing kernels",
                "solver.kernels": "the bitboard helpers"}
ONCE = "once per install, up to a minute or two, not counted in the time limit"
COMPILE_NOTE = f"{ONCE}; 'blokus warm-up' compiles every kernel ahead"


def is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # replaced or closed streams
        return False


def colour_wanted(stream: TextIO) -> bool:
    """Colour on ``stream``: a terminal, ``NO_COLOR`` unset, not a dumb terminal."""
    return is_terminal(stream) and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def kernel_kind(module: str) -> str:
    for prefix, kind in KERNEL_KINDS.items():
        if module == prefix or module.startswith(prefix + "."):
            return kind
    return "the compiled kernels"


class ProgressView:
    """The progress of one command on stderr: :class:`Progress` reports
    (it is a ``ProgressCallback``) and kernel compiles (``compiling``, a
    :func:`solver.kernels.compiles.compile_watch` callback). On a terminal a
    tqdm bar: the share of the steps done with an estimate of what is left
    when the work counts steps, else the time used of ``limit``; what the
    engine has to show beside it; redrawn every half second, the clock
    standing still while a kernel compiles (as the work's clock does,
    :mod:`solver.deadline`). Elsewhere one line per report, as in a
    log. ``done()`` ends the bar (call it when the work ends)."""

    def __init__(self, limit: float | None = None, stream: TextIO | None = None, tty: bool | None = None):
        self.stream = stream if stream is not None else sys.stderr
        self.tty = is_terminal(self.stream) if tty is None else tty
        self.limit = limit
        self.bar = None
        self.lock = threading.RLock()
        self.last = Progress(0.0, 0, "")
        self.compiles = 0  # kernel compiles going on (one may start others inside it)
        self.compiled: set[str] = set()  # kinds said so far
        self.ticker: threading.Thread | None = None
        self.ended = threading.Event()

    # -- reports ---------------------------------------------------------------

    def __call__(self, info: Progress) -> None:
        if info.elapsed < QUIET_FOR and not info.notice:
            return
        with self.lock:
            self.last = info
            if self.tty:
                self._draw()
            else:
                nodes = f"{info.nodes:>12,} nodes  " if info.nodes else ""
                print(f"blokus: {info.elapsed:6.1f} s  {nodes}{info.text}", file=self.stream, flush=True)

    def compiling(self, module: str, started: bool) -> None:
        with self.lock:
            self.compiles = max(0, self.compiles + (1 if started else -1))
            kind = kernel_kind(module)
            if not started or kind in self.compiled:
                if self.tty and self.bar is not None:
                    self._draw()
                return
            self.compiled.add(kind)
            if self.tty:
                self._draw()
            else:
                print(f"blokus: compiling {kind} ({COMPILE_NOTE})", file=self.stream, flush=True)

    def done(self) -> None:
        self.ended.set()
        with self.lock:
            if self.bar is not None:
                self.bar.close()
                self.bar = None

    # -- the bar (a terminal only) ---------------------------------------------

    def _text(self) -> str:
        info = self.last
        parts = []
        if self.compiles:
            parts.append(f"compiling {', '.join(sorted(self.compiled))} ({ONCE})")
        if info.text:
            parts.append(info.text)
        if info.nodes:
            parts.append(f"{info.nodes:,} nodes")
        return "blokus: " + "; ".join(parts)

    def _draw(self) -> None:
        from tqdm import tqdm

        info = self.last
        total = info.total or (self.limit or 0)
        if self.bar is not None and self.bar.total != (total or None):
            self.bar.close()
            self.bar = None
        if self.bar is None:
            if info.total:
                form = "{desc} {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}, {remaining} left]"
            elif total:
                form = "{desc} |{bar}| {elapsed} of " + tqdm.format_interval(total)
            else:
                form = "{desc} [{elapsed}]"
            width = shutil.get_terminal_size((80, 24)).columns  # (a terminal that says 0 columns gets 80)
            self.bar = tqdm(total=total or None, file=self.stream, bar_format=form, ncols=width, leave=False,
                            mininterval=0, desc=self._text())
            self._start_ticker()
        self.bar.start_t = time.time() - info.elapsed  # the bar's clock is the work's, not the bar's own
        self.bar.n = info.done if info.total else (min(info.elapsed, total) if total else 0)
        self.bar.set_description_str(self._text(), refresh=False)
        self.bar.refresh()

    def _start_ticker(self) -> None:
        if self.ticker is not None:
            return

        def tick() -> None:
            last = time.time()
            while not self.ended.wait(TICK):
                with self.lock:
                    now = time.time()
                    since, last = now - last, now
                    if self.bar is None:
                        continue
                    if self.compiles:  # the work's clock stands still while a kernel compiles
                        self.bar.start_t += since
                    if not self.last.total and self.limit:  # the time bar follows the clock
                        self.bar.n = min(time.time() - self.bar.start_t, self.limit)
                    self.bar.set_description_str(self._text(), refresh=False)
                    self.bar.refresh()

        self.ticker = threading.Thread(target=tick, name="progress", daemon=True)
        self.ticker.start()


# -- colours ------------------------------------------------------------------------

# a colour letter's background (256-colour codes) and the text colour that reads on it
COLOURS = {"B": (27, 231), "Y": (220, 16), "R": (196, 231), "G": (34, 231), "P": (129, 231), "O": (208, 16)}


def paint_board(picture: str) -> str:
    """A board picture (:func:`solver.core.text.board_picture`) with each
    colour letter on its colour's background; the letters stay, so the
    picture reads the same without colour. Column names are lower case and
    keep their look."""
    out = []
    for ch in picture:
        found = COLOURS.get(ch)
        out.append(f"\x1b[1;38;5;{found[1]};48;5;{found[0]}m{ch}\x1b[0m" if found else ch)
    return "".join(out)


def board_for(stream: TextIO, picture: str) -> str:
    """The picture as ``stream`` should get it: painted on a colour terminal, else plain."""
    return paint_board(picture) if colour_wanted(stream) else picture
