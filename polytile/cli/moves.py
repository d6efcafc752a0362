"""``polytile moves``: whose turn it is, what that player sees, and its legal moves."""

from __future__ import annotations

import click

from polytile.cli.options import RECORD_MOVE

__all__ = ["COMMANDS", "moves_command"]


@click.command(
    "moves",
    help="""List the legal moves of the player to move, and what it sees.

FILE is a game record, position or view of any game with moves: City Blocks (Henning),
Gridblock, Walkable Cities, Blokus (a position or Pentobi record, .blksgf) or City Blocks
(Ritchie) (a position) ('-' reads standard input). Blokus placements are listed by their
points (a column letter and a row number from the bottom, as Pentobi's), City Blocks
(Ritchie) moves as colour, piece and row,column cells. The report says whose turn it is,
what that player may see that the board does not show (its hand and reserve, its cards,
the rotation of pieces), and every legal move in the notation 'polytile play' reads.
In a view, the moves of a player whose hand is hidden are not known, and the report says so.
In Walkable Cities both players move at once: each picks one of the listed parts, and a
round is played as 'RED | BLUE'.

Long lists are cut after --limit moves in the text report; --json lists them all.

\b
Exit codes:
  0  listed (also when the game is over: there are none)
  2  unreadable file, a file of no game with moves, or bad usage

\b
Examples:
  polytile moves game.json
  polytile moves game.json --move 12
  polytile moves grid.json --json
""",
)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@RECORD_MOVE
@click.option(
    "--limit",
    type=click.IntRange(0),
    default=200,
    show_default=True,
    help="The most moves the text report lists (0: all).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print {"game", "to_move", "sees": {...}, "moves_known", "moves": [...], "count"} '
    "(moves_known false: a view that hides the mover's hand); in Walkable "
    "Cities between a round's picks and drops, \"moves\" has each player's own list.",
)
def moves_command(file: str, move: int | None, limit: int, as_json: bool) -> None:
    """List the legal moves in ``file``."""
    from polytile.cli.console import CONSOLE, facing
    from polytile.errors import FormatError
    from polytile.faces.registry import FACES, face, face_of_file

    found = face_of_file(file)
    if found is None:
        from polytile._files import explain_unread

        explain_unread(file)  # names what is wrong: no such file, empty, not JSON, ...
        titles = ", ".join(face(name).title for name in FACES)
        source = "<stdin>" if file == "-" else file
        raise FormatError(f"not a file of a game with moves; 'polytile moves' reads {titles} "
                          "records, positions and views", source)  # fmt: skip
    with facing():
        found.moves(CONSOLE, file, move, as_json, limit=limit)


COMMANDS = [moves_command]
