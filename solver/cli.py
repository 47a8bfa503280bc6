"""The ``blokus`` command line. Engines and plotting are imported lazily, so
``show`` and ``moves`` start fast.

Exit codes: 0 done (solved), 2 error (bad input or usage), 3 INFEASIBLE,
4 UNKNOWN (time ran out before an answer), 5 the two engines disagree, 130
Ctrl-C or SIGTERM (after printing what was found so far).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from solver.core.geometry import NUM_COLORS
from solver.core.pieces import PIECES
from solver.core.text import counted
from solver.cpsat.encoding import ENCODINGS, Encoding
from solver.deadline import Deadline
from solver.errors import BlokusError, OptionError, OutputError
from solver.formats.solution_file import placement_json, solution_to_json
from solver.options import MAX_WORKERS, check_int, check_time_limit
from solver.packing.driver import MODES
from solver.puzzle.crosscheck import agreement, both_final
from solver.puzzle.definition import Goal
from solver.puzzle.result import Status
from solver.solving import ENGINES, MAX_SEED, NAMED, SOLVE_ENGINES, Engine
from solver.version import __version__

EXIT_OK, EXIT_ERROR, EXIT_INFEASIBLE, EXIT_UNKNOWN, EXIT_DISAGREE = 0, 2, 3, 4, 5
EXIT_INTERRUPTED = 130  # Ctrl-C (or SIGTERM), as a shell reports SIGINT


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors: same prefix, exit 2
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"blokus: error: {message}\n")


def _formatter(prog):
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=30)


def _record_args(p: argparse.ArgumentParser, what: str = "game record (.blksgf)") -> None:
    """FILE and --move, as every command on game records takes them."""
    p.add_argument("file", metavar="FILE", help=what)
    p.add_argument("--move", type=int, metavar="N", help="position after N moves (default: the end)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="blokus",
        description="Exact Blokus puzzle solver, endgame analyser and record tool.",
        formatter_class=_formatter,
        epilog="Run 'blokus COMMAND --help' for the options and examples of a command.",
    )
    parser.add_argument("--version", action="version", version=f"blokus {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for add in (_add_show, _add_moves, _add_solve, _add_analyze, _add_annotate, _add_generate, _add_render,
                _add_puzzles, _add_warm_up):
        add(sub)
    return parser


_GUIDE_LINES = [
    ("blokus puzzles", "the bundled puzzles and sample games"),
    ("blokus solve solo-21", "solve a puzzle (a bundled name or a .toml file)"),
    ("blokus show sample-2p", "a game record's position (.blksgf)"),
    ("blokus moves sample-2p --move 20", "the legal moves there"),
    ("blokus analyze sample-2p --move 56", "the best score each colour can still reach, proven"),
    ("blokus annotate sample-duo --from 20", "the mistakes of a game, move by move"),
    ("blokus generate stars --count 4", "new challenges with exactly one solution, as cards to print"),
    ("blokus render sample-2p -o game.png", "a picture of a position or a puzzle"),
    ("blokus warm-up", "compile the kernels ahead (the first analyze then starts at once)"),
]
GUIDE = (f"blokus {__version__}: exact Blokus puzzles, endgames and records.\n\n"
         + "".join(f"  {command:<38}{what}\n" for command, what in _GUIDE_LINES)
         + "\n'blokus COMMAND --help' gives a command's options and examples; 'blokus --help' lists them all.\n")


def _command(sub, name: str, run, help: str, description: str, examples: list[str]) -> argparse.ArgumentParser:
    p = sub.add_parser(name, help=help, formatter_class=_formatter, description=description,
                       epilog="examples:\n" + "\n".join(f"  {e}" for e in examples))
    p.set_defaults(run=run)
    return p


# -- option values (argparse types: a bad value is a usage error, exit 2) ----------

def _seconds(text: str) -> float:
    try:
        return check_time_limit(float(text))
    except (ValueError, OptionError):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text!r}") from None


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be a number from 0 to 1, not {text!r}")
    return value


def _int_in(lo: int, hi: int):
    def parse(text: str) -> int:
        try:
            return check_int(int(text), "value", lo, hi)
        except (ValueError, OptionError):
            raise argparse.ArgumentTypeError(f"must be a whole number from {lo} to {hi}, not {text!r}") from None

    return parse


def _add_show(sub) -> None:
    p = _command(sub, "show", cmd_show, "show the position of a game record",
                 "Show the position after N moves of a Pentobi game record (.blksgf).",
                 ["blokus show game.blksgf", "blokus show game.blksgf --move 12 --json"])
    _record_args(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _add_moves(sub) -> None:
    p = _command(sub, "moves", cmd_moves, "list the legal moves in a game record's position",
                 "List the legal moves of the colour to move (or of --color) after N moves.",
                 ["blokus moves game.blksgf", "blokus moves game.blksgf --move 4 --color red --json"])
    _record_args(p)
    p.add_argument("--color", metavar="C", help="colour to list: blue, yellow, red or green")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _add_solve(sub) -> None:
    p = _command(
        sub, "solve", cmd_solve, "solve a puzzle file (.toml)",
        "Solve a puzzle: place all pieces, maximise a score, or count the solutions.\n"
        "Status: OPTIMAL (solved; for place-all any solution is complete), FEASIBLE\n"
        "(a solution, but the optimum or the full count is not proven), INFEASIBLE\n"
        "(proven impossible), UNKNOWN (time ran out first). Exit codes: 0 solved,\n"
        "3 infeasible, 4 unknown, 2 errors, 5 the engines disagree (--engine both).",
        ["blokus solve puzzles/solo-21.toml",
         "blokus solve puzzles/solo-84.toml --time-limit 300 --seed 7",
         "blokus solve puzzles/solo-84.toml --mode general",
         "blokus solve puzzles/tetromino-8x10-distinct.toml --count --json",
         "blokus solve puzzles/stars-8x8.toml --engine both",
         "blokus solve puzzles/solo-21.toml --engine cpsat --cpsat-params 'num_workers:1,random_seed:3'"],
    )
    p.add_argument("puzzle", metavar="PUZZLE", help="puzzle file (.toml), see README")
    p.add_argument("--engine", choices=SOLVE_ENGINES, default="auto",
                   help="auto (default): the engine that suits the puzzle, said in the output; search (the "
                        "bitboard search engine), cpsat (OR-Tools CP-SAT), both: run each, verify each "
                        "answer and check that they agree, or hybrid: search, then CP-SAT repairs its "
                        "best partial packing by large neighbourhood search (place-all puzzles)")
    p.add_argument("--portfolio", type=_int_in(1, MAX_WORKERS), default=0, metavar="N",
                   help="--engine hybrid: N runs with seeds SEED.. on Dask (a local cluster, see --jobs), "
                        "each with the whole time limit, the best wins (Ctrl-C: the best so far)")
    p.add_argument("--jobs", type=_int_in(1, MAX_WORKERS), default=0, metavar="J",
                   help="--portfolio: processes of the local cluster (default: one per core, at most one per run; "
                        "the other runs wait their turn)")
    p.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="--portfolio: an existing Dask cluster's scheduler (tcp://host:8786)")
    p.add_argument("--search-share", type=_share, default=None, metavar="F",
                   help="--engine hybrid: share of the time limit the search engine gets before the LNS "
                        "(default 0.5, 0.9 on quarter-turn puzzles such as 19x19, at most 120 s; 0: the LNS starts "
                        "at once from nothing)")
    p.add_argument("--check", metavar="FILE",
                   help="do not solve: verify a solution file (the JSON of --json) against the puzzle")
    p.add_argument("--mode", choices=MODES, default="auto",
                   help="search method: auto (default), general (no symmetry assumed), symmetric "
                        "(quarter-turn symmetric solutions only; with --engine hybrid or cpsat also the half turn "
                        "on rectangles, which hybrid's auto mode uses too), exhaustive (complete search only)")
    p.add_argument("--time-limit", type=_seconds, default=60.0, metavar="S", help="seconds (default 60)")
    p.add_argument("--seed", type=_int_in(0, MAX_SEED), default=0, metavar="N",
                   help=f"random seed, 0 to {MAX_SEED} (default 0)")
    p.add_argument("--count", action="store_true", help="count all solutions")
    _cpsat_args(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--render", metavar="PATH",
                   help="also draw the solution into an image (.png, .svg, or .gif: the pieces placed one by one)")


def _cpsat_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--encoding", choices=ENCODINGS, default=Encoding.AUTO,
                   help="CP-SAT connectivity encoding (default auto: cuts, levels for maximize)")
    p.add_argument("--workers", type=_int_in(0, MAX_WORKERS), default=0, metavar="N",
                   help="CP-SAT workers (default 0: one per core)")
    p.add_argument("--cpsat-params", default="", metavar="TEXT",
                   help="extra CP-SAT parameters, e.g. 'num_workers:4,random_seed:3'")


def _add_analyze(sub) -> None:
    p = _command(
        sub, "analyze", cmd_analyze, "endgame analysis of a game record: best reachable scores, with proof",
        "Analyse the position after N moves of a game record (default: the end).\n"
        "For every colour: its score now and its solo optimum (the best advanced score it\n"
        "could reach if the others placed nothing more), proven or with bounds; whether\n"
        "the colours still interact; for two-player games the exact game value (blue+red\n"
        "minus yellow+green) and the best move when the rest of the game fits in the time\n"
        "limit, else proven bounds; for four-player games the score each colour can\n"
        "guarantee whatever the others do. Exit codes: 0 done, 2 errors, 5 the engines\n"
        "disagree (--engine both).",
        ["blokus analyze puzzles/games/sample-2p.blksgf --move 56",
         "blokus analyze puzzles/games/sample-4p.blksgf --move 54 --engine both --json",
         "blokus analyze game.blksgf --time-limit 300 --render output/endgame.png",
         "blokus analyze game.blksgf --move 40 --time-limit 600 --threads 8",
         "blokus analyze game.blksgf --move 40 --time-limit 600 --workers 8",
         "blokus analyze game.blksgf --move 40 --scheduler tcp://host:8786"],
    )
    _record_args(p)
    p.add_argument("--time-limit", type=_seconds, default=60.0, metavar="S",
                   help="seconds for the whole analysis (default 60)")
    p.add_argument("--engine", choices=ENGINES, default="search",
                   help="engine for the solo optima: search (default), cpsat, or both (cross-checked)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--render", metavar="PATH",
                   help="also draw the position with the solo-optimum placements of the colour to move")
    p.add_argument("--workers", type=_int_in(1, MAX_WORKERS), metavar="N",
                   help="split the two-player game tree over a local Dask cluster of N worker processes "
                        "(default: threads in this process, see --threads)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="split the two-player game tree over an existing Dask cluster, e.g. tcp://host:8786")
    p.add_argument("--threads", type=_int_in(1, MAX_WORKERS), metavar="T",
                   help="threads of the game tree in this process (default: one per core); "
                        "not with --workers or --scheduler")


def _add_annotate(sub) -> None:
    p = _command(
        sub, "annotate", cmd_annotate, "annotate whole games: proven values, mistakes and best moves",
        "Annotate a game backwards from the end of its main line: for each move from N on\n"
        "(default: as far back as the time limit allows) the value before it (exact, or\n"
        "proven bounds), the value of the move played, the best move and the points lost.\n"
        "Two-player games use the game value (seat 1 minus seat 2), others each colour's\n"
        "guaranteed score. Several games or a folder (with --out-dir) run as one task\n"
        "per game on Dask: a local cluster of --workers processes, or an existing one\n"
        "(--scheduler); each game's .blksgf, .png and .json go to DIR as it completes,\n"
        "games done by an earlier run are skipped (unless --force), DIR/summary.csv\n"
        "lists them all. Exit codes: 0 done, 2 errors (in a batch: some game failed).",
        ["blokus annotate game.blksgf -o annotated.blksgf --plot output/game.png",
         "blokus annotate game.blksgf --from 40 --time-limit 300 --json",
         "blokus annotate games/ --out-dir output/annotated --workers 4",
         "blokus annotate games/*.blksgf --out-dir output/annotated --scheduler tcp://host:8786"],
    )
    p.add_argument("games", nargs="+", metavar="GAME",
                   help="game record (.blksgf); several, or folders of them, with --out-dir")
    p.add_argument("-o", "--output", metavar="OUT", help="write the annotated record (.blksgf) here")
    p.add_argument("--plot", metavar="PATH", help="draw the value per move into an image (.png or .svg)")
    p.add_argument("--time-limit", type=_seconds, default=60.0, metavar="S", help="seconds per game (default 60)")
    p.add_argument("--from", dest="from_move", type=_int_in(1, 100_000), metavar="N",
                   help="analyse moves N to the end (default: as far back as the time allows)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--out-dir", metavar="DIR", help="annotate many games: outputs and summary.csv go here")
    p.add_argument("--workers", type=_int_in(1, MAX_WORKERS), metavar="N",
                   help="worker processes of the local Dask cluster (default: one per core)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="use an existing Dask cluster, e.g. tcp://host:8786")
    p.add_argument("--force", action="store_true", help="annotate again games that DIR already holds")
    p.add_argument("--threads", type=_int_in(1, MAX_WORKERS), metavar="T",
                   help="threads of each game's tree (default: one per core for one game, one per game of a batch)")


def _add_render(sub) -> None:
    p = _command(
        sub, "render", cmd_render, "draw a game record's position or a puzzle as an image",
        "Draw the position after N moves of a game record (.blksgf), or a puzzle file's board\n"
        "(.toml), as a PNG, SVG or GIF image; --animate draws the game as an animated GIF\n"
        "(the initial board, then one frame per move). Prints the path written.",
        ["blokus render game.blksgf --move 20 --numbers",
         "blokus render game.blksgf -o output/game.svg",
         "blokus render game.blksgf --animate",
         "blokus render puzzles/stars-8x8.toml"],
    )
    _record_args(p, "game record (.blksgf) or puzzle file (.toml)")
    p.add_argument("-o", "--output", metavar="PATH",
                   help="image file, format from the suffix: .png, .svg, .gif (default output/<FILE stem>.png)")
    p.add_argument("--numbers", action="store_true", help="write each piece's move number on it")
    p.add_argument("--animate", action="store_true", help="animated GIF of the game up to move N")
    p.add_argument("--size", type=_int_in(100, 5000), default=600, metavar="PX",
                   help="image width in pixels, 100 to 5000 (default 600)")


def _add_puzzles(sub) -> None:
    p = _command(sub, "puzzles", cmd_puzzles, "list the bundled puzzles and sample games",
                 "List the puzzles and sample games that come with the package. Every command takes\n"
                 "one by its name in place of a file.",
                 ["blokus puzzles", "blokus solve solo-21", "blokus analyze sample-2p --move 56",
                  "blokus puzzles --json"])
    p.add_argument("--json", action="store_true", help="print one JSON object")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command is None:  # plain ``blokus``: a short guide, not a usage error
        print(GUIDE, end="")
        return EXIT_OK
    try:
        with _sigterm_as_ctrl_c():
            return _run(args)
    finally:
        _print_notices()


class _sigterm_as_ctrl_c:
    """SIGTERM (``kill``, ``timeout``) handled as Ctrl-C: the work stops
    and hands in what it found, the command exits 130."""

    def __enter__(self):
        import signal
        import threading

        self.previous = None
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGTERM, signal.default_int_handler)

    def __exit__(self, *exc) -> None:
        import signal

        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)


def _bundled_names(args) -> None:
    """A FILE that is no file but a bundled puzzle's or game's name means
    that one (``blokus solve solo-21``, ``blokus show sample-duo``)."""
    from solver.formats.bundled import GAME_SUFFIX, PUZZLE_SUFFIX, find

    def found(arg: str, *suffixes: str) -> str:
        if os.path.lexists(arg) or os.sep in arg:
            return arg  # a file, or a path: the reader says what is wrong with it
        for suffix in suffixes:
            path = find(arg, suffix)
            if path is not None:
                return path
        raise OptionError(f"{arg}: cannot read: no such file, nor a bundled puzzle or game of that name "
                          "('blokus puzzles' lists them)")

    if getattr(args, "puzzle", None):
        args.puzzle = found(args.puzzle, PUZZLE_SUFFIX)
    if getattr(args, "file", None):
        args.file = found(args.file, GAME_SUFFIX, PUZZLE_SUFFIX) if args.command == "render" else \
            found(args.file, GAME_SUFFIX)
    if getattr(args, "games", None):
        args.games = [found(g, GAME_SUFFIX) for g in args.games]


def _run(args) -> int:
    try:
        _bundled_names(args)
        return args.run(args)
    except BlokusError as e:
        print(f"blokus: error: {e}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("blokus: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # output piped into e.g. head: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except OSError as e:  # the machine's fault, not the program's: say what, not a traceback
        where = f"{e.filename}: " if e.filename else ""
        print(f"blokus: error: {where}{e.strerror or e}", file=sys.stderr)
        return EXIT_ERROR


def _print_notices() -> None:
    """What the kernel caches worked around (compiled again, could not
    save), on stderr, once each: a slow run says why."""
    jit = sys.modules.get("solver.kernels.jit")
    for text in jit.take_notices() if jit is not None else ():
        print(f"blokus: note: {text}", file=sys.stderr)


def _emit_json(obj) -> None:
    print(json.dumps(obj, indent=2))


@contextmanager
def _progress(limit: float | None) -> Iterator:
    """Progress on stderr for the block (:class:`solver.terminal.ProgressView`:
    a bar on a terminal, lines otherwise), told of kernel compiles too;
    the bar ends however the block ends."""
    from solver.kernels.compiles import compile_watch
    from solver.terminal import ProgressView

    view = ProgressView(limit)
    try:
        with compile_watch(view.compiling):
            yield view
    finally:
        view.done()


def _board(picture: str) -> str:
    """A board picture for stdout: in colour on a colour terminal."""
    from solver.terminal import board_for

    return board_for(sys.stdout, picture)


# -- show / moves ---------------------------------------------------------------

def _load_position(args):
    from solver.formats.sgf import load_record

    record = load_record(args.file)
    return record, record.position(args.move)


def cmd_show(args) -> int:
    from solver.core.text import board_picture, board_rows, position_owner

    record, pos = _load_position(args)
    v = pos.variant
    owner = position_owner(pos)
    to_move = pos.name(pos.to_move) if pos.to_move is not None else None
    scores = pos.scores()
    left = {v.names[c]: [PIECES[i].name for i in pos.pieces_left(c)] for c in v.colors}
    players = {v.player_name(i): s for i, s in enumerate(pos.player_scores())}
    n = args.move if args.move is not None else record.move_count
    if args.json:
        obj = {
            "file": args.file,
            "variant": v.game,
            "move": n,
            "moves_total": record.move_count,
            "to_move": to_move,
            "game_over": pos.game_over,
            "scores": {v.names[c]: scores[c] for c in v.colors},
            "basic_scores": {v.names[c]: pos.score(c, basic=True) for c in v.colors},
            "points": {v.names[c]: pos.points(c) for c in v.colors},
            "pieces_left": left,
            "board": board_rows(pos.board, owner),
            "player_scores": players,
        }
        if v.two_player:
            obj["seat_scores"] = players
        if v.shared is not None:
            obj["shared_color"] = v.names[v.shared]
            obj["shared_player"] = v.player_name(pos.shared_player())
        _emit_json(obj)
        return EXIT_OK
    print(f"{v.game}: {args.file}, after move {n} of {record.move_count}")
    print()
    print(_board(board_picture(pos.board, owner)))
    print()
    print("Game over" if pos.game_over else f"To move: {to_move}")
    print("Pieces left:")
    for c in v.colors:
        names = left[v.names[c]]
        print(f"  {v.names[c]:<6} {len(names):2} pieces, {pos.squares_left(c):2} squares: {' '.join(names) or '-'}")
    bonus = "advanced" if v.bonus else "advanced, no bonuses in Junior"
    print(f"Scores ({bonus}): " + "  ".join(f"{v.names[c]} {scores[c]:+d}" for c in v.colors))
    print(f"Points (as Pentobi shows them, {v.squares} + the score): "
          + "  ".join(f"{v.names[c]} {pos.points(c)}" for c in v.colors))
    if len(v.players) < len(v.colors):
        label = "Seats" if v.two_player else "Players"
        print(f"{label}: " + "  ".join(f"{name} {score:+d}" for name, score in players.items()))
    if v.shared is not None:
        print(f"{v.names[v.shared].capitalize()} is shared (its score counts for nobody): "
              f"its next piece is played by {v.player_name(pos.shared_player())}'s player")
    return EXIT_OK


def cmd_moves(args) -> int:
    record, pos = _load_position(args)
    v = pos.variant
    color = v.color_index(args.color) if args.color else pos.to_move
    counts = {v.names[c]: len(pos.legal_placements(c)) for c in v.colors}
    t = pos.table
    listed = [] if color is None else sorted(pos.legal_placements(color), key=lambda p: (t.piece[p], t.name(p)))
    to_move = pos.name(pos.to_move) if pos.to_move is not None else None
    if args.json:
        _emit_json(
            {
                "to_move": to_move,
                "color": pos.name(color) if color is not None else None,
                "legal_counts": counts,
                "moves": [t.name(p) for p in listed],
                "pieces": [PIECES[t.piece[p]].name for p in listed],
            }
        )
        return EXIT_OK
    if color is None:
        print("Game over: no colour has a legal move.")
        return EXIT_OK
    print(f"To move: {to_move or 'nobody (game over)'}")
    print("Legal moves: " + "  ".join(f"{c} {n}" for c, n in counts.items()))
    print(f"{pos.name(color)} ({len(listed)}):")
    for p in listed:
        print(f"  {PIECES[t.piece[p]].name:<3} {t.name(p)}")
    return EXIT_OK


# -- solve ----------------------------------------------------------------------

def _engine_json(r) -> dict:
    out = {"status": r.status.value, "seconds": round(r.seconds, 3), "method": r.method}
    for name in ("objective", "bound", "solution_count"):
        if getattr(r, name) is not None:
            out[name] = getattr(r, name)
    for name in ("variables", "constraints"):
        if name in r.stats:
            out[name] = r.stats[name]
    if r.solution_count is not None:
        out["count_complete"] = r.count_complete
    return out


_EXIT_BY_STATUS = {Status.OPTIMAL: EXIT_OK, Status.FEASIBLE: EXIT_OK, Status.INFEASIBLE: EXIT_INFEASIBLE,
                   Status.UNKNOWN: EXIT_UNKNOWN}


def cmd_solve(args) -> int:
    from solver.formats.puzzle_file import load_puzzle
    from solver.solving import solve

    clock = Deadline(args.time_limit)  # the limit covers loading the puzzle too
    puzzle = load_puzzle(args.puzzle)
    if args.check:
        return _check_file(puzzle, args.check)
    if args.render:
        from solver.drawing.render import check_output

        check_output(args.render)  # fail before solving
    with _progress(args.time_limit) as printer:
        result = solve(puzzle, args.engine, printer, time_limit=clock, seed=args.seed,
                       count=args.count, mode=args.mode, workers=args.workers, encoding=args.encoding,
                       cpsat_params=args.cpsat_params, portfolio=args.portfolio, scheduler=args.scheduler,
                       jobs=args.jobs, search_share=args.search_share)
    failed = []
    if args.render and result.placements:
        from solver.drawing.render import image_format, render_solution, render_solution_animation

        what = f" (best partial, {_placed_text(puzzle, result)})" if result.best_partial else ""
        draw = render_solution_animation if image_format(args.render) == "gif" else render_solution  # GIF: piece by piece
        _write_output(failed, lambda: draw(puzzle, result.order, args.render, numbers=True,
                                           title=f"{puzzle.name}: {result.status.value}{what}"))
    code = EXIT_INTERRUPTED if result.interrupted else _EXIT_BY_STATUS[result.status]
    if result.disagreement:
        code = EXIT_DISAGREE
        print(f"blokus: error: the engines disagree: {result.disagreement}", file=sys.stderr)
    if args.json:
        _emit_json(_solve_json(args, puzzle, result, failed))
    else:
        _print_solve(args, puzzle, result, failed)
    return _report_failed(failed, code)


def _check_file(puzzle, path: str) -> int:
    """``--check``: 0 for a verified solution, 4 for a verified partial
    packing; a file that breaks a rule is an error (2)."""
    from solver.formats.solution_file import check_solution

    checked = check_solution(puzzle, path)
    what = "a solution" if checked.complete else "a legal partial packing"
    print(f"{path}: verified against {puzzle.name}: {what}, {checked.pieces} of {checked.total} pieces placed")
    return EXIT_OK if checked.complete else EXIT_UNKNOWN


def _write_output(failed: list[str], write) -> bool:
    """Write one output; a failure (a full disk, say) is kept in ``failed``
    to be reported after the answer, which is printed all the same.
    Whether it was written."""
    try:
        write()
    except OutputError as e:
        failed.append(str(e))
        return False
    return True


def _report_failed(failed: list[str], code: int) -> int:
    """Report the outputs that could not be written (after the answer);
    then the exit code is an error's."""
    for message in failed:
        print(f"blokus: error: {message}", file=sys.stderr)
    return EXIT_ERROR if failed else code


