"""Support for the compiled kernels: the numba wrapper with its on-disk cache
(jit), the bit operations the kernels share (bitops) and the per-board
arrays they read (tables)."""
