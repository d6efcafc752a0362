"""The compiled Blokus endgame search (private; numba): see :mod:`.endgame_kernel`.

The search of :mod:`polytile.puzzles.blokus.endgame` (the module notes there give the
reasoning and the proofs of each bound), written over the engine's bitboards so that a
position costs microseconds instead of a millisecond of Python:

* **state** per ply: the bitboards ``bits[ply]`` (rows as in :func:`._compiled.place`), and,
  changed in place and restored, ``hand`` (colours x 21) and ``lasti1`` (whether each
  colour's last piece was ``I1``);
* **values** are the objective ``sum(weight[c] * score[c])`` at the end of the game; a colour
  whose ``maxer`` is 1 raises it, the others lower it (minimax, fail-soft alpha-beta);
* **bounds** at every node from each colour's reach (:func:`._bitboard.bit_reach`): the score
  now, the most it can become, and what it can make sure of (a greedy layout inside its
  territory, or its biggest placement now when it is to move; the greedy layout only where
  it could settle the node). A reach only shrinks from one ply to the next, so each is
  found among the previous ply's reach and its pieces (fewer orientations to visit), and
  kept when the move missed it. The colour to move's biggest placement comes first
  (:func:`._bitboard.biggest_legal`); the node's moves are generated only where the bounds
  do not settle it;
* **independent colours** (reach disjoint from every other live colour's) play their best
  solitaire layout (:func:`_solo`, a branch and bound on one attach cell at a time: each
  placement covering it, or none ever, so that each layout is searched once, except while
  ``I1`` last may still earn its bonus; its memo is keyed by the board inside the
  colour's reach, and a node reads its children's slots ahead, together), searched only
  when the bounds without it do not settle the node, and
  exactly only between the values that fail low and those that fail high (a layout
  reaching the upper one ends its search);
* a **solitaire bound** for the other colours (whose reach meets another's): a colour
  scores no more than its best layout if every other colour passed from now on, since
  their moves only take cells from it. Where a colour's reach bound is a little above the
  score that would settle the node, a null-window :func:`_solo` asks whether its solitaire
  stays at or below that score (through the solitaire memo, shared with the independent
  colours');
* a **transposition table** of proven intervals and best moves per Zobrist key of the whole
  position (per colour, a key per cell it covers and per piece it has placed; the colour to
  move; the ``I1``-last flag of colours that have placed everything: a placement's key is
  its cells' and its piece's, so a table can be kept from one root to another), and move
  ordering: the table's move, then the placements covering the most
  contested cells and the other colours' attach points, then bigger pieces;
* **threads** share the table and the solitaire memos, and split the work as in ABDADA
  (Weill's "alpha-beta distributed with a distributed approach"): a move whose position
  another thread is searching now (``tt[1]``, its key per slot) is put off to the end of
  the node's moves, below the root only: at the root both threads search each move
  together. A thread that went on alone to the next root move would test it against the
  bound of the moves before, while the other thread proves a better one; on positions whose
  best root move comes late, such tests against a stale bound cost more than splitting
  below the root does (``benchmarks/README.md``, seed 10).

``ctr`` holds the counters the wrapper reads and writes: positions searched, the node
limit, the stop reason (0 none, 1 node limit, 2 stop request), the stop request itself
(set by the wrapper's thread at a deadline or on Ctrl-C; the functions are ``nogil``),
the solitaire bound's setting (``SOLO_GAP``: how far above the settling score a reach
bound may be for the solitaire to be asked; 0 or below, never), and the search's salt
(``SALT``), XORed into every key above its slot bits so that tables kept from other
searches read as empty (:func:`.endgame_kernel.kernel_line`).
"""

from __future__ import annotations

import numpy as np

from polytile._jit import njit
from polytile.puzzles.blokus._bitboard import biggest_legal, bit_generate, popcount
from polytile.puzzles.blokus._compiled import place
from polytile.puzzles.blokus._endgame_ctr import (
    INF,
    LIMIT,
    NODES,
    REQUEST,
    ROOT_HI,
    ROOT_LO,
    ROOT_MOVE,
    ROOT_PLY,
    SALT,
    SOLO_GAP,
    STATUS,
)
from polytile.puzzles.blokus._endgame_solo import (
    _A1,
    _I1,
    _I64,
    _NP,
    _SIZES,
    _U64,
    BUF,
    GAME,
    MEMO,
    NOT_SOLO,
    PENDING,
    STATE,
    TAB,
    TABLE,
    ZOB,
    _copy_ply,
    _facts,
    _greedy,
    _keep,
    _now,
    _ordered,
    _recall,
    _solo,
    _solo_key,
)
from polytile.puzzles.blokus._endgame_table import _busy, _mark, _probe, _store

