"""Which game tree searches a game: the one decision, made here for
``analyze``, ``annotate`` and the batch. The compiled engine
(:mod:`solver.endgame.treekernel`) takes square boards up to 31 columns
without a shared colour; every other game, or a caller who asks for it,
gets the plain-Python reference (:mod:`solver.endgame.gametree`)."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from enum import StrEnum
from typing import Iterator

from solver.core.position import Position
from solver.errors import OptionError
from solver.puzzle.result import Progress, ProgressCallback

TABLE_BITS = 22  # the compiled engine's transposition table: 4M entries, 64 MB
TREE_THREADS = 2  # threads of the compiled tree: four-player colours searched at once (benchmarks/tree_cores.py
# --four), two-player root moves split between them (benchmarks/tree_split.py)


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


def _compile_tree_for_the_cache() -> None:
    """Run in a process of its own: compile the game tree into the kernel cache."""
    from solver.core.position import Position
    from solver.core.variants import DUO

    load_compiled_tree(Position(DUO))


@contextmanager
def compiling_in_background() -> Iterator[threading.Event]:
    """While the block runs, a process of its own compiles the game tree
    into the kernel cache (numba compiles one kernel at a time per process:
    this one stays free to search meanwhile); the event is set when it is
    done. Leaving the block early stops it."""
    import multiprocessing

    process = multiprocessing.get_context("spawn").Process(target=_compile_tree_for_the_cache, name="tree-compile",
                                                           daemon=True)
    process.start()
    done = threading.Event()
    watcher = threading.Thread(target=lambda: (process.join(), done.set()), name="tree-compile-watch", daemon=True)
    watcher.start()
    try:
        yield done
    finally:
        if process.is_alive() and not done.is_set():
            process.terminate()
        process.join()
