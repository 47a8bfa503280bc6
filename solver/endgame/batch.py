"""Annotate many games: one task per game on Dask (:mod:`solver.cluster`),
each game's outputs written whole or not at all, and a summary CSV."""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from solver.deadline import Deadline
from solver.endgame.annotate import annotate
from solver.endgame.annotated_record import annotated_sgf
from solver.endgame.plot import plot_annotation
from solver.endgame.trees import Tree
from solver.errors import BlokusError, OptionError, OutputError
from solver.files import check_writable, make_folder, write_file
from solver.formats.sgf import GameRecord, load_record_text, read_record
from solver.puzzle.result import Progress, ProgressCallback


@dataclass(frozen=True)
class AnnotateOptions:
    """Options of every game of a batch."""

    time_limit: float = 60.0
    from_move: int | None = None
    plot: bool = True  # draw DIR/<game>.png
    tree: Tree = Tree.COMPILED  # or Tree.PYTHON (see annotate)
    threads: int = 1  # of each game's tree (the local cluster's workers are one per core)


@dataclass(frozen=True)
class GameOutput:
    """What one game's task sends back (picklable, small): the ``--json``
    object, the annotated record and the plot (PNG bytes, or None);
    ``interrupted``: the batch was stopped while this game ran (its
    outputs are not written: a rerun does it again)."""

    json: dict
    sgf: str
    plot: bytes | None
    interrupted: bool = False


def read_game(path: str) -> tuple[str, GameRecord]:
    """The text of a record file (as it is) and the record read from it."""
    return load_record_text(path)


def annotate_game(item: tuple[str, str], options: AnnotateOptions,
                  stop: threading.Event | None = None) -> GameOutput:
    """One batch task: annotate the record ``text`` named ``source``
    (``item`` = (source, text)); runs on a Dask worker. ``stop``: the
    batch's Ctrl-C, relayed (the game then comes back ``interrupted``)."""
    source, text = item
    ann = annotate(read_record(text, source), options.time_limit, options.from_move, source=source, tree=options.tree,
                   stop=stop, threads=options.threads)
    if ann.interrupted:
        return GameOutput({}, "", None, interrupted=True)
    return GameOutput(ann.to_json(), annotated_sgf(text, ann), plot_annotation(ann) if options.plot else None)


SUMMARY_FIELDS = ("game", "moves_analysed", "first_proven_move", "mistakes", "seconds", "error")


@dataclass
class BatchReport:
    """How a batch went, per game file (in input order)."""

    games: list[str]
    annotated: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # annotated by an earlier run
    failed: dict[str, str] = field(default_factory=dict)  # game -> error
    summary: str = ""  # the path of summary.csv, once written
    summary_error: str | None = None  # why summary.csv could not be written
    interrupted: bool = False  # Ctrl-C: the games not done are failed with INTERRUPTED


def game_files(paths: list[str]) -> list[str]:
    """The record files named: files as given, folders as the ``.blksgf``
    files in them (sorted, not recursive). Two games with the same file
    name would write the same outputs: an error."""
    files: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():  # every match: one that is not a file (a folder, a device) fails with a message
            found = sorted(str(f) for f in path.glob("*.blksgf"))
            if not found:
                raise OptionError(f"{p}: no .blksgf files in this folder")
            files += found
        elif path.exists():
            files.append(str(path))
        else:
            raise OptionError(f"{p}: no such file or folder")
    stems: dict[str, str] = {}
    for f in files:
        stem = Path(f).stem
        if stem in stems and Path(stems[stem]).resolve() != Path(f).resolve():
            raise OptionError(f"{stems[stem]} and {f} have the same name: their outputs would collide")
        stems[stem] = f
    return list(dict.fromkeys(stems.values()))


def _outputs(out_dir, game: str) -> dict[str, "object"]:
    stem = Path(game).stem
    return {ext: Path(out_dir) / f"{stem}.{ext}" for ext in ("blksgf", "png", "json")}


def _write_outputs(out_dir, game: str, result: GameOutput) -> None:
    """Write one game's files, each atomically; the JSON last, as the mark
    that the game is done (a rerun skips it). When one cannot be written
    (a full disk), those written before it are removed again, so the
    folder holds a game's outputs whole or not at all; OutputError."""
    paths = _outputs(out_dir, game)
    files = [(paths["blksgf"], result.sgf.encode("utf-8"))]
    if result.plot is not None:
        files.append((paths["png"], result.plot))
    files.append((paths["json"], (json.dumps(result.json, indent=2) + "\n").encode("utf-8")))
    written = []
    try:
        for path, data in files:
            write_file(path, data)
            written.append(path)
    except OutputError:
        for path in written:
            path.unlink(missing_ok=True)
        raise


def _summary_row(out_dir, game: str, error: str | None) -> dict:
    row = dict.fromkeys(SUMMARY_FIELDS, "")
    row["game"] = game
    if error is not None:
        row["error"] = error
        return row
    path = _outputs(out_dir, game)["json"]
    try:
        with open(path, encoding="utf-8") as f:
            obj = json.load(f)
        row.update(moves_analysed=obj["moves_analysed"], first_proven_move=obj["first_proven_move"] or "",
                   mistakes=obj["mistakes"], seconds=obj["seconds"])
    except (OSError, ValueError, KeyError, TypeError) as e:  # a result file edited or damaged since
        row["error"] = f"{path}: cannot read the result: {getattr(e, 'strerror', None) or e}"
    return row


