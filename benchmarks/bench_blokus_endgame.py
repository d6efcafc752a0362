"""Time exact Blokus endgames, this tree against an earlier commit in the same run.

Positions: for each seed, a random 2-player game (the biggest pieces half the time) played
until no player can still place more than ``--high`` pieces while both can place ``--low`` or
more (``endgame.endgame_size``). Every position is solved by this tree's ``solve_endgame``
and, with ``--compare REV``, by the code of commit REV (checked out in a temporary git
worktree and run in its own process, positions passed as files), alternating which goes
first. The values must agree; the table gives solved counts, median and worst times and
positions searched, and the ratio of medians.

Run: ``python benchmarks/bench_blokus_endgame.py [--variant duo|classic] [--seeds N]
[--low L] [--high H] [--compare REV]``. ``--compare 8d03de8`` is the last commit before the
searches moved onto the generic alpha-beta.
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
from polytile.formats import load_position
from polytile.puzzles.blokus.endgame import EndgameStopped, solve_endgame
from polytile.puzzles.blokus.rules import Blokus
try:  # compile (or load) the tree's compiled endgame search before any timing
    import polytile.puzzles.blokus._endgame_search
except ImportError:  # a tree from before it
    pass
limit = float(sys.argv[1])
for path in sys.argv[2:]:
    game = Blokus.from_position(load_position(path))
    started = time.perf_counter()
    try:
        r = solve_endgame(game, max_pieces=None, time_limit=limit)
        out = {"value": r.value, "nodes": r.nodes}
    except EndgameStopped as stop:
        out = {"value": None, "nodes": stop.nodes}
    out["seconds"] = time.perf_counter() - started
    print(json.dumps(out), flush=True)
"""


def contested(variant: str, seed: int, low: int, high: int):  # type: ignore[no-untyped-def]
    from polytile.puzzles.blokus.endgame import endgame_size
    from polytile.puzzles.blokus.rules import Blokus

    game = Blokus(variant, 2)
    rng = np.random.default_rng(seed)
    while not game.is_game_over():
        sizes = sorted(endgame_size(game).values())
        if game.move_stack and sizes[-1] <= high and sizes[0] >= low:
            return game
        moves = game.legal_moves()
        biggest = max(len(m.cells) for m in moves)
        if rng.random() < 0.5:
            moves = [m for m in moves if len(m.cells) == biggest]
        game.push(moves[int(rng.integers(len(moves)))])
    return None


def run(tree: Path, files: list[str], limit: float) -> list[dict[str, float | None]]:
    """Solve ``files`` with the code of ``tree`` in a fresh process (after loading its
    compiled endgame search and a warm-up solve of the first file, so numba's compilation
    is not timed)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, "-c", _SOLVE, str(limit), files[0], *files]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd=tree)
    return [json.loads(line) for line in out.stdout.splitlines()[1:]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="duo", choices=["duo", "classic"])
    parser.add_argument("--seeds", type=int, default=10, help="positions to solve")
    parser.add_argument("--low", type=int, default=5)
    parser.add_argument("--high", type=int, default=6)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--compare", metavar="REV", help="also time the code of commit REV")
    args = parser.parse_args()
    from polytile.formats import save

    tmp = Path(tempfile.mkdtemp(prefix="bench-endgame-"))
    files, seed = [], 0
    while len(files) < args.seeds and seed < 50 * args.seeds:
        game = contested(args.variant, seed, args.low, args.high)
        if game is not None:
            path = tmp / f"seed-{seed}.json"
            save(game.to_position(), path)
            files.append(str(path))
        seed += 1
    trees = {"this tree": ROOT}
    if args.compare:
        before = tmp / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(before),
                        args.compare], check=True, capture_output=True)  # fmt: skip
        trees[f"commit {args.compare}"] = before
    results: dict[str, list[dict[str, float | None]]] = {}
    try:
        names = list(trees)
        for i in range(2 if args.compare else 1):  # alternate which tree goes first
            for name in names if i == 0 else names[::-1]:
                started = time.perf_counter()
                got = run(trees[name], files, args.time_limit)
                if name in results:
                    for old, new in zip(results[name], got, strict=True):
                        old["seconds"] = min(old["seconds"] or 0, new["seconds"] or 0)
                else:
                    results[name] = got
                print(f"{name}: {time.perf_counter() - started:.1f} s for the batch", flush=True)
    finally:
        if args.compare:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(tmp / "before")], capture_output=True)  # fmt: skip
    print(f"\n{args.variant}, {len(files)} positions with {args.low}-{args.high} pieces placeable "
          f"per side; best of {2 if args.compare else 1} runs per position")  # fmt: skip
    print(f"{'code':<22}{'solved':>8}{'median s':>10}{'max s':>8}{'median nodes':>14}{'ratio':>7}")
    base = None
    for name, rows in results.items():
        secs = [r["seconds"] or 0.0 for r in rows]
        nodes = [r["nodes"] or 0 for r in rows]
        solved = sum(r["value"] is not None for r in rows)
        med = statistics.median(secs)
        base = base or med
        print(f"{name:<22}{solved:>5}/{len(rows):<2}{med:>10.3f}{max(secs):>8.2f}"
              f"{statistics.median(nodes):>14,.0f}{med / base:>6.2f}x")  # fmt: skip
    if args.compare:
        a, b = results.values()
        same = all(x["value"] == y["value"] for x, y in zip(a, b, strict=True)
                   if x["value"] is not None and y["value"] is not None)  # fmt: skip
        print("values agree" if same else "VALUES DIFFER")
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
