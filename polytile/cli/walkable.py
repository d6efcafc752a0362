"""Walkable Cities on ``new``, ``play`` and ``selfplay``, chosen by the game name or the
file's format (``polytile/walkable@1``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

__all__ = [
    "is_walkable",
    "new_walkable",
    "refuse_walkable_options",
    "selfplay_walkable",
    "walkable_options",
]

_TAG = b'"polytile/walkable@1"'


def is_walkable(file: str) -> bool:
    """True when ``file`` is a Walkable Cities document (its first bytes say so;
    ``-`` is standard input)."""
    from polytile._files import has_tag

    return has_tag(file, _TAG)


def walkable_options(command: F) -> F:
    """The Walkable Cities rule options of ``new`` and ``selfplay``: ``--dead``,
    ``--pass-limit``, ``--tiebreak`` (None when not given)."""
    for option in reversed([
        click.option("--dead", type=click.IntRange(0, 100),
                     help="Walkable Cities: dead cells per board at seeded places "
                          "[default: 10]."),
        click.option("--pass-limit", type=click.Choice(["3", "4"]),
                     help="Walkable Cities: passes in a row that end the game [default: 3]."),
        click.option("--tiebreak", type=click.Choice(["none", "R", "B"]),
                     help="Walkable Cities: who wins equal boards won [default: none, a "
                          "draw]."),
    ]):  # fmt: skip
        command = option(command)
    return command


def _options(pass_limit: str | None, tiebreak: str | None) -> Any:
    from polytile.puzzles.walkable.rules import Options

    return Options(int(pass_limit or 3), tiebreak or "none")


def refuse_walkable_options(game: str, dead: int | None, pass_limit: str | None,
                            tiebreak: str | None) -> None:  # fmt: skip
    """Refuse the Walkable Cities options for another ``game``."""
    given = [n for n, v in (("--dead", dead), ("--pass-limit", pass_limit),
                            ("--tiebreak", tiebreak)) if v is not None]  # fmt: skip
    if given:
        raise click.UsageError(f"{', '.join(given)}: Walkable Cities options, not {game}'s")


def _write(text: str, output: Path | None) -> None:
    """``text`` to standard output, or atomically to ``output``."""
    from polytile.formats import write_atomic

    if output is None:
        click.echo(text, nl=False)
        return
    write_atomic(output, text)
    click.echo(f"wrote {output}", err=True)


def new_walkable(seed: int, dead: int | None, pass_limit: str | None, tiebreak: str | None,
                 output: Path | None) -> None:  # fmt: skip
    """``polytile new walkable``: a record of a seeded set-up and no rounds yet."""
    from polytile.puzzles.walkable.files import dumps_record
    from polytile.puzzles.walkable.rules import Walkable

    count = 10 if dead is None else dead
    g = Walkable.new(seed, count, _options(pass_limit, tiebreak))
    _write(dumps_record(g, {"seed": seed, "dead": count}), output)


def selfplay_walkable(red: str, blue: str, seed: int, games: int, stop_before_end: int,
                      dead: int | None, pass_limit: str | None, tiebreak: str | None,
                      output: Path | None) -> None:  # fmt: skip
    """``polytile selfplay walkable``: ``games`` records, seeds ``seed``, ``seed + 1``, ..."""
    from polytile.puzzles.walkable.files import dumps_record
    from polytile.puzzles.walkable.players import self_play
    from polytile.puzzles.walkable.rules import PLAYER_NAMES, Walkable

    if games > 1 and output is not None:
        output.mkdir(parents=True, exist_ok=True)
    count = 10 if dead is None else dead
    for i in range(games):
        g = Walkable.new(seed + i, count, _options(pass_limit, tiebreak))
        self_play(g, (red, blue), seed=seed + i)
        for _ in range(min(stop_before_end, g.round)):
            g.pop_round()
        extra = {"players": {"red": red, "blue": blue}}
        target = output if games == 1 else output / f"walkable-{i + 1}.json"  # type: ignore[operator]
        _write(dumps_record(g, {"seed": seed + i, "dead": count}, extra), target)
        if output is not None:
            res = g.result()
            won = f"boards won: red {res.won[0]}, blue {res.won[1]}"
            if not g.is_over():
                result = "not finished"
            elif res.winner is None:
                result = "a draw"
            else:
                result = f"{PLAYER_NAMES[res.winner]} wins" + (" (tiebreak)" if res.by_tiebreak
                                                               else "")  # fmt: skip
            click.echo(f"game {i + 1}: {g.round} rounds, {won}: {result}", err=True)
