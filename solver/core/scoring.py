"""Advanced scoring, the one place that knows the bonuses (docs/rules.md,
"Scoring"): -1 per square left in hand; a colour that placed every piece
scores +15 instead, +20 when its last piece was the monomino."""

from __future__ import annotations

ALL_PLACED_BONUS = 15
MONOMINO_LAST_BONUS = 5  # on top of ALL_PLACED_BONUS: 20 in all


def advanced_score(squares_left: int, monomino_last: bool = False) -> int:
    """The advanced score of a colour with ``squares_left`` squares in hand;
    ``monomino_last``: its last piece placed was the monomino."""
    if squares_left:
        return -squares_left
    return ALL_PLACED_BONUS + (MONOMINO_LAST_BONUS if monomino_last else 0)


def best_bonus(monomino_in_hand: bool) -> int:
    """The bonus a colour can still earn by placing everything: 20 when its
    monomino is still in hand (it can go last), else 15."""
    return ALL_PLACED_BONUS + (MONOMINO_LAST_BONUS if monomino_in_hand else 0)
