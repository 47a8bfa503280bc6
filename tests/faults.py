"""Real faults for tests, made without a special file system: a folder
that cannot be written, a full disk and a file-size limit.

- :func:`run_read_only` runs a command with some folders read-only: in a
  mount namespace of its own with those folders bind-mounted read-only
  when this runs as root (root writes into a ``chmod a-w`` folder all
  the same), else with their write bits taken away for the run.
- :func:`full_disk` is a ``preexec_fn`` that caps the size of any file the
  command writes (``RLIMIT_FSIZE``, with SIGXFSZ ignored): a write past it
  fails with EFBIG, as one fails on a full disk with ENOSPC.
- :func:`address_space` caps the memory the command may map (``RLIMIT_AS``).
"""

from __future__ import annotations

import contextlib
import functools
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_MOUNT_READ_ONLY = (
    'set -e; n=$1; shift; i=0; while [ "$i" -lt "$n" ]; do '
    'mount --bind "$1" "$1"; mount -o remount,bind,ro "$1" "$1"; shift; i=$((i + 1)); done; '
    'cd "$PWD"; exec "$@"'  # (cd again: a working folder under a mount point is the one below it)
)


@functools.cache
def _can_unshare() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", _MOUNT_READ_ONLY, "sh", "1", "/tmp", "true"],
                           capture_output=True)
    return probe.returncode == 0


def run_read_only(args: list[str], read_only: list[Path], **kwargs) -> subprocess.CompletedProcess:
    """``subprocess.run(args, **kwargs)`` with the folders ``read_only``
    not writable (see the module docstring)."""
    if os.geteuid() == 0:
        if not _can_unshare():
            pytest.skip("root without mount namespaces: no way to make a folder read-only here")
        paths = [str(p) for p in read_only]
        return subprocess.run(["unshare", "-m", "sh", "-c", _MOUNT_READ_ONLY, "sh", str(len(paths)), *paths, *args],
                              **kwargs)
    modes = {}
    for top in read_only:
        for folder in [top, *[p for p in Path(top).rglob("*") if p.is_dir()]]:
            modes[folder] = folder.stat().st_mode
            folder.chmod(modes[folder] & ~0o222)
    try:
        return subprocess.run(args, **kwargs)
    finally:
        for folder, mode in modes.items():
            folder.chmod(mode)


def full_disk(limit: int = 4096):
    """A ``preexec_fn``: files the command writes can hold ``limit`` bytes."""
    def cap() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return cap


def address_space(limit: int):
    """A ``preexec_fn``: the command may map ``limit`` bytes in all (ulimit -v)."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return cap


def blokus(*args: str, **kwargs) -> subprocess.CompletedProcess:
    """``blokus ARGS`` as a program (``python -m solver``), text output."""
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("text", True)
    kwargs.setdefault("timeout", 300)
    kwargs.setdefault("cwd", ROOT)
    return subprocess.run([sys.executable, "-m", "solver", *args], **kwargs)


def signal_when(args: list[str], ready, sig: int = signal.SIGINT, timeout: float = 300,
                **kwargs) -> tuple[subprocess.CompletedProcess, object]:
    """``blokus ARGS`` as a program, sent ``sig`` (SIGINT: as Ctrl-C sends
    it) as soon as ``ready(line)`` is true of a line it writes on stderr
    (progress: one line per report when not on a terminal). Returns the
    finished run and what ``ready`` returned; waits ``timeout`` seconds at
    most for the end after the signal (a hang guard, not a speed test: a
    Dask worker that is compiling a kernel when the stop comes finishes the
    compile first, a minute or more on a loaded machine)."""
    kwargs.setdefault("cwd", ROOT)
    # a hang shows where it was: faulthandler prints every thread's stack on SIGABRT, in its worker processes too
    kwargs["env"] = {**kwargs.get("env", os.environ), "PYTHONFAULTHANDLER": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "solver", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, **kwargs)
    found = None
    try:
        for line in proc.stderr:
            found = ready(line)
            if found:
                break
        proc.send_signal(sig)
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGABRT)
            try:
                rest_err = proc.communicate(timeout=30)[1]
            except subprocess.TimeoutExpired:
                rest_err = "(nothing: it did not end on SIGABRT)"
            raise AssertionError(f"still running {timeout} s after the signal; it wrote:\n{rest_err[-20000:]}") from None
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr), found


def blokus_read_only(read_only: list[Path], *args: str, **kwargs) -> subprocess.CompletedProcess:
    """``blokus ARGS`` with the folders ``read_only`` not writable."""
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("text", True)
    kwargs.setdefault("timeout", 300)
    kwargs.setdefault("cwd", ROOT)
    return run_read_only([sys.executable, "-m", "solver", *args], read_only, **kwargs)
