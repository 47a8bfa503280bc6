"""The OR-Tools CP-SAT engine: one model of any puzzle, solved by CP-SAT.
It never imports the search engine; both return the same SolveResult.

The model:

- one boolean per candidate placement of a colour: on the board, on no
  blocked, set-up or must-stay-empty square, not edge-adjacent to the
  colour's set-up pieces and (``game`` rule) inside the region its root can
  reach by king moves;
- each piece of a colour used at most once (exactly once for place-all);
  each square covered at most once (exactly once when the puzzle has no
  spare squares); star squares at least once;
- same-colour edge exclusion, one at-most-one per pair of edge-adjacent
  squares: of the pieces covering one square but not the other, at most one;
- a placement is chosen only if one of its corner squares is covered by its
  colour (the ``touch`` rule, and a cheap necessary condition of ``game``);
- connectivity for ``game`` (a colour's pieces touch each other only at
  corners, so they form one group exactly when its squares are connected by
  king moves), in one of two encodings:
  ``levels``: every covered square other than a root square has a covered
  king-neighbour of lower level (one "parent" literal per neighbour), levels
  bounded below by the king distance to the root;
  ``cuts``: no connectivity constraint up front; each solution is checked,
  and every group cut off from the root gets a cut (if all its squares are
  covered, one of the squares around it is too) before solving again;
- the same-shape rule, monomino-last (the monomino's squares are never a
  parent), and the maximize objective (squares placed, or the advanced
  score with +15 / +20 bonuses), with tight bounds.

Counting enumerates solutions with the ``cuts`` encoding (the levels
encoding has auxiliary variables that would count one solution many times).
Symmetry is broken while counting, and each solution found is expanded
to its images under the puzzle's symmetries: interchangeable colours (the
8x10 tetromino puzzles) appear in order (colour k first covers a square
after colour k-1 did, in square order), and in a fill puzzle the placement
on the first square has the lowest index among its images under the turns
and mirrors that map the puzzle onto itself. Counting searches like an
exact cover: placements in order of their lowest square, the first one not
yet decided set true (so the lowest empty square's options in turn).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from itertools import permutations
from typing import Callable

from ortools.sat.python import cp_model

from .errors import BlokusError
from .geometry import COLORS, mask_of, squares_of
from .pieces import MONOMINO, NUM_PIECES, PIECE_SIZES
from .placements import Placement
from .puzzle import Connect, Goal, Measure, Puzzle, SameShape
from .result import Progress, ProgressCallback, SolveResult, Status
from .scoring import ALL_PLACED_BONUS, MONOMINO_LAST_BONUS, best_bonus
from .symmetry import interchangeable_colours, puzzle_symmetries, quarter_turn_placements, symmetry_applies

ENCODINGS = ("auto", "levels", "cuts")


class CpsatError(BlokusError, ValueError):
    """Bad CP-SAT parameters."""


@dataclass
class PuzzleModel:
    """A built model with the handles needed to read and hint solutions."""

    puzzle: Puzzle
    encoding: str
    model: cp_model.CpModel
    x: dict[tuple[int, Placement], cp_model.IntVar] = field(default_factory=dict)
    covered: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    levels: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    parents: dict[tuple[int, int, int], cp_model.IntVar] = field(default_factory=dict)
    roots: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    all_placed: dict[int, cp_model.IntVar] = field(default_factory=dict)
    mono_last: dict[int, cp_model.IntVar] = field(default_factory=dict)
    region: dict[int, int] = field(default_factory=dict)  # colour -> squares it may cover
    root_mask: dict[int, int] = field(default_factory=dict)  # colour -> fixed root squares
    objective_bound: int | None = None
    objective: cp_model.IntVar | None = None

    @property
    def size(self) -> dict[str, int]:
        proto = self.model.proto
        return {"variables": len(proto.variables), "constraints": len(proto.constraints), "placements": len(self.x)}

    def solution(self, value: Callable) -> list[tuple[int, Placement]]:
        return [(c, p) for (c, p), v in self.x.items() if value(v)]


def build(
    puzzle: Puzzle, encoding: str = "auto", symmetric: bool = False, order_colours: bool = False,
    order_board: int | None = None,
) -> PuzzleModel:
    """Build the CP-SAT model of a puzzle (no solving, no printing). With
    ``symmetric``, only solutions that a quarter turn maps onto themselves
    with the colours shifted (blue -> yellow -> red -> green) are allowed;
    with ``order_colours`` (interchangeable colours only) at least one
    solution of each class of colour relabellings, and with ``order_board``
    (a square every solution covers) of each class of turns and mirrors."""
    encoding = _encoding(encoding, puzzle)
    if symmetric and symmetry_applies(puzzle) is not None:
        raise CpsatError(f"the symmetric model does not apply to {puzzle.name}: {symmetry_applies(puzzle)}")
    t, b = puzzle.table, puzzle.board
    m = PuzzleModel(puzzle, encoding, cp_model.CpModel())
    model = m.model
    place_all = puzzle.goal is not Goal.MAXIMIZE
    game = puzzle.connect is Connect.GAME

    setup_sq, taken = puzzle.masks.setup, puzzle.masks.taken
    owned = 0  # single start squares of colours that must place pieces
    if place_all:
        for c in puzzle.colors:
            if len(b.starts[c]) == 1 and not puzzle.setup_of(c) and puzzle.pieces[c]:
                owned |= b.start_masks[c]
    shape_block = [0] * NUM_PIECES
    if puzzle.same_shape is not SameShape.NONE:
        for c in range(4):
            for p in puzzle.setup_of(c):
                around = t.edge[p] | (t.corner[p] if puzzle.same_shape is SameShape.CORNER else 0)
                shape_block[t.piece[p]] |= t.mask[p] | around

    # candidates ----------------------------------------------------------------
    for c in puzzle.colors:
        allowed = b.open_mask & ~taken & ~b.edge_neighbours(setup_sq[c]) & ~(owned & ~b.start_masks[c])
        if game:
            roots = _root_squares(puzzle, c, setup_sq[c])
            if setup_sq[c]:
                seed = b.corner_neighbours(setup_sq[c]) & allowed
            else:
                seed = (b.start_masks[c] or allowed) & allowed
            allowed = b.king_fill(seed, allowed)
            m.root_mask[c] = roots
        m.region[c] = allowed
        for piece in puzzle.pieces[c]:
            for p in t.by_piece[piece]:
                if t.mask[p] & ~allowed or t.mask[p] & shape_block[piece]:
                    continue
                m.x[c, p] = model.new_bool_var(f"x_{COLORS[c]}_{p}")

    by_colour_piece: dict[tuple[int, int], list] = {}
    covering: dict[tuple[int, int], list] = {}
    for (c, p), v in m.x.items():
        by_colour_piece.setdefault((c, t.piece[p]), []).append(v)
        for s in t.squares[p]:
            covering.setdefault((c, s), []).append((p, v))

    # pieces ----------------------------------------------------------------------
    for c in puzzle.colors:
        for piece in puzzle.pieces[c]:
            vs = by_colour_piece.get((c, piece), [])
            if place_all:
                if not vs:
                    model.add_bool_or([])  # this piece fits nowhere: infeasible
                else:
                    model.add_exactly_one(vs)
            elif vs:
                model.add_at_most_one(vs)

    # squares ---------------------------------------------------------------------
    fill = place_all and puzzle.spare_squares == 0
    for s in range(b.size):
        vs = [v for c in puzzle.colors for _, v in covering.get((c, s), [])]
        must = (s in puzzle.stars or fill and b.open_mask >> s & 1) and not taken >> s & 1
        if must:
            model.add_exactly_one(vs) if vs else model.add_bool_or([])
        elif len(vs) > 1:
            model.add_at_most_one(vs)

    # covered(c, s) booleans -----------------------------------------------------
    for (c, s), pvs in covering.items():
        if len(pvs) == 1:
            m.covered[c, s] = pvs[0][1]
        else:
            v = model.new_bool_var(f"cov_{COLORS[c]}_{s}")
            model.add(v == sum(x for _, x in pvs))
            m.covered[c, s] = v

    # start squares: some piece of the colour covers one ---------------------------
    for c in puzzle.colors:
        starts = [s for s in b.starts[c] if (c, s) in m.covered]
        if not b.starts[c] or setup_sq[c] & b.start_masks[c]:
            continue
        if place_all and puzzle.pieces[c] or setup_sq[c]:
            model.add_bool_or([m.covered[c, s] for s in starts])
        else:
            for (col, p), v in m.x.items():
                if col == c:
                    model.add_bool_or([v.Not()] + [m.covered[c, s] for s in starts])

    # same-colour edge exclusion ---------------------------------------------------
    for c in puzzle.colors:
        for s in squares_of(m.region.get(c, 0)):
            for n in (s + 1, s + b.width):
                if n >= b.size or (n == s + 1 and s % b.width == b.width - 1):
                    continue
                if not (c, n) in covering and not setup_sq[c] >> n & 1:
                    continue
                bit_n, bit_s = 1 << n, 1 << s
                lits = [v for p, v in covering.get((c, s), []) if not t.mask[p] & bit_n]
                lits += [v for p, v in covering.get((c, n), []) if not t.mask[p] & bit_s]
                if len(lits) > 1:
                    model.add_at_most_one(lits)

    # corner contact (touch rule; necessary for game) -----------------------------
    if game and encoding == "levels":
        for c in puzzle.colors:
            _levels(puzzle, m, c, setup_sq[c], place_all)
    if puzzle.connect is not Connect.FREE:
        for (c, p), v in m.x.items():
            corners = t.corner[p]
            if corners & setup_sq[c]:
                continue  # touches a set-up piece of its colour
            if game and t.mask[p] & m.root_mask.get(c, 0):
                continue  # the root piece
            lits = [m.covered[c, n] for n in squares_of(corners) if (c, n) in m.covered]
            if game and not m.root_mask.get(c):
                # no fixed root: the root piece (or a lone piece) touches nothing
                if encoding != "levels":
                    continue
                lits += [m.roots[c, sq] for sq in t.squares[p] if (c, sq) in m.roots]
            model.add_bool_or([v.Not()] + lits)
        if puzzle.connect is Connect.TOUCH:
            for c in puzzle.colors:
                for p in puzzle.setup_of(c):
                    if not t.corner[p] & setup_sq[c]:
                        lits = [m.covered[c, n] for n in squares_of(t.corner[p]) if (c, n) in m.covered]
                        model.add_bool_or(lits)

    # same shape --------------------------------------------------------------------
    if puzzle.same_shape is not SameShape.NONE:
        _same_shape(puzzle, m, covering)

    # objective (monomino-last under touch/free: the monomino just has to be
    # placed; under game it is part of the levels) ---------------------------------
    if puzzle.goal is Goal.MAXIMIZE:
        _objective(puzzle, m, by_colour_piece)
    if order_colours:
        _order_colours(puzzle, m)
    if order_board is not None:
        _order_board(puzzle, m, order_board)
    if symmetric:
        turn = quarter_turn_placements(puzzle)
        for (c, p), v in m.x.items():
            image = m.x.get(((c + 1) % 4, turn[p]))
            model.add(v == image) if image is not None else model.add_bool_or([v.Not()])

    # a monomino on the root square is played first, so never last
    if game:
        for c in puzzle.colors:
            root = m.root_mask.get(c, 0)
            if not root or len(puzzle.pieces[c]) + len(puzzle.setup_of(c)) < 2:
                continue
            for (col, p), v in m.x.items():
                if col == c and t.piece[p] == MONOMINO and t.mask[p] & root:
                    if puzzle.monomino_last:
                        model.add_bool_or([v.Not()])
                    elif c in m.mono_last:
                        model.add_bool_or([v.Not(), m.mono_last[c].Not()])
    return m


def _root_squares(puzzle: Puzzle, c: int, setup_mask: int) -> int:
    """Squares where colour c's group surely starts: its set-up pieces, or
    its start square when it has exactly one (0 when the root is open)."""
    if setup_mask:
        return setup_mask
    starts = puzzle.board.starts[c]
    return puzzle.board.start_masks[c] if len(starts) == 1 else 0


def _encoding(name: str, puzzle: Puzzle) -> str:
    """``auto``: levels for maximize (cuts would re-solve to optimality once
    per round of cuts), cuts otherwise (faster on place-all; see
    benchmarks/RESULTS.md)."""
    if name not in ENCODINGS:
        raise CpsatError(f"unknown connectivity encoding {name!r} (known: {', '.join(ENCODINGS)})")
    if name == "auto":
        return "levels" if puzzle.goal is Goal.MAXIMIZE else "cuts"
    return name


def _order_colours(puzzle: Puzzle, m: PuzzleModel) -> None:
    """Colours in order of first appearance: colour k covers a square only
    if colour k-1 covers an earlier one. Every colour covers some square and
    no square has two colours, so one relabelling of each solution passes."""
    if not interchangeable_colours(puzzle) or puzzle.goal is Goal.MAXIMIZE:
        raise CpsatError(f"{puzzle.name}: colours are not interchangeable")
    model = m.model
    size = puzzle.board.size
    upto: dict = {}  # (c, s) -> colour c covers a square <= s (None: it cannot)
    for c in puzzle.colors:
        prev = None
        for s in range(size):
            cov = m.covered.get((c, s))
            if cov is not None and prev is not None:
                now = model.new_bool_var(f"upto_{COLORS[c]}_{s}")
                model.add_bool_or([now.Not(), prev, cov])
                model.add_implication(prev, now)
                model.add_implication(cov, now)
                prev = now
            elif cov is not None:
                prev = cov
            upto[c, s] = prev
    for a, c in zip(puzzle.colors, puzzle.colors[1:]):
        for s in range(size):
            cov, before = m.covered.get((c, s)), upto.get((a, s - 1))
            if cov is not None:
                model.add_implication(cov, before) if before is not None else model.add_bool_or([cov.Not()])


def _board_maps(puzzle: Puzzle) -> list[list[int]]:
    """Square maps of the puzzle's turns and mirrors, identity excluded."""
    maps = {tuple(sq) for sq, _ in puzzle_symmetries(puzzle)}
    maps.discard(tuple(range(puzzle.board.size)))
    return [list(sq) for sq in sorted(maps)]


