"""The one form a time limit takes below the command line: a
:class:`Deadline`, the moment work must end by (or none) and the clock
since it was set. Every engine takes a limit in seconds or a Deadline
(:meth:`Deadline.of`) and passes Deadlines on; only the compiled kernels'
drivers read the bare moment (:attr:`Deadline.at`, ``time.monotonic()``
time)."""

from __future__ import annotations

import time


class Deadline:
    """``seconds`` from now (None: no limit, a clock only)."""

    def __init__(self, seconds: float | None = None):
        self.start = time.monotonic()
        self.at: float | None = None if seconds is None else self.start + seconds

    @classmethod
    def of(cls, limit: Deadline | float | None) -> Deadline:
        """A limit given either way, seconds from now or a Deadline, as a
        Deadline whose clock starts now (an engine's own elapsed time)."""
        return limit.within(None) if isinstance(limit, Deadline) else cls(limit)

    @property
    def elapsed(self) -> float:
        """Seconds since the deadline was set."""
        return time.monotonic() - self.start

    def left(self) -> float | None:
        """Seconds until the deadline (never below 0), or None without one."""
        return None if self.at is None else max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        return self.at is not None and time.monotonic() >= self.at

    def within(self, seconds: float | None) -> Deadline:
        """A deadline for a part of the work, its clock starting now:
        ``seconds`` from now, but never after this one (None: this one)."""
        part = Deadline(seconds)
        if part.at is None or (self.at is not None and self.at < part.at):
            part.at = self.at
        return part

    def __repr__(self) -> str:
        left = self.left()
        return "Deadline(no limit)" if left is None else f"Deadline({left:.3f} s left)"
