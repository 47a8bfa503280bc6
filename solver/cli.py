"""The ``blokus`` command line. Engines and plotting are imported lazily, so
``show`` and ``moves`` start fast.

Exit codes: 0 done (solved), 2 error (bad input or usage), 3 INFEASIBLE,
4 UNKNOWN (time ran out before an answer), 5 the two engines disagree.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .errors import BlokusError
from .geometry import COLORS, color_index
from .pieces import PIECES

EXIT_OK, EXIT_ERROR, EXIT_INFEASIBLE, EXIT_UNKNOWN, EXIT_DISAGREE = 0, 2, 3, 4, 5


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
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser(
        "show",
        help="show the position of a game record",
        formatter_class=_formatter,
        description="Show the position after N moves of a Pentobi game record (.blksgf).",
        epilog="examples:\n  blokus show game.blksgf\n  blokus show game.blksgf --move 12 --json",
    )
    _record_args(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=cmd_show)

    p = sub.add_parser(
        "moves",
        help="list the legal moves in a game record's position",
        formatter_class=_formatter,
        description="List the legal moves of the colour to move (or of --color) after N moves.",
        epilog="examples:\n  blokus moves game.blksgf\n  blokus moves game.blksgf --move 4 --color red --json",
    )
    _record_args(p)
    p.add_argument("--color", metavar="C", help="colour to list: blue, yellow, red or green")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=cmd_moves)

    p = sub.add_parser(
        "solve",
        help="solve a puzzle file (.toml)",
        formatter_class=_formatter,
        description=(
            "Solve a puzzle: place all pieces, maximise a score, or count the solutions.\n"
            "Status: OPTIMAL (solved; for place-all any solution is complete), FEASIBLE\n"
            "(a solution, but the optimum or the full count is not proven), INFEASIBLE\n"
            "(proven impossible), UNKNOWN (time ran out first). Exit codes: 0 solved,\n"
            "3 infeasible, 4 unknown, 2 errors, 5 the engines disagree (--engine both)."
        ),
        epilog=(
            "examples:\n"
            "  blokus solve puzzles/solo-21.toml\n"
            "  blokus solve puzzles/solo-84.toml --time-limit 300 --seed 7\n"
            "  blokus solve puzzles/solo-84.toml --mode general\n"
            "  blokus solve puzzles/tetromino-8x10-distinct.toml --count --json\n"
            "  blokus solve puzzles/stars-8x8.toml --engine both\n"
            "  blokus solve puzzles/solo-21.toml --engine cpsat --cpsat-params 'num_workers:1,random_seed:3'"
        ),
    )
    p.add_argument("puzzle", metavar="PUZZLE", help="puzzle file (.toml), see README")
    p.add_argument("--engine", choices=["search", "cpsat", "both"], default="search",
                   help="search (default), cpsat (OR-Tools CP-SAT), or both: run each, verify each "
                        "answer and check that they agree")
    p.add_argument("--mode", choices=["auto", "general", "symmetric", "exhaustive"], default="auto",
                   help="search method: auto (default), general (no symmetry assumed), symmetric "
                        "(quarter-turn symmetric solutions only), exhaustive (complete search only)")
    p.add_argument("--time-limit", type=float, default=60.0, metavar="S", help="seconds (default 60)")
    p.add_argument("--seed", type=int, default=0, metavar="N", help="random seed (default 0)")
    p.add_argument("--count", action="store_true", help="count all solutions")
    p.add_argument("--encoding", choices=["auto", "cuts", "levels"], default="auto",
                   help="CP-SAT connectivity encoding (default auto: cuts, levels for maximize)")
    p.add_argument("--workers", type=int, default=0, metavar="N", help="CP-SAT workers (default: one per core)")
    p.add_argument("--cpsat-params", default="", metavar="TEXT",
                   help="extra CP-SAT parameters, e.g. 'num_workers:4,random_seed:3'")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--render", metavar="PATH", help="also draw the solution into an image (.png, .svg or .gif)")
    p.set_defaults(run=cmd_solve)

    p = sub.add_parser(
        "analyze",
        help="endgame analysis of a game record: best reachable scores, with proof",
        formatter_class=_formatter,
        description=(
            "Analyse the position after N moves of a game record (default: the end).\n"
            "For every colour: its score now and its solo optimum (the best advanced score it\n"
            "could reach if the others placed nothing more), proven or with bounds; whether\n"
            "the colours still interact; for two-player games the exact game value (blue+red\n"
            "minus yellow+green) and the best move when the rest of the game fits in the time\n"
            "limit, else proven bounds; for four-player games the score each colour can\n"
            "guarantee whatever the others do. Exit codes: 0 done, 2 errors, 5 the engines\n"
            "disagree (--engine both)."
        ),
        epilog=(
            "examples:\n"
            "  blokus analyze puzzles/games/sample-2p.blksgf --move 56\n"
            "  blokus analyze puzzles/games/sample-4p.blksgf --move 54 --engine both --json\n"
            "  blokus analyze game.blksgf --time-limit 300 --render output/endgame.png"
        ),
    )
    _record_args(p)
    p.add_argument("--time-limit", type=float, default=60.0, metavar="S",
                   help="seconds for the whole analysis (default 60)")
    p.add_argument("--engine", choices=["search", "cpsat", "both"], default="search",
                   help="engine for the solo optima: search (default), cpsat, or both (cross-checked)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--render", metavar="PATH",
                   help="also draw the position with the solo-optimum placements of the colour to move")
    p.set_defaults(run=cmd_analyze)

    p = sub.add_parser(
        "render",
        help="draw a game record's position or a puzzle as an image",
        formatter_class=_formatter,
        description=(
            "Draw the position after N moves of a game record (.blksgf), or a puzzle file's board\n"
            "(.toml), as a PNG, SVG or GIF image; --animate draws the game as an animated GIF\n"
            "(the initial board, then one frame per move). Prints the path written."
        ),
        epilog=(
            "examples:\n"
            "  blokus render game.blksgf --move 20 --numbers\n"
            "  blokus render game.blksgf -o output/game.svg\n"
            "  blokus render game.blksgf --animate\n"
            "  blokus render puzzles/stars-8x8.toml"
        ),
    )
    _record_args(p, "game record (.blksgf) or puzzle file (.toml)")
    p.add_argument("-o", "--output", metavar="PATH",
                   help="image file, format from the suffix: .png, .svg, .gif (default output/<FILE stem>.png)")
    p.add_argument("--numbers", action="store_true", help="write each piece's move number on it")
    p.add_argument("--animate", action="store_true", help="animated GIF of the game up to move N")
    p.add_argument("--size", type=int, default=600, metavar="PX", help="image width in pixels (default 600)")
    p.set_defaults(run=cmd_render)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except BlokusError as e:
        print(f"blokus: error: {e}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("blokus: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into e.g. head: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


def _emit_json(obj) -> None:
    print(json.dumps(obj, indent=2))


def _progress_printer():
    """Progress lines on stderr (one line rewritten in place on a terminal)."""
    tty = sys.stderr.isatty()

    def show(info) -> None:
        line = f"blokus: {info.elapsed:6.1f} s  {info.nodes:>12,} nodes  {info.best}"
        if tty:
            print("\r" + line, end="", file=sys.stderr, flush=True)
        else:
            print(line, file=sys.stderr, flush=True)

    def done() -> None:
        if tty and shown:
            print(file=sys.stderr)

    shown = []

    def wrapped(info) -> None:
        shown.append(1)
        show(info)

    return wrapped, done


def _cpsat_progress(progress):
    """Adapt the CP-SAT engine's (elapsed, text) reports to the printer."""
    from types import SimpleNamespace

    def report(elapsed: float, text: str) -> None:
        if elapsed >= 1.0:
            progress(SimpleNamespace(elapsed=elapsed, nodes=0, best=text))

    return report


