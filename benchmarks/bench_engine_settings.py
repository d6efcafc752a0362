"""Blokus Duo engine against itself with other settings: which settings play better.

Two settings of :mod:`polytile.puzzles.blokus.engine` (its placement weights, playout
noise, candidates a node, exploration constant, playouts a move) play ``--games`` games,
seats alternated, each move searched for a fixed number of playouts, so that the result does
not depend on the machine's speed or load. A win counts 1 and a tie 1/2 for the first
setting, with Wilson's 95% interval and the mean margin (the first setting's squares minus
the other's).

    python benchmarks/bench_engine_settings.py --a '{"c": 0.35}' --games 40 --playouts 200
    python benchmarks/bench_engine_settings.py --a '{"w": [2,0,0.5,-0.5,1,0,0,0]}' --games 40
    python benchmarks/bench_engine_settings.py --games 20 --playouts 800 --playouts-b 200

A setting is JSON over the engine's defaults: ``w`` (:data:`engine.WEIGHTS`), ``noise``
(:data:`engine.NOISE`), ``cand`` (:data:`engine.CANDIDATES`), ``c``
(:data:`engine.EXPLORATION`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from polytile._warm import ensure_compiled
from polytile.puzzles.blokus import engine
from polytile.puzzles.blokus.rules import Blokus

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine_strength import wilson


def _setting(text: str) -> dict[str, Any]:
    base = {"w": engine.WEIGHTS.tolist(), "noise": engine.NOISE, "cand": engine.CANDIDATES,
            "c": engine.EXPLORATION, "size": engine.SIZE_WEIGHT}  # fmt: skip
    extra = json.loads(text)
    unknown = set(extra) - set(base)
    if unknown:
        raise SystemExit(f"unknown setting(s) {sorted(unknown)}; known: {sorted(base)}")
    if len(extra.get("w", base["w"])) != len(base["w"]):
        raise SystemExit(f"w needs {len(base['w'])} weights")
    return {**base, **extra}


def _use(setting: dict[str, Any]) -> None:
    engine.WEIGHTS = np.array(setting["w"], dtype=float)
    engine.NOISE = float(setting["noise"])
    engine.CANDIDATES = int(setting["cand"])
    engine.EXPLORATION = float(setting["c"])
    engine.SIZE_WEIGHT = None if setting["size"] is None else float(setting["size"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="{}", help="the first setting (JSON over the defaults)")
    parser.add_argument("--b", default="{}", help="the second setting")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--playouts", type=int, default=200, help="playouts a move (first)")
    parser.add_argument("--playouts-b", type=int, help="playouts a move for the second")
    parser.add_argument("--seed", type=int, default=1000, help="game i is seeded seed + i")
    args = parser.parse_args()
    a, b = _setting(args.a), _setting(args.b)
    playouts_b = args.playouts_b or args.playouts
    ensure_compiled("blokus-endgame")  # else the engine plays its unranked fallback
    engine.load("duo")
    assert engine.fast_playouts()
    margins = []
    started = time.perf_counter()
    try:
        for i in range(args.games):
            g = Blokus("duo")
            rng = np.random.default_rng(args.seed + i)
            first = "blue" if i % 2 == 0 else "yellow"
            while moves := g.legal_moves():
                if moves[0].is_pass:
                    g.push(moves[0])
                    continue
                mine = g.to_move == first
                _use(a if mine else b)
                n = args.playouts if mine else playouts_b
                g.push(engine.engine_choice(g, None, playouts=n, rng=rng).move)
            totals = g.score().player_totals
            other = "yellow" if first == "blue" else "blue"
            margins.append(totals[first] - totals[other])
            print(f"  game {i + 1} (first setting {first}): margin {margins[-1]:+d}",
                  flush=True)  # fmt: skip
    except KeyboardInterrupt:
        print("stopped: the games played so far", file=sys.stderr)
    n = len(margins)
    score = sum(m > 0 for m in margins) + 0.5 * sum(m == 0 for m in margins)
    low, high = wilson(score, n)
    mean = float(np.mean(margins)) if margins else 0.0
    print(f"first setting {args.a} ({args.playouts} playouts) against {args.b} "
          f"({playouts_b}): {score:g} of {n} ({score / max(n, 1):.0%}, 95% interval "
          f"{low:.0%}-{high:.0%}), mean margin {mean:+.2f} squares, "
          f"{time.perf_counter() - started:.0f} s")  # fmt: skip


if __name__ == "__main__":
    main()
