"""Benchmark the Gridblock solitaire: time and effort to a proven optimum, both engines.

Usage::

    python benchmarks/bench_gridblock_solo.py                 # 5 seeds, both orders, ~5 min
    python benchmarks/bench_gridblock_solo.py --peers         # + CP-SAT without the returns cut
    python benchmarks/bench_gridblock_solo.py --seeds 3 --limit 30
    python benchmarks/bench_gridblock_solo.py --no-cpsat --seeds 100   # the search alone

Each figure is the wall time of solving the 6-round solitaire of seeds 0..N-1
(``SoloPuzzle.from_seed``) and replaying its plan through the rules engine, median and worst
over the seeds, and the engine's deterministic effort (search nodes, CP-SAT branches), which
a busy machine does not change. Settings measured in the same run:

``search``
    :func:`polytile.puzzles.gridblock.solo.solve_solo` with its default engine, the branch
    and bound of :mod:`polytile.puzzles.gridblock.solo_search` (compiled once before timing:
    the first call of a fresh process also loads the compiled code, about a second).
``cpsat``
    the same with ``engine="cpsat"`` (the CP-SAT model, ``--workers`` workers).
``plain`` (``--peers``)
    the CP-SAT model without :func:`~polytile.puzzles.gridblock.model.add_returns`.

A run that does not prove the optimum within ``--limit`` counts as the limit, printed with
``>``. Goals from the issue: fixed order under 1 s, free order under 20 s (median).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from ortools.sat.python import cp_model

from polytile.puzzles.gridblock.model import (
    SoloVars,
    add_bonuses,
    add_card_order,
    add_cubes,
    add_moves,
    add_score,
)
from polytile.puzzles.gridblock.solo import SoloPuzzle, solve_solo

Run = Callable[[SoloPuzzle, float, int], tuple[float, bool, int, int]]


def _plain(p: SoloPuzzle, limit: float, workers: int) -> tuple[float, bool, int, int]:
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
    return (time.perf_counter() - started, status == cp_model.OPTIMAL,
            round(s.objective_value), int(s.num_branches))  # fmt: skip


def _engine(name: str) -> Run:
    def run(p: SoloPuzzle, limit: float, workers: int) -> tuple[float, bool, int, int]:
        started = time.perf_counter()
        r = solve_solo(p, time_limit=limit, workers=workers, engine=name)
        return time.perf_counter() - started, r.proven_optimal, r.score, r.effort

    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--peers", action="store_true", help="also CP-SAT without the returns cut")
    ap.add_argument("--no-cpsat", action="store_true", help="the search alone")
    args = ap.parse_args()
    solve_solo(SoloPuzzle.from_seed(0).shortened(1))  # load the compiled search
    settings: dict[str, Run] = {"search": _engine("search")}
    if not args.no_cpsat:
        settings["cpsat"] = _engine("cpsat")
    if args.peers:
        settings["plain"] = _plain
    for order in ("fixed", "free"):
        medians = {}
        for name, run in settings.items():
            times, efforts, notes = [], [], []
            for seed in range(args.seeds):
                puzzle = SoloPuzzle.from_seed(seed, order)
                sec, proven, score, effort = run(puzzle, args.limit, args.workers)
                times.append(sec if proven else args.limit)
                efforts.append(effort)
                notes.append(f"{score}{'' if proven else '?'}")
                if args.seeds <= 20:
                    print(f"  {order:5} {name:6} seed {seed}: score {notes[-1]:>4} "
                          f"{'' if proven else '>'}{sec:.3f} s  effort {effort:,}",
                          flush=True)  # fmt: skip
            medians[name] = statistics.median(times)
            unproven = sum(n.endswith("?") for n in notes)
            print(f"{order:5} {name:6} median {medians[name]:7.3f} s  worst {max(times):7.3f} s  "
                  f"effort median {statistics.median(efforts):,.0f} worst {max(efforts):,}  "
                  f"unproven {unproven}/{args.seeds}"
                  + (f"  scores {' '.join(notes)}" if args.seeds <= 20 else ""),
                  flush=True)  # fmt: skip
        for name in medians:
            if name != "search":
                print(f"{order:5} {name} / search (median time): "
                      f"{medians[name] / medians['search']:.0f}x", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
