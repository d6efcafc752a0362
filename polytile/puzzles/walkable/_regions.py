"""The compiled flood fill of Walkable Cities: region sizes over the 300 cells.

:func:`polytile.puzzles.walkable.board.largest_regions` runs in Python until a command has
spent long enough there, then uses :func:`largest_regions` here; the drop-phase kernels
(:mod:`polytile.puzzles.walkable._phase_kernel`) call these from compiled code. Importing
this module loads numba.
"""

from __future__ import annotations

import numpy as np

from polytile._jit import njit
from polytile.puzzles.walkable.cells import BLUE, BOARDS, CELLS, RED, SIDE

__all__ = ["flood_region", "largest_regions"]


@njit(cache=True)
def flood_region(work, color, start, label, n, stack):
    """Give the region of ``color`` around ``start`` the label ``n`` (its cells must be
    unlabelled, -1, so far); its size."""
    label[start] = n
    stack[0] = start
    top, count = 1, 0
    while top:
        top -= 1
        g = stack[top]
        count += 1
        r, c = (g % 100) // SIDE, g % SIDE
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < SIDE and 0 <= cc < SIDE:
                h = g - r * SIDE - c + rr * SIDE + cc
                if label[h] < 0 and work[h] == color:
                    label[h] = n
                    stack[top] = h
                    top += 1
    return count


@njit("int64[:, ::1](int8[::1])", cache=True)
def largest_regions(cells):
    """``out[p, b]``: the size of the largest edge-connected region of player ``p``'s cells
    (0 red, 1 blue) on board ``b``; 0 when it has none there."""
    out = np.zeros((2, BOARDS), dtype=np.int64)
    label = np.full(CELLS, -1, dtype=np.int64)
    stack = np.empty(CELLS, dtype=np.int64)
    for start in range(CELLS):
        own = cells[start]
        if label[start] >= 0 or (own != RED and own != BLUE):
            continue
        size = flood_region(cells, own, start, label, 0, stack)
        p, b = own - RED, start // 100
        if size > out[p, b]:
            out[p, b] = size
    return out
