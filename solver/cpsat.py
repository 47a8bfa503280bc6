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
from .geometry import COLORS, Board, mask_of, squares_of
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


Literal = cp_model.IntVar
Covering = dict[tuple[int, int], list[tuple[Placement, Literal]]]  # (colour, square) -> its candidates


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
    _check_symmetry_options(puzzle, symmetric, order_colours)
    m = PuzzleModel(puzzle, encoding, cp_model.CpModel())
    game = puzzle.connect is Connect.GAME
    _add_candidates(m)
    by_colour_piece, covering = _index_candidates(m)
    _add_piece_constraints(m, by_colour_piece)
    _add_square_constraints(m, covering)
    _add_covered(m, covering)
    _add_start_squares(m)
    _add_edge_exclusion(m, covering)
    if game and encoding == "levels":
        for c in puzzle.colors:
            _levels(m, c)
    if puzzle.connect is not Connect.FREE:
        _add_corner_contact(m)
    if puzzle.same_shape is not SameShape.NONE:
        _same_shape(m, covering)
    if puzzle.goal is Goal.MAXIMIZE:
        _objective(m, by_colour_piece)
    if order_colours:
        _order_colours(puzzle, m)
    if order_board is not None:
        _order_board(puzzle, m, order_board)
    if symmetric:
        _add_quarter_turn_symmetry(m)
    if game:
        _no_monomino_last_on_root(m)
    return m


def _encoding(name: str, puzzle: Puzzle) -> str:
    """``auto``: levels for maximize (cuts would re-solve to optimality once
    per round of cuts), cuts otherwise (faster on place-all; see
    benchmarks/RESULTS.md)."""
    if name not in ENCODINGS:
        raise CpsatError(f"unknown connectivity encoding {name!r} (known: {', '.join(ENCODINGS)})")
    if name == "auto":
        return "levels" if puzzle.goal is Goal.MAXIMIZE else "cuts"
    return name


def _check_symmetry_options(puzzle: Puzzle, symmetric: bool, order_colours: bool) -> None:
    if symmetric and symmetry_applies(puzzle) is not None:
        raise CpsatError(f"the symmetric model does not apply to {puzzle.name}: {symmetry_applies(puzzle)}")
    if order_colours and (not interchangeable_colours(puzzle) or puzzle.goal is Goal.MAXIMIZE):
        raise CpsatError(f"{puzzle.name}: colours are not interchangeable")


# -- candidates -------------------------------------------------------------------

def _add_candidates(m: PuzzleModel) -> None:
    """One boolean per placement a colour could ever use: inside its region
    (see :func:`_region`) and clear of the same-shape rule's set-up blocks."""
    puzzle, t = m.puzzle, m.puzzle.table
    owned = _owned_starts(puzzle)
    shape_block = _same_shape_blocks(puzzle)
    for c in puzzle.colors:
        if puzzle.connect is Connect.GAME:
            m.root_mask[c] = _root_squares(puzzle, c)
        allowed = m.region[c] = _region(puzzle, c, owned)
        for piece in puzzle.pieces[c]:
            for p in t.by_piece[piece]:
                if t.mask[p] & ~allowed or t.mask[p] & shape_block[piece]:
                    continue
                m.x[c, p] = m.model.new_bool_var(f"x_{COLORS[c]}_{p}")


def _owned_starts(puzzle: Puzzle) -> int:
    """Start squares that belong to one colour alone and that it must cover
    (its only start square, no set-up, pieces to place): no other colour
    may cover them."""
    b = puzzle.board
    owned = 0
    if puzzle.goal is not Goal.MAXIMIZE:
        for c in puzzle.colors:
            if len(b.starts[c]) == 1 and not puzzle.setup_of(c) and puzzle.pieces[c]:
                owned |= b.start_masks[c]
    return owned


def _same_shape_blocks(puzzle: Puzzle) -> list[int]:
    """Per piece, the squares the same-shape rule closes to it: the set-up
    pieces of that shape and the squares next to them."""
    t = puzzle.table
    blocks = [0] * NUM_PIECES
    if puzzle.same_shape is not SameShape.NONE:
        for c in range(4):
            for p in puzzle.setup_of(c):
                around = t.edge[p] | (t.corner[p] if puzzle.same_shape is SameShape.CORNER else 0)
                blocks[t.piece[p]] |= t.mask[p] | around
    return blocks


