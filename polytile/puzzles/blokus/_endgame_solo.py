"""The solitaire and the per-colour facts of the compiled Blokus endgame search (private;
numba): the value types, each colour's score range from its reach (:func:`_facts`, the
reach of :func:`._bitboard.bit_reach`), a greedy layout it can make sure of
(:func:`_greedy`), and its best solitaire layout (:func:`_solo`). :mod:`._endgame_search`
uses them; its notes say what the search does. Reaches, territories and contested cells
are bitboards, as the placement table's masks are.
"""

from __future__ import annotations

import numpy as np
from numba import types

from polytile._jit import njit
from polytile.puzzles.blokus._bitboard import (
    _lowest,
    biggest_fit,
    bit_reach,
    kept_moves,
)
from polytile.puzzles.blokus._compiled import place
from polytile.puzzles.blokus._endgame_ctr import (
    INF,
    LIMIT,
    NODES,
    REQUEST,
    SALT,
    SOLO,
    STATUS,
    TOUCH,
)
from polytile.puzzles.blokus.rules import PIECE_NAMES, PIECE_SIZES

_SIZES = np.array(PIECE_SIZES, dtype=np.int64)
_I1 = PIECE_NAMES.index("I1")
_NP = len(PIECE_NAMES)
_ALL_PLACED = 15
_I1_LAST = 5
PENDING = -3  # an independent colour whose solitaire is not searched yet
NOT_SOLO = -2
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLD = np.uint64(0x9E3779B97F4A7C15)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)

# Explicit signatures for the recursive functions: numba's cache of a recursive function
# whose types it infers does not load back safely.
_I64, _U64 = types.int64, types.uint64
_A1 = {t: types.Array(t, 1, "C") for t in (types.int64, types.uint64, types.uint8, types.int32,
                                            types.boolean)}  # fmt: skip
_A2 = {t: types.Array(t, 2, "C") for t in (types.int64, types.uint64, types.uint8, types.int32,
                                            types.boolean)}  # fmt: skip
_A3U = types.Array(types.uint64, 3, "C")
ORIENT = types.Tuple((_A1[_I64], _A2[_U64], _A2[_I64], _A2[_I64], _A2[_U64], _A1[_U64],
                      _A1[_U64], _A1[_U64], _A1[_U64], _A1[_I64], _A2[_I64],
                      _A1[_I64]))  # fmt: skip
TAB = types.Tuple((_A2[_U64], _A2[_U64], _A2[_U64], _A1[types.int32], _A2[types.int32],
                   _A1[_I64], _A1[_I64], ORIENT))  # fmt: skip
GAME = types.Tuple((_I64, _I64, _A1[_I64], _A1[_I64]))
STATE = types.Tuple((_A3U, _A2[types.uint8], _A1[_I64]))
ZOB = types.Tuple((_A2[_U64], _A1[_U64], _A1[_U64]))
TABLE = types.Tuple((_A2[_U64], _A1[_U64]))
MEMO = types.UniTuple(_A2[_U64], 3)
KEPT = types.Tuple((_A3U, types.Array(types.uint8, 3, "C"), types.Array(_I64, 3, "C"),
                   _A1[types.uint8]))  # fmt: skip
BUF = types.Tuple((_A2[_I64], _A2[_U64], _A2[types.uint8], _A3U, _A2[_I64],
                   _A2[_U64], _A1[_U64], _A2[_U64], _A2[_I64], KEPT,
                   types.Array(_I64, 3, "C"), _A1[_I64], _A2[_I64], _A2[_U64],
                   _A2[types.uint8]))  # fmt: skip


@njit(cache=True, inline="always")
def _mix(h, x):  # pragma: no cover - compiled
    """Fold the word ``x`` into the hash ``h`` (splitmix64's finaliser)."""
    z = h ^ (x + _GOLD)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, _nrt=False)
def _now(hand, ci, lasti1):  # pragma: no cover - compiled
    """Colour ``ci``'s score if the game ended now."""
    held, _ = _held(hand[ci])
    return _ALL_PLACED + _I1_LAST * lasti1[ci] if held == 0 else -held