def _solve_json(args, puzzle, result, failed: list[str]) -> dict:
    t = puzzle.table
    obj = solution_to_json(puzzle, result.placements, result.best_partial)  # a solution file, and more
    obj.update({
        "status": result.status.value,
        "engine": result.engine,
        "engine_reason": result.engine_reason,
        "method": result.method,
        "seconds": round(result.seconds, 3),
        "compile_seconds": round(result.compile_seconds, 3),
        "nodes": result.nodes,
        "order": [placement_json(t, puzzle.color_name(c), p) for c, p in result.order],
        "pieces_left": {puzzle.color_name(c): [PIECES[i].name for i in _left(puzzle, result, c)]
                        for c in puzzle.colors},
        "interrupted": result.interrupted,
    })
    if puzzle.goal is Goal.MAXIMIZE:
        obj["objective"] = result.objective
        obj["bound"] = result.bound
    if args.count or puzzle.goal is Goal.COUNT:
        obj["solution_count"] = result.solution_count
        obj["count_complete"] = result.count_complete
        obj["count_up_to_symmetry"] = result.count_classes
    if result.engines is not None:
        obj["engines"] = {name: _engine_json(r) for name, r in result.engines.items()}
        obj["agree"] = result.disagreement is None
        obj["disagreement"] = result.disagreement
        obj["both_final"] = both_final(*result.engines.values())
    if args.render:
        obj["image"] = args.render if result.placements and not failed else None
        if failed:
            obj["image_error"] = failed[0]
    return obj


