"""Exact analysis of whole Blokus Duo records (``analyse``), with and without the compiled
search keeping its tables from one position to the next.

Records: the self-played Duo games of ``bench_blokus_deep.py`` (same seeds), written as game
records from the empty board. Each is analysed by :func:`analyse_record` with
``--max-pieces`` (default 12, as ``analyse``'s: from the first position where neither side
can place more than 12 pieces) three ways, in one process and in turns, so that the ratios
compare like with like on a machine whose speed drifts:

* **kept**: this tree (the tables kept from one position to the next, each root's window
  starting from the value the move the record played there leads to, solved just
  before, and the Python search handing over after 0.05 s once the compiled search is
  loaded);
* **unguided**: the same with the whole window at each root;
* **fresh**: a table and memos of its own for each position;
* **before**: fresh tables and the Python search handing over after 0.5 s at every
  position, as before 86dd2f2 and 8d4ecb2.

Per record: the positions solved, positions searched and seconds of each way (the median
of ``--runs``). The values and losses of all ways must agree; the script stops otherwise.

Run: ``python benchmarks/bench_blokus_analyse.py [--seeds 6] [--max-pieces 12] [--runs 3]
[--ways kept unguided ...]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_blokus_deep import self_play  # the same games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=6, help="records to analyse")
    parser.add_argument("--max-pieces", type=int, default=12)
    parser.add_argument("--runs", type=int, default=3, help="runs of each way per record")
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--ways", nargs="+", default=["kept", "unguided", "fresh", "before"],
                        choices=["kept", "unguided", "fresh", "before"])  # fmt: skip
    args = parser.parse_args()

    import polytile.puzzles.blokus._endgame_search  # noqa: F401  (load numba's code first)
    from polytile.puzzles.blokus import endgame, endgame_kernel
    from polytile.puzzles.blokus.analyse import analyse_record
    from polytile.puzzles.blokus.sgf import GameRecord

    real_get = endgame_kernel.KernelTables.get

    def fresh(self: Any, n: int, weights: Any, maxer: Any) -> Any:
        return endgame_kernel._table(), endgame_kernel._memos()

    real_known = endgame._known

    def no_bound(*args: Any) -> dict[str, Any]:
        return {}

    every = {  # the tables, the root's bound, the Python search's time
        "kept": (real_get, real_known, endgame.PYTHON_FIRST_LOADED),
        "unguided": (real_get, no_bound, endgame.PYTHON_FIRST_LOADED),
        "fresh": (fresh, no_bound, endgame.PYTHON_FIRST_LOADED),
        "before": (fresh, no_bound, endgame.PYTHON_FIRST),
    }
    ways = {w: every[w] for w in args.ways}
    print(f"Duo records, analysed from the first position with at most {args.max_pieces} "
          f"pieces per side; median of {args.runs} runs")  # fmt: skip
    print(f"{'seed':>4} {'moves':>5}" + "".join(f"{w[:8] + ' s':>11}{w[:8] + ' nodes':>15}"
                                                for w in ways))  # fmt: skip
    totals: dict[str, list[float]] = {w: [] for w in ways}
    warm = self_play(0)  # one untimed analysis first: the placement tables, numba's dispatch
    analyse_record(GameRecord("duo", 2, tuple(m for m in warm.move_stack if not m.is_pass)),
                   max_pieces=6)  # fmt: skip
    for seed in range(args.seeds):
        game = self_play(seed)
        record = GameRecord("duo", 2, tuple(m for m in game.move_stack if not m.is_pass))
        runs: dict[str, list[Any]] = {w: [] for w in ways}
        for _ in range(args.runs):
            for way, (get, known, first) in ways.items():
                endgame_kernel.KernelTables.get = get  # type: ignore[method-assign]
                endgame._known = known
                endgame.PYTHON_FIRST_LOADED = first
                runs[way].append(analyse_record(record, max_pieces=args.max_pieces,
                                                time_limit=args.time_limit))  # fmt: skip
        endgame_kernel.KernelTables.get = real_get  # type: ignore[method-assign]
        endgame._known = real_known
        endgame.PYTHON_FIRST_LOADED = every["kept"][2]
        seen = {tuple((m.before, m.after, m.loss) for m in a.moves)
                for r in runs.values() for a in r}  # fmt: skip
        if len(seen) != 1 or any(not a.complete for r in runs.values() for a in r):
            sys.exit(f"seed {seed}: the ways disagree or one did not finish")
        line = f"{seed:>4} {len(runs['kept'][0].moves):>5}"
        for way, results in runs.items():
            secs = statistics.median(a.seconds for a in results)
            totals[way].append(secs)
            line += f"{secs:>11.2f}{statistics.median(a.nodes for a in results):>15,.0f}"
        print(line, flush=True)
    print("total s: " + ", ".join(f"{w} {sum(t):.2f}" for w, t in totals.items()))


if __name__ == "__main__":
    main()
