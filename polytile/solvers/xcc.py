"""Exact cover with colours: Knuth's Algorithm C (TAOCP 7.2.2.1), compiled with numba.

The kernel sees only flat integer arrays (:class:`XCCArrays`): the options in compressed-row
form (option ``k`` holds the item indices ``options[options_ptr[k]:options_ptr[k + 1]]``), a
colour per option entry (``0`` = none), and ``n_primary`` (items ``0 .. n_primary - 1`` are
primary and must be covered exactly once; the rest are secondary: covered at most once, or by
any number of options that all give the item the same colour). Any object with a
``to_arrays()`` method returning :class:`XCCArrays` is accepted wherever a problem is expected,
e.g. :class:`polytile.models.exact_cover.ExactCoverProblem`.

The search is Knuth's dancing links with colours, iterative, with its whole state (links,
level stack, statistics, random generator) in numpy arrays. A call to the kernel runs until
the search ends, a node limit is reached, a solution limit is reached, or its bounded
solution buffer fills; it can then be called again and carries on where it stopped. So
iterating over all the solutions of a large problem uses constant memory, and counting
materializes none.

Examples
--------
Knuth's first example: items a..g, the unique solution is options 0, 3 and 4.

>>> from polytile.solvers.xcc import XCCArrays, count, first
>>> opts = [[2, 4], [0, 3, 6], [1, 2, 5], [0, 3, 5], [1, 6], [3, 4, 6]]
>>> problem = XCCArrays.from_lists(opts, n_items=7, n_primary=7)
>>> sorted(first(problem))
[0, 3, 4]
>>> count(problem).count
1
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt
from numba import int32, int64, njit, uint64, void
from numba.types import Array

from polytile.errors import FormatError

__all__ = [
    "CountResult",
    "Search",
    "SupportsXCC",
    "XCCArrays",
    "count",
    "first",
    "is_unique",
    "solve",
    "split",
]

_SOURCE = "<exact cover problem>"
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


# -- validated input arrays ------------------------------------------------------------------
def _int_array(values: object, what: str) -> npt.NDArray[np.int64]:
    arr = np.asarray(values)
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64)
    if arr.ndim != 1:
        raise FormatError(f"{what} must be one-dimensional, got shape {arr.shape}", _SOURCE, what)
    if arr.dtype.kind not in "iu":
        raise FormatError(f"{what} must hold integers, got dtype {arr.dtype}", _SOURCE, what)
    return arr.astype(np.int64)


@dataclass(frozen=True, eq=False)
class XCCArrays:
    """An exact-cover-with-colours problem as the flat arrays the kernel reads.

    Parameters
    ----------
    options
        Item index of every option entry, option after option.
    options_ptr
        ``n_options + 1`` offsets: option ``k`` is ``options[options_ptr[k]:options_ptr[k+1]]``.
    colors
        Colour of every entry (parallel to ``options``): ``0`` for none, else ``>= 1``.
    n_items
        Number of items; entries must lie in ``0 .. n_items - 1``.
    n_primary
        Items ``0 .. n_primary - 1`` are primary, the rest secondary.

    Raises
    ------
    FormatError
        If the arrays are inconsistent: offsets not running from 0 to ``len(options)`` without
        going down, an item index out of range, an empty option, an option without a primary
        item (Algorithm C would never choose it), an item repeated in an option, a negative
        colour, or a colour on a primary item. The message names the option.
    """

    options: npt.NDArray[np.int32]
    options_ptr: npt.NDArray[np.int64]
    colors: npt.NDArray[np.int32]
    n_items: int
    n_primary: int

    def __post_init__(self) -> None:
        n_items = operator.index(self.n_items)
        n_primary = operator.index(self.n_primary)
        if n_items < 0 or n_items > _INT32_MAX // 2:
            raise FormatError(
                f"n_items must be from 0 to {_INT32_MAX // 2}, got {n_items}", _SOURCE, "n_items"
            )
        if not 0 <= n_primary <= n_items:
            raise FormatError(
                f"n_primary must be from 0 to n_items={n_items}, got {n_primary}",
                _SOURCE,
                "n_primary",
            )
        options = _int_array(self.options, "options")
        ptr = _int_array(self.options_ptr, "options_ptr")
        colors = _int_array(self.colors, "colors")
        if ptr.size == 0 or ptr[0] != 0 or ptr[-1] != options.size:
            raise FormatError(
                f"options_ptr must start at 0 and end at len(options)={options.size}",
                _SOURCE,
                "options_ptr",
            )
        lengths = np.diff(ptr)
        if lengths.size and lengths.min() <= 0:
            k = int(np.flatnonzero(lengths <= 0)[0])
            why = "is empty" if lengths[k] == 0 else "has a negative length (options_ptr decreases)"
            raise FormatError(f"option {k} {why}", _SOURCE, f"options[{k}]")
        if colors.shape != options.shape:
            raise FormatError(
                f"colors must have one entry per option entry ({options.size}), got {colors.size}",
                _SOURCE,
                "colors",
            )
        n_options = lengths.size
        if options.size + n_options + n_items + 2 > _INT32_MAX:
            raise FormatError("problem too large for 32-bit node indices", _SOURCE)
        owner = np.repeat(np.arange(n_options), lengths)

        def fail(mask: npt.NDArray[np.bool_], message: str) -> None:
            if mask.any():
                e = int(np.flatnonzero(mask)[0])
                k = int(owner[e])
                raise FormatError(
                    message.format(item=int(options[e]), k=k, c=int(colors[e])),
                    _SOURCE,
                    f"options[{k}]",
                )

        fail(
            (options < 0) | (options >= n_items),
            f"option {{k}} names item {{item}}, outside 0..{n_items - 1}",
        )
        fail(colors < 0, "option {k} gives item {item} the negative colour {c}")
        fail(
            (colors > 0) & (options < n_primary),
            "option {k} gives a colour to primary item {item}; only secondary items have colours",
        )
        fail(colors > _INT32_MAX, "option {k} gives item {item} a colour beyond 32 bits")
        if n_options:
            has_primary = np.zeros(n_options, dtype=bool)
            np.logical_or.at(has_primary, owner, options < n_primary)
            if not has_primary.all():
                k = int(np.flatnonzero(~has_primary)[0])
                raise FormatError(
                    f"option {k} has no primary item; Algorithm C never chooses such an option",
                    _SOURCE,
                    f"options[{k}]",
                )
            keys = owner * max(n_items, 1) + options
            order = np.argsort(keys, kind="stable")
            repeated = np.zeros(options.size, dtype=bool)
            repeated[order[1:]] = keys[order[1:]] == keys[order[:-1]]
            fail(repeated, "option {k} names item {item} more than once")
        object.__setattr__(self, "options", options.astype(np.int32))
        object.__setattr__(self, "options_ptr", ptr)
        object.__setattr__(self, "colors", colors.astype(np.int32))
        object.__setattr__(self, "n_items", n_items)
        object.__setattr__(self, "n_primary", n_primary)
        for arr in (self.options, self.options_ptr, self.colors):
            arr.flags.writeable = False

    @classmethod
    def from_lists(
        cls,
        options: Sequence[Sequence[int]],
        n_items: int,
        n_primary: int,
        colors: Sequence[Sequence[int]] | None = None,
    ) -> XCCArrays:
        """Arrays from a list of options, each a list of item indices (colours parallel).

        Raises
        ------
        FormatError
            As the constructor, or if ``colors`` is not parallel to ``options``.
        """
        lengths = [len(o) for o in options]
        ptr = np.zeros(len(options) + 1, dtype=np.int64)
        np.cumsum(lengths, out=ptr[1:])
        flat = [int(i) for o in options for i in o]
        if colors is None:
            flat_colors = [0] * len(flat)
        else:
            if [len(c) for c in colors] != lengths:
                raise FormatError("colors must have one entry per item of each option", _SOURCE)
            flat_colors = [int(c) for cs in colors for c in cs]
        return cls(
            np.array(flat, dtype=np.int64),
            ptr,
            np.array(flat_colors, dtype=np.int64),
            n_items,
            n_primary,
        )

    @property
    def n_options(self) -> int:
        """Number of options."""
        return int(self.options_ptr.shape[0] - 1)

    def option(self, k: int) -> tuple[list[int], list[int]]:
        """Items and colours of option ``k``."""
        a, b = int(self.options_ptr[k]), int(self.options_ptr[k + 1])
        return self.options[a:b].tolist(), self.colors[a:b].tolist()

    def to_arrays(self) -> XCCArrays:
        """Itself, so that the arrays are a problem too."""
        return self


@runtime_checkable
class SupportsXCC(Protocol):
    """Anything that can give the kernel's arrays, such as an ``ExactCoverProblem``."""

    def to_arrays(self) -> XCCArrays:
        """The problem as validated flat arrays."""
        ...