def _region(puzzle: Puzzle, c: int, owned: int) -> int:
    """The squares colour c may cover: free, not edge-adjacent to its set-up
    pieces, not another colour's owned start square, and (``game`` rule)
    reachable by king moves from its set-up pieces or start squares."""
    b, setup = puzzle.board, puzzle.masks.setup[c]
    allowed = b.open_mask & ~puzzle.masks.taken & ~b.edge_neighbours(setup) & ~(owned & ~b.start_masks[c])
    if puzzle.connect is not Connect.GAME:
        return allowed
    if setup:
        seed = b.corner_neighbours(setup) & allowed
    else:
        seed = (b.start_masks[c] or allowed) & allowed
    return b.king_fill(seed, allowed)


def _root_squares(puzzle: Puzzle, c: int) -> int:
    """Squares where colour c's group surely starts: its set-up pieces, or
    its start square when it has exactly one (0 when the root is open)."""
    setup = puzzle.masks.setup[c]
    if setup:
        return setup
    starts = puzzle.board.starts[c]
    return puzzle.board.start_masks[c] if len(starts) == 1 else 0


def _index_candidates(m: PuzzleModel) -> tuple[dict[tuple[int, int], list[Literal]], Covering]:
    """The candidates by (colour, piece), and by (colour, square covered)."""
    t = m.puzzle.table
    by_colour_piece: dict[tuple[int, int], list[Literal]] = {}
    covering: Covering = {}
    for (c, p), v in m.x.items():
        by_colour_piece.setdefault((c, t.piece[p]), []).append(v)
        for s in t.squares[p]:
            covering.setdefault((c, s), []).append((p, v))
    return by_colour_piece, covering


# -- the rules ----------------------------------------------------------------------

def _add_piece_constraints(m: PuzzleModel, by_colour_piece: dict[tuple[int, int], list[Literal]]) -> None:
    """Each piece of a colour at most once; exactly once for place-all (a
    piece that fits nowhere makes the model infeasible)."""
    puzzle, model = m.puzzle, m.model
    for c in puzzle.colors:
        for piece in puzzle.pieces[c]:
            vs = by_colour_piece.get((c, piece), [])
            if puzzle.goal is not Goal.MAXIMIZE:
                if not vs:
                    model.add_bool_or([])
                else:
                    model.add_exactly_one(vs)
            elif vs:
                model.add_at_most_one(vs)


def _add_square_constraints(m: PuzzleModel, covering: Covering) -> None:
    """Each square covered at most once; exactly once if it is a star, or
    if the puzzle is a fill (place-all with no spare squares)."""
    puzzle, model, b = m.puzzle, m.model, m.puzzle.board
    fill = puzzle.goal is not Goal.MAXIMIZE and puzzle.spare_squares == 0
    must = puzzle.masks.stars & ~puzzle.masks.taken | (puzzle.masks.free if fill else 0)
    for s in range(b.size):
        vs = [v for c in puzzle.colors for _, v in covering.get((c, s), [])]
        if must >> s & 1:
            model.add_exactly_one(vs) if vs else model.add_bool_or([])
        elif len(vs) > 1:
            model.add_at_most_one(vs)


def _add_covered(m: PuzzleModel, covering: Covering) -> None:
    """The literal covered(c, s), colour c covers square s: the placement
    itself when only one can, else a boolean equal to their sum."""
    for (c, s), pvs in covering.items():
        if len(pvs) == 1:
            m.covered[c, s] = pvs[0][1]
        else:
            v = m.model.new_bool_var(f"cov_{COLORS[c]}_{s}")
            m.model.add(v == sum(x for _, x in pvs))
            m.covered[c, s] = v


def _add_start_squares(m: PuzzleModel) -> None:
    """A colour with start squares (and no set-up piece on one) covers one:
    always when it must place pieces or has set-up pieces, else as soon as
    it places any."""
    puzzle, model, b = m.puzzle, m.model, m.puzzle.board
    setup_sq = puzzle.masks.setup
    for c in puzzle.colors:
        if not b.starts[c] or setup_sq[c] & b.start_masks[c]:
            continue
        starts = [m.covered[c, s] for s in b.starts[c] if (c, s) in m.covered]
        if puzzle.goal is not Goal.MAXIMIZE and puzzle.pieces[c] or setup_sq[c]:
            model.add_bool_or(starts)
        else:
            for (col, p), v in m.x.items():
                if col == c:
                    model.add_bool_or([v.Not()] + starts)