def _first_square(puzzle: Puzzle) -> int | None:
    """The lowest square every solution of a fill puzzle covers, when the
    puzzle has turns or mirrors to break (else None)."""
    if puzzle.goal is Goal.MAXIMIZE or puzzle.spare_squares != 0 or not _board_maps(puzzle):
        return None
    free = puzzle.masks.free
    return (free & -free).bit_length() - 1 if free else None


def _order_board(puzzle: Puzzle, m: PuzzleModel, first: int) -> None:
    """Square ``first`` is covered in every solution: the placement on it
    has an index at most that of the placement on it in each turned or
    mirrored image of the solution (colours aside)."""
    t, model = puzzle.table, m.model
    by_place: dict[Placement, list] = {}
    for (c, p), v in m.x.items():
        by_place.setdefault(p, []).append(v)
    used: dict[Placement, cp_model.IntVar] = {}

    def used_var(p):
        if p not in used:
            vs = by_place[p]
            used[p] = vs[0] if len(vs) == 1 else model.new_bool_var(f"used_{p}")
            if len(vs) > 1:
                model.add(used[p] == sum(vs))
        return used[p]

    here = [p for p in by_place if first in t.squares[p]]
    for sq in _board_maps(puzzle):
        source = sq.index(first)  # the square the map takes onto ``first``
        for q in [q for q in by_place if source in t.squares[q]]:
            image = t.find(sq[s] for s in t.squares[q])
            for p in here:
                if image is not None and image < p:
                    model.add_bool_or([used_var(p).Not(), used_var(q).Not()] if p != q else [used_var(p).Not()])


