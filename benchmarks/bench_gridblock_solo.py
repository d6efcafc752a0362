"""Benchmark the Gridblock solitaire: time to a proven optimum, fixed and free card order.

Usage::

    python benchmarks/bench_gridblock_solo.py                 # 5 seeds, both orders, ~3 min
    python benchmarks/bench_gridblock_solo.py --peers         # + the plain model (slow)
    python benchmarks/bench_gridblock_solo.py --seeds 3 --limit 30

Each figure is the wall time of building and solving the 6-round solitaire of seeds 0..N-1
(``SoloPuzzle.from_seed``), CP-SAT on ``--workers`` workers, median and worst over the seeds.
Settings measured in the same run:

``default``
    :func:`polytile.puzzles.gridblock.solo.solve_solo` (with the returns cut and the plan
    replayed through the rules engine).
``plain`` (``--peers``; always for fixed order)
    the same model without :func:`~polytile.models.gridblock.add_returns`.

A run that does not prove the optimum within ``--limit`` counts as the limit, printed with
``>``. Goals from the issue: fixed order under 1 s, free order under 20 s (median).
"""

from __future__ import annotations

import argparse
import statistics
import time

from ortools.sat.python import cp_model

from polytile.models.gridblock import (
    SoloVars,
    add_bonuses,
    add_card_order,
    add_cubes,
    add_moves,
    add_score,
)
from polytile.puzzles.gridblock.solo import SoloPuzzle, solve_solo


def _plain(p: SoloPuzzle, limit: float, workers: int) -> tuple[float, bool, int]:
    started = time.perf_counter()
    v = SoloVars(p.layout, p.setup_symbol, p.hands, p.order)
    add_card_order(v)
    add_moves(v)
    add_cubes(v)
    add_bonuses(v)
    add_score(v)
    s = cp_model.CpSolver()
    s.parameters.num_workers = workers
    s.parameters.max_time_in_seconds = limit
    status = s.solve(v.model)
    return time.perf_counter() - started, status == cp_model.OPTIMAL, round(s.objective_value)


def _default(p: SoloPuzzle, limit: float, workers: int) -> tuple[float, bool, int]:
    started = time.perf_counter()
    r = solve_solo(p, time_limit=limit, workers=workers)
    return time.perf_counter() - started, r.proven_optimal, r.score


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--peers", action="store_true", help="also the plain model in free order")
    args = ap.parse_args()
    for order in ("fixed", "free"):
        settings = {"default": _default}
        if order == "fixed" or args.peers:
            settings["plain"] = _plain
        medians = {}
        for name, run in settings.items():
            times, notes = [], []
            for seed in range(args.seeds):
                sec, proven, score = run(SoloPuzzle.from_seed(seed, order), args.limit,
                                         args.workers)  # fmt: skip
                times.append(sec if proven else args.limit)
                notes.append(f"{score}{'' if proven else '?'}")
                print(f"  {order:5} {name:8} seed {seed}: score {notes[-1]:>4} "
                      f"{'' if proven else '>'}{sec:.2f} s", flush=True)  # fmt: skip
            medians[name] = statistics.median(times)
            print(f"{order:5} {name:8} median {medians[name]:6.2f} s  worst "
                  f"{max(times):6.2f} s  scores {' '.join(notes)}", flush=True)  # fmt: skip
        if "plain" in medians:
            print(f"{order:5} plain / default (median): "
                  f"{medians['plain'] / medians['default']:.2f}x", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
