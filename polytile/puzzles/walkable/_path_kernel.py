"""Compiled region caps for the largest-path search: how big a region new cells can make.

:func:`board_caps` is the bound of :func:`polytile.puzzles.walkable.path_model.steiner_caps`
(node-weighted Steiner trees over red's regions, Dreyfus-Wagner), computed on the cells
themselves for all three boards at once, in compiled code, so that the branch and bound of
:mod:`polytile.puzzles.walkable.path_search` can recompute it at every node. Two things make
it tighter than the model's: only the cells some remaining drop can still cover count as
droppable, and a region with no droppable neighbour cannot grow. Importing this module
loads numba.
"""

from __future__ import annotations

import numpy as np

from polytile._jit import njit
from polytile.puzzles.walkable._regions import flood_region
from polytile.puzzles.walkable.cells import BOARDS, RED, SIDE

__all__ = ["NEG", "board_caps"]

#: "No region": below every real cap.
NEG = -(10**6)
_FAR = 10**6
_AREA = SIDE * SIDE


@njit(cache=True)
def _relax(row, cost, nbr, most, queue, queued):
    """Cheapest connections out of ``row`` (new cells each cost 1, red cells 0, others are
    walls), keeping only those of at most ``most`` new cells. ``queue`` is a ring of
    ``_AREA + 1`` slots: each cell is in it at most once, so it never fills."""
    ring = _AREA + 1
    head, tail = 0, 0
    for v in range(_AREA):
        if row[v] <= most:
            queue[tail] = v
            tail += 1
            queued[v] = True
    while head != tail:
        v = queue[head]
        head = (head + 1) % ring
        queued[v] = False
        for j in range(4):
            h = nbr[v, j]
            if h < 0 or cost[h] >= _FAR:
                continue
            cand = row[v] + cost[h]
            if cand < row[h] and cand <= most:
                row[h] = cand
                if not queued[h]:
                    queue[tail] = h
                    tail = (tail + 1) % ring
                    queued[h] = True


@njit(cache=True)
def _one_board(cells, droppable, b, most, max_terminals, nbr, caps, node_caps):
    base = b * _AREA
    glabel = np.full(BOARDS * _AREA, -1, dtype=np.int64)
    stack = np.empty(BOARDS * _AREA, dtype=np.int64)
    weight = np.zeros(_AREA, dtype=np.int64)
    regions, biggest = 0, 0
    for start in range(_AREA):
        if cells[base + start] == RED and glabel[base + start] < 0:
            weight[regions] = flood_region(cells, RED, base + start, glabel, regions, stack)
            biggest = max(biggest, weight[regions])
            regions += 1
    label = glabel[base : base + _AREA]
    touch = np.zeros(_AREA, dtype=np.bool_)  # a region with a droppable neighbour can grow
    for v in range(_AREA):
        if label[v] >= 0:
            for j in range(4):
                h = nbr[v, j]
                if h >= 0 and cells[base + h] != RED and droppable[base + h]:
                    touch[label[v]] = True
    for m in range(most + 1):
        caps[b, m] = biggest
        for v in range(_AREA):
            node_caps[b, m, v] = NEG
    # Regions of new cells alone: m cells, any droppable cell among them.
    for m in range(1, most + 1):
        caps[b, m] = max(caps[b, m], m)
        for v in range(_AREA):
            if droppable[base + v]:
                node_caps[b, m, v] = m
    term = np.full(max(regions, 1), -1, dtype=np.int64)
    tweight = np.zeros(max(regions, 1), dtype=np.int64)
    t = 0
    for k in range(regions):
        if touch[k]:
            term[k] = t
            tweight[t] = weight[k]
            t += 1
    if t == 0:
        return
    if t > max_terminals:  # too many to combine: every growing region joined, plus m cells
        total = 0
        for k in range(t):
            total += tweight[k]
        for m in range(1, most + 1):
            caps[b, m] = max(caps[b, m], total + m)
            for v in range(_AREA):
                if droppable[base + v]:
                    node_caps[b, m, v] = total + m
        return
    cost = np.full(_AREA, _FAR, dtype=np.int64)
    for v in range(_AREA):
        if cells[base + v] == RED:
            cost[v] = 0
        elif droppable[base + v]:
            cost[v] = 1
    full = 1 << t
    dp = np.full((full, _AREA), _FAR, dtype=np.int64)  # fewest new cells joining S and v
    wsum = np.zeros(full, dtype=np.int64)
    best = np.full((most + 1, _AREA), NEG, dtype=np.int64)  # best w(S) joined to v by c
    queue = np.empty(_AREA + 1, dtype=np.int64)
    queued = np.zeros(_AREA, dtype=np.bool_)
    for mask in range(1, full):
        low = mask & -mask
        k = 0
        while (1 << k) != low:
            k += 1
        wsum[mask] = wsum[mask ^ low] + tweight[k]
        if mask == low:
            for v in range(_AREA):
                if label[v] >= 0 and term[label[v]] == k:
                    dp[mask, v] = 0
        else:
            sub = (mask - 1) & mask
            while sub:
                other = mask ^ sub
                if sub < other:
                    for v in range(_AREA):
                        a, c = dp[sub, v], dp[other, v]
                        if a <= most and c <= most:
                            val = a + c - cost[v]
                            if val < dp[mask, v]:
                                dp[mask, v] = val
                sub = (sub - 1) & mask
        _relax(dp[mask], cost, nbr, most, queue, queued)
        for v in range(_AREA):
            c = dp[mask, v]
            if c <= most and cost[v] == 1 and wsum[mask] > best[c, v]:
                best[c, v] = wsum[mask]
    for v in range(_AREA):
        run = NEG
        for m in range(most + 1):
            run = max(run, best[m, v])
            if run > NEG and run + m > node_caps[b, m, v]:
                node_caps[b, m, v] = run + m
                caps[b, m] = max(caps[b, m], run + m)


