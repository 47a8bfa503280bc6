"""The compiled fill kernel against the Python engine (square mode), the
brute-force oracle and the verifier, on seeded random small fill puzzles:
3x3 to 5x5 boards, 1 to 4 colours, small pieces summing exactly to the
free squares, connect touch/free/game, every same-shape rule, blocked and
must-stay-empty squares, set-up pieces, start squares, stars and the
monomino-last rule."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from solver.core.geometry import Board
from solver.core.pieces import CLASSIC_SET as PIECES
from solver.core.pieces import MONOMINO
from solver.core.placements import placement_table
from solver.formats.puzzle_file import load_puzzle
from solver.packing.exhaustive import Exhaustive
from solver.packing.fillkernel import FillKernel, _setup_conflict, supported
from solver.puzzle.definition import Puzzle
from solver.puzzle.verify import verify
from solver.solving import solve
from tests import bruteforce
from tests.util import ROOT

SMALL = [p.index for p in PIECES if p.size <= 4]
ALL = [p.index for p in PIECES]
EXHAUSTIVE_NODE_LIMIT = 30_000  # skip puzzles the Python engine finds slow
PUZZLES = ROOT / "puzzles"


def _starts(rng, w, h, blocked, cols):
    starts = [frozenset()] * 4
    if rng.random() < 0.3:
        free = [s for s in range(w * h) if s not in blocked]
        for c in cols:
            if rng.random() < 0.6:
                starts[c] = frozenset(rng.sample(free, rng.choice([1, 1, 2])))
    return tuple(starts)


def planted_puzzle(rng: random.Random) -> Puzzle | None:
    """Tile the board at random (lowest empty square first, a random piece
    of a random colour, no same-colour edge contact), then turn some tiles
    into set-up pieces or must-stay-empty squares: free fill puzzles with a
    solution, often several, and touch/game ones that may have none."""
    w, h = rng.randint(3, 5), rng.randint(3, 5)
    blocked = frozenset(rng.sample(range(w * h), rng.choice([0, 0, 0, 1, 2])))
    cols = tuple(sorted(rng.sample(range(4), rng.choice([1, 2, 2, 3, 4]))))
    board = Board(w, h, blocked)
    t = placement_table(board)
    pool = SMALL if rng.random() < 0.8 else ALL
    same_shape = rng.choice(["none", "none", "edge", "corner"])

    def near(p):  # squares a same-shaped piece of another colour may not cover
        if same_shape == "none":
            return 0
        return t.mask[p] | t.edge[p] | (t.corner[p] if same_shape == "corner" else 0)

    for _ in range(30):
        occ, own, used, tiles = board.blocked_mask, dict.fromkeys(cols, 0), {c: set() for c in cols}, []
        while occ != board.full_mask:
            low = ~occ & board.full_mask
            s = (low & -low).bit_length() - 1
            opts = [(c, p) for p in t.covering[s] for c in cols
                    if t.squares[p][0] == s and not t.mask[p] & occ and t.piece[p] in pool
                    and t.piece[p] not in used[c] and not t.mask[p] & board.edge_neighbours(own[c])
                    and not any(d != c and t.piece[q] == t.piece[p] and t.mask[p] & near(q) for d, q in tiles)]
            if not opts:
                break
            c, p = rng.choice(opts)
            occ |= t.mask[p]
            own[c] |= t.mask[p]
            used[c].add(t.piece[p])
            tiles.append((c, p))
        else:
            break
    else:
        return None
    setup, pieces, empty = {}, {c: [] for c in cols}, set()
    for c, p in tiles:
        x = rng.random()
        if x < 0.12:
            setup.setdefault(c, []).append(p)
        elif x < 0.15 and len(t.squares[p]) == 1:
            empty |= set(t.squares[p])
        else:
            pieces[c].append(t.piece[p])
    if not any(pieces.values()):
        return None
    starts = [frozenset()] * 4
    if rng.random() < 0.3:  # start squares, mostly under the colour's own tiles
        for c in cols:
            mine = [sq for d, p in tiles if d == c for sq in t.squares[p]]
            if rng.random() < 0.7 and mine:
                starts[c] = frozenset(rng.sample(mine, 1) + rng.sample(range(w * h), rng.choice([0, 0, 1])))
    board = Board(w, h, blocked, tuple(starts))
    return Puzzle(
        board, cols, {c: tuple(sorted(v)) for c, v in pieces.items()},
        setup={c: tuple(v) for c, v in setup.items()},
        connect=rng.choice(["touch", "free", "game", "free"]),
        same_shape=same_shape,
        monomino_last=rng.random() < 0.1 and all(MONOMINO in v for v in pieces.values()),
        stars=frozenset(rng.sample(range(w * h), rng.choice([0, 0, 0, 1]))),
        empty=frozenset(empty), goal="count", name="planted")


def random_puzzle(rng: random.Random) -> Puzzle | None:
    """Random pieces summing to the free squares; sometimes every colour gets
    the same pieces (interchangeable colours: canonical labelling)."""
    w, h = rng.randint(3, 5), rng.randint(3, 5)
    n = w * h
    blocked = set(rng.sample(range(n), rng.choice([0, 0, 0, 1, 2])))
    ncol = rng.choice([2, 2, 3, 4])
    cols = tuple(sorted(rng.sample(range(4), ncol)))
    interchangeable = rng.random() < 0.4
    board = Board(w, h, frozenset(blocked), _starts(rng, w, h, blocked, cols) if not interchangeable else (frozenset(),) * 4)
    t = placement_table(board)
    setup: dict[int, list[int]] = {}
    taken = 0
    if not interchangeable:
        for _ in range(rng.choice([0, 0, 1, 2])):
            c, p = rng.randrange(4), rng.randrange(len(t))
            if t.mask[p] & taken or t.piece[p] in {t.piece[q] for q in setup.get(c, [])}:
                continue
            if any(t.mask[p] & (t.mask[q] | t.edge[q]) for q in setup.get(c, [])):
                continue
            setup.setdefault(c, []).append(p)
            taken |= t.mask[p]
    free = [s for s in range(n) if s not in blocked and not taken >> s & 1]
    empty = frozenset(rng.sample(free, min(len(free), rng.choice([0, 0, 0, 1]))))
    target = len(free) - len(empty)
    pieces: dict[int, list[int]] = {c: [] for c in cols}
    total = 0
    if interchangeable:
        for _ in range(60):
            same = sorted(rng.sample(SMALL, rng.randint(1, 3)))
            if sum(PIECES[i].size for i in same) * ncol == target:
                pieces = {c: list(same) for c in cols}
                total = target
                break
        else:
            return None
    for _ in range(300):
        if total >= target:
            break
        c = rng.choice(cols)
        i = rng.choice(SMALL if rng.random() < 0.9 else ALL)
        if i in pieces[c] or total + PIECES[i].size > target or i in {t.piece[q] for q in setup.get(c, [])}:
            continue
        pieces[c].append(i)
        total += PIECES[i].size
    if total != target:
        return None
    return Puzzle(
        board, cols, {c: tuple(sorted(v)) for c, v in pieces.items()},
        setup={c: tuple(v) for c, v in setup.items()},
        connect=rng.choice(["touch", "free", "game", "touch"]),
        same_shape=rng.choice(["none", "edge", "corner"]),
        monomino_last=rng.random() < 0.1 and all(MONOMINO in v for v in pieces.values()),
        empty=empty, goal="count", name="random")


def interchangeable_puzzle(rng: random.Random) -> Puzzle | None:
    """Every colour has the same pieces and nothing else tells the colours
    apart: the kernel labels colours canonically (count times k!)."""
    ncol = rng.choice([2, 2, 3, 4])
    same = sorted(rng.sample(SMALL, rng.randint(1, 3)))
    total = ncol * sum(PIECES[i].size for i in same)
    shapes = [(w, h) for w in range(3, 6) for h in range(3, 6) if 0 <= w * h - total <= 2]
    if not shapes:
        return None
    w, h = rng.choice(shapes)
    blocked = frozenset(rng.sample(range(w * h), w * h - total))
    cols = tuple(sorted(rng.sample(range(4), ncol)))
    return Puzzle(
        Board(w, h, blocked), cols, {c: tuple(same) for c in cols},
        connect=rng.choice(["touch", "free", "game", "free"]),
        same_shape=rng.choice(["none", "none", "edge", "corner"]),
        monomino_last=rng.random() < 0.1 and MONOMINO in same, goal="count", name="interchangeable")


def puzzles(seed: int, n: int):
    rng = random.Random(seed)
    made = 0
    while made < n:
        x = rng.random()
        pz = planted_puzzle(rng) if x < 0.5 else random_puzzle(rng) if x < 0.8 else interchangeable_puzzle(rng)
        if pz is None or pz.spare_squares != 0 or _setup_conflict(pz):
            continue
        made += 1
        yield pz, rng.choice([1, 1, 2, 4, 12])


def exhaustive_solutions(pz: Puzzle, symmetry: bool) -> tuple[set[frozenset], int] | None:
    """The Python engine's solutions and multiplier (None: too slow)."""
    e = Exhaustive(pz, symmetry=symmetry)
    found = set()
    for s in e.solutions():
        if s is None:
            if e.nodes > EXHAUSTIVE_NODE_LIMIT:
                return None
            continue
        found.add(frozenset(s))
    return found, e.multiplier


