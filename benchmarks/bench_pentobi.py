"""The Blokus Duo engine against Pentobi (``pentobi-gtp``, a peer built from source, not a
dependency; ``README.md`` here says how), level by level, with the win rate's 95% interval
(Wilson's score interval; a tie counts half).

Game ``i`` (0, 1, ...) seeds polytile's engine with ``--seed + i`` and Pentobi with the same
number (``set_random_seed``); polytile plays the first colour (blue, Pentobi's ``b``) in
even games and the second (yellow, ``w``) in odd ones. Every move of Pentobi's is applied
through polytile's rules engine, so an illegal one stops the run naming it; a pass is
checked both ways (Pentobi must pass exactly when polytile's rules find no placement), and
the result is polytile's score, checked against Pentobi's ``final_score``. Pentobi plays
with its Duo opening book (as its GUI does: levels below 4 take only two moves a colour from
it) unless ``--nobook``, one search thread, no resigning.

Pentobi's levels are fixed numbers of simulations, so a busy machine only slows it; polytile's
engine has ``--move-time`` seconds a move, so a busy machine weakens it. Run the real
measurement alone on the machine:
``python benchmarks/bench_pentobi.py --levels 1,2,3,4,5,6 --stop-below 0.5 --json``
(40 games a level at 5 s a move are the defaults).
Results go to stdout (a line a game, then a table), with ``--json`` also to a file (the
games as Pentobi records included).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_engine_strength import wilson  # noqa: E402  (the same interval as against greedy)

PEERS = Path("/work/peers")
DEFAULT_PENTOBI = PEERS / "pentobi-build" / "pentobi_gtp" / "pentobi-gtp"
DEFAULT_BOOK = PEERS / "pentobi-src" / "opening_books" / "book_duo.blksgf"


class PentobiError(RuntimeError):
    """Pentobi answered a command with an error, died, or broke the rules."""


class Pentobi:
    """A ``pentobi-gtp`` process in Duo at one level, spoken to over GTP; a context manager
    that sends ``quit`` on leaving (and kills the process if it does not go)."""

    def __init__(self, path: Path, level: int, book: Path | None) -> None:
        self.level = level
        # Its stderr (search statistics), read back when it fails; closed in close().
        self._log: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        args = [str(path), "--game", "duo", "--level", str(level), "--noresign"]
        args += ["--book", str(book)] if book is not None else ["--nobook"]
        # Its own session: Ctrl-C reaches only us, and we send it quit.
        self._proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=self._log, text=True, bufsize=1,
                                      start_new_session=True)  # fmt: skip
        self.version = self.command("version")

    def command(self, line: str) -> str:
        """Pentobi's answer to one GTP command, without the ``=``; PentobiError on ``?``."""
        proc = self._proc
        if proc.stdin is None or proc.stdout is None or proc.poll() is not None:
            raise PentobiError(f"pentobi-gtp is not running{self._stderr_tail()}")
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        lines = []
        while (text := proc.stdout.readline()) not in ("\n", ""):
            lines.append(text.rstrip("\n"))
        if not lines:
            raise PentobiError(f"pentobi-gtp ended while answering {line!r}{self._stderr_tail()}")
        answer = "\n".join(lines)
        if answer.startswith("?"):
            raise PentobiError(f"pentobi-gtp refused {line!r}: {answer[1:].strip()}")
        return answer[1:].strip()

    def _stderr_tail(self) -> str:
        self._log.seek(0)
        tail = self._log.read().decode(errors="replace").strip().splitlines()[-5:]
        return (": " + " / ".join(tail)) if tail else ""

    def close(self) -> None:
        """``quit``, then wait for the process (kill it after 5 s)."""
        if self._proc.poll() is None:
            with contextlib.suppress(PentobiError, OSError):
                self.command("quit")
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._log.close()

    def __enter__(self) -> Pentobi:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def play_game(pentobi: Pentobi, seed: int, polytile_seat: int, move_time: float) -> dict[str, Any]:
    """One game from the empty Duo board, polytile's engine in ``polytile_seat`` (0: blue,
    first); the record of it (scores from polytile's side, Pentobi's own score, the game
    as a Pentobi record). PentobiError if Pentobi plays an illegal move or passes wrongly."""
    from polytile.errors import IllegalMoveError
    from polytile.puzzles.blokus.engine import engine_choice
    from polytile.puzzles.blokus.notation import move_text, parse_move
    from polytile.puzzles.blokus.points import cell_name, in_points
    from polytile.puzzles.blokus.rules import Blokus
    from polytile.puzzles.blokus.sgf import write_blksgf

    rng = np.random.default_rng(seed)
    g = Blokus("duo")
    gtp = dict(zip(g.colors, "bw", strict=True))  # blue is Pentobi's b, yellow its w
    pentobi.command("clear_board")
    pentobi.command(f"set_random_seed {seed}")
    spent = [0.0, 0.0]  # polytile's, Pentobi's seconds
    longest = 0.0  # polytile's longest move: how far past --move-time a move ran
    cpu = 0.0  # polytile's CPU seconds in its moves: against spent[0], how busy the machine is
    while moves := g.legal_moves():
        color = g.to_move
        seat = g.colors.index(color)
        started, cpu_started = time.perf_counter(), time.process_time()
        if seat == polytile_seat:
            move = moves[0] if moves[0].is_pass else engine_choice(g, move_time, rng=rng).move
            took = time.perf_counter() - started
            spent[0] += took
            longest = max(longest, took)
            cpu += time.process_time() - cpu_started
            if not move.is_pass:
                points = ",".join(cell_name(c, g.size) for c in move.cells)
                try:
                    pentobi.command(f"play {gtp[color]} {points}")
                except PentobiError as exc:  # polytile's rules allowed it: one of us is wrong
                    raise PentobiError(f"game seed {seed}, move {len(g.move_stack) + 1}, "
                                       f"polytile {color}: {exc}\n{g}") from None  # fmt: skip
            g.push(move)
            continue
        answer = pentobi.command(f"genmove {gtp[color]}")
        spent[1] += time.perf_counter() - started
        where = f"game seed {seed}, move {len(g.move_stack) + 1}, Pentobi {color}"
        if answer.lower() == "pass":
            if not moves[0].is_pass:
                raise PentobiError(f"{where}: Pentobi passed, but polytile's rules find "
                                   f"{len(moves)} placements, e.g. "
                                   f"{move_text(moves[0], g.size)}\n{g}")  # fmt: skip
            g.push(moves[0])
            continue
        move = None
        try:
            move = parse_move(f"{color} {answer}", g)
            g.push(move)
        except (ValueError, IllegalMoveError) as exc:
            raise PentobiError(f"{where} played {answer}, which polytile's rules refuse: "
                               f"{in_points(str(exc), move, g.size)}\n{g}") from None  # fmt: skip
    totals = list(g.score().player_totals.values())
    mine, theirs = totals[polytile_seat], totals[1 - polytile_seat]
    pentobi_score = pentobi.command("final_score")  # B+5, W+2 or 0: blue's margin is 5, -2, 0
    said = re.fullmatch(r"([BW])\+(\d+)|0", pentobi_score)
    blue_margin = None if said is None else 0 if said[1] is None else int(said[2]) * (
        1 if said[1] == "B" else -1)  # fmt: skip
    names = ("polytile", f"Pentobi level {pentobi.level}")
    record = write_blksgf(g, PB=names[polytile_seat], PW=names[1 - polytile_seat])
    return {"seed": seed, "polytile": g.colors[polytile_seat], "polytile_score": mine,
            "pentobi_score": theirs, "margin": mine - theirs,
            "pentobi_final_score": pentobi_score,
            "scores_agree": blue_margin == totals[0] - totals[1],
            "moves": len(g.move_stack), "polytile_seconds": round(spent[0], 1),
            "polytile_longest_move": round(longest, 2),
            "polytile_cpu_share": round(cpu / spent[0], 2) if spent[0] else None,
            "pentobi_seconds": round(spent[1], 1),
            "blksgf": record}  # fmt: skip