@njit(cache=True)
def board_caps(cells, droppable, most, max_terminals):
    """Per board ``b`` and count ``m = 0 .. most``: ``caps[b, m]``, an upper bound on the
    largest red region that ``m`` new cells (droppable ones, any shape) can make, and
    ``node_caps[b, m, v]``, the same for regions holding the droppable cell ``v`` of board
    ``b`` (:data:`NEG` where none can). Over ``max_terminals`` growing regions on a board,
    the cap is their whole area plus ``m``."""
    nbr = np.full((_AREA, 4), -1, dtype=np.int64)
    for v in range(_AREA):
        r, c = v // SIDE, v % SIDE
        if r > 0:
            nbr[v, 0] = v - SIDE
        if r < SIDE - 1:
            nbr[v, 1] = v + SIDE
        if c > 0:
            nbr[v, 2] = v - 1
        if c < SIDE - 1:
            nbr[v, 3] = v + 1
    caps = np.empty((BOARDS, most + 1), dtype=np.int64)
    node_caps = np.empty((BOARDS, most + 1, _AREA), dtype=np.int64)
    for b in range(BOARDS):
        _one_board(cells, droppable, b, most, max_terminals, nbr, caps, node_caps)
    return caps, node_caps


@njit(cache=True)
def rest_counts(options, top):
    """The cells per board that pieces with these split options (``options[j, code]``:
    piece ``j`` can put ``code // 9``, ``code // 3 % 3``, ``code % 3`` cells on the three
    boards; code 0, a pass, always) can put down together, each count clipped at ``top``,
    as rows of an ``(r, 3)`` array; a vector is left out when one more cell on one board
    is also reachable (the bounds grow with each count, so it could not give more)."""
    side = top + 1
    reach = np.zeros(side**3, dtype=np.bool_)
    nxt = np.zeros(side**3, dtype=np.bool_)
    reach[0] = True
    for j in range(options.shape[0]):
        nxt[:] = False
        for code in range(side**3):
            if not reach[code]:
                continue
            a, b, c = code // (side * side), code // side % side, code % side
            for o in range(27):
                if options[j, o]:
                    aa = min(a + o // 9, top)
                    bb = min(b + o // 3 % 3, top)
                    cc = min(c + o % 3, top)
                    nxt[(aa * side + bb) * side + cc] = True
        reach, nxt = nxt, reach
    rows = np.empty((side**3, 3), dtype=np.int64)
    n = 0
    for code in range(side**3):
        if reach[code]:
            a, b, c = code // (side * side), code // side % side, code % side
            beaten = (a < top and reach[code + side * side]) or (b < top and reach[code + side])
            if not (beaten or (c < top and reach[code + 1])):
                rows[n, 0], rows[n, 1], rows[n, 2] = a, b, c
                n += 1
    return rows[:n].copy()


@njit(cache=True)
def drop_bounds(rows, rest, caps, node_caps, top):
    """Per drop (a row of 4 global cells): the best sum over the boards, over the rest
    vectors (:func:`rest_counts` of the other pieces), of the largest region the board can
    hold with the drop's cells and the rest's: one holding a drop cell (its node cap) or
    none (the board's cap of the rest's cells). The caps grow with the count, so dominated
    rest vectors never give more."""
    n = rows.shape[0]
    out = np.empty(n, dtype=np.int64)
    q = np.zeros(BOARDS, dtype=np.int64)
    for d in range(n):
        q[:] = 0
        for k in range(4):
            q[rows[d, k] // _AREA] += 1
        best = NEG
        for r in range(rest.shape[0]):
            total = 0
            for b in range(BOARDS):
                m = min(q[b] + rest[r, b], top)
                v = caps[b, m - q[b]]
                for k in range(4):
                    g = rows[d, k]
                    if g // _AREA == b and node_caps[b, m, g % _AREA] > v:
                        v = node_caps[b, m, g % _AREA]
                total += v
            if total > best:
                best = total
        out[d] = best
    return out