__all__ = ["principal_variation", "search"]


@njit(cache=True, _nrt=False)
def _solo_root(tab, g, st, z, memo, buf, ctr, ply, ci, floor, roof, known):  # pragma: no cover
    """:func:`_solo` of colour ``ci`` from ``bits[ply]`` (exact between ``floor`` and
    ``roof``); ``known``: ``rbuf[ci]`` and ``pbuf[ci]`` hold the colour's reach there."""
    n, k = g[0], g[1]
    bits, hand, lasti1 = st
    rbuf, pbuf, sbits, smb, fit, scr = buf[1], buf[2], buf[3], buf[4], buf[7], buf[11]
    b = bits[ply]
    for w in range(b.shape[1]):
        sbits[0, 0, w] = b[0, w]
        sbits[0, 1, w] = b[1 + ci, w]
        sbits[0, 2, w] = b[1 + k + ci, w]
    key = _solo_key(ci * 2 + lasti1[ci] + 1, hand[ci], rbuf[ci], sbits[0, 0], sbits[0, 1],
                    sbits[0, 2], np.uint64(ctr[SALT]))  # fmt: skip
    sreach, spieces = buf[13], buf[14]
    for w in range(b.shape[1]):  # its reach lies within the node's
        sreach[0, w] = rbuf[ci, w] if known else ~np.uint64(0)
    for q in range(_NP):
        spieces[0, q] = pbuf[ci, q] if known else hand[ci, q]
    return _solo(tab, fit, n, k, sbits, hand, lasti1, ci, floor, roof, 0, rbuf, pbuf, smb,
                 buf[12], scr, memo, ctr, z[0], key, sreach, spieces)  # fmt: skip


@njit(cache=True, _nrt=False)
def _all_facts(tab, fit, n, k, bits, hand, lasti1, rbuf, pbuf, kept, ply, turn, nows, bests,
               sreach, spieces):  # fmt: skip  # pragma: no cover - compiled
    """:func:`_facts` of every colour at ``bits[ply]`` into ``nows``, ``bests``, ``rbuf`` and
    ``pbuf``, kept for the next ply. A colour that did not just move keeps the previous
    ply's facts when the placement made there missed its reach: cells taken outside a reach
    change nothing in it (its placements still fit, and no new one can)."""
    reach, pieces, scores, valid = kept
    b = bits[ply]
    words = b.shape[1]
    mover = (turn + k - 1) % k
    for ci in range(k):
        same = ply > 0 and valid[ply - 1] == 1 and ci != mover
        if same:
            for w in range(words):
                if (b[0, w] & ~bits[ply - 1, 0, w]) & reach[ply - 1, ci, w]:
                    same = False
                    break
        if same:
            for w in range(words):
                rbuf[ci, w] = reach[ply - 1, ci, w]
            for q in range(pbuf.shape[1]):
                pbuf[ci, q] = pieces[ply - 1, ci, q]
            nows[ci], bests[ci] = scores[ply - 1, ci, 0], scores[ply - 1, ci, 1]
        else:  # within the previous ply's reach, when there is one (a reach only shrinks)
            last = spieces.shape[0] - 1
            cand, within = spieces[last], sreach[last]  # all pieces and cells
            if ply > 0 and valid[ply - 1] == 1:
                for q in range(_NP):
                    cand[q] = pieces[ply - 1, ci, q] & hand[ci, q]
                within = reach[ply - 1, ci]
            else:
                for q in range(_NP):
                    cand[q] = hand[ci, q]
            nows[ci], bests[ci], _ = _facts(tab, fit, n, k, b, hand, lasti1, rbuf, pbuf, ci,
                                            cand, within)  # fmt: skip
        for w in range(words):
            reach[ply, ci, w] = rbuf[ci, w]
        for q in range(pbuf.shape[1]):
            pieces[ply, ci, q] = pbuf[ci, q]
        scores[ply, ci, 0], scores[ply, ci, 1] = nows[ci], bests[ci]
    valid[ply] = 1