def _print_solve(args, puzzle, result, failed: list[str]) -> None:
    from solver.core.text import board_picture, owner_letters

    t = puzzle.table
    print(puzzle.summary())
    method = f", {result.method}" if result.method else ""
    engines = "both engines" if result.engine == Engine.BOTH else f"{result.engine} engine"
    print(f"Status: {result.status.value} ({engines}{method}, "
          f"{result.seconds:.2f} s, {result.nodes:,} nodes)")
    if result.engine_reason != NAMED:
        print(f"Engine: {result.engine}, chosen by auto: {result.engine_reason}")
    if puzzle.goal is Goal.MAXIMIZE and result.objective is not None:
        print(f"Objective: {result.objective} (bound {result.bound})")
    if result.interrupted:
        print("Interrupted (Ctrl-C): what was found so far")
    if result.best_partial:
        print(f"Best partial packing (not a solution): {_placed_text(puzzle, result)}")
        for c in puzzle.colors:
            names = [PIECES[i].name for i in _left(puzzle, result, c)]
            print(f"  {puzzle.color_name(c):<6} left: {' '.join(names) or '-'}")
    if args.count or puzzle.goal is Goal.COUNT:
        more = "" if result.count_complete else " found so far (count not complete)"
        print(f"Solutions: {result.solution_count}{more}")
        if result.count_classes is not None:
            print(f"Up to symmetry (turns, mirrors and colour relabellings that keep the puzzle): {result.count_classes}")
    if result.placements or puzzle.setup:
        pieces = [(c, p) for c, ps in puzzle.setup.items() for p in ps] + result.placements
        print()
        names = [puzzle.color_name(c) for c in range(NUM_COLORS)]
        print(_board(board_picture(puzzle.board, owner_letters(t, pieces, names))))
    if result.engines is not None:
        print()
        for name, r in result.engines.items():
            extra = f", objective {r.objective}" if r.objective is not None else ""
            extra += f", {counted(r.solution_count, 'solution')}" if r.solution_count is not None else ""
            print(f"  {name:<7} {r.status.value:<11} {r.seconds:7.2f} s  {r.method}{extra}")
        first, second = result.engines.values()
        print(f"  {agreement(puzzle, first, second)}")
    if result.order:
        print()
        print("Play order:")
        for i, (c, p) in enumerate(result.order, start=1):
            print(f"  {i:3}. {puzzle.color_name(c):<6} {PIECES[t.piece[p]].name:<3} {t.name(p)}")
    if args.render:
        print()
        if failed:
            print("Image: none (it could not be written, see the error below)")
        else:
            print(f"Image: {args.render}" if result.placements else "Image: none (no solution to draw)")


