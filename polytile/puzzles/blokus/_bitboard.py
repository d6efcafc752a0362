"""A colour's reach over bitboards (private; numba), for the compiled endgame search.

The same cells and pieces as :func:`polytile.puzzles.blokus._compiled.reach`: the
placements that fit in the colour's usable cells (empty, not beside its own) and cover a
queued cell, where the queue starts at its attach points and grows by the usable diagonal
neighbours of every cell reached. Instead of visiting placements cell by cell, it works on
whole boards at once: per orientation of a piece, the anchors (top-left corners of its
bounding box) where it fits are one bitboard (its cells' shifts of the usable board ANDed),
and a visit of an orientation takes the anchors whose placement covers a queued cell,
a few dozen word operations, where the cell-by-cell reach checks thousands of
placements.

Boards are ``words`` little-endian uint64 words, cell ``r * n + c`` (the placement
table's layout). The orientations come from
:func:`polytile.puzzles.blokus.endgame_kernel.orientations`, which needs no numba.
"""

from __future__ import annotations

import numpy as np

from polytile._jit import njit

__all__ = ["biggest_fit", "bit_generate", "bit_reach", "popcount"]

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_W = np.uint64(64)

# Numba counts references to an array each time one is bound to a name, and an inlined
# helper binds its array arguments: in the loops below, over orientations, words and
# cells, that reference counting (atomic, and shared by the search's threads) cost about
# nine times the work itself. So the loops index the scratch rows of ``fit`` directly, and
# the only helpers they call take words.


@njit(cache=True, inline="always")
def _dn(x0, x1, bs):  # pragma: no cover - compiled
    """A word of a board shifted towards lower cells by ``bs`` bits (0-63): from its
    source word ``x0`` and the word above it, ``x1`` (0 past the board)."""
    if bs == _ZERO:
        return x0
    return (x0 >> bs) | (x1 << (_W - bs))


@njit(cache=True, inline="always")
def _upw(x0, x1, bs):  # pragma: no cover - compiled
    """A word of a board shifted towards higher cells by ``bs`` bits (0-63): from its
    source word ``x0`` and the word below it, ``x1`` (0 before the board)."""
    if bs == _ZERO:
        return x0
    return (x0 << bs) | (x1 >> (_W - bs))


@njit(cache=True, _nrt=False)
def _shift_rows(fit, src, distinct, base):  # pragma: no cover - compiled
    """Row ``base + i`` of ``fit``: its row ``src`` shifted towards lower cells by
    ``distinct[i]`` (so that bit ``a`` says whether cell ``a + distinct[i]`` is in it)."""
    words = fit.shape[1]
    for i in range(distinct.shape[0]):
        d = distinct[i]
        ws, bs = d >> 6, np.uint64(d & 63)
        for w in range(words):
            s = w + ws
            x0 = fit[src, s] if s < words else _ZERO
            x1 = fit[src, s + 1] if s + 1 < words else _ZERO
            fit[base + i, w] = _dn(x0, x1, bs)


@njit(cache=True, _nrt=False)
def bit_reach(orient, n, occupied, edge, corner, hand, fit, reach, pieces):  # pragma: no cover
    """The reach of the colour with neighbourhoods ``edge`` and ``corner`` (before its
    first piece, ``corner`` holds its start cell) holding ``hand`` on an ``n`` x ``n``
    board: its cells into the board ``reach``, its pieces into ``pieces`` (per piece
    index); the number of cells. ``fit`` is scratch: a board per orientation, one per
    distinct offset, and 7 more."""
    if occupied.shape[0] == 4:  # Duo: the word loops below get a constant bound
        return _reach(orient, n, occupied, edge, corner, hand, fit, reach, pieces, 4)
    return _reach(orient, n, occupied, edge, corner, hand, fit, reach, pieces,
                  occupied.shape[0])  # fmt: skip


