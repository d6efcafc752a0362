"""What the OpenSpiel adapter costs: random playouts of Blokus Duo per second through
polytile's own state and through ``polytile.interop.openspiel`` (OpenSpiel's Python-game
API: integer actions, each applied by polytile's checked ``push``), in the same run; and a
state clone each way, which OpenSpiel's MCTS does at every simulation.

Run: ``python benchmarks/bench_openspiel.py [--seconds S] [--repeat N]`` (needs the
``openspiel`` extra).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from polytile.interop.openspiel import to_pyspiel
from polytile.puzzles.blokus.game import BlokusGame


def native(game: BlokusGame, rng: np.random.Generator) -> int:
    s = game.new_initial_state()
    n = 0
    while not s.is_over():
        moves = s.legal_moves()
        s.push_legal(moves[int(rng.integers(len(moves)))])
        n += 1
    return n


def adapted(game, rng: np.random.Generator) -> int:  # type: ignore[no-untyped-def]
    s = game.new_initial_state()
    n = 0
    while not s.is_terminal():
        actions = s.legal_actions()
        s.apply_action(actions[int(rng.integers(len(actions)))])
        n += 1
    return n


def rate(fn, game, seconds: float) -> float:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(0)
    start, games = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        fn(game, rng)
        games += 1
    return games / (time.perf_counter() - start)


def clone_time(state, n: int = 200) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    for _ in range(n):
        state.clone()
    return (time.perf_counter() - start) / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    inner = BlokusGame("duo")
    outer = to_pyspiel(inner)
    nat, ada = [], []
    for _ in range(args.repeat):
        nat.append(rate(native, inner, args.seconds))
        ada.append(rate(adapted, outer, args.seconds))
    n, a = statistics.median(nat), statistics.median(ada)
    print(f"Blokus Duo random playouts, medians of {args.repeat} runs of {args.seconds:g} s")
    print(f"{'through':<28}{'games/s':>9}{'ratio':>8}")
    print(f"{'polytile state':<28}{n:>9.1f}{1.0:>7.2f}x")
    print(f"{'OpenSpiel adapter':<28}{a:>9.1f}{n / a:>7.2f}x")
    mid = inner.new_initial_state()
    rng = np.random.default_rng(1)
    for _ in range(10):
        mid.push_legal(mid.legal_moves()[int(rng.integers(len(mid.legal_moves())))])
    ostate = outer.new_initial_state()
    for m in mid.history:
        ostate.apply_action(inner.move_index(m))
    print(f"clone after 10 moves: polytile {clone_time(mid) * 1e6:.0f} us, "
          f"through OpenSpiel {clone_time(ostate) * 1e6:.0f} us")  # fmt: skip


if __name__ == "__main__":
    main()