def _add_edge_exclusion(m: PuzzleModel, covering: Covering) -> None:
    """Same-colour edge exclusion, one at-most-one per pair of edge-adjacent
    squares: of the placements covering one square but not the other, at
    most one (a set-up square counts as covered)."""
    puzzle, model, t, b = m.puzzle, m.model, m.puzzle.table, m.puzzle.board
    setup_sq = puzzle.masks.setup
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


def _add_corner_contact(m: PuzzleModel) -> None:
    """A placement only with one of its corner squares covered by its colour
    (the ``touch`` rule; necessary for ``game``, where the root piece is
    exempt). Under ``touch`` each set-up piece touches one too."""
    puzzle, t = m.puzzle, m.puzzle.table
    game = puzzle.connect is Connect.GAME
    setup_sq = puzzle.masks.setup
    for (c, p), v in m.x.items():
        corners = t.corner[p]
        if corners & setup_sq[c]:
            continue  # touches a set-up piece of its colour
        if game and t.mask[p] & m.root_mask.get(c, 0):
            continue  # the root piece
        lits = _corner_literals(m, c, corners)
        if game and not m.root_mask.get(c):
            # no fixed root: the root piece (or a lone piece) touches nothing
            if m.encoding != "levels":
                continue
            lits += [m.roots[c, sq] for sq in t.squares[p] if (c, sq) in m.roots]
        m.model.add_bool_or([v.Not()] + lits)
    if puzzle.connect is Connect.TOUCH:
        for c in puzzle.colors:
            for p in puzzle.setup_of(c):
                if not t.corner[p] & setup_sq[c]:
                    m.model.add_bool_or(_corner_literals(m, c, t.corner[p]))


def _corner_literals(m: PuzzleModel, c: int, corners: int) -> list[Literal]:
    return [m.covered[c, n] for n in squares_of(corners) if (c, n) in m.covered]


def _add_quarter_turn_symmetry(m: PuzzleModel) -> None:
    """A placement is chosen exactly when its quarter-turned image is, in
    the next colour (blue -> yellow -> red -> green -> blue)."""
    turn = quarter_turn_placements(m.puzzle)
    for (c, p), v in m.x.items():
        image = m.x.get(((c + 1) % 4, turn[p]))
        m.model.add(v == image) if image is not None else m.model.add_bool_or([v.Not()])


def _no_monomino_last_on_root(m: PuzzleModel) -> None:
    """A monomino on the root square is played first, so it is never last
    (for a colour with more than one piece)."""
    puzzle, t = m.puzzle, m.puzzle.table
    for c in puzzle.colors:
        root = m.root_mask.get(c, 0)
        if not root or len(puzzle.pieces[c]) + len(puzzle.setup_of(c)) < 2:
            continue
        for (col, p), v in m.x.items():
            if col == c and t.piece[p] == MONOMINO and t.mask[p] & root:
                if puzzle.monomino_last:
                    m.model.add_bool_or([v.Not()])
                elif c in m.mono_last:
                    m.model.add_bool_or([v.Not(), m.mono_last[c].Not()])


# -- counting -----------------------------------------------------------------------

def _order_colours(puzzle: Puzzle, m: PuzzleModel) -> None:
    """Colours in order of first appearance: colour k covers a square only
    if colour k-1 covers an earlier one. Every colour covers some square and
    no square has two colours, so one relabelling of each solution passes."""
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


def _same_shape(m: PuzzleModel, covering: Covering) -> None:
    """The same-shape rule: two pieces of one shape in different colours
    never cover edge-adjacent squares (or corner-adjacent, under
    ``corner``)."""
    puzzle, model, t, b = m.puzzle, m.model, m.puzzle.table, m.puzzle.board
    by_piece: dict[tuple[int, int, int], list[Literal]] = {}
    for (c, s), pvs in covering.items():
        for p, v in pvs:
            by_piece.setdefault((t.piece[p], c, s), []).append(v)
    for (piece, c, s), vs in by_piece.items():
        near = b.edge_neighbours(1 << s)
        if puzzle.same_shape is SameShape.CORNER:
            near |= b.corner_neighbours(1 << s)
        for n in squares_of(near):
            for d in puzzle.colors:
                if d <= c:
                    continue
                ws = by_piece.get((piece, d, n))
                if ws:
                    # a piece of this shape in colour c on s, and one in d on n
                    model.add(sum(vs) + sum(ws) <= 1)


