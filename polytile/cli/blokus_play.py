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
    """True when ``file`` is a Pentobi record or a polytile position of game ``"blokus"``."""
    from polytile.cli.render import is_record

    if is_record(file):
        return True
    try:
        with open(file, "rb") as f:
            head = f.read(1 << 20)  # a position is a few kB; its game may come late
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
    from polytile.cli.render import read_blokus
    from polytile.errors import IllegalMoveError
    from polytile.formats import dumps, write_atomic
    from polytile.puzzles.blokus.notation import is_pass, named_color, parse_move

    _, game, doc = read_blokus(str(record))
    assert game is not None  # is_blokus said so; read_blokus refuses what the rules refuse
    if doc is not None and doc.dropped:
        raise click.BadParameter(
            f"{record} holds what polytile does not write back ({'; '.join(doc.dropped)}); "
            f"playing into it would lose that, so nothing was written (keep the main line "
            f"alone in a copy, say with Pentobi, and play into that)",
            param_hint="RECORD",
        )
    start = len(game.move_stack)
    notes = []
    for i, text in enumerate(moves, 1):
        if game.is_game_over():
            raise click.BadParameter(f"move {i} ({text!r}): the game is over; nothing was "
                                     f"written", param_hint="MOVES")  # fmt: skip
        move = None
        try:
            named = named_color(text)
            if named == game.to_move and game.must_pass() and not is_pass(text):
                raise ValueError(f"{named} has no placement left: it can only pass")
            if not is_pass(text):  # a placement: the forced passes before it
                notes += [f"{name} passes (no placement left)" for name in _forced_passes(game)]
            move = parse_move(text, game)
            game.push(move)
        except (ValueError, IllegalMoveError) as e:
            why = _in_points(str(e), move, game)
            raise click.BadParameter(f"move {i} ({text!r}): {why}; nothing was written",
                                     param_hint="MOVES") from None  # fmt: skip
    notes += [f"{name} passes (no placement left)" for name in _forced_passes(game)]
    if doc is not None:  # a Pentobi record
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


def _in_points(message: str, move: Any, game: Any) -> str:
    """The rules engine's ``message`` with its cells written as points (``(4, 4)``: e10) and
    the move as the colour, the piece and its points."""
    from polytile.puzzles.blokus.sgf import cell_name

    size = game.size
    if move is not None and not move.is_pass:
        points = " ".join(cell_name(c, size) for c in move.cells)
        message = message.replace(str(move), f"{move.color} {move.piece} {points}")
    pair = re.compile(r"\((\d+), (\d+)\)")
    listed = re.compile(r"\[(\(\d+, \d+\)(?:, )?)+\]")  # [(0, 1), (0, 2)]
    message = listed.sub(lambda m: " ".join(cell_name((int(r), int(c)), size)
                                            for r, c in pair.findall(m[0])), message)  # fmt: skip
    return pair.sub(lambda m: cell_name((int(m[1]), int(m[2])), size), message)


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
    other players' colours (blocking them); then at random."""
    size = max(len(m.cells) for m in moves)
    moves = [m for m in moves if len(m.cells) == size]
    mine = {game.to_move, *game.player_to_move.split("+")}
    theirs = {cell for c in game.colors if c not in mine for cell in game.attach_points(c)}
    most = max(len(theirs.intersection(m.cells)) for m in moves)
    moves = [m for m in moves if len(theirs.intersection(m.cells)) == most]
    return moves[int(rng.integers(len(moves)))]


def self_play(game: Any, engines: dict[str, str], seed: int) -> None:
    """Play ``game`` to the end: each player's move by its engine (``random``: a uniformly
    random placement; ``greedy``: :func:`_greedy`), forced passes as they come. ``engines``
    are by player (:attr:`Blokus.player_to_move`) or by colour; with three players green's
    moves are made by the engine of the player whose turn with green it is."""
    import numpy as np

    rng = np.random.default_rng(seed)
    while moves := game.legal_moves():
        engine = engines.get(game.player_to_move) or engines.get(game.to_move, "greedy")
        if moves[0].is_pass:
            game.push(moves[0])
        elif engine == "greedy":
            game.push(_greedy(game, moves, rng))
        else:
            game.push(moves[int(rng.integers(len(moves)))])


def _take_back(game: Any, placements: int) -> None:
    """Take back the last ``placements`` placements (and the passes among them), then the
    passes before them: a record ends with a placement."""
    while placements > 0 and game.move_stack:
        placements -= not game.pop().is_pass
    while game.move_stack and game.move_stack[-1].is_pass:
        game.pop()


def selfplay_blokus(variant: str, players: str | None, engines: dict[str, str | None],
                    seed: int, games: int, stop_before_end: int,
                    output: Path | None) -> None:  # fmt: skip
    """``selfplay blokus``: ``games`` games into Pentobi records; ``engines`` by colour (None:
    not given, greedy)."""
    from polytile.formats import write_atomic
    from polytile.puzzles.blokus.rules import Blokus
    from polytile.puzzles.blokus.sgf import write_blksgf

    count: int | str | None = None if players is None else (
        players if players == "teams" else int(players))  # fmt: skip
    try:
        first = Blokus(variant, count)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--players") from None
    given = [c for c, e in engines.items() if e is not None]
    outside = [c for c in given if c not in first.colors]
    if first.players == 3 and "green" in given:
        outside.append("green")  # green's moves are made by the three players in turn
    if outside:
        raise click.BadParameter(
            f"{', '.join(outside)}: no player of its own in this game (its players: "
            f"{', '.join(first.colors if first.players != 3 else first.colors[:3])})",
            param_hint=", ".join(f"--{c}" for c in outside),
        )
    if output is not None and games == 1 and output.suffix.lower() == ".json":
        raise click.BadParameter(f"{output}: Blokus games are written as Pentobi records; "
                                 f"name the file .blksgf", param_hint="-o")  # fmt: skip
    if output is not None and games > 1:
        output.mkdir(parents=True, exist_ok=True)
    for i in range(games):
        game = first.copy()
        chosen = {c: engines.get(c) or "greedy" for c in game.colors}
        if game.players == 3:
            chosen["green"] = "shared"
        self_play(game, chosen, seed + i)
        _take_back(game, stop_before_end)
        names = ", ".join(f"{c} {e}" for c, e in chosen.items())
        text = write_blksgf(game, C=f"polytile selfplay, seed {seed + i}: {names}")
        target = output if games == 1 else output / f"blokus-{i + 1}.blksgf"  # type: ignore[operator]
        if target is None:
            click.echo(text, nl=False)
            continue
        write_atomic(target, text.encode("utf-8"))
        totals = game.score().player_totals
        state = "the end" if game.is_game_over() else "not finished"
        placed = sum(not m.is_pass for m in game.move_stack)
        click.echo(f"game {i + 1}: {placed} moves, {state}: "
                   + ", ".join(f"{p} {v}" for p, v in totals.items()), err=True)  # fmt: skip