def warm_up() -> float:
    """Play one quick game of the engine against itself (0.05 s a move), so that loading
    numba's compiled kernels from its cache (seconds, on the first playouts and the first
    endgame of a process) falls on no measured move; the seconds it took. First, the
    engine's compiled code is made sure of (compiled after an install or an edit, which
    takes a minute or so): until it is, the engine plays its slow, unranked fallback."""
    from polytile._warm import ensure_compiled
    from polytile.puzzles.blokus.engine import engine_choice
    from polytile.puzzles.blokus.rules import Blokus

    started = time.perf_counter()
    ensure_compiled("blokus-endgame")
    g = Blokus("duo")
    rng = np.random.default_rng(0)
    while g.legal_moves():
        g.push(engine_choice(g, 0.05, rng=rng).move)
    return time.perf_counter() - started


def summary(level: int, games: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    """One table row: a level's games counted (a tie counts half)."""
    n = len(games)
    wins = sum(r["margin"] > 0 for r in games)
    ties = sum(r["margin"] == 0 for r in games)
    score = wins + ties / 2
    low, high = wilson(score, n)
    return {"level": level, "games": n, "wins": wins, "ties": ties, "losses": n - wins - ties,
            "score": score, "win_rate": score / n if n else 0.0, "low": low, "high": high,
            "mean_margin": float(np.mean([r["margin"] for r in games])) if n else 0.0,
            "seconds": round(seconds, 1)}  # fmt: skip


def print_table(rows: list[dict[str, Any]], move_time: float) -> None:
    print(f"\nBlokus Duo: polytile's engine at {move_time:g} s a move against Pentobi "
          "(a tie counts half in the win rate)")  # fmt: skip
    print("| Pentobi level | games | wins | ties | losses | win rate | 95% interval "
          "| mean margin | seconds |")  # fmt: skip
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r['level']} | {r['games']} | {r['wins']} | {r['ties']} | {r['losses']} "
              f"| {100 * r['win_rate']:.0f}% | {100 * r['low']:.0f}-{100 * r['high']:.0f}% "
              f"| {r['mean_margin']:+.1f} | {r['seconds']:.0f} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pentobi", type=Path, default=DEFAULT_PENTOBI,
                        help="the pentobi-gtp executable (default: %(default)s)")  # fmt: skip
    parser.add_argument("--book", type=Path, default=DEFAULT_BOOK,
                        help="Pentobi's Duo opening book (default: %(default)s)")  # fmt: skip
    parser.add_argument("--nobook", action="store_true", help="Pentobi without its book")
    parser.add_argument("--levels", default="1,2,3", help="Pentobi's levels (1-9), e.g. 1,2,3")
    parser.add_argument("--games", type=int, default=40, help="games a level")
    parser.add_argument("--move-time", type=float, default=5.0, help="polytile's seconds a move")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--stop-below", type=float, metavar="RATE",
                        help="play no higher level once a level's win rate is below RATE "
                             "(0.5: up the levels as far as the engine wins)")  # fmt: skip
    parser.add_argument("--json", nargs="?", const="", metavar="FILE",
                        help="also write the results here (alone: benchmarks/results/"
                             "pentobi-<move time>s-levels-<levels>-<games>.json)")  # fmt: skip
    args = parser.parse_args()
    levels = [int(v) for v in args.levels.split(",")]
    if args.games < 1 or not all(1 <= v <= 9 for v in levels):
        parser.error("--games must be at least 1 and --levels between 1 and 9")
    if not args.pentobi.is_file():
        parser.error(f"no pentobi-gtp at {args.pentobi}: build it (benchmarks/README.md)")
    book = None if args.nobook else args.book
    if book is not None and not book.is_file():
        parser.error(f"no opening book at {book}: give --book FILE or --nobook")
    rows: list[dict[str, Any]] = []
    games: list[dict[str, Any]] = []
    version = "?"
    stopped = 0  # the exit status: 130 after Ctrl-C, 1 after Pentobi's error
    try:
        print(f"warming up polytile's engine: {warm_up():.0f} s", file=sys.stderr, flush=True)
        for level in levels:
            started = time.perf_counter()
            played: list[dict[str, Any]] = []
            try:
                with Pentobi(args.pentobi, level, book) as pentobi:
                    version = pentobi.version
                    for i in range(args.games):
                        r = play_game(pentobi, args.seed + i, i % 2, args.move_time)
                        played.append({"level": level, **r})
                        print(f"  level {level} game {i + 1} (polytile {r['polytile']}): "
                              f"polytile {r['polytile_score']}, Pentobi {r['pentobi_score']}"
                              f" ({r['moves']} moves, {r['polytile_seconds']:.0f} s + "
                              f"{r['pentobi_seconds']:.0f} s; polytile's longest move "
                              f"{r['polytile_longest_move']:.1f} s, its CPU share "
                              f"{r['polytile_cpu_share']})"
                              + ("" if r["scores_agree"] else
                                 f"; Pentobi scores it {r['pentobi_final_score']}!"),
                              flush=True)  # fmt: skip
            finally:
                games += played
                if played:
                    rows.append(summary(level, played, time.perf_counter() - started))
            if args.stop_below is not None and rows[-1]["win_rate"] < args.stop_below:
                print(f"level {level}: win rate below {args.stop_below:g}, no higher level",
                      file=sys.stderr)  # fmt: skip
                break
    except KeyboardInterrupt:
        stopped = 130
        print("\ninterrupted: Pentobi stopped; the games finished so far:", file=sys.stderr)
    except PentobiError as exc:
        print(f"stopped: {exc}", file=sys.stderr)
        stopped = 1
    if rows:
        print_table(rows, args.move_time)
    if args.json is not None:
        path = Path(args.json) if args.json else HERE / "results" / (
            f"pentobi-{args.move_time:g}s-levels-{'-'.join(map(str, levels))}"
            f"-{args.games}.json")  # fmt: skip
        doc = {"date": datetime.date.today().isoformat(), "pentobi_version": version,
               "pentobi_book": str(book) if book else None, "move_time": args.move_time,
               "first_seed": args.seed, "complete": not stopped, "levels": rows,
               "games": games}  # fmt: skip
        path.write_text(json.dumps(doc, indent=2) + "\n")
        print(f"written: {path}", file=sys.stderr)
    sys.exit(stopped)


if __name__ == "__main__":
    main()
