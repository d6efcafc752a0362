"""Time exact City Blocks (Henning) endgames, this tree against an earlier commit in one run.

Positions: for each seed, a random game (uniform legal moves) played until both reserves are
empty and exactly ``--empty`` blocks are left (the issue's figure: 4 empty blocks, under 0.5
s for the whole search). Each position is saved as a ``polytile/henning@1`` position file and
solved (value and every optimal move, as ``polytile solve-endgame`` does) by this tree and,
with ``--compare REV``, by the code of commit REV (a temporary git worktree, its own
process), alternating which goes first; best of two runs per position. The values and the
optimal move sets must agree.

Run: ``python benchmarks/bench_henning_endgame.py [--seeds N] [--empty E] [--compare REV]``.
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

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
_SOLVE = """
import json, sys, time
from polytile.puzzles.henning.endgame import EndgameStopped, solve_endgame
from polytile.puzzles.henning.files import load_henning
limit = float(sys.argv[1])
for path in sys.argv[2:]:
    game = load_henning(path).state
    started = time.perf_counter()
    try:
        r = solve_endgame(game, time_limit=limit)
        out = {"value": r.value, "best": sorted(map(str, r.best_moves)), "nodes": r.nodes}
    except EndgameStopped as stop:
        out = {"value": None, "best": None, "nodes": stop.nodes}
    out["seconds"] = time.perf_counter() - started
    print(json.dumps(out), flush=True)
"""


def late(seed: int, empty: int):  # type: ignore[no-untyped-def]
    """A random game at the first moment both reserves are empty with ``empty`` blocks left,
    or None."""
    from polytile.puzzles.henning.rules import Henning

    g = Henning.new(seed)
    rng = np.random.default_rng(seed)
    while not g.is_over():
        if g.reserve_size(0) == 0 == g.reserve_size(1) and g.empty == empty:
            return g
        g.push_legal(g.random_move(rng))
    return None


def run(tree: Path, files: list[str], limit: float) -> list[dict]:  # type: ignore[type-arg]
    """Solve ``files`` with the code of ``tree`` in a fresh process (the first file twice,
    so imports are not timed)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, "-c", _SOLVE, str(limit), files[0], *files]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd=tree)
    return [json.loads(line) for line in out.stdout.splitlines()[1:]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="positions to solve")
    parser.add_argument("--empty", type=int, default=4, help="empty blocks left")
    parser.add_argument("--time-limit", type=float, default=120.0)
    parser.add_argument("--compare", metavar="REV", help="also time the code of commit REV")
    args = parser.parse_args()
    from polytile.puzzles.henning.files import dumps_position

    tmp = Path(tempfile.mkdtemp(prefix="bench-henning-endgame-"))
    files, seed = [], 0
    while len(files) < args.seeds and seed < 100 * args.seeds:
        game = late(seed, args.empty)
        if game is not None:
            path = tmp / f"seed-{seed}.json"
            path.write_text(dumps_position(game))
            files.append(str(path))
        seed += 1
    trees = {"this tree": ROOT}
    if args.compare:
        before = tmp / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(before),
                        args.compare], check=True, capture_output=True)  # fmt: skip
        trees[f"commit {args.compare}"] = before
    results: dict[str, list[dict]] = {}  # type: ignore[type-arg]
    try:
        names = list(trees)
        for i in range(2):  # alternate which tree goes first; best of two per position
            for name in names if i == 0 else names[::-1]:
                started = time.perf_counter()
                got = run(trees[name], files, args.time_limit)
                if name in results:
                    for old, new in zip(results[name], got, strict=True):
                        old["seconds"] = min(old["seconds"], new["seconds"])
                else:
                    results[name] = got
                print(f"{name}: {time.perf_counter() - started:.1f} s for the batch", flush=True)
    finally:
        if args.compare:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(tmp / "before")], capture_output=True)  # fmt: skip
    print(f"\n{len(files)} positions, both reserves empty, {args.empty} empty blocks; value and "
          "every optimal move; best of 2 runs per position")  # fmt: skip
    print(f"{'code':<22}{'solved':>8}{'median s':>10}{'max s':>8}{'median nodes':>14}{'ratio':>7}")
    base = None
    for name, rows in results.items():
        secs = [r["seconds"] for r in rows]
        nodes = [r["nodes"] for r in rows]
        solved = sum(r["value"] is not None for r in rows)
        med = statistics.median(secs)
        base = base or med
        print(f"{name:<22}{solved:>5}/{len(rows):<2}{med:>10.3f}{max(secs):>8.2f}"
              f"{statistics.median(nodes):>14,.0f}{med / base:>6.2f}x")  # fmt: skip
    if args.compare:
        a, b = results.values()
        same = all(
            (x["value"], x["best"]) == (y["value"], y["best"])
            for x, y in zip(a, b, strict=True)
            if x["value"] is not None and y["value"] is not None
        )
        print("values and optimal moves agree" if same else "VALUES DIFFER")
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
