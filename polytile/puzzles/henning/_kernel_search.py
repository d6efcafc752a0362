"""The compiled search of :mod:`polytile.puzzles.henning.kernel` (private; numba).

Everything here sees one flat ``int64`` state vector ``st`` (fields at the offsets below,
written by :func:`polytile.puzzles.henning.kernel.encode`) and small integer moves
(:func:`move_code`). The search is a recursive fail-soft negamax with principal variation
search: values are the mover's money minus the other's, the table stores proven intervals
per Zobrist key, the moves are ordered by a history of cutoffs. Each position's interval
starts from sound bounds (:func:`_bounds`, :func:`_one_ply`, :func:`_last_block`), and moves
a bound shows no better than the best so far are not played (:func:`_unplayed_bound`); the
proofs are in their notes, and ``tests/puzzles/henning/test_kernel.py`` checks each figure
against the rules engine and the Python solver. The wrapper reads ``ctr`` (positions,
limit, status) after :func:`run`.
"""

from __future__ import annotations

import numpy as np

from polytile._jit import njit

from ._kernel_bounds import (
    _answer_bound,
    _bounds,
    _last_block,
    _lead,
    _one_ply,
    _settle_bound,
    _tally,
)
from ._kernel_state import (
    _CAT,
    _COL,
    _ROW,
    _VAL,
    ABORTED,
    ANSWERS,
    CH,
    DRAWN,
    EIN,
    EMPTY,
    HAND,
    HANDN,
    INF,
    KND,
    LOST_PV,
    MON,
    MSUM,
    NMON,
    NO_MOVE,
    OK,
    OWN,
    PASS_CODE,
    RESN,
    ROW_SIZE,
    SIZE,
    STATS_AT,
    TOK,
    TURN,
    _hash,
    is_over,
    make,
    move_code,
    unmake,
)

__all__ = [
    "ABORTED",
    "HIST_SIZE",
    "LOST_PV",
    "NO_MOVE",
    "OK",
    "PASS_CODE",
    "ROW_SIZE",
    "SIZE",
    "move_code",
    "run",
]

# -- moves ----------------------------------------------------------------------------------

# _WEAKER[j, k]: kind j is never better than kind k for its owner, wherever it stands: the
# same category (house, store, factory) and no higher value, or k a store (always counted)
# and j a house or factory of no higher value. Schools, power plants, malls and the
# courthouse are weaker or stronger than nothing (they switch categories off or swap).
_WEAKER = np.zeros((19, 19), dtype=np.bool_)
for _j in range(15):
    for _k in range(15):
        if _j != _k and _VAL[_j] <= _VAL[_k] and (_CAT[_j] == _CAT[_k] or _CAT[_k] == 1):
            _WEAKER[_j, _k] = True
HIST_SIZE = 8 * 2 * 2048  # history: (empty blocks up to 7, player, kind | block | redevelop)


@njit("int64(int64[::1], int64[::1], int64[::1], int64[::1])", cache=True)
def _generate(st, hist, moves, scores):
    """Every move worth searching into ``moves``, their ordering scores (history, then
    developments first) into ``scores``; the count.

    Of the redevelopments of dead blocks (both streets awarded) only the first such block's
    are listed: they all reach the same key. Of those, a tile is not listed when the hand
    holds a weaker one (:data:`_WEAKER`) to give up instead. Exact: the two redevelopments
    differ only in the tile kept. Keeping the stronger one (X) is never worse than keeping
    the weaker (Y): in X the mover can follow any strategy of Y, the stronger tile standing
    in for the weaker. The blocks filled, the awards' moments and the modifiers are the
    same; on each street the mover's sum is at least as high and the other's the same, so
    the mover wins, ties or loses it no worse. By induction the mover's tokens in X contain
    those of Y and the other's are contained in them (adding the same token keeps that, and
    so does each paying its lowest one), so every move the other can make in X it could
    make in Y, and the final margin is at least as good."""
    p = st[TURN]
    if st[HANDN + p] == 0:
        moves[0] = PASS_CODE
        scores[0] = 0
        return 1
    hb = (2 * min(st[EMPTY], 7) + p) << 11
    kinds = np.empty(5, dtype=np.int64)  # the hand's kinds (a hand holds at most 5 tiles)
    nk = 0
    for k in range(19):
        if st[HAND + 19 * p + k]:
            kinds[nk] = k
            nk += 1
    n = 0
    can_pay = st[NMON + p] > 0
    dead_seen = False
    for b in range(30):
        o = st[OWN + b]
        dead = False
        if o < 0:
            redev = 0
        elif o == p and can_pay:
            redev = 1
            if st[EIN + _ROW[b]] == 0 and st[EIN + _COL[b]] == 0:
                if dead_seen:
                    continue
                dead_seen = dead = True
        else:
            continue
        for i in range(nk):
            k = kinds[i]
            if dead and k < 15:
                weaker = False
                for j in range(15):
                    if st[HAND + 19 * p + j] and _WEAKER[j, k]:
                        weaker = True
                        break
                if weaker:
                    continue
            base = k | b << 5 | redev << 10
            score = 2 * hist[hb + (base & 2047)] + 1 - redev
            moves[n] = base
            scores[n] = score
            n += 1
            if k == CH:
                for s1 in range(11):
                    if st[EIN + s1] == 0:
                        continue
                    for s2 in range(s1 + 1, 11):
                        if st[EIN + s2] == 0:
                            continue
                        moves[n] = base | (1 + 11 * s1 + s2) << 11
                        scores[n] = score
                        n += 1
    return n


