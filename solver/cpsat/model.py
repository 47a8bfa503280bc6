"""The CP-SAT model of a puzzle's rules (:func:`build`):

- one boolean per candidate placement of a colour (see candidates.py): on
  the board, on no blocked, set-up or must-stay-empty square, not
  edge-adjacent to the colour's set-up pieces and (``game`` rule) at the
  end of a chain of placements from its root;
- each piece of a colour used at most once (exactly once for place-all);
  each square covered at most once (exactly once when the puzzle has no
  spare squares); star squares at least once;
- same-colour edge exclusion, one at-most-one per pair of edge-adjacent
  squares: of the pieces covering one square but not the other, at most one;
- a placement is chosen only if one of its corner squares is covered by its
  colour (the ``touch`` rule, and a cheap necessary condition of ``game``);
- connectivity for ``game``, as levels (see connectivity.py; the ``cuts``
  encoding adds nothing here);
- the edge budget (see solver/puzzle/edges.py) for place-all and counting,
  and for one colour the window count (see solver/puzzle/windows.py);
- the same-shape rule, monomino-last (the monomino's squares are never a
  parent), and the maximize objective (squares placed, or the advanced
  score with +15 / +20 bonuses), with tight bounds;
- for counting and the symmetric mode, the symmetry constraints (see
  counting.py).
"""

from __future__ import annotations

import numpy as np
from ortools.sat.python import cp_model

from solver.core.geometry import COLORS, squares_of
from solver.core.pieces import MONOMINO, PIECE_SIZES
from solver.core.scoring import ALL_PLACED_BONUS, MONOMINO_LAST_BONUS, best_bonus
from solver.cpsat.candidates import CHAIN_LIMIT, add_candidates, chained
from solver.cpsat.connectivity import add_levels
from solver.cpsat.counting import add_board_order, add_color_order
from solver.cpsat.encoding import Encoding
from solver.cpsat.variables import BoolVar, Covering, CpsatError, PuzzleModel
from solver.options import choice
from solver.puzzle.definition import Connect, Goal, Measure, Puzzle, SameShape
from solver.puzzle.edges import capacity, degrees, inside_edges, leaning, outside_sides, sides, spare_sides, weight
from solver.puzzle.symmetry import interchangeable_colors, turn_symmetry
from solver.puzzle.windows import (
    spare_groups,
    window_bound,
    window_count_binds,
    window_slack,
    window_weights,
    windows,
)


def build(
    puzzle: Puzzle, encoding: Encoding | str = Encoding.AUTO, symmetric: bool = False, order_colors: bool = False,
    order_board: int | None = None, monomino_chains: bool = True,
) -> PuzzleModel:
    """Build the CP-SAT model of a puzzle (no solving, no printing). With
    ``symmetric``, only solutions that the puzzle's turn maps onto
    themselves are allowed (the quarter turn with the colours shifted, blue
    -> yellow -> red -> green, else the half turn with opposite colours
    swapped);
    with ``order_colours`` (interchangeable colours only) at least one
    solution of each class of colour relabellings, and with ``order_board``
    (a square every solution covers) of each class of turns and mirrors.
    ``monomino_chains`` off leaves out the monomino-last chains (for the
    benchmark that measures them)."""
    encoding = _encoding(encoding, puzzle)
    _check_symmetry_options(puzzle, symmetric, order_colors)
    m = PuzzleModel(puzzle, encoding, cp_model.CpModel(), monomino_chains=monomino_chains)
    game = puzzle.connect is Connect.GAME
    add_candidates(m)
    by_color_piece, covering = _index_candidates(m)
    _add_piece_constraints(m, by_color_piece)
    _add_square_constraints(m, covering)
    _add_covered(m, covering)
    _add_start_squares(m)
    _add_edge_exclusion(m, covering)
    if game and encoding is Encoding.LEVELS:
        for c in puzzle.colors:
            add_levels(m, c)
    if puzzle.connect is not Connect.FREE:
        _add_corner_contact(m)
    if puzzle.same_shape is not SameShape.NONE:
        _add_same_shape(m, covering)
    if puzzle.goal is Goal.MAXIMIZE:
        _add_objective(m, by_color_piece)
    else:
        _add_edge_budget(m)
        _add_spare_sides(m)
        _add_window_count(m)
    if order_colors:
        add_color_order(m)
    if order_board is not None:
        add_board_order(m, order_board)
    if symmetric:
        tie_images(m, *turn_symmetry(puzzle))
    if game:
        _no_monomino_last_on_root(m)
    if puzzle.monomino_last:
        _monomino_ends_every_order(m, by_color_piece)
    return m