def _images(puzzle: Puzzle, found: list, all_relabellings: bool) -> list[list[tuple[int, Placement]]]:
    """Every distinct image of the solutions found under the puzzle's
    symmetries (and under every relabelling of interchangeable colours)."""
    t = puzzle.table
    if all_relabellings:
        maps = [list(range(puzzle.board.size))] + _board_maps(puzzle)
        group = [(sq, dict(zip(puzzle.colors, perm))) for sq in maps for perm in permutations(puzzle.colors)]
    else:
        group = puzzle_symmetries(puzzle)
    images: dict[frozenset, list] = {}
    moved: list[dict[Placement, Placement]] = [{} for _ in group]
    for sol in found:
        for (sq, cmap), pmap in zip(group, moved):
            image = []
            for c, p in sol:
                if p not in pmap:
                    pmap[p] = t.find(sq[s] for s in t.squares[p])
                image.append((cmap[c], pmap[p]))
            images.setdefault(frozenset(image), sorted(image))
    return list(images.values())


def _exact_cover_search(puzzle: Puzzle, m: PuzzleModel) -> None:
    """Decide placements in order of their lowest square, each set true
    first: the search branches on the lowest empty square's options."""
    t = puzzle.table
    order = sorted(m.x, key=lambda cp: (min(t.squares[cp[1]]), cp))
    m.model.add_decision_strategy([m.x[cp] for cp in order], cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)


