"""Time the Blokus rules engine: full random games per second on one core, against a peer.

polytile: :class:`polytile.puzzles.blokus.rules.Blokus` through its public API, the way a user
plays: ``legal_moves()`` (a list of :class:`Move`, or the forced pass), a uniformly random
choice, ``push(move)`` (which checks the move again), until ``is_game_over()``. Also the
cost of one ``legal_moves()`` / ``count_legal_moves()`` at the start and mid-game, and of a
push/pop pair.

Peer, measured in the same run: ``blokus-rl`` (PyPI, a Rust core behind a PettingZoo
environment), its core class ``PyBlokus`` driven directly (no PettingZoo wrapper): the legal
moves come from ``observe(seat).action_mask`` (which also builds the board planes, the only
way it offers), a uniformly random legal action is stepped, a seat with no move steps
``None``, until ``is_over``. It runs in its own virtualenv, never in polytile's::

    python3 -m venv benchmarks/.venv-peers-blokus
    benchmarks/.venv-peers-blokus/bin/pip install blokus-rl==0.4.0

``blokus-engine`` (PyPI 0.3.6) was tried too: it exposes only self-play drivers that need
a neural-network server and queues, no position or move API, so it cannot be timed here.
``blokus-gym`` (2020, old gym) was not tried.

Both processes are pinned to one CPU. Read the ratio, not the seconds: the machine is shared.

Run: ``/work/venv/bin/python benchmarks/bench_blokus_moves.py [--games N] [--seed S]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

PEER_PYTHON = Path(__file__).resolve().parent / ".venv-peers-blokus" / "bin" / "python"


def pin_one_core() -> None:
    """Run on one CPU (the first this process may use)."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def polytile_games(games: int, seed: int, variant: str = "classic") -> dict[str, float]:
    """Random games through the public API; games per second and placements per game."""
    import numpy as np

    from polytile.puzzles.blokus import kernels
    from polytile.puzzles.blokus.rules import Blokus

    kernels.use_compiled()  # as every long run ends up doing (see polytile.puzzles.blokus.kernels)
    Blokus(variant).play_random(seed)  # JIT cache, placement table and moves warmed
    rng = np.random.default_rng(seed)
    plies = 0
    start = time.perf_counter()
    for _ in range(games):
        game = Blokus(variant)
        while True:
            moves = game.legal_moves()
            if not moves:
                break
            move = moves[int(rng.integers(len(moves)))]
            game.push(move)
            plies += not move.is_pass
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "plies": plies / games}


def peer_games(games: int, seed: int) -> dict[str, float]:
    """The same loop on blokus-rl's ``PyBlokus`` (run inside the peer virtualenv); plies are
    placements, as for polytile."""
    import numpy as np
    from blokus_rl._blokus import PyBlokus

    env = PyBlokus()
    rng = np.random.default_rng(seed)
    plies = 0
    start = time.perf_counter()
    for _ in range(games):
        env.reset()
        while not env.is_over:
            seat = env.agent_selection
            if env.terminations[seat]:
                env.step(None)
                continue
            mask = np.frombuffer(env.observe(seat).action_mask, dtype=np.int8)
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.integers(len(legal))]))
            plies += 1
    elapsed = time.perf_counter() - start
    first = PyBlokus()
    start_moves = int(
        np.frombuffer(first.observe(first.agent_selection).action_mask, np.int8).sum()
    )
    return {"games_per_s": games / elapsed, "plies": plies / games, "start_moves": start_moves}


def micro(repeat: int, compiled: bool = True) -> dict[str, float]:
    """Microseconds per call of move generation and push/pop, with the compiled kernels or
    (``compiled=False``) the numpy ones, which short commands use."""
    from polytile.puzzles.blokus import kernels
    from polytile.puzzles.blokus.rules import Blokus

    if compiled:
        kernels.use_compiled()
    else:
        kernels.use_numpy()
        kernels.SWITCH_AFTER = float("inf")  # stay on numpy for the measurement

    def per_call(fn: Any) -> float:
        times = []
        for _ in range(5):
            t = time.perf_counter()
            for _ in range(repeat):
                fn()
            times.append((time.perf_counter() - t) / repeat)
        return statistics.median(times) * 1e6

    start = Blokus()
    mid = Blokus()
    mid.play_random(3)
    while len(mid.move_stack) > 32:  # back to move 32 of a finished random game
        mid.pop()
    move = mid.legal_moves()[0]

    def push_pop() -> None:
        mid.push(move)
        mid.pop()

    return {
        "legal_moves start": per_call(start.legal_moves),
        "legal_moves move 32": per_call(mid.legal_moves),
        "count_legal_moves move 32": per_call(mid.count_legal_moves),
        "push+pop": per_call(push_pop),
        "moves at move 32": len(mid.legal_moves()),
    }


def row(name: str, result: dict[str, float]) -> None:
    """One line of the games table."""
    print(f"{name:<34} {result['games_per_s']:9.1f} {result['plies']:16.1f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--peer-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    pin_one_core()
    if args.peer_worker:
        print(json.dumps(peer_games(args.games, args.seed)))
        return
    ours = polytile_games(args.games, args.seed)
    duo = polytile_games(args.games, args.seed, "duo")
    print(f"{'engine':<34} {'games/s':>9} {'placements/game':>16}")
    row("polytile Blokus (classic, 4 col.)", ours)
    row("polytile Blokus (duo)", duo)
    if PEER_PYTHON.exists():
        cmd = [str(PEER_PYTHON), __file__, "--peer-worker", "--games", str(args.games)]
        done = subprocess.run([*cmd, "--seed", str(args.seed)], capture_output=True, text=True)
        if done.returncode == 0:
            peer = json.loads(done.stdout)
            row("blokus-rl 0.4.0 PyBlokus (Rust)", peer)
            print(f"ratio polytile / blokus-rl: {ours['games_per_s'] / peer['games_per_s']:.2f}")
            print(f"(blokus-rl counts {peer['start_moves']} legal first moves; polytile 58)")
        else:
            print(f"blokus-rl failed: {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
    else:
        print(f"no peer: {PEER_PYTHON} missing (see the docstring to install it)", file=sys.stderr)
    print()
    fast, slow = micro(200), micro(200, compiled=False)
    print(f"{'per call':<28} {'compiled':>10} {'numpy':>10} {'ratio':>7}")
    for name, value in fast.items():
        if name.startswith("moves"):
            print(f"{name:<28} {value:10.0f}")
        else:
            print(f"{name:<28} {value:7.1f} us {slow[name]:7.1f} us {slow[name] / value:6.1f}x")


if __name__ == "__main__":
    main()
