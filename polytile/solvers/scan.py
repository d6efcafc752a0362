"""Choosing the order a count's search scans the cells in, on the grids other than squares.

The search branches on the first empty cell in scan order (:mod:`polytile.solvers.bitboard`),
so the order decides the size of its tree. On squares the rule "along the short side" is
the best known and is kept. On triangles, hexagons and cubes no rule holds: the hexiamond
rhombus's tree is 5.8 times larger scanned by columns than along its antidiagonals, and
which scan is best depends on where the piece fixed for symmetry breaking lies (a scan
that meets it early prunes more), so the best scan of the whole tree is not the best of
the plan's. The plan's own trees are therefore estimated, for each scan of
:func:`~polytile.solvers.tiling.scan_orders`, by random paths followed together
(:mod:`polytile.solvers._probe_kernel`, a few hundred a tree: a few milliseconds), and the
smallest total wins if it is clearly smaller (:data:`MARGIN`). The estimates are seeded,
but the comparison stops at a time limit, Ctrl-C, or when it has cost as much as the search
it would shorten, so two runs may choose differently: the tasks carry their scan
(:attr:`~polytile.solvers.tiling.Task.scan`), with their forced options numbered in it, and
every process runs the scan chosen. In the scan chosen, each other piece that could be
fixed for symmetry breaking is tried the same way, since the piece with fewest orbit
representatives (the plan's default) is not always the one whose trees are smallest.

A small count is left alone: probing costs about 7-20 ms a scan, so the scans are compared
only when the default's tree is estimated to take longer than comparing them all, and
never for longer than that search; the pieces likewise, against a quarter of it.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from polytile.solvers.estimate import population
from polytile.solvers.tiling import (
    CountPlan,
    TilingKernel,
    build_kernel,
    compile_problem,
    plan_count,
    scan_orders,
)

__all__ = ["ScanChoice", "choose_scan", "in_scan"]

#: Random paths a tree is estimated by: they rank the hexiamond rhombus's scans as the real
#: searches do (measured over 48 orders of its cells), at about 10 ms a scan.
PATHS = 300
#: Nodes the search visits a second, roughly (4-6 million on the grids' catalogue).
RATE = 5e6
#: Seconds the estimate of one scan takes, roughly (compiling its kernel included).
PROBE_SECONDS = 0.02
SEED = 0x5CA9
#: Another scan or piece is taken only when its estimate is below this share of the
#: default's: the estimates of a large tree scatter by 10-30% (the 3x4x5 box's scan chosen
#: for an estimate 25% smaller visited 3% more nodes).
MARGIN = 0.8


@dataclass(frozen=True)
class ScanChoice:
    """The scan chosen (its index and name), the default's estimated nodes and the chosen
    plan's (equal when nothing was compared, ``compared`` saying how many scans were), and
    the piece fixed for symmetry breaking, of ``pieces`` compared."""

    index: int
    name: str
    default_nodes: float
    nodes: float
    compared: int
    piece: str | None = None
    pieces: int = 1

    def as_dict(self) -> dict[str, object]:
        """As JSON, for a count's report."""
        return {"scan": self.name, "scans_compared": self.compared,
                "estimated_nodes": round(self.nodes), "default_estimated_nodes":
                round(self.default_nodes), "pieces_compared": self.pieces}  # fmt: skip


def _estimate(kernel: TilingKernel, forced: Sequence[int], seed: int) -> float:
    """Estimated nodes of the kernel's tree below ``forced`` options."""
    cover = kernel.start_cover.copy()
    left = kernel.type_count.copy()
    for p in forced:
        cover |= kernel.masks[p]
        left[kernel.ptype[p]] -= kernel.use[p]
    if (left < 0).any():
        return 0.0
    return population(kernel, PATHS, seed, cover, left)[0]


def _plan_nodes(kernel: TilingKernel, trees: Sequence[tuple[int, ...]]) -> float:
    """Estimated nodes of the plan's raw trees (placements forced) on ``kernel``."""
    total = 0.0
    for i, placed in enumerate(trees):
        forced = [kernel.option_of_placement[p] for p in placed]
        total += _estimate(kernel, forced, SEED + i)
    return total