def _same_shape(puzzle: Puzzle, m: PuzzleModel, covering) -> None:
    t, b = puzzle.table, puzzle.board
    model = m.model
    by_piece: dict[tuple[int, int, int], list] = {}
    for (c, s), pvs in covering.items():
        for p, v in pvs:
            by_piece.setdefault((t.piece[p], c, s), []).append(v)
    colours = puzzle.colors
    for (piece, c, s), vs in by_piece.items():
        near = b.edge_neighbours(1 << s)
        if puzzle.same_shape is SameShape.CORNER:
            near |= b.corner_neighbours(1 << s)
        for n in squares_of(near):
            for d in colours:
                if d <= c:
                    continue
                ws = by_piece.get((piece, d, n))
                if ws:
                    # a piece of this shape in colour c on s, and one in d on n
                    a = sum(vs)
                    model.add(a + sum(ws) <= 1)


def _levels(puzzle: Puzzle, m: PuzzleModel, c: int, setup_mask: int, place_all: bool) -> None:
    """Square-level connectivity for colour c: each covered square that is
    not a root has a covered king-neighbour of lower level."""
    b = puzzle.board
    model = m.model
    t = puzzle.table
    squares = [s for s in squares_of(m.region.get(c, 0)) if (c, s) in m.covered]
    if not squares and not setup_mask:
        return
    fixed_root = m.root_mask.get(c, 0)
    if setup_mask:
        # one group of set-up pieces is the root; other groups must be joined
        fixed_root = b.king_fill(setup_mask & -setup_mask, setup_mask)
        m.root_mask[c] = fixed_root
    given = setup_mask & ~fixed_root  # set-up squares that still need a parent
    nodes = squares + list(squares_of(given))
    true = None

    def cov(n):
        return m.covered.get((c, n)) if (c, n) in m.covered else true

    dist = _king_distances(b, fixed_root, m.region.get(c, 0) | setup_mask) if fixed_root else {}
    # a chain of parents from the root passes only through squares the colour
    # still covers or set-up squares outside the root: levels never exceed
    # their number, and squares farther away than that stay empty
    horizon = min(len(nodes), sum(PIECE_SIZES[i] for i in puzzle.pieces[c]) + given.bit_count()) + 1
    mono = {}
    for (col, p), v in m.x.items():
        if col == c and t.piece[p] == MONOMINO:
            mono[t.squares[p][0]] = v
    mono_flag = None
    if puzzle.goal is Goal.MAXIMIZE and c in puzzle.target and MONOMINO in puzzle.pieces[c]:
        mono_flag = m.mono_last[c] = model.new_bool_var(f"monolast_{COLORS[c]}")
    for s in nodes:
        lo = dist.get(s, horizon) if fixed_root else 0
        m.levels[c, s] = model.new_int_var(min(lo, horizon), horizon, f"lvl_{COLORS[c]}_{s}")
        if lo >= horizon and cov(s) is not None:
            model.add_bool_or([cov(s).Not()])
    if not fixed_root:
        # no set-up and not one start square: one root square, on a start
        # square when the colour has several
        starts = b.start_masks[c]
        for s in squares:
            if starts and not starts >> s & 1:
                continue
            m.roots[c, s] = r = model.new_bool_var(f"root_{COLORS[c]}_{s}")
            model.add_implication(r, m.covered[c, s])
            model.add(m.levels[c, s] == 0).only_enforce_if(r)
        roots = [m.roots[c, s] for s in squares if (c, s) in m.roots]
        model.add_at_most_one(roots)
        if place_all and puzzle.pieces[c]:
            model.add_exactly_one(roots) if roots else model.add_bool_or([])
    for s in nodes:
        if fixed_root >> s & 1:
            continue
        options = []
        for n in b.king_neighbours(s):
            if fixed_root >> n & 1:
                options = None  # next to the root, which is always covered
                break
            if (c, n) not in m.covered and not given >> n & 1:
                continue
            par = model.new_bool_var(f"par_{COLORS[c]}_{s}_{n}")
            if cov(n) is not None:
                model.add_implication(par, cov(n))
            model.add(m.levels[c, n] + 1 <= m.levels[c, s]).only_enforce_if(par)
            if n in mono:
                if puzzle.monomino_last:
                    model.add_implication(par, mono[n].Not())
                elif mono_flag is not None:
                    model.add_bool_or([par.Not(), mono[n].Not(), mono_flag.Not()])
            m.parents[c, s, n] = par
            options.append(par)
        if options is None:
            continue
        root = m.roots.get((c, s))
        here = [cov(s).Not()] if cov(s) is not None else []
        model.add_bool_or(here + options + ([root] if root is not None else []))


