"""Whole-command start-up: how long ``polytile`` takes for small commands, from a fresh process.

Each command runs in a fresh interpreter (``python -m polytile ...``, the same imports as the
console script), five times after one untimed run (which fills numba's cache in a fresh
checkout); the figures are the medians of the whole process's wall time and of its CPU
time (user + system: steadier than the wall time on a busy machine). Commands:

- ``polytile --help``
- ``polytile validate`` of ``examples/pentomino-6x10.json`` (a valid solution)
- ``polytile score`` of a finished City Blocks game (a seeded random game)
- ``polytile solve-endgame`` of a Blokus Duo record 4 plies before its end
  (``examples/duo-endgame.blksgf`` with 5 moves of its best line appended)

Then, per command, ``python -X importtime``: the total import time, the heaviest modules
imported at the top level and which of the heavy libraries (OR-tools, networkx, rich, dask,
numba, scipy) were loaded at all. The issue's goals: ``--help`` under 0.4 s and the small
``solve-endgame`` under 0.8 s.

With ``--compare REV`` the same commands also run on the code of commit REV, extracted into a
temporary folder (as ``bench_henning_endgame.py`` does with a worktree, but through ``git
archive``, which leaves the repository untouched), alternating which code goes first in each
round. The inputs are made once, by this tree, and read by both.

Run: ``python benchmarks/bench_startup.py [--runs 5] [--compare REV]``.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("ortools", "networkx", "rich", "dask", "numba", "scipy")
#: Five more moves of the best line of examples/duo-endgame.blksgf: 4 plies are left after them.
DUO_TAIL = ";W[k12,k13,l13,k14];B[m6,n6,m7,n7];W[a9,b9,c9];B[h2,i2,g3,h3];W[b6,c6,b7]"


def make_inputs(folder: Path) -> dict[str, list[str]]:
    """The commands to time (arguments after ``polytile``), their input files in ``folder``."""
    from polytile.formats import save
    from polytile.puzzles.cityblocks.rules import CityBlocks, Move

    record = (ROOT / "examples" / "duo-endgame.blksgf").read_text().rstrip()
    duo = folder / "duo-4-plies.blksgf"
    duo.write_text(record.removesuffix(")") + DUO_TAIL + ")\n")
    rng = random.Random(7)
    game = CityBlocks(4)
    while not game.is_game_over():
        moves = game.legal_placements()
        game.push(rng.choice(moves) if moves else Move.pass_turn(game.to_move))
    city = folder / "cityblocks-game.json"
    save(game.to_position(), city)
    return {
        "--help": ["--help"],
        "validate": ["validate", str(ROOT / "examples" / "pentomino-6x10.json")],
        "score": ["score", str(city), "--no-color"],
        "solve-endgame": ["solve-endgame", str(duo), "--no-color"],
    }


def extract(rev: str, folder: Path) -> Path:
    """The files of commit ``rev`` in ``folder`` (read-only use of the repository)."""
    folder.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True,
                             capture_output=True).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def run(tree: Path, args: list[str], cwd: Path,
        importtime: bool = False) -> tuple[float, float, str]:  # fmt: skip
    """Wall and CPU seconds of ``python -m polytile ARGS`` with the code of ``tree``, and its
    stderr."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cmd = [sys.executable, *(["-X", "importtime"] if importtime else []), "-m", "polytile", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    took = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed with code {out.returncode}:\n{out.stderr}")
    return took, cpu, out.stderr


def offenders(stderr: str, top: int) -> tuple[float, list[tuple[str, float]], list[str]]:
    """From ``-X importtime`` output: total seconds, the ``top`` heaviest top-level imports
    (cumulative seconds), and which heavy libraries were imported."""
    total, rows, loaded = 0.0, [], set()
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line.split("|")
        if name.strip().split(".")[0] in HEAVY:
            loaded.add(name.strip().split(".")[0])
        if name.startswith(" ") and not name.startswith("  "):  # imported at the top level
            seconds = int(cumulative) / 1e6
            total += seconds
            rows.append((name.strip(), seconds))
    rows.sort(key=lambda row: -row[1])
    return total, rows[:top], sorted(loaded)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per command")
    parser.add_argument("--top", type=int, default=5, help="top-level imports to list")
    parser.add_argument("--compare", metavar="REV", help="also time the code of commit REV")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    commands = make_inputs(tmp)
    trees = {"this tree": ROOT}
    if args.compare:
        trees[args.compare] = extract(args.compare, tmp / "before")
    for tree in trees.values():  # untimed: fills numba's cache, warms the file cache
        for argv in commands.values():
            run(tree, argv, tmp)
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    names = list(trees)
    for i in range(args.runs):
        for name in names if i % 2 == 0 else names[::-1]:
            for command, argv in commands.items():
                times.setdefault((name, command), []).append(run(trees[name], argv, tmp)[:2])
    print(f"whole command, median of {args.runs} fresh processes: wall s / CPU s")
    print(f"{'command':<16}" + "".join(f"{name[:14]:>16}" for name in names))
    for command in commands:
        cells = []
        for name in names:
            wall = statistics.median(w for w, _ in times[name, command])
            cpu = statistics.median(c for _, c in times[name, command])
            cells.append(f"{wall:.2f} / {cpu:.2f}")
        print(f"{command:<16}" + "".join(f"{cell:>16}" for cell in cells))
    for name in names:
        print(f"\n-X importtime, {name}:")
        for command, argv in commands.items():
            total, rows, loaded = offenders(run(trees[name], argv, tmp, importtime=True)[2],
                                            args.top)  # fmt: skip
            heavy = ", ".join(loaded) or "none"
            print(f"  {command}: imports {total:.3f} s; heavy libraries: {heavy}")
            for module, seconds in rows:
                print(f"      {seconds:7.3f}  {module}")


if __name__ == "__main__":
    main()