def _left(puzzle, result, c: int) -> list[int]:
    """Colour c's pieces that the result does not place."""
    placed = {puzzle.table.piece[p] for col, p in result.placements if col == c}
    return [i for i in puzzle.pieces[c] if i not in placed]


def _placed_text(puzzle, result) -> str:
    total = sum(len(puzzle.pieces[c]) for c in puzzle.colors)
    return f"{len(result.placements)} of {total} pieces placed"


# -- analyze --------------------------------------------------------------------

def cmd_analyze(args) -> int:
    from solver.endgame.analysis import analyze

    clock = Deadline(args.time_limit)  # the limit covers reading the record too
    record, pos = _load_position(args)
    if args.render:
        from solver.drawing.render import check_output

        check_output(args.render)  # fail before the analysis
    with _progress(args.time_limit) as printer:
        # seconds, not the deadline: the limit starts again once the compiled tree is loaded
        a = analyze(pos, record.two_player, max(clock.left(), 1e-3), args.engine, progress=printer,
                    cluster=_tree_cluster(args), threads=args.threads)
    seconds = clock.elapsed
    n = args.move if args.move is not None else record.move_count
    failed: list[str] = []
    if args.render:
        _write_output(failed, lambda: _render_analysis(args, pos, a, n, record.move_count))
    if args.json:
        _emit_json(_analysis_json(args, record, pos, a, n, seconds, failed))
    else:
        _print_analysis(args, record, pos, a, n, seconds, failed)
    code = EXIT_DISAGREE if any(r.disagreement for r in a.colors) else EXIT_INTERRUPTED if a.interrupted else EXIT_OK
    return _report_failed(failed, code)