@njit(cache=True, _nrt=False)
def _held(hand):  # pragma: no cover - compiled
    """(squares in ``hand``, whether a piece has left it: the colour has started)."""
    held = 0
    started = False
    for p in range(_NP):
        if hand[p]:
            held += _SIZES[p]
        else:
            started = True
    return held, started


@njit(cache=True, _nrt=False)
def _ceiling(held, hand, pieces, cells):  # pragma: no cover - compiled
    """The most a colour holding ``held > 0`` squares (``hand``) can still score, with
    ``pieces`` reachable in a reach of ``cells`` cells."""
    reachable = 0
    for p in range(_NP):
        if pieces[p]:
            reachable += _SIZES[p]
    if reachable == held and cells >= held:
        return _ALL_PLACED + _I1_LAST * hand[_I1]
    return -held + min(reachable, cells)


@njit(cache=True, _nrt=False)
def _ordered(moves, cnt, top, scr):  # pragma: no cover - compiled
    """Sort ``moves[:cnt]`` in place by their keys ``scr[:cnt]`` (integers below ``top``)
    falling, ties in their order (a counting sort: a search often needs only the first
    few). The rest of ``scr`` is its scratch (``cnt + top + 1`` more entries)."""
    start = cnt  # scr[start:start + top + 1]: each key's first place; then the moves
    out = start + top + 1
    for b in range(top + 1):
        scr[start + b] = 0
    for j in range(cnt):
        scr[start + top - scr[j]] += 1
    for b in range(top):
        scr[start + b + 1] += scr[start + b]
    for j in range(cnt):
        b = start + top - 1 - scr[j]
        scr[out + scr[b]] = moves[j]
        scr[b] += 1
    for j in range(cnt):
        moves[j] = scr[out + j]


@njit(cache=True, _nrt=False)
def _copy_ply(bits, ply):  # pragma: no cover - compiled
    """``bits[ply + 1] = bits[ply]``, word by word (a slice assignment may allocate)."""
    for r in range(bits.shape[1]):
        for w in range(bits.shape[2]):
            bits[ply + 1, r, w] = bits[ply, r, w]


@njit(cache=True, _nrt=False)
def _facts(tab, fit, n, k, bits, hand, lasti1, rbuf, pbuf, ci, cand,
           within):  # fmt: skip  # pragma: no cover
    """(score now, the most it can become, reach cells) of colour ``ci`` in the state
    ``bits`` (the search's rows); its reach in ``rbuf[ci]`` and its reachable pieces in
    ``pbuf[ci]``: among the pieces ``cand`` and within the cells ``within``
    (:func:`._bitboard.bit_reach`), its scratch ``fit``."""
    held, _ = _held(hand[ci])
    if held == 0:
        rbuf[ci, :] = 0
        pbuf[ci, :] = 0
        now = _ALL_PLACED + _I1_LAST * lasti1[ci]
        return now, now, 0
    count = bit_reach(tab[7], n, bits[0], bits[1 + ci], bits[1 + k + ci], cand, within, fit,
                      rbuf[ci], pbuf[ci], False)  # fmt: skip
    return -held, _ceiling(held, hand[ci], pbuf[ci], count), count


@njit(cache=True, _nrt=False)
def _greedy(tab, k, bits, ci, hand, lasti1, inside, work, fit, h):  # pragma: no cover
    """The final score of colour ``ci`` placing again and again its biggest legal
    placement with every cell in the board ``inside`` (a layout it can make sure of when
    nobody else can cover those cells), as :func:`._bitboard.biggest_fit` chooses it.
    ``h`` is scratch for its hand."""
    masks, piece = tab[0], tab[3]
    words = inside.shape[0]
    for w in range(words):  # the cells outside count as taken
        work[0, w] = bits[0, w] | ~inside[w]
        work[1, w] = bits[1 + ci, w]
        work[2, w] = bits[1 + k + ci, w]
    usable, attach = work[3], work[4]
    for q in range(h.shape[0]):
        h[q] = hand[ci, q]
    last = lasti1[ci]
    while True:
        for w in range(words):
            usable[w] = ~work[0, w] & ~work[1, w]
            attach[w] = work[2, w] & usable[w]
        best = biggest_fit(tab[7], _SIZES, usable, attach, h, fit)
        if best < 0:
            break
        place(work, 0, 1, best, masks, tab[1], tab[2])
        h[piece[best]] = 0
        last = 1 if piece[best] == _I1 else 0
    held, _ = _held(h)
    return _ALL_PLACED + _I1_LAST * last if held == 0 else -held


