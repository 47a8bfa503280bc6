"""The search engine: beam search to find solutions, exhaustive partition
search to count them and to prove infeasibility and optima, and game-tree
search over real play for endgames."""

from .driver import MODES, solve

__all__ = ["MODES", "solve"]
