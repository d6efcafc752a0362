"""Sound bounds of the compiled City Blocks (Henning) search (private; numba).

Each function bounds the minimax value of the position in the state vector of
:mod:`polytile.puzzles.henning._kernel_state` from the mover's side, or of a move not yet
played; the notes below prove them, and ``tests/puzzles/henning/test_kernel.py`` checks each
figure against the rules engine and the Python solver.
"""

from __future__ import annotations

from polytile._jit import njit

from ._kernel_state import (
    _CAT,
    _COL,
    _ROW,
    _SB,
    _VAL,
    CH,
    EIN,
    HAND,
    HANDN,
    INF,
    KND,
    MON,
    MSUM,
    NMON,
    OWN,
    TOK,
    TURN,
)

# -- bounds ---------------------------------------------------------------------------------
#
# Every bound below is a bound of the minimax value (both players playing their best from
# here), not of every line of play. They rest on two facts of the rules:
#
# (F1) A player can always decline to redevelop: while a block is empty (otherwise the game
#      is over) any tile of its hand can develop it, and with an empty hand it passes. So
#      "never redevelop" is a strategy always open to either player, and under it that
#      player's money never goes down (only a redevelopment pays a token).
# (F2) Money only moves by awards of the open streets (a courthouse swaps their tokens but
#      keeps their total) and by redevelopments (the payer's lowest token leaves the game).
#
# Hence if ``p`` never redevelops, whatever the other plays, p ends with at least its money
# now and the other with at most its money now plus every open token: the value for p is at
# least margin - open. The same with the players exchanged gives at most margin + open.
# (The former bounds, each player's least money after paying one token per tile left, let
# either player pay tokens it need never pay: in the hardest benchmark position one side
# was 37 wider.)


@njit("UniTuple(int64, 2)(int64[::1])", cache=True)
def _bounds(st):
    """Sound (lo, hi) of the value for the player to move: its margin -/+ the open tokens
    (F1, F2 above)."""
    open_total = 0
    for s in range(11):
        if st[EIN + s] > 0:
            open_total += st[TOK + s]
    margin = st[MSUM] - st[MSUM + 1]
    if st[TURN] == 1:
        margin = -margin
    return margin - open_total, margin + open_total


@njit("void(int64[::1], int64, int64, int64, int64)", cache=True)
def _tally(stats, off, o, k, sign):
    """Add (sign 1) or take away (-1) a tile of owner ``o``, kind ``k``, in the street totals
    ``stats[off:off + 9]``: blue's houses, stores, factories, red's, then the counts of
    schools, power plants and malls."""
    c = _CAT[k]
    if c < 3:
        stats[off + 3 * o + c] += sign * _VAL[k]
    elif c < 6:
        stats[off + 3 + c] += sign


@njit("int64(int64[::1], int64)", cache=True)
def _lead(stats, off):
    """1, 0 or -1: the sign of blue's sum minus red's on the street of totals ``stats[off:]``
    (section 5.2: schools and malls zero the factories, power plants and malls the houses)."""
    nof = stats[off + 6] > 0 or stats[off + 8] > 0
    noh = stats[off + 7] > 0 or stats[off + 8] > 0
    blue = stats[off + 1] + (0 if nof else stats[off + 2]) + (0 if noh else stats[off])
    red = stats[off + 4] + (0 if nof else stats[off + 5]) + (0 if noh else stats[off + 3])
    return (blue > red) - (blue < red)


@njit("void(int64[::1], int64, int64[::1], int64)", cache=True)
def _load_street(st, s, stats, off):
    """The totals of street ``s`` now into ``stats[off:off + 9]``."""
    for i in range(9):
        stats[off + i] = 0
    for i in range(6):
        b = _SB[s, i]
        if b >= 0 and st[OWN + b] >= 0:
            _tally(stats, off, st[OWN + b], st[KND + b], 1)


