"""The compiled search of :mod:`polytile.puzzles.henning.kernel` (private; numba).

Everything here sees one flat ``int64`` state vector ``st`` (fields at the offsets below,
written by :func:`polytile.puzzles.henning.kernel.encode`) and small integer moves
(:func:`move_code`). The search is a recursive fail-soft negamax: values are the mover's
money minus the other's, the table stores proven intervals per Zobrist key. The wrapper reads
``ctr`` (positions, limit, status) after :func:`run`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = [
    "ABORTED",
    "LOST_PV",
    "NO_MOVE",
    "OK",
    "PASS_CODE",
    "ROW_SIZE",
    "SIZE",
    "move_code",
    "run",
]

# -- the state vector ---------------------------------------------------------------------
OWN, KND, TOK, AWD, EIN = 0, 30, 60, 71, 82  # owner[30], kind[30], tokens, award_of, empty_in
MON, NMON, MSUM = 93, 125, 127  # money[2][16] ascending, its lengths, its sums
HAND, HANDN = 129, 167  # hand[2][19] counts per kind, hand sizes
RES, RESN, DRAWN = 169, 209, 211  # reserve[2][20] still to draw, lengths, drawn so far
TURN, EMPTY, SIZE = 213, 214, 215

OPEN, TIED, CH = -1, 2, 18
PASS_CODE = 1 << 20  # a pass; placements are below 1 << 18
NO_MOVE = -1
INF = 1 << 20
MAX_MOVES = 1920  # placements of one position: at most 30 blocks x (4 kinds + 56 swaps)
STATS_AT = MAX_MOVES  # the rest of a scores row is scratch for street totals (11 x 9)
ROW_SIZE = STATS_AT + 99
OK, ABORTED, LOST_PV = 0, 1, 2  # ctr[2] after a run

_ROW = np.array([b // 6 for b in range(30)], dtype=np.int64)
_COL = np.array([5 + b % 6 for b in range(30)], dtype=np.int64)
_SB = np.array([[r * 6 + c for c in range(6)] for r in range(5)]
               + [[r * 6 + c for r in range(5)] + [-1] for c in range(6)], dtype=np.int64)
_VAL = np.array([1, 2, 3, 4, 5, 2, 3, 4, 5, 6, 3, 4, 5, 6, 7, 0, 0, 0, 0], dtype=np.int64)
# 0 house, 1 store, 2 factory, 3 school, 4 power plant, 5 mall, 6 courthouse
_CAT = np.array([0] * 5 + [1] * 5 + [2] * 5 + [3, 4, 5, 6], dtype=np.int64)

# Zobrist table layout (``zob``): board, open-street tokens, money, hands, reserve, dead, turn.
Z_BOARD, Z_TOK, Z_MON = 0, 30 * 38, 30 * 38 + 11 * 16
Z_HAND = Z_MON + 2 * 16
Z_DRAWN = Z_HAND + 2 * 19 * 8
Z_DEAD = Z_DRAWN + 2 * 21
Z_TURN = Z_DEAD + 2
Z_RES = Z_TURN + 1  # the reserve still to draw: (player, place from the next draw, kind)
Z_SIZE = Z_RES + 2 * 20 * 19


def move_code(kind: int, block: int, redevelop: bool, swap: tuple[int, int] | None) -> int:
    """A placement as an integer: kind | block << 5 | redevelop << 10 | swap << 11, where
    swap is 0 (none) or 1 + 11 s + t for the streets s < t."""
    sw = 0 if swap is None else 1 + 11 * swap[0] + swap[1]
    return kind | block << 5 | int(redevelop) << 10 | sw << 11


@njit("UniTuple(int64, 2)(int64[::1], int64)", cache=True)
def _sums(st, s):
    """Blue's and red's totals on street ``s`` now (section 5.2)."""
    h0 = h1 = v0 = v1 = f0 = f1 = 0
    nof = noh = False
    for i in range(6):
        b = _SB[s, i]
        if b < 0:
            break
        o = st[OWN + b]
        if o < 0:
            continue
        k = st[KND + b]
        c = _CAT[k]
        if c == 0:
            if o == 0:
                h0 += _VAL[k]
            else:
                h1 += _VAL[k]
        elif c == 1:
            if o == 0:
                v0 += _VAL[k]
            else:
                v1 += _VAL[k]
        elif c == 2:
            if o == 0:
                f0 += _VAL[k]
            else:
                f1 += _VAL[k]
        elif c == 3:
            nof = True
        elif c == 4:
            noh = True
        elif c == 5:
            nof = noh = True
    if not nof:
        v0 += f0
        v1 += f1
    if not noh:
        v0 += h0
        v1 += h1
    return v0, v1


@njit("void(int64[::1], int64, int64)", cache=True)
def _money_add(st, p, t):
    n = st[NMON + p]
    i = n
    base = MON + 16 * p
    while i > 0 and st[base + i - 1] > t:
        st[base + i] = st[base + i - 1]
        i -= 1
    st[base + i] = t
    st[NMON + p] = n + 1
    st[MSUM + p] += t


@njit("void(int64[::1], int64, int64)", cache=True)
def _money_remove(st, p, t):
    n = st[NMON + p]
    base = MON + 16 * p
    j = 0
    for i in range(n):
        if st[base + i] != t:
            st[base + j] = st[base + i]
            j += 1
    for i in range(j, n):
        st[base + i] = 0
    st[NMON + p] = j
    st[MSUM + p] -= t * (n - j)


@njit("int64(int64[::1], int64)", cache=True)
def make(st, mv):
    """Play ``mv`` (legal) for the player to move; return what :func:`unmake` needs: the old
    kind + 1, the token paid << 5, the streets awarded + 1 << 10 and << 14, drew << 18."""
    p = st[TURN]
    st[TURN] = 1 - p
    if mv == PASS_CODE:
        return 0
    k = mv & 31
    b = (mv >> 5) & 31
    redev = (mv >> 10) & 1
    sw = mv >> 11
    st[HAND + 19 * p + k] -= 1
    st[HANDN + p] -= 1
    undo = 0
    if redev:
        undo = st[KND + b] + 1
        paid = st[MON + 16 * p]
        _money_remove(st, p, paid)
        undo |= paid << 5
    else:
        st[EMPTY] -= 1
        st[OWN + b] = p
    st[KND + b] = k
    if sw:
        s, t = (sw - 1) // 11, (sw - 1) % 11
        st[TOK + s], st[TOK + t] = st[TOK + t], st[TOK + s]
    if not redev:
        shift = 10
        for s in (_ROW[b], _COL[b]):
            st[EIN + s] -= 1
            if st[EIN + s] == 0:
                blue, red = _sums(st, s)
                if blue == red:
                    st[AWD + s] = TIED
                else:
                    w = 0 if blue > red else 1
                    st[AWD + s] = w
                    _money_add(st, w, st[TOK + s])
                undo |= (s + 1) << shift
                shift = 14
    d = st[DRAWN + p]
    if d < st[RESN + p]:
        st[HAND + 19 * p + st[RES + 20 * p + d]] += 1
        st[HANDN + p] += 1
        st[DRAWN + p] = d + 1
        undo |= 1 << 18
    return undo


@njit("void(int64[::1], int64, int64)", cache=True)
def unmake(st, mv, undo):
    """Take back ``mv``, played with :func:`make` which returned ``undo``."""
    p = 1 - st[TURN]
    st[TURN] = p
    if mv == PASS_CODE:
        return
    k = mv & 31
    b = (mv >> 5) & 31
    redev = (mv >> 10) & 1
    sw = mv >> 11
    if undo >> 18:
        d = st[DRAWN + p] - 1
        st[DRAWN + p] = d
        st[HAND + 19 * p + st[RES + 20 * p + d]] -= 1
        st[HANDN + p] -= 1
    for shift in (14, 10):
        s = ((undo >> shift) & 15) - 1
        if s >= 0:
            w = st[AWD + s]
            if w != TIED:
                _money_remove(st, w, st[TOK + s])
            st[AWD + s] = OPEN
    if not redev:
        st[EIN + _ROW[b]] += 1
        st[EIN + _COL[b]] += 1
    if sw:
        s, t = (sw - 1) // 11, (sw - 1) % 11
        st[TOK + s], st[TOK + t] = st[TOK + t], st[TOK + s]
    if redev:
        st[KND + b] = (undo & 31) - 1
        _money_add(st, p, (undo >> 5) & 31)
    else:
        st[OWN + b] = -1
        st[KND + b] = -1
        st[EMPTY] += 1
    st[HAND + 19 * p + k] += 1
    st[HANDN + p] += 1


@njit("boolean(int64[::1])", cache=True)
def is_over(st):
    """Every block built, or neither player holds a tile (then neither can play)."""
    return st[EMPTY] == 0 or (st[HANDN] == 0 and st[HANDN + 1] == 0)


@njit("int64(int64[::1], int64[::1])", cache=True)
def _hash(st, zob):
    """The Zobrist key: dead blocks (both streets awarded) only say whether each player owns
    one; tokens only on open streets; each reserve by the tiles still to draw, in order."""
    h = 0
    dead0 = dead1 = False
    for b in range(30):
        o = st[OWN + b]
        if o < 0:
            continue
        if st[EIN + _ROW[b]] == 0 and st[EIN + _COL[b]] == 0:
            if o == 0:
                dead0 = True
            else:
                dead1 = True
        else:
            h ^= zob[Z_BOARD + 38 * b + 19 * o + st[KND + b]]
    for s in range(11):
        if st[EIN + s] > 0:
            h ^= zob[Z_TOK + 16 * s + st[TOK + s]]
    for p in range(2):
        for i in range(st[NMON + p]):
            h ^= zob[Z_MON + 16 * p + st[MON + 16 * p + i]]
        for k in range(19):
            c = st[HAND + 19 * p + k]
            if c:
                h ^= zob[Z_HAND + 8 * (19 * p + k) + c]
        # The tiles still to draw, by their place from the next draw: positions of different
        # deals (other reserve contents) never share a key, and once a reserve is drawn,
        # positions reached from different deals do (one table serves a whole view).
        drawn = st[DRAWN + p]
        for i in range(drawn, st[RESN + p]):
            h ^= zob[Z_RES + 19 * (20 * p + i - drawn) + st[RES + 20 * p + i]]
    if dead0:
        h ^= zob[Z_DEAD]
    if dead1:
        h ^= zob[Z_DEAD + 1]
    if st[TURN]:
        h ^= zob[Z_TURN]
    return h


@njit("int64(int64[::1], int64)", cache=True)
def _least_money(st, p):
    """The least money ``p`` can keep: it pays at most one token per tile left, its lowest."""
    tiles = st[HANDN + p] + st[RESN + p] - st[DRAWN + p]
    total = 0
    for i in range(min(tiles, st[NMON + p]), st[NMON + p]):
        total += st[MON + 16 * p + i]
    return total


@njit("UniTuple(int64, 2)(int64[::1])", cache=True)
def _bounds(st):
    """Sound (lo, hi) of the final value for the player to move, whatever is played."""
    open_total = 0
    for s in range(11):
        if st[EIN + s] > 0:
            open_total += st[TOK + s]
    lo = _least_money(st, 0) - st[MSUM + 1] - open_total
    hi = st[MSUM] + open_total - _least_money(st, 1)
    if st[TURN] == 0:
        return lo, hi
    return -hi, -lo


@njit("int64(int64[::1])", cache=True)
def _finish(st):
    """With one empty block left, the mover's best value of building on it (which ends the
    game): a lower bound of its value. -INF when that does not apply."""
    p = st[TURN]
    if st[EMPTY] != 1 or st[HANDN + p] == 0:
        return -INF
    b = 0
    while st[OWN + b] >= 0:
        b += 1
    sign = 1 if p == 0 else -1
    both_open = st[EIN + _ROW[b]] > 0 and st[EIN + _COL[b]] > 0
    best = -INF
    for k in range(19):
        if st[HAND + 19 * p + k] == 0:
            continue
        for j in range(2 if (k == CH and both_open) else 1):
            mv = k | b << 5
            if j:
                mv |= (1 + 11 * _ROW[b] + _COL[b]) << 11
            undo = make(st, mv)
            v = sign * (st[MSUM] - st[MSUM + 1])
            unmake(st, mv, undo)
            best = max(best, v)
    return best


@njit("void(int64[::1], int64, int64, int64, int64)", cache=True, inline="always")
def _tally(stats, s, o, k, sign):
    c = _CAT[k]
    if c < 3:
        stats[9 * s + 3 * o + c] += sign * _VAL[k]
    elif c < 6:
        stats[9 * s + 3 + c] += sign


@njit("void(int64[::1], int64[::1])", cache=True)
def _street_stats(st, stats):
    """Per open street, into ``stats[9 s:9 s + 9]``: blue's houses, stores, factories, red's,
    then the counts of schools, power plants and malls (so a move is scored in O(1))."""
    for s in range(11):
        for i in range(9):
            stats[9 * s + i] = 0
        if st[EIN + s] == 0:
            continue
        for i in range(6):
            b = _SB[s, i]
            if b < 0:
                break
            if st[OWN + b] >= 0:
                _tally(stats, s, st[OWN + b], st[KND + b], 1)


@njit("int64(int64[::1], int64[::1], int64, int64, int64, int64, int64)", cache=True)
def _score(st, stats, p, k, b, redev, sw):
    """Ordering score of a placement (higher first): tokens won at once (with the swap) less
    the token paid, then the mover's lead on the open streets it touches; developments first.
    ``stats`` from :func:`_street_stats`, left as it was."""
    gain = -st[MON + 16 * p] if redev else 0
    lead = 0
    old = st[KND + b]
    for s in (_ROW[b], _COL[b]):
        if st[EIN + s] == 0:
            continue
        _tally(stats, s, p, k, 1)
        if redev:
            _tally(stats, s, p, old, -1)
        q = 9 * s
        nof = stats[q + 6] > 0 or stats[q + 8] > 0
        noh = stats[q + 7] > 0 or stats[q + 8] > 0
        blue = stats[q + 1] + (0 if nof else stats[q + 2]) + (0 if noh else stats[q])
        red = stats[q + 4] + (0 if nof else stats[q + 5]) + (0 if noh else stats[q + 3])
        if redev:
            _tally(stats, s, p, old, 1)
        _tally(stats, s, p, k, -1)
        if redev == 0 and st[EIN + s] == 1:
            if blue != red:
                t = s
                if sw:
                    s1, s2 = (sw - 1) // 11, (sw - 1) % 11
                    if s == s1:
                        t = s2
                    elif s == s2:
                        t = s1
                side = 1 if (blue > red) == (p == 0) else -1
                gain += side * st[TOK + t]
        else:
            lead += (blue - red) if p == 0 else (red - blue)
    return (gain * 512 + lead) * 2 - redev


@njit("int64(int64[::1], int64[::1], int64[::1])", cache=True)
def _generate(st, moves, scores):
    """Every move worth searching into ``moves`` (and their ``scores``); the count. Of the
    redevelopments of dead blocks, only the first dead block's are listed (equivalent)."""
    p = st[TURN]
    if st[HANDN + p] == 0:
        moves[0] = PASS_CODE
        scores[0] = 0
        return 1
    stats = scores[STATS_AT:]
    _street_stats(st, stats)
    n = 0
    can_pay = st[NMON + p] > 0
    dead_seen = False
    for b in range(30):
        o = st[OWN + b]
        if o < 0:
            redev = 0
        elif o == p and can_pay:
            redev = 1
            if st[EIN + _ROW[b]] == 0 and st[EIN + _COL[b]] == 0:
                if dead_seen:
                    continue
                dead_seen = True
        else:
            continue
        for k in range(19):
            if st[HAND + 19 * p + k] == 0:
                continue
            base = k | b << 5 | redev << 10
            moves[n] = base
            scores[n] = _score(st, stats, p, k, b, redev, 0)
            n += 1
            if k == CH:
                for s1 in range(11):
                    if st[EIN + s1] == 0:
                        continue
                    for s2 in range(s1 + 1, 11):
                        if st[EIN + s2] == 0:
                            continue
                        sw = 1 + 11 * s1 + s2
                        moves[n] = base | sw << 11
                        scores[n] = _score(st, stats, p, k, b, redev, sw)
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


