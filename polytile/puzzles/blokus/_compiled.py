"""The compiled (numba) Blokus kernels: move generation, legality, placing, reach.

:mod:`polytile.puzzles.blokus.kernels` holds the same four functions in numpy, with the same
results in the same order, and switches to these once a command has spent long enough in
them to repay loading numba (see there). Import this module only through that switch: it
loads numba, which alone takes about 0.3 s and another 0.4 s on the first call.

Bitboards are 1-d uint64 arrays of ``words`` words; ``masks``, ``edge_masks`` and
``corner_masks`` are the placement table's (placements x words) arrays; ``hand`` is uint8
per piece (1 = in hand).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from polytile._jit import njit

__all__ = ["attach_points", "generate", "place", "placement_status", "reach"]


_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(cache=True)
def generate(
    masks: npt.NDArray[np.uint64],
    piece: npt.NDArray[np.int32],
    cell_ptr: npt.NDArray[np.int64],
    cell_placements: npt.NDArray[np.int64],
    occupied: npt.NDArray[np.uint64],
    edge: npt.NDArray[np.uint64],
    corner: npt.NDArray[np.uint64],
    hand: npt.NDArray[np.uint8],
    out: npt.NDArray[np.int64],
) -> int:  # pragma: no cover - compiled
    """Write the legal placements of one colour into ``out``; return how many.

    ``edge`` and ``corner`` are the colour's edge and corner neighbourhoods (``corner`` holds
    the start cell before the first piece). The indices come grouped by attach point, each
    group ascending. ``out`` needs room for every placement.
    """
    words = occupied.shape[0]
    forbidden = np.empty(words, dtype=np.uint64)
    seen = np.zeros(words, dtype=np.uint64)
    for w in range(words):
        forbidden[w] = occupied[w] | edge[w]
    n = 0
    for w in range(words):
        attach = corner[w] & ~forbidden[w]
        b = 0
        while attach != _ZERO:
            if attach & _ONE:
                cell = w * 64 + b
                for k in range(cell_ptr[cell], cell_ptr[cell + 1]):
                    p = cell_placements[k]
                    if hand[piece[p]] == 0:
                        continue
                    ok = True
                    for v in range(words):
                        if masks[p, v] & (forbidden[v] | seen[v]):
                            ok = False
                            break
                    if ok:
                        out[n] = p
                        n += 1
                seen[w] |= _ONE << np.uint64(b)
            attach >>= _ONE
            b += 1
    return n


@njit(cache=True)
def placement_status(
    masks: npt.NDArray[np.uint64],
    p: int,
    occupied: npt.NDArray[np.uint64],
    edge: npt.NDArray[np.uint64],
    corner: npt.NDArray[np.uint64],
) -> int:  # pragma: no cover - compiled
    """0 if placement ``p`` fits: 1 overlap, 2 shares an edge with the colour, 3 no corner."""
    words = occupied.shape[0]
    touches = False
    for v in range(words):
        if masks[p, v] & occupied[v]:
            return 1
    for v in range(words):
        if masks[p, v] & edge[v]:
            return 2
        if masks[p, v] & corner[v]:
            touches = True
    return 0 if touches else 3


@njit(cache=True, _nrt=False)
def place(
    bits: npt.NDArray[np.uint64],
    color: int,
    colors: int,
    p: int,
    masks: npt.NDArray[np.uint64],
    edge_masks: npt.NDArray[np.uint64],
    corner_masks: npt.NDArray[np.uint64],
) -> None:  # pragma: no cover - compiled
    """Add placement ``p`` of colour ``color`` to the state ``bits`` in place.

    ``bits`` rows: 0 occupied, ``1 + i`` colour ``i``'s edge neighbourhood, ``1 + colors + i``
    its corner neighbourhood.
    """
    for v in range(bits.shape[1]):
        bits[0, v] |= masks[p, v]
        bits[1 + color, v] |= edge_masks[p, v]
        bits[1 + colors + color, v] |= corner_masks[p, v]


@njit(cache=True)
def attach_points(
    grid: npt.NDArray[np.uint8],
    n: int,
    code: int,
    start: int,
    usable: npt.NDArray[np.bool_],
    queued: npt.NDArray[np.bool_],
    todo: npt.NDArray[np.int64],
) -> int:  # pragma: no cover - compiled
    """The start of a reach: mark in ``usable`` the empty cells not beside the colour
    ``code``, and write its attach points (usable cells diagonal to it; before its first
    piece, its ``start`` cell) into ``todo``, marked in ``queued``; return how many."""
    size = n * n
    own = False
    for f in range(size):
        queued[f] = False
        if grid[f] == code:
            own = True
        if grid[f] != 0:
            usable[f] = False
            continue
        r = f // n
        c = f - r * n
        usable[f] = not (
            (r > 0 and grid[f - n] == code)
            or (r < n - 1 and grid[f + n] == code)
            or (c > 0 and grid[f - 1] == code)
            or (c < n - 1 and grid[f + 1] == code)
        )
    top = 0
    for f in range(size):
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
    return top


@njit(cache=True, inline="always")
def fits(
    flat: npt.NDArray[np.int32], p: int, mask: npt.NDArray[np.bool_]
) -> bool:  # pragma: no cover
    """Whether every cell of placement ``p`` is in ``mask``."""
    for j in range(flat.shape[1]):
        x = flat[p, j]
        if x >= 0 and not mask[x]:
            return False
    return True


@njit(cache=True, inline="always")
def spread(
    flat: npt.NDArray[np.int32],
    p: int,
    n: int,
    usable: npt.NDArray[np.bool_],
    reach: npt.NDArray[np.bool_],
    queued: npt.NDArray[np.bool_],
    todo: npt.NDArray[np.int64],
    top: int,
) -> tuple[int, int]:  # pragma: no cover
    """Add placement ``p``'s cells to ``reach`` and queue their usable diagonal neighbours
    not queued yet (a reach grows through corners); (cells added, new top of ``todo``)."""
    added = 0
    for j in range(flat.shape[1]):
        x = flat[p, j]
        if x < 0 or reach[x]:
            continue
        reach[x] = True
        added += 1
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
    return added, top


@njit(cache=True)
def reach(
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
    reach[:] = False
    pieces[:] = 0
    held = False
    for k in range(hand.shape[0]):
        if hand[k]:
            held = True
    if not held:
        return 0
    usable = np.empty(size, dtype=np.bool_)
    queued = np.empty(size, dtype=np.bool_)
    todo = np.empty(size, dtype=np.int64)
    top = attach_points(grid, n, code, start, usable, queued, todo)
    marked = np.zeros(piece.shape[0], dtype=np.bool_)
    count = 0
    while top > 0:
        top -= 1
        d = todo[top]
        for k in range(cell_ptr[d], cell_ptr[d + 1]):
            p = cell_placements[k]
            if marked[p] or hand[piece[p]] == 0:
                continue
            marked[p] = True  # checked: whether it fits does not change during the fill
            if not fits(flat, p, usable):
                continue
            pieces[piece[p]] = 1
            added, top = spread(flat, p, n, usable, reach, queued, todo, top)
            count += added
    return count