@njit(cache=True, _nrt=False)
def _game_over(tab, k, bits, hand, turn, fit):  # pragma: no cover - compiled
    """True when no colour after ``turn`` can place (``turn`` itself cannot)."""
    for j in range(1, k):
        cj = (turn + j) % k
        if biggest_legal(tab[7], _SIZES, bits[0], bits[1 + cj], bits[1 + k + cj], hand[cj],
                         fit) >= 0:  # fmt: skip
            return False
    return True


@njit(cache=True, _nrt=False)
def _final(k, weight, hand, lasti1):  # pragma: no cover - compiled
    """The objective if the game ended now."""
    total = 0
    for ci in range(k):
        if weight[ci] != 0:
            total += weight[ci] * _now(hand, ci, lasti1)
    return total


@njit(cache=True, _nrt=False)
def _apply(tab, g, st, z, ply, turn, p, h):  # pragma: no cover - compiled
    """Play placement ``p`` of ``turn`` from ``bits[ply]`` into ``bits[ply + 1]``; return the
    new key (before the turn changes) and the colour's previous ``I1`` flag."""
    k = g[1]
    bits, hand, lasti1 = st
    _copy_ply(bits, ply)
    place(bits[ply + 1], turn, k, p, tab[0], tab[1], tab[2])
    pc = tab[3][p]
    hand[turn, pc] = 0
    old = lasti1[turn]
    lasti1[turn] = 1 if pc == _I1 else 0
    h ^= z[0][p, turn]
    empty = True
    for q in range(_NP):
        if hand[turn, q]:
            empty = False
            break
    if empty and lasti1[turn]:
        h ^= z[2][turn]
    return h, old


@njit(cache=True, _nrt=False)
def _undo(tab, st, turn, p, old):  # pragma: no cover - compiled
    hand, lasti1 = st[1], st[2]
    hand[turn, tab[3][p]] = 1
    lasti1[turn] = old


@njit(cache=True, _nrt=False)
def _range(k, weight, sure, bests):  # pragma: no cover - compiled
    """The objective's least and greatest values from each colour's sure and best score."""
    lo = hi = 0
    for ci in range(k):
        w = weight[ci]
        if w > 0:
            lo += w * sure[ci]
            hi += w * bests[ci]
        elif w < 0:
            lo += w * bests[ci]
            hi += w * sure[ci]
    return lo, hi


@njit(cache=True, _nrt=False)
def _root_bound(ctr, maxing, v, p, a, bb):  # pragma: no cover - compiled
    """Record root move ``p``'s fail-soft result ``v`` from a window (``a``, ...) when
    ``maxing``, (..., ``bb``) otherwise: beyond that end it is a bound the move makes
    sure of (at least ``v``, or at most ``v``)."""
    if maxing and v > a and v > ctr[ROOT_LO]:
        ctr[ROOT_LO], ctr[ROOT_MOVE] = v, p
    elif not maxing and v < bb and v < ctr[ROOT_HI]:
        ctr[ROOT_HI], ctr[ROOT_MOVE] = v, p


@njit(cache=True, _nrt=False)
def _etc(tab, z, tt, hand, lasti1, turn, nxt, h, moves, cnt, maxing, a, bb):  # pragma: no cover
    """The first of ``moves[:cnt]`` whose position's table entry proves a cut-off in the
    window (``a``, ``bb``): (its bound, the move), or (0, -1) for none. A child's key is
    the node's with the placement, the turn and, where it empties the hand with ``I1``,
    the ``I1``-last flag folded in (as :func:`_apply` does)."""
    held = 0
    for q in range(_NP):
        held += hand[turn, q]
    turns = z[1][turn] ^ z[1][nxt]
    for j in range(cnt):
        p = moves[j]
        h2 = h ^ z[0][p, turn] ^ turns
        if held == 1 and tab[3][p] == _I1:
            h2 ^= z[2][turn]
        found, lo, hi, _ = _probe(tt, h2)
        if found:
            if maxing and lo >= bb:
                return lo, p
            if not maxing and hi <= a:
                return hi, p
    return 0, -1


