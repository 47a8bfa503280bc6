"""Game variants, as Pentobi defines them (``libpentobi_base``: Variant,
StartingPoints, Board, PentobiSgfUtil): the board and its starting points,
the colours in play with the names Pentobi shows, the piece set, the
bonuses, who plays which colour, and the SGF property of each colour.

A position always has four colour slots (0..3, play order); a two-colour
game (Duo, Junior) plays slots 0 and 1 and leaves 2 and 3 empty-handed, so
they never move and the engines need no second code path.

=================  ======================  =======  ===================  ==========
variant            ``GM[...]``             colours  players              pieces
=================  ======================  =======  ===================  ==========
``classic``        Blokus                  4        one per colour       21
``classic_2``      Blokus Two-Player       4        blue+red, yell+green 21
``classic_3``      Blokus Three-Player     4        blue, yellow, red;   21
                                                    green is shared
``duo``            Blokus Duo              2        purple, orange       21
``junior``         Blokus Junior           2        green, orange        12 x 2
=================  ======================  =======  ===================  ==========

In the Three-Player game the players take turns with green: its next piece
is played by player ``(green pieces on the board) mod 3`` (0 blue's player,
1 yellow's, 2 red's; set-up pieces count), and green's score counts for
nobody. Junior has no bonuses; every other variant has +15 for placing every
piece and +5 more when the monomino went last.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.core.geometry import Board
from solver.core.pieces import CLASSIC_PIECES, PIECE_SIZES, TRIGON_PIECES, piece_by_name
from solver.errors import NotationError

CLASSIC_NAMES = ("blue", "yellow", "red", "green")
JUNIOR_PIECES = tuple(sorted(piece_by_name(n).index for n in "1 2 I3 V3 I4 L4 O T4 Z4 I5 L5 P".split()))


@dataclass(frozen=True)
class Variant:
    """One game variant; see the module docstring for the five of them.
    ``names[c]`` is the name of colour slot c ("" for a slot not in play),
    ``move_ids[c]`` / ``setup_ids[c]`` its SGF properties, ``pieces`` the
    piece indices each colour starts with (``copies`` of each),
    ``players`` each player's colours (the shared colour of the
    Three-Player game left out, see ``shared``)."""

    key: str
    game: str
    board: Board
    colors: tuple[int, ...]
    names: tuple[str, ...]
    move_ids: tuple[str, ...]
    setup_ids: tuple[str, ...]
    players: tuple[tuple[int, ...], ...]
    pieces: tuple[int, ...] = CLASSIC_PIECES
    copies: int = 1
    bonus: bool = True
    shared: int | None = None

    @property
    def hand(self) -> int:
        """A colour's starting hand as a bit mask of piece indices."""
        mask = 0
        for i in self.pieces:
            mask |= 1 << i
        return mask

    def color_name(self, c: int) -> str:
        return self.names[c]

    def color_index(self, text: str) -> int:
        """A colour in play from its name (``purple``), its initial (``p``),
        its SGF id (``B``) or its number in play order (``1``)."""
        key = text.strip().lower()
        for c in self.colors:
            if key in (self.names[c], self.names[c][0], self.move_ids[c].lower(), str(c + 1)):
                return c
        known = " ".join(self.names[c] for c in self.colors)
        raise NotationError(f"unknown colour {text!r} in {self.game} (known: {known})")

    def player_name(self, player: int) -> str:
        return "+".join(self.names[c] for c in self.players[player])

    @property
    def two_player(self) -> bool:
        return len(self.players) == 2

    @property
    def squares(self) -> int:
        """The squares (triangles in Trigon) of a colour's whole set: 89 in
        the classic games and Duo. Pentobi's points are this plus the
        advanced score."""
        return self.copies * sum(PIECE_SIZES[i] for i in self.pieces)


def _four_color(key: str, game: str, players, shared: int | None = None, board: Board | None = None,
                 pieces: tuple[int, ...] = CLASSIC_PIECES) -> Variant:
    return Variant(key, game, board or Board.classic(), (0, 1, 2, 3), CLASSIC_NAMES, ("1", "2", "3", "4"),
                   ("A1", "A2", "A3", "A4"), players, pieces, shared=shared)


def _duo_board() -> Board:
    """14 x 14, colour 0 starts on e10 and colour 1 on j5 (Pentobi's (4, 4)
    and (9, 9) counted from the top left)."""
    plain = Board(14, 14)
    starts = (frozenset([plain.parse_square("e10")]), frozenset([plain.parse_square("j5")]), frozenset(), frozenset())
    return Board(14, 14, frozenset(), starts)


def _two_color(key: str, game: str, names: tuple[str, str], pieces=CLASSIC_PIECES, copies: int = 1,
                bonus: bool = True) -> Variant:
    return Variant(key, game, _duo_board(), (0, 1), names + ("", ""), ("B", "W", "", ""), ("AB", "AW", "", ""),
                   ((0,), (1,)), pieces, copies, bonus)


CLASSIC = _four_color("classic", "Blokus", ((0,), (1,), (2,), (3,)))
CLASSIC_2 = _four_color("classic_2", "Blokus Two-Player", ((0, 2), (1, 3)))
CLASSIC_3 = _four_color("classic_3", "Blokus Three-Player", ((0,), (1,), (2,)), shared=3)
DUO = _two_color("duo", "Blokus Duo", ("purple", "orange"))
JUNIOR = _two_color("junior", "Blokus Junior", ("green", "orange"), JUNIOR_PIECES, copies=2, bonus=False)

# Trigon: the hexagon of triangles, six starting points open to every colour
# (Pentobi's StartingPoints: the middle of the fourth row from each side on
# the edge-9 board, of the third on the edge-8 board of the three-player game).
TRIGON_BOARD = Board.hexagon(9, ("r15", "r4", "j12", "j7", "z12", "z7"))
TRIGON = _four_color("trigon", "Blokus Trigon", ((0,), (1,), (2,), (3,)), board=TRIGON_BOARD, pieces=TRIGON_PIECES)
TRIGON_2 = _four_color("trigon_2", "Blokus Trigon Two-Player", ((0, 2), (1, 3)), board=TRIGON_BOARD,
                        pieces=TRIGON_PIECES)
TRIGON_3 = Variant("trigon_3", "Blokus Trigon Three-Player", Board.hexagon(8, ("p14", "p3", "h11", "h6", "x11", "x6")),
                   (0, 1, 2), CLASSIC_NAMES[:3] + ("",), ("1", "2", "3", ""), ("A1", "A2", "A3", ""),
                   ((0,), (1,), (2,)), TRIGON_PIECES)

VARIANTS: dict[str, Variant] = {
    v.key: v for v in (CLASSIC, CLASSIC_2, CLASSIC_3, DUO, JUNIOR, TRIGON, TRIGON_2, TRIGON_3)
}


def variant_by_game(game: str) -> Variant | None:
    """The variant of a ``GM[...]`` value (case and spaces around ignored,
    as Pentobi reads it), or None."""
    key = game.strip().lower()
    return next((v for v in VARIANTS.values() if v.game.lower() == key), None)


def variant_on(board: Board) -> Variant:
    """The classic four-colour rules on another board (tests, puzzles)."""
    if board == CLASSIC.board:
        return CLASSIC
    return _four_color("classic", "Blokus", ((0,), (1,), (2,), (3,)), board=board)