# -- show / moves ---------------------------------------------------------------

def _load_position(args):
    from .sgf import load_record

    record = load_record(args.file)
    return record, record.position(args.move)


def cmd_show(args) -> int:
    from .text import board_picture, board_rows, position_owner

    record, pos = _load_position(args)
    owner = position_owner(pos)
    to_move = COLORS[pos.to_move] if pos.to_move is not None else None
    scores = pos.scores()
    left = {COLORS[c]: [PIECES[i].name for i in pos.pieces_left(c)] for c in range(4)}
    n = args.move if args.move is not None else record.move_count
    if args.json:
        obj = {
            "file": args.file,
            "variant": record.variant,
            "move": n,
            "moves_total": record.move_count,
            "to_move": to_move,
            "game_over": pos.game_over,
            "scores": {COLORS[c]: scores[c] for c in range(4)},
            "basic_scores": {COLORS[c]: pos.score(c, basic=True) for c in range(4)},
            "pieces_left": left,
            "board": board_rows(pos.board, owner),
        }
        if record.two_player:
            s1, s2 = pos.seat_scores()
            obj["seat_scores"] = {"blue+red": s1, "yellow+green": s2}
        _emit_json(obj)
        return EXIT_OK
    print(f"{record.variant}: {args.file}, after move {n} of {record.move_count}")
    print()
    print(board_picture(pos.board, owner))
    print()
    print("Game over" if pos.game_over else f"To move: {to_move}")
    print("Pieces left:")
    for c in range(4):
        names = left[COLORS[c]]
        print(f"  {COLORS[c]:<6} {len(names):2} pieces, {pos.squares_left(c):2} squares: {' '.join(names) or '-'}")
    print("Scores (advanced): " + "  ".join(f"{COLORS[c]} {scores[c]:+d}" for c in range(4)))
    if record.two_player:
        s1, s2 = pos.seat_scores()
        print(f"Seats: blue+red {s1:+d}  yellow+green {s2:+d}")
    return EXIT_OK


