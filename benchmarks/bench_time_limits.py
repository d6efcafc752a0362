"""Whole-command time limits (#17 item 7): how long each command takes, start-up included,
when its ``--time-limit`` runs out before its work is done.

Each command runs in a fresh interpreter (``python -m polytile ...``, the same imports as the
console script) on work that takes far longer than the limit, once untimed (numba's cache) and
then ``--runs`` times; the figure is the median and the worst whole-process wall time, against
the allowance the issue sets: the limit plus 10% plus 0.5 s. Commands:

- ``count tetromino-8x10`` (millions of solutions) with 1 and with 2 workers
- ``solve cityblocks-max``
- ``bounds`` of every colour of a City Blocks game 8 placements in (a seeded random game)
- ``solve-endgame --max-pieces 21`` of a Blokus Duo position 14 plies before its end
  (``benchmarks/blokus-deep.json``), which cannot finish in the limit
- ``generate packing -n 1000`` into a new store, one worker, and ``generate henning -n 100``
- ``solve walkable-path --pieces 4`` (not proven in a minute)
- ``bounds`` of every colour of the Blokus opening in ``examples/``
- ``solve-endgame --view`` of a self-played City Blocks (Henning) record after 12 moves, and
  ``--open`` of a Gridblock one after 20

Run: ``python benchmarks/bench_time_limits.py [--limits 0.5,5] [--runs 3]``. Measure on a
quiet machine: on a busy one, start-up alone can take the whole allowance.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def make_inputs(folder: Path) -> dict[str, list[str]]:
    """The commands to time (arguments after ``polytile``, without the limit)."""
    from polytile.formats import save
    from polytile.puzzles.cityblocks.rules import CityBlocks, Move

    rng = random.Random(7)
    game = CityBlocks(4)
    for _ in range(8):
        moves = game.legal_placements()
        game.push(rng.choice(moves) if moves else Move.pass_turn(game.to_move))
    city = folder / "cityblocks-8.json"
    save(game.to_position(), city)
    deep = json.loads((ROOT / "benchmarks" / "blokus-deep.json").read_text())
    duo = folder / "duo-14.json"
    duo.write_text(json.dumps(deep["14"][0]["position"]))
    store = folder / "set.db"
    henning, gridblock = folder / "henning.json", folder / "gridblock.json"
    for kind, path in (("henning", henning), ("gridblock", gridblock)):
        subprocess.run([sys.executable, "-m", "polytile", "selfplay", kind, "--seed", "3",
                        "-o", str(path)], cwd=ROOT, capture_output=True, check=True)  # fmt: skip
    blokus = ROOT / "examples" / "blokus-opening.json"
    commands = {
        "count, 1 worker": "count tetromino-8x10 -w 1 --no-progress",
        "count, 2 workers": "count tetromino-8x10 -w 2 --no-progress",
        "solve cityblocks-max": "solve cityblocks-max",
        "bounds, every colour": f"bounds {city} --color all",
        "solve-endgame, 14 plies": f"solve-endgame {duo} --max-pieces 21",
        "generate, 1 worker": f"generate packing -n 1000 --db {store} --workers 1",
        "generate henning, 1 worker": f"generate henning -n 100 --db {store} --workers 1",
        "solve walkable-path, 4 pieces": "solve walkable-path --pieces 4",
        "bounds, Blokus opening": f"bounds {blokus} --color all",
        "solve-endgame, Henning view": f"solve-endgame {henning} --move 12 --view",
        "solve-endgame, Gridblock open": f"solve-endgame {gridblock} --move 20 --open",
    }
    return {name: line.split() for name, line in commands.items()}  # no spaces in the paths


def run(args: list[str], limit: float, store: Path | None) -> tuple[float, int]:
    """One whole command: its wall time and exit code."""
    if store is not None:
        store.unlink(missing_ok=True)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "polytile", *args, "--time-limit", str(limit)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - t0
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return wall, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limits", default="0.5,5", help="comma-separated limits in seconds")
    parser.add_argument("--runs", type=int, default=3)
    opts = parser.parse_args()
    limits = [float(x) for x in opts.limits.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        commands = make_inputs(folder)
        print(f"{'command':32} {'limit':>6} {'allowed':>8} {'median':>7} {'worst':>7}  held")
        for name, args in commands.items():
            store = folder / "set.db" if args[0] == "generate" else None
            run(args, limits[0], store)  # untimed: fills numba's cache
            for limit in limits:
                walls = [run(args, limit, store)[0] for _ in range(opts.runs)]
                allowed = limit * 1.1 + 0.5
                worst = max(walls)
                held = "yes" if worst <= allowed else "NO"
                print(
                    f"{name:32} {limit:6.1f} {allowed:8.2f} {statistics.median(walls):7.2f}"
                    f" {worst:7.2f}  {held}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