# -- connectivity: levels ------------------------------------------------------------

def _levels(m: PuzzleModel, c: int) -> None:
    """Square-level connectivity for colour c (the ``levels`` encoding):
    each covered square that is not a root has a covered king-neighbour of
    lower level, its parent."""
    b = m.puzzle.board
    setup = m.puzzle.masks.setup[c]
    squares = [s for s in squares_of(m.region.get(c, 0)) if (c, s) in m.covered]
    if not squares and not setup:
        return
    if setup:
        # one group of set-up pieces is the root; other groups must be joined
        m.root_mask[c] = b.king_fill(setup & -setup, setup)
    root = m.root_mask.get(c, 0)
    given = setup & ~root  # set-up squares that still need a parent
    nodes = squares + list(squares_of(given))
    mono_flag = _monomino_last_flag(m, c)
    _add_level_vars(m, c, nodes, root, given)
    if not root:
        _add_root_choice(m, c, squares)
    _add_parents(m, c, nodes, root, given, mono_flag)


def _monomino_last_flag(m: PuzzleModel, c: int) -> Literal | None:
    """The objective's "colour c places its monomino last" boolean, made
    here because the parents depend on it (None when it earns no bonus)."""
    puzzle = m.puzzle
    if puzzle.goal is Goal.MAXIMIZE and c in puzzle.target and MONOMINO in puzzle.pieces[c]:
        m.mono_last[c] = m.model.new_bool_var(f"monolast_{COLORS[c]}")
        return m.mono_last[c]
    return None


def _add_level_vars(m: PuzzleModel, c: int, nodes: list[int], root: int, given: int) -> None:
    """A level per node, at least its king distance from a fixed root."""
    puzzle, model = m.puzzle, m.model
    setup = puzzle.masks.setup[c]
    dist = _king_distances(puzzle.board, root, m.region.get(c, 0) | setup) if root else {}
    # a chain of parents from the root passes only through squares the colour
    # still covers or set-up squares outside the root: levels never exceed
    # their number, and squares farther away than that stay empty
    horizon = min(len(nodes), sum(PIECE_SIZES[i] for i in puzzle.pieces[c]) + given.bit_count()) + 1
    for s in nodes:
        lo = dist.get(s, horizon) if root else 0
        m.levels[c, s] = model.new_int_var(min(lo, horizon), horizon, f"lvl_{COLORS[c]}_{s}")
        cov = m.covered.get((c, s))
        if lo >= horizon and cov is not None:
            model.add_bool_or([cov.Not()])


def _king_distances(b: Board, roots: int, region: int) -> dict[int, int]:
    """King-move distance from ``roots`` to each square of ``region`` it reaches."""
    dist = {s: 0 for s in squares_of(roots)}
    queue = deque(dist)
    while queue:
        s = queue.popleft()
        for n in b.king_neighbours(s):
            if n not in dist and region >> n & 1:
                dist[n] = dist[s] + 1
                queue.append(n)
    return dist


def _add_root_choice(m: PuzzleModel, c: int, squares: list[int]) -> None:
    """No fixed root (no set-up, not one start square): at most one root
    square, of level 0, on a start square when the colour has several;
    exactly one when it must place pieces."""
    puzzle, model = m.puzzle, m.model
    starts = puzzle.board.start_masks[c]
    for s in squares:
        if starts and not starts >> s & 1:
            continue
        m.roots[c, s] = r = model.new_bool_var(f"root_{COLORS[c]}_{s}")
        model.add_implication(r, m.covered[c, s])
        model.add(m.levels[c, s] == 0).only_enforce_if(r)
    roots = [m.roots[c, s] for s in squares if (c, s) in m.roots]
    model.add_at_most_one(roots)
    if puzzle.goal is not Goal.MAXIMIZE and puzzle.pieces[c]:
        model.add_exactly_one(roots) if roots else model.add_bool_or([])