def _tree_cluster(args):
    """The Dask cluster the two-player tree is split over, if one was asked for."""
    if args.workers is None and args.scheduler is None:
        return None
    if args.threads is not None:
        raise OptionError("--threads is for the game tree in this process; --workers and --scheduler split it "
                          "over Dask: give one of them")
    from solver.cluster import check_scheduler
    from solver.endgame.treecluster import TreeCluster

    if args.scheduler is not None:
        check_scheduler(args.scheduler)
    return TreeCluster(workers=args.workers or 2, scheduler=args.scheduler)


def _render_analysis(args, pos, a, n: int, total: int) -> None:
    from solver.drawing.render import render_position

    c = pos.to_move
    marks = [(c, p) for _, p in a.colors[c].placements] if c is not None else []
    note = (f"hatched: {pos.name(c)}'s placements reaching its solo optimum {a.colors[c].solo_optimum:+d}"
            if marks and a.colors[c].solo_optimum is not None else None)
    render_position(pos, args.render, title=f"{Path(args.file).name}: move {n} of {total}",
                    highlights=marks, note=note)


def _analysis_json(args, record, pos, a, n: int, seconds: float, failed: list[str]) -> dict:
    t = pos.table
    best_move = None if a.best_move is None else placement_json(t, pos.name(a.best_move.color), a.best_move.placement)
    obj = {
        "file": args.file,
        "variant": record.variant.game,
        "move": n,
        "moves_total": record.move_count,
        "to_move": pos.name(pos.to_move) if pos.to_move is not None else None,
        "game_over": a.game_over,
        "two_player": a.two_player,
        "engine": args.engine,
        "seconds": round(seconds, 3),
        "colors": [
            {
                "color": pos.name(r.color),
                "score_now": r.score_now,
                "points_now": pos.points(r.color),
                "solo_optimum": r.solo_optimum,
                "proven": r.proven,
                "proven_by": r.proven_by,
                "bound": r.solo_optimum if r.proven else r.bound,
                "pieces_left": [PIECES[i].name for i in pos.pieces_left(r.color)],
                "placements": [placement_json(t, pos.name(c), p) for c, p in r.placements],
                "guaranteed": r.guaranteed,
                "disagreement": r.disagreement,
            }
            for r in a.colors if r.color in pos.variant.colors
        ],
        "independent": a.independent,
        "groups": [[pos.name(c) for c in g] for g in a.groups],
        "game_value": a.game_value,
        "game_value_proven": a.game_value_proven,
        "game_bounds": list(a.game_bounds) if a.game_bounds else None,
        "winner": _winner_name(pos, a),
        "best_move": best_move,
        "notes": a.notes,
        "nodes": a.nodes,
        "interrupted": a.interrupted,
        "positions_per_second": None if a.positions_per_second is None else round(a.positions_per_second),
        "cluster_tasks": a.cluster_tasks,
    }
    if args.render:
        obj["image"] = None if failed else args.render
        if failed:
            obj["image_error"] = failed[0]
    return obj


