"""Which game tree searches a game: the one decision, made here for
``analyze``, ``annotate`` and the batch. The compiled engine
(:mod:`solver.endgame.treekernel`) takes square boards up to 31 columns
without a shared colour; every other game, or a caller who asks for it,
gets the plain-Python reference (:mod:`solver.endgame.gametree`)."""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from enum import StrEnum
from typing import Iterator

from solver.core.position import Position
from solver.errors import OptionError
from solver.puzzle.result import Progress, ProgressCallback

TABLE_BITS = 22  # the compiled engine's transposition table: 4M entries, 64 MB


def tree_threads(asked: int | None = None) -> int:
    """Threads of the compiled tree in this process: four-player colours
    searched at once (benchmarks/tree_cores.py --four), two-player root
    moves split between them (benchmarks/tree_split.py); ``asked``, else
    one per core."""
    return asked or os.cpu_count() or 1


class Tree(StrEnum):
    """The game tree a caller asks for (the command line's ``--tree``)."""

    COMPILED = "compiled"  # the numba engine, where it applies
    PYTHON = "python"  # the reference


TREES = tuple(t.value for t in Tree)


def wanted(name: str | Tree) -> Tree:
    """The tree named ``name``; OptionError for an unknown name."""
    try:
        return Tree(name)
    except ValueError:
        raise OptionError(f"unknown game tree {name!r} (known: {', '.join(TREES)})") from None


def compiled_tree_applies(pos: Position) -> bool:
    """Whether the compiled game tree takes this game: square boards up to
    31 columns, and no shared colour (Three-Player)."""
    from solver.kernels.tables import unsupported

    return unsupported(pos.board) is None and pos.variant.shared is None


def choose(pos: Position, name: str | Tree) -> Tree:
    """The tree that searches ``pos`` when ``name`` is asked for: the
    compiled one only where it applies."""
    tree = wanted(name)
    return tree if tree is Tree.PYTHON or compiled_tree_applies(pos) else Tree.PYTHON


def load_compiled_tree(pos: Position, progress: ProgressCallback | None = None, what: str = "") -> None:
    """Compile the compiled game tree (on a first run, about a minute) or
    load it from numba's cache (seconds), by a search of ``pos`` stopped at
    its first look at the clock; callers do it before their time limit
    starts, so that a first run does not spend the user's limit compiling."""
    from solver.endgame import treeengine

    if pos.game_over:
        return
    if progress is not None:
        progress(Progress(0.0, 0, f"{what}loading the compiled game tree"))
    try:
        treeengine.solve_two_player(pos.copy(), 0.0, table_bits=10)
    except treeengine.OutOfTime:
        pass


def compiled_tree_ready() -> bool:
    """Whether the compiled game tree starts at once: its search kernel
    (which compiles the kernels it calls with it) compiled in this process
    or in the kernel cache; else its first use compiles for about a
    minute."""
    from solver.endgame import treekernel
    from solver.kernels.jit import ready

    return ready(treekernel._search)


def tree_cache_writable() -> bool:
    """Whether the game tree's kernels can be saved to a cache (a
    compile in another process is of use here only then)."""
    from solver.endgame import treekernel
    from solver.kernels.jit import writable

    return writable(treekernel._search)


def compile_game_tree() -> None:
    """Compile the game tree into the kernel cache (a search from the start
    of a Duo game calls every kernel analyze and annotate use; Junior's
    solo kernels compile on their first use)."""
    from solver.core.position import Position
    from solver.core.variants import DUO

    load_compiled_tree(Position(DUO))


class BackgroundCompile:
    """The game tree compiling in a process of its own (see
    :func:`compiling_in_background`): ``done`` is set when it ends."""

    def __init__(self, process) -> None:
        self.process = process
        self.done = threading.Event()
        threading.Thread(target=lambda: (process.wait(), self.done.set()), name="tree-compile-watch",
                         daemon=True).start()

    def cancel(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()


@contextmanager
def compiling_in_background() -> Iterator[BackgroundCompile]:
    """While the block runs, a process of its own compiles the game tree
    into the kernel cache (numba compiles one kernel at a time per process:
    this one stays free to search meanwhile). Left before the compile ends,
    the compile goes on, detached, so that the next run finds the tree
    compiled, unless ``cancel()`` was called (Ctrl-C) or the block raised."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    home = str(Path(__file__).resolve().parents[2])  # the folder this package is in: the child imports the same
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (home, os.environ.get("PYTHONPATH")) if p)}
    process = subprocess.Popen([sys.executable, "-c", "from solver.endgame.trees import compile_game_tree "
                                "as compile_it; compile_it()", home], env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    background = BackgroundCompile(process)
    try:
        yield background
    except BaseException:
        background.cancel()
        raise
