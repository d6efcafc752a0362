"""Time every root move's exact value of City Blocks (Henning) positions: the compiled kernel
(:func:`polytile.puzzles.henning.kernel.kernel_move_values`) against the Python alpha-beta
(:func:`polytile.solvers.alphabeta.move_values` with the game's hooks), in one run.

Positions: for each seed, a greedy self-play game (``self_play(Henning.new(seed),
seed=seed)``) taken back until both reserves hold ``--reserve`` tiles; kept when
``--empty`` blocks are empty then. The Python side has a time limit per position and is
reported as ">N s" when it hits it; the values must agree where both finish. The kernel is
compiled (or loaded from numba's cache) before timing; the compile time is printed.

Run: ``python benchmarks/bench_henning_kernel.py [--positions 10] [--python-limit 60]``.

``--view SEED`` instead counts the kernel's positions (nodes, deterministic) for every full
state of the mover's view of ``bench_henning_view.py``'s position SEED (its greedy game at
2 tiles in each reserve), all root moves of each, one state after another in this process,
the table kept from one to the next as a worker keeps it (``--fresh``: a new table and
history for each state).
"""

from __future__ import annotations

import argparse
import statistics
import time

from polytile.puzzles.henning.endgame import MARGIN, _Hooks
from polytile.puzzles.henning.game import HenningGame
from polytile.puzzles.henning.players import self_play
from polytile.puzzles.henning.rules import Henning
from polytile.solvers.alphabeta import SearchStopped, move_values


def positions(count: int, empty: int, reserve: int) -> list[tuple[int, Henning]]:
    """(seed, position) for the first ``count`` seeds from 1 whose greedy game passes a
    moment with both reserves at ``reserve`` and ``empty`` empty blocks."""
    out: list[tuple[int, Henning]] = []
    seed = 0
    while len(out) < count:
        seed += 1
        g = Henning.new(seed)
        self_play(g, seed=seed)
        while g.move_stack and not (g.reserve_size(0) == reserve == g.reserve_size(1)):
            g.pop()
        if g.reserve_size(0) == reserve == g.reserve_size(1) and g.empty == empty:
            out.append((seed, g))
    return out


def count_view(seed: int, fresh: bool) -> None:
    """Nodes and seconds of every state of the mover's view of position ``seed``."""
    from bench_henning_view import position  # the same script directory

    from polytile.puzzles.henning import kernel

    g = position(seed)
    if g is None:
        raise SystemExit(f"seed {seed} has no position with 2 tiles in each reserve")
    state = HenningGame().state_of(g)
    boards = [s.board for s, _ in state.hidden_states(g.to_move)]  # type: ignore[attr-defined]
    small = Henning.new(0)  # compile (or load from numba's cache) before timing
    while small.empty > 2:
        small.push_legal(small.legal_moves()[0])
    kernel.kernel_move_values(small)
    kernel._TABLE = None
    counts, times = [], []
    for i, board in enumerate(boards):
        if fresh:
            kernel._TABLE = None
        t = time.perf_counter()
        _, nodes = kernel.kernel_move_values(board)
        times.append(time.perf_counter() - t)
        counts.append(nodes)
        print(f"state {i:>3}: {nodes:>11,} positions {times[-1]:7.2f} s", flush=True)
    print(
        f"seed {seed}: {len(boards)} states, {g.count_legal_moves()} root moves each; "
        f"{sum(counts):,} positions in {sum(times):.1f} s; most in one state "
        f"{max(counts):,}, median {int(statistics.median(counts)):,}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--empty", type=int, default=4)
    parser.add_argument("--reserve", type=int, default=2)
    parser.add_argument("--python-limit", type=float, default=60.0)
    parser.add_argument("--no-python", action="store_true", help="time the kernel only")
    parser.add_argument(
        "--view", type=int, metavar="SEED", help="count the kernel's positions over one view"
    )
    parser.add_argument("--fresh", action="store_true", help="--view: a new table per state")
    args = parser.parse_args()
    if args.view is not None:
        count_view(args.view, args.fresh)
        return

    started = time.perf_counter()
    from polytile.puzzles.henning import kernel

    small = Henning.new(0)
    while small.empty > 2:
        small.push_legal(small.legal_moves()[0])
    kernel.kernel_move_values(small)
    print(f"import + compile (or cache load) + first call: {time.perf_counter() - started:.1f} s")

    chosen = positions(args.positions, args.empty, args.reserve)
    k_times: list[float] = []
    p_times: list[float] = []
    print(
        f"{'seed':>4} {'moves':>5} {'kernel s':>9} {'k nodes':>11} {'python s':>9} "
        f"{'p nodes':>9} {'ratio':>7}"
    )
    for seed, g in chosen:
        moves = g.legal_moves()
        t = time.perf_counter()
        k_values, k_nodes = kernel.kernel_move_values(g, moves)
        k_s = time.perf_counter() - t
        k_times.append(k_s)
        p_text, p_nodes, ratio = "-", "-", "-"
        if not args.no_python:
            state = HenningGame(open=True).state_of(g.copy())
            t = time.perf_counter()
            try:
                p_values, nodes = move_values(state, MARGIN, _Hooks(), moves,
                                              time_limit=args.python_limit)  # fmt: skip
                p_s = time.perf_counter() - t
                if [int(v) for v in p_values] != k_values:
                    raise SystemExit(f"seed {seed}: the kernel's values differ from Python's")
                p_text, p_nodes, ratio = f"{p_s:.2f}", f"{nodes:,}", f"{p_s / k_s:.0f}x"
            except SearchStopped as stop:
                p_s = args.python_limit
                p_text, p_nodes = f">{args.python_limit:.0f}", f">{stop.nodes:,}"
                ratio = f">{p_s / k_s:.0f}x"
            p_times.append(p_s)
        print(
            f"{seed:>4} {len(moves):>5} {k_s:>9.3f} {k_nodes:>11,} {p_text:>9} {p_nodes:>9} "
            f"{ratio:>7}",
            flush=True,
        )
    print(
        f"kernel: median {statistics.median(k_times):.3f} s, worst {max(k_times):.3f} s per "
        f"position (all root moves)"
    )
    if p_times:
        p_med = statistics.median(p_times)
        capped = " (timed-out positions counted at the limit: a lower bound)" if any(
            p >= args.python_limit for p in p_times) else ""  # fmt: skip
        print(
            f"python: median {p_med:.2f} s{capped}; median ratio "
            f"{p_med / statistics.median(k_times):.0f}x"
        )


if __name__ == "__main__":
    main()
