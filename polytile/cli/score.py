"""``polytile score``: score a City Blocks (Ritchie) position: area plus free edges; City
Blocks (Henning) and Gridblock files get their own scores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from polytile.cli.render import picture_options

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
@click.option(
    "--move",
    type=click.IntRange(0),
    default=None,
    metavar="N",
    help="For a game record: the position after move N (Walkable Cities: after N rounds) "
    "[default: the end].",
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
    move: int | None,
    players: str | None,
    output: Path | None,
    color: bool | None,
    cell: int,
) -> None:
    """Print the scores of ``position``, with a picture."""
    from polytile.cli.console import CONSOLE, facing
    from polytile.puzzles.faces import face_of_file

    face = face_of_file(position)
    if face is not None:  # a game with a face of its own scores itself
        if players is not None:
            raise click.UsageError("--players: only for City Blocks (Ritchie) and Blokus")
        with facing():
            face.score(CONSOLE, position, move, as_json, color, output, cell)
        return
    from polytile.cli.render import is_record, read_blokus, read_position

    source = "<stdin>" if position == "-" else position
    if is_record(position):  # a Pentobi record: its last position, or the one after --move
        record_position, game, _ = read_blokus(position, move)
        _score_blokus(record_position, game, players, as_json, output, color, cell)
        return
    # read once; --move is refused here, as for every file that is not a record
    obj, is_text = read_position(position, ("cityblocks", "blokus"), "score", move)
    if obj.game == "blokus":
        from polytile.puzzles.blokus.rules import Blokus

        _score_blokus(obj, Blokus.from_position(obj, source), players, as_json, output, color,
                      cell)  # fmt: skip
        return
    from polytile.puzzles.cityblocks.picture import save_score_picture, score_table, score_text
    from polytile.puzzles.cityblocks.rules import CityBlocks, players_of
    from polytile.puzzles.cityblocks.rules import score as score_board

    recorded = 4 if is_text else players_of(obj, source)  # checked even under --players
    if not is_text and obj.hands:  # its hands against the board, as validate checks them
        CityBlocks.from_position(obj, source=source)
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


def _score_blokus(obj: Any, game: Any, players: str | None, as_json: bool,
                  output: Path | None, color: bool | None, cell: int) -> None:  # fmt: skip
    """Score a Blokus position ``obj`` (``game`` is its rules engine): each colour's squares
    left, bonus and total, the players' totals, who leads or won."""
    from polytile.puzzles.blokus.scoring import check_players, score_hands
    from polytile.render import save_picture, to_text

    sheet = game.score()
    if players is not None:
        count: int | str = int(players)
        try:
            check_players(count, game.variant.name)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--players") from None
        sheet = score_hands(sheet.hands or {}, sheet.last_pieces or {}, count, game.variant.name)
    over = game.is_game_over()
    totals = sheet.player_totals
    best = max(totals.values())
    leaders = [name for name, t in totals.items() if t == best]
    if output is not None:
        save_picture(obj, output, cell, None)
        click.echo(f"wrote {output}", err=True)
    if as_json:
        doc = {**sheet.as_dict(), "over": over, "to_move": None if over else game.to_move,
               ("winners" if over else "leaders"): leaders}  # fmt: skip
        click.echo(json.dumps(doc))
        return
    if output is None:
        picture = to_text(obj, color)
        click.echo(picture, nl=False, color="\x1b[" in picture)
    state = "game over" if over else f"{game.to_move} to move"
    click.echo(f"Blokus {game.variant.name}, players {sheet.players}; {state}")
    click.echo(f"{'colour':8} {'left':>5} {'bonus':>6} {'total':>6}")
    for name, c in sheet.colors.items():
        click.echo(f"{name:8} {c.left:5} {c.bonus:6} {c.total:6}")
    click.echo("players: " + ", ".join(f"{name} {t:+d}" for name, t in totals.items()))
    others = [t for name, t in totals.items() if name not in leaders]
    lead = f" by {best - max(others)}" if others else ""
    if len(leaders) > 1:
        verb = "share the win" if over else "are level"
        names = ", ".join(leaders[:-1]) + " and " + leaders[-1]
        click.echo(f"{names} {verb} at {best:+d}")
    else:
        click.echo(f"{leaders[0]} {'wins' if over else 'leads'}{lead}")


COMMANDS = [score]
