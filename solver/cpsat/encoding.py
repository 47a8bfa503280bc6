"""The connectivity encodings of the CP-SAT model: how it says "every piece
reaches its colour's root" under the ``game`` rule (``--encoding``)."""

from enum import StrEnum


class Encoding(StrEnum):
    AUTO = "auto"  # levels for maximize, cuts otherwise
    LEVELS = "levels"  # square levels and parents in the model
    CUTS = "cuts"  # cuts added between solves


ENCODINGS = tuple(Encoding)
