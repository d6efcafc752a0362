"""How strong the engine players are: the engine against the greedy player, sides
alternated, with the win rate's 95% interval (Wilson's score interval; a tie counts half).

Each game is played from a seeded set-up (seeds 0, 1, ...); the engine takes the first seat
in even games and the second in odd ones. Two-player games throughout: Blokus Duo, City
Blocks (Henning), Gridblock with 2 players (the engine plays both colours of its side, as
the rules' two-player game has it) and Walkable Cities.

Run on a quiet machine (the engine's strength depends on how many playouts its time buys):
``python benchmarks/bench_engine_strength.py [--games N] [--move-time S] [--only GAME]``.
Results go to stdout and, with ``--json FILE``, to a file rewritten after every game (each
game's seed and scores kept), so a long run stopped part-way keeps the games it played;
``--seed K`` goes on from seed K (the seat still alternates by the seed's parity), and
``--merge A.json B.json ... [--json OUT]`` joins such parts into one result a game (the
same move time, no seed twice).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% score interval of a win rate of ``score`` out of ``n`` games."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def duo(seed: int, engine_seat: int, seconds: float) -> tuple[float, float]:
    from polytile.puzzles.blokus.engine import engine_choice
    from polytile.puzzles.blokus.players import greedy
    from polytile.puzzles.blokus.rules import Blokus

    rng = np.random.default_rng(seed)
    g = Blokus("duo")
    while moves := g.legal_moves():
        if moves[0].is_pass:
            g.push(moves[0])
        elif g.colors.index(g.to_move) == engine_seat:
            g.push(engine_choice(g, seconds, rng=rng).move)
        else:
            g.push(greedy(g, moves, rng))
    totals = list(g.score().player_totals.values())
    return totals[engine_seat], totals[1 - engine_seat]


def henning(seed: int, engine_seat: int, seconds: float) -> tuple[float, float]:
    from polytile.puzzles.henning.engine import engine_choice
    from polytile.puzzles.henning.players import greedy_player
    from polytile.puzzles.henning.rules import Henning

    rng = np.random.default_rng(seed)
    g = Henning.new(seed)
    while not g.is_over():
        if g.to_move == engine_seat:
            g.push(engine_choice(g, seconds, rng=rng).move)
        else:
            g.push(greedy_player(g, rng))
    return g.money_of(engine_seat), g.money_of(1 - engine_seat)


def gridblock(seed: int, engine_seat: int, seconds: float) -> tuple[float, float]:
    from polytile.puzzles.gridblock.engine import engine_player
    from polytile.puzzles.gridblock.game import GridblockGame
    from polytile.puzzles.gridblock.players import greedy_player
    from polytile.puzzles.gridblock.rules import Gridblock, Options

    rng = np.random.default_rng(seed)
    options = Options(players=2)
    game = GridblockGame.of(options)
    g = Gridblock.new(seed, options)
    engine = engine_player(seconds)  # as `selfplay` has it: the move alone, not its value
    while not g.is_over():
        if game.state_of(g).to_move == engine_seat:
            g.push(engine(g, rng))
        else:
            g.push(greedy_player(g, rng))
    returns = game.state_of(g).returns()
    return returns[engine_seat], returns[1 - engine_seat]


def walkable(seed: int, engine_seat: int, seconds: float) -> tuple[float, float]:
    from polytile.puzzles.walkable.engine import engine_choice
    from polytile.puzzles.walkable.players import greedy_drop, greedy_pick
    from polytile.puzzles.walkable.rules import Walkable

    rng = np.random.default_rng(seed)
    g = Walkable.new(seed=seed)
    other = 1 - engine_seat
    while not g.is_over():
        if g.picks is None:
            picks = [""] * 2
            picks[engine_seat] = engine_choice(g, engine_seat, seconds, rng=rng).move
            picks[other] = greedy_pick(g, other, rng)
            g.select(picks[0], picks[1])
        drops: list[Any] = [None, None]
        drops[engine_seat] = engine_choice(g, engine_seat, seconds, rng=rng).move
        drops[other] = greedy_drop(g, other, rng)
        g.drop(drops[0], drops[1])
    returns = g.returns()
    return returns[engine_seat], returns[other]


GAMES: dict[str, tuple[str, Callable[[int, int, float], tuple[float, float]]]] = {
    "duo": ("Blokus Duo", duo),
    "henning": ("City Blocks (Henning)", henning),
    "gridblock": ("Gridblock, 2 players", gridblock),
    "walkable": ("Walkable Cities", walkable),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--move-time", type=float, default=1.0)
    parser.add_argument("--only", choices=sorted(GAMES), action="append")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--json", help="also write the results to this file (after each game)")
    parser.add_argument("--merge", nargs="+", metavar="FILE",
                        help="join these runs' JSON files instead of playing")  # fmt: skip
    args = parser.parse_args()
    if args.merge:
        rows = merge([json.loads(Path(name).read_text()) for name in args.merge])
        for row in rows:
            _say(row)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(rows, f, indent=2)
        return
    from polytile._warm import ENGINES, ensure_compiled

    # Every engine's compiled code made sure of first (after an install or an edit it
    # compiles in the background, and the engines play slower fallbacks until it is done).
    for name in ENGINES:
        ensure_compiled(name)
    rows: list[dict[str, Any]] = []
    for key in args.only or list(GAMES):
        title, play = GAMES[key]
        played: list[dict[str, Any]] = []
        started = time.perf_counter()
        for seed in range(args.seed, args.seed + args.games):
            wall, cpu = time.perf_counter(), _cpu()
            mine, theirs = play(seed, seed % 2, args.move_time)
            # how much of a core the game had (near 1: the machine left it a whole core)
            share = (_cpu() - cpu) / (time.perf_counter() - wall)
            played.append({"seed": seed, "engine_seat": seed % 2, "engine": mine,
                           "greedy": theirs, "cpu_share": round(share, 3),
                           "seconds": round(time.perf_counter() - wall, 1)})  # fmt: skip
            print(f"  {title} game {len(played)} (seed {seed}): engine {mine:g}, greedy "
                  f"{theirs:g}", flush=True)  # fmt: skip
            row = _row(title, args.move_time, played, time.perf_counter() - started)
            if args.json:
                with open(args.json, "w") as f:
                    json.dump([*rows, row], f, indent=2)
        rows.append(row)
        _say(row)


def _say(row: dict[str, Any]) -> None:
    print(f"{row['game']}: engine {row['engine_score']:g} of {row['games']} against greedy "
          f"({100 * row['win_rate']:.0f}%, 95% interval {100 * row['low']:.0f}-"
          f"{100 * row['high']:.0f}%), mean margin {row['mean_margin']:+.1f}, "
          f"{row['seconds']:.0f} s", flush=True)  # fmt: skip


def merge(runs: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """One row a game from the rows of several runs (their games joined, by seed).

    Raises
    ------
    SystemExit
        When two parts of a game differ in move time or play a seed twice.
    """
    parts: dict[str, list[dict[str, Any]]] = {}
    for run in runs:
        for row in run:
            parts.setdefault(row["game"], []).append(row)
    rows = []
    for title, same in parts.items():
        times = {row["move_time"] for row in same}
        if len(times) > 1:
            raise SystemExit(f"{title}: the parts differ in move time ({sorted(times)})")
        played = sorted((g for row in same for g in row["played"]), key=lambda g: g["seed"])
        seeds = [g["seed"] for g in played]
        if len(set(seeds)) < len(seeds):
            raise SystemExit(f"{title}: a seed is played twice in the parts")
        rows.append(_row(title, times.pop(), played, sum(row["seconds"] for row in same)))
    return rows


def _cpu() -> float:
    """The CPU seconds of this process and of its children waited for."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _row(title: str, move_time: float, played: list[dict[str, Any]],
         seconds: float) -> dict[str, Any]:  # fmt: skip
    """The summary of ``played`` (a win counts 1, a tie 1/2) with its games."""
    score = sum(1.0 if g["engine"] > g["greedy"] else 0.5 if g["engine"] == g["greedy"]
                else 0.0 for g in played)  # fmt: skip
    low, high = wilson(score, len(played))
    return {"game": title, "games": len(played), "move_time": move_time,
            "first_seed": played[0]["seed"], "engine_score": score,
            "win_rate": score / len(played), "low": low, "high": high,
            "mean_margin": float(np.mean([g["engine"] - g["greedy"] for g in played])),
            "seconds": round(seconds, 1),
            "cpu_share_min": min(g.get("cpu_share", 1.0) for g in played),
            "played": played}  # fmt: skip


if __name__ == "__main__":
    main()