def kernel_solutions(pz: Puzzle, symmetry: bool, K: int, step: int | None = None) -> FillKernel:
    k = FillKernel(pz, symmetry=symmetry, K=K)
    if step:
        while not k.run(step):
            pass
    else:
        assert k.run()
    assert k.done and k.stored == k.count == len(k.solutions)
    return k


def relabel(sol: frozenset, perm: dict[int, int]) -> frozenset:
    return frozenset((perm[c], p) for c, p in sol)


SEEDS = range(8)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_fill_puzzles_match_exhaustive(seed):
    with_solutions = compared = 0
    for pz, K in puzzles(1000 + seed, 80):
        assert supported(pz) is None
        ref = exhaustive_solutions(pz, symmetry=False)
        if ref is None:
            continue
        ref_set, _ = ref
        compared += 1
        k = kernel_solutions(pz, symmetry=False, K=K, step=7)
        got = [frozenset(s) for s in k.solutions]
        assert len(set(got)) == len(got) == k.count, "a solution found twice"
        assert set(got) == ref_set, (pz, K)
        for s in got:
            verify(pz, list(s))
        with_solutions += bool(ref_set)
        # symmetry on: canonical solutions times k! (relabelled, they are all)
        ks = kernel_solutions(pz, symmetry=True, K=K)
        assert ks.count * ks.multiplier == len(ref_set), (pz, K)
        for s in ks.solutions:
            verify(pz, s)
        if ks.canonical:
            colors = sorted(ks.act)
            expanded = {relabel(frozenset(s), dict(zip(colors, perm)))
                        for s in ks.solutions for perm in itertools.permutations(colors)}
            assert expanded == ref_set
            e_sym = exhaustive_solutions(pz, symmetry=True)
            if e_sym is not None:
                assert len(e_sym[0]) == ks.count and e_sym[1] == ks.multiplier
    assert compared >= 70
    assert with_solutions >= 10