def _encoding(name: Encoding | str, puzzle: Puzzle) -> Encoding:
    """``auto``: levels for maximize (cuts would re-solve to optimality once
    per round of cuts), cuts otherwise (faster on place-all; see
    benchmarks/RESULTS.md)."""
    encoding = choice(Encoding, name, "connectivity encoding", error=CpsatError)
    if encoding is Encoding.AUTO:
        return Encoding.LEVELS if puzzle.goal is Goal.MAXIMIZE else Encoding.CUTS
    return encoding


def _check_symmetry_options(puzzle: Puzzle, symmetric: bool, order_colors: bool) -> None:
    """Refuse the symmetric model, or the colour order, on a puzzle it does not fit."""
    if symmetric and isinstance(why := turn_symmetry(puzzle), str):
        raise CpsatError(f"the symmetric model does not apply to {puzzle.name}: {why}")
    if order_colors and (not interchangeable_colors(puzzle) or puzzle.goal is Goal.MAXIMIZE):
        raise CpsatError(f"{puzzle.name}: colours are not interchangeable")


# -- candidates ---------------------------------------------------------------------

def _index_candidates(m: PuzzleModel) -> tuple[dict[tuple[int, int], list[BoolVar]], Covering]:
    """The candidates by (colour, piece), and by (colour, square covered)."""
    t = m.puzzle.table
    by_color_piece: dict[tuple[int, int], list[BoolVar]] = {}
    covering: Covering = {}
    for (c, p), v in m.x.items():
        by_color_piece.setdefault((c, t.piece[p]), []).append(v)
        for s in t.squares[p]:
            covering.setdefault((c, s), []).append((p, v))
    return by_color_piece, covering


# -- the rules ----------------------------------------------------------------------

