"""Error classes. Bad input raises a ``ValueError`` subclass whose message
quotes the input and says where and why."""

from __future__ import annotations


class BlokusError(Exception):
    """Base class of every error this package raises on purpose."""


class NotationError(BlokusError, ValueError):
    """Text that is not a square, a move or a piece name."""


class IllegalMoveError(BlokusError, ValueError):
    """A well-formed move that the rules do not allow in this position."""


class RecordError(BlokusError, ValueError):
    """A game record that cannot be read (syntax, or an illegal move in it)."""


class PuzzleError(BlokusError, ValueError):
    """A puzzle file or puzzle definition that is not valid."""


class OptionError(BlokusError, ValueError):
    """A solve or analysis option out of range, or one that does not apply
    to the puzzle at hand."""


class BoardError(BlokusError, ValueError):
    """A board that cannot be made: empty, too large, or squares off it."""


class OutputError(BlokusError):
    """An output file or folder that cannot be written (full disk, read-only
    folder, a file where a folder should be)."""