# The search's own body keeps little more than the recursion; its bounds and its move order
# are functions of their own. numba types a recursive function's body once more for each
# recursive call in it (to learn the call's return type), so a shorter body compiles faster.


@njit(cache=True, nogil=True, _nrt=False)
def _bounds(tab, g, st, z, memo, buf, ctr, ply, turn, biggest, alpha, beta, lo,
            hi):  # fmt: skip  # pragma: no cover
    """The node's bounds (``lo``, ``hi``, from the table) narrowed by every colour's facts
    (the module notes), ``biggest`` the size of the biggest piece the colour to move can
    place now; they are left in ``facts[ply]``. The caller checks ``ctr[STATUS]``."""
    n, k, weight = g[0], g[1], g[2]
    bits, hand, lasti1 = st
    rbuf, pbuf, work, contested, fit = buf[1], buf[2], buf[5], buf[6], buf[7]
    kept, facts = buf[9], buf[10]
    words = bits.shape[2]
    b = bits[ply]
    # Each colour's score now, the most it can become, and what it can make sure of.
    nows, bests, sure, solo = facts[ply, 0], facts[ply, 1], facts[ply, 2], facts[ply, 3]
    shared = facts[ply, 4]  # whose reach meets another live colour's
    _all_facts(tab, fit, n, k, bits, hand, lasti1, rbuf, pbuf, kept, ply, turn, nows, bests,
               buf[13], buf[14])
    for ci in range(k):
        sure[ci] = nows[ci]
        solo[ci] = NOT_SOLO
        shared[ci] = 0
    for ci in range(k):
        if bests[ci] <= nows[ci]:
            continue
        for cj in range(k):
            if cj == ci or bests[cj] <= nows[cj]:
                continue
            for w in range(words):
                if rbuf[ci, w] & rbuf[cj, w]:
                    shared[ci] = 1
                    break
            if shared[ci]:
                break
        if not shared[ci]:
            solo[ci] = PENDING
        if ci == turn:  # it can place its biggest piece now
            sure[ci] = nows[ci] + biggest
    blo, bhi = _range(k, weight, sure, bests)
    lo, hi = max(lo, blo), min(hi, bhi)
    # A greedy layout in a colour's territory (the cells no other live colour can reach),
    # only where the most it could make sure of would settle the node.
    for ci in range(k):
        w = weight[ci]
        if w == 0 or bests[ci] <= sure[ci]:
            continue
        if w > 0:
            top = lo + w * (bests[ci] - sure[ci])
            if top < beta and top < hi:
                continue
        else:
            top = hi + w * (bests[ci] - sure[ci])
            if top > alpha and top > lo:
                continue
        inside = contested  # scratch: the colour's territory
        any_cell = False
        for x in range(words):
            mine = rbuf[ci, x]
            if shared[ci]:
                for cj in range(k):
                    if cj != ci and bests[cj] > nows[cj]:
                        mine &= ~rbuf[cj, x]
            inside[x] = mine
            any_cell = any_cell or mine != 0
        if any_cell:
            # The layout depends only on the board inside the territory (memo[2]).
            key = _solo_key(ci * 2 + lasti1[ci] + 1, hand[ci], inside, b[0], b[1 + ci],
                            b[1 + k + ci], np.uint64(ctr[SALT]))  # fmt: skip
            found, layout, _, _ = _recall(memo[2], key)
            if not found:
                layout = _greedy(tab, k, b, ci, hand, lasti1, inside, work, fit, pbuf[k + 1])
                _keep(memo[2], key, layout, -1, 1)
            sure[ci] = max(sure[ci], layout)
            blo, bhi = _range(k, weight, sure, bests)
            lo, hi = max(lo, blo), min(hi, bhi)
    pending = False
    for ci in range(k):
        pending = pending or solo[ci] == PENDING
    if pending and lo < hi and alpha < hi and lo < beta:
        for ci in range(k):
            if solo[ci] != PENDING:
                continue
            if lo >= beta or hi <= alpha or lo >= hi:
                break
            # Exact only where it matters: the values below ``floor`` all fail low, those
            # from ``roof`` up all fail high.
            floor, roof = -INF, INF
            w = weight[ci]
            if w != 0:
                restlo = blo - (w * sure[ci] if w > 0 else w * bests[ci])
                resthi = bhi - (w * bests[ci] if w > 0 else w * sure[ci])
                if w > 0:
                    floor, roof = alpha - resthi, beta - restlo
                else:
                    floor, roof = restlo - beta, resthi - alpha
                floor = max(floor, sure[ci] - 1)
                roof = max(min(roof, bests[ci] + 1), floor + 1)
            value, first = _solo_root(tab, g, st, z, memo, buf, ctr, ply, ci, floor, roof, True)
            if ctr[STATUS] != 0:
                return lo, hi
            if value <= floor:
                bests[ci] = min(bests[ci], value)
            elif value >= roof:
                sure[ci] = max(sure[ci], value)
            else:
                nows[ci] = bests[ci] = sure[ci] = value
                solo[ci] = first
            blo, bhi = _range(k, weight, sure, bests)
            lo, hi = max(lo, blo), min(hi, bhi)
    # A colour can score no more than its best solitaire layout: the others' moves only
    # take cells from it. Where a colour's bound would settle the node if it were below
    # some value, a null-window solitaire tells whether it is (most often it is; a
    # solitaire that fails stops at its first layout above).
    if lo < hi and alpha < hi and lo < beta and ctr[SOLO_GAP] >= 0:
        for ci in range(k):
            w = weight[ci]  # -1, 0 or 1
            if w == 0 or solo[ci] != NOT_SOLO or bests[ci] <= sure[ci]:
                continue
            if lo >= beta or hi <= alpha or lo >= hi:
                break
            # The most it may score for the node to fail low (w > 0) or high (w < 0).
            floor = alpha - (bhi - w * bests[ci]) if w > 0 else blo - w * bests[ci] - beta
            if floor < sure[ci] or floor >= bests[ci] or bests[ci] - floor > ctr[SOLO_GAP]:
                continue  # it cannot be, it already is, or it is too far to be worth asking
            value, _ = _solo_root(tab, g, st, z, memo, buf, ctr, ply, ci, floor, floor + 1, True)
            if ctr[STATUS] != 0:
                return lo, hi
            if value <= floor:
                bests[ci] = value
                blo, bhi = _range(k, weight, sure, bests)
                lo, hi = max(lo, blo), min(hi, bhi)
    return lo, hi


