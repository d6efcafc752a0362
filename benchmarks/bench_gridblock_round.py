"""Time exact Gridblock rounds: a whole round (2 players, 4 colours, 12 colour-turns) with
every hand known, solved to its exact value.

Positions: for each seed, ``Gridblock.new(seed, Options(players=2, deal="split"))`` played by
uniformly random legal moves (seeded) to the start of round 2, 4 or 6 (seed by seed in
turn): under the split deal those rounds' hands are known to both players, so the round is a
perfect-information game. Each is solved by
:func:`polytile.puzzles.gridblock.endgame.solve_round` (the team margin at the end of the
round, the principal variation replayed through the engine); ``--all-best`` also lists every
optimal first move, as ``polytile solve-endgame`` does.

The issue's figure: a plain Python prototype needed 0.7-2.1 million positions and 15-94 s
per round; the goal is a median under 5 s.

Run: ``python benchmarks/bench_gridblock_round.py [--seeds N] [--all-best] [--time-limit S]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from polytile.puzzles.gridblock.endgame import RoundStopped, solve_round
from polytile.puzzles.gridblock.rules import Gridblock, Options


def round_start(seed: int) -> Gridblock:
    """The seeded game at the start of round 2, 4 or 6 (``seed % 3``), hands known."""
    g = Gridblock.new(seed=seed, options=Options(players=2, deal="split"))
    rng = np.random.default_rng(seed)
    target = 4 + (1 + 2 * (seed % 3)) * 12
    while g.step < target:
        moves = g.legal_moves()
        g.push_legal(moves[int(rng.integers(len(moves)))])
    return g


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="positions to solve")
    parser.add_argument("--all-best", action="store_true", help="also every optimal first move")
    parser.add_argument("--time-limit", type=float, default=120.0)
    args = parser.parse_args()
    solve_round(round_start(0), all_best=False)  # imports and caches are not timed
    print(f"{'seed':>4}{'round':>6}{'value':>7}{'nodes':>10}{'seconds':>9}  best first moves")
    nodes, secs = [], []
    for seed in range(args.seeds):
        g = round_start(seed)
        started = time.perf_counter()
        try:
            r = solve_round(g, all_best=args.all_best, time_limit=args.time_limit)
        except RoundStopped as stop:
            print(f"{seed:>4}{g.round + 1:>6}{'-':>7}{stop.nodes:>10,}{'>':>2}"
                  f"{args.time_limit:>7.1f}  (not solved in time)")  # fmt: skip
            nodes.append(stop.nodes)
            secs.append(args.time_limit)
            continue
        took = time.perf_counter() - started
        nodes.append(r.nodes)
        secs.append(took)
        best = ", ".join(str(m) for m in r.best_moves[:4]) if args.all_best else str(r.pv[0])
        print(f"{seed:>4}{g.round + 1:>6}{r.value:>+7}{r.nodes:>10,}{took:>9.2f}  {best}")
    print(
        f"\n{len(secs)} rounds (2 players, 12 colour-turns, hands known); "
        f"{'value and every optimal first move' if args.all_best else 'value and line'}"
    )
    print(f"median {statistics.median(nodes):,.0f} positions, {statistics.median(secs):.2f} s; "
          f"max {max(nodes):,} positions, {max(secs):.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
