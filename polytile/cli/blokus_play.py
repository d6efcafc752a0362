"""``polytile play`` and ``polytile selfplay`` for Blokus: positions and Pentobi records.

``play`` reads a Blokus position (``polytile new blokus``) or a Pentobi record
(``.blksgf``), plays the moves with the rules engine (the forced passes on the way
included), and writes the file again only when every move was legal: a position as the new
position, a record with the moves added to its main line (its comments and properties
kept). ``selfplay blokus`` lets engine players play whole games into records.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

__all__ = ["is_blokus", "play_blokus", "selfplay_blokus"]

_BLOKUS_GAME = re.compile(rb'"game"\s*:\s*"blokus"')


def is_blokus(file: str) -> bool:
    """True when ``file`` is a Pentobi record or a polytile position of game ``"blokus"``
    (its first 4 kB say so)."""
    from polytile.cli.render import is_record

    if is_record(file):
        return True
    try:
        with open(file, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return b'"polytile/position@1"' in head and _BLOKUS_GAME.search(head) is not None


def _forced_passes(game: Any) -> list[str]:
    """Push the passes of the colours that must pass now; their names."""
    from polytile.puzzles.blokus.rules import Move

    passed = []
    while game.must_pass():
        passed.append(game.to_move)
        game.push(Move.pass_turn(game.to_move))
    return passed


def play_blokus(record: Path, moves: tuple[str, ...], color: bool | None) -> None:
    """``play`` on a Blokus position or Pentobi record (see the module notes)."""
    from polytile.cli.render import is_record, read_blokus
    from polytile.errors import IllegalMoveError
    from polytile.formats import dumps, write_atomic
    from polytile.puzzles.blokus.notation import parse_move

    _, game, doc = read_blokus(str(record))
    assert game is not None  # is_blokus said so; read_blokus refuses what the rules refuse
    start = len(game.move_stack)
    notes = []
    for i, text in enumerate(moves, 1):
        if game.is_game_over():
            raise click.BadParameter(f"move {i} ({text!r}): the game is over; nothing was "
                                     f"written", param_hint="MOVES")  # fmt: skip
        try:
            if text.split()[-1:] != ["pass"]:  # a placement: the forced passes before it
                notes += [f"{name} passes (no placement left)" for name in _forced_passes(game)]
            game.push(parse_move(text, game))
        except (ValueError, IllegalMoveError) as e:
            raise click.BadParameter(
                f"move {i} ({text!r}): {e}; nothing was written (points like e10 are a column "
                f"and a row counted from the bottom; cells like 4,4 a row and a column from the "
                f"top left)",
                param_hint="MOVES",
            ) from None
    notes += [f"{name} passes (no placement left)" for name in _forced_passes(game)]
    if doc is not None and is_record(str(record)):
        from dataclasses import replace

        from polytile.puzzles.blokus.sgf import write_blksgf

        added = [m for m in game.move_stack[start:] if not m.is_pass]
        text = write_blksgf(replace(doc, moves=(*doc.moves, *added)))
    else:
        text = dumps(game.to_position())
    write_atomic(record, text.encode("utf-8"))
    for note in notes:
        click.echo(note, err=True)
    click.echo(f"wrote {record}", err=True)
    shown = picture(game, color)
    click.echo(shown, nl=False, color="\x1b[" in shown)


def picture(game: Any, color: bool | None) -> str:
    """The board with column letters and row numbers (Pentobi's points), the last
    placement highlighted and the attach points of the colour to move; then who is to move,
    or the final scores."""
    from polytile.render import to_text

    last = next((m for m in reversed(game.move_stack) if not m.is_pass), None)
    over = game.is_game_over()
    marks = [] if over else game.attach_points()
    text = to_text(game.to_position(), color, marks=marks, mark_color=None if over else
                   game.to_move, highlight=last.cells if last else (),
                   highlight_color=last.color if last else None)  # fmt: skip
    coloured = "\x1b[" in text
    n = game.size
    rows = text.rstrip("\n").split("\n")
    out = [f"{n - i:>2} {row}" for i, row in enumerate(rows)]
    out.append("   " + " ".join(chr(ord("a") + c) for c in range(n)))
    legend = []
    if last is not None:
        legend.append(f"highlighted: the last move, {last.color} {last.piece}")
    if over:
        totals = game.score().player_totals
        legend.append("the game is over: " + ", ".join(f"{p} {v}" for p, v in totals.items()))
    else:
        symbol = "•" if coloured else "+"
        legend.append(f"{symbol} attach points of {game.to_move} (to move)")
    return "\n".join(out) + "\n" + "; ".join(legend) + "\n"


def _greedy(game: Any, moves: list[Any], rng: Any) -> Any:
    """The biggest piece; among those, the placement covering the most attach points of the
    other colours (blocking them); then at random."""
    size = max(len(m.cells) for m in moves)
    moves = [m for m in moves if len(m.cells) == size]
    theirs = {cell for c in game.colors if c != game.to_move for cell in game.attach_points(c)}
    most = max(len(theirs.intersection(m.cells)) for m in moves)
    moves = [m for m in moves if len(theirs.intersection(m.cells)) == most]
    return moves[int(rng.integers(len(moves)))]


def self_play(game: Any, engines: dict[str, str], seed: int) -> None:
    """Play ``game`` to the end: each colour's move by its engine (``random``: a uniformly
    random placement; ``greedy``: :func:`_greedy`), forced passes as they come."""
    import numpy as np

    rng = np.random.default_rng(seed)
    while moves := game.legal_moves():
        if moves[0].is_pass:
            game.push(moves[0])
        elif engines[game.to_move] == "greedy":
            game.push(_greedy(game, moves, rng))
        else:
            game.push(moves[int(rng.integers(len(moves)))])


def selfplay_blokus(variant: str, players: str | None, engines: dict[str, str], seed: int,
                    games: int, stop_before_end: int, output: Path | None) -> None:  # fmt: skip
    """``selfplay blokus``: ``games`` games into Pentobi records."""
    from polytile.formats import write_atomic
    from polytile.puzzles.blokus.rules import Blokus
    from polytile.puzzles.blokus.sgf import write_blksgf

    count: int | str | None = None if players is None else (
        players if players == "teams" else int(players))  # fmt: skip
    try:
        first = Blokus(variant, count)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--players") from None
    if output is not None and games > 1:
        output.mkdir(parents=True, exist_ok=True)
    for i in range(games):
        game = first.copy()
        chosen = {c: engines.get(c, "greedy") for c in game.colors}
        self_play(game, chosen, seed + i)
        for _ in range(min(stop_before_end, len(game.move_stack))):
            game.pop()
        while game.move_stack and game.move_stack[-1].is_pass:
            game.pop()  # a record ends with a placement: passes are not written
        names = ", ".join(f"{c} {e}" for c, e in chosen.items())
        text = write_blksgf(game, C=f"polytile selfplay, seed {seed + i}: {names}")
        target = output if games == 1 else output / f"blokus-{i + 1}.blksgf"  # type: ignore[operator]
        if target is None:
            click.echo(text, nl=False)
            continue
        write_atomic(target, text.encode("utf-8"))
        totals = game.score().player_totals
        state = "the end" if game.is_game_over() else "not finished"
        click.echo(f"game {i + 1}: {len(game.move_stack)} moves, {state}: "
                   + ", ".join(f"{p} {v}" for p, v in totals.items()), err=True)  # fmt: skip
