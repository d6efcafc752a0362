"""Time exact Walkable Cities drop phases and whole rounds (issue #16).

Positions: for seed ``s`` of ``--seeds``, seeded boards (10 dead cells each) played by
uniformly random legal drops (seeded; both players pick random pieces of the rotation, which
follows rules 3.1) for ``round(20 * s / (seeds - 1))`` rounds: from round 0 to 20. In each, a
drop phase with two seeded random picks of the rotation is solved by
:func:`polytile.puzzles.walkable.phase.solve_drop_phase` (double oracle, exact best responses
over every legal drop), then ``--rounds`` of the positions are solved as whole rounds
(:func:`~polytile.puzzles.walkable.phase.solve_round`: the selection over every pair's drop
phase).

The issue's figures: a Python prototype took 0.1-10 s per drop phase; goals under 1 s median
and 5 s worst per phase, and under 30 s for a whole round.

Run: ``python benchmarks/bench_walkable_phase.py [--seeds 15] [--rounds 5]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import numpy.typing as npt

from polytile.puzzles.walkable.board import PIECES, legal_drops, seeded_boards
from polytile.puzzles.walkable.phase import (
    Action,
    best_response,
    resolve,
    solve_drop_phase,
    solve_round,
)


def position(
    seed: int, rounds: int, greedy: bool = False
) -> tuple[npt.NDArray[np.int8], list[str]]:
    """Seeded boards after ``rounds`` rounds of random play (or greedy: each player's best
    drop against a pass, ties and picks still random), and the rotation left."""
    rng = np.random.default_rng(seed)
    cells = seeded_boards(seed)
    rotation: list[str] = []
    for _ in range(rounds):
        rotation = rotation or list(PIECES)
        if len(rotation) == 1:
            red = blue = rotation[0]
        else:
            red, blue = (rotation[int(rng.integers(len(rotation)))] for _ in range(2))
        rotation = [p for p in rotation if p not in (red, blue)]
        actions: list[Action] = []
        for name, other, player in ((red, blue, "R"), (blue, red, "B")):
            drops = legal_drops(cells, name)
            if greedy:
                actions.append(best_response(cells, name, other, None, player)[0])
            else:
                actions.append(tuple(int(g) for g in drops[rng.integers(len(drops))])
                               if len(drops) else None)  # fmt: skip
        cells = resolve(cells, actions[0], actions[1])
    return cells, rotation or list(PIECES)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=15, help="positions (rounds 0 to 20)")
    parser.add_argument("--rounds", type=int, default=5, help="positions solved as whole rounds")
    parser.add_argument("--greedy", action="store_true", help="greedy play instead of random")
    args = parser.parse_args()
    solve_drop_phase(seeded_boards(0, dead=90), "L4", "T4")  # compile and import, not timed
    print(f"{'seed':>4}{'round':>6}{'pieces':>8}{'drops':>13}{'value':>8}{'gap':>9}"
          f"{'iters':>6}{'support':>9}{'seconds':>9}")  # fmt: skip
    secs = []
    positions = []
    for seed in range(args.seeds):
        rounds = round(20 * seed / max(1, args.seeds - 1))
        cells, rotation = position(seed, rounds, args.greedy)
        positions.append((seed, rounds, cells, rotation))
        rng = np.random.default_rng(1000 + seed)
        red, blue = (rotation[int(rng.integers(len(rotation)))] for _ in range(2))
        s = solve_drop_phase(cells, red, blue)
        secs.append(s.seconds)
        print(f"{seed:>4}{rounds:>6}{red + ' ' + blue:>8}"
              f"{f'{s.red_drops}x{s.blue_drops}':>13}{s.value:>+8.3f}{s.gap:>9.1e}"
              f"{s.iterations:>6}{f'{s.red_support}x{s.blue_support}':>9}"
              f"{s.seconds:>9.2f}")  # fmt: skip
    print(f"\n{len(secs)} drop phases: median {statistics.median(secs):.2f} s, "
          f"worst {max(secs):.2f} s (goals: 1 s, 5 s)")  # fmt: skip
    if args.rounds <= 0:
        return
    print(f"\n{'seed':>4}{'round':>6}{'rotation':>16}{'value':>8}{'gap':>9}{'seconds':>9}"
          f"  red picks")  # fmt: skip
    whole = []
    step = max(1, len(positions) // args.rounds)
    for seed, rounds, cells, rotation in positions[::step][: args.rounds]:
        started = time.perf_counter()
        r = solve_round(cells, rotation)
        took = time.perf_counter() - started
        whole.append(took)
        picks = ", ".join(f"{n} {p:.2f}" for n, p in r.red)
        print(f"{seed:>4}{rounds:>6}{' '.join(r.rotation):>16}{r.value:>+8.3f}{r.gap:>9.1e}"
              f"{took:>9.2f}  {picks}")  # fmt: skip
    print(f"\n{len(whole)} whole rounds: median {statistics.median(whole):.2f} s, "
          f"worst {max(whole):.2f} s (goal: 30 s)")  # fmt: skip


if __name__ == "__main__":
    main()