def test_canonical_labelling_is_exercised():
    """The random puzzles include interchangeable colours with solutions."""
    seen = 0
    for pz, K in puzzles(77, 400):
        if len(set(tuple(pz.pieces[c]) for c in pz.colors)) == 1 and len(pz.colors) > 1 and not pz.setup:
            ks = FillKernel(pz, symmetry=True, K=K)
            if not ks.canonical:
                continue
            ks.run()
            if ks.count:
                k = kernel_solutions(pz, symmetry=False, K=K)
                assert k.count == ks.count * ks.multiplier
                seen += 1
    assert seen >= 3


@pytest.mark.parametrize("seed", range(3))
def test_tiny_puzzles_match_bruteforce(seed):
    checked = 0
    for pz, K in puzzles(2000 + seed, 200):
        if sum(len(v) for v in pz.pieces.values()) > 4 or pz.board.size > 16:
            continue
        oracle = bruteforce.solve_all(pz)
        k = kernel_solutions(pz, symmetry=False, K=K)
        assert {frozenset(s) for s in k.solutions} == oracle, pz
        checked += 1
    assert checked >= 10


def test_resumable_runs_give_the_same_solutions():
    for pz, K in puzzles(31, 30):
        whole = kernel_solutions(pz, symmetry=False, K=K)
        stepped = kernel_solutions(pz, symmetry=False, K=K, step=1)
        assert stepped.solutions == whole.solutions
        assert stepped.nodes == whole.nodes


