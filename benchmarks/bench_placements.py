"""Time enumerating every placement of the 21 Blokus pieces on the 20x20 board.

polytile's vectorised enumeration (:func:`polytile.board.placements`) against the plain
Python loop a user would write (every orientation at every translation, each cell tested),
measured side by side in this run. The issue's figure: under 0.1 s.

Run: ``python benchmarks/bench_placements.py [--repeat N]``
"""

from __future__ import annotations

import argparse
import statistics
import time

from polytile import Board, piece_set, placements


def naive(board: Board, pieces) -> int:
    """Count placements the straightforward way, in pure Python."""
    n = 0
    for p in pieces:
        for shape in p.orientations():
            for r in range(board.rows - shape.height + 1):
                for c in range(board.cols - shape.width + 1):
                    if all(board.is_open(r + dr, c + dc) for dr, dc in shape.cells):
                        n += 1
    return n


def median_time(fn, repeat: int) -> float:
    """Median wall time of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Print both times, their ratio and the placement count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    board = Board(20, 20)
    pieces = piece_set("blokus")
    ours = len(placements(board, pieces))
    theirs = naive(board, pieces)
    if ours != theirs:
        raise SystemExit(f"placement counts differ: polytile {ours}, naive {theirs}")
    t_ours = median_time(lambda: placements(board, pieces), args.repeat)
    t_naive = median_time(lambda: naive(board, pieces), max(1, args.repeat // 3))
    print(f"Blokus set on 20x20: {ours} placements")
    print(f"  polytile.board.placements  {t_ours * 1000:8.2f} ms (median of {args.repeat})")
    print(f"  plain Python loops         {t_naive * 1000:8.2f} ms")
    print(f"  ratio polytile / plain     {t_ours / t_naive:8.3f}   (figure: polytile < 100 ms)")


if __name__ == "__main__":
    main()
