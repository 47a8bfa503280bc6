"""Reading input files and writing output files, the same way everywhere.

- An input (a game record, a puzzle, a solution file) is read without
  waiting: a named pipe or a folder is refused at once, a terminal that
  has nothing to read is an error, not a hang, and at most ``limit``
  bytes are read (an endless device is cut off).
- An output is written all or nothing: a temporary file in the same
  folder, then a rename, so a full disk or a killed process leaves the old
  file (or none), never half of a new one. :func:`check_writable` tries
  the folder before the work that produces the output, so a folder that
  cannot be written fails in a second, not after an hour of solving.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from solver.errors import BlokusError, OutputError

_REFUSED = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"))


def read_input(path: str | os.PathLike, limit: int, error: type[BlokusError]) -> bytes:
    """At most ``limit + 1`` bytes of a file (so a caller can tell a file
    over the limit); ``error`` (naming the path) when it cannot be read.
    Nothing blocks: the file is opened and read without waiting, so a
    named pipe (refused, as are folders and sockets) or a terminal never
    hangs the command, and an endless device is cut off at the limit."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError) as e:  # ValueError: a NUL in the path
        raise error(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    try:
        mode = os.fstat(fd).st_mode
        kind = next((name for test, name in _REFUSED if test(mode)), None)
        if kind is not None:
            raise error(f"{path}: cannot read: it is {kind}, not a file")
        chunks, left = [], limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except BlockingIOError:
        raise error(f"{path}: cannot read: nothing to read yet (a terminal or a device?)") from None
    except OSError as e:
        raise error(f"{path}: cannot read: {e.strerror or e}") from None
    finally:
        os.close(fd)


def check_writable(path: str | os.PathLike, error: type[BlokusError] = OutputError) -> None:
    """Fail now, before any work, when ``path`` cannot be written: it is a
    folder, its folder does not exist, or the folder takes no new file
    (read-only, no permission). A probe file is made and removed."""
    path = Path(path)
    if path.is_dir():
        raise error(f"{path}: cannot write: it is a folder")
    parent = path.parent
    if not parent.is_dir():
        raise error(f"{path}: cannot write: folder {str(parent)!r} does not exist")
    probe = parent / f".{path.name}.{os.getpid()}.probe"
    try:
        with open(probe, "wb"):
            pass
    except OSError as e:
        raise error(f"{path}: cannot write: {e.strerror or e}") from None
    finally:
        _remove(probe)


def write_file(path: str | os.PathLike, data: bytes, error: type[BlokusError] = OutputError) -> None:
    """Write ``data`` all or nothing (a temporary file, then a rename)."""
    path = Path(path)
    if not path.parent.is_dir():
        raise error(f"{path}: cannot write: folder {str(path.parent)!r} does not exist")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError as e:
        raise error(f"{path}: cannot write: {e.strerror or e}") from None
    finally:
        _remove(tmp)  # (gone already once renamed)


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()


def make_folder(path: str | os.PathLike, what: str = "output folder") -> Path:
    """Create a folder (and its parents) for outputs; OutputError saying
    why when it cannot be made or a file stands in its place."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise OutputError(f"{path}: cannot use it as the {what}: it is a file")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(f"{path}: cannot create the {what}: {e.strerror or e}") from None
    return path
