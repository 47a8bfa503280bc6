"""The search engine: beam search to find solutions, exhaustive partition
search to count them and to prove infeasibility and optima."""

from .driver import MODES, Progress, solve

__all__ = ["MODES", "Progress", "solve"]