@njit(cache=True, nogil=True, _nrt=False)
def _order(tab, g, st, buf, ply, turn, cnt, hint):  # pragma: no cover
    """Order the ``cnt`` moves of ``mbuf[ply]``: the table's ``hint`` first, then the
    killers, then those covering more contested cells and attach points of the others,
    then bigger pieces."""
    k = g[1]
    bits = st[0]
    mbuf, rbuf, work, contested, killers = buf[0], buf[1], buf[5], buf[6], buf[8]
    facts, scr = buf[10], buf[11]
    words = bits.shape[2]
    b = bits[ply]
    moves = mbuf[ply]
    nows, bests = facts[ply, 0], facts[ply, 1]
    for w in range(words):  # the cells two live colours can reach
        hot = 0
        for ci in range(k):
            if bests[ci] <= nows[ci]:
                continue
            for cj in range(ci + 1, k):
                if bests[cj] > nows[cj]:
                    hot |= rbuf[ci, w] & rbuf[cj, w]
        contested[w] = hot
    # The cells where the other live colours can attach now (covering them blocks).
    blocks = work[5]
    for w in range(words):
        blocks[w] = 0
    for cj in range(k):
        if cj != turn and bests[cj] > nows[cj]:
            for w in range(words):
                blocks[w] |= b[1 + k + cj, w] & ~b[0, w] & ~b[1 + cj, w]
    keys = scr  # the keys, then _ordered's scratch
    masks = tab[0]
    for j in range(cnt):
        p = moves[j]
        heat = 0
        for w in range(words):
            heat += popcount(masks[p, w] & contested[w]) + popcount(masks[p, w] & blocks[w])
        if p == hint:
            keys[j] = 95
        elif p == killers[ply, 0]:
            keys[j] = 94
        elif p == killers[ply, 1]:
            keys[j] = 93
        else:
            keys[j] = heat * 8 + _SIZES[tab[3][p]]
    _ordered(moves, cnt, 96, scr)


@njit(_I64(TAB, GAME, STATE, ZOB, TABLE, MEMO, BUF, _A1[_I64], _I64, _I64, _U64, _I64, _I64),
      cache=True, nogil=True, _nrt=False)  # fmt: skip
