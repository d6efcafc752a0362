"""Benchmark City Blocks best layouts: time to a proven optimum per objective and setting.

Usage::

    python benchmarks/bench_cityblocks_max.py                  # default + cpsat-proof, ~3 min
    python benchmarks/bench_cityblocks_max.py --peers          # + no-hint and direct (slow)
    python benchmarks/bench_cityblocks_max.py --objectives score --seeds 5

Every figure is the wall time of :func:`polytile.puzzles.cityblocks.maximum.max_layout` (model
building included) for blue on the 20x20 starting board, median over ``--seeds`` seeds,
CP-SAT on ``--workers`` workers. The settings, measured in the same run:

``default``
    greedy hint, closed-form bound as the objective's upper end, tree cut, presolve off.
``cpsat-proof``
    the same without the closed-form bound: CP-SAT's own (LP) bound must reach the optimum.
``no-hint`` (``--peers``)
    closed-form bound, no hint: CP-SAT must find a layout meeting the bound by itself.
``direct`` (``--peers``)
    no hint, no bound, no tree cut, CP-SAT presolve on: the plain placement model.

A run that does not prove the optimum within its limit counts as the limit, printed with
``>`` (its ratio is then a lower bound), along with the best value and bound it reached.
Ratios are against ``default``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from polytile.board import placements
from polytile.models.cityblocks import greedy_placements
from polytile.puzzles.cityblocks.maximum import _setup, max_layout, theoretical_bound

SETTINGS: dict[str, dict[str, Any]] = {
    "default": {},
    "cpsat-proof": {"use_bound": False},
    "no-hint": {"hint": False},
    "direct": {
        "use_bound": False,
        "hint": False,
        "tree_cut": False,
        "parameters": {"cp_model_presolve": True},
    },
}


def run(objective: str, setting: str, seed: int, workers: int, limit: float) -> dict[str, Any]:
    t = time.perf_counter()
    r = max_layout(
        "blue", objective, workers=workers, seed=seed, time_limit=limit, **SETTINGS[setting]
    )
    return {
        "seconds": time.perf_counter() - t,
        "proven": r.status == "optimal",
        "value": r.value,
        "bound": r.bound,
        "proof": r.proof,
    }


def greedy_seconds(objective: str, seeds: int) -> tuple[float, list[int]]:
    setup = _setup("blue", None, None, None)
    board = setup.board
    pl = placements(board, setup.hand)
    own = [board.index(*c) for c in setup.own]
    times, values = [], []
    from polytile.puzzles.cityblocks.maximum import _apply, measure

    for seed in range(seeds):
        t = time.perf_counter()
        ids = greedy_placements(pl, own, objective, start=setup.start, seed=seed)
        times.append(time.perf_counter() - t)
        area, free = measure(_apply(setup, pl, ids), "blue")
        values.append({"score": area + free, "area": area, "free": free}[objective])
    return statistics.median(times), values


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--objectives", default="score,area,free")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--limit", type=float, default=120, help="seconds per default/cpsat-proof run")
    ap.add_argument("--peers", action="store_true", help="also run no-hint and direct")
    ap.add_argument("--peer-limit", type=float, default=120, help="seconds per peer run")
    ap.add_argument("--peer-seeds", type=int, default=1)
    args = ap.parse_args()
    settings = ["default", "cpsat-proof"] + (["no-hint", "direct"] if args.peers else [])
    bound = theoretical_bound("blue")
    print(f"closed-form bounds (blue, starting board): score {bound.score}, "
          f"area {bound.area}, free {bound.free}")  # fmt: skip
    print(f"{'objective':<9} {'setting':<12} {'median s':>9} {'ratio':>7}  {'proven':>6}  "
          f"values / bounds")  # fmt: skip
    for objective in args.objectives.split(","):
        g_time, g_values = greedy_seconds(objective, args.seeds)
        print(f"{objective:<9} {'greedy':<12} {g_time:9.2f} {'':>7}  {'':>6}  values {g_values}")
        base = None
        for setting in settings:
            peer = setting in ("no-hint", "direct")
            limit = args.peer_limit if peer else args.limit
            seeds = args.peer_seeds if peer else args.seeds
            rows = []
            for seed in range(seeds):
                print(f"  {objective} {setting} seed {seed}...", file=sys.stderr, flush=True)
                rows.append(run(objective, setting, seed, args.workers, limit))
            med = statistics.median(r["seconds"] if r["proven"] else limit for r in rows)
            unproven = any(not r["proven"] for r in rows)
            if base is None:
                base = med
            mark = ">" if unproven else " "
            ratio = med / base if base else float("nan")
            print(
                f"{objective:<9} {setting:<12} {mark}{med:8.2f} {mark}{ratio:6.1f}  "
                f"{sum(r['proven'] for r in rows)}/{len(rows):<4}  "
                f"{[r['value'] for r in rows]} / {[r['bound'] for r in rows]}",
                flush=True,
            )


if __name__ == "__main__":
    main()
