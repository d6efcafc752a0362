"""Blokus: variants, moves, and the placement tables behind fast move generation.

A :class:`Move` is a small immutable value: a colour placing a named piece on some cells, or
a (forced) pass. A :class:`Variant` fixes the board side, the colours and their start cells:
``"classic"`` (20x20, four colours on the corners) and ``"duo"`` (14x14, blue and yellow
starting on (4, 4) and (9, 9)). :func:`placement_table` lists every placement of the 21
pieces on the empty board of a given side (:func:`polytile.board.placements`) with three
bitmasks each (its cells, the cells sharing an edge with it, the cells touching it only at a
corner) and, per cell, the placements covering it.

Move generation (``generate`` in :mod:`polytile.puzzles.blokus.kernels`) starts from the
colour's *attach points*: the empty cells that corner-touch the colour and share no edge with
it (before its first piece, only its start cell). Only the placements covering an attach
point are tried, each against the colour's *forbidden* cells (occupied, or edge-adjacent to
the colour) word by word. A placement covering several attach points is reported once: it
is skipped for every attach point after the first one it covers.

:mod:`polytile.puzzles.blokus.rules` re-exports :class:`Move`, :data:`PIECE_NAMES` and
:data:`VARIANTS`.

Examples
--------
>>> from polytile.puzzles.blokus.moves import Move, placement_table
>>> str(Move("blue", "V3", [(1, 1), (0, 0), (1, 0)]))
'B V3 0,0 1,0 1,1'
>>> len(placement_table(20).cells), len(placement_table(14).cells)
(30433, 13729)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from polytile.board import Board, placements
from polytile.faces.moves import PieceMove
from polytile.formats import COLORS
from polytile.geometry import Cell, piece_set

__all__ = [
    "COLOR_NAMES",
    "PIECE_NAMES",
    "PIECE_SIZES",
    "VARIANTS",
    "Move",
    "PlacementTable",
    "Variant",
    "move_cache",
    "placement_table",
]

#: The four colour names in turn order.
COLOR_NAMES: tuple[str, ...] = tuple(COLORS)
#: The 21 pieces of each colour, in the order of ``seeds/pieces.txt``.
PIECE_NAMES: tuple[str, ...] = tuple(p.name for p in piece_set("blokus"))
#: Squares per piece, in :data:`PIECE_NAMES` order (89 in all).
PIECE_SIZES: tuple[int, ...] = tuple(p.size for p in piece_set("blokus"))


@dataclass(frozen=True)
class Variant:
    """A board and the colours playing on it.

    Attributes
    ----------
    name
        ``"classic"`` or ``"duo"``.
    size
        Side of the square board.
    colors
        The colours in turn order.
    starts
        Each colour's start cell: its first piece must cover it.
    """

    name: str
    size: int
    colors: tuple[str, ...]
    starts: Mapping[str, Cell]


#: The supported variants by name. Duo's colours are not named by the rules we follow; we
#: use blue (start (4, 4), moves first) and yellow (start (9, 9)), so that positions keep to
#: the board letters ``B Y R G`` of :mod:`polytile.formats`.
VARIANTS: Mapping[str, Variant] = MappingProxyType(
    {
        "classic": Variant(
            "classic",
            20,
            COLOR_NAMES,
            MappingProxyType(
                {"blue": (0, 0), "yellow": (0, 19), "red": (19, 19), "green": (19, 0)}
            ),
        ),
        "duo": Variant(
            "duo", 14, ("blue", "yellow"), MappingProxyType({"blue": (4, 4), "yellow": (9, 9)})
        ),
    }
)


@dataclass(frozen=True, slots=True, init=False)
class Move(PieceMove):
    """One turn: ``color`` places ``piece`` on ``cells``, or passes (``piece`` None).

    Parameters
    ----------
    color
        The colour of the piece placed, or the colour passing.
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
    >>> str(Move.pass_turn("green")), Move.parse("B I1 0,0").piece
    ('G pass', 'I1')
    """

    PIECE_NAMES: ClassVar[tuple[str, ...]] = PIECE_NAMES
    GAME: ClassVar[str] = "Blokus"


@dataclass(frozen=True, eq=False)
class PlacementTable:
    """Every placement of the 21 pieces on the empty ``size`` x ``size`` board.

    Attributes
    ----------
    size
        Side of the board; cell ``(r, c)`` is bit ``r * size + c``.
    piece
        Piece index (into :data:`PIECE_NAMES`) of each placement.
    masks
        Cells of each placement as a little-endian bitmask in 64-bit words.
    edge_masks
        Cells sharing an edge with the placement (on the board, outside it).
    corner_masks
        Cells touching the placement only at a corner (on the board, outside it, not in
        ``edge_masks``).
    flat
        Flat cell indices ``r * size + c`` of each placement, padded with -1 to 5 columns.
    cells
        Cells of each placement, sorted.
    flat_cells
        Flat cell indices of each placement, as tuples of ints.
    index
        Placement index by its sorted cells.
    cell_ptr, cell_placements
        Per cell, the placements covering it, in CSR form: cell ``j`` is covered by
        ``cell_placements[cell_ptr[j]:cell_ptr[j + 1]]`` (ascending).
    """

    size: int
    piece: npt.NDArray[np.int32]
    masks: npt.NDArray[np.uint64]
    edge_masks: npt.NDArray[np.uint64]
    corner_masks: npt.NDArray[np.uint64]
    flat: npt.NDArray[np.int32]
    cells: tuple[tuple[Cell, ...], ...]
    flat_cells: tuple[tuple[int, ...], ...]
    index: Mapping[tuple[Cell, ...], int]
    cell_ptr: npt.NDArray[np.int64]
    cell_placements: npt.NDArray[np.int64]

    @property
    def words(self) -> int:
        """64-bit words per bitmask."""
        return int(self.masks.shape[1])


def pack_cells(grid: npt.NDArray[np.bool_], words: int) -> npt.NDArray[np.uint64]:
    """Pack boolean boards ``(..., size, size)`` into bitmasks ``(..., words)``."""
    flat = grid.reshape(*grid.shape[:-2], -1)
    padded = np.zeros((*flat.shape[:-1], words * 64), dtype=bool)
    padded[..., : flat.shape[-1]] = flat
    packed = np.packbits(padded, axis=-1, bitorder="little")
    return np.ascontiguousarray(packed).view("<u8").astype(np.uint64)


def shifted(grid: npt.NDArray[np.bool_], dr: int, dc: int) -> npt.NDArray[np.bool_]:
    """``out[..., r, c] = grid[..., r - dr, c - dc]``, False where that is off the board."""
    n = grid.shape[-1]
    out = np.zeros_like(grid)
    out[..., max(0, dr) : n + min(0, dr), max(0, dc) : n + min(0, dc)] = grid[
        ..., max(0, -dr) : n + min(0, -dr), max(0, -dc) : n + min(0, -dc)
    ]
    return out


_EDGE_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
_CORNER_STEPS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def neighbour_masks(
    grid: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """The edge and corner neighbourhoods of boolean boards ``(..., size, size)``.

    Returns ``(edge, corner)``: the cells outside ``grid`` sharing an edge with it, and the
    cells outside ``grid`` and ``edge`` touching it at a corner.
    """
    edge = np.zeros_like(grid)
    corner = np.zeros_like(grid)
    for dr, dc in _EDGE_STEPS:
        edge |= shifted(grid, dr, dc)
    for dr, dc in _CORNER_STEPS:
        corner |= shifted(grid, dr, dc)
    edge &= ~grid
    corner &= ~(grid | edge)
    return edge, corner


@cache
def placement_table(size: int) -> PlacementTable:
    """The placement table of the ``size`` x ``size`` board, built on first call and kept.

    Raises
    ------
    ValueError
        If ``size`` is not one of the variants' board sides (20 or 14).
    """
    if size not in {v.size for v in VARIANTS.values()}:
        raise ValueError(f"no Blokus variant is played on {size}x{size}")
    pl = placements(Board(size, size), piece_set("blokus"))
    n = len(pl)
    words = pl.words
    cells = pl.sorted_coords()
    flat_grid = np.zeros((n, size * size), dtype=bool)
    rows_idx = np.repeat(np.arange(n), pl.cells.shape[1]).reshape(pl.cells.shape)
    live = pl.cells >= 0
    flat_grid[rows_idx[live], pl.cells[live]] = True
    edge, corner = neighbour_masks(flat_grid.reshape(n, size, size))
    pairs_p = rows_idx[live]
    pairs_c = pl.cells[live]
    order = np.lexsort((pairs_p, pairs_c))
    ptr = np.zeros(size * size + 1, dtype=np.int64)
    np.cumsum(np.bincount(pairs_c, minlength=size * size), out=ptr[1:])
    return PlacementTable(
        size=size,
        piece=pl.piece,
        masks=pl.masks,
        edge_masks=pack_cells(edge, words),
        corner_masks=pack_cells(corner, words),
        flat=pl.cells,
        cells=cells,
        flat_cells=tuple(tuple(r * size + c for r, c in cs) for cs in cells),
        index={c: i for i, c in enumerate(cells)},
        cell_ptr=ptr,
        cell_placements=pairs_p[order].astype(np.int64),
    )


@cache
def move_cache(size: int, color: str) -> list[Move | None]:
    """Shared, lazily filled list: entry ``i`` is placement ``i`` of the ``size`` table in
    ``color``, once some game has needed it (moves are immutable, so games share them)."""
    return [None] * len(placement_table(size).cells)
