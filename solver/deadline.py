"""The one form a time limit takes below the command line: a
:class:`Deadline`, the moment work must end by (or none) and the clock
since it was set. Every engine takes a limit in seconds or a Deadline
(:meth:`Deadline.of`) and passes Deadlines on; only the compiled kernels'
drivers read the bare moment (:attr:`Deadline.at`, ``time.monotonic()``
time).

Every clock stands still while this process compiles a kernel
(:func:`hold_clocks`, called by the kernel cache): a first run on a
machine compiles for up to a minute or two, once, and that must not eat
a time limit of a few seconds (an UNKNOWN where a warm run answers at
once) nor stretch it silently. The command line says when a compile
runs; :attr:`Deadline.held` says how long the clocks stood still."""

from __future__ import annotations

import threading
import time

_HOLD = threading.Lock()
_held_total = 0.0  # seconds every clock has stood still, compiles that ended
_holders = 0  # compiles going on (one may start others inside it)
_held_since = 0.0


def hold_clocks(start: bool) -> None:
    """A kernel compile starts (``True``) or ends (``False``); nested
    compiles count once. Only ended compiles move the clocks, so a compile
    that fails half-way never stops them for good."""
    global _held_total, _holders, _held_since
    with _HOLD:
        if start:
            if _holders == 0:
                _held_since = time.monotonic()
            _holders += 1
        elif _holders > 0:
            _holders -= 1
            if _holders == 0:
                _held_total += time.monotonic() - _held_since


class Deadline:
    """``seconds`` from now (None: no limit, a clock only), on a clock that
    stands still while kernels compile."""

    def __init__(self, seconds: float | None = None):
        self.start = time.monotonic()
        self._held_at_start = _held_total
        self._at: float | None = None if seconds is None else self.start + seconds

    @classmethod
    def of(cls, limit: Deadline | float | None) -> Deadline:
        """A limit given either way, seconds from now or a Deadline, as a
        Deadline whose clock starts now (an engine's own elapsed time)."""
        return limit.within(None) if isinstance(limit, Deadline) else cls(limit)

    @property
    def held(self) -> float:
        """Seconds this clock has stood still (kernel compiles since it was set)."""
        return _held_total - self._held_at_start

    @property
    def at(self) -> float | None:
        """The moment (``time.monotonic()`` time) work must end by, moved
        on by the compiles so far; None without a limit. Read it again
        after anything that may compile."""
        return None if self._at is None else self._at + self.held

    @property
    def elapsed(self) -> float:
        """Seconds since the deadline was set, compiles not counted."""
        return time.monotonic() - self.start - self.held

    def left(self) -> float | None:
        """Seconds until the deadline (never below 0), or None without one."""
        at = self.at
        return None if at is None else max(0.0, at - time.monotonic())

    def expired(self) -> bool:
        at = self.at
        return at is not None and time.monotonic() >= at

    def within(self, seconds: float | None) -> Deadline:
        """A deadline for a part of the work, its clock starting now:
        ``seconds`` from now, but never after this one (None: this one)."""
        part = Deadline(seconds)
        mine = self.at
        if part._at is None or (mine is not None and mine < part._at):
            part._at = mine  # from now on both move with the same compiles
        return part

    def __repr__(self) -> str:
        left = self.left()
        return "Deadline(no limit)" if left is None else f"Deadline({left:.3f} s left)"