def _king_distances(b, roots: int, region: int) -> dict[int, int]:
    dist = {s: 0 for s in squares_of(roots)}
    queue = deque(dist)
    while queue:
        s = queue.popleft()
        for n in b.king_neighbours(s):
            if n not in dist and region >> n & 1:
                dist[n] = dist[s] + 1
                queue.append(n)
    return dist


def _objective(puzzle: Puzzle, m: PuzzleModel, by_colour_piece) -> None:
    t = puzzle.table
    model = m.model
    terms = []
    bound = 0
    for c in puzzle.target:
        total = sum(PIECE_SIZES[i] for i in puzzle.pieces[c])
        squares = sum(len(t.squares[p]) * v for (col, p), v in m.x.items() if col == c)
        if puzzle.measure is Measure.SQUARES:
            terms.append(squares)
            bound += total
            continue
        everything = m.all_placed[c] = model.new_bool_var(f"all_{COLORS[c]}")
        for piece in puzzle.pieces[c]:
            vs = by_colour_piece.get((c, piece), [])
            model.add(sum(vs) >= 1).only_enforce_if(everything) if vs else model.add_bool_or([everything.Not()])
        terms.append(squares - total + ALL_PLACED_BONUS * everything)
        if MONOMINO in puzzle.pieces[c]:
            # (levels made the flag already; under cuts the solve loop checks it)
            mono = m.mono_last.get(c)
            if mono is None:
                mono = m.mono_last[c] = model.new_bool_var(f"monolast_{COLORS[c]}")
            model.add_implication(mono, everything)
            terms.append(MONOMINO_LAST_BONUS * mono)
        bound += best_bonus(MONOMINO in puzzle.pieces[c])
    objective = sum(terms)
    m.objective_bound = bound
    lowest = 0 if puzzle.measure is Measure.SQUARES else -sum(PIECE_SIZES[i] for c in puzzle.target for i in puzzle.pieces[c])
    value = m.objective = model.new_int_var(lowest, bound, "objective")
    model.add(value == objective)
    model.maximize(value)


