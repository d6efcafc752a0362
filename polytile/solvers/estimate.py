"""Knowing before waiting: the size of a count, and what each engine would take for it.

* The search: Knuth's random paths (:mod:`polytile.solvers._probe_kernel`) estimate the
  number of nodes and of tilings; a short run of the search itself gives its speed on this
  problem and this machine, hence seconds.
* The frontier engine: its work is the number of keys its layers hold. A first pass keys
  the partial tilings by their covered window and the number of pieces placed only (a few
  keys a layer); each such key stands for at most as many keys of the real count as there
  are ways to choose that many copies of that area from the supply, which gives an upper
  estimate of every layer's keys, hence of time and memory.

Both are estimates, and said so wherever they are printed: the random paths have a heavy
tail (their standard error is given), and the frontier's figure is an upper estimate.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from polytile.solvers.tiling import TilingKernel, TilingProblem, compile_problem

__all__ = [
    "FrontierEstimate",
    "SearchEstimate",
    "estimate_frontier",
    "estimate_search",
    "interval",
    "population",
]

#: Seconds per key moved past a cell by the frontier engine, per option tried, on the
#: 2-core machine of the benchmarks (measured on tetromino-8x10 and the pentomino
#: rectangles: 15-40 ns per key-option, more for the largest tables, which miss the cache).
NS_PER_KEY_OPTION = 30e-9
#: Bytes per key at the widest pair of layers (a table is at most half full, 16-24 bytes a
#: slot; two layers are in hand at once).
BYTES_PER_KEY = 64


@dataclass(frozen=True)
class SearchEstimate:
    """A random-path estimate of a search tree: ``nodes`` and ``solutions`` (raw tilings)
    with their standard errors over ``probes`` paths, and seconds at ``rate`` nodes per
    second (measured on this problem), for the search as it runs: its symmetry breaking
    divides its tree by ``reduction``."""

    nodes: float
    nodes_se: float
    solutions: float
    solutions_se: float
    probes: int
    rate: float
    reduction: int

    @property
    def seconds(self) -> float:
        """Estimated seconds of the search on one worker."""
        return self.nodes / self.reduction / max(self.rate, 1.0)

    @property
    def seconds_se(self) -> float:
        """Standard error of :attr:`seconds`."""
        return self.nodes_se / self.reduction / max(self.rate, 1.0)


@dataclass(frozen=True)
class FrontierEstimate:
    """An upper estimate of the frontier engine's work: keys moved past a cell in all
    (``moved``), keys of its widest layer (``peak``), seconds and bytes."""

    moved: float
    peak: float
    seconds: float
    bytes: float


#: Student's t at 97.5% for 7 degrees of freedom: the 8 populations of an estimate.
T_975_7 = 2.365


def interval(mean: float, se: float) -> tuple[float, float]:
    """A 95% interval from the 8 populations' mean and standard error (Student's t), not
    below 0."""
    return max(mean - T_975_7 * se, 0.0), mean + T_975_7 * se


def estimate_search(problem: TilingProblem, probes: int = 20_000, seed: int = 0,
                    rate_seconds: float = 0.1, replicates: int = 8) -> SearchEstimate:  # fmt: skip
    """Estimate the search's tree and tilings by random paths followed together.

    Parameters
    ----------
    problem
        The tiling problem.
    probes
        Paths in all, split into ``replicates`` independent populations whose spread gives
        the standard errors (20,000 take from milliseconds to about a second).
    seed
        The paths' seed: the same seed, the same estimate.
    rate_seconds
        How long the search runs to measure its speed (nodes per second) on this problem.
    replicates
        Independent populations.

    Notes
    -----
    Each population goes down the tree level by level (:mod:`polytile.solvers._probe_kernel`):
    unbiased, exact when a population holds a whole level, and of far smaller spread than
    independent paths on trees whose tilings lie in a few branches.
    """
    from polytile.solvers import bitboard

    kernel = compile_problem(problem)
    size = max(probes // replicates, 1)
    # numba's generator takes a 32-bit seed: one per population, drawn from ``seed``
    seeds = np.random.SeedSequence(seed).generate_state(replicates)
    runs = [population(kernel, size, int(s)) for s in seeds]
    nodes = np.array([n for n, _ in runs])
    sols = np.array([t for _, t in runs])
    factor = problem.color_factor  # colours numbered by first appearance: n! colourings each
    state = kernel.state()
    began = time.perf_counter()
    budget = 20_000
    while time.perf_counter() - began < rate_seconds:
        if kernel.run(state, budget) != bitboard.PAUSED:
            break
        budget = min(budget * 2, 2_000_000)
    rate = state.nodes / max(time.perf_counter() - began, 1e-6)

    def se(x: npt.NDArray[np.float64]) -> float:
        return float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else float("inf")

    return SearchEstimate(
        nodes=float(nodes.mean()),
        nodes_se=se(nodes),
        solutions=float(sols.mean()) * factor,
        solutions_se=se(sols) * factor,
        probes=size * replicates,
        rate=rate,
        reduction=len(problem.group()),
    )


def population(kernel: TilingKernel, size: int, seed: int,
               cover: npt.NDArray[np.uint64] | None = None,
               left: npt.NDArray[np.int64] | None = None) -> tuple[float, float]:  # fmt: skip
    """One population of ``size`` random paths down ``kernel``'s tree
    (:func:`polytile.solvers._probe_kernel.population`): its (nodes, tilings), from the
    kernel's start or from ``cover`` with ``left`` copies of each type (a subtree)."""
    from polytile.solvers import _probe_kernel

    c = kernel.colors
    nodes, tilings = _probe_kernel.population(
        kernel.masks, kernel.ptype, kernel.use, kernel.arrays[3], kernel.arrays[4],
        kernel.start_cover if cover is None else cover,
        kernel.type_count if left is None else left, *kernel.arrays[9:], c.ocolor, c.halo,
        c.corner, c.color_order, c.rule, c.n_colors, size, seed,
    )  # fmt: skip
    return float(nodes), float(tilings)


