"""Who hears of kernel compiles: the command line, to say at once that a
first run compiles (for a minute or two) instead of sitting silent. Kept
apart from :mod:`solver.kernels.jit` so that listening imports no numba."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

from solver.deadline import hold_clocks

_WATCHERS: list[Callable[[str, bool], None]] = []


@contextmanager
def compile_watch(callback: Callable[[str, bool], None]) -> Iterator[None]:
    """While the block runs, ``callback(module, started)`` hears each
    kernel compile of this process: ``started`` True when a kernel of
    ``module`` missed the cache and compiles, False when its compile is
    done (the compile of one kernel may start those of the kernels it
    calls, inside it)."""
    _WATCHERS.append(callback)
    try:
        yield
    finally:
        _WATCHERS.remove(callback)


def tell(module: str, started: bool) -> None:
    """Called by the kernel cache (:class:`solver.kernels.jit.KernelCache`);
    every clock stands still while the compile runs (:func:`solver.deadline.hold_clocks`)."""
    hold_clocks(started)
    for callback in list(_WATCHERS):
        callback(module, started)
