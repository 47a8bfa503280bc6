"""The compiled waste-budget search (:mod:`.wastekernel`) over a puzzle:
the arrays it starts from, resuming it in chunks of nodes, and its leaves
checked by the verifier. Same tree as :class:`.waste.WasteSearch` (lowest
empty square first, largest pieces first, spare last) with stronger
pruning, at some 250x its node rate; a seed shuffles pieces of equal size
and the colour order, for restarts. ``symmetric``: half-turn symmetric
packings only (:func:`.halfturn.half_turn`), each placement with its
image in the opposite colour: the mode that packed the two-colour
frontier boards (benchmarks/RESULTS.md). ``symmetry``: the same
for any symmetry of order two given as maps of squares and colours (the
mirror of :mod:`.halves`).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Iterator

import numpy as np

from solver.core.geometry import mask_of
from solver.core.pieces import PIECE_SIZES
from solver.core.placements import Placement, PlacementTable
from solver.kernels.tables import PAD, tables, unsupported, words
from solver.packing import wastekernel as kernel
from solver.puzzle.definition import Connect, Goal, Puzzle
from solver.puzzle.edges import perimeter, spare_sides
from solver.puzzle.result import Solution
from solver.puzzle.symmetry import half_turn, half_turn_map
from solver.puzzle.verify import VerificationError, verify
from solver.puzzle.windows import (
    spare_groups,
    window_bound,
    window_count_binds,
    window_slack,
    window_weights,
    windows,
)

MEMO_START_BITS = 20  # the memo table's first size: 2**20 entries (24 MB)


class CompiledWasteSearch:
    """``solutions()`` yields every packing of a place-all puzzle (each once,
    verified) and ``None`` after each chunk of nodes, so a caller can stop.
    ``seed`` None keeps the standard order (blue first, equal-sized pieces
    in index order), any number shuffles it; ``options``: the kernel's
    optional tests (ONLY_ONE, FIT, EDGES: the last only where it holds, one
    colour and no symmetry); ``spread`` > 0 allows at most
    budget * spread * (s + 1) / squares spare squares before square s (a
    heuristic: it loses packings). ``memo`` (one colour, no symmetry, a
    board narrow enough for :func:`memo_window`): the kernel searches
    without the game rule's corner contact (the verifier still checks
    every leaf) and remembers each node it searched through without a
    leaf by its frontier, so a node with the same frontier and hand is
    not searched again; the table starts at 2**20 entries of 24 bytes
    and doubles as it fills, up to 2**``memo_bits``."""

    name = "compiled waste search"

    def __init__(self, puzzle: Puzzle, seed: int | None = None, chunk: int = 200_000,
                 options: int = kernel.ONLY_ONE | kernel.FIT | kernel.EDGES | kernel.WINDOWS, spread: float = 0.0,
                 symmetric: bool = False,
                 symmetry: tuple[list[int], dict[int, int]] | None = None,
                 memo: bool = False, memo_bits: int = 24):
        if puzzle.goal is not Goal.PLACE_ALL:
            raise ValueError(f"{puzzle.name}: the waste search packs place-all puzzles")
        problem = unsupported(puzzle.board)
        if problem:
            raise ValueError(problem)
        self.puzzle, self.chunk, self.options = puzzle, chunk, options
        tb = self.tb = tables(puzzle.board)
        nw, row = tb.n_words, tb.n_words + PAD
        self.colors = [c for c in puzzle.colors if puzzle.pieces.get(c)]
        rng = random.Random(seed) if seed is not None else None
        if rng:
            rng.shuffle(self.colors)
        n_col = len(self.colors)
        listed = {i for c in self.colors for i in puzzle.pieces[c]}
        self._placement_lists(listed, rng)
        self.wit = np.full((n_col, len(tb.piece_size)), -1, dtype=np.int64)
        self._symmetry(self._half_turn() if symmetric else symmetry)
        self.budget = puzzle.spare_squares
        depth = sum(len(puzzle.pieces[c]) for c in self.colors) + max(self.budget, 0) + 2
        self._root_rows(depth, spread)
        self.stars = np.zeros(row, dtype=np.uint64)
        self.stars[:nw] = words(puzzle.masks.stars, nw)
        self.game = puzzle.connect is Connect.GAME
        self.spent = np.zeros(depth, dtype=np.int64)
        self.npieces = np.zeros(depth, dtype=np.int64)
        self.sq = np.zeros(depth, dtype=np.int64)
        self.it = np.zeros(depth, dtype=np.int64)
        self.ch_p = np.zeros(depth, dtype=np.int64)
        self.ch_c = np.zeros(depth, dtype=np.int64)
        self.best_p = np.zeros(depth, dtype=np.int64)
        self.best_c = np.zeros(depth, dtype=np.int64)
        self.rows = np.zeros((8, row), dtype=np.uint64)
        self.seedrow = np.zeros(row, dtype=np.uint64)
        self.buf = np.zeros(16, dtype=np.int64)
        self.ctl = np.zeros(8, dtype=np.int64)
        self.free = np.zeros(row, dtype=np.uint64)
        self.free[:nw] = words(puzzle.masks.free, nw)
        self.edge_budget = spare_sides(puzzle)
        self.perimeter = np.zeros(len(tb.piece_size), dtype=np.int64)  # per piece, for EDGES
        for k in listed:
            if puzzle.table.by_piece[k]:
                self.perimeter[k] = perimeter(puzzle.table, puzzle.table.by_piece[k][0])
        if self.edge_budget is None or self.partner[0] >= 0:
            self.options &= ~kernel.EDGES
        self._windows()
        self._memo(memo, memo_bits, depth)
        self.finished = (self.budget < 0 or (self.edge_budget is not None and self.edge_budget < 0)
                         or (self.win_slack is not None and window_bound(self.puzzle) < 0))

    def _windows(self) -> None:
        """The window count's arrays (WINDOWS, :mod:`solver.puzzle.windows`):
        per square its weight and the windows it lies in (-1 ends a row),
        per window its squares, per spare group its squares (-1 after
        them), the spare squares it holds at least and their least weight.
        Off where it would not bind early (``window_count_binds``), and
        with a partner."""
        b, free = self.puzzle.board, self.puzzle.masks.free
        wanted = self.options & kernel.WINDOWS and self.partner[0] < 0
        self.win_slack = window_slack(self.puzzle) if wanted else None
        self.weight = np.zeros(b.size, dtype=np.int64)
        self.wins_of = np.full((b.size, 4), -1, dtype=np.int64)
        self.wsq = np.zeros((1, 4), dtype=np.int64)
        self.groups = np.zeros((0, 6), dtype=np.int64)
        self.gneed = np.zeros((0, 2), dtype=np.int64)
        if self.win_slack is None or not window_count_binds(self.puzzle):
            self.options &= ~kernel.WINDOWS
            return
        wins = windows(b, free)
        weights = window_weights(b, free, wins)
        for s, k in weights.items():
            self.weight[s] = k
        if wins:
            self.wsq = np.array(wins, dtype=np.int64)
        for i, w in enumerate(wins):
            for s in w:
                self.wins_of[s, list(self.wins_of[s]).index(-1)] = i
        groups = spare_groups(self.puzzle)
        if groups:
            self.groups = np.full((len(groups), max(len(g) for g, _, _ in groups)), -1, dtype=np.int64)
            for i, (g, _, _) in enumerate(groups):
                self.groups[i, :len(g)] = g
            self.gneed = np.array([(need, least) for _, need, least in groups], dtype=np.int64)

    def _memo(self, wanted: bool, bits: int, depth: int) -> None:
        """The kernel's memo of dead frontiers (see the class), where it is
        sound: one colour, no symmetry, a window of at most 128 squares.
        Without the game rule's corner contact the kernel searches a
        relaxation (its leaves are verified), so the colour's one start
        square, if it has one and no set-up, must still be covered."""
        self.kernel_game = self.game
        self.mparam = memo_window(self.puzzle) if wanted else None
        if self.mparam is None or len(self.colors) != 1 or self.partner[0] >= 0:
            self.memo_table = np.zeros((4, 3), dtype=np.uint64)
            self.mkey = np.zeros((1, 4), dtype=np.uint64)
            self.mparam = np.zeros(2, dtype=np.int64)
            self.options &= ~kernel.MEMO
            return
        self.options |= kernel.MEMO
        self.memo_stores = 0  # stores when the table last grew
        self.kernel_game = False
        c, b = self.colors[0], self.puzzle.board
        if len(b.starts[c]) == 1 and not self.puzzle.setup_of(c):
            self.stars[:self.tb.n_words] |= words(b.start_masks[c], self.tb.n_words)
        self.memo_table = np.zeros((1 << min(max(bits, 2), MEMO_START_BITS), 3), dtype=np.uint64)
        self.memo_most = 1 << max(bits, 2)
        self.mkey = np.zeros((depth, 4), dtype=np.uint64)

    def _grow_memo(self) -> None:
        """Double the memo table once it has taken as many stores as it has
        entries since it last grew (up to 2**memo_bits entries)."""
        size = self.memo_table.shape[0]
        if size >= self.memo_most or self.ctl[kernel.C_MEMO_STORES] - self.memo_stores < size:
            return
        table = np.zeros((2 * size, 3), dtype=np.uint64)
        kernel.memo_rehash(self.memo_table, table)
        self.memo_table, self.memo_stores = table, int(self.ctl[kernel.C_MEMO_STORES])

    def _placement_lists(self, listed: set[int], rng: random.Random | None) -> None:
        """The placements of the listed pieces by first square (biggest
        pieces first, ties in the seed's order), and per piece by first
        square: pfrom[k, s] is the first with first square s or later,
        pfrom[k, -1] the end of its run."""
        b, t, tb = self.puzzle.board, self.puzzle.table, self.tb
        per_square: list[list[int]] = [[] for _ in range(b.size)]
        for p, sqs in enumerate(t.squares):
            if t.piece[p] in listed:
                per_square[sqs[0]].append(p)
        tie = {i: (rng.random() if rng else i) for i in listed}
        for ps in per_square:
            ps.sort(key=lambda p: (-PIECE_SIZES[t.piece[p]], tie[t.piece[p]], p))
        self.first_start = np.zeros(b.size + 1, dtype=np.int64)
        np.cumsum([len(ps) for ps in per_square], out=self.first_start[1:])
        self.first_list = np.array([p for ps in per_square for p in ps], dtype=np.int64)
        n_pieces = len(tb.piece_size)
        by_piece = [sorted((t.squares[p][0], p) for p in t.by_piece[k]) if k in listed else [] for k in range(n_pieces)]
        self.plist = np.array([p for run in by_piece for _, p in run], dtype=np.int64)
        self.pfrom = np.zeros((n_pieces, b.size + 1), dtype=np.int64)
        at = 0
        for k, run in enumerate(by_piece):
            firsts = [f for f, _ in run]
            self.pfrom[k] = at + np.searchsorted(np.array(firsts, dtype=np.int64), np.arange(b.size + 1))
            at += len(run)

    def _half_turn(self) -> tuple[list[int], dict[int, int]]:
        found = half_turn(self.puzzle)
        if isinstance(found, str):
            raise ValueError(f"{self.puzzle.name}: no half-turn symmetry: {found}")
        return half_turn_map(self.puzzle), found[1]

    def _symmetry(self, symmetry: tuple[list[int], dict[int, int]] | None) -> None:
        """Each placement's and square's image under ``symmetry`` (square
        map, colour map: an involution whose image of a placement is a
        placement of the same piece for the partner colour; -1 for one that
        meets its own image), and each colour's partner; placeholders when
        there is no symmetry."""
        t = self.puzzle.table
        self.img_p = np.full(1, -1, dtype=np.int64)
        self.partner = np.full(len(self.colors), -1, dtype=np.int64)
        self.img_sq = np.zeros(1, dtype=np.int64)
        if symmetry is None:
            return
        square_map, cmap = symmetry
        self.img_p = _placement_images(t, tuple(square_map))
        self.partner = np.array([self.colors.index(cmap[c]) for c in self.colors], dtype=np.int64)
        self.img_sq = np.array(square_map, dtype=np.int64)

    def _root_rows(self, depth: int, spread: float) -> None:
        """Row 0 of the search stack (each colour's forbidden and occupied
        squares, hand and squares left, start squares; the empty squares),
        and the spare squares allowed before each square."""
        puzzle, b = self.puzzle, self.puzzle.board
        nw, row, n_col = self.tb.n_words, self.tb.n_words + PAD, len(self.colors)
        masks = puzzle.masks
        closed = b.full_mask & ~masks.free
        owned = [0] * 4  # a colour that must start on its one start square owns it
        for c in self.colors:
            if len(b.starts[c]) == 1 and not puzzle.setup_of(c):
                owned[c] = b.start_masks[c]
        self.forb = np.zeros((depth, n_col, row), dtype=np.uint64)
        self.occ = np.zeros((depth, n_col, row), dtype=np.uint64)
        self.empty = np.zeros((depth, row), dtype=np.uint64)
        self.hand = np.zeros((depth, n_col), dtype=np.int64)
        self.left = np.zeros((depth, n_col), dtype=np.int64)
        self.starts = np.zeros((n_col, row), dtype=np.uint64)
        self.has_start = np.zeros(n_col, dtype=np.int64)
        for i, c in enumerate(self.colors):
            others = 0
            for o in self.colors:
                if o != c:
                    others |= owned[o]
            self.forb[0, i, :nw] = words(closed | b.edge_neighbours(masks.setup[c]) | others, nw)
            self.occ[0, i, :nw] = words(masks.setup[c], nw)
            self.hand[0, i] = mask_of(puzzle.pieces[c])
            self.left[0, i] = sum(PIECE_SIZES[k] for k in puzzle.pieces[c])
            self.starts[i, :nw] = words(b.start_masks[c], nw)
            self.has_start[i] = 1 if b.start_masks[c] else 0
        self.empty[0, :nw] = words(masks.free, nw)
        self.allow = np.full(b.size, max(self.budget, 0), dtype=np.int64)
        if spread:
            for s in range(b.size):
                self.allow[s] = min(self.budget, int(self.budget * spread * (s + 1) / b.size))

    @property
    def nodes(self) -> int:
        return int(self.ctl[2])

    @property
    def deepest(self) -> int:
        """Most pieces placed at a node so far."""
        return int(self.ctl[3])

    def _path(self, ps: np.ndarray, cs: np.ndarray, n: int) -> Solution:
        out = [(self.colors[int(cs[i])], int(ps[i])) for i in range(n) if ps[i] >= 0]
        if self.partner[0] >= 0:  # and the images
            out += [(self.colors[int(self.partner[int(cs[i])])], int(self.img_p[ps[i]])) for i in range(n) if ps[i] >= 0]
        return out

    def best_partial(self) -> Solution:
        """The deepest node so far as a partial packing: under the ``game``
        rule only each colour's pieces joined to its start (the search
        fills square by square, so some may not be joined yet)."""
        path = self._path(self.best_p, self.best_c, int(self.ctl[4]))
        if not self.game:
            return path
        return [cp for c in self.colors for cp in _joined(self.puzzle, c, [p for col, p in path if col == c])]

    def step(self, max_nodes: int) -> Solution | None:
        """Search on for up to max_nodes nodes; a verified packing if one
        was met (call again to go on), else None (see ``finished``). The
        nodes of leaves the verifier turns down count against max_nodes,
        so a call ends even where most leaves break a rule the kernel
        does not prune."""
        tb = self.tb
        end = self.nodes + max_nodes
        while not self.finished and self.nodes < end:
            code = kernel.run(
                tb.mask_word, tb.mask, tb.ring_word, tb.edge, tb.piece, tb.size, self.first_start, self.first_list,
                self.stars, self.allow, self.starts, self.has_start, self.kernel_game, self.budget, tb.piece_size,
                tb.neighbour, tb.not_left, tb.not_right, tb.width, tb.n_words, self.forb, self.occ, self.empty,
                self.hand, self.left, self.spent, self.npieces, self.sq, self.it, self.ch_p, self.ch_c, self.best_p,
                self.best_c, self.rows, self.seedrow, self.buf, self.options, self.pfrom, self.plist, self.wit,
                self.img_p, self.partner, self.img_sq, self.free, self.edge_budget or 0, self.perimeter,
                self.win_slack or 0, self.weight, self.wins_of, self.wsq, self.groups, self.gneed,
                self.memo_table, self.mkey, self.mparam, self.ctl, end - self.nodes)
            if self.options & kernel.MEMO:
                self._grow_memo()
            if code == kernel.DONE:
                self.finished = True
            elif code == kernel.LEAF:
                sol = self._path(self.ch_p, self.ch_c, int(self.ctl[0]))
                try:
                    verify(self.puzzle, sol)
                except VerificationError:
                    continue  # a rule the kernel does not prune (touch, same shape, monomino last)
                return sol
            else:
                return None
        return None

    def solutions(self) -> Iterator[Solution | None]:
        while not self.finished:
            sol = self.step(self.chunk)
            yield sol


def memo_window(puzzle: Puzzle) -> np.ndarray | None:
    """(back, bits) of the kernel's frontier key on this board: the
    squares from s - back on that decide a node whose lowest empty square
    is s (the farthest an edge reaches back, and a placement ahead from
    its first square), or None where they exceed the key's 128 bits."""
    tb, t = tables(puzzle.board), puzzle.table
    back = max((s - int(u) for s in range(puzzle.board.size) for u in tb.neighbour[s] if 0 <= u < s), default=1)
    ahead = max((max(sqs) - min(sqs) for sqs in t.squares), default=0)
    bits = back + max(ahead, back)
    return np.array([back, bits], dtype=np.int64) if bits <= 128 else None


