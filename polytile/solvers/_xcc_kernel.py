"""The compiled kernel of :mod:`polytile.solvers.xcc`: Knuth's Algorithm C in numba.

Private: :mod:`polytile.solvers.xcc` is the public wrapper. The kernel sees only flat integer
arrays and keeps the whole search state in numpy arrays (``nd`` nodes, ``it`` items, the level
``stack``, the ``cand`` option stack, the ``ctl`` control fields, the ``rng`` state), so that
:func:`_run` can stop when its solution buffer fills or a limit is reached and be called again
to carry on. The wrapper reads and writes ``ctl`` through the field constants below, and sets
up a search with :func:`_build` and :func:`_force`; the step labels in comments are Knuth's
(TAOCP 7.2.2.1).
"""

from __future__ import annotations

import numpy as np
from numba import int32, int64, uint64, void
from numba.core.types import Array

from polytile._jit import njit

# The interface used by polytile.solvers.xcc (the rest is internal to the kernel).
__all__ = [
    "_BUF_MAX",
    "_C2",
    "_CTL_SIZE",
    "_DEPTH_CUT",
    "_DONE",
    "_FINISHED",
    "_INT32_MAX",
    "_NODES",
    "_NODE_LIMIT",
    "_NODE_STOP",
    "_N_OUT",
    "_PAUSED",
    "_PC",
    "_RANDOM",
    "_SOLUTIONS",
    "_SOL_LIMIT",
    "_SOL_STOP",
    "_UPDATES",
    "_build",
    "_force",
    "_run",
]

_INT32_MAX = 2**31 - 1

# Columns of the int32 node array ``nd`` (one row per node).
_TOP = 0  # TOP(x): item of a node, LEN(i) in header i, -k <= 0 in spacers
_ULINK = 1
_DLINK = 2
_COLOR = 3  # COLOR(x): 0 none, > 0 a colour, -1 "purified: already known compatible"
# Columns of the int32 item array ``it``: items 0..n+1, 0 heads the primary list, n+1 the
# secondary one.
_LLINK = 0
_RLINK = 1

# Rows of the int32 level ``stack``.
_ITEM = 0  # the item i chosen at level l (step C3)
_POS = 1  # cand[_POS] is x_l, the option being tried at level l
_END = 2  # cand[pos(l) .. end(l)) are the options still to try at level l

# Fields of the int64 ``ctl`` array: where the search stands, its limits and statistics.
_LEVEL = 0
_PC = 1  # the step to resume at
_NODES = 2
_UPDATES = 3
_SOLUTIONS = 4
_NODE_LIMIT = 5  # -1: none
_SOL_LIMIT = 6  # -1: none
_BUF_MAX = 7  # solutions written to ``out`` per call; 0 counts only
_N_OUT = 8  # solutions written by the last call
_RANDOM = 9  # nonzero: random MRV tie-breaking and option order
_DEPTH_CUT = 10  # -1: none; else treat level == cut as a leaf (for split)
_CTL_SIZE = 11

# Program counter values: the step of Algorithm C to run next.
_C2 = 2
_C5 = 5
_C6 = 6
_C7 = 7
_C8 = 8
_FINISHED = 0

# Kernel return codes.
_DONE = 0  # the search is over
_PAUSED = 1  # the solution buffer is full
_NODE_STOP = 2  # the node limit was reached
_SOL_STOP = 3  # the solution limit was reached

# The validated input arrays are read-only (XCCArrays is immutable).
_RO_INT32 = Array(int32, 1, "C", readonly=True)
_RO_INT64 = Array(int64, 1, "C", readonly=True)

# splitmix64 constants (Steele, Lea and Flood 2014).
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)


# -- the compiled kernel ------------------------------------------------------------------
# Nodes are rows of ``nd`` (TOP, ULINK, DLINK, COLOR side by side): the nodes of an option are
# consecutive rows, so hide' walks one stretch of memory. Items are rows of ``it`` (LLINK,
# RLINK). LEN(i) lives in TOP of header node i, as in Knuth.
@njit(cache=True, nogil=True)
def _random_below(rng, n):
    """A pseudo-random integer in ``[0, n)`` from the splitmix64 state ``rng[0]``."""
    z = rng[0] + _GOLDEN
    rng[0] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    z = z ^ (z >> _S31)
    return int(z % np.uint64(n))


