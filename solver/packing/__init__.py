"""The packing engine: beam search to find packings, exhaustive partition
search to count them and to prove infeasibility and optima, the symmetric
and half-turn searches, and the compiled fill and waste kernels."""

from solver.packing.driver import MODES, solve

__all__ = ["MODES", "solve"]
