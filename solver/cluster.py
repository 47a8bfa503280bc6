"""Run one picklable task over many inputs on Dask distributed, streaming
the outcomes as they complete: on a ``LocalCluster`` of worker processes on
this machine, or on an existing cluster given by its scheduler's address
(``tcp://host:8786``), so a user who outgrows one machine adds machines,
not code. Each input is one task; a task that raises is reported as that
input's failure and the others go on. A worker that dies mid-task loses
nothing: the scheduler runs its tasks again elsewhere (a task that kills
several workers in a row is reported as failed).

Dask is imported only when a cluster is used (``import solver`` and the
command line stay fast), and :func:`run_serial` gives the same stream in
this process, for comparisons and small jobs.

Workers of an existing cluster need this package installed; the inputs and
results travel through the scheduler (pickled), so they need no shared
file system.

A caller's stop event (Ctrl-C) reaches the tasks: tasks that take a
``stop`` keyword get an event of their own, set on the worker (through a
Dask ``Event`` on the scheduler) when the caller's is set, so a task can
return what it has so far; a task that has not started by then is
skipped.
"""

from __future__ import annotations

import signal
import threading
import time
import traceback
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from solver.errors import BlokusError, OptionError
from solver.options import MAX_WORKERS


class ClusterError(BlokusError):
    """The Dask cluster could not be started or reached."""


@dataclass(frozen=True)
class Outcome:
    """The outcome of one input: ``value`` when the task returned, else
    ``error`` (one line: the exception's type and message). ``seconds`` is
    the task's own run time (0 when it failed). ``skipped``: the caller's
    stop event was set before the task started (``error`` says so)."""

    name: str
    value: Any = None
    error: str | None = None
    seconds: float = 0.0
    skipped: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None


SKIPPED = "not started: stopped first"
LOST = "lost: the Dask cluster went away (its scheduler stopped) before this task ended"


class _NotStarted:
    """What _timed returns for a task it skipped (pickled back to the caller)."""


def _timed(task: Callable[..., Any], arg: Any, stop_name: str | None = None) -> tuple[float, Any]:
    """Run on a worker: the task's result and its run time. ``stop_name``:
    the Dask Event that stops the run (the task gets ``stop=``)."""
    start = time.perf_counter()
    if stop_name is None:
        value = task(arg)
    else:
        with _stop_on_worker(stop_name) as stop:
            value = _NotStarted() if stop.is_set() else task(arg, stop=stop)
    return time.perf_counter() - start, value


@contextmanager
def _stop_on_worker(name: str) -> Iterator[threading.Event]:
    """A local event set once the scheduler's Event ``name`` is (asked
    every half second while the task runs)."""
    from distributed import Event

    remote = Event(name)
    local = threading.Event()
    if remote.is_set():
        local.set()
    with _relay(remote.is_set, local.set, 0.5, "stop-watch"):
        yield local


@contextmanager
def _relay(ready: Callable[[], bool], then: Callable[[], None], every: float, name: str) -> Iterator[None]:
    """While the block runs, a thread asks ``ready()`` every ``every``
    seconds and calls ``then()`` once it says yes."""
    done = threading.Event()

    def run() -> None:
        while not done.wait(every):
            if ready():
                then()
                return

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def _error_text(e: BaseException) -> str:
    if isinstance(e, BlokusError):
        return str(e)
    lines = traceback.format_exception_only(type(e), e)
    return lines[-1].strip() if lines else type(e).__name__


def run_serial(task: Callable[..., Any], inputs: Iterable[tuple[str, Any]],
               stop: threading.Event | None = None) -> Iterator[Outcome]:
    """The same stream as :func:`run_tasks`, one input after the other in
    this process."""
    for name, arg in inputs:
        if stop is not None and stop.is_set():
            yield Outcome(name, error=SKIPPED, skipped=True)
            continue
        try:
            start = time.perf_counter()
            value = task(arg) if stop is None else task(arg, stop=stop)
            seconds = time.perf_counter() - start
        except Exception as e:  # a task's failure is its input's outcome
            yield Outcome(name, error=_error_text(e))
        else:
            yield Outcome(name, value, seconds=seconds)


def check_workers(workers: int) -> int:
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise OptionError(f"workers must be a whole number from 1 to {MAX_WORKERS}, not {workers!r}")
    return workers


def run_tasks(task: Callable[..., Any], inputs: Iterable[tuple[str, Any]], *, workers: int = 2,
              scheduler: str | None = None, stop: threading.Event | None = None,
              ready: Callable[[int], None] | None = None) -> Iterator[Outcome]:
    """Run ``task(arg)`` for each ``(name, arg)`` of ``inputs`` (names
    unique) on Dask and yield one :class:`Outcome` per input as each
    completes. ``scheduler``: the address of an existing cluster's
    scheduler; else a ``LocalCluster`` of ``workers`` processes (one thread
    each) is started here and shut down at the end. ``task`` must be
    picklable (a module-level function, or a ``functools.partial`` of one).
    ``stop``: the caller's stop event; the tasks are then called as
    ``task(arg, stop=event)`` with an event set on their worker soon after
    this one is set (tasks not started by then are skipped). ``ready`` is
    called with the cluster's number of workers once the tasks are
    submitted."""
    inputs = list(inputs)
    names = [name for name, _ in inputs]
    if len(set(names)) != len(names):
        raise OptionError("run_tasks: input names must be unique")
    if not inputs:
        return
    with _client(workers, scheduler) as client:
        if stop is None:
            yield from _stream(client, task, inputs, ready=ready)
            return
        with _stop_to_workers(client, stop) as name:
            yield from _stream(client, task, inputs, name, ready)