@njit(cache=True, nogil=True)
def _hide(nd, p):
    """hide'(p): unlink the other nodes of p's option from their items' lists."""
    updates = 0
    q = p + 1
    while q != p:
        x = nd[q, _TOP]
        u = nd[q, _ULINK]
        d = nd[q, _DLINK]
        if x <= 0:
            q = u  # q was a spacer: wrap to the first node of the option
        elif nd[q, _COLOR] < 0:
            q += 1  # purified: its item is no longer searched, leave it in place
        else:
            nd[u, _DLINK] = d
            nd[d, _ULINK] = u
            nd[x, _TOP] -= 1
            updates += 1
            q += 1
    return updates


@njit(cache=True, nogil=True)
def _unhide(nd, p):
    """unhide'(p): the exact inverse of hide'(p), walking the option backwards."""
    q = p - 1
    while q != p:
        x = nd[q, _TOP]
        u = nd[q, _ULINK]
        d = nd[q, _DLINK]
        if x <= 0:
            q = d  # q was a spacer: wrap to the last node of the option
        elif nd[q, _COLOR] < 0:
            q -= 1
        else:
            nd[u, _DLINK] = q
            nd[d, _ULINK] = q
            nd[x, _TOP] += 1
            q -= 1


@njit(cache=True, nogil=True)
def _cover(nd, it, i):
    """cover'(i): hide every option of item i, then unlink i from its item list."""
    updates = 1
    p = nd[i, _DLINK]
    while p != i:
        updates += _hide(nd, p)
        p = nd[p, _DLINK]
    left = it[i, _LLINK]
    right = it[i, _RLINK]
    it[left, _RLINK] = right
    it[right, _LLINK] = left
    return updates


@njit(cache=True, nogil=True)
def _uncover(nd, it, i):
    """uncover'(i): relink item i, then unhide its options in reverse order."""
    left = it[i, _LLINK]
    right = it[i, _RLINK]
    it[left, _RLINK] = i
    it[right, _LLINK] = i
    p = nd[i, _ULINK]
    while p != i:
        _unhide(nd, p)
        p = nd[p, _ULINK]


@njit(cache=True, nogil=True)
def _purify(nd, p):
    """purify(p): keep the options giving p's item p's colour (marked -1), hide the rest.

    Node p itself keeps its colour, so that uncommit can tell it purified (as in DLX2).
    """
    updates = 0
    c = nd[p, _COLOR]
    i = nd[p, _TOP]
    q = nd[i, _DLINK]
    while q != i:
        if nd[q, _COLOR] == c:
            if q != p:
                nd[q, _COLOR] = -1
        else:
            updates += _hide(nd, q)
        q = nd[q, _DLINK]
    return updates


@njit(cache=True, nogil=True)
def _unpurify(nd, p):
    """unpurify(p): the inverse of purify(p), walking the item's list upwards."""
    c = nd[p, _COLOR]
    i = nd[p, _TOP]
    q = nd[i, _ULINK]
    while q != i:
        if nd[q, _COLOR] < 0:
            nd[q, _COLOR] = c
        elif q != p:
            _unhide(nd, q)
        q = nd[q, _ULINK]


@njit(cache=True, nogil=True)
def _commit(nd, it, p):
    """commit(p, j): cover'(j) for an uncoloured node, purify(p) for a coloured one."""
    c = nd[p, _COLOR]
    if c == 0:
        return _cover(nd, it, nd[p, _TOP])
    if c > 0:
        return _purify(nd, p)
    return 0  # purified by an earlier option: nothing to do


@njit(cache=True, nogil=True)
def _uncommit(nd, it, p):
    """uncommit(p, j): the inverse of commit(p, j)."""
    c = nd[p, _COLOR]
    if c == 0:
        _uncover(nd, it, nd[p, _TOP])
    elif c > 0:
        _unpurify(nd, p)


