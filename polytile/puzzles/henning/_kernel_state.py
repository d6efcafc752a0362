"""The state vector of the compiled City Blocks (Henning) search (private; numba).

One flat ``int64`` vector ``st`` holds a whole position at the offsets below (written by
:func:`polytile.puzzles.henning.kernel.encode`); moves are small integers
(:func:`move_code`). :func:`make` and :func:`unmake` play and take back a move the way
:meth:`Henning.push_legal` and :meth:`Henning.pop` do, and :func:`_hash` is the Zobrist key
the table of :mod:`polytile.puzzles.henning._kernel_search` stores positions under.
"""

from __future__ import annotations

import numpy as np

from polytile._jit import njit

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
STATS_AT = MAX_MOVES  # the rest of a scores row is scratch: street totals (11 x 9), then
ANSWERS = 40  # the other player's developments that complete streets (6 integers each)
ROW_SIZE = STATS_AT + 99 + 6 * ANSWERS
OK, ABORTED, LOST_PV = 0, 1, 2  # ctr[2] after a run

_ROW = np.array([b // 6 for b in range(30)], dtype=np.int64)
_COL = np.array([5 + b % 6 for b in range(30)], dtype=np.int64)
_SB = np.array(
    [[r * 6 + c for c in range(6)] for r in range(5)]
    + [[r * 6 + c for r in range(5)] + [-1] for c in range(6)],
    dtype=np.int64,
)
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