class CountResult(NamedTuple):
    """What :func:`count` found.

    ``count`` solutions (a lower bound unless ``complete``), ``nodes`` search-tree nodes
    (times the search entered a level, step C2), ``updates`` link removals (in hide', cover'
    and purify), and ``complete``: the whole search tree was explored.
    """

    count: int
    nodes: int
    updates: int
    complete: bool


# -- the resumable search ---------------------------------------------------------------------
def _seed_state(seed: int | np.random.Generator | None) -> tuple[bool, int]:
    if seed is None:
        return False, 0
    if isinstance(seed, np.random.Generator):
        return True, int(seed.integers(0, 2**63))
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise TypeError(f"seed must be an int, a numpy Generator or None, got {seed!r}")
    return True, int(seed) & (2**64 - 1)


def _conflicts(arrays: XCCArrays, forced: Sequence[int]) -> bool:
    """True if the forced options cannot all be in one solution."""
    primary: set[int] = set()
    secondary: dict[int, int] = {}
    for k in forced:
        items, colors = arrays.option(k)
        for i, c in zip(items, colors, strict=True):
            if i < arrays.n_primary:
                if i in primary:
                    return True
                primary.add(i)
            elif i in secondary:
                if c == 0 or secondary[i] != c:
                    return True
            else:
                secondary[i] = c
    return False


