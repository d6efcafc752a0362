"""Count the catalogue's puzzles on the triangle, hex and cube grids with polytile and the
Python peers that handle those grids, in one run (issue 51).

Every engine counts the same puzzles on the same machine in the same run, so the ratios
compare even when the absolute times do not:

* polytile, the whole command as a user runs it (``polytile count NAME --json``, wall time
  of the subprocess, numba cache warm), and the count's own seconds it reports;
* xcover (dancing cells, and its memoised ZDD mode), counting the exact-cover problem built
  from polytile's own placements of the puzzle (the "option builder": one item a cell and
  one a piece, an option a placement), through ``peer_worker.py`` in
  ``benchmarks/.venv-peers``; it counts every tiling of the fixed board, as polytile's
  first number does;
* Polyform Puzzler (the Python 3 fork ``johnrudge/puzzler``, not on PyPI: ``git clone``
  it, or ``fetch github:johnrudge/puzzler``, and give its folder with ``--puzzler``), whose
  puzzle scripts count the solutions up to the board's symmetries (as polytile's second
  number) with its own symmetry breaking, run by the peers' Python with xcover as its
  solver (``-a c``); its time is the whole process, as polytile's is.

Two ratios a puzzle: polytile's whole command against the fastest peer's whole process
(interpreter, imports, build and count: what a user waits for), and polytile's count (the
seconds it reports) against the fastest peer's count alone. Times are medians of ``--runs``
runs (one run once a run takes 30 s or more).

Usage::

    .venv/bin/python benchmarks/bench_grids.py --puzzler /work/peers/puzzler
    .venv/bin/python benchmarks/bench_grids.py --quick --json    # the small ones; results/
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_count import (  # noqa: E402  (the shared peers' environment and worker)
    LONG_RUN,
    Row,
    ensure_peers,
    log,
    peers_python,
    polytile_command,
    polytile_revision,
    run_worker,
    time_peer_process,
)

RESULTS = HERE / "results" / "grids.json"

#: Catalogue name -> Polyform Puzzler's script for the same puzzle (under its bin/).
PUZZLES: dict[str, str] = {
    "hexiamond-6x6": "iamonds/hexiamonds-6x6.py",
    "hexiamond-4x9": "iamonds/hexiamonds-4x9.py",
    "tetrahex-4x7": "hexes/tetrahexes-4x7.py",
    "soma-cube": "cubes/soma-3x3x3.py",
    "solid-pentomino-2x3x10": "cubes/solid-pentominoes-2x3x10.py",
    "solid-pentomino-2x5x6": "cubes/solid-pentominoes-2x5x6.py",
    "solid-pentomino-3x4x5": "cubes/solid-pentominoes-3x4x5.py",
}
QUICK = ("hexiamond-6x6", "tetrahex-4x7", "soma-cube", "solid-pentomino-2x3x10")


def exact_cover(name: str) -> dict[str, Any]:
    """The puzzle as the peer worker's exact-cover problem, built from polytile's own
    placements: an item a cell and a piece, an option a placement."""
    from polytile.board import placements
    from polytile.puzzles.tiling.puzzles import get_puzzle

    puzzle = get_puzzle(name)
    problem = puzzle.problem
    if problem.counts != (1,) * len(problem.types):
        raise ValueError(f"{name}: the peers' problem takes one copy of each piece")
    board = problem.board
    cells = board.open_cells()
    index = {cell: i for i, cell in enumerate(cells)}
    items = [f"c{'_'.join(map(str, cell))}" for cell in cells] + [t.name for t in problem.types]
    pl = placements(board, problem.types, problem.one_sided)
    options = [[*sorted(index[c] for c in pl.coords_of(i)), len(cells) + int(pl.piece[i])]
               for i in range(len(pl))]  # fmt: skip
    return {"name": name, "items": items, "n_primary": len(items), "options": options,
            "rows": board.rows, "cols": board.cols, "holes": [],
            "expect": puzzle.known_count}  # fmt: skip


def time_polytile(name: str, runs: int) -> Row:
    """Wall time of ``polytile count NAME --json`` as a subprocess (cache warm)."""
    from polytile.puzzles.tiling.puzzles import get_puzzle

    want = get_puzzle(name)
    cmd = [*polytile_command(), "count", name, "--json"]
    samples: list[float] = []
    inside: list[float] = []
    out: dict[str, Any] = {}
    for _ in range(runs):
        t0 = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        samples.append(time.perf_counter() - t0)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed: {done.stderr.strip()[-300:]}")
        out = json.loads(done.stdout.strip().splitlines()[-1])
        inside.append(float(out["seconds"]))
        got = (out["count"], out.get("count_up_to_symmetry"))
        if got != (want.known_count, want.known_count_up_to_symmetry):
            raise RuntimeError(f"polytile counted {got} on {name}")
        if samples[-1] >= LONG_RUN:
            break
    return Row("polytile (whole command)", statistics.median(samples), int(out["count"]),
               runs=len(samples), samples=samples, search=statistics.median(inside),
               chose=out.get("engine"),
               note=f"{out.get('engine')} engine, count {statistics.median(inside):.2f} s; "
                    f"{out.get('count_up_to_symmetry')} up to symmetry")  # fmt: skip


_SOLUTIONS = re.compile(r"^(\d+) solutions?\b", re.MULTILINE)


def time_puzzler(folder: Path, script: str, expect: int | None, runs: int) -> Row:
    """Wall time of Polyform Puzzler's script counting its puzzle with xcover (``-a c``),
    run by the peers' Python, in a scratch folder (it writes its state files there)."""
    path = folder / "bin" / script
    if not path.exists():
        return Row("Polyform Puzzler", None, None, complete=False, note=f"no {path}")
    samples: list[float] = []
    count = None
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as scratch:
            t0 = time.perf_counter()
            done = subprocess.run([str(peers_python()), str(path), "-a", "c", "-N"],
                                  cwd=scratch, capture_output=True, text=True, check=False,
                                  env={"PYTHONPATH": str(folder), "PATH": "/usr/bin:/bin"})
            samples.append(time.perf_counter() - t0)
        found = _SOLUTIONS.findall(done.stdout + done.stderr)
        if done.returncode != 0 or not found:
            tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
            return Row("Polyform Puzzler", None, None, complete=False, note=f"failed: {tail}")
        count = int(found[-1])
        if samples[-1] >= LONG_RUN:
            break
    ok = "" if count == expect else f" (expected {expect})"
    return Row("Polyform Puzzler + xcover (whole process)", statistics.median(samples), count,
               runs=len(samples), samples=samples,
               note=f"{count} up to symmetry{ok}")  # fmt: skip