def _add_parents(m: PuzzleModel, c: int, nodes: list[int], root: int, given: int, mono_flag: Literal | None) -> None:
    """Each covered node outside the root is a root square or has a parent
    (none is needed next to the root, which is always covered)."""
    t, b = m.puzzle.table, m.puzzle.board
    mono = {t.squares[p][0]: v for (col, p), v in m.x.items() if col == c and t.piece[p] == MONOMINO}
    for s in nodes:
        if root >> s & 1:
            continue
        options = []
        for n in b.king_neighbours(s):
            if root >> n & 1:
                break  # (parents made before this stay in the model, unused)
            if (c, n) in m.covered or given >> n & 1:
                options.append(_parent(m, c, s, n, mono, mono_flag))
        else:
            cov, is_root = m.covered.get((c, s)), m.roots.get((c, s))
            here = [cov.Not()] if cov is not None else []
            m.model.add_bool_or(here + options + ([is_root] if is_root is not None else []))


def _parent(m: PuzzleModel, c: int, s: int, n: int, mono: dict[int, Literal], mono_flag: Literal | None) -> Literal:
    """The literal "n is the parent of s": n covered, of lower level, and
    not the monomino when it is (or is claimed to be) played last."""
    model = m.model
    par = model.new_bool_var(f"par_{COLORS[c]}_{s}_{n}")
    cov = m.covered.get((c, n))
    if cov is not None:
        model.add_implication(par, cov)
    model.add(m.levels[c, n] + 1 <= m.levels[c, s]).only_enforce_if(par)
    if n in mono:
        if m.puzzle.monomino_last:
            model.add_implication(par, mono[n].Not())
        elif mono_flag is not None:
            model.add_bool_or([par.Not(), mono[n].Not(), mono_flag.Not()])
    m.parents[c, s, n] = par
    return par


# -- objective ------------------------------------------------------------------------

def _objective(m: PuzzleModel, by_colour_piece: dict[tuple[int, int], list[Literal]]) -> None:
    """Maximize the target colours' squares placed, or their advanced score
    (minus the squares left in hand, +15 with every piece placed, +20 more
    with the monomino last), between tight bounds."""
    puzzle, model, t = m.puzzle, m.model, m.puzzle.table
    terms = []
    bound = 0
    for c in puzzle.target:
        total = sum(PIECE_SIZES[i] for i in puzzle.pieces[c])
        squares = sum(len(t.squares[p]) * v for (col, p), v in m.x.items() if col == c)
        if puzzle.measure is Measure.SQUARES:
            terms.append(squares)
            bound += total
        else:
            terms.append(squares - total + _bonuses(m, c, by_colour_piece))
            bound += best_bonus(MONOMINO in puzzle.pieces[c])
    m.objective_bound = bound
    in_hand = sum(PIECE_SIZES[i] for c in puzzle.target for i in puzzle.pieces[c])
    lowest = 0 if puzzle.measure is Measure.SQUARES else -in_hand
    value = m.objective = model.new_int_var(lowest, bound, "objective")
    model.add(value == sum(terms))
    model.maximize(value)


def _bonuses(m: PuzzleModel, c: int, by_colour_piece: dict[tuple[int, int], list[Literal]]) -> cp_model.LinearExpr:
    """Colour c's +15 (every piece placed) and +20 (monomino last) as
    booleans (all_placed, mono_last) times the bonus."""
    puzzle, model = m.puzzle, m.model
    everything = m.all_placed[c] = model.new_bool_var(f"all_{COLORS[c]}")
    for piece in puzzle.pieces[c]:
        vs = by_colour_piece.get((c, piece), [])
        model.add(sum(vs) >= 1).only_enforce_if(everything) if vs else model.add_bool_or([everything.Not()])
    bonus = ALL_PLACED_BONUS * everything
    if MONOMINO in puzzle.pieces[c]:
        # (levels made the flag already; under cuts the solve loop checks it)
        mono = m.mono_last.get(c)
        if mono is None:
            mono = m.mono_last[c] = model.new_bool_var(f"monolast_{COLORS[c]}")
        model.add_implication(mono, everything)
        bonus += MONOMINO_LAST_BONUS * mono
    return bonus


# -- hints --------------------------------------------------------------------------

