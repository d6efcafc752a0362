"""How far more threads would take the Blokus endgame search (#38, item 3), by simulation on
a machine with fewer cores.

The compiled search (``kernel_line``) runs its threads ABDADA-style on one shared
transposition table, and the first thread to finish answers; ``nodes`` counts the positions
of every thread. On ``N`` cores each thread searches at about the one-thread rate, so the
search takes about ``nodes(N) / N`` positions' time, against ``nodes(1)`` for one thread:
the speed-up ``N * nodes(1) / nodes(N)``, what the threads' duplicated and wasted work
leaves of ``N``. With more threads than cores the operating system shares the cores out
evenly, which slows every thread alike and so keeps the order in which they meet the table
about as ``N`` cores would (the simulation); what it cannot show is the memory bandwidth
that ``N`` real cores would share. The wall time is printed too: it is the real speed-up
only while ``N`` is at most the number of cores.

Each thread count solves the twelve 10-ply Duo positions of ``blokus-deep.json`` (the set
of ``bench_blokus_deep.py``) in a fresh process, ``--rounds`` times in turns; with more
than one thread the positions searched change from run to run, so each position keeps the
median of its rounds. Values must agree across thread counts.

Run: ``python benchmarks/bench_blokus_threads.py [--threads 1 2 3 4] [--rounds 3]
[--plies 10]``. Measure on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
POSITIONS = HERE / "blokus-deep.json"

sys.path.insert(0, str(HERE))
from bench_blokus_deep import run_kernel  # noqa: E402  (the kernel harness, in a fresh process)

#: Seconds each position may take: far more than any 10-ply one needs.
LIMIT = 600.0


def solve(threads: int, files: list[str]) -> list[dict[str, float]]:
    """Every position of ``files`` solved with ``threads`` threads, in a fresh process."""
    return run_kernel(ROOT, files, LIMIT, threads)  # type: ignore[return-value]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--plies", type=int, default=10, choices=(10, 14))
    args = parser.parse_args()
    rows = json.loads(POSITIONS.read_text())[str(args.plies)]
    tmp = Path(tempfile.mkdtemp(prefix="bench-blokus-threads-"))
    files = []
    for row in rows:
        path = tmp / f"seed-{row['seed']}.json"
        path.write_text(json.dumps(row["position"]))
        files.append(str(path))
    runs: dict[int, list[list[dict[str, float]]]] = {n: [] for n in args.threads}
    for i in range(args.rounds):  # the thread counts in turns
        for n in args.threads[:: 1 if i % 2 == 0 else -1]:
            runs[n].append(solve(n, files))
            print(f"round {i + 1}, {n} thread(s) done", file=sys.stderr, flush=True)
    med = {n: [{k: statistics.median(r[j][k] for r in rs) for k in ("nodes", "seconds", "cpu")}
               for j in range(len(files))] for n, rs in runs.items()}  # fmt: skip
    failed = False
    for j, row in enumerate(rows):
        values = {r[j]["value"] for rs in runs.values() for r in rs}
        if len(values) > 1:
            print(f"seed {row['seed']}: VALUES DIFFER {sorted(values)}")
            failed = True
    print(f"\n{args.plies} plies before the end, {len(rows)} Duo positions, {args.rounds} rounds, "
          f"{os.cpu_count()} cores; per position the median of its rounds")  # fmt: skip
    print(f"{'seed':>5}" + "".join(f"{f'nodes {n}t':>13}" for n in args.threads))
    for j, row in enumerate(rows):
        print(f"{row['seed']:>5}" + "".join(f"{med[n][j]['nodes']:>13,.0f}" for n in args.threads))
    one = args.threads[0]
    base = sum(r["nodes"] for r in med[one])
    print(f"\n{'threads':>7}{'positions':>13}{'vs ' + str(one):>8}{'simulated':>11}"
          f"{'wall s':>9}{'CPU s':>8}")  # fmt: skip
    for n in args.threads:
        nodes = sum(r["nodes"] for r in med[n])
        wall = sum(r["seconds"] for r in med[n])
        cpu = sum(r["cpu"] for r in med[n])
        speed = n * base / nodes / one
        print(f"{n:>7}{nodes:>13,.0f}{nodes / base:>8.2f}{speed:>10.2f}x{wall:>9.2f}{cpu:>8.2f}")
    print(
        "\nsimulated: N * positions(1 thread) / positions(N threads), the speed-up on N "
        "cores if each thread keeps the one-thread rate"
    )
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
