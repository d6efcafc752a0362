"""Time exact Blokus endgames: 2-player positions with at most 6 pieces left per side.

For each seed: a random game (the biggest pieces half the time) played until no player can
still place more than ``--high`` pieces while both can place ``--low`` or more (the pieces
a player can still place are its reachable pieces, ``blokus_endgame.endgame_size``); then
``solve_endgame`` with a 60 s limit. Prints per seed the sizes, the value, the positions
searched and the time, then the median time and how many were solved.

Run: ``/work/venv/bin/python benchmarks/bench_blokus_endgame.py [--variant duo|classic]
[--seeds N] [--low L] [--high H]``
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from polytile.puzzles.blokus.endgame import EndgameStopped, endgame_size, solve_endgame
from polytile.puzzles.blokus.rules import Blokus


def contested(variant: str, seed: int, low: int, high: int) -> Blokus | None:
    game = Blokus(variant, 2)
    rng = np.random.default_rng(seed)
    while not game.is_game_over():
        sizes = sorted(endgame_size(game).values())
        if game.move_stack and sizes[-1] <= high and sizes[0] >= low:
            return game
        moves = game.legal_moves()
        biggest = max(len(m.cells) for m in moves)
        if rng.random() < 0.5:
            moves = [m for m in moves if len(m.cells) == biggest]
        game.push(moves[int(rng.integers(len(moves)))])
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default="duo", choices=["duo", "classic"])
    parser.add_argument("--seeds", type=int, default=10, help="positions to solve")
    parser.add_argument("--low", type=int, default=5)
    parser.add_argument("--high", type=int, default=6)
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args()
    times, solved, seed = [], 0, 0
    while len(times) < args.seeds and seed < 50 * args.seeds:
        game = contested(args.variant, seed, args.low, args.high)
        seed += 1
        if game is None:
            continue
        sizes = endgame_size(game)
        started = time.perf_counter()
        try:
            r = solve_endgame(game, max_pieces=None, time_limit=args.time_limit)
            note = f"value {r.value:+d}, {r.nodes:,} positions"
            solved += 1
        except EndgameStopped as stop:
            note = f"stopped ({stop.reason}) after {stop.nodes:,} positions"
        sec = time.perf_counter() - started
        times.append(sec)
        print(f"seed {seed - 1}: {sizes} {note}, {sec:.2f} s", flush=True)
    print(f"solved {solved}/{len(times)}; median {statistics.median(times):.2f} s, "
          f"max {max(times):.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