def _winner_name(pos, a) -> str | None:
    """The player who wins under best play, "draw", or None where the
    proof does not decide it (four players: None)."""
    w = a.winner
    return None if w is None else "draw" if w == 0 else pos.variant.player_name(0 if w > 0 else 1)


def _tree_text(a) -> str:
    """How far the game-tree proof reached, and its speed."""
    reach = "proven to the end of the game" if a.tree_proven else "not proven within the time limit"
    if a.depth is not None:
        reach += f", lines of up to {a.depth} plies" if a.tree_proven else f", lines searched up to {a.depth} plies"
    speed = f" ({a.positions_per_second:,.0f}/s)" if a.positions_per_second else ""
    split = f", split into {a.cluster_tasks} tasks on the Dask cluster" if a.cluster_tasks else ""
    return f"{reach}, {a.nodes:,} positions in {a.seconds:.2f} s{speed}{split}"


def _print_analysis(args, record, pos, a, n: int, seconds: float, failed: list[str]) -> None:
    t = pos.table
    to_move = pos.name(pos.to_move) if pos.to_move is not None else "nobody (game over)"
    v = pos.variant
    players = " against ".join(v.player_name(i) for i in range(len(v.players)))
    kind = f"two players: {players}" if a.two_player else f"{len(v.players)} players"
    print(f"{record.variant.game}: {args.file}, after move {n} of {record.move_count}, {to_move} to move ({kind})")
    print()
    _print_color_table(pos, a)
    print()
    if a.independent:
        print("Independent: yes, no square can be reached by two colours: the solo optima are the outcome of best play")
    else:
        print("Independent: no; still interacting: " + "; ".join(", ".join(pos.name(c) for c in g) for g in a.groups))
    if a.two_player:
        if a.game_value is not None:
            print(f"Game value ({v.player_name(0)} minus {v.player_name(1)}): {a.game_value:+d}, proven")
        elif a.game_bounds:
            lo, hi = a.game_bounds
            won = _winner_name(pos, a)
            decided = "" if won is None else "; a draw" if won == "draw" else f"; {won} wins"
            print(f"Game value ({v.player_name(0)} minus {v.player_name(1)}): not proven in the time given "
                  f"(proven bounds {lo:+d} to {hi:+d}{decided})")
    if a.best_move is not None:
        c, p = a.best_move
        print(f"Best move: {pos.name(c)} {PIECES[t.piece[p]].name} {t.name(p)}")
    if a.nodes is not None:
        print(f"Game tree: {_tree_text(a)}")
    for note in a.notes:
        print(f"Note: {note}")
    for r in a.colors:
        if r.disagreement:
            print(f"Disagreement: {pos.name(r.color)}: {r.disagreement}")
    shown = [r for r in a.colors if r.placements and r.color in v.colors]
    if shown:
        print()
        print("Placements reaching each solo optimum:")
        for r in shown:
            moves = ", ".join(f"{PIECES[t.piece[p]].name} {t.name(p)}" for _, p in r.placements)
            print(f"  {pos.name(r.color):<6} {moves}")
    if args.render:
        print()
        print("Image: none (it could not be written, see the error below)" if failed else f"Image: {args.render}")
    print(f"\nTime: {seconds:.2f} s")


def _print_color_table(pos, a) -> None:
    """Per colour: its score now, its solo optimum and the proof (and the
    guaranteed score), as advanced scores; the line under them gives
    Pentobi's points for the scores now."""
    guaranteed = not a.two_player and any(r.guaranteed is not None for r in a.colors)
    head = f"{'colour':<7}{'now':>5}{'solo optimum':>14}  {'proof':<22}"
    print(head + (f"{'guaranteed':>10}" if guaranteed else ""))
    for r in a.colors:
        if r.color not in pos.variant.colors:
            continue
        if r.proven:
            value, proof = f"{r.solo_optimum:+d}", f"proven ({r.proven_by})"
        else:  # what is proven: at least the best found (or the score now), at most the bound
            lo = r.score_now if r.solo_optimum is None else r.solo_optimum
            value = f"{lo:+d}..{r.bound:+d}" if r.bound is not None else f"{lo:+d} or more"
            proof = "not proven, best found" if r.solo_optimum is not None else "not proven in the time"
        line = f"{pos.name(r.color):<7}{r.score_now:>+5}{value:>14}  {proof:<22}"
        if guaranteed:
            line += f"{'' if r.guaranteed is None else f'{r.guaranteed:+d}':>10}"
        print(line)
    v = pos.variant
    print(f"(advanced scores: minus the squares left in hand{', plus the bonuses' if v.bonus else ''}; Pentobi shows "
          f"points, {v.squares} more: " + ", ".join(f"{v.names[c]} {pos.points(c)}" for c in v.colors) + " now)")


# -- annotate -------------------------------------------------------------------

def cmd_annotate(args) -> int:
    from solver.drawing.render import check_output
    from solver.endgame import annotate, report
    from solver.endgame import batch as many_games
    from solver.endgame.annotated_record import annotated_sgf
    from solver.endgame.plot import plot_annotation
    from solver.files import check_writable, write_file

    batch = args.out_dir is not None or len(args.games) > 1 or Path(args.games[0]).is_dir()
    one_game = [o for o, v in (("-o", args.output), ("--plot", args.plot), ("--json", args.json)) if v]
    many = [o for o, v in (("--workers", args.workers), ("--scheduler", args.scheduler), ("--force", args.force)) if v]
    if batch and args.out_dir is None:
        raise OptionError("several games, or a folder, need --out-dir DIR for their outputs")
    if batch and one_game:
        raise OptionError(f"{', '.join(one_game)} apply to one game; with --out-dir each game's outputs go to DIR")
    if not batch and many:
        raise OptionError(f"{', '.join(many)} apply to many games: give --out-dir DIR")
    if args.workers and args.scheduler:
        raise OptionError("--workers starts a local cluster; --scheduler uses an existing one: give one of them")
    if batch:
        options = many_games.AnnotateOptions(args.time_limit, args.from_move, threads=args.threads or 1)
        with _progress(None) as printer:
            report = many_games.annotate_batch(args.games, args.out_dir, options, workers=args.workers or os.cpu_count() or 1,
                                               scheduler=args.scheduler, force=args.force, progress=printer)
        for game, error in report.failed.items():
            if error != many_games.INTERRUPTED:
                print(f"blokus: error: {error if game in error else f'{game}: {error}'}", file=sys.stderr)
        if report.summary_error:
            print(f"blokus: error: {report.summary_error}", file=sys.stderr)
        summary = report.summary or "not written (see the error above)"
        stopped = sum(1 for e in report.failed.values() if e == many_games.INTERRUPTED)
        failed = len(report.failed) - stopped
        print(f"{len(report.annotated)} annotated, {len(report.skipped)} already done, {failed} failed"
              + (f", {stopped} not done (interrupted)" if report.interrupted else "")
              + f" of {len(report.games)} games; summary: {summary}")
        if report.interrupted:
            return EXIT_INTERRUPTED
        return EXIT_ERROR if report.failed or report.summary_error else EXIT_OK
    text, record = many_games.read_game(args.games[0])
    if args.plot:
        check_output(args.plot, ("png", "svg"))  # fail before the work
    if args.output:
        check_writable(args.output)
    with _progress(args.time_limit) as printer:
        ann = annotate.annotate(record, args.time_limit, args.from_move, progress=printer, source=args.games[0],
                                threads=args.threads)
    failed: list[str] = []
    outputs = []  # (what, path, written)
    if args.output:
        outputs.append(("Annotated record", args.output, _write_output(
            failed, lambda: write_file(args.output, annotated_sgf(text, ann).encode("utf-8")))))
    if args.plot:
        outputs.append(("Plot", args.plot, _write_output(failed, lambda: plot_annotation(ann, args.plot))))
    code = EXIT_INTERRUPTED if ann.interrupted else EXIT_OK
    if args.json:
        _emit_json(ann.to_json())
        return _report_failed(failed, code)
    print(report.text_report(ann))
    for what, path, written in outputs:
        print(f"{what}: {path}" if written else f"{what}: not written (see the error below)")
    return _report_failed(failed, code)


