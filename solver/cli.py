"""The ``blokus`` command line. Engines and plotting are imported lazily, so
``show`` and ``moves`` start fast.

Exit codes: 0 done (solved), 2 error (bad input or usage), 3 INFEASIBLE,
4 UNKNOWN (time ran out before an answer).
"""

from __future__ import annotations

import argparse
import json
import sys

from .errors import BlokusError
from .geometry import COLORS, color_index
from .pieces import PIECES

EXIT_OK, EXIT_ERROR, EXIT_INFEASIBLE, EXIT_UNKNOWN = 0, 2, 3, 4


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors: same prefix, exit 2
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"blokus: error: {message}\n")


def _formatter(prog):
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=30)


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
    p.add_argument("file", metavar="FILE", help="game record (.blksgf)")
    p.add_argument("--move", type=int, metavar="N", help="position after N moves (default: the end)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=cmd_show)

    p = sub.add_parser(
        "moves",
        help="list the legal moves in a game record's position",
        formatter_class=_formatter,
        description="List the legal moves of the colour to move (or of --color) after N moves.",
        epilog="examples:\n  blokus moves game.blksgf\n  blokus moves game.blksgf --move 4 --color red --json",
    )
    p.add_argument("file", metavar="FILE", help="game record (.blksgf)")
    p.add_argument("--move", type=int, metavar="N", help="position after N moves (default: the end)")
    p.add_argument("--color", metavar="C", help="colour to list: blue, yellow, red or green")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=cmd_moves)
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
