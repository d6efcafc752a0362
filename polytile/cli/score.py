"""``polytile score``: score a City Blocks (Ritchie) position: area plus free edges; City
Blocks (Henning) and Gridblock files get their own scores."""

from __future__ import annotations

import json
from pathlib import Path

import click

from polytile.cli.render import picture_options

__all__ = ["COMMANDS", "score"]


@click.command(
    "score",
    help="""Score a City Blocks (Ritchie's or Henning's), Gridblock or Walkable Cities
game.

A City Blocks (Henning) file (polytile/henning@1: a record, position or view) gets each
player's money and every street's standing: its token, the totals on it, who leads and by
how much, or who won it. A Gridblock file (polytile/gridblock@1) gets each colour's cubes
on corners, tile bonuses and total, each player's points (with 2 players, two colours
summed or the weaker one) and who leads or won. A Walkable Cities file
(polytile/walkable@1) gets, per board, each player's largest region and who wins it, the
boards won and the result.

POSITION is a polytile/position@1 file of game "cityblocks", or a plain text board of 20
rows of 20 cells ('. B Y R G'; the four centre squares in place); '-' reads standard input.

Each colour scores its area (the size of its largest edge-connected group of cells, the
centre square included; 0 if that group is a single cell) plus its free edges (edges
between one of its cells and an empty cell; edges on the border or against any occupied
cell score nothing). With 2 players blue+red play yellow+green; with 3, green is shared and
its score ignored.

The picture marks each colour's counted area with dots (capital letters in plain text);
with -o, SVG and PNG pictures also mark every free edge with a stripe of the colour.

\b
Exit codes:
  0  scored
  2  unreadable file, not a City Blocks board, or bad usage

\b
Examples:
  polytile score game.json
  polytile score game.json --players 2 --json
  polytile score board.txt -o scores.svg
  polytile score gridblock.json --json
""",
)
@click.argument("position", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print {"game", "colors": {name: {area, free, total}}, "players": {...}}.',
)
@click.option(
    "--players",
    type=click.Choice(["2", "3", "4"]),
    help='How colours make up players [default: the file\'s "players", else 4].',
)
@picture_options
def score(
    position: str,
    as_json: bool,
    players: str | None,
    output: Path | None,
    color: bool | None,
    cell: int,
) -> None:
    """Print the scores of ``position``, with a picture."""
    from polytile.cli.gridblock import is_gridblock, score_gridblock
    from polytile.cli.henning import is_henning, score_henning

    if is_henning(position):  # City Blocks (Henning): money and street standings
        score_henning(position, None, as_json, color)
        return
    if is_gridblock(position):  # Gridblock: cubes, tile bonuses, players' points
        score_gridblock(position, None, as_json, color)
        return
    from polytile.cli.walkable import is_walkable, score_walkable

    if is_walkable(position):  # Walkable Cities: largest regions, boards won
        score_walkable(position, as_json, color)
        return
    from polytile.cli.render import read_position
    from polytile.puzzles.cityblocks.picture import save_score_picture, score_table, score_text
    from polytile.puzzles.cityblocks.rules import players_of
    from polytile.puzzles.cityblocks.rules import score as score_board

    obj, is_text = read_position(position, ("cityblocks",), "score")
    source = "<stdin>" if position == "-" else position
    recorded = 4 if is_text else players_of(obj, source)  # checked even under --players
    count = int(players) if players is not None else recorded
    # A position names rows by field (board[3]), a plain text board by row number.
    sheet = score_board(obj.board if is_text else obj, count, source)
    rows = obj.board
    if output is not None:
        save_score_picture(rows, sheet, output, cell=cell)
        click.echo(f"wrote {output}", err=True)
    if as_json:
        click.echo(json.dumps(sheet.as_dict()))
        return
    if output is None:
        picture = score_text(rows, sheet, color=color)
        click.echo(picture, nl=False, color="\x1b[" in picture)
        click.echo()
    click.echo(score_table(sheet))


COMMANDS = [score]
