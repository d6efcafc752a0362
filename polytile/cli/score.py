"""``polytile score``: score a City Blocks (Ritchie) position: area plus free edges; City
Blocks (Henning) and Gridblock files get their own scores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from polytile.cli.options import RECORD_MOVE, game_options, given_options, picture_options

__all__ = ["COMMANDS", "score"]


@click.command(
    "score",
    help="""Score a City Blocks (Ritchie's or Henning's), Blokus, Gridblock or Walkable
Cities game.

A City Blocks (Henning) file (polytile/henning@1: a record, position or view) gets each
player's money and every street's standing: its token, the totals on it, who leads and by
how much, or who won it. A Gridblock file (polytile/gridblock@1) gets each colour's cubes
on corners, tile bonuses and total, each player's points (with 2 players, two colours
summed or the weaker one) and who leads or won. A Walkable Cities file
(polytile/walkable@1) gets, per board, each player's largest region and who wins it, the
boards won and the result. A Blokus position or Pentobi record (.blksgf, its last
position or the one after --move N) gets each colour's squares still in hand, its bonus
(+15 all placed, +5 more with I1 last) and total, the players' totals (--players regroups
the colours) and who leads or won.

POSITION is one of those files, a polytile/position@1 file of game "cityblocks" or
"blokus", a Pentobi record (.blksgf; not from standard input), or a plain text City Blocks
board of 20 rows of 20 cells ('. B Y R G'; the four centre squares in place); '-' reads
standard input. A game record (Blokus, City Blocks (Henning), Gridblock or Walkable Cities)
is scored at its end, or after move N with --move N (Walkable Cities: after N rounds).

City Blocks (Jeremy Ritchie's): each colour scores its area (the size of its largest
edge-connected group of cells, the centre square included; 0 if that group is a single
cell) plus its free edges (edges between one of its cells and an empty cell; edges on the
border or against any occupied cell score nothing). With 2 players blue+red play
yellow+green; with 3, green is shared and its score ignored. A position with "hands" is
checked first as 'polytile validate' checks it (each hand's pieces, and its cells against
the board) and refused when invalid; a board without hands (a position without "hands", or
plain text) is scored as it stands.

The picture marks each colour's counted area with dots (capital letters in plain text);
with -o, SVG and PNG pictures also mark every free edge with a stripe of the colour.

\b
Exit codes:
  0  scored
  2  unreadable file, not a game polytile scores, or bad usage

\b
Examples:
  polytile score game.json
  polytile score game.json --players 2 --json
  polytile score board.txt -o scores.svg
  polytile score gridblock.json --json
  polytile score duo.blksgf --json
  polytile score duo.blksgf --move 20
""",
)
@click.argument("position", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print JSON: {"game", "colors": {name: {...}}, "players": {...}}; per colour '
    "area, free, total (City Blocks) or left, bonus, total (Blokus, with variant, over, "
    "leaders or winners); each game's own fields for the others.",
)
@RECORD_MOVE
@game_options("score_options", same_help=True)
@picture_options
def score(
    position: str,
    as_json: bool,
    move: int | None,
    output: Path | None,
    color: bool | None,
    cell: int,
    **options: Any,
) -> None:
    """Print the scores of ``position``, with a picture."""
    from polytile.cli.console import CONSOLE, facing
    from polytile.faces.registry import POSITION_GAMES, TEXT_BOARDS, face, face_of_file

    found = face_of_file(position, "score")
    if found is None:  # no game's file by its first bytes: read it to say why, or to tell
        from polytile.cli.render import read_position

        board_game = TEXT_BOARDS["score"]
        games = (board_game, *(g for g in POSITION_GAMES if g != board_game))
        found = face(read_position(position, games, "score", move)[0].game)
    given = given_options(found.name, options, "score_options")
    with facing():
        found.score(CONSOLE, position, move, as_json, color, output, cell, given)


COMMANDS = [score]
