"""Benchmark the "eighty-four" teaser: model sizes, the direct CP-SAT models, the hybrid search.

Usage::

    python benchmarks/bench_teasers.py                   # sizes, hybrid, one-colour (~1 min)
    python benchmarks/bench_teasers.py --sweep           # + hybrid settings compared
    python benchmarks/bench_teasers.py --direct-limit 60 --four-square-limit 60   # slow peers

Every timing is a median over ``--seeds`` seeds, with CP-SAT on ``--workers`` workers. The
peers measured in the same run are the direct CP-SAT models (all 84 pieces, and blue alone
under the symmetry); ratios are printed against the default hybrid search. A direct model
that finds nothing counts as its time limit, so its ratio is a lower bound.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from polytile import Board
from polytile.board import placements
from polytile.geometry import piece_set
from polytile.models.cpsat import (
    PlacementModel,
    add_connected_corner_groups,
    add_cover_at_most,
    add_cover_exactly,
    add_local_corner_touch,
    add_no_edge_same_color,
    add_piece_exactly_once,
    add_start_corners,
)
from polytile.puzzles.blokus.eighty_four import (
    greedy_start,
    layout_model,
    search_layout,
    solve_eighty_four,
    solve_one_color,
    symmetric_layout,
)
from polytile.puzzles.blokus.teasers import START_CORNERS
from polytile.solvers.cpsat import solve


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def med(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def direct_full_model() -> PlacementModel:
    """All 84 pieces, 4 colours, full rules, flow connectivity: the known-hard formulation."""
    pieces = list(piece_set("blokus")) * 4
    colors = [k for k in range(4) for _ in range(21)]
    pm = PlacementModel(placements(Board(20, 20), pieces), colors)
    add_piece_exactly_once(pm)
    add_cover_at_most(pm)
    add_no_edge_same_color(pm)
    starts = dict(enumerate(START_CORNERS.values()))
    add_start_corners(pm, starts)
    add_connected_corner_groups(pm, roots=starts)
    return pm


def four_square_model(method: str, rows: int = 8, cols: int = 10) -> PlacementModel:
    """Four-square "connected"; on 8x8 the variant without I4 (288 raw solutions)."""
    tet = [p for p in piece_set("tetrominoes") if cols == 10 or p.name != "I4"]
    pm = PlacementModel(placements(Board(rows, cols), tet * 4), [k for k in range(4) for _ in tet])
    add_piece_exactly_once(pm)
    add_cover_exactly(pm)
    add_no_edge_same_color(pm)
    add_local_corner_touch(pm)
    add_connected_corner_groups(pm, method=method)  # type: ignore[arg-type]
    return pm


def size_line(label: str, pm: PlacementModel, build: float) -> None:
    s = pm.size_stats()
    print(
        f"  {label:<34} {s['placements']:>7,} placement booleans, {s['variables']:>7,} "
        f"variables, {s['constraints']:>7,} constraints, built in {build:.2f} s"
    )


def hybrid(args: argparse.Namespace, **kw: Any) -> dict[str, float]:
    layout = symmetric_layout()
    total, attempts, completions, cps = [], [], [], []
    for seed in range(args.seeds):
        r = search_layout(layout, seed=seed, workers=args.workers, time_limit=args.limit, **kw)
        total.append(r.seconds)
        attempts.append(r.attempts)
        completions.append(r.completions)
        cps.append(r.cpsat_seconds)
    return {
        "median": med(total),
        "max": max(total),
        "attempts": med(attempts),
        "completions": med(completions),
        "cpsat": med(cps),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--limit", type=float, default=300, help="time limit per hybrid run")
    ap.add_argument("--direct-limit", type=float, default=0, help="seconds per direct solve")
    ap.add_argument("--four-square-limit", type=float, default=0, help="flow vs depth, seconds")
    ap.add_argument("--peer-seeds", type=int, default=3, help="seeds for the slow peers")
    ap.add_argument("--sweep", action="store_true", help="compare hybrid settings")
    args = ap.parse_args()

    print("model sizes")
    full, t_full = timed(direct_full_model)
    size_line("direct, 84 pieces, 4 colours", full, t_full)
    symmetric_layout.cache_clear()
    layout, t_layout = timed(symmetric_layout)
    print(f"  symmetric layout tables: {len(layout.ids):,} placements, built in {t_layout:.2f} s")
    sym, t_sym = timed(lambda: layout_model(layout))
    size_line("direct, blue only, symmetric", sym, t_sym)
    import random

    rng = random.Random(0)
    residual = []
    for _ in range(20):
        start = greedy_start(layout, 12, rng)
        if start is not None:
            residual.append(timed(lambda s=start: layout_model(layout, s)))
    s0 = [pm.size_stats() for pm, _ in residual]
    print(
        f"  {'hybrid completion after 12 pieces':<34} "
        f"{med([s['placements'] for s in s0]):>7,.0f} placement booleans, "
        f"{med([s['variables'] for s in s0]):>7,.0f} variables, "
        f"{med([s['constraints'] for s in s0]):>7,.0f} constraints, built in "
        f"{med([t for _, t in residual]):.2f} s (medians of {len(residual)} starts)"
    )

    print(f"\neighty-four, hybrid (greedy 12 pieces + CP-SAT, depth labels), {args.seeds} seeds")
    base = hybrid(args)
    print(
        f"  median {base['median']:.2f} s (max {base['max']:.2f}), starts {base['attempts']:.0f}, "
        f"completions {base['completions']:.0f}, CP-SAT {base['cpsat']:.2f} s"
    )
    ends = [timed(lambda s=s: solve_eighty_four(seed=s, workers=args.workers))[1]
            for s in range(args.seeds)]  # fmt: skip
    print(f"  solve_eighty_four end to end (search, order, check): median {med(ends):.2f} s")

    if args.sweep:
        print("\nhybrid settings (ratio = median / default median)")
        variants: list[tuple[str, dict[str, Any]]] = [
            *((f"greedy {g} pieces", {"greedy_pieces": g}) for g in (8, 10, 11, 13)),
            ("completion limit 2 s", {"completion_limit": 2.0}),
            ("completion limit 10 s", {"completion_limit": 10.0}),
            ("no local-touch clauses", {"local_touch": False}),
            ("flow instead of depth labels", {"method": "flow"}),
        ]
        for label, kw in variants:
            r = hybrid(args, **kw)
            print(
                f"  {label:<30} median {r['median']:6.2f} s  x{r['median'] / base['median']:5.2f}"
                f"  starts {r['attempts']:.0f}, completions {r['completions']:.0f}"
            )
        one = argparse.Namespace(**{**vars(args), "workers": 1})
        r = hybrid(one)
        print(
            f"  {'CP-SAT on 1 worker':<30} median {r['median']:6.2f} s  "
            f"x{r['median'] / base['median']:5.2f}"
        )

    if args.direct_limit > 0:
        print(f"\ndirect CP-SAT models, {args.direct_limit:g} s each")
        for label, pm in (("blue only, symmetric", sym), ("84 pieces, 4 colours", full)):
            times = []
            for seed in range(args.peer_seeds):
                r = solve(pm, time_limit=args.direct_limit, workers=args.workers, seed=seed)
                times.append(r.seconds if r.found else args.direct_limit)
                print(f"    {label}: seed {seed} {r.status} {r.seconds:.1f} s", flush=True)
            print(f"  {label:<30} median {med(times):.1f} s  x{med(times) / base['median']:.1f}+")

    if args.four_square_limit > 0:
        limit = args.four_square_limit
        for rows, cols in ((8, 8), (8, 10)):
            print(
                f"\nfour-square connected {rows}x{cols}, flow vs depth, first solution, {limit:g} s"
            )
            for method in ("flow", "depth"):
                pm, build = timed(lambda m=method, r=rows, c=cols: four_square_model(m, r, c))
                times = []
                for seed in range(args.seeds if rows == 8 else args.peer_seeds):
                    r = solve(pm, time_limit=limit, workers=args.workers, seed=seed)
                    times.append(r.seconds if r.found else limit)
                found = sum(t < limit for t in times)
                size_line(method, pm, build)
                print(f"    found {found}/{len(times)}, median {med(times):.1f} s")

    print(f"\none colour on 14x14, {args.seeds} seeds")
    ones = [timed(lambda s=s: solve_one_color(14, seed=s, workers=args.workers))[1]
            for s in range(args.seeds)]  # fmt: skip
    print(f"  median {med(ones):.2f} s (max {max(ones):.2f})")


if __name__ == "__main__":
    main()
