"""Seeded random small puzzles for cross-checks (engines against each other
and against tests/bruteforce.py): small boards, a few pieces per colour,
random set-ups, start squares and constraints."""

from __future__ import annotations

import random

from solver.core.geometry import Board
from solver.core.pieces import CLASSIC_SET as PIECES
from solver.core.placements import placement_table
from solver.puzzle.definition import Puzzle

SMALL = [p.index for p in PIECES if p.size <= 4]
ALL = [p.index for p in PIECES]


def random_puzzle(seed: int, max_pieces: int = 4, goals=("place-all", "maximize")) -> Puzzle:
    rng = random.Random(seed)
    w, h = rng.randint(3, 6), rng.randint(3, 6)
    cells = list(range(w * h))
    blocked = set(rng.sample(cells, rng.choice([0, 0, 1, 2, 3])))
    n_colors = rng.choice([1, 1, 2, 2, 3])
    colors = tuple(sorted(rng.sample(range(4), n_colors)))
    starts = [frozenset()] * 4
    kind = rng.choice(["none", "corners", "random"])
    free = [s for s in cells if s not in blocked]
    for c in colors:
        if kind == "corners":
            corner = (0, w - 1, w * h - 1, w * (h - 1))[c]
            if corner not in blocked:
                starts[c] = frozenset([corner])
        elif kind == "random":
            starts[c] = frozenset(rng.sample(free, rng.choice([1, 1, 2])))
    board = Board(w, h, frozenset(blocked), tuple(starts))
    table = placement_table(board)
    # set-up pieces: random non-overlapping placements of any colour
    setup: dict[int, list[int]] = {}
    taken = 0
    for _ in range(rng.choice([0, 0, 1, 2])):
        c = rng.randrange(4)
        p = rng.randrange(len(table))
        used = {table.piece[q] for q in setup.get(c, [])}
        if table.mask[p] & taken or table.piece[p] in used:
            continue
        if any(table.mask[p] & (table.mask[q] | table.edge[q]) for q in setup.get(c, [])):
            continue
        setup.setdefault(c, []).append(p)
        taken |= table.mask[p]
    budget = rng.randint(1, max_pieces)
    pieces = {}
    for c in colors:
        used = {table.piece[q] for q in setup.get(c, [])}
        pool = [i for i in (SMALL if rng.random() < 0.8 else ALL) if i not in used]
        k = max(1, min(len(pool), budget // len(colors) + rng.choice([0, 0, 1])))
        pieces[c] = tuple(sorted(rng.sample(pool, k)))
    open_sq = [s for s in free if not taken >> s & 1]
    stars = frozenset(rng.sample(open_sq, rng.choice([0, 0, 0, 1, 2])))
    rest = [s for s in open_sq if s not in stars and all(s not in st for st in starts)]
    empty = frozenset(rng.sample(rest, min(len(rest), rng.choice([0, 0, 0, 1, 2]))))
    goal = rng.choice(goals)
    monomino_last = rng.random() < 0.15 and all(0 in pieces[c] for c in colors)
    return Puzzle(
        board=board,
        colors=colors,
        pieces=pieces,
        setup={c: tuple(ps) for c, ps in setup.items()},
        connect=rng.choice(["game", "game", "touch", "free"]),
        monomino_last=monomino_last,
        same_shape=rng.choice(["none", "none", "edge", "corner"]),
        stars=stars,
        empty=empty,
        goal=goal,
        target=(colors[0],) if goal == "maximize" else (),
        measure=rng.choice(["score", "squares"]),
        name=f"random-{seed}",
    )
