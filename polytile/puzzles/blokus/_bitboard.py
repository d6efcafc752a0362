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

The scratch boards have two zero words on each side of their ``words`` (:data:`PAD`), so
that a board shifted by up to two words reads its neighbours' words without a test, and
every orientation has exactly five cell offsets (a piece of fewer cells repeats its first:
ANDing or ORing a shift twice changes nothing). The loops then have fixed bounds and no
branches, which LLVM unrolls and vectorises: a reach about 1.4 times as fast as with
tested loads and offset lists ended by -1.
"""

from __future__ import annotations

import numpy as np

from polytile._jit import njit
from polytile.puzzles.blokus._endgame_ctr import CELLS, PAD

__all__ = [
    "CELLS",
    "PAD",
    "biggest_fit",
    "biggest_legal",
    "bit_generate",
    "bit_reach",
    "kept_moves",
    "popcount",
]

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_63 = np.uint64(63)

# Numba counts references to an array each time one is bound to a name, and an inlined
# helper binds its array arguments: in the loops below, over orientations, words and
# cells, that reference counting (atomic, and shared by the search's threads) cost about
# nine times the work itself. So the loops index the scratch rows of ``fit`` directly, and
# the only helpers they call take words.


@njit(cache=True, inline="always")
def _dn(x0, x1, bs):  # pragma: no cover - compiled
    """A word of a board shifted towards lower cells by ``bs`` bits (0-63): from its
    source word ``x0`` and the word above it, ``x1`` (no test: at ``bs`` 0 the second
    term is 0)."""
    return (x0 >> bs) | ((x1 << _ONE) << (_63 - bs))


@njit(cache=True, inline="always")
def _up(x0, x1, bs):  # pragma: no cover - compiled
    """A word of a board shifted towards higher cells by ``bs`` bits (0-63): from its
    source word ``x0`` and the word below it, ``x1``."""
    return (x0 << bs) | ((x1 >> _ONE) >> (_63 - bs))


@njit(cache=True, inline="always")
def _shift_rows(fit, src, dist_ws, dist_bs, base, words, wide):  # pragma: no cover - compiled
    """Row ``base + i`` of ``fit``: its row ``src`` shifted towards lower cells by the
    ``i``-th distinct offset (so that bit ``a`` says whether cell ``a + offset`` is in
    it); ``wide``: offsets may reach past a word."""
    for i in range(dist_bs.shape[0]):
        ws = dist_ws[i] if wide else 0
        bs = dist_bs[i]
        for c in range(PAD, PAD + words):
            fit[base + i, c] = _dn(fit[src, c + ws], fit[src, c + ws + 1], bs)


@njit(cache=True, inline="always")
def _offsets(orient, o):  # pragma: no cover - compiled
    """Orientation ``o``'s five cell offsets: (bit shifts, word shifts), two tuples."""
    bs5, ws5 = orient[1], orient[2]
    return ((bs5[o, 0], bs5[o, 1], bs5[o, 2], bs5[o, 3], bs5[o, 4]),
            (ws5[o, 0], ws5[o, 1], ws5[o, 2], ws5[o, 3], ws5[o, 4]))  # fmt: skip


@njit(cache=True, inline="always")
def _covers(fit, row, c, b, ws, wide):  # pragma: no cover - compiled
    """Word ``c`` of the anchors of an orientation (offsets ``b``, ``ws``: see
    :func:`_offsets`) whose placement covers a cell of ``fit``'s row ``row``: the row
    shifted towards lower cells by each offset, ORed."""
    if wide:
        return (_dn(fit[row, c + ws[0]], fit[row, c + ws[0] + 1], b[0])
                | _dn(fit[row, c + ws[1]], fit[row, c + ws[1] + 1], b[1])
                | _dn(fit[row, c + ws[2]], fit[row, c + ws[2] + 1], b[2])
                | _dn(fit[row, c + ws[3]], fit[row, c + ws[3] + 1], b[3])
                | _dn(fit[row, c + ws[4]], fit[row, c + ws[4] + 1], b[4]))  # fmt: skip
    x0, x1 = fit[row, c], fit[row, c + 1]
    return _dn(x0, x1, b[0]) | _dn(x0, x1, b[1]) | _dn(x0, x1, b[2]) | _dn(x0, x1, b[3]) | _dn(
        x0, x1, b[4])  # fmt: skip


