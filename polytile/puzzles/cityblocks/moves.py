"""City Blocks (Jeremy Ritchie): moves, and the table of every placement on the board.

A :class:`Move` is a small immutable value: a colour placing a named piece on some cells, or
passing. The placement table lists every placement of the 20 pieces on the empty 20x20 board
(:func:`polytile.board.placements`, 30033 of them) with its bitmask, so that the game in
:mod:`polytile.puzzles.cityblocks.rules` tests legality by masking; it is built once, on first use.
:mod:`polytile.puzzles.cityblocks.rules` re-exports :class:`Move` and :data:`PIECE_NAMES`.

Examples
--------
>>> from polytile.puzzles.cityblocks.moves import Move, placement_table
>>> str(Move("blue", "V3", [(1, 1), (0, 0), (1, 0)]))
'B V3 0,0 1,0 1,1'
>>> len(placement_table().cells)
30033
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from polytile.board import Board, placements
from polytile.faces.moves import PieceMove
from polytile.formats import COLORS
from polytile.geometry import Cell, piece_set
from polytile.puzzles.cityblocks.scoring import BOARD_SIZE, START_CELLS

__all__ = ["COLOR_NAMES", "PIECE_NAMES", "Move", "PlacementTable", "moves_of", "placement_table"]

#: Colour names in turn order.
COLOR_NAMES: tuple[str, ...] = tuple(COLORS)
#: The 20 pieces of each colour, in the order of ``seeds/pieces.txt``.
PIECE_NAMES: tuple[str, ...] = tuple(p.name for p in piece_set("cityblocks"))


@dataclass(frozen=True, slots=True, init=False)
class Move(PieceMove):
    """One turn: ``color`` places ``piece`` on ``cells``, or passes (``piece`` None).

    Parameters
    ----------
    color
        The colour of the piece placed. For a pass, the colour (seat) to move.
    piece
        A piece name from :data:`PIECE_NAMES`, or None for a pass.
    cells
        The covered cells ``(row, col)``, in any order; stored sorted. Empty for a pass.

    Raises
    ------
    UnknownNameError
        If the colour or piece name is not known.
    ShapeError
        If a placement has no cells or repeats one, or a pass has cells.

    Examples
    --------
    >>> Move("red", "I2", [(19, 19), (18, 19)])
    Move(color='red', piece='I2', cells=((18, 19), (19, 19)))
    >>> str(Move.pass_turn("green")), Move.parse("B V3 0,0 1,0 1,1").piece
    ('G pass', 'V3')
    """

    PIECE_NAMES: ClassVar[tuple[str, ...]] = PIECE_NAMES
    GAME: ClassVar[str] = "City Blocks"


@dataclass(frozen=True, eq=False)
class PlacementTable:
    """Every placement of the 20 pieces on the empty 20x20 board.

    Attributes
    ----------
    piece
        Piece index (into :data:`PIECE_NAMES`) of each placement.
    masks
        Bitmask of each placement's cells, as in :class:`polytile.board.Placements`.
    word_masks
        ``masks`` transposed (word by placement), contiguous, so one word is tested over
        every placement in a single pass.
    flat
        Flat cell indices ``r * 20 + c`` of each placement, padded with -1 to 5 columns.
    cells
        Cells of each placement, sorted.
    index
        Placement index by its sorted cells.
    covers_start
        Per colour (turn order), the indices of the placements covering its start cell.
    """

    piece: npt.NDArray[np.int32]
    masks: npt.NDArray[np.uint64]
    word_masks: npt.NDArray[np.uint64]
    flat: npt.NDArray[np.int32]
    cells: tuple[tuple[Cell, ...], ...]
    index: Mapping[tuple[Cell, ...], int]
    covers_start: tuple[npt.NDArray[np.int64], ...]


@cache
def placement_table() -> PlacementTable:
    """The placement table, built on first call (some 50 ms) and kept."""
    pl = placements(Board(BOARD_SIZE, BOARD_SIZE), piece_set("cityblocks"))
    cells = pl.sorted_coords()
    starts = tuple(
        np.flatnonzero((pl.cells == r * BOARD_SIZE + c).any(axis=1))
        for r, c in START_CELLS.values()
    )
    index = {c: i for i, c in enumerate(cells)}
    word_masks = np.ascontiguousarray(pl.masks.T)
    return PlacementTable(pl.piece, pl.masks, word_masks, pl.cells, cells, index, starts)


@cache
def moves_of(color: str) -> tuple[Move, ...]:
    """Move ``i`` places placement ``i`` of the table in ``color``; built once per colour."""
    t = placement_table()
    return tuple(
        Move.trusted(color, PIECE_NAMES[p], cs)
        for p, cs in zip(t.piece.tolist(), t.cells, strict=True)
    )
