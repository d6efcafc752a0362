"""Exact Blokus Duo endgames from far back: 10 and 14 plies before the end of self-play games.

Positions (issue #18): for each seed, a self-played Duo game (uniform legal moves, but among
the biggest pieces only three times in four, as people play) taken back 10 or 14 plies from
its last move. They are kept in ``benchmarks/blokus-deep.json`` (``--make`` writes it again
from the same seeds). Each position is solved exactly (``solve_endgame`` with no piece limit
and ``--limit`` seconds) by this tree and, with ``--compare REV``, by the code of commit REV
(a temporary git worktree, its own process; the runner is ``bench_blokus_endgame.run``). Per
position: solved or not, the value, positions searched (deterministic: compare these on a
busy machine) and seconds; then solved counts and median and worst times per set. Values
solved by both must agree.

``--kernel`` times the compiled search alone instead (``kernel_line`` with one thread, so
that positions searched repeat; no Python search first, no replay), in CPU seconds as well,
and adds its positions per CPU second; ``--rounds N`` solves everything N times, the trees
in turns, keeping each position's least time (the figures of issue 38, on a shared machine).

Run: ``python benchmarks/bench_blokus_deep.py [--plies 10 14] [--limit S] [--compare REV]
[--kernel] [--rounds N] [--make]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
POSITIONS = HERE / "blokus-deep.json"
sys.path.insert(0, str(HERE))
from bench_blokus_endgame import run  # noqa: E402  (the shared runner of a tree's solver)

_KERNEL = """
import json, sys, time
from polytile.formats import load_position
from polytile.puzzles.blokus.endgame_kernel import KernelStopped, kernel_line
from polytile.puzzles.blokus.rules import Blokus
import polytile.puzzles.blokus._endgame_search  # compiled (or loaded) before any timing
limit, threads = float(sys.argv[1]), int(sys.argv[2])
games = [Blokus.from_position(load_position(path)) for path in sys.argv[3:]]
kernel_line(games[0], [1, -1], [True, False], threads=1)  # the first call's own costs
for game in games:
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        value, _, nodes = kernel_line(game, [1, -1], [True, False], threads=threads,
                                      deadline=wall + limit)
    except KernelStopped as stop:
        value, nodes = None, stop.nodes
    print(json.dumps({"value": value, "nodes": nodes, "seconds": time.perf_counter() - wall,
                      "cpu": time.process_time() - cpu}), flush=True)
"""


def run_kernel(tree: Path, files: list[str], limit: float,
               threads: int = 1) -> list[dict[str, float | None]]:  # fmt: skip
    """The compiled search alone on ``files`` with the code of ``tree``, in a fresh process,
    with ``threads`` threads (one by default, so that the positions searched repeat)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, "-c", _KERNEL, str(limit), str(threads), *files]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd=tree)
    return [json.loads(line) for line in out.stdout.splitlines()]


def self_play(seed: int):  # type: ignore[no-untyped-def]
    """A whole Duo game: uniform legal moves, among the biggest pieces three times in four."""
    from polytile.puzzles.blokus.rules import Blokus

    game = Blokus("duo", 2)
    rng = np.random.default_rng(seed)
    while moves := game.legal_moves():
        if rng.random() < 0.75:
            biggest = max(len(m.cells) for m in moves)
            moves = [m for m in moves if len(m.cells) == biggest]
        game.push(moves[int(rng.integers(len(moves)))])
    return game