@njit(cache=True, inline="always")
def _cells(fit, row, c, b, ws, wide):  # pragma: no cover - compiled
    """Word ``c`` of the cells of an orientation's placements at the anchors of ``fit``'s
    row ``row`` (offsets ``b``, ``ws``): the row shifted towards higher cells by each
    offset, ORed."""
    if wide:
        return (_up(fit[row, c - ws[0]], fit[row, c - ws[0] - 1], b[0])
                | _up(fit[row, c - ws[1]], fit[row, c - ws[1] - 1], b[1])
                | _up(fit[row, c - ws[2]], fit[row, c - ws[2] - 1], b[2])
                | _up(fit[row, c - ws[3]], fit[row, c - ws[3] - 1], b[3])
                | _up(fit[row, c - ws[4]], fit[row, c - ws[4] - 1], b[4]))  # fmt: skip
    x0, x1 = fit[row, c], fit[row, c - 1]
    return _up(x0, x1, b[0]) | _up(x0, x1, b[1]) | _up(x0, x1, b[2]) | _up(x0, x1, b[3]) | _up(
        x0, x1, b[4])  # fmt: skip


@njit(cache=True, _nrt=False)
def bit_reach(orient, n, occupied, edge, corner, hand, within, fit, reach, pieces,
              keep):  # fmt: skip  # pragma: no cover
    """The reach of the colour with neighbourhoods ``edge`` and ``corner`` (before its
    first piece, ``corner`` holds its start cell) holding ``hand`` on an ``n`` x ``n``
    board: its cells into the board ``reach``, its pieces into ``pieces`` (per piece
    index); the number of cells. With ``keep``, ``fit`` keeps what :func:`kept_moves`
    needs to list the colour's legal placements afterwards (every legal placement lies in
    the reach, and the anchors that fit are found here anyway).

    ``hand`` may leave out pieces known not to be reachable, and ``within`` (a board) be
    a set of cells known to hold the reach: the reach of an earlier position of the game
    and its pieces, say. A reach only shrinks as the game goes on (cells are taken, the
    colour's own pieces forbid their neighbours, pieces leave the hand, and every new
    attach point lies diagonal to a placement the earlier reach took), so the answer is
    the same, found with fewer orientations. ``fit`` is scratch (the rows of
    :func:`.endgame_kernel.bitboard_scratch`)."""
    if _narrow(orient, occupied.shape[0]):
        return _reach(orient, n, occupied, edge, corner, hand, within, fit, reach, pieces, 4,
                      False, keep)  # fmt: skip
    return _reach(orient, n, occupied, edge, corner, hand, within, fit, reach, pieces,
                  occupied.shape[0], True, keep)  # fmt: skip


@njit(cache=True, inline="always")
def _narrow(orient, words):  # pragma: no cover - compiled
    """Whether a board of ``words`` words is the Duo board's four with every offset under a
    word: then the loops below get constant bounds (the callers pass 4 and ``wide``
    False as constants)."""
    return words == 4 and orient[9][orient[9].shape[0] - 1] == 0


@njit(cache=True, _nrt=False)
def kept_moves(orient, fit, out):  # pragma: no cover - compiled
    """The legal placements of the colour of the last :func:`bit_reach` with ``keep`` and
    this ``fit``, into ``out`` as :func:`bit_generate` writes them (the same ones, in the same
    order); how many."""
    if _narrow(orient, fit.shape[1] - 2 * PAD):
        return _kept_moves(orient, fit, out, 4, False)
    return _kept_moves(orient, fit, out, fit.shape[1] - 2 * PAD, True)


@njit(cache=True, inline="always")
def _kept_moves(orient, fit, out, words, wide):  # pragma: no cover - compiled
    """:func:`kept_moves` over ``words`` words."""
    placement = orient[10]
    count_o = placement.shape[0]
    attach, mask = fit.shape[0] - 1, fit.shape[0] - 3
    saved = mask - count_o
    moves = 0
    for x in range(PAD, PAD + 2):
        live = fit[mask, x]
        while live != _ZERO:
            o = (x - PAD) * 64 + _lowest(live)
            live &= live - _ONE
            b, ws = _offsets(orient, o)
            for c in range(PAD, PAD + words):
                m = _covers(fit, attach, c, b, ws, wide)
                legal = fit[saved + o, c] & m
                while legal != _ZERO:
                    out[moves] = placement[o, (c - PAD) * 64 + _lowest(legal)]
                    moves += 1
                    legal &= legal - _ONE
    return moves


