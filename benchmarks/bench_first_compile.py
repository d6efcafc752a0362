"""The first compile after installing (#36 item 8): how long each compiled engine takes to
compile when numba's cache is empty, as a user's first run meets it.

Each engine runs on a small problem in a fresh interpreter whose ``NUMBA_CACHE_DIR`` is a new
empty folder (``cold``: imports, numba's compile, the run), then once more in another fresh
interpreter with that cache (``warm``: imports, loading the compiled code, the run); the
compile is ``cold - warm``. Engines:

- ``blokus-endgame``: the Blokus exact endgame search (``polytile.puzzles.blokus.warm``)
- ``henning-kernel``: the City Blocks (Henning) exact search (``...henning.kernel``)
- ``tiling``: the tiling searches and the exact-cover kernel (``polytile count pentomino-3x20
  --engine search``: the count would take the frontier engine, in numpy there, since issue 46;
  an older commit without ``--engine`` runs the plain command)
- ``gridblock-solo``: the Gridblock solitaire branch and bound (``solve gridblock-solo``)
- ``walkable-path``: the Walkable Cities largest-path search (``solve walkable-path``)
- ``walkable-phase``: the Walkable Cities drop-phase best responses (``...walkable.phase``)

With ``--compare REV`` the same runs use the code of commit REV too (``git archive`` into a
temporary folder), alternating which code goes first, so both meet the same machine. The goal
of the issue: each engine's first compile under 10 s on the 2-core machine. Measure on a quiet
machine: a compile is CPU-bound, and a busy machine stretches it.

Run: ``python benchmarks/bench_first_compile.py [--engines henning-kernel,tiling] [--runs 1]
[--compare REV]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _trees import extract

ROOT = Path(__file__).resolve().parent.parent

#: Each engine: the Python run in a fresh interpreter (the tree's polytile on its path).
ENGINES: dict[str, str] = {
    "blokus-endgame": "from polytile.puzzles.blokus.warm import warm_up; warm_up()",
    "henning-kernel": "from polytile.puzzles.henning.kernel import warm_up; warm_up()",
    "tiling": "import polytile.solvers.counting as c; from polytile.cli import cli; "
    "cli(['count', 'pentomino-3x20', '--workers', '1']"
    " + (['--engine', 'search'] if hasattr(c, 'choose_engine') else []))",
    "gridblock-solo": "from polytile.cli import cli; cli(['solve', 'gridblock-solo', "
    "'--seed', '1', '--time-limit', '600'])",
    "walkable-path": "from polytile.cli import cli; cli(['solve', 'walkable-path', "
    "'--seed', '1', '--pieces', '2', '--time-limit', '600'])",
    "walkable-phase": "from polytile.puzzles.walkable.phase import warm_up; warm_up()",
}


def _run(tree: Path, code: str, cache: str) -> float:
    """Wall time of ``code`` in a fresh interpreter on ``tree`` with numba's cache at
    ``cache``; a failing run stops the benchmark."""
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=cache)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          cwd=tempfile.gettempdir(), timeout=1800)  # fmt: skip
    seconds = time.perf_counter() - start
    # 1: a search not proven in its limit still compiled; but an uncaught error exits 1 too
    if done.returncode not in (0, 1) or b"Traceback (most recent call last)" in done.stderr:
        raise SystemExit(f"{tree}: {code!r} failed:\n{done.stderr.decode()[-2000:]}")
    return seconds


def measure(tree: Path, code: str) -> tuple[float, float]:
    """(cold, warm) wall times of one engine on ``tree``."""
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        return _run(tree, code, cache), _run(tree, code, cache)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--compare", metavar="REV")
    args = parser.parse_args()
    names = [n for n in args.engines.split(",") if n]
    unknown = [n for n in names if n not in ENGINES]
    if unknown:
        raise SystemExit(f"unknown engines {unknown}; known: {', '.join(ENGINES)}")
    with tempfile.TemporaryDirectory(prefix="bench-compile-") as folder:
        trees = {"this tree": ROOT}
        if args.compare:
            trees[args.compare] = extract(args.compare, Path(folder))
        results: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for name in names:
            for run in range(args.runs):
                order = list(trees.items())
                if run % 2:
                    order.reverse()
                for label, tree in order:
                    cold, warm = measure(tree, ENGINES[name])
                    results.setdefault((name, label), []).append((cold, warm))
                    print(f"{name:16} {label:10} cold {cold:6.1f} s  warm {warm:5.1f} s",
                          file=sys.stderr, flush=True)  # fmt: skip
    print(f"{'engine':16} {'code':10} {'cold':>7} {'warm':>6} {'compile':>8}  (medians, s)")
    for (name, label), runs in results.items():
        cold = statistics.median(c for c, _ in runs)
        warm = statistics.median(w for _, w in runs)
        print(f"{name:16} {label:10} {cold:7.1f} {warm:6.1f} {cold - warm:8.1f}")


if __name__ == "__main__":
    main()