@contextmanager
def _stop_to_workers(client, stop: threading.Event) -> Iterator[str]:
    """The name of a Dask Event that is set on the scheduler when ``stop``
    is set here (a thread of this process waits for it)."""
    from distributed import Event

    name = f"blokus-stop-{uuid.uuid4().hex}"
    with _relay(stop.is_set, Event(name, client=client).set, 0.1, "stop-forward"):
        yield name


def check_scheduler(address: str) -> str:
    """A scheduler address such as ``tcp://host:8786``; OptionError when it
    cannot be one (checked before connecting: a malformed address would
    otherwise fail deep inside Dask)."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme in ("tcp", "tls"):
            parse_host_port(location)
    except ValueError as e:
        raise OptionError(f"bad scheduler address {address!r}: {e} (expected e.g. tcp://host:8786)") from None
    return address


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while the LocalCluster's processes start, so they
    inherit that: Ctrl-C in a terminal signals the whole process group, and
    workers killed by it would leave this process waiting for them. Ctrl-C
    is this process's to handle (it stops the tasks through ``stop``)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


LOOPBACK = "127.0.0.1"
_DASK_LOGS = ("distributed", "distributed.client", "distributed.core", "distributed.comm")


class _client:
    """A Dask client on a new LocalCluster or an existing scheduler (closed
    on exit, with the cluster it started). A LocalCluster listens on the
    loopback interface only, its HTTP endpoint (Dask's dashboard, when
    bokeh is installed) included: nothing of it is open to the network
    (its processes talk without authentication)."""

    def __init__(self, workers: int, scheduler: str | None):
        self.workers, self.scheduler = workers, scheduler
        self.cluster = self.client = None
        self.log_levels: dict[str, int] = {}

    def __enter__(self):
        import logging

        import dask
        from distributed import Client, LocalCluster

        # Dask logs its own tracebacks when the scheduler goes away; each task's outcome says it instead
        self.log_levels = {name: logging.getLogger(name).level for name in _DASK_LOGS}
        for name in _DASK_LOGS:
            logging.getLogger(name).setLevel(logging.CRITICAL)
        try:
            if self.scheduler:
                check_scheduler(self.scheduler)
                self.client = Client(self.scheduler, timeout="10s", set_as_default=False)
            else:
                check_workers(self.workers)
                # the workers' statistical profiler samples the running task's stack every 10 ms: deep
                # pure-Python searches paid about a tenth of their time for it
                with dask.config.set({"distributed.worker.profile.enabled": False}), _sigint_ignored():
                    self.cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                                host=LOOPBACK, dashboard_address=f"{LOOPBACK}:0",
                                                silence_logs=logging.CRITICAL)
                self.client = Client(self.cluster, set_as_default=False)
        except (OSError, TimeoutError, RuntimeError) as e:  # RuntimeError: Dask's "failed to start"
            self.__exit__(None, None, None)
            where = f"the scheduler at {self.scheduler}" if self.scheduler else "a local cluster"
            raise ClusterError(f"cannot reach {where}: {e}") from None
        return self.client

    def __exit__(self, *exc) -> None:
        import logging

        try:
            if self.client is not None:
                self.client.close()
            if self.cluster is not None:
                self.cluster.close()
        finally:
            for name, level in self.log_levels.items():
                logging.getLogger(name).setLevel(level)


def connect(workers: int = 2, scheduler: str | None = None):
    """A context manager giving a Dask client: on an existing cluster's
    scheduler, else on a new LocalCluster of ``workers`` processes (shut
    down on exit); ClusterError when it cannot be reached."""
    return _client(workers, scheduler)


def _stream(client, task, inputs: list[tuple[str, Any]], stop_name: str | None = None,
            ready: Callable[[int], None] | None = None) -> Iterator[Outcome]:
    from distributed import as_completed

    name_of = {}
    for name, arg in inputs:
        future = client.submit(_timed, task, arg, stop_name, pure=False, key=f"task-{len(name_of)}-{time.time_ns()}")
        name_of[future] = name
    if ready is not None:
        ready(len(client.scheduler_info()["workers"]))
    for future in as_completed(list(name_of), loop=client.loop):
        name = name_of.pop(future)
        if future.status == "error":
            outcome = Outcome(name, error=_error_text(future.exception()))
        elif future.status == "cancelled":
            outcome = Outcome(name, error=LOST)
        else:
            seconds, value = future.result()
            if isinstance(value, _NotStarted):
                outcome = Outcome(name, error=SKIPPED, skipped=True)
            else:
                outcome = Outcome(name, value, seconds=seconds)
        future.release()
        yield outcome
