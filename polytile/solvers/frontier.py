"""Counting tilings by frontier dynamic programming: equal subproblems counted once.

The search (:mod:`polytile.solvers.tiling`) visits every tiling one at a time. Where a few
shapes repeat many times, most partial tilings are interchangeable: what the rest of the
board can see of one is only which cells just past the scan line are already covered and
how many copies of each piece are left. This engine fills the board in the search's scan
order (along the short side) and keeps, after each cell, a table from that *key* to the
number of partial tilings that share it (transfer matrices, Knuth's "frontier" counting).
The work grows with the number of distinct keys, not of tilings: the 20 Blokus tetrominoes
tile 8x10 in billions of ways, but never through more than a few million keys at a time.

At each cell the first empty cell of a key must be covered by a piece whose lowest cell it
is (the search's own branching rule, so no key is ever a dead end behind the scan line).
With two threads (numba releases the GIL) each layer is built in two halves at once, split
by the hash of the key: each thread reads the whole layer and keeps the keys of its half.

Only the raw count comes from here; the count up to symmetry adds the Fix(g) counts of
Burnside's lemma, which are small searches (:mod:`polytile.solvers.counting` combines them).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from polytile.solvers.frontier_layout import (
    FrontierLayout,
    FrontierUnsupported,
    fixed_layout,
    frontier_layout,
)
from polytile.solvers.tiling import TilingProblem

__all__ = [
    "FrontierCount",
    "FrontierLayout",
    "FrontierProgress",
    "FrontierUnsupported",
    "count_frontier",
    "fixed_layout",
    "frontier_layout",
]

#: Why a count with ``compiled=False`` stopped: a layer outgrew numpy.
TOO_LARGE = "too large for numpy"
#: Slots of a table worked through per kernel call, between checks of the stop, the clock
#: and the memory (about 10-50 ms of work).
SLICE = 1 << 16


@dataclass
class FrontierProgress:
    """How far a frontier count is: cells done of all, the keys of the layers in hand."""

    done: int
    total: int
    states: int
    peak_states: int
    peak_bytes: int
    seconds: float


@dataclass
class FrontierCount:
    """The outcome of a frontier count.

    ``count`` is the raw number of tilings when ``complete``; otherwise None (a frontier
    count has no partial answer: its tilings are only summed at the end) and ``stopped_by``
    says why ("time limit", "interrupt", "memory").
    """

    count: int | None
    complete: bool
    stopped_by: str | None
    cells_done: int
    cells: int
    peak_states: int
    peak_bytes: int
    seconds: float
    threads: int


class _Stop(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_MASK64 = 0xFFFF_FFFF_FFFF_FFFF
_GOLDEN = 0x9E37_79B9_7F4A_7C15


class _Part:
    """One part of a layer: its table (keys and low words interleaved, high words), the
    table's hash shift and its number of keys."""

    __slots__ = ("hi", "kv", "shift", "size")

    def __init__(self, size_hint: int) -> None:
        from polytile.solvers._frontier_kernel import new_table

        log = max(10, (2 * max(size_hint, 1) - 1).bit_length())
        self.kv, self.hi = new_table(log)
        self.shift = np.uint64(64 - log)
        self.size = 0

    @property
    def bytes(self) -> int:
        return int(self.kv.nbytes + self.hi.nbytes)


def _owner(key: int, pbits: int) -> int:
    return ((key * _GOLDEN) & _MASK64) >> (64 - pbits) if pbits else 0


def count_frontier(
    problem: TilingProblem | FrontierLayout,
    *,
    threads: int = 1,
    time_limit: float | None = None,
    memory: int | None = None,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[FrontierProgress], None] | None = None,
    prepare: Callable[[], float | None] | None = None,
    compiled: bool = True,
    numpy_keys: int | None = None,
) -> FrontierCount:
    """Count the tilings of ``problem`` (raw: no symmetry) by frontier dynamic programming.

    Parameters
    ----------
    problem
        The tiling problem (or its compiled layout).
    threads
        1, or 2: each layer is built in two halves at once (by the hash of the key; more
        than two threads are not used).
    time_limit
        Seconds after which the count stops, with no count (``complete`` False).
    memory
        Bytes the tables may hold at once; past it the count stops (``stopped_by`` is
        "memory").
    should_stop
        Polled between slices of work (Ctrl-C); True stops the count ("interrupt").
    progress
        Called now and then with a :class:`FrontierProgress`.
    prepare
        Called before the compiled kernel first runs (a layer past ``numpy_keys`` keys), if
        it does; it returns the seconds it waited (numba's first compile), by which the time
        limit is moved on.
    compiled
        False: never run the compiled kernel; a layer past that many keys stops the count
        (``stopped_by`` "too large for numpy"), a quick first try that starts no compiler.
    numpy_keys
        Keys past which a layer goes to the compiled kernel (default
        :data:`~polytile.solvers._frontier_numpy.NUMPY_KEYS`; 0: from the first layer on).

    Returns
    -------
    FrontierCount

    Raises
    ------
    FrontierUnsupported
        When the problem has colour rules or too wide a key.

    Notes
    -----
    Time is about (keys per layer) x (options per cell) x (cells); memory is 32 to 64 bytes
    per key of the two widest neighbouring layers (tables are kept at most half full).
    """
    from polytile.solvers import _frontier_numpy as small

    layout = problem if isinstance(problem, FrontierLayout) else frontier_layout(problem)
    began = time.perf_counter()
    ends = [None if time_limit is None else began + time_limit]  # moved on by a compile wait
    stats = _Stats(began, layout.n, progress)
    most = small.NUMPY_KEYS if numpy_keys is None else numpy_keys

    def check(in_hand: int, states: int) -> None:
        stats.peak_bytes = max(stats.peak_bytes, in_hand)
        now = time.perf_counter()
        if should_stop is not None and should_stop():
            raise _Stop("interrupt")
        if ends[0] is not None and now >= ends[0]:
            raise _Stop("time limit")
        if memory is not None and in_hand > memory:
            raise _Stop("memory")
        stats.report(now, states)

    keys, values = small.start(layout.start_key())
    stopped = None
    count: int | None = None
    try:
        check(0, 1)
        while stats.done < layout.n and len(keys) <= most:
            keys, values = small.forward(keys, values, stats.done, layout)
            stats.done += 1
            stats.peak_states = max(stats.peak_states, len(keys))
            check(keys.nbytes + values.nbytes, len(keys))
        if stats.done == layout.n:
            count = _ended(layout, keys, *small.to_words(values))
        elif not compiled:
            raise _Stop(TOO_LARGE)
        else:
            waited = (prepare() or 0.0) if prepare is not None else 0.0
            if ends[0] is not None:
                ends[0] += waited
            count = _compiled(layout, keys, values, threads, stats, check)
    except _Stop as stop:
        stopped = stop.reason
    return FrontierCount(count, stopped is None, stopped, stats.done, layout.n,
                         stats.peak_states, stats.peak_bytes, time.perf_counter() - began,
                         stats.threads)  # fmt: skip


