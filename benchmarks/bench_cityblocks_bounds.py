"""Time City Blocks endgame bounds (``polytile bounds``) on mid-game positions.

For each seed, a random game is played for ``--turns`` turns (random legal placements,
passing only when forced; 40 by default, ten pieces per colour) and
:func:`polytile.puzzles.cityblocks.bounds.bounds` is asked for the colour to move: the upper
bound (best layout if the others pass, CP-SAT), the lower bound (the others' worst attack if
the colour passes, CP-SAT), and the exact search, which such positions refuse. The table
gives per seed the score now, both bounds with their times and whether CP-SAT proved them
tight, then the medians over the seeds.

Run: ``python benchmarks/bench_cityblocks_bounds.py [--seeds N] [--turns T]
[--time-limit S] [--workers W]``; tables to stdout, nothing else.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from polytile.puzzles.cityblocks.bounds import lower_bound, upper_bound
from polytile.puzzles.cityblocks.rules import CityBlocks, Move


def mid_game(seed: int, turns: int) -> CityBlocks:
    """A random game after ``turns`` turns."""
    rng = random.Random(seed)
    game = CityBlocks()
    for _ in range(turns):
        moves = game.legal_placements()
        game.push(rng.choice(moves) if moves else Move.pass_turn(game.to_move))
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5, help="positions (default 5)")
    parser.add_argument("--turns", type=int, default=40, help="random turns (default 40)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="per search, seconds")
    parser.add_argument("--workers", type=int, default=2, help="CP-SAT workers (default 2)")
    args = parser.parse_args()
    kw = {"time_limit": args.time_limit, "workers": args.workers, "seed": 0}
    print(f"bounds after {args.turns} random turns, {args.time_limit:g} s per search, "
          f"{args.workers} workers")  # fmt: skip
    print(f"{'seed':>4} {'colour':<7}{'now':>5}{'lower':>7}{'proven':>8}{'s':>7}"
          f"{'upper':>7}{'layout':>8}{'proven':>8}{'s':>7}")  # fmt: skip
    low_s, up_s, low_ok, up_ok = [], [], 0, 0
    for seed in range(args.seeds):
        game = mid_game(seed, args.turns)
        color = game.to_move
        t = time.perf_counter()
        low = lower_bound(game, color, **kw)
        low_s.append(time.perf_counter() - t)
        t = time.perf_counter()
        up = upper_bound(game, color, **kw)
        up_s.append(time.perf_counter() - t)
        low_ok += low.proven
        up_ok += up.proven
        now = game.score().colors[color].total
        print(f"{seed:>4} {color:<7}{now:>5}{low.value:>7}{low.proven!s:>8}{low_s[-1]:>7.2f}"
              f"{up.value:>7}{up.layout_score:>8}{up.proven!s:>8}{up_s[-1]:>7.2f}")  # fmt: skip
    print()
    print(f"lower: median {statistics.median(low_s):.2f} s, proven {low_ok}/{args.seeds}")
    print(f"upper: median {statistics.median(up_s):.2f} s, proven {up_ok}/{args.seeds}")
    total = [a + b for a, b in zip(low_s, up_s, strict=True)]
    print(f"both:  median {statistics.median(total):.2f} s")


if __name__ == "__main__":
    main()