def add_hint(m: PuzzleModel, placements: list[tuple[int, Placement]]) -> None:
    """Hint a complete solution: the placements and a value for every
    auxiliary variable derived from them (a partial hint barely helps)."""
    puzzle, t = m.puzzle, m.puzzle.table
    m.model.clear_hints()
    chosen = set(placements)
    values: dict[Literal, int | bool] = {}
    for key, v in m.x.items():
        values[v] = key in chosen
    covered = {(c, s) for c, p in placements for s in t.squares[p]}
    for key, v in m.covered.items():
        values[v] = key in covered
    for c in puzzle.colors:
        _hint_levels(m, c, placements, covered, values)
    for c, v in m.all_placed.items():
        values[v] = all(any(col == c and t.piece[p] == i for col, p in placements) for i in puzzle.pieces[c])
    for c, v in m.mono_last.items():
        values[v] = bool(values.get(m.all_placed.get(c), False)) and _monomino_last_possible(puzzle, c, placements)
    if m.objective is not None:
        from .verify import verify

        values[m.objective] = verify(puzzle, placements).objective
    for v, val in values.items():
        m.model.add_hint(v, int(val))


def _hint_levels(m: PuzzleModel, c: int, placements: list[tuple[int, Placement]], covered: set[tuple[int, int]],
                 values: dict[Literal, int | bool]) -> None:
    """Values for colour c's levels, parents and root literals: levels
    breadth first from the root squares (the fixed ones, or the lowest
    covered start square), the monomino last when it must be."""
    puzzle, t, b = m.puzzle, m.puzzle.table, m.puzzle.board
    mine = {s for col, s in covered if col == c}
    fixed = m.root_mask.get(c, 0)
    roots = {s for s in squares_of(fixed)} if fixed else set()
    if not roots and mine:
        starts = b.start_masks[c]
        roots = {min(s for s in mine if not starts or starts >> s & 1)}
    mono = {s for col, p in placements if col == c and t.piece[p] == MONOMINO for s in t.squares[p]}
    level = _breadth_first_levels(puzzle, roots, mine, mono if puzzle.monomino_last else set())
    for (col, s), v in m.levels.items():
        if col == c:
            hi = v.proto.domain[-1]
            values[v] = min(level.get(s, hi), hi)
    for (col, s, n), v in m.parents.items():
        if col == c:
            values[v] = (s in mine and n in mine and level.get(n, 10**6) < level.get(s, -1)
                         and n not in (mono if puzzle.monomino_last else ()))
    for (col, s), v in m.roots.items():
        if col == c:
            values[v] = s in roots and not fixed


def _breadth_first_levels(puzzle: Puzzle, roots: set[int], mine: set[int], last: set[int]) -> dict[int, int]:
    """Levels of the squares ``mine`` by king moves from ``roots``, never
    going on from a square of ``last`` (the monomino played last), whose
    squares, reached only through themselves, come after all the others."""
    b = puzzle.board
    level = {s: 0 for s in roots}
    queue = deque(roots)
    while queue:
        s = queue.popleft()
        for n in b.king_neighbours(s):
            if n in mine and n not in level and s not in last:
                level[n] = level[s] + 1
                queue.append(n)
    for s in mine - set(level):
        level[s] = 1 + max(level.values(), default=0)
    return level


def _monomino_last_possible(puzzle: Puzzle, c: int, placements: list[tuple[int, Placement]]) -> bool:
    """Whether the placements can be played with colour c's monomino last."""
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
    # (the symmetric model ties colours to turns: no relabelling there)
    ordered = counting and not symmetric and interchangeable_colours(puzzle) and bool(puzzle.pieces[puzzle.colors[0]])
    first = _first_square(puzzle) if counting and not symmetric else None
    m = build(puzzle, encoding, symmetric, order_colours=ordered, order_board=first)
    if counting:
        _exact_cover_search(puzzle, m)
    if hint:
        add_hint(m, hint)
    solver = cp_model.CpSolver()
    _set_parameters(solver.parameters, puzzle, workers, seed, params, counting, bool(hint))
    watcher = _Watcher(m, progress, counting, start)
    status, rounds = _solve_with_cuts(solver, m, watcher, time_limit, start)
    if status == cp_model.MODEL_INVALID:
        raise CpsatError(f"CP-SAT rejected the model: {m.model.validate()}")
    stats = {"rounds": rounds, **m.size}
    if rounds:
        stats.update(conflicts=solver.num_conflicts, branches=solver.num_branches)
    result = SolveResult(Status.UNKNOWN, "cpsat", method=f"cp-sat ({m.encoding})", stats=stats)
    result.nodes = stats.get("branches", 0)
    if counting:
        _read_count(result, puzzle, status, watcher.solutions, ordered, expand=ordered or first is not None)
    else:
        _read_solution(result, m, solver, status, rounds)
    result.seconds = time.monotonic() - start
    return result


