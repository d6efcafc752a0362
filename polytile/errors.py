"""The error types of polytile.

Every error polytile raises on purpose derives from :class:`PolytileError` and from the
built-in it refines (``ValueError`` for bad values), so callers may catch either. Only the
CLI turns them into messages and exit codes.
"""

from __future__ import annotations

__all__ = [
    "BoardError",
    "FormatError",
    "IllegalMoveError",
    "OptionError",
    "PolytileError",
    "ShapeError",
    "SolverError",
    "StoreLockedError",
    "SymmetryError",
    "UnknownNameError",
]


class PolytileError(Exception):
    """Base class of every error polytile raises on purpose.

    Every one survives pickling, whatever its ``__init__`` takes: an error raised in a
    worker process (a search that ran out of time) reaches the parent whole, instead of
    breaking the process pool when the parent fails to rebuild it from its message.
    """

    def __reduce__(self) -> tuple[object, ...]:
        return _rebuild, (type(self), self.args), self.__dict__


def _rebuild(cls: type[PolytileError], args: tuple[object, ...]) -> PolytileError:
    """An error of ``cls`` with ``args``, its attributes restored by pickle afterwards,
    without calling ``cls.__init__`` (whose parameters are not its message)."""
    err = Exception.__new__(cls)
    err.args = args
    return err


class ShapeError(PolytileError, ValueError):
    """A polyomino is empty, disconnected or written with characters we cannot read."""


class BoardError(PolytileError, ValueError):
    """A board has an impossible size or shape, or a cell lies outside it."""


class UnknownNameError(PolytileError, ValueError):
    """A piece, piece set, puzzle, game or engine name is not known.

    The message lists the names that are known.
    """

    def __init__(self, kind: str, name: str, known: list[str] | tuple[str, ...]) -> None:
        self.kind = kind
        self.name = name
        self.known = tuple(known)
        super().__init__(f"unknown {kind} {name!r}; known: {', '.join(self.known)}")


class FormatError(PolytileError, ValueError):
    """A file or document cannot be read: names the source and where in it the problem is.

    Parameters
    ----------
    message
        What is wrong.
    source
        The file name (or ``"<string>"``).
    where
        A line (``"line 3"``) or a field path (``"placements[2].cells"``), if known.
    """

    def __init__(self, message: str, source: str = "<string>", where: str | None = None) -> None:
        self.message = message
        self.source = source
        self.where = where
        place = f"{source}: {where}" if where else source
        super().__init__(f"{place}: {message}")


class IllegalMoveError(PolytileError, ValueError):
    """A move breaks the rules of the game in the position it is played in."""


class OptionError(PolytileError, ValueError):
    """A command's option (or argument) does not fit the file or game it is given with.

    Raised by the games' faces (:mod:`polytile.faces.face`), which know no command line:
    the CLI shows it as click shows a bad option, naming ``option`` (``"--cell"``, ``"-o"``,
    ``"POSITION"``) with the command's usage line, exit code 2. Without ``option`` it is a
    usage error of the command as a whole.
    """

    def __init__(self, message: str, option: str | None = None) -> None:
        self.message = message
        self.option = option
        super().__init__(message)


class SolverError(PolytileError, RuntimeError):
    """A solver failed in a way that is not the user's input (for example a wrong solution).

    Raised when the independent rules check rejects a solver's answer: such an answer is never
    shown to a user.
    """


class SymmetryError(PolytileError, ValueError):
    """A count up to symmetry asks for a group the problem does not have: mirror images of
    solutions with every piece turned into its mirror twin, for a set of one-sided pieces
    that lacks some twins (or gives a twin another supply)."""


class StoreLockedError(PolytileError, TimeoutError):
    """Another process held a puzzle store's lock for longer than we were willing to wait."""
