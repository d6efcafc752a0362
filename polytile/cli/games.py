"""``polytile new``, ``polytile play`` and ``polytile selfplay``: start, continue and self-play
games, writing files the other commands read (``render``, ``score``, ``validate``,
``solve-endgame``)."""

from __future__ import annotations

from pathlib import Path

import click

__all__ = ["COMMANDS"]

_NEW_GAMES = ("henning", "blokus", "cityblocks")
SEED = click.IntRange(0, 2**31 - 1)


def _write(text: str, output: Path | None) -> None:
    from polytile.formats import write_atomic

    if output is None:
        click.echo(text, nl=False)
    else:
        write_atomic(output, text)
        click.echo(f"wrote {output}", err=True)


@click.command(
    "new",
    help="""Set up a new game and write it as a file.

\b
GAME is one of:
  henning      City Blocks by J. Alan Henning: a game record with a seeded set-up (street
               tokens, first player, both players' shuffled tiles) and no moves yet
  blokus       Blokus: the empty board as a position (--variant classic|duo)
  cityblocks   City Blocks by Jeremy Ritchie: the start position (--players 2|3|4)

The file goes to standard output unless -o names one. The same --seed gives the same
set-up.

\b
Exit codes:
  0  written
  2  bad usage

\b
Examples:
  polytile new henning --seed 7 -o game.json
  polytile play game.json S4@b3
  polytile render game.json
""",
)
@click.argument("game", type=click.Choice(_NEW_GAMES))
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the set-up.")
@click.option("--variant", type=click.Choice(["classic", "duo"]), default="classic",
              show_default=True, help="Blokus variant.")  # fmt: skip
@click.option("--players", type=click.Choice(["2", "3", "4", "teams"]),
              help="Blokus or City Blocks (Ritchie) players [default: the variant's].")  # fmt: skip
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the file here (atomically) instead of to standard output.")  # fmt: skip
def new(game: str, seed: int, variant: str, players: str | None, output: Path | None) -> None:
    """Write a new game of ``game``."""
    if game == "henning":
        from polytile.puzzles.henning.files import dumps_record
        from polytile.puzzles.henning.rules import Henning

        _write(dumps_record(Henning.new(seed), {"seed": seed}), output)
        return
    from polytile.formats import dumps

    count: int | str | None = None
    if players is not None:
        count = players if players == "teams" else int(players)
    if game == "blokus":
        from polytile.puzzles.blokus.rules import Blokus

        _write(dumps(Blokus(variant, count).to_position()), output)
    else:
        from polytile.puzzles.cityblocks.rules import CityBlocks

        if count == "teams":
            raise click.BadParameter("City Blocks (Ritchie) takes 2, 3 or 4 players",
                                     param_hint="--players")  # fmt: skip
        _write(dumps(CityBlocks(int(count or 4)).to_position()), output)


@click.command(
    "play",
    help="""Play moves in a City Blocks (Henning) game record, in place.

RECORD is a game record (polytile new henning). Each MOVE is checked by the rules engine
before anything is written; if one is illegal, nothing is written and the reason is given.
Then the city is shown.

\b
Move forms:
  S4@b3                          develop block b3 (column b, row 3) with the store S4
  redevelop H2@c1 with $3        pay your lowest token ($3), replace your tile on c1 by H2
  CH@a2 swap 1,c                 a courthouse that swaps the tokens of row 1 and column c
  pass                           only when you have no legal play

Tiles: H1-H5, S2-S6, F3-F7, SC (school, also PK or park), PP, MA, CH.

\b
Exit codes:
  0  played and written
  2  an illegal move, an unreadable record, or bad usage

\b
Examples:
  polytile play game.json S4@b3
  polytile play game.json "CH@a2 swap 1,c" --no-color
""",
)
@click.argument("record", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("moves", nargs=-1, required=True)
@click.option("--color/--no-color", default=None,
              help="Colour the picture [default: on a terminal].")  # fmt: skip
def play(record: Path, moves: tuple[str, ...], color: bool | None) -> None:
    """Append ``moves`` to ``record``."""
    from polytile.errors import IllegalMoveError
    from polytile.puzzles.henning.files import dumps_record, load_henning
    from polytile.puzzles.henning.moves import Move
    from polytile.puzzles.henning.picture import to_text

    doc = load_henning(record)
    if doc.kind != "record":
        raise click.BadParameter(f"{record} is a {doc.kind}; play continues a game record",
                                 param_hint="RECORD")  # fmt: skip
    g = doc.state
    for i, text in enumerate(moves, 1):
        try:
            g.push(Move.parse(text))
        except (ValueError, IllegalMoveError) as e:
            raise click.BadParameter(f"move {i} ({text!r}): {e}; nothing was written",
                                     param_hint="MOVES") from None  # fmt: skip
    _write(dumps_record(g, doc.extra), record)
    click.echo(to_text(g, color=color))


@click.command(
    "selfplay",
    help="""Let engine players play City Blocks (Henning) games and write their records.

Players: 'random' (a uniformly random legal move) and 'greedy' (the best immediate money
margin, then the best street leads; it reads only its own hand). --games N writes N records
GAME-1.json ... with seeds --seed, --seed+1, ... into the folder -o names.

\b
Exit codes:
  0  written
  2  bad usage

\b
Examples:
  polytile selfplay henning --blue greedy --red random -o game.json
  polytile selfplay henning --games 20 --seed 100 -o records/
""",
)
@click.argument("game", type=click.Choice(["henning"]))
@click.option("--blue", type=click.Choice(["greedy", "random"]), default="greedy",
              show_default=True, help="Blue's player.")  # fmt: skip
@click.option("--red", type=click.Choice(["greedy", "random"]), default="greedy",
              show_default=True, help="Red's player.")  # fmt: skip
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the set-up and of the players' random choices.")  # fmt: skip
@click.option("--games", type=click.IntRange(1, 10_000), default=1, show_default=True,
              help="How many games; several go to GAME-i.json in the -o folder.")  # fmt: skip
@click.option("--stop-before-end", type=click.IntRange(0, 100), default=0, show_default=True,
              help="Stop this many moves before the end (positions left to analyse).")  # fmt: skip
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="The record file, or a folder with --games N [default: stdout].")  # fmt: skip
def selfplay(game: str, blue: str, red: str, seed: int, games: int, stop_before_end: int,
             output: Path | None) -> None:  # fmt: skip
    """Self-play ``games`` games."""
    from polytile.puzzles.henning.files import dumps_record
    from polytile.puzzles.henning.players import self_play
    from polytile.puzzles.henning.rules import Henning

    if games > 1 and output is None:
        raise click.BadParameter("several games need a folder", param_hint="-o/--output")
    if games > 1 and output is not None:
        output.mkdir(parents=True, exist_ok=True)
    for i in range(games):
        g = Henning.new(seed + i)
        self_play(g, (blue, red), seed=seed + i)
        for _ in range(min(stop_before_end, len(g.move_stack))):
            g.pop()
        extra = {"seed": seed + i, "players": {"blue": blue, "red": red}}
        target = output if games == 1 else output / f"{game}-{i + 1}.json"  # type: ignore[operator]
        _write(dumps_record(g, extra), target)
        if (games == 1 and output is not None) or games > 1:
            m = g.margin()
            result = "draw" if m == 0 else f"{'blue' if m > 0 else 'red'} by ${abs(m)}"
            click.echo(f"game {i + 1}: {len(g.move_stack)} moves, {result}", err=True)


COMMANDS = [new, play, selfplay]