@njit("int64(int64[::1], int64[::1], int64[::1], int32[::1], int32[::1], int32[::1], "
      "int64[:, ::1], int64[:, ::1], int64[::1], int64, int64, int64)", cache=True)
def search(st, zob, ttk, ttlo, tthi, ttmv, mbuf, sbuf, ctr, alpha, beta, ply):
    """Fail-soft negamax: the value for the player to move if it lies in (alpha, beta), else
    a bound on the failing side. ``ctr``: positions, node limit, status."""
    ctr[0] += 1
    if ctr[0] > ctr[1]:
        ctr[2] = ABORTED
        return 0
    if is_over(st):
        return (st[MSUM] - st[MSUM + 1]) * (1 if st[TURN] == 0 else -1)
    h = _hash(st, zob)
    slot = h & (ttk.shape[0] - 1)
    lo, hi, hint = -INF, INF, NO_MOVE
    if ttk[slot] == h:
        lo, hi, hint = np.int64(ttlo[slot]), np.int64(tthi[slot]), np.int64(ttmv[slot])
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
    blo, bhi = _bounds(st)
    lo, hi = max(lo, blo, _finish(st)), min(hi, bhi)
    if lo >= beta or lo == hi or hi <= alpha:
        ttk[slot], ttlo[slot], tthi[slot], ttmv[slot] = h, lo, hi, hint
        return lo if (lo >= beta or lo == hi) else hi
    a, b = max(alpha, lo), min(beta, hi)
    a0, b0 = a, b
    best, best_move = -INF, NO_MOVE
    if _legal(st, hint):  # the table's move first, before the others are listed
        undo = make(st, hint)
        best = -search(st, zob, ttk, ttlo, tthi, ttmv, mbuf, sbuf, ctr, -b, -a, ply + 1)
        unmake(st, hint, undo)
        if ctr[2] != OK:
            return 0
        best_move = hint
        a = max(a, best)
    else:
        hint = NO_MOVE
    moves, scores = mbuf[ply], sbuf[ply]
    n = _generate(st, moves, scores) if a < b else 0
    i = 0
    while i < n:
        # selection of the best-scored move left (most nodes cut off after one or two)
        j = i
        for q in range(i + 1, n):
            if scores[q] > scores[j]:
                j = q
        moves[i], moves[j] = moves[j], moves[i]
        scores[i], scores[j] = scores[j], scores[i]
        mv = moves[i]
        i += 1
        if mv == hint:
            continue
        undo = make(st, mv)
        v = -search(st, zob, ttk, ttlo, tthi, ttmv, mbuf, sbuf, ctr, -b, -a, ply + 1)
        unmake(st, mv, undo)
        if ctr[2] != OK:
            return 0
        if v > best:
            best, best_move = v, mv
        if v > a:
            a = v
        if a >= b:
            break
    if best <= a0:
        hi = min(hi, best)
    elif best >= b0:
        lo = max(lo, best)
    else:
        lo = hi = best
    ttk[slot], ttlo[slot], tthi[slot], ttmv[slot] = h, lo, hi, best_move
    return best


