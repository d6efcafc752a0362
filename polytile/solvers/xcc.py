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

import numpy as np
import numpy.typing as npt

from polytile.errors import FormatError
from polytile.solvers._xcc_arrays import _SOURCE, SupportsXCC, XCCArrays
from polytile.solvers._xcc_kernel import (
    _BUF_MAX,
    _C2,
    _CTL_SIZE,
    _DEPTH_CUT,
    _DONE,
    _FINISHED,
    _N_OUT,
    _NODE_LIMIT,
    _NODE_STOP,
    _NODES,
    _PAUSED,
    _PC,
    _RANDOM,
    _SOL_LIMIT,
    _SOL_STOP,
    _SOLUTIONS,
    _UPDATES,
    _build,
    _force,
    _run,
)

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


@dataclass(frozen=True, slots=True)
class CountResult:
    """What :func:`count` found.

    Attributes
    ----------
    count
        Solutions found (all of them if ``complete``, else a lower bound).
    nodes
        Search-tree nodes: times the search entered a level (step C2).
    updates
        Link removals (by hide', cover' and purify).
    complete
        The whole search tree was explored.
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


def _readonly(arr: npt.NDArray[np.generic]) -> npt.NDArray[np.generic]:
    """A read-only view, as the kernel's signature expects (unpickled arrays are writeable)."""
    view = arr.view()
    view.flags.writeable = False
    return view


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

    Attributes
    ----------
    arrays
        The problem's :class:`XCCArrays`.
    forced
        The forced options, checked.
    stopped
        ``"limit"`` or ``"node_limit"`` once the search stopped at a limit, else ``None``.

    Raises
    ------
    FormatError
        If a forced option is out of range or repeated, or a limit is negative.
    TypeError
        If ``seed`` is neither ``None``, an int nor a numpy Generator.
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
            _readonly(arrays.options),
            _readonly(arrays.options_ptr),
            _readonly(arrays.colors),
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

    def resume(self, node_limit: int | None) -> None:
        """Carry on after a stop at the node limit, up to ``node_limit`` nodes in all (the
        kernel kept its place): a count can poll a clock between chunks of nodes."""
        if self._status == _NODE_STOP:
            self._ctl[_NODE_LIMIT] = _limit(node_limit, "node_limit")
            self._status = _PAUSED
            self.stopped = None

    def run_to_end(self) -> CountResult:
        """Run on to the end (or a limit) counting, without materializing solutions.

        Solutions already computed but not yet yielded are dropped (they stay counted).
        """
        self._pending.clear()
        if self._status == _PAUSED:
            self._step(0)
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
    CountResult(count=2, nodes=4, updates=4, complete=True)
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
    >>> p = XCCArrays.from_lists([[0, 1], [0], [1]], n_items=2, n_primary=2)
    >>> parts = split(p, 1)  # item 0 first: option 0 or option 1
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
