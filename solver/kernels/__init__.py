"""Support for the compiled kernels: the numba wrapper with its on-disk cache
(jit) and the bit operations the kernels share (bitops)."""
