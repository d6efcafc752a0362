"""A colour's reach over bitboards (private; numba), for the compiled endgame search.

The same cells and pieces as :func:`polytile.puzzles.blokus._compiled.reach`: the
placements that fit in the colour's usable cells (empty, not beside its own) and cover a
queued cell, where the queue starts at its attach points and grows by the usable diagonal
neighbours of every cell reached. Instead of visiting placements cell by cell, it works on
whole boards at once: per orientation of a piece, the anchors (top-left corners of its
bounding box) where it fits are one bitboard (its cells' shifts of the usable board ANDed),
and each round takes, for every orientation, the anchors whose placement covers a cell
queued in the last round. A board's rounds are few, and each is a few hundred word
operations, where the cell-by-cell reach checks thousands of placements.

Boards are ``words`` little-endian uint64 words, cell ``r * n + c`` (the placement
table's layout). The orientations come from
:func:`polytile.puzzles.blokus.endgame_kernel.orientations`, which needs no numba.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["bit_reach", "popcount"]

_ZERO = np.uint64(0)


@njit(cache=True, inline="always")
def _down(x, d, w):  # pragma: no cover - compiled
    """Word ``w`` of board ``x`` shifted towards lower cells by ``d`` (cell ``i`` of the
    result is cell ``i + d`` of ``x``)."""
    words = x.shape[0]
    ws = d >> 6
    bs = np.uint64(d & 63)
    src = w + ws
    if src >= words:
        return _ZERO
    if bs == 0:
        return x[src]
    out = x[src] >> bs
    if src + 1 < words:
        out |= x[src + 1] << (np.uint64(64) - bs)
    return out


@njit(cache=True, inline="always")
def _up(x, d, w):  # pragma: no cover - compiled
    """Word ``w`` of board ``x`` shifted towards higher cells by ``d`` (cell ``i + d`` of
    the result is cell ``i`` of ``x``)."""
    ws = d >> 6
    bs = np.uint64(d & 63)
    src = w - ws
    if src < 0:
        return _ZERO
    if bs == 0:
        return x[src]
    out = x[src] << bs
    if src >= 1:
        out |= x[src - 1] >> (np.uint64(64) - bs)
    return out


@njit(cache=True, inline="always")
def _covering(x, offs, w, up):  # pragma: no cover - compiled
    """Word ``w`` of the union of board ``x`` shifted by each of the offsets ``offs``
    (-1 padded): with ``up``, the cells of the placements anchored at ``x``; else the
    anchors of the placements covering a cell of ``x``."""
    m = _ZERO
    for j in range(offs.shape[0]):
        d = offs[j]
        if d < 0:
            break
        m |= _up(x, d, w) if up else _down(x, d, w)
    return m


@njit(cache=True)
def bit_reach(orient, n, occupied, edge, corner, hand, fit, reach, pieces):  # pragma: no cover
    """The reach of the colour with neighbourhoods ``edge`` and ``corner`` (before its
    first piece, ``corner`` holds its start cell) holding ``hand`` on an ``n`` x ``n``
    board: its cells into the board ``reach``, its pieces into ``pieces`` (per piece
    index); the number of cells. ``fit`` is scratch: a board per orientation and 7 more."""
    piece, offsets, valid, board, not_first, not_last = orient
    words = occupied.shape[0]
    count_o = piece.shape[0]
    pieces[:] = 0
    usable, queue, fresh, cover = fit[count_o], fit[count_o + 1], fit[count_o + 2], fit[count_o + 3]
    hit, left, right = fit[count_o + 4], fit[count_o + 5], fit[count_o + 6]
    any_seed = False
    for w in range(words):
        usable[w] = board[w] & ~occupied[w] & ~edge[w]
        queue[w] = corner[w] & usable[w]
        fresh[w] = queue[w]
        reach[w] = _ZERO
        any_seed = any_seed or queue[w] != _ZERO
    if not any_seed:
        return 0
    # The anchors where each orientation of a held piece fits.
    for o in range(count_o):
        live = hand[piece[o]] != 0
        for w in range(words):
            fit[o, w] = valid[o, w] if live else _ZERO
        if not live:
            continue
        for j in range(offsets.shape[1]):
            d = offsets[o, j]
            if d < 0:
                break
            for w in range(words):
                fit[o, w] &= _down(usable, d, w)
    count = 0
    while True:
        for w in range(words):
            cover[w] = _ZERO
        for o in range(count_o):
            nonzero = False
            for w in range(words):
                if fit[o, w] != _ZERO:
                    nonzero = True
                    break
            if not nonzero:
                continue
            # The anchors whose placement covers a cell queued in the last round (each
            # placement is taken once: its anchor leaves ``fit``).
            hit_any = False
            for w in range(words):
                hit[w] = fit[o, w] & _covering(fresh, offsets[o], w, False)
                fit[o, w] &= ~hit[w]
                hit_any = hit_any or hit[w] != _ZERO
            if not hit_any:
                continue
            pieces[piece[o]] = 1
            for w in range(words):
                cover[w] |= _covering(hit, offsets[o], w, True)
        # The new cells, then their usable diagonal neighbours not queued yet.
        for w in range(words):
            cover[w] &= ~reach[w]
            reach[w] |= cover[w]
            count += popcount(cover[w])
            left[w] = cover[w] & not_first[w]
            right[w] = cover[w] & not_last[w]
        any_fresh = False
        for w in range(words):
            near = (_down(left, n + 1, w) | _up(left, n - 1, w) | _down(right, n - 1, w)
                    | _up(right, n + 1, w))  # fmt: skip
            fresh[w] = near & usable[w] & ~queue[w]
            queue[w] |= fresh[w]
            any_fresh = any_fresh or fresh[w] != _ZERO
        if not any_fresh:
            return count


@njit(cache=True, inline="always")
def popcount(x):  # pragma: no cover - compiled
    """The set bits of the word ``x``."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))
