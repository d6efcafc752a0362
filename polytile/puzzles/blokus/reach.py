"""Blokus reach: the cells and pieces a colour may still place, whatever anyone plays.

For a colour Y, let ``S`` be the empty cells not sharing an edge with a Y cell (the cells
beside Y only grow, so Y never covers any other cell). A placement of a piece Y still holds
is *reachable* when all its cells lie in ``S`` and one of them is a current attach point of
Y (diagonal to a Y cell; before Y's first piece, its start cell) or is diagonal to a cell of
an earlier reachable placement. :func:`reach_of` gives the union of the reachable
placements' cells and their pieces.

Why every cell Y ever covers is in it, by induction over Y's future pieces in the order they
are played: such a piece P is one Y holds now, and its cells are empty and not beside Y when
it is placed, so they lie in ``S`` now. P touches at a corner some Y cell c present at that
time, with a cell d of P diagonal to c. If c is a Y cell now, d is a current attach point;
otherwise c belongs to an earlier future piece, reachable by induction, so d is diagonal to a
reach cell. (A first piece covers the start cell.) So P is a reachable placement.

Two consequences the solvers use. A colour whose reach is empty can never place again (and
a colour with a reachable placement has a legal one now: the first one found covers an
attach point with cells in ``S``). And when a colour's reach shares no cell with any other
colour's, its future is its own: nobody can take a cell from it, and none of its placements
touches a cell another colour could use.

The reach is shape-aware: a corridor too narrow, or an area too small, for every piece left
is not reached at all, which makes the *territory* of :mod:`polytile.puzzles.blokus.bounds`
(cells outside every other colour's reach) larger than a flood fill would.

Examples
--------
>>> from polytile.puzzles.blokus.rules import Blokus
>>> r = reach_of(Blokus("duo"), "blue")
>>> len(r.pieces), len(r.cells)  # every piece, anywhere reachable from (4, 4)
(21, 196)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from polytile.geometry import Cell
from polytile.puzzles.blokus import kernels
from polytile.puzzles.blokus.moves import placement_table
from polytile.puzzles.blokus.rules import COLOR_NAMES, PIECE_NAMES, PIECE_SIZES, Blokus

__all__ = ["Reach", "reach_arrays", "reach_of"]


@dataclass(frozen=True)
class Reach:
    """What :func:`reach_of` found for one colour.

    Attributes
    ----------
    cells
        Empty cells the colour may ever cover.
    pieces
        Pieces in its hand with a reachable placement, in :data:`PIECE_NAMES` order; the
        others can never be placed.
    """

    cells: frozenset[Cell]
    pieces: tuple[str, ...]

    @property
    def squares(self) -> int:
        """An upper bound on the squares the colour still places: the reachable pieces'
        squares, and no more than the reach has cells."""
        return min(len(self.cells), sum(PIECE_SIZES[PIECE_NAMES.index(p)] for p in self.pieces))


def reach_arrays(
    grid: npt.NDArray[np.uint8], size: int, code: int, start: int, hand: npt.NDArray[np.uint8]
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint8], int]:
    """The reach of one colour from raw arrays: (cells per flat index, 1 per reachable piece
    index, number of cells).

    Parameters
    ----------
    grid
        Flat ``size * size`` colour codes, 0 for empty (as :class:`Blokus` keeps them).
    code
        The colour's code in ``grid``.
    start
        Flat index of the colour's start cell (used only while it has no cell).
    hand
        1 per piece index the colour holds.
    """
    t = placement_table(size)
    reach = np.empty(size * size, dtype=np.bool_)
    pieces = np.empty(len(PIECE_NAMES), dtype=np.uint8)
    count = kernels.reach(grid, size, code, start, hand, t.flat, t.piece, t.cell_ptr,
                   t.cell_placements, reach, pieces)  # fmt: skip
    return reach, pieces, int(count)


def reach_of(game: Blokus, color: str) -> Reach:
    """The cells and pieces ``color`` may still place from ``game`` (see the module notes).

    Raises
    ------
    ValueError
        If ``color`` does not play in the game's variant.
    """
    n = game.size
    hand = game.hand_mask(color)
    r, c = game.variant.starts[color]
    code = COLOR_NAMES.index(color) + 1  # as Blokus.grid_codes numbers colours
    reach, pieces, _ = reach_arrays(game.grid_codes(), n, code, r * n + c, hand)
    cells = frozenset((int(f) // n, int(f) % n) for f in np.flatnonzero(reach))
    names = tuple(name for name, ok in zip(PIECE_NAMES, pieces.tolist(), strict=True) if ok)
    return Reach(cells, names)