@njit(
    void(_RO_INT32, _RO_INT64, _RO_INT32, int64, int64, int32[:, ::1], int32[:, ::1], int32[::1]),
    cache=True,
    nogil=True,
)
def _build(options, options_ptr, colors, n_items, n_primary, nd, it, opt):
    """C1. [Initialize.] Lay out items and nodes as in Knuth; item k is header node k+1.

    Node 0 is unused, 1..n are the item headers, n+1 the first spacer, then each option's
    nodes followed by a spacer, so option k's first node is ``n + 2 + options_ptr[k] + k``.
    """
    n = n_items
    # Primary items form a circular list headed by 0, secondary ones one headed by n+1.
    last = 0
    for i in range(1, n_primary + 1):
        it[i, _LLINK] = last
        it[last, _RLINK] = i
        last = i
    it[last, _RLINK] = 0
    it[0, _LLINK] = last
    last = n + 1
    for i in range(n_primary + 1, n + 1):
        it[i, _LLINK] = last
        it[last, _RLINK] = i
        last = i
    it[last, _RLINK] = n + 1
    it[n + 1, _LLINK] = last
    for i in range(n + 1):
        nd[i, _TOP] = 0  # LEN
        nd[i, _ULINK] = i
        nd[i, _DLINK] = i
        nd[i, _COLOR] = 0
        opt[i] = -1
    spacer = n + 1
    nd[spacer, _TOP] = 0
    nd[spacer, _ULINK] = spacer
    nd[spacer, _COLOR] = 0
    opt[spacer] = -1
    for k in range(options_ptr.shape[0] - 1):
        start = options_ptr[k]
        stop = options_ptr[k + 1]
        for e in range(start, stop):
            x = spacer + 1 + (e - start)
            i = options[e] + 1
            nd[x, _TOP] = i
            nd[i, _TOP] += 1
            u = nd[i, _ULINK]
            nd[x, _ULINK] = u
            nd[x, _DLINK] = i
            nd[u, _DLINK] = x
            nd[i, _ULINK] = x
            nd[x, _COLOR] = colors[e]
            opt[x] = k
        first_node = spacer + 1
        nd[spacer, _DLINK] = spacer + (stop - start)  # a spacer's DLINK: next option's last
        spacer += stop - start + 1
        nd[spacer, _TOP] = -(k + 1)
        nd[spacer, _ULINK] = first_node  # a spacer's ULINK: previous option's first node
        nd[spacer, _COLOR] = 0
        opt[spacer] = -1
    nd[spacer, _DLINK] = spacer


@njit(int64(int32[:, ::1], int32[:, ::1], int64), cache=True, nogil=True)
def _force(nd, it, first_node):
    """Commit every node of one option, for good; returns the link updates.

    This is C4 and C5 for an option the caller chose: committing its first node (cover' of a
    primary item, or purify) hides the option from its other items, as cover'(i) does for
    x_l, and the other nodes are then committed as in C5.
    """
    updates = 0
    p = first_node
    while nd[p, _TOP] > 0:
        updates += _commit(nd, it, p)
        p += 1
    return updates


