"""Moves of the grid games where a colour places a named piece or passes.

:class:`PieceMove` holds what Blokus and City Blocks moves share: validation, the text form
``"B I3 0,0 0,1 0,2"`` / ``"G pass"`` and its parser. Each game subclasses it with its own
piece names (:class:`polytile.puzzles.blokus.moves.Move`,
:class:`polytile.puzzles.cityblocks.moves.Move`), so a piece the game does not have is
refused when the move is made.

Examples
--------
>>> from polytile.puzzles.cityblocks.moves import Move
>>> Move.parse("Y I2 0,19 1,19") == Move("yellow", "I2", [(1, 19), (0, 19)])
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from polytile.errors import ShapeError, UnknownNameError
from polytile.formats import COLORS
from polytile.geometry import Cell

__all__ = ["PieceMove"]

_M = TypeVar("_M", bound="PieceMove")
_LETTER_NAMES = {letter: name for name, letter in COLORS.items()}


@dataclass(frozen=True, slots=True, init=False)
class PieceMove:
    """One turn: ``color`` places ``piece`` on ``cells``, or passes (``piece`` None).

    Subclasses set :attr:`PIECE_NAMES` (the game's pieces) and :attr:`GAME` (named in
    errors). ``cells`` are stored sorted; equal moves of one game compare equal.
    """

    color: str
    piece: str | None
    cells: tuple[Cell, ...]

    #: The piece names the game has.
    PIECE_NAMES: ClassVar[tuple[str, ...]] = ()
    #: The game's name, for error messages.
    GAME: ClassVar[str] = ""

    def __init__(self, color: str, piece: str | None = None, cells: Iterable[Cell] = ()) -> None:
        if color not in COLORS:
            raise UnknownNameError("colour", str(color), tuple(COLORS))
        cells = tuple(sorted((int(r), int(c)) for r, c in cells))
        if piece is None:
            if cells:
                raise ShapeError(f"a pass covers no cells, got {list(cells)}")
        else:
            if piece not in self.PIECE_NAMES:
                raise UnknownNameError(f"{self.GAME} piece", str(piece), self.PIECE_NAMES)
            if not cells:
                raise ShapeError(f"a placement of {piece} needs its cells")
            if len(set(cells)) != len(cells):
                raise ShapeError(f"cells {list(cells)} repeat a cell")
        object.__setattr__(self, "color", color)
        object.__setattr__(self, "piece", piece)
        object.__setattr__(self, "cells", cells)

    @classmethod
    def trusted(cls: type[_M], color: str, piece: str, cells: tuple[Cell, ...]) -> _M:
        """A move whose fields are already valid and sorted (from a placement table)."""
        move = object.__new__(cls)
        object.__setattr__(move, "color", color)
        object.__setattr__(move, "piece", piece)
        object.__setattr__(move, "cells", cells)
        return move

    @classmethod
    def pass_turn(cls: type[_M], color: str) -> _M:
        """The pass of ``color`` (the seat to move)."""
        return cls(color)

    @property
    def is_pass(self) -> bool:
        """True for a pass."""
        return self.piece is None

    def __str__(self) -> str:
        letter = COLORS[self.color]
        if self.piece is None:
            return f"{letter} pass"
        return f"{letter} {self.piece} " + " ".join(f"{r},{c}" for r, c in self.cells)

    @classmethod
    def parse(cls: type[_M], text: str) -> _M:
        """Read the form ``str`` writes: ``"B I3 0,0 0,1 0,2"`` or ``"G pass"``.

        Raises
        ------
        ValueError
            If the text is not of that form (or names an unknown colour or piece).
        """
        parts = text.split()
        if len(parts) < 2 or parts[0] not in _LETTER_NAMES:
            raise ValueError(f"a move looks like 'B I3 0,0 0,1 0,2' or 'B pass', got {text!r}")
        if parts[1] == "pass" and len(parts) == 2:
            return cls(_LETTER_NAMES[parts[0]])
        try:
            cells = [tuple(int(v) for v in p.split(",")) for p in parts[2:]]
        except ValueError:
            cells = []
        if not cells or any(len(cell) != 2 for cell in cells):
            raise ValueError(f"cells must be written row,col separated by spaces, got {text!r}")
        return cls(_LETTER_NAMES[parts[0]], parts[1], [(r, c) for r, c in cells])
