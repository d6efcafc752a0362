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
from numba import njit

from polytile.geometry import Cell
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


@njit(cache=True)
def _reach(
    grid: npt.NDArray[np.uint8],
    n: int,
    code: int,
    start: int,
    hand: npt.NDArray[np.uint8],
    flat: npt.NDArray[np.int32],
    piece: npt.NDArray[np.int32],
    cell_ptr: npt.NDArray[np.int64],
    cell_placements: npt.NDArray[np.int64],
    reach: npt.NDArray[np.bool_],
    pieces: npt.NDArray[np.uint8],
) -> int:  # pragma: no cover - compiled
    """Fill ``reach`` (per flat cell) and ``pieces`` (per piece index); return the number of
    reach cells. ``grid`` holds colour codes (0 empty), ``start`` the flat start cell before
    the first piece, else -1."""
    size = n * n
    usable = np.zeros(size, dtype=np.bool_)
    own = False
    for f in range(size):
        if grid[f] == code:
            own = True
        if grid[f] != 0:
            continue
        r = f // n
        c = f - r * n
        beside = (
            (r > 0 and grid[f - n] == code)
            or (r < n - 1 and grid[f + n] == code)
            or (c > 0 and grid[f - 1] == code)
            or (c < n - 1 and grid[f + 1] == code)
        )
        usable[f] = not beside
    reach[:] = False
    pieces[:] = 0
    queued = np.zeros(size, dtype=np.bool_)
    todo = np.empty(size, dtype=np.int64)
    top = 0
    held = False
    for k in range(hand.shape[0]):
        if hand[k]:
            held = True
    if not held:
        return 0
    for f in range(size):  # the attach points
        if not usable[f]:
            continue
        r = f // n
        c = f - r * n
        seed = f == start and not own
        for dr in (-1, 1):
            for dc in (-1, 1):
                y, x = r + dr, c + dc
                if 0 <= y < n and 0 <= x < n and grid[y * n + x] == code:
                    seed = True
        if seed:
            queued[f] = True
            todo[top] = f
            top += 1
    marked = np.zeros(piece.shape[0], dtype=np.bool_)
    count = 0
    while top > 0:
        top -= 1
        d = todo[top]
        for k in range(cell_ptr[d], cell_ptr[d + 1]):
            p = cell_placements[k]
            if marked[p] or hand[piece[p]] == 0:
                continue
            ok = True
            for j in range(flat.shape[1]):
                x = flat[p, j]
                if x >= 0 and not usable[x]:
                    ok = False
                    break
            if not ok:
                continue
            marked[p] = True
            pieces[piece[p]] = 1
            for j in range(flat.shape[1]):
                x = flat[p, j]
                if x < 0 or reach[x]:
                    continue
                reach[x] = True
                count += 1
                r = x // n
                c = x - r * n
                for dr in (-1, 1):
                    for dc in (-1, 1):
                        y, z = r + dr, c + dc
                        if 0 <= y < n and 0 <= z < n:
                            e = y * n + z
                            if usable[e] and not queued[e]:
                                queued[e] = True
                                todo[top] = e
                                top += 1
    return count


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
    count = _reach(grid, size, code, start, hand, t.flat, t.piece, t.cell_ptr,
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
