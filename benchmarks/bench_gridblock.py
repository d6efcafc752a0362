"""Gridblock: random full games per second on one core.

polytile's engine playing uniformly random legal moves to the end (:meth:`Gridblock.play_random`:
list the legal moves, push one unchecked) against the same through the checked ``push``, which
re-derives legality (the walk and the corner) for every move, measured side by side in this run,
for 2, 3 and 4 players. The issue asks for the figure, not a goal.

Run: ``python benchmarks/bench_gridblock.py [--seconds S] [--repeat N]``
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from polytile.puzzles.gridblock.rules import Gridblock, Options


def fast(seed: int, players: int) -> int:
    return Gridblock.new(seed, Options(players)).play_random(seed)


def checked(seed: int, players: int) -> int:
    g = Gridblock.new(seed, Options(players))
    rng = np.random.default_rng(seed)
    n = 0
    while not g.is_over():
        moves = g.legal_moves()
        g.push(moves[int(rng.integers(len(moves)))])
        n += 1
    return n


def rate(fn: Callable[[int, int], int], players: int, seconds: float) -> tuple[float, float]:
    """(games per second, moves per game) over about ``seconds`` of play."""
    start = time.perf_counter()
    games = moves = 0
    while time.perf_counter() - start < seconds:
        moves += fn(games, players)
        games += 1
    return games / (time.perf_counter() - start), moves / games


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"random Gridblock games, one core; medians of {args.repeat} runs of {args.seconds:g} s")
    print(f"{'players':<9}{'engine':<22}{'games/s':>9}{'moves/game':>12}{'ratio':>7}")
    for players in (2, 3, 4):
        rates: dict[str, list[float]] = {"polytile (unchecked)": [], "checked push": []}
        per_game = 0.0
        for _ in range(args.repeat):
            for name, fn in (("polytile (unchecked)", fast), ("checked push", checked)):
                r, per_game = rate(fn, players, args.seconds)
                rates[name].append(r)
        base = statistics.median(rates["polytile (unchecked)"])
        for name, values in rates.items():
            med = statistics.median(values)
            print(f"{players:<9}{name:<22}{med:>9,.0f}{per_game:>12.0f}{base / med:>6.1f}x")


if __name__ == "__main__":
    main()
