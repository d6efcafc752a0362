"""Random paths down the search tree of a tiling, followed together (go with the winners).

Knuth (1975) estimates a backtrack tree by one random path: the product of the numbers of
children met down to depth ``k`` estimates the nodes at depth ``k``. On tiling trees most
paths die early and the few that reach a tiling carry huge weights, so the estimate has a
heavy tail. Here a population of paths goes down level by level (Aldous and Vazirani's "go
with the winners", a sequential Monte Carlo estimator): each path stands for a mass of
nodes, its children inherit that mass, and when there are more children than the
population holds, as many are drawn in proportion to their mass (systematic resampling),
each then standing for an equal share of the level's total mass. Dead paths are replaced by
copies of living ones, so every level is estimated from the whole population. The totals
(nodes per level, tilings reached) are unbiased; with a population larger than every level
they are exact.

The paths follow the search's own branching (:mod:`polytile.solvers.bitboard`): the first
empty cell in scan order, the options anchored there that fit, copies as counters, and the
colour rules of the teasers: the edge rule at each step, the corner rule's dead-end test
(:func:`polytile.solvers.bitboard._untouchable`) below each coloured piece and the rule
itself at a complete cover, colours numbered by first appearance when interchangeable.
"""

from __future__ import annotations

import numpy as np

from polytile._jit import njit
from polytile.solvers._bits import ZERO, ctz, supplied
from polytile.solvers.bitboard import _corner_rule, _untouchable

__all__ = ["population"]


@njit(cache=True)
def population(masks, ptype, use, anchor_ptr, anchor_idx, start_cover, type_count,
               spare, cap, group_of, group_low, group_high,
               ocolor, halo, corner, color_order, rule, n_colors, size, seed):  # fmt: skip
    """One estimate by a population of ``size`` paths: (nodes, tilings) of the tree."""
    np.random.seed(seed)
    words = masks.shape[1]
    n_types = len(type_count)
    k_colors = max(n_colors, 1)
    depth = 0
    for t in range(n_types):
        depth += type_count[t]
    depth += 1
    widest = 1
    for c in range(len(anchor_ptr) - 1):
        widest = max(widest, anchor_ptr[c + 1] - anchor_ptr[c])
    # Two generations of paths: cover, copies left, colour cells and forbidden cells, the
    # colours used, the corner-touch bitsets, the options chosen.
    cover = np.zeros((2, size, words), dtype=np.uint64)
    left = np.zeros((2, size, n_types), dtype=np.int64)
    ccover = np.zeros((2, size, k_colors, words), dtype=np.uint64)
    forbid = np.zeros((2, size, k_colors, words), dtype=np.uint64)
    used = np.zeros((2, size), dtype=np.int64)
    touched = np.zeros((2, size, depth + 1), dtype=np.int64)
    choice = np.zeros((2, size, depth + 1), dtype=np.int64)
    mass = np.zeros((2, size), dtype=np.float64)
    # The children of a generation: parent, option, mass.
    kid_parent = np.empty(size * widest, dtype=np.int64)
    kid_option = np.empty(size * widest, dtype=np.int64)
    kid_mass = np.empty(size * widest, dtype=np.float64)
    group_used = np.empty(len(group_low), dtype=np.int64)
    sel_parent = np.empty(size, dtype=np.int64)
    sel_option = np.empty(size, dtype=np.int64)
    parent = np.empty(depth + 1, dtype=np.int64)
    colored = n_colors > 0
    for w in range(words):
        cover[0, 0, w] = start_cover[w]
    for t in range(n_types):
        left[0, 0, t] = type_count[t]
    mass[0, 0] = 1.0
    alive = 1
    cur = 0
    level = 0
    nodes = 0.0
    tilings = 0.0
    while alive > 0:
        kids = 0
        for i in range(alive):
            m = mass[cur, i]
            nodes += m
            cell = -1
            for w in range(words):
                if cover[cur, i, w] != ~ZERO:
                    cell = w * 64 + ctz(~cover[cur, i, w])
                    break
            if cell < 0:  # a complete cover
                ok = supplied(left[cur, i], spare, cap, group_of, group_low, group_high,
                              group_used)  # fmt: skip
                if ok and colored and rule > 0:
                    ok = _corner_rule(level, choice[cur, i], ocolor, masks, corner,
                                      ccover[cur, i], rule, parent)  # fmt: skip
                if ok:
                    tilings += m
                continue
            for a in range(anchor_ptr[cell], anchor_ptr[cell + 1]):
                p = anchor_idx[a]
                if left[cur, i, ptype[p]] < use[p]:
                    continue
                clash = False
                for w in range(words):
                    if masks[p, w] & cover[cur, i, w] != ZERO:
                        clash = True
                        break
                if clash:
                    continue
                if colored:
                    k = ocolor[p]
                    if color_order and k > used[cur, i]:
                        continue
                    for w in range(words):
                        if masks[p, w] & forbid[cur, i, k, w] != ZERO:
                            clash = True
                            break
                    if clash:
                        continue
                kid_parent[kids] = i
                kid_option[kids] = p
                kid_mass[kids] = m
                kids += 1
        if kids == 0:
            break
        nxt = 1 - cur
        # Which children go on: all of them, or ``size`` drawn by mass.
        if kids <= size:
            picked = kids
        else:
            total = 0.0
            for j in range(kids):
                total += kid_mass[j]
            step = total / size
            u = np.random.random() * step
            acc = 0.0
            picked = 0
            j = 0
            # systematic resampling: the children under u, u + step, u + 2 step, ...
            for s in range(size):
                target = u + s * step
                while j < kids - 1 and acc + kid_mass[j] <= target:
                    acc += kid_mass[j]
                    j += 1
                sel_parent[picked] = kid_parent[j]
                sel_option[picked] = kid_option[j]
                picked += 1
            for s in range(picked):
                kid_parent[s] = sel_parent[s]
                kid_option[s] = sel_option[s]
                kid_mass[s] = step
        # The next generation: each picked child is its parent's state plus its option.
        out = 0
        for j in range(picked):
            i = kid_parent[j]
            p = kid_option[j]
            for w in range(words):
                cover[nxt, out, w] = cover[cur, i, w] | masks[p, w]
            for t in range(n_types):
                left[nxt, out, t] = left[cur, i, t]
            left[nxt, out, ptype[p]] -= use[p]
            for d in range(level):
                choice[nxt, out, d] = choice[cur, i, d]
            choice[nxt, out, level] = p
            mass[nxt, out] = kid_mass[j]
            if colored:
                k = ocolor[p]
                for c in range(n_colors):
                    for w in range(words):
                        ccover[nxt, out, c, w] = ccover[cur, i, c, w]
                        forbid[nxt, out, c, w] = forbid[cur, i, c, w]
                for w in range(words):
                    ccover[nxt, out, k, w] |= masks[p, w]
                    forbid[nxt, out, k, w] |= halo[p, w]
                used[nxt, out] = used[cur, i] + (1 if k == used[cur, i] else 0)
                for d in range(level + 1):
                    touched[nxt, out, d] = touched[cur, i, d]
                touched[nxt, out, level + 1] = touched[cur, i, level]
                if 0 < rule < 3 and _untouchable(level + 1, choice[nxt, out], ocolor, corner,
                                                 cover[nxt, out], ccover[nxt, out],
                                                 forbid[nxt, out], touched[nxt, out]):  # fmt: skip
                    nodes += kid_mass[j]  # a node of the search, and a dead end
                    continue
            out += 1
        alive = out
        cur = nxt
        level += 1
    return nodes, tilings