def choose_scan(plan: CountPlan, should_stop: Callable[[], bool] | None = None,
                ) -> tuple[CountPlan, ScanChoice | None]:  # fmt: skip
    """The plan with its raw tasks moved to the scan whose trees are estimated smallest,
    and the choice; the plan unchanged and None where there is nothing to choose (squares,
    colour rules). ``should_stop`` is polled between scans: the best so far is kept."""
    problem = plan.problem
    scans = scan_orders(problem.board)
    raw = [t for t in plan.tasks if t.symmetry == 0]
    stop = should_stop or (lambda: False)
    if len(scans) == 1 or problem.coloring is not None or not raw or stop():
        return plan, None
    if any(t.scan for t in raw):
        raise ValueError("the plan's scan was already chosen")
    base = compile_problem(problem)
    # the forced options as placements, which every scan numbers in its own way
    trees = [tuple(p for opt in t.forced for p in base.options[opt]) for t in raw]
    default = _plan_nodes(base, trees)
    best, best_nodes, compared = 0, default, 1
    budget = default / RATE  # the default's search, estimated: comparing costs no more
    if budget >= PROBE_SECONDS * len(scans):
        began = time.perf_counter()
        for i in range(1, len(scans)):
            if stop() or time.perf_counter() - began >= budget:
                break
            nodes = _plan_nodes(build_kernel(problem, 0, i), trees)
            compared += 1
            if nodes < best_nodes:
                best, best_nodes = i, nodes
    if best and best_nodes > MARGIN * default:  # within the estimates' noise: keep it
        best, best_nodes = 0, default
    plan = plan if best == 0 else in_scan(plan, best)
    plan, best_nodes, pieces = _choose_piece(plan, best, best_nodes, should_stop)
    choice = ScanChoice(best, scans[best][0], default, best_nodes, compared, plan.broken_by,
                        pieces)  # fmt: skip
    return plan, choice


def _choose_piece(plan: CountPlan, scan: int, nodes: float, should_stop: Callable[[], bool] | None,
                  compare: bool | None = None) -> tuple[CountPlan, float, int]:  # fmt: skip
    """The plan fixing, for symmetry breaking, the piece whose trees are estimated smallest
    in ``scan`` (the 3x4x5 solid-pentomino box, in one of its scans: 1.5 times fewer nodes
    estimated with X5 fixed than with I5, which has the fewest representatives), its
    estimated nodes and how many pieces were compared; unchanged where the search is too
    short to pay for the comparison (``compare`` True or False decides instead, True
    without the comparison's time budget)."""
    problem = plan.problem
    others = [t for t, (n, low) in enumerate(zip(problem.counts, problem.low, strict=True))
              if n == 1 and low == 1 and t != plan.broken_type]  # fmt: skip
    budget = nodes / RATE / 4  # a piece gains less than a scan (at most 1.5x seen)
    if compare is None:
        compare = budget >= PROBE_SECONDS * len(others)
    elif compare:
        budget = float("inf")
    if plan.broken_type is None or not compare:
        return plan, nodes, 1
    base, kernel = compile_problem(problem), compile_problem(problem, 0, scan)
    best, compared, current = plan, 1, nodes
    began = time.perf_counter()
    for t in others:
        if (should_stop is not None and should_stop()) or time.perf_counter() - began >= budget:
            break
        other = plan_count(problem, breaker=t)
        if other.broken_type != t:  # in a group of pieces: not in every tiling
            continue
        compared += 1
        raw = [u for u in other.tasks if u.symmetry == 0]
        trees = [tuple(p for opt in u.forced for p in base.options[opt]) for u in raw]
        estimate = _plan_nodes(kernel, trees)
        if estimate < nodes:
            best, nodes = other, estimate
    if best is not plan and nodes > MARGIN * current:  # within the estimates' noise
        best, nodes = plan, current
    return (best if best is plan else in_scan(best, scan)), nodes, compared


def in_scan(plan: CountPlan, scan: int) -> CountPlan:
    """The plan with its raw tasks run in scan ``scan`` (of
    :func:`~polytile.solvers.tiling.scan_orders`), each forcing the same placements."""
    tasks = []
    for t in plan.tasks:
        if t.symmetry == 0 and t.scan != scan:
            was, kernel = t.kernel, compile_problem(plan.problem, 0, scan)
            placed = [p for opt in t.forced for p in was.options[opt]]
            t = dataclasses.replace(t, forced=tuple(kernel.option_of_placement[p] for p in placed),
                                    scan=scan)  # fmt: skip
        tasks.append(t)
    return dataclasses.replace(plan, tasks=tasks)