# -- hints --------------------------------------------------------------------------

def add_hint(m: PuzzleModel, placements: list[tuple[int, Placement]]) -> None:
    """Hint a complete solution: the placements and a value for every
    auxiliary variable derived from them (a partial hint barely helps)."""
    puzzle, t, b = m.puzzle, m.puzzle.table, m.puzzle.board
    model = m.model
    model.clear_hints()
    chosen = set(placements)
    values: dict = {}
    for key, v in m.x.items():
        values[v] = key in chosen
    covered = {(c, s) for c, p in placements for s in t.squares[p]}
    for key, v in m.covered.items():
        values[v] = key in covered
    for c in puzzle.colors:
        mine = {s for col, s in covered if col == c}
        fixed = m.root_mask.get(c, 0)
        roots = {s for s in squares_of(fixed)} if fixed else set()
        if not roots and mine:
            starts = b.start_masks[c]
            roots = {min(s for s in mine if not starts or starts >> s & 1)}
        level = {s: 0 for s in roots}
        queue = deque(roots)
        mono = {s for col, p in placements if col == c and t.piece[p] == MONOMINO for s in t.squares[p]}
        while queue:  # breadth first from the roots, the monomino last
            s = queue.popleft()
            for n in b.king_neighbours(s):
                if n in mine and n not in level and (s not in mono or not puzzle.monomino_last):
                    level[n] = level[s] + 1
                    queue.append(n)
        for s in mine - set(level):  # the monomino, reached only through itself
            level[s] = 1 + max(level.values(), default=0)
        for (col, s), v in m.levels.items():
            if col == c:
                hi = v.proto.domain[-1]
                values[v] = min(level.get(s, hi), hi)
        for (col, s, n), v in m.parents.items():
            if col == c:
                values[v] = s in mine and n in mine and level.get(n, 10**6) < level.get(s, -1) and n not in (mono if puzzle.monomino_last else ())
        for (col, s), v in m.roots.items():
            if col == c:
                values[v] = s in roots and not fixed
    for c, v in m.all_placed.items():
        values[v] = all(any(col == c and t.piece[p] == i for col, p in placements) for i in puzzle.pieces[c])
    for c, v in m.mono_last.items():
        values[v] = bool(values.get(m.all_placed.get(c), False)) and _monomino_last_possible(puzzle, c, placements)
    if m.objective is not None:
        from .verify import verify

        values[m.objective] = verify(puzzle, placements).objective
    for v, val in values.items():
        model.add_hint(v, int(val))


def _monomino_last_possible(puzzle: Puzzle, c: int, placements) -> bool:
    from .verify import VerificationError, verify

    try:
        return verify(puzzle, placements).monomino_last.get(c, False)
    except VerificationError:
        return False


