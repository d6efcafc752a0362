"""Compiled kernels for Walkable Cities drop phases: the payoff of a pair of drops, and every
candidate drop's expected payoff against a mixed strategy (the best-response oracle).

Arrays only, as the other kernels: ``cells`` is the flat int8 array of 300 cells of
:mod:`polytile.puzzles.walkable.board`; a drop is a row of four sorted global cells, and a
row whose first cell is negative is a pass. Payoffs are red's boards-won margin (boards red
wins minus boards blue wins) after both actions resolve.

Why incremental: a best response scores up to ~14,000 candidate drops against each action in
the opponent's mix. With the opponent's action applied first (position ``S``), a candidate
that shares no cell with it changes only its own player's regions, and only on the one to
three boards it touches; its cells on a board form one sub-piece (one cell, or two adjacent
ones), so the region they make is those cells plus every distinct own region beside them,
whose sizes are labelled once per ``S``. A shared cell (a collision) turns an opponent's
cell of ``S`` into a dead one, which can split the opponent's region: only then is the
opponent's largest region on that board flood-filled again, exactly.
"""

from __future__ import annotations

import numpy as np

from polytile._jit import njit
from polytile.puzzles.walkable._regions import flood_region, largest_regions
from polytile.puzzles.walkable.cells import BLUE, BOARDS, CELLS, DEAD, RED, SIDE

__all__ = ["pair_margins", "response_values"]


@njit(cache=True)
def _apply(work, red, blue):  # pragma: no cover - compiled
    """Resolve both drops on ``work`` (a copy of the position, changed in place)."""
    if red[0] >= 0:
        for t in range(4):
            work[red[t]] = RED
    if blue[0] >= 0:
        for t in range(4):
            g = blue[t]
            work[g] = DEAD if work[g] == RED else BLUE


@njit(cache=True)
def _margin(red0, red1, red2, blue0, blue1, blue2):  # pragma: no cover - compiled
    """Boards red wins minus boards blue wins."""
    m = 0
    for r, b in ((red0, blue0), (red1, blue1), (red2, blue2)):
        if r > b:
            m += 1
        elif r < b:
            m -= 1
    return m


@njit("int64[:, ::1](int8[::1], int16[:, ::1], int16[:, ::1])", cache=True)
def pair_margins(cells, reds, blues):  # pragma: no cover - compiled
    """``out[i, j]``: red's boards-won margin after red's action ``reds[i]`` and blue's
    ``blues[j]`` resolve together (by a full flood fill: the reference the incremental
    kernel is tested against, and the restricted games' entries)."""
    out = np.empty((reds.shape[0], blues.shape[0]), dtype=np.int64)
    work = np.empty(CELLS, dtype=np.int8)
    for i in range(reds.shape[0]):
        for j in range(blues.shape[0]):
            work[:] = cells
            _apply(work, reds[i], blues[j])
            lr = largest_regions(work)
            out[i, j] = _margin(lr[0, 0], lr[0, 1], lr[0, 2], lr[1, 0], lr[1, 1], lr[1, 2])
    return out


@njit(cache=True)
def _label(work, color, label, size, stack):  # pragma: no cover - compiled
    """Label the regions of ``color``: ``label[g]`` is the region of cell ``g`` (-1 for any
    other cell) and ``size[k]`` region ``k``'s size."""
    label[:] = -1
    n = 0
    for start in range(CELLS):
        if label[start] < 0 and work[start] == color:
            size[n] = flood_region(work, color, start, label, n, stack)
            n += 1


@njit(cache=True)
def _board_largest(work, color, board, scratch, stack):  # pragma: no cover - compiled
    """The largest region of ``color`` on one board, by a flood fill of its 100 cells."""
    base = board * SIDE * SIDE
    scratch[base : base + SIDE * SIDE] = -1
    best = 0
    for start in range(base, base + SIDE * SIDE):
        if scratch[start] < 0 and work[start] == color:
            best = max(best, flood_region(work, color, start, scratch, 0, stack))
    return best


@njit("float64[::1](int8[::1], int64, int16[:, ::1], int16[:, ::1], float64[::1])", cache=True)
def response_values(cells, me, cands, opps, probs):  # pragma: no cover - compiled
    """Red's expected margin for each of ``me``'s candidate drops ``cands`` against the
    opponent's mix (actions ``opps`` with probabilities ``probs``); the last entry (index
    ``len(cands)``) is ``me`` passing. Every candidate must be legal in ``cells``."""
    them = BLUE if me == RED else RED
    sign = 1 if me == RED else -1
    n = cands.shape[0]
    out = np.zeros(n + 1, dtype=np.float64)
    work = np.empty(CELLS, dtype=np.int8)
    label = np.empty(CELLS, dtype=np.int64)
    size = np.empty(CELLS, dtype=np.int64)
    scratch = np.empty(CELLS, dtype=np.int64)
    stack = np.empty(CELLS, dtype=np.int64)
    mine = np.zeros(BOARDS, dtype=np.int64)
    theirs = np.zeros(BOARDS, dtype=np.int64)
    base_mine = np.zeros(BOARDS, dtype=np.int64)
    base_theirs = np.zeros(BOARDS, dtype=np.int64)
    near = np.empty(8, dtype=np.int64)
    pass_row = np.full(4, -1, dtype=np.int16)
    for j in range(opps.shape[0]):
        p = probs[j]
        work[:] = cells
        if me == RED:
            _apply(work, pass_row, opps[j])
        else:
            _apply(work, opps[j], pass_row)
        _label(work, me, label, size, stack)
        lr = largest_regions(work)
        for b in range(BOARDS):
            base_mine[b] = lr[me - RED, b]
            base_theirs[b] = lr[them - RED, b]
        m = sign * _margin(base_mine[0], base_mine[1], base_mine[2],
                           base_theirs[0], base_theirs[1], base_theirs[2])  # fmt: skip
        out[n] += p * m
        for i in range(n):
            d = cands[i]
            mine[:] = base_mine
            theirs[:] = base_theirs
            t = 0
            while t < 4:
                # the cells on one board are consecutive (rows are sorted): one sub-piece
                b = d[t] // 100
                u = t
                while u < 4 and d[u] // 100 == b:
                    u += 1
                k = 0  # distinct own regions beside the sub-piece's cells that stay mine
                new = 0
                hit = False
                for v in range(t, u):
                    g = d[v]
                    if work[g] == them:  # the opponent dropped here too: a collision
                        hit = True
                        continue
                    new += 1
                    r, c = (g % 100) // SIDE, g % SIDE
                    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                        rr, cc = r + dr, c + dc
                        if 0 <= rr < SIDE and 0 <= cc < SIDE:
                            lab = label[g - r * SIDE - c + rr * SIDE + cc]
                            if lab >= 0:
                                dup = False
                                for q in range(k):
                                    if near[q] == lab:
                                        dup = True
                                if not dup:
                                    near[k] = lab
                                    k += 1
                if new:
                    joined = new
                    for q in range(k):
                        joined += size[near[q]]
                    mine[b] = max(mine[b], joined)
                if hit:
                    for v in range(t, u):
                        if work[d[v]] == them:
                            work[d[v]] = DEAD
                    theirs[b] = _board_largest(work, them, b, scratch, stack)
                    for v in range(t, u):
                        if work[d[v]] == DEAD and cells[d[v]] != DEAD:
                            work[d[v]] = them
                t = u
            out[i] += p * sign * _margin(mine[0], mine[1], mine[2],
                                         theirs[0], theirs[1], theirs[2])  # fmt: skip
    return out
