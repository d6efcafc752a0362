"""The compiled search against an earlier commit, whole command, in one run (issue 47: the
piece supplies must leave the search on exact supplies no slower).

Each tree (this one, and commit REV from ``git archive``) counts the pentomino catalogue
puzzles with ``python -m polytile count NAME --workers 1 --json``, forced to the search
engine where the tree has the option, in a fresh process with its own numba cache (warmed
by one untimed run first). The trees take turns run by run, so both meet the same
machine; the table gives medians and this tree's time over REV's.

Run: ``python benchmarks/bench_search_compare.py --compare 713dfb8^ [--runs 5]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _trees import extract

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ("pentomino-4x15", "pentomino-5x12", "pentomino-6x10", "pentomino-8x8-hole")


def _has_engine_option(tree: Path) -> bool:
    return (tree / "polytile" / "solvers" / "frontier.py").exists()


def run(tree: Path, cache: str, name: str) -> tuple[float, int]:
    """Wall time and count of one whole command on ``tree``."""
    args = [sys.executable, "-m", "polytile", "count", name, "--workers", "1", "--json"]
    if _has_engine_option(tree):
        args += ["--engine", "search"]
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=cache)
    start = time.perf_counter()
    done = subprocess.run(args, env=env, capture_output=True, text=True,
                          cwd=tempfile.gettempdir(), check=True)  # fmt: skip
    seconds = time.perf_counter() - start
    return seconds, int(json.loads(done.stdout)["count"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", metavar="REV", required=True)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-search-") as folder:
        trees = {"this tree": ROOT, args.compare: extract(args.compare, Path(folder) / "old")}
        caches = {label: str(Path(folder) / f"cache-{i}") for i, label in enumerate(trees)}
        times: dict[tuple[str, str], list[float]] = {}
        for name in PUZZLES:
            counts = {label: run(tree, caches[label], name)[1] for label, tree in trees.items()}
            if len(set(counts.values())) != 1:
                raise SystemExit(f"{name}: the trees count differently: {counts}")
            for r in range(args.runs):
                order = list(trees.items())
                if r % 2:
                    order.reverse()
                for label, tree in order:
                    times.setdefault((name, label), []).append(run(tree, caches[label], name)[0])
            print(f"{name}: done", file=sys.stderr, flush=True)
    print(f"| puzzle | this tree s | {args.compare} s | ratio |")
    print("| --- | ---: | ---: | ---: |")
    for name in PUZZLES:
        new = statistics.median(times[name, "this tree"])
        old = statistics.median(times[name, args.compare])
        print(f"| {name} | {new:.3f} | {old:.3f} | {new / old:.2f} |")


if __name__ == "__main__":
    main()