# -- solving --------------------------------------------------------------------------

def _cut_off(m: PuzzleModel, placements, c: int, skip: set[int] = frozenset()) -> list[list[int]]:
    """Colour c's groups of squares (king moves, set-up pieces included) that
    its root does not reach without passing through ``skip``."""
    puzzle, t, b = m.puzzle, m.puzzle.table, m.puzzle.board
    mine = {s for col, p in placements if col == c for s in t.squares[p]}
    setup = {s for p in puzzle.setup_of(c) for s in t.squares[p]}
    everything = (mine | setup) - skip
    if not mine:
        return []
    if setup:  # one set-up group is the root; the others must be joined
        root = set(squares_of(b.king_fill(1 << min(setup), mask_of(setup))))
    else:
        root = {s for s in everything if b.start_masks[c] >> s & 1} or {min(everything, default=-1)}
    root &= everything
    seen = set(root)
    queue = deque(root)
    while queue:
        s = queue.popleft()
        for n in b.king_neighbours(s):
            if n in everything and n not in seen:
                seen.add(n)
                queue.append(n)
    rest = everything - seen
    groups = []
    while rest:
        group = {rest.pop()}
        queue = deque(group)
        while queue:
            s = queue.popleft()
            for n in b.king_neighbours(s):
                if n in rest:
                    rest.discard(n)
                    group.add(n)
                    queue.append(n)
        groups.append(sorted(group))
    return groups


class _Cut:
    """A connectivity cut: if colour c covers every square of ``group`` (and,
    for a monomino cut, the monomino sits on ``mono`` and is claimed last
    through ``flag``), it also covers one of the squares around the group,
    not counting the monomino's."""

    def __init__(self, c: int, group: list[int], mono: tuple[int, Placement] | None = None, flag=None):
        self.c, self.group, self.mono, self.flag = c, group, mono, flag

    def add_to(self, m: PuzzleModel) -> None:
        t, b, c = m.puzzle.table, m.puzzle.board, self.c
        inside = set(self.group)
        banned = set(t.squares[self.mono[1]]) if self.mono else set()
        around = {n for s in self.group for n in b.king_neighbours(s)
                  if n not in inside and n not in banned and (c, n) in m.covered}
        # set-up squares in the group are covered anyway: they add no literal
        lits = [m.covered[c, s].Not() for s in self.group if (c, s) in m.covered]
        lits += [m.covered[c, n] for n in sorted(around)]
        if self.mono:
            lits.append(m.x[self.mono].Not())
        if self.flag is not None:
            lits.append(self.flag.Not())
        m.model.add_bool_or(lits)


def _violations(m: PuzzleModel, placements, value) -> list[_Cut]:
    """The cuts a solution of the ``cuts`` encoding breaks: groups cut off
    from the root, and groups cut off by the monomino when it must be (or is
    claimed to be) played last."""
    puzzle, t = m.puzzle, m.puzzle.table
    out: list[_Cut] = []
    if puzzle.connect is not Connect.GAME:
        return out
    for c in puzzle.colors:
        cut_off = [_Cut(c, g) for g in _cut_off(m, placements, c)]
        out += cut_off
        flag = m.mono_last.get(c) if not puzzle.monomino_last else None
        claimed = puzzle.monomino_last or (flag is not None and value(flag))
        mono = [(col, p) for col, p in placements if col == c and t.piece[p] == MONOMINO]
        if claimed and mono and not cut_off:
            squares = set(t.squares[mono[0][1]])
            out += [_Cut(c, g, mono[0], flag) for g in _cut_off(m, placements, c, skip=squares)]
    return out


class _Watcher(cp_model.CpSolverSolutionCallback):
    """Collects solutions (counting) and reports objective and bound."""

    def __init__(self, m: PuzzleModel, progress: ProgressCallback | None, collect: bool, start: float):
        super().__init__()
        self.m, self.progress, self.collect, self.start = m, progress, collect, start
        self.solutions: list = []
        self.seen: set = set()

    def on_solution_callback(self) -> None:
        if self.collect:
            sol = self.m.solution(self.boolean_value)
            key = frozenset(sol)
            if key not in self.seen and not _violations(self.m, sol, self.boolean_value):
                self.seen.add(key)
                self.solutions.append(sol)
        if self.progress:
            text = f"{len(self.solutions)} solutions" if self.collect else "solution found"
            if self.m.objective is not None:
                text = f"objective {int(self.objective_value)} bound {int(self.best_objective_bound)}"
            self.progress(Progress(time.monotonic() - self.start, self.num_branches, text))


