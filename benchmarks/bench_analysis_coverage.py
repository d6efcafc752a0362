"""Issue 49's coverage figures: does ``analyse`` value every move of a self-played record
within its default time limit, and does ``solve-endgame --view`` answer at 20%, 50% and
80% of a City Blocks (Henning) game within 5 s?

For each game (Blokus Duo, City Blocks (Henning), Gridblock with 2 players and the split
deal, Walkable Cities), ``--records`` records are self-played by the greedy players (seeds
1, 2, ...; ``polytile selfplay``) and each is analysed by the whole command
``polytile analyse RECORD --json`` at its default limit (60 s); a record is covered when
every move has a value (exact or an estimate). Then, on the Henning records, the moves at
20%, 50% and 80% of each game are asked of ``polytile solve-endgame --view --time-limit 5
--json``: answered when a move table or an estimate came back, and the whole command's wall
time is kept.

Run on a quiet machine with the interpreter polytile is installed in::

    python benchmarks/bench_analysis_coverage.py [--records 5] [--only GAME] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: game: (selfplay arguments, record suffix)
GAMES = {
    "blokus": (["blokus", "--variant", "duo"], ".blksgf"),
    "henning": (["henning"], ".json"),
    "gridblock": (["gridblock", "--players", "2", "--deal", "split"], ".json"),
    "walkable": (["walkable"], ".json"),
}


def polytile(*args: str) -> tuple[int, str, str, float]:
    """Run ``polytile ARGS`` as a whole command: exit code, stdout, stderr, wall seconds."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "polytile", *args], capture_output=True,
                          text=True, check=False)  # fmt: skip
    return done.returncode, done.stdout, done.stderr, time.perf_counter() - start


def make_records(game: str, n: int, folder: Path) -> list[Path]:
    args, suffix = GAMES[game]
    paths = []
    for seed in range(1, n + 1):
        path = folder / f"{game}-{seed}{suffix}"
        code, _, err, _ = polytile("selfplay", *args, "--seed", str(seed), "-o", str(path))
        if code != 0:
            raise SystemExit(f"selfplay {game} seed {seed} failed: {err}")
        paths.append(path)
    return paths


def coverage(path: Path) -> dict[str, Any]:
    code, out, err, seconds = polytile("analyse", str(path), "--json")
    doc = json.loads(out) if out.strip().startswith("{") else {}
    rows = doc.get("moves", [])
    total = doc.get("total_moves", 0)
    estimates = sum(1 for r in rows if r.get("kind") == "estimate")
    return {"record": path.name, "exit": code, "seconds": round(seconds, 2),
            "moves": total, "valued": len(rows), "exact": len(rows) - estimates,
            "estimates": estimates, "covered": total > 0 and len(rows) == total,
            "stderr": err.strip().splitlines()[-1:] if code else []}  # fmt: skip


def henning_points(path: Path) -> list[dict[str, Any]]:
    from polytile.puzzles.henning.files import load_henning

    n = len(load_henning(path).moves)
    found = []
    for share in (0.2, 0.5, 0.8):
        move = round(n * share)
        code, out, _, seconds = polytile("solve-endgame", str(path), "--move", str(move),
                                         "--view", "--time-limit", "5", "--json")  # fmt: skip
        doc = json.loads(out) if out.strip().startswith("{") else {}
        answered = bool(doc.get("moves"))
        found.append({"record": path.name, "move": move, "of": n, "share": share,
                      "exit": code, "seconds": round(seconds, 2), "answered": answered,
                      "kind": doc.get("kind")})  # fmt: skip
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=5)
    parser.add_argument("--only", choices=sorted(GAMES), action="append")
    parser.add_argument("--json", type=Path, default=None)
    a = parser.parse_args()
    from polytile._warm import ENGINES, ensure_compiled

    # Every engine's compiled code made sure of first: after an install or an edit it compiles
    # in the background, and the first commands would be measured on the slower fallbacks.
    for name in ENGINES:
        ensure_compiled(name)
    games = a.only or list(GAMES)
    results: dict[str, Any] = {"records": a.records, "coverage": {}, "henning_points": []}
    with tempfile.TemporaryDirectory() as tmp:
        for game in games:
            paths = make_records(game, a.records, Path(tmp))
            rows = []
            for p in paths:
                rows.append(coverage(p))
                r = rows[-1]
                print(f"{game:10} {r['record']:18} {r['valued']:>3}/{r['moves']:<3} valued "
                      f"({r['exact']} exact, {r['estimates']} estimated), exit {r['exit']}, "
                      f"{r['seconds']:.1f} s", flush=True)  # fmt: skip
            results["coverage"][game] = rows
            if game == "henning":
                for p in paths:
                    for pt in henning_points(p):
                        results["henning_points"].append(pt)
                        print(f"henning view {pt['record']} move {pt['move']}/{pt['of']}: "
                              f"{'answered' if pt['answered'] else 'NO ANSWER'} "
                              f"({pt['kind']}), exit {pt['exit']}, {pt['seconds']:.2f} s",
                              flush=True)  # fmt: skip
    print()
    print("| game | records covered | moves valued | of which estimated | analyse s (median) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for game, rows in results["coverage"].items():
        times = sorted(r["seconds"] for r in rows)
        print(f"| {game} | {sum(r['covered'] for r in rows)} of {len(rows)} | "
              f"{sum(r['valued'] for r in rows)} of {sum(r['moves'] for r in rows)} | "
              f"{sum(r['estimates'] for r in rows)} | {times[len(times) // 2]:.1f} |")
    pts = results["henning_points"]
    if pts:
        times = sorted(p["seconds"] for p in pts)
        print(f"\nHenning --view at 20/50/80%: {sum(p['answered'] for p in pts)} of {len(pts)} "
              f"answered; wall time median {times[len(times) // 2]:.2f} s, max {times[-1]:.2f} s")
    if a.json is not None:
        a.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
