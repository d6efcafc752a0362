"""City Blocks (Henning): random full games per second on one core.

polytile's engine (:meth:`Henning.random_move`, which draws a uniform legal move without
listing every courthouse swap, then ``push_legal``) against the plain way a user would
write it with the same engine (list every legal move, pick one), and against playing
through the checked ``push``, measured side by side in this run. The issue's figure: at
least 2,000 games a second.

Run: ``python benchmarks/bench_henning.py [--seconds S] [--repeat N]``
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from polytile.puzzles.henning.rules import Henning


def fast(seed: int) -> int:
    g = Henning.new(seed)
    return g.play_random(seed)


def listed(seed: int) -> int:
    g = Henning.new(seed)
    rng = np.random.default_rng(seed)
    n = 0
    while not g.is_over():
        moves = g.legal_moves()
        g.push(moves[int(rng.integers(len(moves)))])
        n += 1
    return n


def checked(seed: int) -> int:
    g = Henning.new(seed)
    rng = np.random.default_rng(seed)
    n = 0
    while not g.is_over():
        g.push(g.random_move(rng))
        n += 1
    return n


def rate(fn, seconds: float) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """(games per second, moves per game) over about ``seconds`` of play."""
    start = time.perf_counter()
    games = moves = 0
    while time.perf_counter() - start < seconds:
        moves += fn(games)
        games += 1
    return games / (time.perf_counter() - start), moves / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    results: dict[str, list[float]] = {"polytile (random_move)": [], "checked push": [],
                                       "list every move": []}  # fmt: skip
    per_game = 0.0
    for _ in range(args.repeat):
        for name, fn in (("polytile (random_move)", fast), ("checked push", checked),
                         ("list every move", listed)):  # fmt: skip
            r, per_game = rate(fn, args.seconds)
            results[name].append(r)
    base = statistics.median(results["polytile (random_move)"])
    print(f"random City Blocks (Henning) games, one core, {per_game:.1f} moves a game; "
          f"medians of {args.repeat} runs of {args.seconds:g} s")  # fmt: skip
    print(f"{'engine':<26}{'games/s':>10}{'ratio':>8}")
    for name, rates in results.items():
        med = statistics.median(rates)
        print(f"{name:<26}{med:>10,.0f}{base / med:>7.1f}x")


if __name__ == "__main__":
    main()
