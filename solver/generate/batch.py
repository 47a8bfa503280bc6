"""One challenge per (options, index), many in this process or over Dask,
and the files each is written to.

A challenge depends only on the options and its index: its random draws
come from a generator seeded with both, so the same seed gives the same
challenges whichever worker makes them and in whatever order they end.
Candidates are drawn until one is proven unique (by both engines) in the
difficulty band asked for; the others are dropped and counted by reason.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from solver.core.pieces import CLASSIC_PIECES, PIECE_SIZES, PIECES
from solver.deadline import Deadline
from solver.errors import BlokusError, OptionError
from solver.generate.build import KINDS, MAX_SIDE, MIN_SIDE, Kind, describe, new_draft
from solver.generate.grade import DIFFICULTIES, Grade, grade
from solver.generate.unique import Dropped, Proof, make_unique
from solver.puzzle.definition import Puzzle
from solver.puzzle.result import Solution

MAX_CANDIDATES = 400  # candidates drawn for one challenge before giving up
MAX_SECONDS = 86_400.0


class GenerateError(BlokusError):
    """A challenge could not be made with these options."""


@dataclass(frozen=True)
class GenerateOptions:
    """What to make: the kind, a square board ``size`` x ``size`` (default
    8: a card-sized board, as the bundled 7x7 and 8x8 challenges), blue's
    pieces to place (``pieces``: fewest, most), obstacle pieces (None: the
    kind's default), a difficulty band (None: any), the seed, and the
    seconds one challenge may take (its candidates are drawn until then)."""

    kind: Kind | str
    size: int = 8
    pieces: tuple[int, int] = (3, 5)
    obstacles: tuple[int, int] | None = None
    difficulty: str | None = None
    seed: int = 0
    time_limit: float = 300.0  # seconds per challenge, looked at between candidates

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise OptionError(f"unknown kind {self.kind!r} (known: {' '.join(KINDS)})")
        object.__setattr__(self, "kind", Kind(self.kind))
        if isinstance(self.size, bool) or not isinstance(self.size, int) or not MIN_SIDE <= self.size <= MAX_SIDE:
            raise OptionError(f"board size must be a whole number from {MIN_SIDE} to {MAX_SIDE}, not {self.size!r}")
        for name in ("pieces", "obstacles"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, tuple) and len(value) == 2 and
                                          all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
                raise OptionError(f"{name} must be a pair of whole numbers (fewest, most), not {value!r}")
        lo, hi = self.pieces
        extra = 2 if self.kind is Kind.CONNECT else 0  # connect's two set-up pieces come from the same set
        if not 1 <= lo <= hi <= 21 - extra:
            raise OptionError(f"pieces to place must be a range within 1 to {21 - extra}, not {lo}-{hi}")
        need = sum(sorted(PIECE_SIZES[i] for i in CLASSIC_PIECES)[:lo + extra])
        if need > self.size * self.size:
            raise OptionError(f"{lo + extra} pieces cover at least {need} squares; the {self.size}x{self.size} board has "
                              f"{self.size * self.size}")
        if isinstance(self.time_limit, bool) or not isinstance(self.time_limit, (int, float)) or \
                not 0 < self.time_limit <= MAX_SECONDS:
            raise OptionError(f"time limit must be a number of seconds above 0, at most {MAX_SECONDS}, "
                              f"not {self.time_limit!r}")
        if self.obstacles is not None and not 0 <= self.obstacles[0] <= self.obstacles[1] <= 30:
            raise OptionError(f"obstacle pieces must be a range within 0 to 30, not {self.obstacles!r}")
        if self.difficulty is not None and self.difficulty not in DIFFICULTIES:
            raise OptionError(f"unknown difficulty {self.difficulty!r} (known: {' '.join(DIFFICULTIES)})")

    def name(self, index: int) -> str:
        band = f"-{self.difficulty}" if self.difficulty else ""
        return f"{self.kind.value}-{self.size}x{self.size}{band}-s{self.seed}-{index:03d}"


@dataclass
class Generated:
    """One challenge: its puzzle, its one solution, how hard it is, the
    proof of uniqueness, and the candidates dropped on the way (by reason)."""

    name: str
    puzzle: Puzzle
    solution: Solution
    grade: Grade
    proof: Proof
    candidates: int
    dropped: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    files: dict[str, bytes] | None = None  # its files' contents, once drawn (see file_contents)


def generate_one(options: GenerateOptions, index: int, stop: threading.Event | None = None) -> Generated:
    """Challenge number ``index`` of ``options`` (the same every time)."""
    t0 = time.perf_counter()
    o = options
    rng = random.Random(f"blokus-generate/{o.kind}/{o.size}/{o.pieces}/{o.obstacles}/{o.difficulty}/{o.seed}/{index}")
    # (the time limit is left out: a longer one finds the same challenge, when a shorter one finds it)
    name = o.name(index)
    dropped: Counter = Counter()
    clock = Deadline(o.time_limit)
    for candidate in range(1, MAX_CANDIDATES + 1):
        if stop is not None and stop.is_set():
            raise GenerateError(f"{name}: stopped before a challenge was found")
        if clock.expired():
            raise GenerateError(f"{name}: no challenge found in {o.time_limit:g} s ({candidate - 1} candidates: "
                                f"{_reasons(dropped)})")
        draft = new_draft(o.kind, rng, o.size, o.size, rng.randint(*o.pieces), o.obstacles)
        if draft is None:
            dropped["the pieces did not fit"] += 1
            continue
        try:
            draft, proof = make_unique(draft, rng, name)
        except Dropped as e:
            dropped[str(e)] += 1
            continue
        puzzle = draft.puzzle(name)
        g = grade(puzzle)
        if o.difficulty is not None and g.band != o.difficulty:
            dropped[f"graded {g.band}, not {o.difficulty}"] += 1
            continue
        puzzle = draft.puzzle(name, describe(draft) + f" Difficulty: {g.band} (grade {g.score:.1f}).")
        return Generated(name, puzzle, draft.solution(), g, proof, candidate, dropped, time.perf_counter() - t0)
    raise GenerateError(f"{name}: no challenge found in {MAX_CANDIDATES} candidates ({_reasons(dropped)})")


def _reasons(dropped: Counter) -> str:
    return ", ".join(f"{n} {why}" for why, n in dropped.most_common(3)) or "none dropped"


def pieces_text(g: Generated) -> str:
    return " ".join(PIECES[i].name for i in g.puzzle.pieces[g.puzzle.colors[0]])


SUFFIXES = {"puzzle": ".toml", "card": ".png", "card_svg": ".svg", "answer": "-answer.png",
            "answer_svg": "-answer.svg", "solution_file": "-answer.json"}  # the files of a challenge, by what they hold


def file_contents(g: Generated) -> dict[str, bytes]:
    """What :func:`write_files` writes, by key of :data:`SUFFIXES`: the
    puzzle file, the card and the answer (PNG, SVG), and the answer as a
    solution file (``blokus solve --check``). Made where the challenge is
    made, so that a cluster's workers draw the cards too."""
    import json

    from solver.drawing.card import render_answer, render_card
    from solver.formats.puzzle_file import puzzle_to_toml
    from solver.formats.solution_file import solution_to_json

    return {
        "puzzle": puzzle_to_toml(g.puzzle).encode("utf-8"),
        "card": render_card(g.puzzle, fmt="png"),
        "card_svg": render_card(g.puzzle, fmt="svg"),
        "answer": render_answer(g.puzzle, g.solution, fmt="png"),
        "answer_svg": render_answer(g.puzzle, g.solution, fmt="svg"),
        "solution_file": (json.dumps(solution_to_json(g.puzzle, g.solution), indent=2) + "\n").encode("utf-8"),
    }


def write_files(g: Generated, folder: Path) -> dict[str, str]:
    """Write the challenge's files into ``folder`` (made when missing), each
    whole; returns the paths by key of :data:`SUFFIXES`."""
    from solver import files

    folder.mkdir(parents=True, exist_ok=True)
    contents = g.files or file_contents(g)
    paths = {key: f"{folder / g.name}{suffix}" for key, suffix in SUFFIXES.items()}
    for key, path in paths.items():
        files.write_file(path, contents[key], GenerateError)
    return paths


def _task(job: tuple[GenerateOptions, int], stop: threading.Event | None = None) -> Generated:
    options, index = job
    g = generate_one(options, index, stop)
    g.files = file_contents(g)
    return g


def generate(options: GenerateOptions, count: int, *, workers: int | None = None, scheduler: str | None = None,
             stop: threading.Event | None = None) -> Iterator[tuple[int, Generated | None, str | None]]:
    """Challenges 1..``count`` of ``options`` as (index, challenge, error)
    in the order they end: in this process, or on a Dask cluster (a
    LocalCluster of ``workers`` processes, or the one at ``scheduler``)."""
    from solver.cluster import run_serial, run_tasks

    inputs = [(options.name(i), (options, i)) for i in range(1, count + 1)]
    index = {name: i for i, (name, _) in enumerate(inputs, start=1)}
    if workers is None and scheduler is None:
        stream = run_serial(_task, inputs, stop=stop)
    else:
        stream = run_tasks(_task, inputs, workers=workers or 2, scheduler=scheduler, stop=stop)
    for outcome in stream:
        yield index[outcome.name], outcome.value if outcome.ok else None, outcome.error