def _add_piece_constraints(m: PuzzleModel, by_color_piece: dict[tuple[int, int], list[BoolVar]]) -> None:
    """Each piece of a colour at most once; exactly once for place-all (a
    piece that fits nowhere makes the model infeasible)."""
    puzzle, model = m.puzzle, m.model
    for c in puzzle.colors:
        for piece in puzzle.pieces[c]:
            vs = by_color_piece.get((c, piece), [])
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
    proto = m.model.proto
    for (c, s), pvs in covering.items():
        if len(pvs) == 1:
            m.covered[c, s] = pvs[0][1]
        else:
            v = m.model.new_bool_var(f"cov_{COLORS[c]}_{s}")
            # v - sum(x) == 0, written to the proto directly (0.1 s less on solo-21)
            linear = proto.constraints.add().linear
            linear.vars.extend([v.index] + [x.index for _, x in pvs])
            linear.coeffs.extend([1] + [-1] * len(pvs))
            linear.domain.extend([0, 0])
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
    cells (the board's geometry says which: squares or triangles): of the
    placements covering one cell but not the other, at most one (a set-up
    cell counts as covered)."""
    puzzle, model, b = m.puzzle, m.model, m.puzzle.board
    setup_sq = puzzle.masks.setup
    proto = model.proto
    for c in puzzle.colors:
        # the placements covering one square but not the other: differences
        # of the two squares' sets (variable indices; list comprehensions
        # over placement masks took 0.2 s on solo-21)
        on = {s: {v.index for _, v in pvs} for (col, s), pvs in covering.items() if col == c}
        for s in squares_of(m.region.get(c, 0)):
            for n in squares_of(b.edge_neighbours(1 << s) >> (s + 1) << (s + 1)):  # each pair once
                if n not in on and not setup_sq[c] >> n & 1:
                    continue
                here, there = on.get(s, set()), on.get(n, set())
                lits = sorted(here - there) + sorted(there - here)  # (the order of before: s's, then n's)
                if len(lits) > 1:
                    proto.constraints.add().at_most_one.literals.extend(lits)


def _add_corner_contact(m: PuzzleModel) -> None:
    """A placement only with one of its corner squares covered by its colour
    (the ``touch`` rule; necessary for ``game``, where the root piece is
    exempt). Under ``touch`` each set-up piece touches one too."""
    puzzle, t = m.puzzle, m.puzzle.table
    game = puzzle.connect is Connect.GAME
    setup_sq = puzzle.masks.setup
    # in bulk, 0.3 s less on solo-21's 30,000 placements: the corner squares
    # of a placement are the offsets of its corner pattern from its lowest
    # corner square, and the placements sharing a pattern look up their
    # covered(c, n) literals (variable indices) together with numpy
    groups: dict[tuple[int, int], tuple[list[int], list[int]]] = {}  # (colour, pattern) -> placements, lowest squares
    todo = []
    for (c, p), v in m.x.items():
        corners = t.corner[p]
        if corners & setup_sq[c]:
            continue  # touches a set-up piece of its colour
        if game and t.mask[p] & m.root_mask.get(c, 0):
            continue  # the root piece
        if game and not m.root_mask.get(c) and m.encoding is not Encoding.LEVELS:
            continue  # no fixed root: the root piece (or a lone piece) touches nothing
        todo.append((c, p, v))
        if corners:
            low = (corners & -corners).bit_length() - 1
            ps, lows = groups.setdefault((c, corners >> low), ([], []))
            ps.append(p)
            lows.append(low)
    cov = {}
    for c in puzzle.colors:
        cov[c] = np.full(t.board.size, -1, dtype=np.int64)
    for (c, s), lit in m.covered.items():
        cov[c][s] = lit.index
    corner_lits: dict[tuple[int, int], list[int]] = {}
    for (c, pattern), (ps, lows) in groups.items():
        offsets = np.fromiter(squares_of(pattern), dtype=np.int64)
        table = cov[c][np.asarray(lows, dtype=np.int64)[:, None] + offsets[None, :]]
        for p, row in zip(ps, table.tolist()):
            corner_lits[c, p] = [i for i in row if i >= 0]
    proto = m.model.proto
    for c, p, v in todo:
        lits = [-v.index - 1] + corner_lits.get((c, p), [])
        if game and not m.root_mask.get(c):
            lits += [m.roots[c, sq].index for sq in t.squares[p] if (c, sq) in m.roots]
        proto.constraints.add().bool_or.literals.extend(lits)
    if puzzle.connect is Connect.TOUCH:
        for c in puzzle.colors:
            for p in puzzle.setup_of(c):
                if not t.corner[p] & setup_sq[c]:
                    m.model.add_bool_or(_corner_literals(m, c, t.corner[p]))


def _corner_literals(m: PuzzleModel, c: int, corners: int) -> list[BoolVar]:
    """covered(c, n) for the squares n of ``corners`` that colour c can cover."""
    return [m.covered[c, n] for n in squares_of(corners) if (c, n) in m.covered]


def _add_same_shape(m: PuzzleModel, covering: Covering) -> None:
    """The same-shape rule: two pieces of one shape in different colours
    never cover edge-adjacent squares (or corner-adjacent, under
    ``corner``)."""
    puzzle, model, t, b = m.puzzle, m.model, m.puzzle.table, m.puzzle.board
    by_piece: dict[tuple[int, int, int], list[BoolVar]] = {}
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


# -- objective ------------------------------------------------------------------------

def _add_objective(m: PuzzleModel, by_color_piece: dict[tuple[int, int], list[BoolVar]]) -> None:
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
            terms.append(squares - total + _bonuses(m, c, by_color_piece))
            bound += best_bonus(MONOMINO in puzzle.pieces[c])
    m.objective_bound = bound
    in_hand = sum(PIECE_SIZES[i] for c in puzzle.target for i in puzzle.pieces[c])
    lowest = 0 if puzzle.measure is Measure.SQUARES else -in_hand
    value = m.objective = model.new_int_var(lowest, bound, "objective")
    model.add(value == sum(terms))
    model.maximize(value)


def _bonuses(m: PuzzleModel, c: int, by_color_piece: dict[tuple[int, int], list[BoolVar]]) -> cp_model.LinearExpr:
    """Colour c's +15 (every piece placed) and +20 (monomino last) as
    booleans (all_placed, mono_last) times the bonus."""
    puzzle, model = m.puzzle, m.model
    everything = m.all_placed[c] = model.new_bool_var(f"all_{COLORS[c]}")
    for piece in puzzle.pieces[c]:
        vs = by_color_piece.get((c, piece), [])
        model.add(sum(vs) >= 1).only_enforce_if(everything) if vs else model.add_bool_or([everything.Not()])
    bonus = ALL_PLACED_BONUS * everything
    if MONOMINO in puzzle.pieces[c]:
        # (levels made the flag already; under cuts the solve loop checks it)
        mono = m.mono_last.get(c)
        if mono is None:
            mono = m.mono_last[c] = model.new_bool_var(f"monolast_{COLORS[c]}")
        model.add_implication(mono, everything)
        if m.monomino_chains:
            _monomino_last_chains(m, c, mono)
        bonus += MONOMINO_LAST_BONUS * mono
    return bonus


def _monomino_last_chains(m: PuzzleModel, c: int, mono: BoolVar) -> None:
    """With the monomino played last, every other placement of colour c is
    reached from its root by a chain of placements without the monomino
    (candidates.chained on the candidates other than the monomino's): the
    others are off when the flag is on; and when some other piece keeps no
    such candidate, or their squares are fewer than the other pieces need,
    the flag is off (the slow endgames spend seconds refuting
    "every piece placed, the monomino last")."""
    puzzle, t = m.puzzle, m.puzzle.table
    if puzzle.connect is not Connect.GAME:
        return
    others = [p for (col, p) in m.x if col == c and t.piece[p] != MONOMINO]
    if len(others) > CHAIN_LIMIT:
        return
    kept = set(chained(puzzle, c, others))
    union = 0
    for p in kept:
        union |= t.mask[p]
    rest = [i for i in puzzle.pieces[c] if i != MONOMINO]
    pieces = {t.piece[p] for p in kept}
    if any(i not in pieces for i in rest) or union.bit_count() < sum(PIECE_SIZES[i] for i in rest):
        m.model.add_bool_or([mono.Not()])
        return
    for p in others:
        if p not in kept:
            m.model.add_bool_or([m.x[c, p].Not(), mono.Not()])


# -- symmetry and the root's monomino ----------------------------------------------

TIGHT = 0.8  # the edge budget goes into the model when the pieces' leaning bound reaches this share of it


def _add_edge_budget(m: PuzzleModel) -> None:
    """Per colour, its placements' weights within the board's capacity (the
    edge budget of :mod:`solver.puzzle.edges`: redundant, it proves that a
    board is too small for the pieces). Written so that propagation alone
    sees it: each piece's weight as an integer whose least value is its
    lightest placement's, and the weight as the pieces' weight on an open
    plane less the missing sides their squares lean on (at most all of the
    free squares' missing sides)."""
    puzzle, model = m.puzzle, m.model
    t, b = puzzle.table, puzzle.board
    deg = degrees(b)
    room = capacity(b, deg)
    n_sides = sides(b)
    for c in puzzle.colors:
        if leaning(t, puzzle.pieces[c], puzzle.masks.free, deg) < TIGHT * room:
            continue  # far from binding: the constraint would only slow the search
        by_piece: dict[int, list[tuple[BoolVar, int]]] = {}
        for (col, p), v in m.x.items():
            if col == c:
                by_piece.setdefault(t.piece[p], []).append((v, p))
        weights = []
        plane = 0
        for piece, vps in by_piece.items():
            inside = inside_edges(t, vps[0][1])
            terms = [(v, weight(t, p, deg, inside)) for v, p in vps]
            w = model.new_int_var(min(x for _, x in terms), max(x for _, x in terms), f"weight_{COLORS[c]}_{piece}")
            model.add(w == sum(x * v for v, x in terms))
            weights.append(w)
            plane += n_sides * len(t.squares[vps[0][1]]) - inside
        if len(by_piece) < len(puzzle.pieces[c]):
            continue  # a piece with no candidate: the piece constraints rule the puzzle out already
        model.add(sum(weights) <= room)
        lean = [(miss, v) for s in range(b.size) if (v := m.covered.get((c, s))) is not None
                and (miss := n_sides - deg[s])]
        most = sum(x for x, _ in lean)
        leaned = model.new_int_var(0, most, f"leaned_{COLORS[c]}")
        model.add(leaned == sum(x * v for x, v in lean))
        model.add(plane - leaned <= room)


def _add_spare_sides(m: PuzzleModel) -> None:
    """One colour: the edges between two spare squares plus the spare
    squares' sides facing out of the free region, at most their total in
    every packing (:func:`solver.puzzle.edges.spare_sides`), a boolean per
    edge of two free squares that must be on when both are spare. Left out
    where the total leaves the spare squares room enough (at least one
    edge per spare square) for the constraint to bind early."""
    puzzle, model, b = m.puzzle, m.model, m.puzzle.board
    budget = spare_sides(puzzle)
    if budget is None or budget >= puzzle.spare_squares:
        return
    if budget < 0:
        model.add_bool_or([])  # (no packing)
        return
    c = next(c for c in puzzle.colors if puzzle.pieces.get(c))
    free = puzzle.masks.free
    terms = []
    for s in squares_of(free):
        cov = m.covered.get((c, s))
        near = b.edge_neighbours(1 << s)
        out = outside_sides(b, free, s)
        if cov is None:  # a square the colour cannot cover: spare for good
            terms.append(out)
        elif out:
            terms.append(out * (1 - cov))
        for t in squares_of(near & free):
            if t < s:
                continue
            other = m.covered.get((c, t))
            if cov is None and other is None:
                terms.append(1)
                continue
            z = model.new_bool_var("")
            model.add_bool_or([z] + [v for v in (cov, other) if v is not None])  # both spare: z
            terms.append(z)
    model.add(sum(terms) <= budget)


def _add_window_count(m: PuzzleModel) -> None:
    """One colour: its spare squares' weights (4 less the two-by-two
    windows each lies in) plus each window's spare squares beyond two, at
    most the slack of :mod:`solver.puzzle.windows` (an integer per window
    for its crowding), and each spare group's spare squares at least what
    it holds in every packing (an integer per group for its squares'
    weight, at least that many times its least weight, so propagation
    cuts with the bound, not the slack: one colour on 5 x 28 went from
    UNKNOWN after 300 s to INFEASIBLE in seconds). Left out where it
    would not bind early (:func:`solver.puzzle.windows.window_count_binds`)."""
    puzzle, model, b = m.puzzle, m.model, m.puzzle.board
    slack = window_slack(puzzle)
    if slack is None:
        return
    if window_bound(puzzle) < 0:
        model.add_bool_or([])  # (no packing)
        return
    if not window_count_binds(puzzle):
        return
    c = next(c for c in puzzle.colors if puzzle.pieces.get(c))
    free = puzzle.masks.free
    wins = windows(b, free)
    weights = window_weights(b, free, wins)

    def spare(s: int):
        cov = m.covered.get((c, s))
        return 1 if cov is None else 1 - cov

    groups = spare_groups(puzzle)
    grouped = {s for g, _, _ in groups for s in g}
    terms = [weights[s] * spare(s) for s in weights if s not in grouped]
    for g, need, least in groups:
        y = model.new_int_var(need * least, sum(weights[s] for s in g), "")
        model.add(y == sum(weights[s] * spare(s) for s in g))
        terms.append(y)
        model.add(sum(spare(s) for s in g) >= need)
    for w in wins:
        cov = [v for s in w if (v := m.covered.get((c, s))) is not None]
        if len(cov) < 2:
            terms.append(2 - len(cov))  # at least this much crowding whatever is covered
            continue
        z = model.new_int_var(0, 2, "")
        model.add(z + sum(cov) >= 2)
        terms.append(z)
    model.add(sum(terms) <= slack)


def tie_images(m: PuzzleModel, pmap: list, cmap: dict[int, int]) -> None:
    """Only symmetric packings in model ``m``: a placement of colour c is
    chosen exactly when its image ``pmap[p]`` is, in colour ``cmap[c]``
    (see :func:`solver.puzzle.symmetry.turn_symmetry`)."""
    for (c, p), v in m.x.items():
        q = pmap[p]
        image = m.x.get((cmap[c], q)) if q is not None else None
        if image is None:
            m.model.add_bool_or([v.Not()])
        elif (c, p) < (cmap[c], q):
            m.model.add(v == image)


def _monomino_ends_every_order(m: PuzzleModel, by_color_piece: dict[tuple[int, int], list[BoolVar]]) -> None:
    """The monomino-last rule: a colour that places any piece places its
    monomino (last): another piece only with the monomino, and nothing at
    all without the monomino in hand (what the verifier asks; maximize
    puzzles may leave pieces in hand, and placed one without the monomino)."""
    puzzle, model = m.puzzle, m.model
    for c in puzzle.colors:
        mono = by_color_piece.get((c, MONOMINO), []) if MONOMINO in puzzle.pieces[c] else []
        for piece in puzzle.pieces[c]:
            vs = by_color_piece.get((c, piece), [])
            if piece == MONOMINO or not vs:
                continue
            if mono:
                model.add(sum(vs) <= sum(mono))
            else:
                for v in vs:
                    model.add_bool_or([v.Not()])


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
