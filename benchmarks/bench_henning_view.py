"""City Blocks (Henning): every move scored from the mover's view, and joint deals solved.

Positions: greedy self-play games (``polytile selfplay``'s engine players), taken back to the
mover's turn with 2 tiles left in each reserve (4 empty blocks in these games).

1. **The mover's view**: :func:`~polytile.puzzles.henning.view.evaluate_view` lists every full
   state consistent with what the mover sees (its reserve's order: 2; the other player's 7
   unseen tiles split into a hand of 5 and an ordered reserve of 2: 42; so 84 states) and
   solves every legal move of each exactly with the compiled kernel, on ``--workers``
   processes, for at most ``--view-limit`` seconds (then the states solved are reported).
   ``bench_henning_kernel.py`` compares the kernel with the generic alpha-beta per state.
2. **Joint deals**: the 42 x 42 = 1,764 deals of both players' hidden parts (what a
   spectator cannot tell apart; the issue's figure), each solved exactly (the value) by the
   kernel on ``--workers`` processes, for at most ``--deal-limit`` seconds.

Run: ``python benchmarks/bench_henning_view.py [--positions N] [--workers W]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from functools import partial
from itertools import product

from polytile.puzzles.henning.game import HenningGame, _weighted_deals, unseen_tiles
from polytile.puzzles.henning.players import self_play
from polytile.puzzles.henning.rules import Henning
from polytile.puzzles.henning.view import evaluate_view
from polytile.solvers.alphabeta import SearchStopped
from polytile.solvers.parallel import make_executor


def position(seed: int) -> Henning | None:
    g = Henning.new(seed)
    self_play(g, seed=seed)
    while g.move_stack:
        if g.reserve_size(0) == 2 == g.reserve_size(1):
            return g
        g.pop()
    return None


def joint_deals(g: Henning) -> list[Henning]:
    """Every full state a spectator cannot tell apart from ``g`` (both hidden parts)."""
    state = HenningGame().state_of(g)
    per_player = []
    for p in (0, 1):
        per_player.append(_weighted_deals(unseen_tiles(g, p), len(g.hand(p))))
    out = []
    for ((h0, r0), _), ((h1, r1), _) in product(*per_player):
        full = state.board.copy()
        full.hands = [sorted(h0), sorted(h1)]
        full.reserves = [list(r0), list(r1)]
        full.drawn = [0, 0]
        full._stack = []
        out.append(full)
    return out


def solve_value(g: Henning) -> int:
    from polytile.puzzles.henning.kernel import kernel_value

    return kernel_value(g)


def _past(deadline: float) -> bool:
    return time.perf_counter() > deadline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--view-limit", type=float, default=600.0)
    parser.add_argument("--deal-limit", type=float, default=300.0)
    args = parser.parse_args()
    games = []
    seed = 0
    while len(games) < args.positions:
        g = position(seed)
        if g is not None:
            games.append((seed, g))
        seed += 1
    rows = []
    # A fresh pool for each measurement: work abandoned at a time limit keeps running in
    # its worker until the pool is closed, and each worker's table starts empty.
    for seed, g in games:
        started = time.perf_counter()
        consistent = HenningGame().state_of(g).count_hidden_states(g.to_move)
        with make_executor(args.workers) as ex:
            try:
                a = evaluate_view(g, g.to_move, executor=ex, time_limit=args.view_limit)
                states, best = a.evaluation.states, a.evaluation.best_move
                note = f"best {best} {a.evaluation.moves[best].mean:+.2f}"
            except SearchStopped:
                states, note = 0, "no state solved within the limit"
        view_s = time.perf_counter() - started
        deals = joint_deals(g)
        started = time.perf_counter()
        out_of_time = partial(_past, started + args.deal_limit)
        with make_executor(args.workers) as ex:
            solved = sum(1 for _ in ex.imap_unordered(solve_value, deals, out_of_time))
        deal_s = time.perf_counter() - started
        rows.append((seed, g.count_legal_moves(), states, consistent, view_s, solved,
                     len(deals), deal_s))  # fmt: skip
        print(rows[-1], note, flush=True)
    print(f"\n{len(rows)} positions (greedy self-play, 2 tiles in each reserve), "
          f"{args.workers} workers; kernel")  # fmt: skip
    print(f"{'seed':>5}{'moves':>7}{'view states':>14}{'view s':>9}{'s/state':>9}"
          f"{'joint deals':>14}{'deals s':>9}{'s/deal':>8}")  # fmt: skip
    for seed, moves, states, consistent, view_s, solved, total, deal_s in rows:
        print(f"{seed:>5}{moves:>7}{f'{states}/{consistent}':>14}{view_s:>9.1f}"
              f"{view_s / max(states, 1):>9.2f}{f'{solved}/{total}':>14}{deal_s:>9.1f}"
              f"{deal_s / max(solved, 1):>8.3f}")  # fmt: skip
    print("median seconds per state (all moves, 2 workers): "
          f"{statistics.median(r[4] / max(r[2], 1) for r in rows):.2f}; per joint deal (value): "
          f"{statistics.median(r[7] / max(r[5], 1) for r in rows):.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