@njit(cache=True, _nrt=False)
def _solo_key(tag, hand, inside, occupied, edge, corner, salt):  # pragma: no cover - compiled
    """The solitaire memo key: ``tag`` (the colour and its ``I1`` flag), its ``hand`` row,
    the cells of its reach (the board ``inside``) and the board there (the occupied cells,
    its edge cells, its corner cells), XOR the search's ``salt``. Also the greedy memo's
    key, with the colour's territory as ``inside``."""
    h = _mix(np.uint64(tag), np.uint64(0))
    word = np.uint64(0)
    for p in range(_NP):
        if hand[p]:
            word |= np.uint64(1) << np.uint64(p)
    h = _mix(h, word)
    for w in range(inside.shape[0]):
        m = inside[w]
        h = _mix(h, m)
        h = _mix(h, occupied[w] & m)
        h = _mix(h, edge[w] & m)
        h = _mix(h, corner[w] & m)
    return h ^ salt


@njit(cache=True, inline="always")
def _settles(kind, value, floor, roof):  # pragma: no cover - compiled
    """Whether a memo entry answers a call between ``floor`` and ``roof``."""
    return kind == 1 or (kind == 0 and value <= floor) or (kind == 2 and value >= roof)


@njit(cache=True, inline="always")
def _pack(value, first, exact):  # pragma: no cover - compiled
    """A memo entry's data in one word (22 + 20 + 2 bits; never 0)."""
    return (np.uint64(value + INF) | (np.uint64(first + 1) << np.uint64(22))
            | (np.uint64(exact) << np.uint64(42)))  # fmt: skip


@njit(cache=True, _nrt=False)
def _recall(table, key):  # pragma: no cover - compiled
    """The entry of ``table`` under ``key``: (found, value, first placement, kind)."""
    slot = key & np.uint64(table.shape[0] - 1)
    data = table[slot, 1]
    if data == 0 or table[slot, 0] ^ data != key:
        return False, 0, -1, 0
    value = np.int64(data & np.uint64((1 << 22) - 1)) - INF
    first = np.int64((data >> np.uint64(22)) & np.uint64((1 << 20) - 1)) - 1
    return True, value, first, np.int64(data >> np.uint64(42))


@njit(cache=True, _nrt=False)
def _keep(table, key, value, first, exact):  # pragma: no cover - compiled
    # An entry is two words side by side: the key XOR the data, and the data. Threads share
    # the memos without locks: an entry torn by two threads writing at once reads as a miss.
    slot = key & np.uint64(table.shape[0] - 1)
    data = _pack(value, first, exact)
    table[slot, 1] = data
    table[slot, 0] = key ^ data


@njit(cache=True, _nrt=False)
def _remember(memo, key, value, first, exact, quick):  # pragma: no cover - compiled
    """Store a solitaire result in both memos (the first under ``key`` unless it is 0)."""
    if key != 0:
        _keep(memo[0], key, value, first, exact)
    _keep(memo[1], quick, value, first, exact)


@njit(cache=True, _nrt=False)
def _scarcest(masks, state, moves, cnt, scr):  # pragma: no cover - compiled
    """(word, bit) of the attach cell of ``state`` that the fewest of ``moves[:cnt]`` cover
    (at least one does; the lowest such cell of equal ones). Counts in ``scr``'s last
    ``64 * words`` entries, after ``moves``."""
    words = state.shape[1]
    base = scr.shape[0] - 64 * words
    for w in range(words):
        x = state[2, w] & ~state[0, w] & ~state[1, w]
        while x:
            scr[base + 64 * w + _lowest(x)] = 0
            x &= x - _ONE
    for j in range(cnt):
        p = moves[j]
        for w in range(words):
            x = masks[p, w] & state[2, w] & ~state[1, w]
            while x:
                scr[base + 64 * w + _lowest(x)] += 1
                x &= x - _ONE
    fewest, aw, abit = INF, 0, _ONE
    for w in range(words):
        x = state[2, w] & ~state[0, w] & ~state[1, w]
        while x:
            i = _lowest(x)
            c = scr[base + 64 * w + i]
            if 0 < c < fewest:
                fewest, aw, abit = c, w, _ONE << np.uint64(i)
            x &= x - _ONE
    return aw, abit


