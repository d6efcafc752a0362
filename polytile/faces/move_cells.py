"""Where a position's legal moves fall in its picture: :class:`MoveCells`, which a face
gives (:meth:`~polytile.faces.face.Face.move_cells`) so that a front end can take a move
by clicks on the picture (the web board), and the pieces the player to move can place
(:class:`MovePiece`, from :meth:`~polytile.faces.face.Face.move_pieces`) for a move
entered as a piece, turned and put down on a cell."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from polytile.geometry import Polyomino

__all__ = ["MoveCells", "MovePiece", "held_pieces"]


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
    texts
        How a move names each cell, where that is not the cell's name (Blokus: ``"0,4"`` is
        written ``e14``), so that a front end can write any placement, legal or not, and
        let the rules say why one is not (a :class:`MovePiece` put down where no legal move
        covers the same cells). Empty: a move names a cell as the name above.
    """

    cells: dict[str, tuple[float, float, float, float]]
    moves: dict[str, tuple[str, ...]]
    texts: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form (lists for tuples)."""
        return {"cells": {k: list(v) for k, v in self.cells.items()},
                "moves": {k: list(v) for k, v in self.moves.items()},
                "texts": dict(self.texts)}  # fmt: skip


@dataclass(frozen=True)
class MovePiece:
    """A piece the player to move still holds, for a move entered as the piece, turned and
    put down on the board (the web board's pieces bar).

    A front end turns ``shape`` as the player asks, puts it on the cells of
    :class:`MoveCells` (named ``"row,col"``), and plays the legal move that covers exactly
    those cells; where none does, it writes the placement as ``prefix`` and the cells'
    texts, and the rules say why it is not a move.

    Attributes
    ----------
    name
        The piece's name, as the game writes it.
    color
        The colour placing it (a colour name a web page also knows, such as ``"blue"``).
    shape
        The piece in one orientation (its cells ``(row, col)``).
    prefix
        What a move placing it writes before its cells (City Blocks (Ritchie): ``"B I2 "``;
        empty for Blokus, whose moves are their points alone).
    playable
        Whether some legal move places it now.
    """

    name: str
    color: str
    shape: Polyomino
    prefix: str
    playable: bool


def held_pieces(game: Any, prefix: Callable[[str, str], str]) -> tuple[MovePiece, ...]:
    """The pieces of the Blokus set that the side to move in ``game`` may place (a Blokus or
    City Blocks (Ritchie) rules engine: ``to_move``, ``hand``, ``legal_moves``,
    ``is_game_over`` and, where a side places more than one colour, ``colors_to_move``: with
    three City Blocks players, green's pieces too), each with the ``prefix(colour, piece)``
    its moves write; none once the game is over."""
    from polytile.geometry import piece_set

    if game.is_game_over():
        return ()
    colors = game.colors_to_move() if hasattr(game, "colors_to_move") else (game.to_move,)
    shapes = {p.name: p for p in piece_set("blokus")}
    placeable = {(m.color, m.piece) for m in game.legal_moves() if m.cells}
    return tuple(MovePiece(name, color, shapes[name], prefix(color, name),
                           (color, name) in placeable)
                 for color in colors for name in game.hand(color))  # fmt: skip
