"""Deadlines: a limit, a clock, and the clock standing still while a
kernel compiles (a first run's compile must not eat a short limit)."""

from __future__ import annotations

import time

import pytest

from solver.deadline import Deadline, hold_clocks
from solver.kernels.compiles import tell


@pytest.fixture
def clock(monkeypatch):
    """A hand-moved ``time.monotonic``: ``clock[0] += s`` lets s seconds pass."""
    now = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    return now


def test_a_deadline_expires_after_its_seconds(clock):
    d = Deadline(5.0)
    clock[0] += 4.0
    assert (d.left(), d.elapsed, d.expired()) == (1.0, 4.0, False)
    clock[0] += 1.0
    assert d.expired() and d.left() == 0.0
    assert Deadline().at is None and Deadline().left() is None and not Deadline().expired()


def test_the_clock_stands_still_while_a_kernel_compiles(clock):
    d = Deadline(5.0)
    clock[0] += 1.0
    tell("solver.packing.fillkernel", True)
    tell("solver.kernels.bitops", True)  # a kernel it calls compiles inside it: counted once
    clock[0] += 30.0
    tell("solver.kernels.bitops", False)
    clock[0] += 10.0
    tell("solver.packing.fillkernel", False)
    assert (d.held, d.elapsed, d.left(), d.expired()) == (40.0, 1.0, 4.0, False)
    clock[0] += 4.0
    assert d.expired()
    later = Deadline(2.0)  # set after the compile: nothing held
    assert (later.held, later.left()) == (0.0, 2.0)


def test_a_part_moves_with_the_whole_and_never_ends_after_it(clock):
    whole = Deadline(10.0)
    clock[0] += 6.0
    part = whole.within(8.0)
    assert part.left() == 4.0 and whole.within(1.0).left() == 1.0 and whole.within(None).left() == 4.0
    hold_clocks(True)
    clock[0] += 20.0
    hold_clocks(False)
    assert (part.left(), whole.left(), part.held) == (4.0, 4.0, 20.0)


def test_an_end_without_a_start_moves_no_clock(clock):
    d = Deadline(5.0)
    hold_clocks(False)  # a compile that ended twice (or never said it started)
    clock[0] += 3.0
    assert (d.held, d.left()) == (0.0, 2.0)