def search(tab, g, st, z, tt, memo, buf, ctr, ply, turn, h, alpha, beta):  # pragma: no cover
    """The objective's value at ``bits[ply]`` with ``turn`` to move (key ``h``), fail-soft
    within ``(alpha, beta)``; 0 once stopped (``ctr[STATUS]``)."""
    k, weight, maxer = g[1], g[2], g[3]
    bits, hand, lasti1 = st
    mbuf, fit, killers, kept, facts = buf[0], buf[7], buf[8], buf[9], buf[10]
    ctr[NODES] += 1
    if ctr[REQUEST] != 0 or ctr[NODES] >= ctr[LIMIT]:
        ctr[STATUS] = 2 if ctr[REQUEST] != 0 else 1
        return 0
    # The table first: only positions with a move are stored, so an entry settles this one
    # before its moves are generated.
    found, lo, hi, hint = _probe(tt, h)
    if found:
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
    b = bits[ply]
    moves = mbuf[ply]
    # The biggest placement first: the bounds need no more, and the moves are generated
    # only where they do not settle the node.
    big = biggest_legal(tab[7], _SIZES, b[0], b[1 + turn], b[1 + k + turn], hand[turn], fit)
    nxt = (turn + 1) % k
    if big < 0:
        if _game_over(tab, k, b, hand, turn, fit):
            return _final(k, weight, hand, lasti1)
        _copy_ply(bits, ply)
        kept[3][ply] = 0  # a pass: no facts at this ply for the next to reuse
        if ply == ctr[ROOT_PLY]:  # a forced pass at the root: the next ply is the root
            ctr[ROOT_PLY] = ply + 1
        return search(tab, g, st, z, tt, memo, buf, ctr, ply + 1, nxt,
                      h ^ z[1][turn] ^ z[1][nxt], alpha, beta)  # fmt: skip
    lo, hi = _bounds(tab, g, st, z, memo, buf, ctr, ply, turn, _SIZES[tab[3][big]], alpha, beta,
                     lo, hi)  # fmt: skip
    if ctr[STATUS] != 0:
        return 0
    solo = facts[ply, 3]  # an independent colour's first solitaire move, or none
    root = ply == ctr[ROOT_PLY]
    if root:  # what is proven so far, should the search stop before its answer
        ctr[ROOT_LO], ctr[ROOT_HI], ctr[ROOT_MOVE] = lo, hi, -1
    if lo >= beta or hi <= alpha or lo >= hi:
        _store(tt, h, lo, hi, hint)
        return lo if lo >= beta or lo >= hi else hi
    a, bb = max(alpha, lo), min(beta, hi)
    # The moves: an independent colour's solitaire move only; else every placement, the
    # table's first, then those covering more contested cells and attach points of the
    # others, then bigger pieces.
    if solo[turn] == PENDING:
        _, first = _solo_root(tab, g, st, z, memo, buf, ctr, ply, turn, -INF, INF, True)
        if ctr[STATUS] != 0:
            return 0
        solo[turn] = first
    if solo[turn] >= 0:
        moves[0] = solo[turn]
        cnt = 1
    else:
        cnt = bit_generate(tab[7], b[0], b[1 + turn], b[1 + k + turn], hand[turn], fit, moves)
        _order(tab, g, st, buf, ply, turn, cnt, hint)
    maxing = maxer[turn] == 1
    if cnt > 1 and not root:
        # Enhanced transposition cut-off: a move whose position the table already bounds
        # beyond the window settles this node before any move is searched.
        v, p = _etc(tab, z, tt, hand, lasti1, turn, nxt, h, moves, cnt, maxing, a, bb)
        if p >= 0:
            if maxing:
                _store(tt, h, max(lo, v), hi, p)
            else:
                _store(tt, h, lo, min(hi, v), p)
            return v
    best = -INF if maxing else INF
    best_mv = -1
    # Threads share the work as in ABDADA: a move whose position another thread is
    # searching is put off to the end (moves[cnt:]), where it is likely in the table; not
    # at the root (see the module notes).
    defer = 2 * cnt <= moves.shape[0]  # room for the moves put off
    later = 0
    j = 0
    while j < cnt + later:
        p = moves[j]
        h2, old = _apply(tab, g, st, z, ply, turn, p, h)
        h2 ^= z[1][turn] ^ z[1][nxt]
        if defer and 0 < j < cnt and not root and _busy(tt, h2):
            _undo(tab, st, turn, p, old)
            moves[cnt + later] = p
            later += 1
            j += 1
            continue
        if defer:
            _mark(tt, h2, True)
        # The whole window for the first move; for the others first a null window (can
        # this move beat the best so far at all?), then the whole one where it can
        # (principal variation search). One call written once: numba types the body of a
        # recursive function again for each call of itself in it.
        full = j == 0 or bb - a <= 1
        wlo, whi = (a, bb) if full else ((a, a + 1) if maxing else (bb - 1, bb))
        while True:
            v = search(tab, g, st, z, tt, memo, buf, ctr, ply + 1, nxt, h2, wlo, whi)
            if full or ctr[STATUS] != 0:
                break
            if root:  # a bound proven before the search below
                _root_bound(ctr, maxing, v, p, a, bb)
            if not a < v < bb:
                break
            full = True
            wlo, whi = a, bb
        if root and ctr[STATUS] == 0:
            _root_bound(ctr, maxing, v, p, a, bb)
        if defer:
            _mark(tt, h2, False)
        _undo(tab, st, turn, p, old)
        j += 1
        if ctr[STATUS] != 0:
            return 0
        if maxing:
            if v > best:
                best, best_mv = v, p
                a = max(a, v)
        elif v < best:
            best, best_mv = v, p
            bb = min(bb, v)
        if a >= bb:
            if killers[ply, 0] != p:  # a killer: tried early at this ply elsewhere
                killers[ply, 1] = killers[ply, 0]
                killers[ply, 0] = p
            break
    wa, wb = max(alpha, lo), min(beta, hi)
    if best <= wa:
        hi = min(hi, best)
    elif best >= wb:
        lo = max(lo, best)
    else:
        lo = hi = best
    _store(tt, h, lo, hi, best_mv)
    return best


