"""How far back from the end the exact Walkable Cities endgame solve reaches (issue #16).

Games: for each seed of ``--seeds``, seeded boards (10 dead cells each) played to the end by
``--players`` (:func:`polytile.puzzles.walkable.players.self_play`). From each game's end,
rounds are undone one at a time; every position at a round's start is solved by
:func:`polytile.puzzles.walkable.endgame.solve_endgame` (backward induction, a matrix game at
every node) with ``--time-limit`` seconds, until one is refused (more than ``--max-drops``
legal drops of a piece) or stops at the time limit. Each row: rounds before the end, the
most legal drops of one piece, the positions solved, the seconds, the value.

Run: ``python benchmarks/bench_walkable_endgame.py [--seeds 5] [--time-limit 30]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from polytile.puzzles.walkable.endgame import (
    EndgameRefused,
    EndgameStopped,
    endgame_size,
    solve_endgame,
)
from polytile.puzzles.walkable.players import self_play
from polytile.puzzles.walkable.rules import Walkable


def main() -> None:
    """Solve backwards from each game's end and print how far each solve got."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--players", default="greedy,random")
    ap.add_argument("--time-limit", type=float, default=30.0)
    ap.add_argument("--max-drops", type=int, default=40)
    args = ap.parse_args()
    players = tuple(args.players.split(","))
    reach: list[int] = []
    for seed in range(args.seeds):
        g = Walkable.new(seed=seed)
        self_play(g, players, seed=seed)
        print(f"seed {seed}: {g.round} rounds")
        back = 0
        while g.round > 0:
            g.pop_round()
            back += 1
            size = endgame_size(g)
            started = time.perf_counter()
            try:
                sol = solve_endgame(g, max_drops=args.max_drops, time_limit=args.time_limit)
            except EndgameRefused:
                print(f"  -{back:<3} drops {size.largest:>4}: refused (--max-drops)")
                break
            except EndgameStopped as stop:
                print(f"  -{back:<3} drops {size.largest:>4}: stopped after {stop.positions:,} "
                      f"positions ({stop.seconds:.1f} s)")  # fmt: skip
                break
            print(f"  -{back:<3} drops {size.largest:>4} ({sum(size.drops.values())} in all, "
                  f"{size.drop_rounds} drop rounds at most): {sol.positions:>9,} positions "
                  f"{time.perf_counter() - started:7.2f} s  value {sol.value:+.3f}")  # fmt: skip
        reach.append(back - 1)
    print(f"rounds before the end solved exactly: median {statistics.median(reach)}, "
          f"each {reach}")  # fmt: skip


if __name__ == "__main__":
    main()
