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

__all__ = ["biggest_fit", "bit_generate", "bit_reach", "popcount"]

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


@njit(cache=True)
def bit_reach(orient, n, occupied, edge, corner, hand, fit, reach, pieces):  # pragma: no cover
    """The reach of the colour with neighbourhoods ``edge`` and ``corner`` (before its
    first piece, ``corner`` holds its start cell) holding ``hand`` on an ``n`` x ``n``
    board: its cells into the board ``reach``, its pieces into ``pieces`` (per piece
    index); the number of cells. ``fit`` is scratch: a board per orientation, one per
    distinct offset, and 7 more."""
    piece, offsets, valid, board, not_first, not_last, distinct, rows, _ = orient
    words = occupied.shape[0]
    count_o = piece.shape[0]
    count_d = distinct.shape[0]
    shifted = fit[count_o : count_o + count_d]  # a board shifted by each distinct offset
    top = count_o + count_d
    usable, queue, fresh, cover = fit[top], fit[top + 1], fit[top + 2], fit[top + 3]
    hit, left, right = fit[top + 4], fit[top + 5], fit[top + 6]
    pieces[:] = 0
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
    _shift_all(usable, distinct, shifted)
    for o in range(count_o):
        live = hand[piece[o]] != 0
        for w in range(words):
            fit[o, w] = valid[o, w] if live else _ZERO
        if not live:
            continue
        for j in range(rows.shape[1]):
            r = rows[o, j]
            if r < 0:
                break
            for w in range(words):
                fit[o, w] &= shifted[r, w]
    count = 0
    while True:
        for w in range(words):
            cover[w] = _ZERO
        _shift_all(fresh, distinct, shifted)
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
                hit[w] = fit[o, w] & _joined(shifted, rows, o, w, False)
                fit[o, w] &= ~hit[w]
                hit_any = hit_any or hit[w] != _ZERO
            if not hit_any:
                continue
            pieces[piece[o]] = 1
            for w in range(words):
                cover[w] |= _joined(hit, offsets, o, w, True)
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
def _anchors(valid, rows, free, touch, o, w):  # pragma: no cover - compiled
    """Word ``w`` of the anchors where orientation ``o`` has every cell free and one
    touching (``free`` and ``touch``: the usable and attach boards per distinct offset)."""
    inside = valid[o, w]
    near = _ZERO
    for j in range(rows.shape[1]):
        r = rows[o, j]
        if r < 0:
            break
        inside &= free[r, w]
        near |= touch[r, w]
    return inside & near


@njit(cache=True, inline="always")
def _lowest(x):  # pragma: no cover - compiled
    """The index of the lowest set bit of the word ``x`` (not 0)."""
    return popcount((x & (~x + np.uint64(1))) - np.uint64(1))


@njit(cache=True, inline="always")
def _prepare(orient, usable, attach, fit):  # pragma: no cover - compiled
    """The usable and attach boards shifted by each distinct offset, in ``fit``."""
    distinct = orient[6]
    count_d = distinct.shape[0]
    free, touch = fit[:count_d], fit[count_d : 2 * count_d]
    _shift_all(usable, distinct, free)
    _shift_all(attach, distinct, touch)
    return free, touch


@njit(cache=True)
def bit_generate(orient, occupied, edge, corner, hand, fit, out):  # pragma: no cover
    """The legal placements of the colour with neighbourhoods ``edge`` and ``corner``
    holding ``hand`` into ``out``, by orientation and then anchor; how many. The same set
    as :func:`._compiled.generate`, in another order. ``fit`` is :func:`bit_reach`'s
    scratch."""
    piece, valid, board, rows, placement = orient[0], orient[2], orient[3], orient[7], orient[8]
    words = occupied.shape[0]
    count_o = piece.shape[0]
    usable, attach = fit[fit.shape[0] - 2], fit[fit.shape[0] - 1]  # scratch, as in bit_reach
    for w in range(words):
        usable[w] = board[w] & ~occupied[w] & ~edge[w]
        attach[w] = corner[w] & usable[w]
    free, touch = _prepare(orient, usable, attach, fit)
    cnt = 0
    for o in range(count_o):
        if hand[piece[o]] == 0:
            continue
        for w in range(words):
            anchors = _anchors(valid, rows, free, touch, o, w)
            while anchors != _ZERO:
                low = _lowest(anchors)
                out[cnt] = placement[o, w * 64 + low]
                cnt += 1
                anchors &= anchors - np.uint64(1)
    return cnt


@njit(cache=True)
def biggest_fit(orient, sizes, usable, attach, hand, fit):  # pragma: no cover - compiled
    """A placement of the biggest piece in ``hand`` (``sizes`` per piece) with every cell
    in the board ``usable`` and one on ``attach``: of equal pieces the first orientation,
    at its lowest anchor; -1 if none. ``fit`` is :func:`bit_reach`'s scratch."""
    piece, valid, rows, placement = orient[0], orient[2], orient[7], orient[8]
    words = usable.shape[0]
    free, touch = _prepare(orient, usable, attach, fit)
    best, best_size = -1, 0
    for o in range(piece.shape[0]):
        q = piece[o]
        if hand[q] == 0 or sizes[q] <= best_size:
            continue
        for w in range(words):
            anchors = _anchors(valid, rows, free, touch, o, w)
            if anchors != _ZERO:
                best, best_size = placement[o, w * 64 + _lowest(anchors)], sizes[q]
                break
    return best


@njit(cache=True, inline="always")
def _joined(x, index, o, w, up):  # pragma: no cover - compiled
    """Word ``w`` of a union over orientation ``o``'s cells (``index[o]``, -1 padded): with
    ``up``, of the board ``x`` shifted up by each offset (the cells of the placements
    anchored in ``x``); else of the rows of ``x`` (boards already shifted, by row)."""
    m = _ZERO
    for j in range(index.shape[1]):
        i = index[o, j]
        if i < 0:
            break
        m |= _up(x, i, w) if up else x[i, w]
    return m


@njit(cache=True, inline="always")
def _shift_all(x, distinct, out):  # pragma: no cover - compiled
    """Row ``i`` of ``out``: the board ``x`` shifted towards lower cells by ``distinct[i]``
    (so that bit ``a`` says whether cell ``a + distinct[i]`` is in ``x``)."""
    words = x.shape[0]
    for i in range(distinct.shape[0]):
        for w in range(words):
            out[i, w] = _down(x, distinct[i], w)


@njit(cache=True, inline="always")
def popcount(x):  # pragma: no cover - compiled
    """The set bits of the word ``x``."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))