@njit(cache=True, inline="always")
def _reach(orient, n, occupied, edge, corner, hand, fit, reach, pieces, words):  # pragma: no cover
    """:func:`bit_reach` over ``words`` words.

    First the anchors where each orientation of a held piece fits in the usable cells
    (``fit``'s first rows), and the orientations with any (the live ones, bits of a
    scratch row). Then the live orientations are visited in turn, round and round: each
    takes the anchors whose placement covers a queued cell (they leave ``fit``: each
    placement is taken once), adds their cells to the reach and queues at once the usable
    diagonal neighbours of the new cells, so that the orientations after it see them in
    the same round. It stops once every live orientation has been visited since the queue
    last grew: the closure of the rounds of the breadth-first version, with about one
    visit per orientation taken instead of a visit of every orientation per round."""
    piece, offsets, valid, board, not_first, not_last, distinct, rows, _ = orient
    count_o = piece.shape[0]
    cells_o = rows.shape[1]
    sh = count_o  # rows sh + i: a board shifted by distinct[i]
    top = count_o + distinct.shape[0]
    usable, queue, fresh, new, hit, live = top, top + 1, top + 2, top + 3, top + 4, top + 5
    pieces[:] = 0
    any_seed = False
    for w in range(words):
        u = board[w] & ~occupied[w] & ~edge[w]
        q = corner[w] & u
        fit[usable, w] = u
        fit[queue, w] = q
        fit[live, w] = _ZERO
        reach[w] = _ZERO
        any_seed = any_seed or q != _ZERO
    if not any_seed:
        return 0
    _shift_rows(fit, usable, distinct, sh)
    nlive = 0
    for o in range(count_o):
        if hand[piece[o]] == 0:
            continue
        any_anchor = False
        for w in range(words):
            m = valid[o, w]
            for j in range(cells_o):
                r = rows[o, j]
                if r < 0:
                    break
                m &= fit[sh + r, w]
            fit[o, w] = m
            any_anchor = any_anchor or m != _ZERO
        if any_anchor:
            fit[live, o >> 6] |= _ONE << np.uint64(o & 63)
            nlive += 1
    count = 0
    minus, plus = np.uint64(n - 1), np.uint64(n + 1)
    since = 0  # live orientations visited since the queue last grew
    o = 0
    while since < nlive:
        if not (fit[live, o >> 6] >> np.uint64(o & 63)) & _ONE:
            o = o + 1 if o + 1 < count_o else 0
            continue
        since += 1
        hit_any = False
        for w in range(words):  # the anchors whose placement covers a queued cell
            a = fit[o, w]
            if a == _ZERO:
                fit[hit, w] = _ZERO
                continue
            m = _ZERO
            for j in range(cells_o):
                d = offsets[o, j]
                if d < 0:
                    break
                s = w + (d >> 6)
                x0 = fit[queue, s] if s < words else _ZERO
                x1 = fit[queue, s + 1] if s + 1 < words else _ZERO
                m |= _dn(x0, x1, np.uint64(d & 63))
            a &= m
            fit[hit, w] = a
            hit_any = hit_any or a != _ZERO
        if hit_any:
            pieces[piece[o]] = 1
            left = False
            for w in range(words):
                fit[o, w] &= ~fit[hit, w]
                left = left or fit[o, w] != _ZERO
            if not left:  # no anchor left: it needs no more visits
                fit[live, o >> 6] &= ~(_ONE << np.uint64(o & 63))
                nlive -= 1
                since -= 1
            for w in range(words):  # the cells of those placements; the new ones
                m = _ZERO
                for j in range(cells_o):
                    d = offsets[o, j]
                    if d < 0:
                        break
                    s = w - (d >> 6)
                    if s >= 0:
                        x1 = fit[hit, s - 1] if s >= 1 else _ZERO
                        m |= _upw(fit[hit, s], x1, np.uint64(d & 63))
                c = m & ~reach[w]
                fit[new, w] = c
                reach[w] |= c
                count += popcount(c)
            grew = False
            for w in range(words):
                # Cells (n + 1) and (n - 1) after each new cell, from the word and its
                # neighbours (the shifts are under a word: n is at most 20).
                c = fit[new, w]
                lw, rw = c & not_first[w], c & not_last[w]
                lo_l = lo_r = hi_l = hi_r = _ZERO
                if w >= 1:
                    x = fit[new, w - 1]
                    lo_l, lo_r = x & not_first[w - 1], x & not_last[w - 1]
                if w + 1 < words:
                    x = fit[new, w + 1]
                    hi_l, hi_r = x & not_first[w + 1], x & not_last[w + 1]
                near = (_dn(lw, hi_l, plus) | _upw(lw, lo_l, minus) | _dn(rw, hi_r, minus)
                        | _upw(rw, lo_r, plus))  # fmt: skip
                f = near & fit[usable, w] & ~fit[queue, w]
                fit[fresh, w] = f
                grew = grew or f != _ZERO
            if grew:
                for w in range(words):
                    fit[queue, w] |= fit[fresh, w]
                since = 0
        o = o + 1 if o + 1 < count_o else 0
    return count