@njit("UniTuple(int64, 2)(int64[::1], int64[::1], int64)", cache=True)
def _developments(st, stats, who):
    """Over the developments open to ``who`` (holding a tile) now: (most gained, least
    lost), where a development completing the streets C gains the sum over C of
    (1 + outcome) x token and loses the sum of (1 - outcome) x token, with outcomes 1, 0, -1
    for ``who`` and the tokens as after its courthouse swap (the best swap for each figure);
    one completing nothing gains and loses 0. ``stats``: the open streets' totals, street
    ``s`` at ``9 s`` (as :func:`_load_street`), left as they were."""
    sign = 1 if who == 0 else -1
    best_gain, best_loss = -INF, INF
    for e in range(30):
        if st[OWN + e] >= 0:
            continue
        r, c = _ROW[e], _COL[e]
        cr, cc = st[EIN + r] == 1, st[EIN + c] == 1
        if not cr and not cc:
            best_gain, best_loss = max(best_gain, 0), min(best_loss, 0)
            continue
        for k in range(19):
            if st[HAND + 19 * who + k] == 0:
                continue
            gr = gc = 0  # each completed street's outcome for ``who``
            if cr:
                _tally(stats, 9 * r, who, k, 1)
                gr = sign * _lead(stats, 9 * r)
                _tally(stats, 9 * r, who, k, -1)
            if cc:
                _tally(stats, 9 * c, who, k, 1)
                gc = sign * _lead(stats, 9 * c)
                _tally(stats, 9 * c, who, k, -1)
            tr, tc = st[TOK + r], st[TOK + c]
            gain = (tr * (1 + gr) if cr else 0) + (tc * (1 + gc) if cc else 0)
            loss = (tr * (1 - gr) if cr else 0) + (tc * (1 - gc) if cc else 0)
            if k == CH:  # the swap of two open streets' tokens best for each figure
                swap_gain, swap_loss = gain, loss
                for s1 in range(11):
                    if st[EIN + s1] == 0:
                        continue
                    w1 = l1 = 0
                    if cr and s1 == r:
                        w1, l1 = 1 + gr, 1 - gr
                    elif cc and s1 == c:
                        w1, l1 = 1 + gc, 1 - gc
                    for s2 in range(s1 + 1, 11):
                        if st[EIN + s2] == 0:
                            continue
                        w2 = l2 = 0
                        if cr and s2 == r:
                            w2, l2 = 1 + gr, 1 - gr
                        elif cc and s2 == c:
                            w2, l2 = 1 + gc, 1 - gc
                        d = st[TOK + s2] - st[TOK + s1]  # s1 gets s2's token and back
                        swap_gain = max(swap_gain, gain + (w1 - w2) * d)
                        swap_loss = min(swap_loss, loss + (l1 - l2) * d)
                gain, loss = swap_gain, swap_loss
            best_gain, best_loss = max(best_gain, gain), min(best_loss, loss)
    return best_gain, best_loss


@njit("UniTuple(int64, 2)(int64[::1], int64[::1])", cache=True)
def _one_ply(st, stats):
    """(lo, hi) of the mover's value, each of its moves bounded as :func:`_bounds` bounds a
    position but with the streets the move completes settled (-INF, INF with an empty hand).
    Loads the open streets' totals into ``stats`` (scratch of 99, street ``s`` at ``9 s``).

    Soundness. The value is the best of the mover's moves. After a development that
    completes streets C (tokens as after its courthouse swap, if any), the mover wins, ties
    or loses each of them for good; if it then never redevelops (F1) it loses at most the
    open tokens left, so that move is worth at least margin - open + its gain
    (:func:`_developments`); a move the mover can play, so lo is the best such figure. A
    development is worth at most margin + open - its loss (the other never redevelops) and
    a redevelopment at most margin + open - the lowest token (F2): hi is the best of those."""
    p = st[TURN]
    if st[HANDN + p] == 0:
        return -INF, INF
    sign = 1 if p == 0 else -1
    margin = sign * (st[MSUM] - st[MSUM + 1])
    total = 0
    for s in range(11):
        if st[EIN + s] > 0:
            total += st[TOK + s]
            _load_street(st, s, stats, 9 * s)
    hi = -INF
    if st[NMON + p] > 0:
        for b in range(30):
            if st[OWN + b] == p:  # a redevelopment is legal
                hi = margin + total - st[MON + 16 * p]
                break
    gain, loss = _developments(st, stats, p)
    return margin - total + gain, max(hi, margin + total - loss)


