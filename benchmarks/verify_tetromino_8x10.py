"""The count of tetromino-8x10, checked three independent ways (issue 46, item 4).

tetromino-8x10 is the board of the four-square teaser with its colours ignored: the 20
Blokus tetrominoes (4 each of I4 O4 T4 L4 Z4) in an 8x10 rectangle. No count of it had
been published. This script counts it and checks the count:

1. the frontier engine scanning along the short side (8 cells wide: the fast way);
2. the frontier engine scanning along the long side (10 wide: other keys, other layers,
   about ten times the keys), which must give the same number;
3. the search and the frontier engine on the same subtrees: the search tree is split at a
   depth (every way to place its first pieces), the frontier engine counts every subtree
   (its board with those pieces' cells closed) and their sum must be the total; on a seeded
   sample of deeper subtrees small enough for the search, both engines must agree;
4. the Fix(g) counts of Burnside's lemma by the search, whose sum with the raw count must be
   divisible by the group's order: the count up to symmetry;
5. the random-path estimate (``count --estimate``), whose 95% interval should hold it.

Run on a quiet machine (about 10 minutes on 2 cores, 3 GB at the widest)::

    python benchmarks/verify_tetromino_8x10.py [--depth 1] [--sample 12] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from polytile.board import Board
from polytile.puzzles.tiling.catalogue import resolve
from polytile.solvers.estimate import estimate_search, interval
from polytile.solvers.frontier import count_frontier, frontier_layout
from polytile.solvers.tiling import Task, TilingProblem, compile_problem, count_task, split_task


def subproblem(problem: TilingProblem, forced: tuple[int, ...]) -> TilingProblem:
    """The problem below a search subtree: the forced pieces' cells closed, their copies
    used."""
    kernel = compile_problem(problem)
    pl = kernel.placements
    counts = list(problem.counts)
    blocked = set(problem.board.blocked)
    for i in kernel.decode(forced):
        counts[int(pl.piece[i])] -= 1
        blocked.update(pl.coords_of(i))
    keep = [k for k, c in enumerate(counts) if c > 0]
    board = Board(problem.board.rows, problem.board.cols, frozenset(blocked))
    return TilingProblem(board, tuple(problem.types[k] for k in keep),
                         tuple(counts[k] for k in keep), problem.one_sided)  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=1, help="split depth summed in step 3")
    parser.add_argument("--sample", type=int, default=12, help="deep subtrees compared")
    parser.add_argument("--sample-depth", type=int, default=9)
    parser.add_argument("--search-limit", type=float, default=60.0)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    problem = resolve("tetromino-8x10").problem
    out: dict[str, Any] = {}

    def say(text: str) -> None:
        print(text, flush=True)

    t = time.perf_counter()
    short = count_frontier(problem, threads=2)
    out["short"] = {"count": short.count, "seconds": round(time.perf_counter() - t, 1),
                    "peak_keys": short.peak_states, "peak_bytes": short.peak_bytes}  # fmt: skip
    say(f"1. frontier, short side: {short.count:,} ({out['short']})")

    t = time.perf_counter()
    long = count_frontier(frontier_layout(problem, "long"), threads=2)
    out["long"] = {"count": long.count, "seconds": round(time.perf_counter() - t, 1),
                   "peak_keys": long.peak_states, "peak_bytes": long.peak_bytes}  # fmt: skip
    say(f"2. frontier, long side: {long.count:,} ({out['long']})")

    t = time.perf_counter()
    leaves = split_task(Task(problem, 0, ()), args.depth)
    total = sum(count_frontier(subproblem(problem, leaf.forced), threads=2).count or 0
                for leaf in leaves)  # fmt: skip
    out["split_sum"] = {"depth": args.depth, "subtrees": len(leaves), "sum": total,
                        "seconds": round(time.perf_counter() - t, 1)}  # fmt: skip
    say(f"3a. frontier over the {len(leaves)} subtrees at depth {args.depth}: {total:,}")

    rng = random.Random(8_10)
    compared = []
    for _ in range(args.sample * 4):
        if len(compared) >= args.sample:
            break
        # a random subtree with tilings in it: one random step down at a time, among the
        # subtrees the frontier engine finds tilings in (most random ones have none)
        leaf = Task(problem, 0, ())
        for _ in range(args.sample_depth):
            below = [t for t in split_task(leaf, 1)
                     if count_frontier(subproblem(problem, t.forced)).count]  # fmt: skip
            if not below:
                break
            leaf = rng.choice(below)
        began = time.perf_counter()
        found = count_task(leaf, lambda b=began: time.perf_counter() - b > args.search_limit)
        if not found.complete:
            continue
        front = count_frontier(subproblem(problem, leaf.forced)).count
        compared.append({"forced": list(leaf.forced), "search": found.count, "frontier": front})
        say(f"3b. subtree {leaf.forced}: search {found.count:,}, frontier {front:,}")
    out["subtrees"] = {"depth": args.sample_depth, "compared": compared}

    from polytile.solvers.tiling import plan_count

    fixes = [t for t in plan_count(problem).tasks if t.symmetry]
    fixed = {t.symmetry: count_task(t).count for t in fixes}
    order = len(problem.group())
    out["fix"] = fixed
    burnside, rest = divmod((short.count or 0) + sum(fixed.values()), order)
    out["up_to_symmetry"] = burnside if rest == 0 else None
    say(f"4. Fix(g): {fixed}; up to the {order} symmetries: {burnside:,} (remainder {rest})")

    est = estimate_search(problem, probes=80_000, seed=1)
    low, high = interval(est.solutions, est.solutions_se)
    out["estimate"] = {"mean": est.solutions, "low": low, "high": high}
    say(f"5. estimate: {est.solutions:.4g}, 95% {low:.4g} .. {high:.4g}")

    ok = (short.count == long.count == total and rest == 0
          and all(c["search"] == c["frontier"] for c in compared)
          and low <= (short.count or 0) <= high)  # fmt: skip
    out["agree"] = ok
    say("all agree" if ok else "DISAGREEMENT")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