def bench(name: str, runs: int, puzzler: Path | None) -> dict[str, Any]:
    from polytile.puzzles.tiling.puzzles import get_puzzle

    puzzle = get_puzzle(name)
    log(f"{name}: polytile")
    rows = [time_polytile(name, runs)]
    problem = exact_cover(name)
    counts = []
    for engine in ("xcover", "xcover-zdd"):
        log(f"{name}: {engine} ({len(problem['options'])} options)")
        counts.append(run_worker(peers_python(), engine, problem, runs, LONG_RUN * 4))
    rows += counts
    wholes = []
    for engine in ("xcover", "xcover-zdd"):
        log(f"{name}: {engine}, the whole process")
        wholes.append(time_peer_process(engine, problem, runs))
    if puzzler is not None:
        log(f"{name}: Polyform Puzzler")
        wholes.append(time_puzzler(puzzler, PUZZLES[name], puzzle.known_count_up_to_symmetry,
                                   runs))  # fmt: skip
    rows += wholes

    def fastest(group: list[Row]) -> float | None:
        done = [r.seconds for r in group if r.seconds is not None and r.complete]
        return min(done) if done else None

    whole, count = fastest(wholes), fastest(counts)
    return {"puzzle": name, "grid": puzzle.board.grid,
            "count": puzzle.known_count, "up_to_symmetry": puzzle.known_count_up_to_symmetry,
            "rows": [{"engine": r.engine, "seconds": r.seconds, "count": r.count,
                      "complete": r.complete, "runs": r.runs, "note": r.note,
                      "samples": r.samples} for r in rows],
            "polytile_count_seconds": rows[0].search,
            "ratio_whole": None if whole is None else rows[0].seconds / whole,
            "ratio_count": None if count is None or not rows[0].search
            else rows[0].search / count}  # fmt: skip


def table(result: dict[str, Any]) -> str:
    lines = [f"{result['puzzle']} ({result['grid']} grid): {result['count']:,} tilings, "
             f"{result['up_to_symmetry']:,} up to symmetry",
             "| engine | seconds (median) | count | note |", "|---|---:|---:|---|"]  # fmt: skip
    for r in result["rows"]:
        secs = "-" if r["seconds"] is None else f"{r['seconds']:.2f}"
        lines.append(f"| {r['engine']} | {secs} | {r['count'] if r['count'] is not None else '-'}"
                     f" | {r['note']} |")  # fmt: skip
    for key, what in (("ratio_whole", "whole command / fastest peer's whole process"),
                      ("ratio_count", "count / fastest peer's count")):
        if result[key] is not None:
            lines.append(f"polytile {what}: {result[key]:.2f}x")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the four small puzzles only")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--puzzler", type=Path, default=None,
                        help="a checkout of github.com/johnrudge/puzzler")
    parser.add_argument("--json", action="store_true", help=f"also write {RESULTS}")
    parser.add_argument("names", nargs="*", help="catalogue names (default: all)")
    args = parser.parse_args(argv)
    status = ensure_peers()
    if not status.get("xcover") or status["xcover"].startswith("not installed"):
        log(f"xcover: {status.get('xcover')}")
        return 1
    names = args.names or (list(QUICK) if args.quick else list(PUZZLES))
    results = []
    for name in names:
        results.append(bench(name, args.runs, args.puzzler))
        print(table(results[-1]) + "\n", flush=True)
    for key, what in (("ratio_whole", "whole command / fastest peer's whole process"),
                      ("ratio_count", "count / fastest peer's count")):
        ratios = [r[key] for r in results if r[key]]
        if ratios:
            print(f"median polytile {what} over {len(ratios)} puzzles: "
                  f"{statistics.median(ratios):.2f}x")  # fmt: skip
    if args.json:
        RESULTS.write_text(json.dumps({"revision": polytile_revision(),
                                       "machine": platform.platform(), "peers": status,
                                       "results": results}, indent=1) + "\n")  # fmt: skip
        log(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