def _set_parameters(p, puzzle: Puzzle, workers: int, seed: int, params: str, counting: bool, hinted: bool) -> None:
    """Our defaults for the kind of solve, then the caller's ``params``."""
    if workers:
        p.num_workers = workers
    p.random_seed = seed
    if puzzle.goal is Goal.MAXIMIZE:
        # presolve does little on these models and has been seen to leave the
        # bound far off; without it, endgames are proven 1.5-3x sooner
        p.cp_model_presolve = False
    if counting:
        p.enumerate_all_solutions = True
        p.search_branching = cp_model.FIXED_SEARCH
        # measured on tetromino-8x10: long learned clauses, kept few and unminimised
        p.merge_text_format("use_sat_inprocessing:false,minimization_algorithm:NONE,clause_cleanup_period:1000")
    if hinted:
        # the hint is complete: presolve would only delay using it
        p.cp_model_presolve = False
    if params and not p.merge_text_format(params):
        raise CpsatError(f"bad CP-SAT parameters {params!r} (expected e.g. 'num_workers:4,random_seed:3')")


def _solve_with_cuts(solver: cp_model.CpSolver, m: PuzzleModel, watcher: _Watcher, time_limit: float | None,
                     start: float) -> tuple[int, int]:
    """Solve within what is left of the time limit; under the ``cuts``
    encoding of the ``game`` rule (not when counting: the watcher drops
    disconnected solutions), add the cuts a solution breaks and solve again
    until one breaks none. Returns the CP-SAT status and the number of solves."""
    cutting = not watcher.collect and m.encoding == "cuts" and m.puzzle.connect is Connect.GAME
    rounds = 0
    while True:
        if time_limit is not None:
            left = time_limit - (time.monotonic() - start)
            if left <= 0:
                return cp_model.UNKNOWN, rounds
            solver.parameters.max_time_in_seconds = left
        status = solver.solve(m.model, watcher)
        rounds += 1
        if not cutting or status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return status, rounds
        cuts = _violations(m, m.solution(solver.boolean_value), solver.boolean_value)
        if not cuts:
            return status, rounds
        for cut in cuts:
            cut.add_to(m)


def _read_count(result: SolveResult, puzzle: Puzzle, status: int, found: list, ordered: bool, expand: bool) -> None:
    """Fill in a count: the solutions found, expanded to all their images
    when symmetry was broken; complete when CP-SAT finished."""
    done = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    solutions = _images(puzzle, found, ordered) if expand else found
    n = len(solutions)
    result.status = (Status.OPTIMAL if n else Status.INFEASIBLE) if done else (Status.FEASIBLE if n else Status.UNKNOWN)
    result.solution_count = n
    result.placements = found[0] if found else []
    result.count_complete = done
    result.stats["found"] = len(found)
    result.solutions = solutions


def _read_solution(result: SolveResult, m: PuzzleModel, solver: cp_model.CpSolver, status: int, rounds: int) -> None:
    """Fill in a solve: the placements, and the objective and bound of a
    maximize goal (the model's bound when no solution was found)."""
    maximize = m.puzzle.goal is Goal.MAXIMIZE
    if rounds and status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        result.placements = m.solution(solver.boolean_value)
        if maximize:
            result.objective = int(solver.objective_value)
            result.bound = int(solver.best_objective_bound)
            result.status = Status.OPTIMAL if status == cp_model.OPTIMAL else Status.FEASIBLE
        else:
            result.status = Status.OPTIMAL
    elif status == cp_model.INFEASIBLE:
        result.status = Status.INFEASIBLE
    elif maximize and m.objective_bound is not None:
        result.bound = m.objective_bound