@njit(cache=True, inline="always")
def _cell_key(w, bit):  # pragma: no cover - compiled
    """The word folded into a solitaire's placement key when the cell (``w``, ``bit``) is
    left empty for good."""
    return _mix(np.uint64(w) * _GOLD, bit)


@njit(types.UniTuple(_I64, 2)(TAB, _A2[_U64], _I64, _I64, _A3U, _A2[types.uint8], _A1[_I64],
                              _I64, _I64, _I64, _I64, _A2[_U64], _A2[types.uint8], _A2[_I64],
                              _A2[_I64], _A1[_I64], MEMO, _A1[_I64], _A2[_U64], _U64,
                              _A2[_U64], _A2[types.uint8]),
      cache=True, nogil=True, _nrt=False)  # fmt: skip
def _solo(tab, fit, n, k, sbits, hand, lasti1, ci, floor, roof, depth, rbuf, pbuf, smb, wide,
          scr, memo, ctr, zob, quick, sreach, spieces):  # fmt: skip  # pragma: no cover
    """(best final score, first placement) of colour ``ci`` playing alone from the state
    ``sbits[depth]`` (rows: occupied, its edge cells, its corner cells): exact when
    between ``floor`` and ``roof`` (``floor < roof``); at most ``floor``, a bound at least
    as high; at least ``roof``, one at most as high (the search stops at the first layout
    that reaches it). ``rbuf``/``pbuf`` row ``k`` and ``scr`` are its scratch.

    It branches on one cell where the colour can attach now, the one the fewest of its
    legal placements cover (:func:`_scarcest`): each of those placements, then the cell
    left empty for good (marked occupied). Every layout covers that cell or does not, and
    a placement covering it that is legal at some later point of a layout is legal now
    (later pieces only take cells and add edges; the cell gives the corner), so the
    branches split the layouts: each is searched once, not once per order of its pieces,
    and leaving a cell empty can only shrink the reach and its bound. A ply of ``sbits``
    and ``smb`` places a piece or empties a cell.

    One exception: a layout placing everything scores 5 more with ``I1`` last, so there
    the order counts. While the colour holds ``I1`` and its reach bound says it may still
    place everything, it branches on every placement (moves in ``wide``). Those plies only
    place pieces: the bound never comes back once lost (a placement or an emptied cell
    takes as much from the reach as from the hand, or more), so they come first, at most
    one per piece.

    Two memos (:func:`_keep`; the search threads share them): ``memo[0]`` keyed by
    :func:`_solo_key` of the colour's reach (solitaires that differ only outside it, such
    as other colours' moves elsewhere, share their work), and ``memo[1]`` keyed by
    ``quick``: the first call's key with each branch since
    folded in (``zob`` of a placement, :func:`_cell_key` of an emptied cell), which finds a
    position an earlier call from the same start searched (or, where every placement is
    a branch, the same placements in another order) without computing its reach. The
    ``I1`` flag is not in it: it matters only once the hand is empty, which is answered
    before the memos.
    An entry is exact (1), the most (0) or the least (2) the layout can make."""
    ctr[NODES] += 1
    if ctr[REQUEST] != 0 or ctr[NODES] >= ctr[LIMIT]:
        ctr[STATUS] = 2 if ctr[REQUEST] != 0 else 1
        return 0, -1
    held, _ = _held(hand[ci])
    now = _ALL_PLACED + _I1_LAST * lasti1[ci] if held == 0 else -held
    if held == 0:
        return now, -1
    found, value, first, exact = _recall(memo[1], quick)
    if found and _settles(exact, value, floor, roof):
        return value, first
    state = sbits[depth]
    # Its reach lies within its parent's (row ``depth`` of ``sreach`` and ``spieces``, the
    # caller's for the first call): fewer orientations to visit.
    cand = pbuf[k + 1]
    for q in range(_NP):
        cand[q] = spieces[depth, q] & hand[ci, q]
    cells = bit_reach(tab[7], n, state[0], state[1], state[2], cand, sreach[depth], fit,
                      rbuf[k], pbuf[k], True)  # fmt: skip
    for w in range(rbuf.shape[1]):
        sreach[depth + 1, w] = rbuf[k, w]
    for q in range(_NP):
        spieces[depth + 1, q] = pbuf[k, q]
    key = _solo_key(ci * 2 + lasti1[ci] + 1, hand[ci], rbuf[k], state[0], state[1], state[2],
                    np.uint64(ctr[SALT]))  # fmt: skip
    found, value, first, exact = _recall(memo[0], key)
    if found and _settles(exact, value, floor, roof):
        _keep(memo[1], quick, value, first, exact)
        return value, first
    ctr[SOLO] += 1
    ceiling = _ceiling(held, hand[ci], pbuf[k], cells)
    if ceiling <= floor:
        _remember(memo, key, ceiling, -1, 0, quick)
        return ceiling, -1
    # Branch on one attach cell: each placement covering it, or it stays empty.
    every = scr  # all placements; then the cells' counts in scr[base:]
    cnt = kept_moves(tab[7], fit, every)
    if cnt == 0:
        _remember(memo, key, now, -1, 1, quick)
        return now, -1
    if hand[ci, _I1] and ceiling > _ALL_PLACED:
        # I1 last would score 5 more, and some layout may still place everything: the
        # order counts, so every placement (these plies only place: see the notes).
        aw, abit = -1, _ONE
        moves = wide[depth]
        for j in range(cnt):
            moves[j] = every[j]
        m = cnt
    else:
        aw, abit = _scarcest(tab[0], state, every, cnt, scr)
        moves = smb[depth]
        m = 0
        for j in range(cnt):
            p = every[j]
            if tab[0][p, aw] & abit:
                moves[m] = p
                m += 1
    for j in range(m):
        scr[j] = _SIZES[tab[3][moves[j]]]
    _ordered(moves, m, 6, scr)  # bigger pieces first
    # Read the children's memo slots now, all at once, so that each child finds its slot
    # in the cache: the memo is far bigger than the caches, and these reads overlap.
    mask = np.uint64(memo[1].shape[0] - 1)
    touched = _ZERO
    for j in range(m):
        touched |= memo[1][(quick ^ zob[moves[j], ci]) & mask, 1]
    if aw >= 0:
        touched |= memo[1][(quick ^ _cell_key(aw, abit)) & mask, 1]
    ctr[TOUCH] ^= np.int64(touched & _ONE)  # keeps the reads
    best, best_p = -INF, -1
    for j in range(m + 1 if aw >= 0 else m):
        _copy_ply(sbits, depth)
        empty = j == m  # the cell stays empty: the layouts without it
        if empty:
            sbits[depth + 1, 0, aw] |= abit
            child = quick ^ _cell_key(aw, abit)
            p, pc, old = -1, 0, lasti1[ci]
        else:
            p = moves[j]
            place(sbits[depth + 1], 0, 1, p, tab[0], tab[1], tab[2])
            pc = tab[3][p]
            hand[ci, pc] = 0
            old = lasti1[ci]
            lasti1[ci] = 1 if pc == _I1 else 0
            child = quick ^ zob[p, ci]
        # One call of itself written once: numba types the body again for each.
        value, first = _solo(tab, fit, n, k, sbits, hand, lasti1, ci, max(floor, best), roof,
                             depth + 1, rbuf, pbuf, smb, wide, scr, memo, ctr, zob, child,
                             sreach, spieces)  # fmt: skip
        if empty:
            p = first
        else:
            lasti1[ci] = old
            hand[ci, pc] = 1
        if ctr[STATUS] != 0:
            return 0, -1
        if value > best:
            best, best_p = value, p
            if best >= ceiling:
                break
            if best >= roof:  # enough for the caller: the best may be higher
                _remember(memo, key, best, best_p, 2, quick)
                return best, best_p
    exact = 1 if best > floor else 0
    _remember(memo, key, best, best_p, exact, quick)
    return best, best_p
