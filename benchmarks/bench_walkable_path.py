"""Benchmark the Walkable Cities largest-path puzzle: 4 pieces proven optimal, or not.

Usage::

    python benchmarks/bench_walkable_path.py                  # 10 seeds, 60 s each
    python benchmarks/bench_walkable_path.py --compare-cpsat  # and CP-SAT, same run (~10 min)
    python benchmarks/bench_walkable_path.py --seeds 3 --limit 20 --pieces 2

Each line is one seeded puzzle (``PathPuzzle.from_seed(seed, pieces=4)``: 10 dead cells, 24
blue and 16 red cells per position) solved by :func:`polytile.puzzles.walkable.path.
solve_path` within ``--limit`` seconds, its drops replayed: the status (proven or not), the
objective (the sum of red's three largest regions), the proven bound, the greedy incumbent
the exact search starts from, the nodes searched and the wall time. ``--compare-cpsat``
solves each puzzle a second time with the CP-SAT model (``method="cpsat"``, ``--workers``
workers), the peer. The summary counts the proven cases and gives the median and worst time
of those. Times are wall times: a busy machine (other jobs) stretches them and can turn a
proof into a timeout. Goal from the issue: 4 pieces proven optimal (a CP-SAT prototype
proved nothing in 120 s).
"""

from __future__ import annotations

import argparse
import statistics

from polytile.puzzles.walkable.path import PathPuzzle, solve_path


def main() -> None:
    """Run the benchmark and print one line per seed and method, and a summary."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--pieces", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--compare-cpsat", action="store_true")
    args = ap.parse_args()
    methods = ["search", "cpsat"] if args.compare_cpsat else ["search"]
    proven: dict[str, list[float]] = {m: [] for m in methods}
    print("seed  pieces           method  status    objective  bound  greedy    nodes  seconds")
    for seed in range(args.seeds):
        puzzle = PathPuzzle.from_seed(seed, pieces=args.pieces)
        for method in methods:
            r = solve_path(puzzle, time_limit=args.limit, workers=args.workers, method=method)
            if r.proven:
                proven[method].append(r.seconds)
            nodes = r.stats.get("search_nodes", r.stats.get("branches", 0))
            print(
                f"{seed:4d}  {','.join(puzzle.sequence):15s}  {method:6s}  {r.status:8s}"
                f"  {r.objective!s:>9}  {r.bound!s:>5}  {r.stats['incumbent']:6d}"
                f"  {nodes:7d}  {r.seconds:7.2f}",
                flush=True,
            )
    for method, times in proven.items():
        if times:
            spread = f"median {statistics.median(times):.2f} s, worst {max(times):.2f} s"
        else:
            spread = "no proof"
        print(f"{method}: proven optimal {len(times)} of {args.seeds} within {args.limit:g} s"
              f" ({spread})")  # fmt: skip


if __name__ == "__main__":
    main()