def solve(
    puzzle: Puzzle,
    time_limit: float | None = 60.0,
    workers: int = 0,
    seed: int = 0,
    params: str = "",
    encoding: str = "auto",
    count: bool = False,
    hint: list[tuple[int, Placement]] | None = None,
    progress: ProgressCallback | None = None,
    symmetric: bool = False,
) -> SolveResult:
    """Solve a puzzle with CP-SAT. ``params`` is a text of extra CP-SAT
    parameters (``"num_workers:4,random_seed:3"``); ``workers`` 0 means
    one per core. Statuses map one to one; a place-all puzzle with a
    solution is OPTIMAL."""
    start = time.monotonic()
    counting = count or puzzle.goal is Goal.COUNT
    if counting:
        puzzle = puzzle.with_goal(Goal.COUNT)
        encoding = "cuts"  # auxiliary variables would count a solution many times
    encoding = _encoding(encoding, puzzle)
    # (the symmetric model ties colours to turns: no relabelling there)
    ordered = counting and not symmetric and interchangeable_colours(puzzle) and bool(puzzle.pieces[puzzle.colors[0]])
    first = _first_square(puzzle) if counting and not symmetric else None
    m = build(puzzle, encoding, symmetric, order_colours=ordered, order_board=first)
    solver = cp_model.CpSolver()
    p = solver.parameters
    if workers:
        p.num_workers = workers
    p.random_seed = seed
    if puzzle.goal is Goal.MAXIMIZE:
        # presolve does little on these models and has been seen to leave the
        # bound far off; without it, endgames are proven 1.5-3x sooner
        p.cp_model_presolve = False
    if counting:
        p.enumerate_all_solutions = True
        _exact_cover_search(puzzle, m)
        p.search_branching = cp_model.FIXED_SEARCH
        # measured on tetromino-8x10: long learned clauses, kept few and unminimised
        p.merge_text_format("use_sat_inprocessing:false,minimization_algorithm:NONE,clause_cleanup_period:1000")
    if hint:
        add_hint(m, hint)
        # the hint is complete: presolve would only delay using it
        p.cp_model_presolve = False
    if params and not p.merge_text_format(params):
        raise CpsatError(f"bad CP-SAT parameters {params!r} (expected e.g. 'num_workers:4,random_seed:3')")
    watcher = _Watcher(m, progress, counting, start)
    rounds = 0
    while True:
        if time_limit is not None:
            left = time_limit - (time.monotonic() - start)
            if left <= 0:
                status = cp_model.UNKNOWN
                break
            p.max_time_in_seconds = left
        status = solver.solve(m.model, watcher)
        rounds += 1
        if counting or status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        if encoding != "cuts" or puzzle.connect is not Connect.GAME:
            break
        cuts = _violations(m, m.solution(solver.boolean_value), solver.boolean_value)
        if not cuts:
            break
        for cut in cuts:
            cut.add_to(m)
    stats = {"rounds": rounds, **m.size}
    if rounds:
        stats.update(conflicts=solver.num_conflicts, branches=solver.num_branches)
    result = SolveResult(Status.UNKNOWN, "cpsat", method=f"cp-sat ({encoding})", stats=stats)
    result.nodes = stats.get("branches", 0)
    if status == cp_model.MODEL_INVALID:
        raise CpsatError(f"CP-SAT rejected the model: {m.model.validate()}")
    if counting:
        done = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        found = watcher.solutions
        solutions = _images(puzzle, found, ordered) if ordered or first is not None else found
        n = len(solutions)
        result.status = (Status.OPTIMAL if n else Status.INFEASIBLE) if done else (Status.FEASIBLE if n else Status.UNKNOWN)
        result.solution_count = n
        result.placements = found[0] if found else []
        result.count_complete = done
        stats["found"] = len(found)
        result.solutions = solutions
    elif rounds and status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        result.placements = m.solution(solver.boolean_value)
        if puzzle.goal is Goal.MAXIMIZE:
            result.objective = int(solver.objective_value)
            result.bound = int(solver.best_objective_bound)
            result.status = Status.OPTIMAL if status == cp_model.OPTIMAL else Status.FEASIBLE
        else:
            result.status = Status.OPTIMAL
    elif status == cp_model.INFEASIBLE:
        result.status = Status.INFEASIBLE
    elif puzzle.goal is Goal.MAXIMIZE and m.objective_bound is not None:
        result.bound = m.objective_bound
    result.seconds = time.monotonic() - start
    return result