def write_summary(out_dir, report: BatchReport) -> str:
    """DIR/summary.csv: one row per game of the batch (skipped ones from
    their earlier JSON), written atomically."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, SUMMARY_FIELDS, lineterminator="\n")
    writer.writeheader()
    for game in report.games:
        writer.writerow(_summary_row(out_dir, game, report.failed.get(game)))
    path = Path(out_dir) / "summary.csv"
    write_file(path, buf.getvalue().encode("utf-8"))
    return str(path)


def _batch_inputs(files: list[str], out_dir, force: bool, report: BatchReport) -> list[tuple[str, tuple[str, str]]]:
    """(name, (source, text)) of every game still to do; games done by an
    earlier run are skipped (unless ``force``), unreadable files fail here."""
    inputs = []
    for game in files:
        paths = _outputs(out_dir, game)
        if paths["blksgf"].resolve() == Path(game).resolve():
            raise OptionError(f"{game}: the annotated record would overwrite it: choose another --out-dir")
        if not force and paths["json"].exists():
            report.skipped.append(game)
            continue
        try:
            text, _ = read_game(game)
        except BlokusError as e:
            report.failed[game] = str(e)
            continue
        inputs.append((game, (game, text)))
    return inputs


def _work_estimate(source: str, text: str, from_move: int) -> tuple[int, int]:
    """A rough size of one game's analysis from move ``from_move``: the
    pieces in hand, then the legal moves, of all colours at the first
    position analysed. A batch submits its biggest games first: its wall
    time is at least its longest game's, and a long game started last
    leaves the other workers idle (benchmarks/annotate.py: the time of a
    Duo endgame grows with both). A record that cannot be replayed sorts
    first (its task fails at once)."""
    try:
        record = read_record(text, source)
        pos = record.position(max(0, min(from_move - 1, record.move_count)))
    except BlokusError:
        return (1 << 30, 0)
    colors = pos.variant.colors
    return (sum(len(pos.pieces_left(c)) for c in colors), sum(len(pos.legal_placements(c)) for c in colors))


def annotate_batch(paths: list[str], out_dir: str, options: AnnotateOptions = AnnotateOptions(), *,
                   workers: int = 2, scheduler: str | None = None, force: bool = False,
                   progress: ProgressCallback | None = None,
                   on_outcome: Callable[[object], None] | None = None) -> BatchReport:
    """Annotate many games, one task per game, on Dask (see
    :func:`solver.cluster.run_tasks`; ``workers`` 0 runs them here, one
    after the other). Each game's record, plot and JSON go to ``out_dir``
    as it completes; a failing game is reported and the others go on;
    ``DIR/summary.csv`` is written at the end. ``on_outcome`` hears each
    :class:`~solver.cluster.Outcome` after its files are written. With
    ``options.from_move``, the biggest games are submitted first (see
    :func:`_work_estimate`). Ctrl-C (SIGINT or SIGTERM) stops the games
    running (they are not written), skips the rest and returns the report
    ``interrupted``, with the summary written."""
    from solver.cluster import run_serial, run_tasks
    from solver.solving import ctrl_c_stops

    files = game_files(paths)
    make_folder(out_dir)
    check_writable(Path(out_dir) / "summary.csv")
    report = BatchReport(files)
    inputs = _batch_inputs(files, out_dir, force, report)
    if options.from_move is not None:
        inputs.sort(key=lambda item: _work_estimate(*item[1], options.from_move), reverse=True)
    task = functools.partial(annotate_game, options=options)
    clock = Deadline()
    with ctrl_c_stops() as stop:  # no KeyboardInterrupt halfway through Dask: the tasks hear it and end
        if workers == 0:
            outcomes = run_serial(task, inputs, stop=stop)
        else:
            outcomes = run_tasks(task, inputs, workers=min(workers, max(1, len(inputs))), scheduler=scheduler,
                                 stop=stop)
        with contextlib.closing(outcomes):  # (shuts a cluster started here down, here)
            _collect(outcomes, out_dir, report, files, clock, progress, on_outcome)
        report.interrupted = stop.is_set()
    try:
        report.summary = write_summary(out_dir, report)
    except OutputError as e:
        report.summary_error = str(e)
    return report


INTERRUPTED = "not annotated: interrupted (Ctrl-C)"


def _collect(outcomes, out_dir, report: BatchReport, files: list[str], clock: Deadline,
             progress: ProgressCallback | None, on_outcome: Callable[[object], None] | None) -> None:
    """Write each game's outputs as its outcome arrives and keep the report."""
    for outcome in outcomes:
        error = outcome.error
        if outcome.skipped or (outcome.ok and outcome.value.interrupted):  # Ctrl-C came first
            error = INTERRUPTED
        elif outcome.ok:
            try:
                _write_outputs(out_dir, outcome.name, outcome.value)
            except OutputError as e:  # the other games go on, and may still find room
                error = str(e)
            else:
                report.annotated.append(outcome.name)
        if error is not None:
            report.failed[outcome.name] = error
        if on_outcome is not None:
            on_outcome(outcome)
        if progress is not None:
            done = len(report.annotated) + len(report.failed) + len(report.skipped)
            progress(Progress(clock.elapsed, 0, f"annotate: {done}/{len(files)} games, {len(report.failed)} failed",
                              notice=True, done=done, total=len(files)))  # each game's end