@njit(
    int64(
        int32[:, ::1],
        int32[:, ::1],
        int32[::1],
        int32[:, ::1],
        int32[::1],
        int64[::1],
        uint64[::1],
        int32[::1],
        int64[::1],
    ),
    cache=True,
    nogil=True,
)
def _run(nd, it, opt, stack, cand, ctl, rng, out, out_ptr):
    """Algorithm C from the state in the arrays, until done, paused or stopped.

    Writes up to ``ctl[_BUF_MAX]`` solutions (option indices) to ``out``, solution ``s`` in
    ``out[out_ptr[s]:out_ptr[s + 1]]``, and stores the state back in ``ctl`` so that the next
    call resumes. The options of level l are tried in the order stored in ``cand`` (Knuth's
    DLINK order, or shuffled); ``cand`` is a stack, and the option lists of the levels on one
    path are disjoint (each level's item hides the options of the lists below it), so it
    never needs more than one slot per option.
    """
    items = stack[_ITEM]
    pos = stack[_POS]
    end = stack[_END]
    level = ctl[_LEVEL]
    pc = ctl[_PC]
    nodes = ctl[_NODES]
    updates = ctl[_UPDATES]
    solutions = ctl[_SOLUTIONS]
    node_limit = ctl[_NODE_LIMIT]
    sol_limit = ctl[_SOL_LIMIT]
    buf_max = ctl[_BUF_MAX]
    randomized = ctl[_RANDOM] != 0
    depth_cut = ctl[_DEPTH_CUT]
    n_out = 0
    w = 0
    out_ptr[0] = 0
    status = _DONE
    while pc != _FINISHED:
        if pc == _C2:
            # C2. [Enter level l.]
            if node_limit >= 0 and nodes >= node_limit:
                status = _NODE_STOP
                break
            nodes += 1
            if it[0, _RLINK] == 0 or level == depth_cut:
                # Visit the solution x_0 .. x_{l-1} (for split: the prefix), then C8.
                solutions += 1
                pc = _C8
                if buf_max > 0:
                    for k in range(level):
                        out[w] = opt[cand[pos[k]]]
                        w += 1
                    n_out += 1
                    out_ptr[n_out] = w
                if sol_limit >= 0 and solutions >= sol_limit:
                    status = _SOL_STOP
                    break
                if buf_max > 0 and n_out >= buf_max:
                    status = _PAUSED
                    break
                continue
            # C3. [Choose i.] Minimum remaining values; ties go to the first item in the
            # list (the lowest index), or to a uniformly random one when randomized.
            i = -1
            best = _INT32_MAX
            ties = 0
            p = it[0, _RLINK]
            while p != 0:
                length = nd[p, _TOP]
                if length < best:
                    i = p
                    best = length
                    ties = 1
                    if length == 0:
                        break
                elif length == best and randomized:
                    ties += 1
                    if _random_below(rng, ties) == 0:  # reservoir sampling
                        i = p
                p = it[p, _RLINK]
            # C4. [Cover i.] The options to try as x_l go onto the cand stack.
            updates += _cover(nd, it, i)
            base = end[level - 1] if level > 0 else 0
            e = base
            p = nd[i, _DLINK]
            while p != i:
                cand[e] = p
                e += 1
                p = nd[p, _DLINK]
            if randomized:
                for a in range(e - 1, base, -1):  # Fisher-Yates
                    b = base + _random_below(rng, a - base + 1)
                    cand[a], cand[b] = cand[b], cand[a]
            items[level] = i
            pos[level] = base
            end[level] = e
            pc = _C5
        elif pc == _C5:
            # C5. [Try x_l.] If no option is left, go to C7; else commit the other items of
            # x_l (a spacer sends p back to the option's first node) and enter level l+1.
            if pos[level] == end[level]:
                pc = _C7
                continue
            x = cand[pos[level]]
            p = x + 1
            while p != x:
                if nd[p, _TOP] <= 0:
                    p = nd[p, _ULINK]
                else:
                    updates += _commit(nd, it, p)
                    p += 1
            level += 1
            pc = _C2
        elif pc == _C6:
            # C6. [Try again.] Uncommit the items of x_l in reverse order; next x_l.
            x = cand[pos[level]]
            p = x - 1
            while p != x:
                if nd[p, _TOP] <= 0:
                    p = nd[p, _DLINK]
                else:
                    _uncommit(nd, it, p)
                    p -= 1
            pos[level] += 1
            pc = _C5
        elif pc == _C7:
            # C7. [Backtrack.]
            _uncover(nd, it, items[level])
            pc = _C8
        else:
            # C8. [Leave level l.] Terminate if l = 0, otherwise l <- l - 1 and go to C6.
            if level == 0:
                pc = _FINISHED
                break
            level -= 1
            pc = _C6
    ctl[_LEVEL] = level
    ctl[_PC] = pc
    ctl[_NODES] = nodes
    ctl[_UPDATES] = updates
    ctl[_SOLUTIONS] = solutions
    ctl[_N_OUT] = n_out
    return status