def test_keep_and_stop_after():
    pz = _with_solutions(5, 3)
    everything = kernel_solutions(pz, symmetry=False, K=1)
    k = FillKernel(pz, symmetry=False, K=1, keep=2)
    assert k.run()
    assert k.count == everything.count and k.solutions == everything.solutions[:2]
    k = FillKernel(pz, symmetry=False, K=1, stop_after=1)
    assert not k.run() and k.stopped and k.count == 1
    assert not k.run() and k.stopped and k.count == 2
    while not k.run():
        pass
    assert not k.stopped and k.solutions == everything.solutions
    k = FillKernel(pz, symmetry=False, K=1, stop_after=2)
    assert not k.run_for(step=3) and k.stopped and k.count == 2
    while not k.run_for(step=3):
        assert k.stopped and k.count % 2 == 0
    assert k.count == everything.count


def _with_solutions(seed: int, at_least: int) -> Puzzle:
    for pz, _ in puzzles(seed, 400):
        k = FillKernel(pz, symmetry=False, K=1, keep=0)
        k.run()
        if k.count >= at_least:
            return pz
    raise AssertionError("no such puzzle")


def test_solution_buffer_grows():
    pz = _with_solutions(6, 5)
    k = FillKernel(pz, symmetry=False)
    k.solbuf = k.solbuf[:1]  # force regrowth
    assert k.run()
    ref, _ = exhaustive_solutions(pz, symmetry=False)
    assert {frozenset(s) for s in k.solutions} == ref and k.stored == k.count == len(ref)


def test_inconsistent_setup_has_no_solution():
    """Same-shaped set-up pieces sharing an edge: nothing can pass verify
    (the Python engine takes the set-up as given and finds the filling)."""
    board = Board(4, 2)
    t = placement_table(board)
    a, b = t.find([0, 1]), t.find([2, 3])  # two dominoes side by side on the top row
    i4 = next(p.index for p in PIECES if p.name == "I4")
    pz = Puzzle(board, (2,), {2: (i4,)}, setup={0: (a,), 1: (b,)},
                connect="free", same_shape="edge", goal="count")
    assert pz.spare_squares == 0
    k = FillKernel(pz, symmetry=False)
    assert k.run() and k.count == 0
    ok = Puzzle(board, (2,), {2: (i4,)}, setup={0: (a,), 1: (b,)}, connect="free", goal="count")
    k = FillKernel(ok, symmetry=False)
    assert k.run() and k.count == 1
    verify(ok, k.solutions[0])


def test_supported_reasons():
    pz = load_puzzle(PUZZLES / "tetromino-8x10.toml")
    assert supported(pz) is None
    assert supported(replace(pz, goal="maximize", target=pz.colors)) == "goal maximize (the kernel does place-all and count)"
    assert "squares" in supported(load_puzzle(PUZZLES / "solo-21.toml"))
    assert supported(load_puzzle(PUZZLES / "fill-6x6-impossible.toml")) is None


def test_bundled_fill_puzzles():
    k = FillKernel(load_puzzle(PUZZLES / "fill-6x6-impossible.toml"))
    assert k.run() and k.count == 0
    k = FillKernel(load_puzzle(PUZZLES / "tetromino-8x10-distinct.toml"))
    assert k.run(5_000_000) and k.count == 0


def test_tetromino_count_agrees_with_cpsat():
    """A whole count by the kernel (tetromino-8x10's rules and pieces but
    O, L4, T4, Z4 on 8x8: 5,808 solutions, 1 s) equals CP-SAT's
    enumeration, solutions and classes, every solution verified by the
    driver. The headline 8x10 count (3120, 59 M nodes, over a minute) is
    in benchmarks/challenges.py."""
    puzzle = replace(load_puzzle(PUZZLES / "tetromino-8x10.toml"), name="tetromino-8x8")
    board = Board.rectangle(8, 8)
    pieces = {c: [k for k in hand if PIECES[k].name != "I4"] for c, hand in puzzle.pieces.items()}
    puzzle = replace(puzzle, board=board, pieces=pieces)
    kernel = solve(puzzle, time_limit=None, count=True)
    cpsat = solve(puzzle, "cpsat", time_limit=300, count=True, workers=1)
    assert kernel.status.name == cpsat.status.name == "OPTIMAL" and kernel.method == "fill kernel"
    assert kernel.solution_count == cpsat.solution_count > 1000
    assert kernel.count_classes == cpsat.count_classes > 1