@njit(cache=True, inline="always")
def _reach(orient, n, occupied, edge, corner, hand, within, fit, reach, pieces, words, wide,
           keep):  # fmt: skip  # pragma: no cover
    """:func:`bit_reach` over ``words`` words (``wide``: offsets may reach past a word).

    First the anchors where each orientation of a held piece fits in the usable cells
    (``fit``'s first rows), and the orientations with any (the live ones, listed in order
    in scratch rows). Then the live orientations are visited in turn, round and round: each
    takes the anchors whose placement covers a queued cell (they leave ``fit``: each
    placement is taken once), adds their cells to the reach and queues at once the usable
    diagonal neighbours of the new cells, so that the orientations after it see them in
    the same round. It stops once every live orientation has been visited since the queue
    last grew: the closure of the rounds of the breadth-first version, with about one
    visit per orientation taken instead of a visit of every orientation per round."""
    piece, _, _, row5, valid, board, not_first, not_last, dist_bs, dist_ws, _, first = orient
    count_o = piece.shape[0]
    sh = count_o  # rows sh + i: the usable board shifted by the i-th distinct offset
    top = count_o + dist_bs.shape[0]
    usable, queue, fresh, new, hit, live = top, top + 1, top + 2, top + 3, top + 4, top + 5
    end = PAD + words
    # What kept_moves needs: the attach points (bit_generate's row), the live orientations
    # (a row of bits) and the anchors where each fits (a row each, before that one).
    attach, mask = fit.shape[0] - 1, fit.shape[0] - 3
    saved = mask - count_o
    pieces[:] = 0
    seeds = _ZERO
    for c in range(PAD, end):
        u = board[c] & within[c - PAD] & ~occupied[c - PAD] & ~edge[c - PAD]
        q = corner[c - PAD] & u
        fit[usable, c] = u
        fit[queue, c] = q
        if keep:
            fit[attach, c] = q
        reach[c - PAD] = _ZERO
        seeds |= q
    if keep:
        fit[mask, PAD] = fit[mask, PAD + 1] = _ZERO
    if seeds == _ZERO:
        return 0
    _shift_rows(fit, usable, dist_ws, dist_bs, sh, words, wide)
    width = words + 2 * PAD  # the live orientations, in order: scratch rows from `live`
    nlive = 0
    for q in range(first.shape[0] - 1):
        if hand[q] == 0:
            continue
        for o in range(first[q], first[q + 1]):
            r0, r1, r2, r3, r4 = sh + row5[o, 0], sh + row5[o, 1], sh + row5[o, 2], sh + row5[
                o, 3], sh + row5[o, 4]  # fmt: skip
            found = _ZERO
            for c in range(PAD, end):
                m = (valid[o, c] & fit[r0, c] & fit[r1, c] & fit[r2, c] & fit[r3, c]
                     & fit[r4, c])  # fmt: skip
                fit[o, c] = m
                found |= m
            if found != _ZERO:
                fit[live + nlive // width, nlive % width] = np.uint64(o)
                nlive += 1
                if keep:
                    fit[mask, PAD + (o >> 6)] |= _ONE << np.uint64(o & 63)
                    for c in range(PAD, end):
                        fit[saved + o, c] = fit[o, c]
    count = 0
    minus, plus = np.uint64(n - 1), np.uint64(n + 1)
    since = 0  # live orientations visited since the queue last grew
    i = 0
    while since < nlive:
        if i >= nlive:
            i = 0
        o = np.int64(fit[live + i // width, i % width])
        since += 1
        b, ws = _offsets(orient, o)
        hits = _ZERO
        for c in range(PAD, end):  # the anchors whose placement covers a queued cell
            m = _covers(fit, queue, c, b, ws, wide)
            a = fit[o, c] & m
            fit[hit, c] = a
            hits |= a
        if hits == _ZERO:
            i += 1
            continue
        pieces[piece[o]] = 1
        left = _ZERO
        for c in range(PAD, end):
            x = fit[o, c] & ~fit[hit, c]
            fit[o, c] = x
            left |= x
        if left == _ZERO:  # no anchor left: it needs no more visits (the order stays)
            nlive -= 1
            for j in range(i, nlive):
                fit[live + j // width, j % width] = fit[live + (j + 1) // width, (j + 1) % width]
            since -= 1
            i -= 1
        for c in range(PAD, end):  # the cells of those placements; the new ones
            m = _cells(fit, hit, c, b, ws, wide)
            x = m & ~reach[c - PAD]
            fit[new, c] = x
            reach[c - PAD] |= x
            count += popcount(x)
        grew = _ZERO
        for c in range(PAD, end):
            # Cells (n + 1) and (n - 1) after each new cell, from the word and its
            # neighbours (the shifts are under a word: n is at most 20).
            x, lo, hi = fit[new, c], fit[new, c - 1], fit[new, c + 1]
            lw, rw = x & not_first[c], x & not_last[c]
            near = (_dn(lw, hi & not_first[c + 1], plus) | _up(lw, lo & not_first[c - 1], minus)
                    | _dn(rw, hi & not_last[c + 1], minus)
                    | _up(rw, lo & not_last[c - 1], plus))  # fmt: skip
            f = near & fit[usable, c] & ~fit[queue, c]
            fit[fresh, c] = f
            grew |= f
        if grew != _ZERO:
            for c in range(PAD, end):
                fit[queue, c] |= fit[fresh, c]
            since = 0
        i += 1
    return count


@njit(cache=True, inline="always")
def _lowest(x):  # pragma: no cover - compiled
    """The index of the lowest set bit of the word ``x`` (not 0)."""
    return popcount((x & (~x + _ONE)) - _ONE)


@njit(cache=True, inline="always")
def _prepare(orient, fit, words, wide):  # pragma: no cover - compiled
    """The usable and attach boards (``fit``'s last two rows) shifted by each distinct
    offset, into ``fit``'s first rows: usable from 0, attach from the number of offsets."""
    dist_bs, dist_ws = orient[8], orient[9]
    rows = fit.shape[0]
    _shift_rows(fit, rows - 2, dist_ws, dist_bs, 0, words, wide)
    _shift_rows(fit, rows - 1, dist_ws, dist_bs, dist_bs.shape[0], words, wide)


@njit(cache=True, inline="always")
def _anchors(row5, valid, fit, count_d, o, c):  # pragma: no cover - compiled
    """Word ``c`` (a column of ``fit``) of the anchors where orientation ``o`` has every
    cell free and one attaching (``fit``'s rows from :func:`_prepare`). Inlined into
    functions compiled without reference counting, so binding its arrays costs nothing."""
    r0, r1, r2, r3, r4 = row5[o, 0], row5[o, 1], row5[o, 2], row5[o, 3], row5[o, 4]
    inside = valid[o, c] & fit[r0, c] & fit[r1, c] & fit[r2, c] & fit[r3, c] & fit[r4, c]
    d = count_d
    near = (fit[d + r0, c] | fit[d + r1, c] | fit[d + r2, c] | fit[d + r3, c]
            | fit[d + r4, c])  # fmt: skip
    return inside & near


@njit(cache=True, inline="always")
def _legal_rows(orient, occupied, edge, corner, fit, words):  # pragma: no cover - compiled
    """The colour's usable cells (on the board, empty, not beside its own) and attach
    points into ``fit``'s last two rows."""
    board, usable, attach = orient[5], fit.shape[0] - 2, fit.shape[0] - 1
    for c in range(PAD, PAD + words):
        u = board[c] & ~occupied[c - PAD] & ~edge[c - PAD]
        fit[usable, c] = u
        fit[attach, c] = corner[c - PAD] & u


@njit(cache=True, _nrt=False)
def bit_generate(orient, occupied, edge, corner, hand, fit, out):  # pragma: no cover
    """The legal placements of the colour with neighbourhoods ``edge`` and ``corner``
    holding ``hand`` into ``out``, by orientation and then anchor; how many. The same set
    as :func:`._compiled.generate`, in another order. ``fit`` is :func:`bit_reach`'s
    scratch."""
    if _narrow(orient, occupied.shape[0]):
        return _generate(orient, occupied, edge, corner, hand, fit, out, 4, False)
    return _generate(orient, occupied, edge, corner, hand, fit, out, occupied.shape[0], True)


@njit(cache=True, inline="always")
def _generate(orient, occupied, edge, corner, hand, fit, out, words, wide):  # pragma: no cover
    """:func:`bit_generate` over ``words`` words."""
    row5, valid, placement = orient[3], orient[4], orient[10]
    count_d = orient[8].shape[0]
    _legal_rows(orient, occupied, edge, corner, fit, words)
    _prepare(orient, fit, words, wide)
    first = orient[11]
    cnt = 0
    for q in range(first.shape[0] - 1):
        if hand[q] == 0:
            continue
        for o in range(first[q], first[q + 1]):
            for c in range(PAD, PAD + words):
                anchors = _anchors(row5, valid, fit, count_d, o, c)
                while anchors != _ZERO:
                    out[cnt] = placement[o, (c - PAD) * 64 + _lowest(anchors)]
                    cnt += 1
                    anchors &= anchors - _ONE
    return cnt


@njit(cache=True, _nrt=False)
def biggest_fit(orient, sizes, usable, attach, hand, fit):  # pragma: no cover - compiled
    """A placement of the biggest piece in ``hand`` (``sizes`` per piece, never falling
    with the piece index) with every cell in the board ``usable`` and one on ``attach``:
    of equal pieces the first orientation, at its lowest anchor; -1 if none. ``fit`` is
    :func:`bit_reach`'s scratch."""
    last = fit.shape[0] - 1
    for c in range(PAD, PAD + usable.shape[0]):
        fit[last - 1, c] = usable[c - PAD]
        fit[last, c] = attach[c - PAD]
    return _biggest_in_rows(orient, sizes, hand, fit)


@njit(cache=True, _nrt=False)
def biggest_legal(orient, sizes, occupied, edge, corner, hand, fit):  # pragma: no cover
    """:func:`biggest_fit` among the legal placements of the colour with neighbourhoods
    ``edge`` and ``corner``: the biggest it can place now, or -1 when it cannot place
    (cheaper than :func:`bit_generate`: it stops at the first fit of the biggest pieces)."""
    _legal_rows(orient, occupied, edge, corner, fit, occupied.shape[0])
    return _biggest_in_rows(orient, sizes, hand, fit)


@njit(cache=True, _nrt=False)
def _biggest_in_rows(orient, sizes, hand, fit):  # pragma: no cover - compiled
    """:func:`_biggest` with constant bounds on the Duo board."""
    words = fit.shape[1] - 2 * PAD
    if _narrow(orient, words):
        return _biggest(orient, sizes, hand, fit, 4, False)
    return _biggest(orient, sizes, hand, fit, words, True)


@njit(cache=True, inline="always")
def _biggest(orient, sizes, hand, fit, words, wide):  # pragma: no cover - compiled
    """:func:`biggest_fit` over ``words`` words, the usable and attach boards in
    ``fit``'s last two rows: the pieces by size, biggest first, each size's in order, so
    that the first fit found is the answer."""
    row5, valid, placement, first = orient[3], orient[4], orient[10], orient[11]
    count_d = orient[8].shape[0]
    _prepare(orient, fit, words, wide)
    q = sizes.shape[0] - 1
    while q >= 0:
        low = q  # the pieces of q's size: low..q
        while low > 0 and sizes[low - 1] == sizes[q]:
            low -= 1
        for p in range(low, q + 1):
            if hand[p] == 0:
                continue
            for o in range(first[p], first[p + 1]):
                for c in range(PAD, PAD + words):
                    anchors = _anchors(row5, valid, fit, count_d, o, c)
                    if anchors != _ZERO:
                        return placement[o, (c - PAD) * 64 + _lowest(anchors)]
        q = low - 1
    return -1


@njit(cache=True, inline="always")
def popcount(x):  # pragma: no cover - compiled
    """The set bits of the word ``x``."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))
