"""Benchmark the Walkable Cities largest-path puzzle: 4 pieces proven optimal, or not.

Usage::

    python benchmarks/bench_walkable_path.py                  # 10 seeds, 60 s each, ~10 min
    python benchmarks/bench_walkable_path.py --seeds 3 --limit 20 --pieces 2

Each line is one seeded puzzle (``PathPuzzle.from_seed(seed, pieces=4)``: 10 dead cells, 24
blue and 16 red cells per position) solved by :func:`polytile.puzzles.walkable.path.
solve_path` within ``--limit`` seconds on ``--workers`` CP-SAT workers, its drops replayed:
the status (proven or not), the objective (the sum of red's three largest regions), the
proven bound, the greedy incumbent the exact search starts from and the wall time. The
summary counts the proven cases and gives the median and worst time of those. Times are
wall times: a busy machine (other jobs) stretches them and can turn a proof into a timeout.
Goal from the issue: 4 pieces proven optimal (a CP-SAT prototype proved nothing in 120 s).
"""

from __future__ import annotations

import argparse
import statistics

from polytile.puzzles.walkable.path import PathPuzzle, solve_path


def main() -> None:
    """Run the benchmark and print one line per seed and a summary."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--pieces", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    proven: list[float] = []
    print("seed  pieces           status    objective  bound  greedy  seconds")
    for seed in range(args.seeds):
        puzzle = PathPuzzle.from_seed(seed, pieces=args.pieces)
        r = solve_path(puzzle, time_limit=args.limit, workers=args.workers)
        if r.proven:
            proven.append(r.seconds)
        print(
            f"{seed:4d}  {','.join(puzzle.sequence):15s}  {r.status:8s}  {r.objective!s:>9}"
            f"  {r.bound!s:>5}  {r.stats['incumbent']:6d}  {r.seconds:7.2f}",
            flush=True,
        )
    if proven:
        times = f"median {statistics.median(proven):.2f} s, worst {max(proven):.2f} s"
    else:
        times = "no proof"
    print(f"proven optimal: {len(proven)} of {args.seeds} within {args.limit:g} s ({times})")


if __name__ == "__main__":
    main()
