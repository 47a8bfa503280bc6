"""Drawing: positions, puzzles and solutions as images (matplotlib, imported
only here)."""