@njit("int64(int64[::1], int64[::1], int64)", cache=True)
def _settle_bound(st, stats, mv):
    """With ``stats`` the open streets' totals: at most what development ``mv`` is worth to
    the mover: margin + open - what it loses on the streets it completes (as
    :func:`_one_ply`, for this move and its own swap)."""
    p = st[TURN]
    sign = 1 if p == 0 else -1
    total = 0
    for s in range(11):
        if st[EIN + s] > 0:
            total += st[TOK + s]
    k = mv & 31
    b = (mv >> 5) & 31
    sw = mv >> 11
    s1, s2 = (sw - 1) // 11, (sw - 1) % 11
    loss = 0
    for s in (_ROW[b], _COL[b]):
        if st[EIN + s] != 1:
            continue
        _tally(stats, 9 * s, p, k, 1)
        g = sign * _lead(stats, 9 * s)
        _tally(stats, 9 * s, p, k, -1)
        t = s
        if sw and s == s1:
            t = s2
        elif sw and s == s2:
            t = s1
        loss += (1 - g) * st[TOK + t]
    return sign * (st[MSUM] - st[MSUM + 1]) + total - loss


@njit("int64(int64[::1], int64[::1], int64)", cache=True)
def _answer_bound(st, stats, mv):
    """With two empty blocks left and ``stats`` the open streets' totals: at most what
    development ``mv`` is worth to the mover, since the other player can answer by building
    on the last block at once (its best such finish; INF when it holds no tile).

    Exact for that line: the streets ``mv`` completes are settled with the mover's tile (and
    its swap), those of the last block with the answer's tile (and the answer's swap of
    their two tokens, the only open streets then)."""
    p = st[TURN]
    q = 1 - p
    if st[HANDN + q] == 0:
        return INF
    k = mv & 31
    e = (mv >> 5) & 31
    sw = mv >> 11
    f = 0
    while st[OWN + f] >= 0 or f == e:
        f += 1
    r, c, r2, c2 = _ROW[e], _COL[e], _ROW[f], _COL[f]
    tr, tc, tr2, tc2 = st[TOK + r], st[TOK + c], st[TOK + r2], st[TOK + c2]
    if sw:
        s1, s2 = (sw - 1) // 11, (sw - 1) % 11
        t1, t2 = st[TOK + s1], st[TOK + s2]
        tr = t2 if r == s1 else (t1 if r == s2 else tr)
        tc = t2 if c == s1 else (t1 if c == s2 else tc)
        tr2 = t2 if r2 == s1 else (t1 if r2 == s2 else tr2)
        tc2 = t2 if c2 == s1 else (t1 if c2 == s2 else tc2)
    _tally(stats, 9 * r, p, k, 1)
    _tally(stats, 9 * c, p, k, 1)
    settled = 0  # blue minus red on the streets mv completes
    if st[EIN + r] == 1:
        settled += _lead(stats, 9 * r) * tr
    if st[EIN + c] == 1:
        settled += _lead(stats, 9 * c) * tc
    best = INF if q == 1 else -INF
    for k2 in range(19):
        if st[HAND + 19 * q + k2] == 0:
            continue
        _tally(stats, 9 * r2, q, k2, 1)
        _tally(stats, 9 * c2, q, k2, 1)
        o0, o1 = _lead(stats, 9 * r2), _lead(stats, 9 * c2)
        _tally(stats, 9 * r2, q, k2, -1)
        _tally(stats, 9 * c2, q, k2, -1)
        v = o0 * tr2 + o1 * tc2
        if k2 == CH:
            v2 = o0 * tc2 + o1 * tr2
            v = min(v, v2) if q == 1 else max(v, v2)
        best = min(best, v) if q == 1 else max(best, v)
    _tally(stats, 9 * r, p, k, -1)
    _tally(stats, 9 * c, p, k, -1)
    return (1 if p == 0 else -1) * (st[MSUM] - st[MSUM + 1] + settled + best)


@njit("int64(int64, int64, int64, int64[::1], int64, int64)", cache=True)
def _best_answer(q, t0, t1, w, at, n):
    """Blue's margin change on the last block's row and column (tokens ``t0``, ``t1``) when
    ``q`` builds there with its best kind: ``w[at + 3 j]``, ``w[at + 3 j + 1]`` are the row's
    and column's outcomes (1 blue, 0 tie, -1 red) after its j-th kind (of ``n``) and
    ``w[at + 3 j + 2]`` is 1 for the courthouse (which may swap the two tokens)."""
    best = INF if q == 1 else -INF
    for j in range(n):
        o0, o1 = w[at + 3 * j], w[at + 3 * j + 1]
        v = o0 * t0 + o1 * t1
        if w[at + 3 * j + 2]:
            v2 = o0 * t1 + o1 * t0
            v = min(v, v2) if q == 1 else max(v, v2)
        best = min(best, v) if q == 1 else max(best, v)
    return best


