"""Time City Blocks scoring and legal-move generation.

Scoring: :func:`polytile.puzzles.cityblocks.rules.score` (numpy for the free edges, networkx
regions, and it also collects the counted cells and every free edge) on a full 20x20 board
(a seeded random game played to its end), against the bare numbers computed in plain Python
(a depth-first search and loops over cells), measured side by side in this run. The issue's
figure: under 5 ms per full board.

Moves: :meth:`CityBlocks.legal_placements` (a list of moves) and
:meth:`CityBlocks.count_legal_placements` with full hands after every colour's first piece
(the largest move lists of a game) and in the middle of a game, then push/pop pairs and whole
random play-outs.

Run: ``python benchmarks/bench_score.py [--repeat N] [--seed S]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from polytile.formats import COLORS
from polytile.puzzles.cityblocks.rules import CityBlocks, Move, score


def plain_score(rows: Sequence[str]) -> dict[str, tuple[int, int]]:
    """(area, free) per colour in plain Python: depth-first search, loops over cells."""
    out = {}
    n_rows, n_cols = len(rows), len(rows[0])
    for name, letter in COLORS.items():
        seen: set[tuple[int, int]] = set()
        big = 0
        for r0 in range(n_rows):
            for c0 in range(n_cols):
                if rows[r0][c0] != letter or (r0, c0) in seen:
                    continue
                seen.add((r0, c0))
                todo, size = [(r0, c0)], 0
                while todo:
                    r, c = todo.pop()
                    size += 1
                    for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                        if (
                            0 <= nr < n_rows
                            and 0 <= nc < n_cols
                            and rows[nr][nc] == letter
                            and (nr, nc) not in seen
                        ):
                            seen.add((nr, nc))
                            todo.append((nr, nc))
                big = max(big, size)
        free = sum(
            1
            for r, row in enumerate(rows)
            for c, ch in enumerate(row)
            if ch == letter
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= nr < len(rows) and 0 <= nc < len(row) and rows[nr][nc] == "."
        )
        out[name] = (big if big >= 2 else 0, free)
    return out


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``repeat`` calls, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def play_out(game: CityBlocks, rng: random.Random, stop_after: int | None = None) -> int:
    """Random legal placements (passing only when forced) until the end; returns turns."""
    turns = 0
    while not game.is_game_over() and (stop_after is None or turns < stop_after):
        moves = game.legal_placements()
        game.push(rng.choice(moves) if moves else Move.pass_turn(game.to_move))
        turns += 1
    return turns


def main() -> None:
    """Print the times and ratios."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1000, help="runs per median (scoring)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    full = CityBlocks()
    play_out(full, rng)
    rows = full.board_rows()
    cells = sum(ch != "." for row in rows for ch in row)
    ours = {n: (s.area, s.free) for n, s in score(rows).colors.items()}
    if ours != plain_score(rows):
        raise SystemExit(f"scores differ: polytile {ours}, plain Python {plain_score(rows)}")
    t_ours = median_ms(lambda: score(rows), args.repeat)
    t_plain = median_ms(lambda: plain_score(rows), max(1, args.repeat // 10))
    print(f"full 20x20 board ({cells} cells occupied), seed {args.seed}")
    print(f"  score()                      {t_ours:8.3f} ms (median of {args.repeat})")
    print(f"  plain Python (numbers only)  {t_plain:8.3f} ms")
    print(f"  ratio polytile / plain       {t_ours / t_plain:8.3f}   (figure: score < 5 ms)")

    opening = CityBlocks()
    for color, (r, c) in (("blue", (0, 0)), ("yellow", (0, 18)), ("red", (19, 18))):
        opening.push(Move(color, "I2", [(r, c), (r, c + 1)]))
    opening.push(Move("green", "I2", [(19, 0), (18, 0)]))
    middle = CityBlocks()
    play_out(middle, random.Random(args.seed), stop_after=40)
    reps = max(10, args.repeat // 10)
    print("legal-move generation (side to move)")
    for label, game in (("opening, full hands", opening), ("after 40 turns", middle)):
        n = game.count_legal_placements()
        t_list = median_ms(game.legal_placements, reps)
        t_count = median_ms(game.count_legal_placements, reps)
        print(
            f"  {label:<22} {n:6d} moves: legal_placements {t_list:6.3f} ms, "
            f"count_legal_placements {t_count:6.3f} ms"
        )
    move = opening.legal_placements()[-1]

    def push_pop() -> None:
        opening.push(move)
        opening.pop()

    print(f"  push + pop                   {median_ms(push_pop, reps) * 1000:8.1f} us")
    outs = []
    for i in range(5):
        game = CityBlocks()
        start = time.perf_counter()
        turns = play_out(game, random.Random(args.seed + i))
        outs.append((time.perf_counter() - start, turns))
    t_game = statistics.median(t for t, _ in outs) * 1000
    print(f"  random play-out to the end   {t_game:8.1f} ms (median of 5, ~{outs[0][1]} turns)")


if __name__ == "__main__":
    main()