def _check_forced(arrays: XCCArrays, forced: Iterable[int]) -> list[int]:
    result: list[int] = []
    seen: set[int] = set()
    for n, k in enumerate(forced):
        try:
            k = operator.index(k)
        except TypeError:
            raise FormatError(
                f"forced option {k!r} is not an integer", _SOURCE, f"forced[{n}]"
            ) from None
        if not 0 <= k < arrays.n_options:
            raise FormatError(
                f"forced option {k} outside 0..{arrays.n_options - 1}", _SOURCE, f"forced[{n}]"
            )
        if k in seen:
            raise FormatError(f"forced option {k} repeated", _SOURCE, f"forced[{n}]")
        seen.add(k)
        result.append(k)
    return result


def _limit(value: int | None, name: str) -> int:
    if value is None:
        return -1
    value = operator.index(value)
    if value < 0:
        raise FormatError(f"{name} must be non-negative or None, got {value}", "<arguments>", name)
    return value


class Search(Iterator[list[int]]):
    """One run of Algorithm C, iterated for its solutions, resumable, in constant memory.

    Each solution is a list of option indices: the forced ones first, then the options chosen
    at levels 0, 1, ... of the search. Iterating stops when the search is over or a limit is
    reached; :attr:`complete` and :attr:`stopped` tell which. Solutions are computed in
    batches that start at one and grow to ``max_batch``, so the first one arrives as soon as
    it is found.

    Parameters
    ----------
    problem
        :class:`XCCArrays`, or anything with a ``to_arrays()`` method.
    limit
        Stop after this many solutions (``None``: all).
    node_limit
        Stop after this many search-tree nodes (``None``: no limit).
    seed
        ``None`` for Knuth's deterministic order (MRV ties to the lowest item, options in
        input order). An int or a numpy Generator breaks MRV ties at random and shuffles the
        order in which each level's options are tried; the same int gives the same order.
    forced
        Option indices that every solution must contain (covered before the search starts).
        Forced options that conflict give no solutions.
    max_batch
        Most solutions the kernel computes ahead of the iterator.

    Raises
    ------
    FormatError
        If a forced option is out of range or repeated.
    ValueError
        If a limit is negative.
    """

    def __init__(
        self,
        problem: SupportsXCC,
        *,
        limit: int | None = None,
        node_limit: int | None = None,
        seed: int | np.random.Generator | None = None,
        forced: Iterable[int] = (),
        max_batch: int = 1024,
        _depth_cut: int = -1,
    ) -> None:
        arrays = problem.to_arrays()
        self.arrays = arrays
        self.forced = _check_forced(arrays, forced)
        n = arrays.n_items
        n_nodes = n + 2 + arrays.options.size + arrays.n_options
        self._nd = np.zeros((n_nodes, 4), dtype=np.int32)
        self._it = np.zeros((n + 2, 2), dtype=np.int32)
        self._opt = np.zeros(n_nodes, dtype=np.int32)
        _build(
            arrays.options,
            arrays.options_ptr,
            arrays.colors,
            n,
            arrays.n_primary,
            self._nd,
            self._it,
            self._opt,
        )
        depth = arrays.n_primary + 1
        self._stack = np.zeros((3, depth), dtype=np.int32)
        self._cand = np.zeros(arrays.n_options + 1, dtype=np.int32)
        randomized, state = _seed_state(seed)
        self._rng = np.array([state], dtype=np.uint64)
        self._ctl = np.zeros(_CTL_SIZE, dtype=np.int64)
        self._ctl[_PC] = _C2
        self._ctl[_NODE_LIMIT] = _limit(node_limit, "node_limit")
        self._ctl[_SOL_LIMIT] = _limit(limit, "limit")
        self._ctl[_RANDOM] = int(randomized)
        self._ctl[_DEPTH_CUT] = _depth_cut
        self._max_batch = max(1, operator.index(max_batch))
        self._batch = 1
        self._max_len = max(1, arrays.n_primary)
        self._pending: list[list[int]] = []
        self._status = _PAUSED
        self.stopped: str | None = None
        """``"limit"`` or ``"node_limit"`` if the search stopped at a limit, else ``None``."""
        if _conflicts(arrays, self.forced):
            self._ctl[_PC] = _FINISHED
            self._status = _DONE
        else:
            for k in self.forced:
                first_node = n + 2 + int(arrays.options_ptr[k]) + k
                self._ctl[_UPDATES] += _force(self._nd, self._it, first_node)
            if self._ctl[_SOL_LIMIT] == 0:
                self._status = _SOL_STOP
                self.stopped = "limit"

    # -- statistics --------------------------------------------------------------------
    @property
    def nodes(self) -> int:
        """Search-tree nodes so far (times the search entered a level, step C2)."""
        return int(self._ctl[_NODES])

    @property
    def updates(self) -> int:
        """Link removals so far (by hide', cover' and purify)."""
        return int(self._ctl[_UPDATES])

    @property
    def count(self) -> int:
        """Solutions found so far (they may not all have been yielded yet)."""
        return int(self._ctl[_SOLUTIONS])

    @property
    def complete(self) -> bool:
        """True once the whole search tree has been explored."""
        return self._status == _DONE

    def result(self) -> CountResult:
        """The statistics as a :class:`CountResult`."""
        return CountResult(self.count, self.nodes, self.updates, self.complete)

    # -- running ---------------------------------------------------------------------
    def _step(self, buf_max: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64], int]:
        out = np.empty(buf_max * self._max_len, dtype=np.int32)
        out_ptr = np.zeros(buf_max + 1, dtype=np.int64)
        self._ctl[_BUF_MAX] = buf_max
        self._status = int(
            _run(
                self._nd,
                self._it,
                self._opt,
                self._stack,
                self._cand,
                self._ctl,
                self._rng,
                out,
                out_ptr,
            )
        )
        if self._status == _NODE_STOP:
            self.stopped = "node_limit"
        elif self._status == _SOL_STOP:
            self.stopped = "limit"
        return out, out_ptr, int(self._ctl[_N_OUT])

    def run_to_end(self) -> CountResult:
        """Count the remaining solutions without materializing them."""
        if self._status in (_PAUSED,) and not self._pending:
            self._step(0)
        elif self._status == _PAUSED:
            raise RuntimeError("run_to_end() after partial iteration with pending solutions")
        return self.result()

    def __iter__(self) -> Search:
        return self

    def __next__(self) -> list[int]:
        if not self._pending:
            if self._status != _PAUSED:
                raise StopIteration
            out, ptr, n_out = self._step(self._batch)
            self._batch = min(2 * self._batch, self._max_batch)
            self._pending = [
                self.forced + out[ptr[s] : ptr[s + 1]].tolist() for s in range(n_out - 1, -1, -1)
            ]
            if not self._pending:
                raise StopIteration
        return self._pending.pop()

    def __repr__(self) -> str:
        state = (
            "complete"
            if self.complete
            else (f"stopped at {self.stopped}" if self.stopped else "running")
        )
        return f"<Search {self.count} solutions, {self.nodes} nodes, {state}>"


