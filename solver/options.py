"""Option checks shared by every floor: a time limit, a whole number in a
range, and one name out of a string enum (engine, mode, encoding, tree),
each refused with an OptionError that names the option and what it takes."""

from __future__ import annotations

import math
from enum import StrEnum
from typing import TypeVar

from solver.deadline import Deadline
from solver.errors import OptionError

E = TypeVar("E", bound=StrEnum)
MAX_WORKERS = 256  # processes or threads a command may ask for


def check_time_limit(value: Deadline | float | None, name: str = "time limit") -> Deadline | float | None:
    """A time limit in seconds (positive and finite), a Deadline, or None for none."""
    if value is None or isinstance(value, Deadline):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise OptionError(f"{name} must be a positive number of seconds, not {value!r}")
    return float(value)


def check_int(value: int, name: str, lo: int, hi: int) -> int:
    """An int option within [lo, hi]."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise OptionError(f"{name} must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def choice(kind: type[E], value: str | E, name: str, known: tuple[E, ...] | None = None,
           error: type[Exception] = OptionError) -> E:
    """The member of ``kind`` named ``value`` (a member passes as it is);
    ``known`` narrows the members taken here."""
    known = tuple(kind) if known is None else known
    try:
        member = kind(value)
    except ValueError:
        member = None
    if member not in known:
        raise error(f"unknown {name} {value!r} (known: {', '.join(known)})")
    return member