# -- generate ---------------------------------------------------------------------

def _range(lo: int, hi: int):
    """An argparse type for ``N`` or ``A-B`` within lo..hi."""
    def parse(text: str) -> tuple[int, int]:
        parts = text.split("-")
        try:
            a, b = (int(parts[0]), int(parts[-1])) if len(parts) <= 2 else (None, None)
        except ValueError:
            a = b = None
        if a is None or not lo <= a <= b <= hi:
            raise argparse.ArgumentTypeError(f"must be N or A-B with {lo} <= A <= B <= {hi}, not {text!r}")
        return a, b

    return parse


def _add_generate(sub) -> None:
    from solver.generate.build import KINDS, MAX_SIDE, MIN_SIDE
    from solver.generate.grade import DIFFICULTIES

    p = _command(
        sub, "generate", cmd_generate, "make new challenges with exactly one solution, graded, as cards",
        "Make one-player challenges of a kind: stars (cover every star), avoid-x (leave\n"
        "every x empty), connect (join blue's two pieces) or place-all (fill a cut-down\n"
        "board), each placing blue's pieces under the game rule among obstacle pieces of the\n"
        "other colours. Every challenge written has exactly one solution, counted by both\n"
        "engines, and a difficulty grade (docs/generate.md says how it is computed). For\n"
        "each: NAME.toml (blokus solve reads it), a card NAME.png/.svg with the pieces to\n"
        "place, the answer NAME-answer.png/.svg and NAME-answer.json (blokus solve --check).\n"
        "The same options and seed give the same challenges. Exit codes: 0 done, 2 errors\n"
        "(some challenge could not be made), 130 interrupted.",
        ["blokus generate stars",
         "blokus generate avoid-x --count 8 --difficulty hard --out-dir cards",
         "blokus generate connect --pieces 4-5 --seed 7 --json",
         "blokus generate place-all --size 7 --count 16 --workers 2 --booklet cards.pdf"],
    )
    p.add_argument("kind", choices=KINDS, metavar="KIND", help=f"kind of challenge: {', '.join(KINDS)}")
    p.add_argument("--size", type=_int_in(MIN_SIDE, MAX_SIDE), default=8, metavar="N",
                   help=f"square board N x N, {MIN_SIDE} to {MAX_SIDE} (default 8: a card, as the bundled 7x7 and "
                        "8x8 challenges)")
    p.add_argument("--pieces", type=_range(1, 21), default=(3, 5), metavar="A-B",
                   help="blue pieces to place, N or A-B (default 3-5, as on the published cards; up to 21, "
                        "19 for connect, whose two pieces on the board come from the same set)")
    p.add_argument("--obstacles", type=_range(0, 30), default=None, metavar="A-B",
                   help="obstacle pieces of the other colours, N or A-B (default: the kind's, 5-8 for stars, "
                        "3-6 avoid-x, 4-7 connect, none for place-all); more are added where a second "
                        "solution has to be ruled out")
    p.add_argument("--difficulty", choices=DIFFICULTIES, default=None,
                   help="keep only challenges of this grade band (default: any)")
    p.add_argument("--seed", type=_int_in(0, MAX_SEED), default=0, metavar="N", help="random seed (default 0)")
    p.add_argument("--count", type=_int_in(1, 10_000), default=1, metavar="N", help="challenges to make (default 1)")
    p.add_argument("--time-limit", type=_seconds, default=300.0, metavar="S",
                   help="seconds per challenge (default 300): candidates are drawn until one is proven, or "
                        "the time is up (then that challenge is reported as not made)")
    p.add_argument("--out-dir", default="generated", metavar="DIR",
                   help="folder for the files (default ./generated, made when missing)")
    p.add_argument("--booklet", metavar="FILE.pdf", help="also write every card, then every answer, into one PDF")
    p.add_argument("--workers", type=_int_in(1, MAX_WORKERS), metavar="W",
                   help="make the challenges on a local Dask cluster of W worker processes")
    p.add_argument("--scheduler", metavar="ADDRESS", help="make them on an existing Dask cluster, e.g. tcp://host:8786")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def cmd_generate(args) -> int:
    from solver.cluster import check_scheduler
    from solver.drawing.card import check_booklet, write_booklet
    from solver.generate.batch import GenerateOptions, generate, pieces_text, write_files
    from solver.puzzle.result import Progress
    from solver.solving import ctrl_c_stops

    if args.workers and args.scheduler:
        raise OptionError("--workers starts a local cluster; --scheduler uses an existing one: give one of them")
    options = GenerateOptions(args.kind, args.size, args.pieces, args.obstacles, args.difficulty, args.seed,
                              args.time_limit)
    scheduler = check_scheduler(args.scheduler) if args.scheduler else None
    if args.booklet:
        check_booklet(args.booklet)
    out = Path(args.out_dir)
    if out.exists() and not out.is_dir():
        raise OutputError(f"{out}: cannot write challenges there: it is not a folder")
    made: dict[int, tuple] = {}
    failed: list[tuple[int, str]] = []
    clock = Deadline()
    with ctrl_c_stops() as stop, _progress(None) as view:
        for index, g, error in generate(options, args.count, workers=args.workers, scheduler=scheduler, stop=stop):
            if g is not None:
                made[index] = (g, write_files(g, out))
                text = f"{g.name}: {g.grade.band} (grade {g.grade.score:.1f}), {counted(g.candidates, 'candidate')}"
            else:
                name = options.name(index)
                failed.append((index, error))
                text = f"{name}: not made: {error.removeprefix(name + ': ')}"
            view(Progress(clock.elapsed, 0, text, notice=True, done=len(made) + len(failed), total=args.count))
        interrupted = stop.is_set()
    ordered = [made[i] for i in sorted(made)]
    if args.booklet and ordered:
        write_booklet(args.booklet, [(g.puzzle, g.solution) for g, _ in ordered])
    if args.json:
        _emit_json({
            "kind": options.kind.value, "size": options.size, "seed": options.seed, "count": args.count,
            "difficulty": options.difficulty, "out_dir": str(out), "seconds": round(clock.elapsed, 3),
            "booklet": args.booklet if args.booklet and ordered else None, "interrupted": interrupted,
            "puzzles": [{
                "name": g.name, "kind": options.kind.value, **paths,
                "pieces": pieces_text(g).split(), "grade": g.grade.as_json(),
                "search_count": g.proof.search_count, "cpsat_count": g.proof.cpsat_count,
                "candidates": g.candidates, "dropped": dict(g.dropped), "seconds": round(g.seconds, 3),
                "solution": [placement_json(g.puzzle.table, g.puzzle.color_name(c), p) for c, p in g.solution],
            } for g, paths in ordered],
            "failed": [{"name": options.name(i), "error": e} for i, e in sorted(failed)],
        })
    else:
        for g, paths in ordered:
            print(f"{g.name:<24} {g.grade.band:<6} grade {g.grade.score:5.1f}  {pieces_text(g):<16} "
                  f"{paths['puzzle']}")
        for i, e in sorted(failed):
            print(f"{options.name(i)}: not made: {e.removeprefix(options.name(i) + ': ')}")
        print(f"{counted(len(ordered), 'challenge')} with exactly one solution (both engines counted 1) in {out}/ "
              f"(cards .png .svg, answers -answer.png .svg .json), {clock.elapsed:.1f} s")
        if args.booklet and ordered:
            print(f"Booklet: {args.booklet}")
    if interrupted:
        return EXIT_INTERRUPTED
    return EXIT_ERROR if failed else EXIT_OK