@lru_cache(maxsize=8)
def _placement_images(t: PlacementTable, square_map: tuple[int, ...]) -> np.ndarray:
    """Each placement's image under a square map, -1 for one that meets
    its image (computed once per table and map: restarts build searches
    again and again)."""
    images = (t.find(square_map[s] for s in t.squares[p]) for p in range(len(t)))
    return np.array([-1 if q is None or t.mask[p] & t.mask[q] else q for p, q in enumerate(images)], dtype=np.int64)


def _joined(puzzle: Puzzle, c: int, mine: list[Placement]) -> list[tuple[int, Placement]]:
    """Colour c's placements joined by corner contact to its set-up pieces
    or, failing those, to a start square (any piece without starts)."""
    t, b = puzzle.table, puzzle.board
    given = list(puzzle.setup_of(c))
    if given:
        group = set(given)
    elif b.start_masks[c]:
        group = {p for p in mine if t.mask[p] & b.start_masks[c]}
    else:
        group = set(mine[:1])
    grown = True
    while grown:
        grown = False
        for p in mine:
            if p not in group and any(t.corner[p] & t.mask[q] for q in group):
                group.add(p)
                grown = True
    return [(c, p) for p in mine if p in group]


class Restarts:
    """A search started again with another order every ``every`` nodes
    (below a deep start the search thrashes): run i is ``make(i)`` and
    searches space ``i % spaces``; runs of one space differ in their order
    only, so a run that ends has searched its space through, and
    ``finished`` says every space has been. The interface of one search
    (step, nodes, deepest, best_partial, finished); ``index`` is the
    current run's i."""

    name = "compiled waste search"

    def __init__(self, make, every: int, spaces: int = 1, name: str | None = None):
        self.make, self.every, self.spaces = make, every, spaces
        if name is not None:
            self.name = name
        self.index = 0
        self.run = make(0)
        self.exhausted: set[int] = set()
        self._nodes = self._deepest = 0  # of the runs before
        self._best: Solution = []

    @property
    def finished(self) -> bool:
        return len(self.exhausted) == self.spaces

    @property
    def nodes(self) -> int:
        return self._nodes + self.run.nodes

    @property
    def deepest(self) -> int:
        return max(self._deepest, self.run.deepest)

    def best_partial(self) -> Solution:
        return max(self._best, self.run.best_partial(), key=len)

    def step(self, max_nodes: int) -> Solution | None:
        """As CompiledWasteSearch.step; the next run once this one has had
        its nodes or has ended."""
        sol = self.run.step(max_nodes)
        if sol is None and not self.finished and (self.run.finished or self.run.nodes >= self.every):
            if self.run.finished:
                self.exhausted.add(self.index % self.spaces)
            later = range(self.index + 1, self.index + 1 + self.spaces)
            nxt = next((i for i in later if i % self.spaces not in self.exhausted), None)
            if nxt is not None:  # (else every space is searched through: the last run stays)
                self._best, self._nodes, self._deepest = self.best_partial(), self.nodes, self.deepest
                self.index, self.run = nxt, self.make(nxt)
        return sol