@njit("UniTuple(int64, 2)(int64[::1], int64[::1], int64)", cache=True)
def _last_block(st, w, cap):
    """With one empty block ``e`` left and a tile in the mover's hand: (fin, wait), where
    fin is the mover's best value of building on ``e`` (which ends the game: exact) and wait
    bounds the value of every redevelopment it may play instead (-INF if it holds no
    token). So the value lies in [fin, max(fin, wait)]. Once wait is known to reach ``cap``
    (a bound the caller has already) INF is returned for it instead: it would not help.

    Soundness of wait. A redevelopment changes at most one block of e's row or column (any
    other block of the mover is dead: with one empty block every other street is awarded),
    may swap their two tokens (a courthouse) and pays the mover's lowest token. The other
    player can then build on ``e`` at once, ending the game; its best such finish is a
    value the mover cannot beat after that redevelopment. wait is the best over all the
    mover's redevelopments of that finish's value, and at most margin + open - lowest
    token (F2) when the other holds no tile. ``w``: scratch of 99."""
    p = st[TURN]
    q = 1 - p
    e = 0
    while st[OWN + e] >= 0:
        e += 1
    r, c = _ROW[e], _COL[e]
    _load_street(st, r, w, 0)
    _load_street(st, c, w, 9)
    t0, t1 = st[TOK + r], st[TOK + c]
    sign = 1 if p == 0 else -1
    margin = sign * (st[MSUM] - st[MSUM + 1])
    fin = -INF
    for k in range(19):
        if st[HAND + 19 * p + k] == 0:
            continue
        _tally(w, 0, p, k, 1)
        _tally(w, 9, p, k, 1)
        o0, o1 = _lead(w, 0), _lead(w, 9)
        _tally(w, 0, p, k, -1)
        _tally(w, 9, p, k, -1)
        v = sign * (o0 * t0 + o1 * t1)
        if k == CH:
            v = max(v, sign * (o0 * t1 + o1 * t0))
        fin = max(fin, v)
    fin += margin
    if st[NMON + p] == 0:
        return fin, -INF
    paid = margin - st[MON + 16 * p]  # the mover's margin after paying its lowest token
    if st[HANDN + q] == 0:
        return fin, paid + t0 + t1
    if fin >= cap or paid - t0 - t1 >= cap:
        return fin, INF
    # the other's answers: per kind, the outcomes on the row and column as they are now
    at = 18
    n = 0
    for k in range(19):
        if st[HAND + 19 * q + k]:
            _tally(w, 0, q, k, 1)
            _tally(w, 9, q, k, 1)
            w[at + 3 * n], w[at + 3 * n + 1] = _lead(w, 0), _lead(w, 9)
            w[at + 3 * n + 2] = 1 if k == CH else 0
            w[at + 40 + n] = k
            _tally(w, 0, q, k, -1)
            _tally(w, 9, q, k, -1)
            n += 1
    saved = at + 50
    mine = at + 60  # the mover's kinds
    m = 0
    for k in range(19):
        if st[HAND + 19 * p + k]:
            w[mine + m] = k
            m += 1
    best = -INF
    dead_done = False
    for b in range(30):
        if st[OWN + b] != p:
            continue
        if _ROW[b] == r:
            side = 0
        elif _COL[b] == c:
            side = 1
        elif dead_done:  # dead blocks: all alike, the streets stay as they are
            continue
        else:
            dead_done = True
            side = -1
        old = st[KND + b]
        off = 9 * side
        for i in range(m):
            k = w[mine + i]
            if side >= 0:  # this street changes: the other's answers on it again
                _tally(w, off, p, old, -1)
                _tally(w, off, p, k, 1)
                for j in range(n):
                    w[saved + j] = w[at + 3 * j + side]
                    _tally(w, off, q, w[at + 40 + j], 1)
                    w[at + 3 * j + side] = _lead(w, off)
                    _tally(w, off, q, w[at + 40 + j], -1)
            v = sign * _best_answer(q, t0, t1, w, at, n)
            if k == CH:  # the mover's own swap, whichever suits it
                v = max(v, sign * _best_answer(q, t1, t0, w, at, n))
            if side >= 0:
                for j in range(n):
                    w[at + 3 * j + side] = w[saved + j]
                _tally(w, off, p, k, -1)
                _tally(w, off, p, old, 1)
            best = max(best, v)
            if paid + best >= cap:
                return fin, INF
    return fin, min(paid + best, paid + t0 + t1)