# -- the friendly functions ---------------------------------------------------------------------
def solve(
    problem: SupportsXCC,
    *,
    limit: int | None = None,
    node_limit: int | None = None,
    seed: int | np.random.Generator | None = None,
    forced: Iterable[int] = (),
) -> Search:
    """Iterate over the solutions of an exact cover problem, each a list of option indices.

    Parameters
    ----------
    problem
        :class:`XCCArrays` or anything with ``to_arrays()``.
    limit
        Stop after this many solutions.
    node_limit
        Stop after this many search-tree nodes; the returned :class:`Search` says so in
        ``stopped`` and ``complete``.
    seed
        ``None`` for the deterministic order, else a random branching order (see
        :class:`Search`).
    forced
        Options every solution must contain.

    Yields
    ------
    list[int]
        Option indices of one solution: forced ones first, then by search level.

    Raises
    ------
    FormatError
        If a forced option is out of range or repeated.

    Examples
    --------
    >>> p = XCCArrays.from_lists([[0], [1], [0, 1]], n_items=2, n_primary=2)
    >>> sorted(sorted(s) for s in solve(p))
    [[0, 1], [2]]

    Notes
    -----
    Memory is O(size of the problem) whatever the number of solutions.
    """
    return Search(problem, limit=limit, node_limit=node_limit, seed=seed, forced=forced)


