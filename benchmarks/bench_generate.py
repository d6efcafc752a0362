"""Puzzle generation rate: unique-solution packing puzzles of 8 to 12 pentominoes per minute.

For each region kind (random shape, rectangle) and each worker count (1, 2), build a set of
``--count`` puzzles into a fresh SQLite store with :func:`polytile.puzzles.tiling.sets.build_set`,
as ``polytile generate packing`` does, and report puzzles per minute (median over
``--runs`` seeds) and the ratio of two workers to one measured in the same run. The issue's
figure: at least 60 per minute on 2 cores.

Also timed, as a peer inside the same run: checking the uniqueness of the same finished
puzzles with the general Algorithm C engine (``polytile.solvers.xcc.count`` with a limit of
two solutions) against the bitboard kernel the generator uses.

Run: ``python benchmarks/bench_generate.py [--count N] [--runs R]``
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from polytile.models.exact_cover import tiling_problem
from polytile.puzzles.tiling.generate import PackingParams, unique_solution
from polytile.solvers.parallel import make_executor
from polytile.solvers.xcc import count
from polytile.store.db import PuzzleStore
from polytile.store.generate import make_candidate
from polytile.store.sets import build_set


def rate(params: PackingParams, seed: int, count_: int, workers: int) -> tuple[float, float]:
    """(puzzles per minute, median difficulty) of one build into a fresh store."""
    with tempfile.TemporaryDirectory() as tmp, PuzzleStore(Path(tmp) / "b.db") as db:
        with make_executor(workers) as ex:
            report = build_set(db, "packing", params, seed, count_, ex)
        if report.stored != count_:
            raise SystemExit(f"stopped early: {report.stopped_by}")
        return count_ / report.seconds * 60, statistics.median(db.difficulties())


def uniqueness_peers(params: PackingParams, n: int) -> tuple[float, float]:
    """Median seconds per finished puzzle to settle uniqueness, building the problem
    included: (bitboard kernel, Algorithm C).

    Not the same question: the bitboard check goes on until two solutions that are not
    images of each other turn up, Algorithm C stops at any second raw solution (so on a
    symmetric region it stops earlier than a correct check may)."""
    puzzles = []
    i = 0
    while len(puzzles) < n:
        c = make_candidate("packing", params, 99, i)
        i += 1
        if c.accepted and c.puzzle is not None:
            puzzles.append(c.puzzle)
    ours, theirs = [], []
    for p in puzzles:
        t = time.perf_counter()
        unique_solution(p)
        ours.append(time.perf_counter() - t)
        shapes = [
            s for s, k in zip(p.problem.types, p.problem.counts, strict=True) for _ in range(k)
        ]
        ec = tiling_problem(p.board, shapes)
        t = time.perf_counter()
        count(ec, limit=2)
        theirs.append(time.perf_counter() - t)
    return statistics.median(ours), statistics.median(theirs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=120, help="puzzles per build")
    ap.add_argument("--runs", type=int, default=3, help="seeds per median")
    args = ap.parse_args()
    # Warm the numba caches and the worker start-up path once, untimed.
    rate(PackingParams(), 12345, 5, 1)
    print(f"puzzles per minute, {args.count} per build, median of {args.runs} seeds")
    print(f"{'region':<10} {'1 worker':>9} {'2 workers':>10} {'ratio':>6} {'difficulty':>10}")
    for region in ("shape", "rectangle"):
        params = PackingParams(region=region)
        one, two, diff = [], [], []
        for seed in range(args.runs):
            r1, d1 = rate(params, seed, args.count, 1)
            r2, _ = rate(params, seed, args.count, 2)
            one.append(r1)
            two.append(r2)
            diff.append(d1)
        m1, m2 = statistics.median(one), statistics.median(two)
        print(
            f"{region:<10} {m1:>9.0f} {m2:>10.0f} {m2 / m1:>6.2f} {statistics.median(diff):>10.2f}"
        )
    ours, theirs = uniqueness_peers(PackingParams(), 30)
    print(
        f"uniqueness check per puzzle (median of 30): bitboard {ours * 1e3:.2f} ms, "
        f"Algorithm C {theirs * 1e3:.2f} ms, ratio {ours / theirs:.2f}"
    )


if __name__ == "__main__":
    main()