def cmd_moves(args) -> int:
    record, pos = _load_position(args)
    color = color_index(args.color) if args.color else pos.to_move
    counts = {COLORS[c]: len(pos.legal_placements(c)) for c in range(4)}
    t = pos.table
    listed = [] if color is None else sorted(pos.legal_placements(color), key=lambda p: (t.piece[p], t.name(p)))
    to_move = COLORS[pos.to_move] if pos.to_move is not None else None
    if args.json:
        _emit_json(
            {
                "to_move": to_move,
                "color": COLORS[color] if color is not None else None,
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
    print(f"{COLORS[color]} ({len(listed)}):")
    for p in listed:
        print(f"  {PIECES[t.piece[p]].name:<3} {t.name(p)}")
    return EXIT_OK


# -- solve ----------------------------------------------------------------------

def _placement_json(table, c: int, p: int) -> dict:
    return {"color": COLORS[c], "piece": PIECES[table.piece[p]].name, "squares": table.name(p)}


def _engine_json(r) -> dict:
    out = {"status": r.status.value, "seconds": round(r.seconds, 3), "method": r.stats.get("method")}
    for name in ("objective", "bound", "solution_count"):
        if getattr(r, name) is not None:
            out[name] = getattr(r, name)
    for name in ("variables", "constraints", "count_complete"):
        if name in r.stats:
            out[name] = r.stats[name]
    return out


def cmd_solve(args) -> int:
    from .puzzle_file import load_puzzle
    from .text import board_picture
    from .verify import verify

    puzzle = load_puzzle(args.puzzle)
    if args.render:
        from .render import check_output

        check_output(args.render)  # fail before solving
    progress, progress_done = _progress_printer()
    cp_options = {"workers": args.workers, "params": args.cpsat_params, "encoding": args.encoding}
    check = None
    try:
        if args.engine == "search":
            from .search import solve

            result = solve(puzzle, time_limit=args.time_limit, seed=args.seed, mode=args.mode,
                           count=args.count, progress=progress)
        elif args.engine == "cpsat":
            from . import cpsat

            result = cpsat.solve(puzzle, time_limit=args.time_limit, seed=args.seed, count=args.count,
                                 progress=_cpsat_progress(progress), **cp_options)
            if result.solutions is not None:
                from .symmetry import count_classes

                if result.stats.get("count_complete"):
                    result.count_classes = count_classes(puzzle, result.solutions)
        else:
            from .crosscheck import solve_both

            check = solve_both(puzzle, time_limit=args.time_limit, seed=args.seed, count=args.count,
                               mode=args.mode, cpsat_options=cp_options, progress=progress)
            result = check.combined
    finally:
        progress_done()
    t = puzzle.table
    order = verify(puzzle, result.placements).order if result.placements else []
    if args.render and result.placements:
        from .render import render_solution

        render_solution(puzzle, order, args.render, numbers=True, title=f"{puzzle.name}: {result.status.value}")
    code = {"OPTIMAL": EXIT_OK, "FEASIBLE": EXIT_OK, "INFEASIBLE": EXIT_INFEASIBLE, "UNKNOWN": EXIT_UNKNOWN}[
        result.status.value
    ]
    if check is not None and check.disagreement:
        code = EXIT_DISAGREE
        print(f"blokus: error: the engines disagree: {check.disagreement}", file=sys.stderr)
    if args.json:
        obj = {
            "puzzle": puzzle.name,
            "status": result.status.value,
            "engine": result.engine,
            "method": result.stats.get("method"),
            "seconds": round(result.seconds, 3),
            "nodes": result.nodes,
            "placements": [_placement_json(t, c, p) for c, p in result.placements],
            "order": [_placement_json(t, c, p) for c, p in order],
        }
        if puzzle.goal == "maximize":
            obj["objective"] = result.objective
            obj["bound"] = result.bound
        if args.count or puzzle.goal == "count":
            obj["solution_count"] = result.solution_count
            obj["count_complete"] = result.stats.get("count_complete", False)
            obj["count_up_to_symmetry"] = result.count_classes
        if check is not None:
            obj["engines"] = {name: _engine_json(r) for name, r in check.results.items()}
            obj["agree"] = check.disagreement is None
            obj["disagreement"] = check.disagreement
        if args.render:
            obj["image"] = args.render if result.placements else None
        _emit_json(obj)
        return code
    print(puzzle.summary())
    method = result.stats.get("method")
    print(f"Status: {result.status.value} ({result.engine} engine{', ' + method if method else ''}, "
          f"{result.seconds:.2f} s, {result.nodes:,} nodes)")
    if puzzle.goal == "maximize" and result.objective is not None:
        print(f"Objective: {result.objective} (bound {result.bound})")
    if args.count or puzzle.goal == "count":
        complete = result.stats.get("count_complete", False)
        print(f"Solutions: {result.solution_count}{'' if complete else ' found so far (count not complete)'}")
        if result.count_classes is not None:
            print(f"Up to symmetry (turns, mirrors and colour relabellings that keep the puzzle): {result.count_classes}")
    if result.placements or any(puzzle.setup.values()):
        from .geometry import COLOR_LETTERS

        owner = {}
        for c, ps in list(puzzle.setup.items()) + [(c, [p]) for c, p in result.placements]:
            for p in ps:
                for sq in t.squares[p]:
                    owner[sq] = COLOR_LETTERS[c]
        print()
        print(board_picture(puzzle.board, owner))
    if check is not None:
        print()
        for name, r in check.results.items():
            extra = f", objective {r.objective}" if r.objective is not None else ""
            extra += f", {r.solution_count} solutions" if r.solution_count is not None else ""
            print(f"  {name:<7} {r.status.value:<11} {r.seconds:7.2f} s  {r.stats.get('method', '')}{extra}")
        print("  The engines agree." if not check.disagreement else f"  DISAGREEMENT: {check.disagreement}")
    if order:
        print()
        print("Play order:")
        for i, (c, p) in enumerate(order, start=1):
            print(f"  {i:3}. {COLORS[c]:<6} {PIECES[t.piece[p]].name:<3} {t.name(p)}")
    if args.render:
        print()
        print(f"Image: {args.render}" if result.placements else "Image: none (no solution to draw)")
    return code


# -- analyze --------------------------------------------------------------------

def cmd_analyze(args) -> int:
    import time

    from .endgame import analyze

    record, pos = _load_position(args)
    if args.render:
        from .render import check_output

        check_output(args.render)  # fail before the analysis
    start = time.monotonic()

    def progress(text: str) -> None:
        if time.monotonic() - start >= 1.0:
            print(f"blokus: {time.monotonic() - start:6.1f} s  {text}", file=sys.stderr, flush=True)

    a = analyze(pos, record.two_player, args.time_limit, args.engine, progress=progress)
    seconds = time.monotonic() - start
    t = pos.table
    n = args.move if args.move is not None else record.move_count
    disagreements = [f"{COLORS[r.color]}: {r.disagreement}" for r in a.colours if r.disagreement]
    best_move = None if a.best_move is None else _placement_json(t, a.best_move.color, a.best_move.placement)
    if args.render:
        from .render import render_position

        c = pos.to_move
        marks = [(c, p) for _, p in a.colours[c].placements] if c is not None else []
        note = (f"hatched: {COLORS[c]}'s placements reaching its solo optimum {a.colours[c].solo_optimum:+d}"
                if marks and a.colours[c].solo_optimum is not None else None)
        render_position(pos, args.render, title=f"{Path(args.file).name}: move {n} of {record.move_count}",
                        highlights=marks, note=note)
    if args.json:
        obj = {
            "file": args.file,
            "variant": record.variant,
            "move": n,
            "moves_total": record.move_count,
            "to_move": COLORS[pos.to_move] if pos.to_move is not None else None,
            "game_over": a.game_over,
            "two_player": a.two_player,
            "engine": args.engine,
            "seconds": round(seconds, 3),
            "colors": [
                {
                    "color": COLORS[r.color],
                    "score_now": r.score_now,
                    "solo_optimum": r.solo_optimum,
                    "proven": r.proven,
                    "proven_by": r.proven_by,
                    "bound": r.solo_optimum if r.proven else r.bound,
                    "pieces_left": [PIECES[i].name for i in pos.pieces_left(r.color)],
                    "placements": [_placement_json(t, c, p) for c, p in r.placements],
                    "guaranteed": r.guaranteed,
                    "disagreement": r.disagreement,
                }
                for r in a.colours
            ],
            "independent": a.independent,
            "groups": [[COLORS[c] for c in g] for g in a.groups],
            "game_value": a.game_value,
            "game_value_proven": a.game_value_proven,
            "game_bounds": list(a.game_bounds) if a.game_bounds else None,
            "best_move": best_move,
            "notes": a.notes,
        }
        if args.render:
            obj["image"] = args.render
        _emit_json(obj)
        return EXIT_DISAGREE if disagreements else EXIT_OK
    to_move = COLORS[pos.to_move] if pos.to_move is not None else "nobody (game over)"
    kind = "two-player: blue+red against yellow+green" if a.two_player else "four players"
    print(f"{record.variant}: {args.file}, after move {n} of {record.move_count}, {to_move} to move ({kind})")
    print()
    guaranteed = not a.two_player and any(r.guaranteed is not None for r in a.colours)
    head = f"{'colour':<7}{'now':>5}{'solo optimum':>14}  {'proof':<22}"
    print(head + (f"{'guaranteed':>10}" if guaranteed else ""))
    for r in a.colours:
        if r.proven:
            value, proof = f"{r.solo_optimum:+d}", f"proven ({r.proven_by})"
        else:
            found = "none" if r.solo_optimum is None else f"{r.solo_optimum:+d}"
            value, proof = found, f"not proven (at most {r.bound:+d})" if r.bound is not None else "not proven"
        line = f"{COLORS[r.color]:<7}{r.score_now:>+5}{value:>14}  {proof:<22}"
        if guaranteed:
            line += f"{'' if r.guaranteed is None else f'{r.guaranteed:+d}':>10}"
        print(line)
    print()
    if a.independent:
        print("Independent: yes, no square can be reached by two colours: the solo optima are the outcome of best play")
    else:
        print("Independent: no; still interacting: " + "; ".join(", ".join(COLORS[c] for c in g) for g in a.groups))
    if a.two_player:
        if a.game_value is not None:
            print(f"Game value (blue+red minus yellow+green): {a.game_value:+d}, proven")
        elif a.game_bounds:
            lo, hi = a.game_bounds
            print(f"Game value (blue+red minus yellow+green): between {lo:+d} and {hi:+d} (exact value not proven)")
    if best_move:
        print(f"Best move: {best_move['color']} {best_move['piece']} {best_move['squares']}")
    for note in a.notes:
        print(f"Note: {note}")
    for d in disagreements:
        print(f"Disagreement: {d}")
    shown = [r for r in a.colours if r.placements]
    if shown:
        print()
        print("Placements reaching each solo optimum:")
        for r in shown:
            moves = ", ".join(f"{PIECES[t.piece[p]].name} {t.name(p)}" for _, p in r.placements)
            print(f"  {COLORS[r.color]:<6} {moves}")
    if args.render:
        print()
        print(f"Image: {args.render}")
    print(f"\nTime: {seconds:.2f} s")
    return EXIT_DISAGREE if disagreements else EXIT_OK


# -- render ---------------------------------------------------------------------

def cmd_render(args) -> int:
    from . import render

    name = Path(args.file).name
    out = args.output or str(Path("output") / (Path(args.file).stem + (".gif" if args.animate else ".png")))
    is_puzzle = args.file.lower().endswith(".toml")
    if is_puzzle and (args.move is not None or args.animate):
        raise render.RenderError("--move and --animate apply to game records, not to puzzle files")
    if is_puzzle:
        from .puzzle_file import load_puzzle

        puzzle = load_puzzle(args.file)
    else:
        record, pos = _load_position(args)
    if args.output is None:
        Path(out).parent.mkdir(exist_ok=True)
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
