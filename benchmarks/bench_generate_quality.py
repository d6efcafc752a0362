"""What generated packing puzzles give away (issue 47, item 7): the same candidates made by
this tree and by an earlier commit, measured by this tree's
:func:`polytile.puzzles.tiling.generate.region_quality`.

Each tree makes candidates ``0 .. N-1`` of ``generate packing`` (seed 0) in a fresh
interpreter for each setting (the default pieces and sizes, ``--holes 1``, 5-piece
puzzles); this script then measures every kept puzzle's region as the generator saw it
(the board before pieces were given): its fill of its bounding box, the fewest different
pieces that fit over any one cell (1: the outline tells which piece goes there), the cells
only one placement covers, and the difficulty the generator rated. Medians, and the share
of kept puzzles whose outline gives a piece away.

Run: ``python benchmarks/bench_generate_quality.py [--count 40] [--compare REV]``.
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

SETTINGS = {
    "default (8-12 pentominoes)": {},
    "--holes 1": {"holes": 1},
    "--size 5-5": {"min_pieces": 5, "max_pieces": 5},
}

#: Run in the tree's interpreter: candidates as JSON lines (the region, the pieces drawn,
#: the rating, or why it was dropped).
MAKE = """
import json, sys, time
from polytile.puzzles.tiling.generate import PackingParams, packing_candidate
params = PackingParams(**json.loads(sys.argv[1]))
for i in range(int(sys.argv[2])):
    t = time.perf_counter()
    c = packing_candidate(params, 0, i)
    row = {"seconds": time.perf_counter() - t, "reason": c.reason}
    if c.accepted:
        p = c.puzzle
        taken = {tuple(x) for g in p.given for x in g.cells}
        board = p.problem.board
        row["board"] = ["".join("#" if (r, q) in board.blocked and (r, q) not in taken else "."
                                for q in range(board.cols)) for r in range(board.rows)]
        row["pieces"] = list(p.all_piece_names())
        row["difficulty"] = c.difficulty
    print(json.dumps(row), flush=True)
"""


def make(tree: Path, params: dict[str, int], count: int) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, "-c", MAKE, json.dumps(params), str(count)],
                          env=env, capture_output=True, text=True, check=True,
                          cwd=tempfile.gettempdir())  # fmt: skip
    return [json.loads(line) for line in done.stdout.splitlines()]


def summary(rows: list[dict]) -> dict[str, str]:
    from polytile.board import Board
    from polytile.geometry import piece
    from polytile.puzzles.tiling.generate import region_quality

    kept = [r for r in rows if r["reason"] is None]
    quality = [region_quality(Board.from_text(r["board"]), [piece(n) for n in r["pieces"]])
               for r in kept]  # fmt: skip

    def med(values: list[float]) -> str:
        return f"{statistics.median(values):.2f}" if values else "-"

    gives = sum(q["fewest_pieces"] < 2 for q in quality)
    return {
        "kept": f"{len(kept)} of {len(rows)}",
        "fill": med([q["fill"] for q in quality]),
        "fewest pieces over a cell": med([q["fewest_pieces"] for q in quality]),
        "outline gives a piece away": f"{gives} of {len(kept)}",
        "cells one placement covers": med([q["single_cells"] for q in quality]),
        "difficulty": med([r["difficulty"] for r in kept]),
        "s per candidate": med([r["seconds"] for r in rows]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--compare", metavar="REV")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-quality-") as folder:
        trees = {"this tree": ROOT}
        if args.compare:
            trees[args.compare] = extract(args.compare, Path(folder))
        table: dict[tuple[str, str], dict[str, str]] = {}
        for setting, params in SETTINGS.items():
            for label, tree in trees.items():
                start = time.perf_counter()
                table[setting, label] = summary(make(tree, params, args.count))
                print(f"{setting} / {label}: {time.perf_counter() - start:.0f} s",
                      file=sys.stderr, flush=True)  # fmt: skip
    columns = list(next(iter(table.values())))
    print("| setting | code | " + " | ".join(columns) + " |")
    print("| --- | --- | " + " | ".join("---:" for _ in columns) + " |")
    for (setting, label), row in table.items():
        print(f"| {setting} | {label} | " + " | ".join(row[c] for c in columns) + " |")


if __name__ == "__main__":
    main()
