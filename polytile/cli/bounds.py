"""``polytile bounds``: how well a colour can still end: at best, and what it can make sure of.
Each game bounds its own positions through its face
(:class:`~polytile.faces.bounds.BoundsFace`)."""

from __future__ import annotations

import click

from polytile.cli.options import SECONDS, Workers, refuse_undeclared

__all__ = ["COMMANDS", "bounds_command"]

_COLORS = ("blue", "yellow", "red", "green")


@click.command(
    "bounds",
    help="""Bound how a colour can still end a City Blocks or Blokus game.

POSITION is a polytile/position@1 file of game "cityblocks" or "blokus" (a plain text
board is read as City Blocks at the start of a game), or a Pentobi game record
(.blksgf, the Blokus position after --move N); '-' reads a position from standard input.

\b
City Blocks (Jeremy Ritchie), for the colour, from the position:
  upper  its best final score if every other colour passes from now on: its
         pieces laid out for the best score (CP-SAT). Other colours can only
         lower a colour's score, so no continuation ends above it.
  lower  the score it can make sure of if it plays well, however the others
         play: what it keeps if it passes from now on while the others place
         their pieces to hurt it most (CP-SAT). It can always pass, so it can
         always keep this much. Not what it will get: a colour that plays
         badly (covering its own free edges, say) can end below it.
  exact  its best final score when the others all play against it, by a full
         search of the legal moves, when few pieces can still be placed
         (--exact-pieces).
  best next  a placement of the upper layout, legal now, raising its score most.
  estimate  without an exact value, where between the bounds its final score is likely
            to end: the mean of playouts in which every colour places its biggest
            pieces next to its own city, kept between the bounds. Shown as ~N, with its
            playouts and interval; an estimate, never a bound.
The picture shows the colour's best layout if the others pass (counted areas dotted, or
in capitals in plain text).

\b
Blokus, for the colour: the squares it can still place
  at most   if every other colour passed from now on (CP-SAT over its
            reachable pieces): nobody else can add to it.
  at least  what it can make sure of placing if it plays well, however the
            others play: a layout inside territory no other colour's pieces
            can ever reach, or, when it is to move, its biggest placement
            now, whichever is more. Not what it will place: a colour that
            blunders (blocking its own territory) can end below it.
and the final-score range these give (-squares left in hand, +15 for placing all 21
pieces, +5 more when I1 goes last). For the exact rest of a small Blokus game use
'polytile solve-endgame'.

JSON: per colour, "upper" and "can_ensure" (with "can_ensure_proven" and, for Blokus,
"score_can_ensure"); the older names "lower", "lower_proven" and "score_lower" hold the
same numbers and will be removed in the next version.

A bound marked '?' was not proven tight within --time-limit, but is still a valid bound.
The time limit covers the whole command, counted from when the process started (start-up,
reading the position, every colour's searches and the building of their models, checking
and printing): it is shared among the colours and their searches, and when it runs out in
the middle of one the colours not yet bounded are named (exit code 1). Ctrl-C prints the
colours bounded so far, said to be incomplete. Every layout is replayed and scored by the
rules engine first.

\b
Exit codes:
  0  bounds found
  1  the time limit ran out before every colour was bounded (those bounded are printed)
  2  unreadable file, not a City Blocks or Blokus position, or bad usage
  3  internal error: an answer failed the rules engine's check
  130  interrupted (Ctrl-C); the colours finished before it are printed

\b
Examples:
  polytile bounds game.json
  polytile bounds game.json --color all --json
  polytile bounds game.json --color red --time-limit 30 --workers 2
  polytile bounds game.blksgf --move 40 --color all --json
""",
)
@click.argument("position", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--color",
    "color",
    type=click.Choice([*_COLORS, "all"], case_sensitive=False),
    default=None,
    help="The colour to bound, or 'all' [default: the colour to move].",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print {"game", "to_move", "players", "colors": {name: {"upper", "can_ensure", ...}}}.',
)
@click.option(
    "--time-limit",
    type=SECONDS,
    default=10.0,
    show_default=True,
    help="Seconds for the whole command, counted from when the process started (start-up "
    "and printing included), shared among the colours' searches.",
)
@click.option("--workers", type=Workers(1, 64), default=2, show_default=True,
              help="CP-SAT workers.")  # fmt: skip
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=0, show_default=True,
              help="CP-SAT random seed.")  # fmt: skip
@click.option("--move", "move", type=int, default=None,
              help="For a .blksgf game record: the position after this many moves "
              "[default: the end].")  # fmt: skip
@click.option(
    "--exact-pieces",
    type=click.IntRange(0, 12),
    default=6,
    show_default=True,
    help="City Blocks: search the exact value when at most this many pieces (all colours) can "
    "still be placed; 0 never.",
)
def bounds_command(
    position: str,
    color: str | None,
    as_json: bool,
    time_limit: float,
    workers: int,
    seed: int,
    exact_pieces: int,
    move: int | None,
) -> None:
    """Print the bounds of one colour, or of all."""
    from polytile.cli.clock import CLOCK
    from polytile.cli.console import CONSOLE, facing
    from polytile.faces.bounds import BoundsFace, BoundsRequest
    from polytile.faces.registry import POSITION_GAMES, TEXT_BOARDS, face, face_of_file

    found = face_of_file(position, "bounds")
    if not isinstance(found, BoundsFace):  # read it as a position to say why it is not one
        from polytile.cli.render import read_position

        board_game = TEXT_BOARDS["bounds"]
        games = (board_game, *(g for g in POSITION_GAMES if g != board_game))
        found = face(read_position(position, games, "bounds", move)[0].game)
        if not isinstance(found, BoundsFace):
            raise click.UsageError(f"{found.title} has no bounds")
    ctx = click.get_current_context()
    from_line = click.core.ParameterSource.COMMANDLINE
    given = frozenset(n for n in _GAME_OPTIONS if ctx.get_parameter_source(n) == from_line)
    refuse_undeclared(_GAME_OPTIONS, given, found.bounds_options, "bounds_options")
    request = BoundsRequest(CLOCK, color, as_json, time_limit, workers, seed, exact_pieces,
                            move)  # fmt: skip
    with facing():
        found.bounds(CONSOLE, position, request)


#: The options of bounds that only some games take, in the order they are refused.
_GAME_OPTIONS = ("exact_pieces",)


COMMANDS = [bounds_command]