@njit(_I64(TAB, GAME, STATE, ZOB, TABLE, MEMO, BUF, _A1[_I64], _I64, _U64, _I64, _A1[_I64]),
      cache=True, nogil=True, _nrt=False)  # fmt: skip
def principal_variation(tab, g, st, z, tt, memo, buf, ctr, turn, h, value, out):  # pragma: no cover
    """Follow ``value`` from ``bits[0]`` to the end of the game: each ply the first move
    whose child has that value (a forced pass is -1); its length, or -1 if none has (a bug,
    which the wrapper reports)."""
    k = g[1]
    bits, hand = st[0], st[1]
    mbuf, fit, kept = buf[0], buf[7], buf[9]
    ply = 0
    length = 0
    while True:
        b = bits[ply]
        moves = mbuf[ply]
        cnt = bit_generate(tab[7], b[0], b[1 + turn], b[1 + k + turn], hand[turn], fit, moves)
        nxt = (turn + 1) % k
        if cnt == 0:
            if _game_over(tab, k, b, hand, turn, fit):
                return length
            out[length] = -1
            length += 1
            _copy_ply(bits, ply)
            h ^= z[1][turn] ^ z[1][nxt]
            ply += 1
            turn = nxt
            continue
        kept[3][ply] = 0  # the next ply's search does not follow facts of this one
        found, _, _, hint = _probe(tt, h)
        if found and hint >= 0:  # the table's move first
            for j in range(cnt):
                if moves[j] == hint:
                    moves[j] = moves[0]
                    moves[0] = hint
                    break
        chosen = -1
        for j in range(cnt):
            p = moves[j]
            h2, old = _apply(tab, g, st, z, ply, turn, p, h)
            h2 ^= z[1][turn] ^ z[1][nxt]
            v = search(tab, g, st, z, tt, memo, buf, ctr, ply + 1, nxt, h2, value - 1,
                       value + 1)  # fmt: skip
            if ctr[STATUS] != 0:
                _undo(tab, st, turn, p, old)
                return -1
            if v == value:
                chosen = p
                h = h2
                break
            _undo(tab, st, turn, p, old)
        if chosen < 0:
            return -1
        out[length] = chosen
        length += 1
        ply += 1
        turn = nxt
