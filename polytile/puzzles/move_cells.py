"""Where a position's legal moves fall in its picture: :class:`MoveCells`, which a face
gives (:meth:`~polytile.puzzles.face.Face.move_cells`) so that a front end can take a move
by clicks on the picture (the web board)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["MoveCells"]


@dataclass(frozen=True)
class MoveCells:
    """Where the legal moves of a position fall in its SVG picture, so that a front end can
    take a move by clicks on the picture (the web board).

    Attributes
    ----------
    cells
        The places of the picture a move can cover, each by a name the game gives (Blokus:
        ``"row,col"``), with its rectangle ``(x, y, width, height)`` in the picture drawn by
        :meth:`Face.picture` with the same ``cell``.
    moves
        Each legal move that covers some (in ``play``'s notation, as :meth:`Face.legal`
        lists it), with the names of the cells it covers.
    """

    cells: dict[str, tuple[float, float, float, float]]
    moves: dict[str, tuple[str, ...]]

    def as_dict(self) -> dict[str, Any]:
        """The JSON form (lists for tuples)."""
        return {"cells": {k: list(v) for k, v in self.cells.items()},
                "moves": {k: list(v) for k, v in self.moves.items()}}  # fmt: skip