class _Stats:
    """What a count reports of itself as it goes: cells done, the widest layer, bytes."""

    def __init__(self, began: float, cells: int,
                 progress: Callable[[FrontierProgress], None] | None) -> None:  # fmt: skip
        self.began, self.cells, self.progress = began, cells, progress
        self.done = 0
        self.peak_states = 1
        self.peak_bytes = 0
        self.threads = 1
        self.last = began

    def report(self, now: float, states: int) -> None:
        if self.progress is not None and now - self.last >= 0.2:
            self.last = now
            self.progress(FrontierProgress(self.done, self.cells, states, self.peak_states,
                                           self.peak_bytes, now - self.began))  # fmt: skip


def _compiled(layout: FrontierLayout, keys: np.ndarray, values: np.ndarray, threads: int,
              stats: _Stats, check: Callable[[int, int], None]) -> int:  # fmt: skip
    """The rest of a count in the compiled kernel, from the layer in hand (numpy's), on one
    or two threads; the count."""
    from concurrent.futures import ThreadPoolExecutor

    from polytile.solvers import _frontier_kernel as k
    from polytile.solvers import _frontier_numpy as small

    pbits = 1 if threads >= 2 else 0
    stats.threads = 1 << pbits
    lo, hi = small.to_words(values)
    parts = []
    for p in range(1 << pbits):
        part = _Part(len(keys))
        part.size = k.fill(part.kv, part.hi, part.shift, pbits, p, keys, lo, hi)
        parts.append(part)
    lock = threading.Lock()
    building: list[_Part] = []
    failed: list[_Stop] = []  # a stop one thread heard, for the other

    def checked() -> None:
        with lock:
            if failed:
                raise failed[0]
            in_hand = sum(p.bytes for p in parts) + sum(p.bytes for p in building)
            try:
                check(in_hand, sum(p.size for p in parts))
            except _Stop as stop:
                failed.append(stop)
                raise

    def build(target: int, cell: int, size_hint: int) -> _Part:
        out = _Part(size_hint)
        with lock:
            building.append(out)
        enter = int(layout.blocked[cell + layout.bits])
        nkv, nhi, nshift, nsize = out.kv, out.hi, out.shift, 0
        for src in parts:
            start = 0
            while start >= 0:
                start, nkv, nhi, nshift, nsize = k.forward(
                    src.kv, src.hi, start, SLICE, nkv, nhi, nshift, nsize, pbits, target, cell,
                    layout.bits, enter, layout.opt_ptr, layout.opt_mask, layout.opt_type,
                    layout.opt_use, layout.radix, layout.cap)  # fmt: skip
                out.kv, out.hi, out.shift, out.size = nkv, nhi, nshift, nsize
                checked()
        return out

    pool = ThreadPoolExecutor(1) if pbits else None
    try:
        for cell in range(stats.done, layout.n):
            hint = max(p.size for p in parts)
            if pool is not None:
                other = pool.submit(build, 1, cell, hint)
                try:
                    mine = build(0, cell, hint)
                except _Stop:
                    other.exception()  # the other half hears the stop too: wait for it
                    raise
                nxt = [mine, other.result()]
            else:
                nxt = [build(0, cell, hint)]
            with lock:
                parts = nxt
                building.clear()
            stats.done = cell + 1
            stats.peak_states = max(stats.peak_states, sum(p.size for p in parts))
    finally:
        if pool is not None:
            pool.shutdown(wait=True)
    if layout.exact:  # one key ends the count
        last = layout.end_key()
        part = parts[_owner(last, pbits)]
        lo_word, hi_word = k.value_of(part.kv, part.hi, part.shift, pbits, np.uint64(last))
        return int(lo_word) + (int(hi_word) << 64)
    live = [(p.kv[0::2], p.kv[1::2], p.hi) for p in parts]
    keys = np.concatenate([kv[kv != k.EMPTY] for kv, _, _ in live])
    lo = np.concatenate([low[kv != k.EMPTY] for kv, low, _ in live])
    hi = np.concatenate([high[kv != k.EMPTY] for kv, _, high in live])
    return _ended(layout, keys, lo, hi)


def _ended(layout: FrontierLayout, keys: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> int:
    """The count from the keys after the last position and their values (low and high
    words): the tilings are the keys the supply accepts."""
    ok = layout.accepted(keys)
    return sum(int(a) + (int(b) << 64) for a, b in zip(lo[ok], hi[ok], strict=True))
