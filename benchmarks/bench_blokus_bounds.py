"""Time Blokus endgame bounds on a mid-game position (random game, 40 pieces placed).

For each seed: a random classic game until 40 pieces are on the board, then
:func:`polytile.puzzles.blokus.bounds.bounds` for the colour to move (both bounds, 2 CP-SAT
workers, 10 s per search). Prints per seed the time and whether both bounds were proven,
then the median time.

Run: ``/work/venv/bin/python benchmarks/bench_blokus_bounds.py [--seeds N] [--workers W]``
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from polytile.puzzles.blokus.bounds import bounds
from polytile.puzzles.blokus.rules import Blokus


def mid_game(seed: int, pieces: int = 40) -> Blokus:
    game = Blokus()
    rng = np.random.default_rng(seed)
    placed = 0
    while placed < pieces and not game.is_game_over():
        moves = game.legal_moves()
        move = moves[int(rng.integers(len(moves)))]
        game.push(move)
        placed += move.piece is not None
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=10.0)
    args = parser.parse_args()
    times = []
    for seed in range(args.seeds):
        game = mid_game(seed)
        started = time.perf_counter()
        b = bounds(game, game.to_move, time_limit=args.time_limit, workers=args.workers)
        sec = time.perf_counter() - started
        times.append(sec)
        print(f"seed {seed}: {b.color} upper {b.upper.value} proven {b.upper.proven}, "
              f"lower {b.lower.value} proven {b.lower.proven}, {sec:.2f} s")  # fmt: skip
    print(f"median {statistics.median(times):.2f} s over {len(times)} seeds")


if __name__ == "__main__":
    main()
