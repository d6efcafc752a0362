"""The Blokus kernels: move generation, legality, placing and reach, in numpy or compiled.

Each function exists twice with the same arguments and the same results, in the same order:
here in numpy, and compiled with numba in :mod:`polytile.puzzles.blokus._compiled`. Loading
numba costs about 0.7 s (0.3 s to import it, 0.4 s for its first call), more than a short
command spends on Blokus moves in all: replaying a record, scoring it, a small endgame.
So the numpy kernels run first, and once a command has spent :data:`SWITCH_AFTER` seconds
in them (a long search, self-play, a bounds run), :func:`use_compiled` replaces them with
the compiled ones, about 10 times faster per move generation
(``benchmarks/bench_blokus_moves.py``). That is the rent-or-buy rule: a
command never spends more than about twice what the better choice in hindsight would have.

Call them through the module (``kernels.generate(...)``), never ``from ... import``: the
switch rebinds the module's names. Bitboards are 1-d uint64 arrays of ``words`` words;
``masks``, ``edge_masks`` and ``corner_masks`` are the placement table's (placements x words)
arrays; ``hand`` is uint8 per piece (1 = in hand).

Examples
--------
>>> from polytile.puzzles.blokus import kernels
>>> from polytile.puzzles.blokus.moves import placement_table
>>> t = placement_table(14)
>>> words = t.words
>>> empty = np.zeros(words, dtype=np.uint64)
>>> start = np.zeros(words, dtype=np.uint64)
>>> start[(4 * 14 + 4) // 64] = np.uint64(1) << np.uint64((4 * 14 + 4) % 64)
>>> hand = np.ones(21, dtype=np.uint8)
>>> out = np.empty(len(t.piece), dtype=np.int64)
>>> kernels.generate(t.masks, t.piece, t.cell_ptr, t.cell_placements, empty, empty, start,
...                  hand, out)  # every placement covering (4, 4)
414
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from polytile.puzzles.blokus.moves import _CORNER_STEPS, neighbour_masks, shifted

__all__ = [
    "SWITCH_AFTER",
    "compiled",
    "generate",
    "place",
    "placement_status",
    "reach",
    "use_compiled",
]

#: Seconds of numpy kernel time after which the compiled kernels are loaded: about what
#: loading them costs on a quiet machine.
SWITCH_AFTER = 0.5

_spent = 0.0


def compiled() -> bool:
    """Whether the compiled kernels are in use."""
    return generate is not _generate


def use_compiled() -> None:
    """Load the compiled kernels and use them from now on (about 0.7 s the first time)."""
    global generate, placement_status, place, reach
    from polytile.puzzles.blokus import _compiled

    generate, placement_status = _compiled.generate, _compiled.placement_status
    place, reach = _compiled.place, _compiled.reach


def use_numpy() -> None:
    """Go back to the numpy kernels (for tests that compare the two)."""
    global generate, placement_status, place, reach, _spent
    generate, placement_status, place, reach = _generate, _placement_status, _place, _reach
    _spent = 0.0


def _charge(since: float) -> None:
    """Add the time since ``since`` to the numpy kernels' account; switch when it is due."""
    global _spent
    _spent += time.perf_counter() - since
    if _spent >= SWITCH_AFTER and not compiled():
        use_compiled()