@njit("int64(int64[::1], int64[::1], int64[::1], int32[::1], int32[::1], int32[::1], "
      "int64[:, ::1], int64[:, ::1], int64[::1], int64, int64, int64[::1])", cache=True)
def principal_variation(st, zob, ttk, ttlo, tthi, ttmv, mbuf, sbuf, ctr, value, ply, out):
    """Moves from ``st`` (value ``value`` for its mover) to the end that keep the value, into
    ``out``; their count, or -1 (``ctr[2]`` set) if none keeps it. ``st`` is restored."""
    undos = np.empty(out.shape[0], dtype=np.int64)
    length = 0
    lost = False
    while not is_over(st) and not lost:
        moves, scores = mbuf[ply + length], sbuf[ply + length]
        n = _generate(st, moves, scores)
        lost = True
        for i in range(n):
            mv = moves[i]
            undo = make(st, mv)
            v = search(st, zob, ttk, ttlo, tthi, ttmv, mbuf, sbuf, ctr, -value - 1, -value + 1,
                       ply + length + 1)  # the child's value, for its mover
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


@njit("void(int64[::1], int64[::1], int64[::1], int32[::1], int32[::1], int32[::1], "
      "int64[:, ::1], int64[:, ::1], int64[::1], int64[::1], int64[::1], int64[:, ::1], "
      "int64[::1])", cache=True)
def run(st, zob, ttk, ttlo, tthi, ttmv, mbuf, sbuf, ctr, roots, values, pvs, pv_len):
    """Each root move's value (blue minus red) into ``values`` and a line keeping it into
    ``pvs``/``pv_len``; no ``roots`` (empty) means the value of ``st`` itself, in
    ``values[0]``. Stops early with ``ctr[2]`` set."""
    nroot = roots.shape[0]
    for r in range(max(nroot, 1)):
        mv = roots[r] if nroot else NO_MOVE
        undo = make(st, mv) if nroot else 0
        ply = 1 if nroot else 0
        sign = 1 if st[TURN] == 0 else -1
        v = search(st, zob, ttk, ttlo, tthi, ttmv, mbuf, sbuf, ctr, -INF, INF, ply)
        if ctr[2] == OK:
            values[r] = sign * v
            pv_len[r] = principal_variation(st, zob, ttk, ttlo, tthi, ttmv, mbuf, sbuf, ctr, v,
                                            ply, pvs[r])
        if nroot:
            unmake(st, mv, undo)
        if ctr[2] != OK:
            return