@njit(cache=True, inline="always")
def _lowest(x):  # pragma: no cover - compiled
    """The index of the lowest set bit of the word ``x`` (not 0)."""
    return popcount((x & (~x + _ONE)) - _ONE)


@njit(cache=True, _nrt=False)
def _prepare(orient, fit):  # pragma: no cover - compiled
    """The usable and attach boards (``fit``'s last two rows) shifted by each distinct
    offset, into ``fit``'s first rows: usable from 0, attach from the number of offsets."""
    distinct = orient[6]
    rows = fit.shape[0]
    _shift_rows(fit, rows - 2, distinct, 0)
    _shift_rows(fit, rows - 1, distinct, distinct.shape[0])


@njit(cache=True, inline="always")
def _anchors(valid, rows, fit, count_d, o, w):  # pragma: no cover - compiled
    """Word ``w`` of the anchors where orientation ``o`` has every cell free and one
    attaching (``fit``'s rows from :func:`_prepare`). Inlined into functions compiled
    without reference counting, so binding its arrays costs nothing."""
    inside = valid[o, w]
    near = _ZERO
    for j in range(rows.shape[1]):
        r = rows[o, j]
        if r < 0:
            break
        inside &= fit[r, w]
        near |= fit[count_d + r, w]
    return inside & near


@njit(cache=True, _nrt=False)
def bit_generate(orient, occupied, edge, corner, hand, fit, out):  # pragma: no cover
    """The legal placements of the colour with neighbourhoods ``edge`` and ``corner``
    holding ``hand`` into ``out``, by orientation and then anchor; how many. The same set
    as :func:`._compiled.generate`, in another order. ``fit`` is :func:`bit_reach`'s
    scratch."""
    piece, valid, board, rows, placement = orient[0], orient[2], orient[3], orient[7], orient[8]
    words = occupied.shape[0]
    count_o = piece.shape[0]
    count_d = orient[6].shape[0]
    usable, attach = fit.shape[0] - 2, fit.shape[0] - 1  # scratch, as in bit_reach
    for w in range(words):
        u = board[w] & ~occupied[w] & ~edge[w]
        fit[usable, w] = u
        fit[attach, w] = corner[w] & u
    _prepare(orient, fit)
    cnt = 0
    for o in range(count_o):
        if hand[piece[o]] == 0:
            continue
        for w in range(words):
            anchors = _anchors(valid, rows, fit, count_d, o, w)
            while anchors != _ZERO:
                out[cnt] = placement[o, w * 64 + _lowest(anchors)]
                cnt += 1
                anchors &= anchors - _ONE
    return cnt


@njit(cache=True, _nrt=False)
def biggest_fit(orient, sizes, usable, attach, hand, fit):  # pragma: no cover - compiled
    """A placement of the biggest piece in ``hand`` (``sizes`` per piece) with every cell
    in the board ``usable`` and one on ``attach``: of equal pieces the first orientation,
    at its lowest anchor; -1 if none. ``fit`` is :func:`bit_reach`'s scratch."""
    piece, valid, rows, placement = orient[0], orient[2], orient[7], orient[8]
    words = usable.shape[0]
    count_d = orient[6].shape[0]
    last = fit.shape[0] - 1
    for w in range(words):
        fit[last - 1, w] = usable[w]
        fit[last, w] = attach[w]
    _prepare(orient, fit)
    best, best_size = -1, 0
    for o in range(piece.shape[0]):
        q = piece[o]
        if hand[q] == 0 or sizes[q] <= best_size:
            continue
        for w in range(words):
            anchors = _anchors(valid, rows, fit, count_d, o, w)
            if anchors != _ZERO:
                best, best_size = placement[o, w * 64 + _lowest(anchors)], sizes[q]
                break
    return best


@njit(cache=True, inline="always")
def popcount(x):  # pragma: no cover - compiled
    """The set bits of the word ``x``."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))