def _supplies(problem: TilingProblem) -> npt.NDArray[np.float64]:
    """``ways[k, a]``: how many vectors of copies used (at most each type's count) have
    ``k`` copies covering ``a`` cells."""
    n = sum(problem.counts)
    area = sum(t.size * c for t, c in zip(problem.types, problem.counts, strict=True))
    ways = np.zeros((n + 1, area + 1), dtype=np.float64)
    ways[0, 0] = 1.0
    for t, c in zip(problem.types, problem.counts, strict=True):
        new = np.zeros_like(ways)
        for u in range(c + 1):
            new[u:, u * t.size :] += ways[: n + 1 - u, : area + 1 - u * t.size]
        ways = new
    return ways


def estimate_frontier(problem: TilingProblem, most_keys: int = 2_000_000) -> FrontierEstimate:
    """An upper estimate of the frontier engine's work on ``problem``.

    The first pass runs in numpy; a layer of more than ``most_keys`` keys even without the
    copies in them ends it, with the estimate then infinite (the engine is no choice).

    Raises
    ------
    FrontierUnsupported
        As :func:`polytile.solvers.frontier.frontier_layout` does.
    """
    import dataclasses

    from polytile.solvers import _frontier_numpy as small
    from polytile.solvers.frontier import frontier_layout

    layout = frontier_layout(problem)
    n_pieces = sum(problem.counts)
    # One type standing for every piece: a key is the window and the pieces placed.
    shapes = dataclasses.replace(
        layout,
        opt_type=np.zeros_like(layout.opt_type),
        radix=np.ones(1, dtype=np.uint64),
        cap=np.array([n_pieces], dtype=np.uint64),
    )
    ways = _supplies(problem)
    low = np.uint64((1 << layout.bits) - 1)
    open_before = np.zeros(layout.n + 1, dtype=np.int64)
    open_before[1:] = np.cumsum(1 - layout.blocked[: layout.n].astype(np.int64))
    per_cell = np.diff(layout.opt_ptr)
    keys, values = small.start(shapes.start_key())
    moved = peak = work = 0.0
    for cell in range(layout.n):
        if len(keys) > most_keys:
            inf = float("inf")
            return FrontierEstimate(inf, inf, inf, inf)
        mask = keys & low
        placed = (keys >> np.uint64(layout.bits)).astype(np.int64)
        window = sum(1 << j for j in range(layout.bits) if layout.blocked[cell + j])
        covered = np.bitwise_count(mask & np.uint64(~window & int(low))).astype(np.int64)
        area = open_before[cell] + covered
        fine = (placed < ways.shape[0]) & (area < ways.shape[1])
        each = ways[placed[fine], area[fine]]
        states = float(each.sum())
        moved += states
        peak = max(peak, states)
        empty = float(each[(mask[fine] & np.uint64(1)) == 0].sum())
        work += states + empty * per_cell[cell]
        keys, values = small.forward(keys, values, cell, shapes)
    return FrontierEstimate(
        moved=moved,
        peak=peak,
        seconds=work * NS_PER_KEY_OPTION,
        bytes=peak * BYTES_PER_KEY,
    )