# -- warm-up ----------------------------------------------------------------------

def _add_warm_up(sub) -> None:
    p = _command(sub, "warm-up", cmd_warm_up, "compile every kernel ahead of time",
                 "Compile the compiled kernels (the game-tree engine, the fill kernel, the waste search)\n"
                 "into the kernel cache, once per install, using every core. Without it the first\n"
                 "analyze, annotate or large packing solve compiles what it needs on the way (a minute\n"
                 "or two); after it they start at once. A second run loads the kernels and is quick.",
                 ["blokus warm-up", "blokus warm-up --json"])
    p.add_argument("--json", action="store_true", help="print one JSON object")


def cmd_warm_up(args) -> int:
    from solver.warmup import warm_up

    with _progress(None) as printer:
        done = warm_up(printer)
    if args.json:
        _emit_json({"seconds": round(done.seconds, 3), "compiled": done.compiled,
                    "jobs": [{"name": n, "seconds": round(t, 3), "compiled": k} for n, t, k in done.jobs]})
        return EXIT_OK
    for name, seconds, compiled in done.jobs:
        print(f"{name}: {counted(compiled, 'kernel')} compiled in {seconds:.1f} s"
              if compiled else f"{name}: already compiled ({seconds:.1f} s to load)")
    print(f"Warm-up done in {done.seconds:.1f} s: the kernels are in the cache.")
    return EXIT_OK


# -- puzzles ----------------------------------------------------------------------

def cmd_puzzles(args) -> int:
    from solver.formats.bundled import folder, game_files, puzzle_files
    from solver.formats.puzzle_file import load_puzzle
    from solver.formats.sgf import load_record

    puzzles = [(path, load_puzzle(path)) for path in puzzle_files()]
    games = [(path, load_record(str(path))) for path in game_files()]
    if args.json:
        _emit_json({
            "folder": str(folder()),
            "puzzles": [{"name": path.stem, "file": str(path), "board": _board_text(p.board),
                         "goal": p.goal.value, "pieces": sum(len(p.pieces[c]) for c in p.colors),
                         "description": p.description} for path, p in puzzles],
            "games": [{"name": path.stem, "file": str(path), "variant": r.variant.game, "moves": r.move_count}
                      for path, r in games],
        })
        return EXIT_OK
    print(f"Puzzles (blokus solve NAME), in {folder()}:")
    for path, p in puzzles:
        pieces = sum(len(p.pieces[c]) for c in p.colors)
        print(f"  {path.stem:<24}{_board_text(p.board):<9}{pieces:>3} pieces  {p.goal.value:<10}"
              f"{_first_sentence(p.description)}")
    print()
    print("Sample games (blokus show / analyze / annotate / render NAME):")
    for path, r in games:
        print(f"  {path.stem:<24}{r.variant.game:<28}{r.move_count:>3} moves")
    return EXIT_OK


def _board_text(board) -> str:
    from solver.core.geometry import TRIANGLE

    return "triangles" if board.grid == TRIANGLE else f"{board.width}x{board.height}"


def _first_sentence(text: str, limit: int = 60) -> str:
    first = " ".join(text.split(". ")[0].split()).rstrip(".")
    return first if len(first) <= limit else first[: limit - 3] + "..."


# -- render ---------------------------------------------------------------------

def cmd_render(args) -> int:
    from solver.drawing import render
    from solver.files import make_folder

    name = Path(args.file).name
    out = args.output or str(Path("output") / (Path(args.file).stem + (".gif" if args.animate else ".png")))
    is_puzzle = args.file.lower().endswith(".toml")
    if is_puzzle and (args.move is not None or args.animate):
        raise render.RenderError("--move and --animate apply to game records, not to puzzle files")
    if is_puzzle:
        from solver.formats.puzzle_file import load_puzzle

        puzzle = load_puzzle(args.file)
    else:
        record, pos = _load_position(args)
    if args.output is None:
        try:
            make_folder(Path(out).parent, "folder for images")
        except OutputError as e:
            raise OutputError(f"{e} (give the image's path with -o PATH)") from None
    render.check_output(out, ("gif",) if args.animate else render.FORMATS)  # before drawing
    if is_puzzle:
        render.render_solution(puzzle, (), out, size_px=args.size)
    elif args.animate:
        render.render_animation(pos, out, numbers=args.numbers, title=name, size_px=args.size)
    else:
        n = args.move if args.move is not None else record.move_count
        render.render_position(pos, out, numbers=args.numbers, title=f"{name}: move {n} of {record.move_count}",
                               size_px=args.size)
    print(out)
    return EXIT_OK
