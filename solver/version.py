"""The package's version: one place, read by the packaging (pyproject.toml),
the package's face and the records it writes."""

__version__ = "0.1.0"