@njit("boolean(int64[::1], int64)", cache=True)
def _legal(st, mv):
    """Whether a placement (a table move from a position with the same key) is legal here."""
    p = st[TURN]
    if mv < 0 or mv == PASS_CODE or st[HANDN + p] == 0:
        return False
    k = mv & 31
    b = (mv >> 5) & 31
    sw = mv >> 11
    if st[HAND + 19 * p + k] == 0:
        return False
    if (mv >> 10) & 1:
        if st[OWN + b] != p or st[NMON + p] == 0:
            return False
    elif st[OWN + b] >= 0:
        return False
    return not (sw and (st[EIN + (sw - 1) // 11] == 0 or st[EIN + (sw - 1) % 11] == 0))


# -- the transposition table ----------------------------------------------------------------
#
# ``tt`` holds pairs of slots (a bucket: 4 int64, 32 bytes): each slot the full 64-bit key,
# then its data packed in one int64: lo and hi (clamped to +-CLAMP, still sound since every
# value lies far inside), the best move + 1 and the tiles left when stored (a measure of
# the work behind it). A key is looked for in both slots of its bucket; a new entry replaces
# its own key's slot, else the first slot if that has no more tiles left (its entry moves to
# the second), else the second: the first keeps the deeper entries, the second the recent.
CLAMP = 1 << 16
_F = (1 << 18) - 1


@njit("int64(int64, int64, int64, int64)", cache=True)
def _pack(lo, hi, mv, depth):
    lo = min(max(lo, -CLAMP), CLAMP) + CLAMP
    hi = min(max(hi, -CLAMP), CLAMP) + CLAMP
    return lo | hi << 18 | (mv + 1) << 36 | min(depth, 63) << 57


@njit("void(int64[::1], int64, int64, int64, int64, int64)", cache=True)
def _store(tt, h, lo, hi, mv, depth):
    i = (h & ((tt.shape[0] >> 1) - 2)) << 1  # bucket start (slots i, i + 2)
    data = _pack(lo, hi, mv, depth)
    if tt[i] == h:
        tt[i + 1] = data
    elif tt[i + 2] != h and (tt[i + 1] >> 57) <= depth:
        tt[i + 2], tt[i + 3] = tt[i], tt[i + 1]
        tt[i], tt[i + 1] = h, data
    else:
        tt[i + 2], tt[i + 3] = h, data


@njit("int64(int64[::1], int64)", cache=True)
def _probe(tt, h):
    """The packed data of key ``h``, or -1 (no entry)."""
    i = (h & ((tt.shape[0] >> 1) - 2)) << 1
    if tt[i] == h:
        return tt[i + 1]
    if tt[i + 2] == h:
        return tt[i + 3]
    return -1


@njit("int64(int64[::1])", cache=True)
def _tiles_left(st):
    return st[HANDN] + st[HANDN + 1] + st[RESN] + st[RESN + 1] - st[DRAWN] - st[DRAWN + 1]


# -- the search -----------------------------------------------------------------------------


@njit("int64(int64[::1], int64[::1])", cache=True)
def _answers(st, stats):
    """The other player's developments that complete streets, into ``stats[99:]`` (from
    ``stats`` the open streets' totals, at most ANSWERS of them), 6 integers each: block,
    kind, then for each street it completes (-1 for none) the street and its outcome for
    the other player (1 won, 0 tied, -1 lost); their count."""
    q = 1 - st[TURN]
    if st[HANDN + q] == 0:
        return 0
    sign = 1 if q == 0 else -1
    n = 0
    for e in range(30):
        if st[OWN + e] >= 0:
            continue
        r, c = _ROW[e], _COL[e]
        if st[EIN + r] != 1 and st[EIN + c] != 1:
            continue
        for k in range(19):
            if st[HAND + 19 * q + k] == 0 or n == ANSWERS:
                continue
            at = 99 + 6 * n
            stats[at], stats[at + 1] = e, k
            for i in range(2):
                s = r if i == 0 else c
                stats[at + 2 + 2 * i], stats[at + 3 + 2 * i] = -1, 0
                if st[EIN + s] == 1:
                    _tally(stats, 9 * s, q, k, 1)
                    stats[at + 2 + 2 * i] = s
                    stats[at + 3 + 2 * i] = sign * _lead(stats, 9 * s)
                    _tally(stats, 9 * s, q, k, -1)
            n += 1
    return n


@njit("int64(int64[::1], int64[::1], int64, int64)", cache=True)
def _reply_gain(st, stats, n, mv):
    """The most the other player gains at once, by one of its ``n`` developments listed by
    :func:`_answers`, after the mover's move ``mv``: a development completing the streets C
    gains the sum over C of (1 + outcome) x token, the outcomes as ``mv`` leaves the street
    totals, the tokens as its courthouse swap (if any) leaves them, then as the other's
    courthouse swaps them, if that is its tile (the best swap of a completed street's token
    with another street still open). 0 when none completes a street.

    After a redevelopment every listed development stays legal and completes the same
    streets. After a development on block ``e`` those on ``e`` are gone; the others stay
    legal, and their listed streets (one empty block each, not ``e``: so not ``e``'s
    streets) are still completed by them, unchanged, maybe with more streets of ``e``
    that ``mv`` left one block short: counting fewer streets, each worth at least 0, is
    still a gain the other can make."""
    p = st[TURN]
    q = 1 - p
    sign = 1 if q == 0 else -1
    k = mv & 31
    b = (mv >> 5) & 31
    redev = (mv >> 10) & 1
    sw = mv >> 11
    s1, s2 = (sw - 1) // 11, (sw - 1) % 11
    r, c = _ROW[b], _COL[b]
    old = st[KND + b]
    gone0 = -1 if redev or st[EIN + r] != 1 else r  # streets a development completes
    gone1 = -1 if redev or st[EIN + c] != 1 else c
    for s in (r, c):  # the move, on the block's open streets
        if st[EIN + s] > 0:
            if redev:
                _tally(stats, 9 * s, p, old, -1)
            _tally(stats, 9 * s, p, k, 1)
    best = 0
    for i in range(n):
        at = 99 + 6 * i
        if not redev and stats[at] == b:
            continue
        gain = 0
        sa = sb = -1  # the completed streets, their weights 1 + outcome and tokens
        wa = wb = ta = tb = 0
        for j in range(2):
            s = stats[at + 2 + 2 * j]
            if s < 0:
                continue
            outcome = stats[at + 3 + 2 * j]
            if s in (r, c):  # a street the redevelopment changed: its outcome again
                _tally(stats, 9 * s, q, stats[at + 1], 1)
                outcome = sign * _lead(stats, 9 * s)
                _tally(stats, 9 * s, q, stats[at + 1], -1)
            t = s
            if sw and s == s1:
                t = s2
            elif sw and s == s2:
                t = s1
            gain += (1 + outcome) * st[TOK + t]
            if sa < 0:
                sa, wa, ta = s, 1 + outcome, st[TOK + t]
            else:
                sb, wb, tb = s, 1 + outcome, st[TOK + t]
        if stats[at + 1] == CH:  # the other's courthouse: its best swap with a completed street
            swapped = gain
            for u in range(11):
                if st[EIN + u] == 0 or u in (sa, sb, gone0, gone1):
                    continue
                tu = st[TOK + u]
                if sw and u == s1:
                    tu = st[TOK + s2]
                elif sw and u == s2:
                    tu = st[TOK + s1]
                swapped = max(swapped, gain + wa * (tu - ta))
                if sb >= 0:
                    swapped = max(swapped, gain + wb * (tu - tb))
            if sb >= 0:
                swapped = max(swapped, gain + (wa - wb) * (tb - ta))
            gain = swapped
        best = max(best, gain)
    for s in (r, c):
        if st[EIN + s] > 0:
            _tally(stats, 9 * s, p, k, -1)
            if redev:
                _tally(stats, 9 * s, p, old, 1)
    return best


@njit("int64(int64[::1])", cache=True)
def _wait_bound(st):
    """At most what any redevelopment is worth to the mover: margin + open - its lowest
    token (F2); INF when it holds no token."""
    p = st[TURN]
    if st[NMON + p] == 0:
        return INF
    return _bounds(st)[1] - st[MON + 16 * p]


@njit("int64(int64[::1], int64[::1], int64, int64, int64, int64)", cache=True)
def _unplayed_bound(st, stats, n, mv, wait, enough):
    """An upper bound of what move ``mv`` is worth to the mover, found without playing it,
    with two or more blocks empty, ``stats`` the open streets' totals and the other's ``n``
    answers (:func:`_answers`); the finer figures are tried only while the bound is above
    ``enough``.

    A development: what it loses on the streets it completes (:func:`_settle_bound`); two
    blocks before the end, the other's best finish after it (:func:`_answer_bound`), else
    less what the other can then gain at once (:func:`_reply_gain`).

    A redevelopment: ``wait`` (:func:`_wait_bound`) less what the other can then gain at
    once (:func:`_reply_gain`).

    Sound: if the other then plays its best listed development and after that never
    redevelops (F1), the mover ends with at most its margin after ``mv`` (less the token a
    redevelopment pays, plus the streets a development settles) + the open tokens left -
    that gain."""
    if (mv >> 10) & 1:
        if wait > enough and n > 0:
            return wait - _reply_gain(st, stats, n, mv)
        return wait
    bound = _settle_bound(st, stats, mv)
    if bound > enough and st[EMPTY] == 2:
        bound = min(bound, _answer_bound(st, stats, mv))
    elif bound > enough and n > 0:
        bound -= _reply_gain(st, stats, n, mv)
    return bound


@njit(
    "int64(int64[::1], int64[::1], int64[::1], int64[::1], int64[:, ::1], int64[:, ::1], "
    "int64[::1], int64, int64, int64)",
    cache=True,
)
def search(st, zob, tt, hist, mbuf, sbuf, ctr, alpha, beta, ply):
    """Fail-soft negamax with principal variation search: the value for the player to move
    if it lies in (alpha, beta), else a bound on the failing side. ``ctr``: positions, node
    limit, status."""
    ctr[0] += 1
    if ctr[0] > ctr[1]:
        ctr[2] = ABORTED
        return 0
    if is_over(st):
        return (st[MSUM] - st[MSUM + 1]) * (1 if st[TURN] == 0 else -1)
    h = _hash(st, zob)
    if h == 0:  # 0 marks an empty slot
        h = 1
    lo, hi, hint = -INF, INF, NO_MOVE
    data = _probe(tt, h)
    if data >= 0:
        lo = (data & _F) - CLAMP
        hi = ((data >> 18) & _F) - CLAMP
        hint = ((data >> 36) & ((1 << 21) - 1)) - 1
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
    blo, bhi = _bounds(st)
    lo, hi = max(lo, blo), min(hi, bhi)
    p = st[TURN]
    scratch = sbuf[ply, STATS_AT:]
    if st[HANDN + p] > 0:
        if st[EMPTY] == 1:
            fin, wait = _last_block(st, scratch, hi)
            lo, hi = max(lo, fin), min(hi, max(fin, wait))
        else:
            olo, ohi = _one_ply(st, scratch)
            lo, hi = max(lo, olo), min(hi, ohi)
    depth = _tiles_left(st)
    if lo >= beta or lo == hi or hi <= alpha:
        _store(tt, h, lo, hi, hint, depth)
        return lo if (lo >= beta or lo == hi) else hi
    a, b = max(alpha, lo), min(beta, hi)
    a0, b0 = a, b
    best, best_move = -INF, NO_MOVE
    if _legal(st, hint):  # the table's move first, before the others are listed
        undo = make(st, hint)
        best = -search(st, zob, tt, hist, mbuf, sbuf, ctr, -b, -a, ply + 1)
        unmake(st, hint, undo)
        if ctr[2] != OK:
            return 0
        best_move = hint
        a = max(a, best)
    else:
        hint = NO_MOVE
    moves, scores = mbuf[ply], sbuf[ply]
    n = _generate(st, hist, moves, scores) if a < b else 0
    # Moves proved no better than ``a`` by a bound are not played (_unplayed_bound);
    # ``scratch`` holds the open streets' totals (from _one_ply) then.
    static = n > 0 and st[EMPTY] >= 2 and st[HANDN + p] > 0
    wait_hi, answers = INF, 0
    if static:
        wait_hi = _wait_bound(st)
        if wait_hi > a:
            answers = _answers(st, scratch)
    i = 0
    while i < n:
        # selection of the best-scored move left (most nodes cut off after one or two)
        j = i
        for x in range(i + 1, n):
            if scores[x] > scores[j]:
                j = x
        moves[i], moves[j] = moves[j], moves[i]
        scores[i], scores[j] = scores[j], scores[i]
        mv = moves[i]
        i += 1
        if mv == hint:
            continue
        if static:
            bound = _unplayed_bound(st, scratch, answers, mv, wait_hi, a)
            if bound <= a:
                if bound > best:
                    best, best_move = bound, mv
                continue
        undo = make(st, mv)
        if best == -INF:  # the first move: the whole window
            v = -search(st, zob, tt, hist, mbuf, sbuf, ctr, -b, -a, ply + 1)
        else:  # the others: a null window proves them no better, else the whole again
            v = -search(st, zob, tt, hist, mbuf, sbuf, ctr, -a - 1, -a, ply + 1)
            if a < v < b and ctr[2] == OK:
                v = -search(st, zob, tt, hist, mbuf, sbuf, ctr, -b, -a, ply + 1)
        unmake(st, mv, undo)
        if ctr[2] != OK:
            return 0
        if v > best:
            best, best_move = v, mv
        if v > a:
            a = v
        if a >= b:
            break
    if a >= b and best_move != PASS_CODE:  # history: moves that cut off, more when deep
        slot = ((2 * min(st[EMPTY], 7) + p) << 11) + (best_move & 2047)
        hist[slot] = min(hist[slot] + depth * depth + 1, 1 << 40)
    if best <= a0:
        hi = min(hi, best)
    elif best >= b0:
        lo = max(lo, best)
    else:
        lo = hi = best
    _store(tt, h, lo, hi, best_move, depth)
    return best


@njit(
    "int64(int64[::1], int64[::1], int64[::1], int64[::1], int64[:, ::1], int64[:, ::1], "
    "int64[::1], int64, int64, int64[::1])",
    cache=True,
)
def principal_variation(st, zob, tt, hist, mbuf, sbuf, ctr, value, ply, out):
    """Moves from ``st`` (value ``value`` for its mover) to the end that keep the value, into
    ``out``; their count, or -1 (``ctr[2]`` set) if none keeps it. ``st`` is restored."""
    undos = np.empty(out.shape[0], dtype=np.int64)
    length = 0
    lost = False
    while not is_over(st) and not lost:
        moves, scores = mbuf[ply + length], sbuf[ply + length]
        n = _generate(st, hist, moves, scores)
        lost = True
        for i in range(n):
            mv = moves[i]
            undo = make(st, mv)
            v = search(
                st, zob, tt, hist, mbuf, sbuf, ctr, -value - 1, -value + 1, ply + length + 1
            )  # the child's value, for its mover
            if ctr[2] != OK:
                unmake(st, mv, undo)
                break
            if v == -value:
                out[length], undos[length] = mv, undo
                length += 1
                value = v
                lost = False
                break
            unmake(st, mv, undo)
    for i in range(length - 1, -1, -1):
        unmake(st, out[i], undos[i])
    if ctr[2] != OK:
        return -1
    if lost:
        ctr[2] = LOST_PV
        return -1
    return length


@njit(
    "void(int64[::1], int64[::1], int64[::1], int64[::1], int64[:, ::1], int64[:, ::1], "
    "int64[::1], int64[::1], int64[::1], int64[:, ::1], int64[::1])",
    cache=True,
)
def run(st, zob, tt, hist, mbuf, sbuf, ctr, roots, values, pvs, pv_len):
    """Each root move's value (blue minus red) into ``values`` and a line keeping it into
    ``pvs``/``pv_len``; no ``roots`` (empty) means the value of ``st`` itself, in
    ``values[0]``. Stops early with ``ctr[2]`` set. ``hist`` (move ordering only) is kept
    from run to run, halved at each start."""
    nroot = roots.shape[0]
    for r in range(max(nroot, 1)):
        mv = roots[r] if nroot else NO_MOVE
        undo = make(st, mv) if nroot else 0
        ply = 1 if nroot else 0
        sign = 1 if st[TURN] == 0 else -1
        v = search(st, zob, tt, hist, mbuf, sbuf, ctr, -INF, INF, ply)
        if ctr[2] == OK:
            values[r] = sign * v
            pv_len[r] = principal_variation(st, zob, tt, hist, mbuf, sbuf, ctr, v, ply, pvs[r])
        if nroot:
            unmake(st, mv, undo)
        if ctr[2] != OK:
            return
