"""Benchmark the "four-square" teaser's first solution: the whole command, seed by seed.

Usage::

    python benchmarks/bench_four_square.py               # 10 seeds, both touch rules (~1 min)
    python benchmarks/bench_four_square.py --seeds 20 --cpsat-limit 60   # + the CP-SAT engine

Every run is a fresh process, as a user runs it: start-up, imports, loading the compiled
kernel, the search, the rules check and the JSON output all count. Rows, measured in the
same run and compared by their medians:

* ``polytile solve four-square --seed S --json`` (the default: symmetric solutions first);
* the ordinary kernel search alone (``polytile.solvers.tiling.solutions``, which the command
  used before the symmetric searches), in a process doing the same import, check and output;
* with ``--cpsat-limit``: ``--engine cpsat`` (the direct CP-SAT model), capped at that limit
  (a run that finds nothing counts as the limit, so its ratio is a lower bound);
* the fixed cost: the same command on a 3x6 variant that solves at once.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

PLAIN = """
import sys
from polytile.formats import dumps
from polytile.puzzles.tiling.catalogue import resolve
from polytile.solvers.tiling import compile_problem, solutions
spec = resolve("four-square", sys.argv[1], None, None, None)
pl = compile_problem(spec.problem).placements
path = next(solutions(spec.problem, seed=int(sys.argv[2])))
sol = spec.to_solution(pl, path)
assert not spec.check(sol)
print(dumps(sol))
"""


def run(cmd: list[str], limit: float) -> tuple[float, bool]:
    """Seconds the command took and whether it printed a solution (exit 0)."""
    start = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, timeout=limit + 30, check=False)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - start, False
    return time.perf_counter() - start, done.returncode == 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--cpsat-limit", type=float, default=0, help="seconds; 0 skips CP-SAT")
    ap.add_argument("--plain-limit", type=float, default=120, help="seconds per plain run")
    ap.add_argument("--touch", choices=["local", "connected"], action="append")
    args = ap.parse_args()
    polytile = [sys.executable, "-m", "polytile", "solve"]
    # Warm the compiled-kernel cache so that no row pays for compiling it.
    subprocess.run([*polytile, "four-square"], capture_output=True, check=True)
    tiny = [*polytile, "four-square", "--board", "3x6", "--colors", "2", "--pieces", "I2,I3,L4"]
    fixed = [run([*tiny, "--seed", str(s), "--json"], 60)[0] for s in range(args.seeds)]
    print(f"fixed cost (3x6 variant, whole command): median {statistics.median(fixed):.2f} s")
    for touch in args.touch or ["local", "connected"]:
        rows: dict[str, list[float]] = {"polytile (symmetric first)": [], "ordinary search": []}
        if args.cpsat_limit > 0:
            rows["CP-SAT engine"] = []
        failed: dict[str, int] = dict.fromkeys(rows, 0)
        for seed in range(args.seeds):
            cmds = {
                "polytile (symmetric first)": (
                    [*polytile, "four-square", "--touch", touch, "--seed", str(seed), "--json"],
                    600.0,
                ),
                "ordinary search": (
                    [sys.executable, "-c", PLAIN, touch, str(seed)],
                    args.plain_limit,
                ),
                "CP-SAT engine": (
                    [*polytile, "four-square", "--touch", touch, "--seed", str(seed),
                     "--engine", "cpsat", "--time-limit", str(args.cpsat_limit), "--json"],
                    args.cpsat_limit,
                ),
            }  # fmt: skip
            for name in rows:
                cmd, limit = cmds[name]
                seconds, ok = run(cmd, limit)
                rows[name].append(seconds if ok else max(seconds, limit))
                failed[name] += not ok
            print(
                f"  {touch} seed {seed}: "
                + ", ".join(f"{name} {rows[name][-1]:.2f} s" for name in rows),
                flush=True,
            )
        base = statistics.median(rows["polytile (symmetric first)"])
        print(f"\nfour-square --touch {touch}, first verified solution, {args.seeds} seeds:")
        for name, times in rows.items():
            m = statistics.median(times)
            note = f"  ({failed[name]} found nothing: counted as the limit)" if failed[name] else ""
            print(
                f"  {name:28} median {m:6.2f} s  min {min(times):6.2f}  max {max(times):6.2f}"
                f"  ratio {m / base:5.1f}x{note}"
            )
        print()


if __name__ == "__main__":
    main()