def count(
    problem: SupportsXCC,
    *,
    node_limit: int | None = None,
    limit: int | None = None,
    seed: int | np.random.Generator | None = None,
    forced: Iterable[int] = (),
) -> CountResult:
    """Count solutions without materializing any.

    Parameters
    ----------
    problem
        :class:`XCCArrays` or anything with ``to_arrays()``.
    node_limit
        Stop after this many search-tree nodes (then ``complete`` is False and ``count`` is
        the number found so far).
    limit
        Stop after this many solutions (then ``complete`` is False).
    seed
        Random branching order (the count is the same; the statistics differ).
    forced
        Count only the solutions containing these options: the subtree below them. Summed
        over the subproblems of :func:`split`, this gives the full count.

    Returns
    -------
    CountResult
        ``count, nodes, updates, complete``.

    Examples
    --------
    >>> p = XCCArrays.from_lists([[0], [1], [0, 1]], n_items=2, n_primary=2)
    >>> count(p)
    CountResult(count=2, nodes=5, updates=9, complete=True)
    """
    search = Search(problem, node_limit=node_limit, limit=limit, seed=seed, forced=forced)
    return search.run_to_end()


def first(
    problem: SupportsXCC,
    *,
    node_limit: int | None = None,
    seed: int | np.random.Generator | None = None,
    forced: Iterable[int] = (),
) -> list[int] | None:
    """The first solution found, or ``None`` if there is none (or the node limit came first).

    Use :func:`solve` with ``limit=1`` to tell "none" from "node limit reached".
    """
    search = Search(problem, limit=1, node_limit=node_limit, seed=seed, forced=forced)
    return next(search, None)


def is_unique(
    problem: SupportsXCC, *, node_limit: int | None = None, forced: Iterable[int] = ()
) -> bool | None:
    """True if the problem has exactly one solution, False if none or several.

    Stops as soon as a second solution is found. Returns ``None`` if the node limit was
    reached before the answer was known.
    """
    result = count(problem, node_limit=node_limit, limit=2, forced=forced)
    if result.count >= 2:
        return False
    if not result.complete:
        return None  # the node limit came before a second solution or the end
    return result.count == 1


def split(problem: SupportsXCC, depth: int, *, forced: Iterable[int] = ()) -> list[list[int]]:
    """Cut the search tree at ``depth`` levels into independent subproblems.

    Each subproblem is a list of option indices to pass as ``forced`` to :func:`count` or
    :func:`solve`: the given ``forced`` options, then the options chosen on one path of the
    deterministic search down to ``depth`` levels (shorter if that path already is a
    solution). Paths that die before ``depth`` are left out. Every solution contains the
    options of exactly one subproblem, so the counts of the subproblems sum to the count of
    the problem (with ``forced``); splitting a subproblem again refines it.

    Parameters
    ----------
    problem
        :class:`XCCArrays` or anything with ``to_arrays()``.
    depth
        Levels to expand, ``>= 0``; ``0`` gives ``[list(forced)]``.
    forced
        Start below these options.

    Returns
    -------
    list[list[int]]
        The subproblems, in search order.

    Examples
    --------
    >>> p = XCCArrays.from_lists([[0, 1], [0], [1], [2]], n_items=3, n_primary=3)
    >>> parts = split(p, 1)
    >>> parts
    [[0], [1]]
    >>> sum(count(p, forced=f).count for f in parts) == count(p).count
    True
    """
    depth = operator.index(depth)
    if depth < 0:
        raise FormatError(f"split depth must be non-negative, got {depth}", "<arguments>", "depth")
    search = Search(problem, forced=forced, _depth_cut=depth)
    return list(search)