def _bits(words: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    """The set bits of a bitboard, ascending (bit ``b`` of word ``w`` is cell ``64w + b``)."""
    flags = np.unpackbits(words.astype("<u8").view(np.uint8), bitorder="little")
    return np.flatnonzero(flags)


def _ranges(starts: npt.NDArray[np.int64], ends: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
    """The concatenation of ``range(s, e)`` for each pair, in order."""
    lengths = ends - starts
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    return offsets + np.arange(total)


def _generate(
    masks: npt.NDArray[np.uint64],
    piece: npt.NDArray[np.int32],
    cell_ptr: npt.NDArray[np.int64],
    cell_placements: npt.NDArray[np.int64],
    occupied: npt.NDArray[np.uint64],
    edge: npt.NDArray[np.uint64],
    corner: npt.NDArray[np.uint64],
    hand: npt.NDArray[np.uint8],
    out: npt.NDArray[np.int64],
) -> int:
    """Write the legal placements of one colour into ``out``; return how many.

    The order is the compiled kernel's: grouped by the first attach point (ascending) each
    placement covers, each group ascending.
    """
    since = time.perf_counter()
    forbidden = occupied | edge
    attach = _bits(corner & ~forbidden)
    candidates = cell_placements[_ranges(cell_ptr[attach], cell_ptr[attach + 1])]
    # a placement covering several attach points counts under the first one only
    _, first = np.unique(candidates, return_index=True)
    candidates = candidates[np.sort(first)]
    candidates = candidates[hand[piece[candidates]] != 0]
    legal = candidates[~(masks[candidates] & forbidden).any(axis=1)]
    n = len(legal)
    out[:n] = legal
    _charge(since)
    return n


def _placement_status(
    masks: npt.NDArray[np.uint64],
    p: int,
    occupied: npt.NDArray[np.uint64],
    edge: npt.NDArray[np.uint64],
    corner: npt.NDArray[np.uint64],
) -> int:
    """0 if placement ``p`` fits: 1 overlap, 2 shares an edge with the colour, 3 no corner."""
    mask = masks[p]
    if (mask & occupied).any():
        return 1
    if (mask & edge).any():
        return 2
    return 0 if (mask & corner).any() else 3


def _place(
    bits: npt.NDArray[np.uint64],
    color: int,
    colors: int,
    p: int,
    masks: npt.NDArray[np.uint64],
    edge_masks: npt.NDArray[np.uint64],
    corner_masks: npt.NDArray[np.uint64],
) -> None:
    """Add placement ``p`` of colour ``color`` to the state ``bits`` in place.

    ``bits`` rows: 0 occupied, ``1 + i`` colour ``i``'s edge neighbourhood, ``1 + colors + i``
    its corner neighbourhood.
    """
    bits[0] |= masks[p]
    bits[1 + color] |= edge_masks[p]
    bits[1 + colors + color] |= corner_masks[p]


def _diagonal(cells: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """The cells diagonal to some cell of the square boolean board ``cells``."""
    out = np.zeros_like(cells)
    for dr, dc in _CORNER_STEPS:
        out |= shifted(cells, dr, dc)
    return out


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
) -> int:
    """Fill ``reach`` (per flat cell) and ``pieces`` (per piece index); return the number of
    reach cells. ``grid`` holds colour codes (0 empty), ``start`` the flat start cell before
    the first piece, else -1.

    The same closure as the compiled kernel's depth-first search, grown a layer at a time:
    the placements (of held pieces, every cell usable) covering a queued cell, then the
    usable cells diagonal to their cells.
    """
    since = time.perf_counter()
    reach[:] = False
    pieces[:] = 0
    if not hand.any():
        _charge(since)
        return 0
    board = grid.reshape(n, n)
    own = board == code
    beside, seeds = neighbour_masks(own)  # seeds: diagonal to the colour, not beside it
    usable = (board == 0) & ~beside
    if 0 <= start < n * n and not own.any():
        seeds.flat[start] = True
    queued = (seeds & usable).ravel()
    usable_flat = np.append(usable.ravel(), True)  # index -1 (no cell) counts as usable
    fits = (hand[piece] != 0) & usable_flat[flat].all(axis=1)
    marked = np.zeros(len(piece), dtype=bool)
    frontier = np.flatnonzero(queued)
    while len(frontier):
        found = cell_placements[_ranges(cell_ptr[frontier], cell_ptr[frontier + 1])]
        found = np.unique(found[fits[found] & ~marked[found]])
        if not len(found):
            break
        marked[found] = True
        pieces[piece[found]] = 1
        covered = flat[found].ravel()
        covered = covered[covered >= 0]
        new = np.zeros(n * n, dtype=bool)
        new[covered] = True
        new &= ~reach
        reach |= new
        grow = (_diagonal(new.reshape(n, n)) & usable).ravel() & ~queued
        queued |= grow
        frontier = np.flatnonzero(grow)
    _charge(since)
    return int(reach.sum())


generate: Callable[..., int] = _generate
placement_status: Callable[..., int] = _placement_status
place: Callable[..., None] = _place
reach: Callable[..., int] = _reach