def make(seeds: int, plies: list[int]) -> dict[str, list[dict]]:  # type: ignore[type-arg]
    """``seeds`` positions per number of plies back, from seeds 0, 1, ..."""
    from polytile.formats import dumps

    out: dict[str, list[dict]] = {str(p): [] for p in plies}  # type: ignore[type-arg]
    for seed in range(seeds):
        game = self_play(seed)
        for p in plies:
            back = game.copy()
            for _ in range(p):
                back.pop()
            doc = json.loads(dumps(back.to_position()))
            out[str(p)].append({"seed": seed, "position": doc})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, nargs="+", default=[10, 14])
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per position")
    parser.add_argument("--only", type=int, nargs="+", help="these seeds only")
    parser.add_argument("--compare", metavar="REV", help="also solve with the code of REV")
    parser.add_argument("--kernel", action="store_true",
                        help="time the compiled search alone, one thread")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=1,
                        help="solve all N times, keep the least times")  # fmt: skip
    parser.add_argument("--make", action="store_true", help="write the positions again")
    parser.add_argument("--seeds", type=int, default=12, help="with --make: games")
    args = parser.parse_args()
    if args.make:
        POSITIONS.write_text(json.dumps(make(args.seeds, [10, 14]), indent=None) + "\n")
    sets = json.loads(POSITIONS.read_text())
    tmp = Path(tempfile.mkdtemp(prefix="bench-blokus-deep-"))
    files: dict[int, list[tuple[int, str]]] = {}
    for p in args.plies:
        for row in sets[str(p)]:
            if args.only and row["seed"] not in args.only:
                continue
            path = tmp / f"p{p}-seed-{row['seed']}.json"
            path.write_text(json.dumps(row["position"]))
            files.setdefault(p, []).append((row["seed"], str(path)))
    trees = {"this tree": ROOT}
    if args.compare:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tmp / "old"),
                        args.compare], check=True, capture_output=True)  # fmt: skip
        trees[args.compare] = tmp / "old"
    try:
        failed = False
        for p, rows in files.items():
            paths = [f for _, f in rows]
            solve = run_kernel if args.kernel else run
            got: dict[str, list[dict[str, float | None]]] = {}
            for i in range(args.rounds):  # the trees in turns
                for name in list(trees)[:: 1 if i % 2 == 0 else -1]:
                    res = solve(trees[name], paths, args.limit)
                    if name in got:
                        for old, new in zip(got[name], res, strict=True):
                            for key in ("seconds", "cpu"):
                                if key in new:
                                    old[key] = min(old[key] or 0.0, new[key] or 0.0)
                    else:
                        got[name] = res
            print(f"\n{p} plies before the end, {len(rows)} positions, limit {args.limit:g} s")
            print(f"{'seed':>5}" + "".join(f"{name[:10]:>12}{'nodes':>12}{'s':>8}" for name in got))
            for i, (seed, _) in enumerate(rows):
                cells = [got[name][i] for name in got]
                text = "".join(f"{'-' if r['value'] is None else r['value']:>12}{r['nodes']:>12,}"
                               f"{r['seconds']:>8.2f}" for r in cells)  # fmt: skip
                values = {r["value"] for r in cells if r["value"] is not None}
                failed |= len(values) > 1
                print(f"{seed:>5}{text}{'  VALUES DIFFER' if len(values) > 1 else ''}")
            for name, res in got.items():
                secs = [r["seconds"] for r in res]
                solved = sum(r["value"] is not None for r in res)
                print(f"{name}: {solved}/{len(res)} solved, median {statistics.median(secs):.2f} "
                      f"s, worst {max(secs):.2f} s, median nodes "
                      f"{statistics.median(r['nodes'] for r in res):,.0f}")  # fmt: skip
                if args.kernel:
                    nodes, cpu = sum(r["nodes"] or 0 for r in res), sum(r["cpu"] or 0 for r in res)
                    rates = [(r["nodes"] or 0) / max(r["cpu"] or 0, 1e-9) for r in res]
                    print(f"  {nodes:,} positions in {cpu:.2f} CPU s: {nodes / cpu:,.0f} a CPU "
                          f"second (median of the positions' rates "
                          f"{statistics.median(rates):,.0f})")  # fmt: skip
    finally:
        if args.compare:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(tmp / "old")], capture_output=True)  # fmt: skip
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
