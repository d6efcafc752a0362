"""``polytile analyse``: a game record analysed move by move, through its game's face: the
shared way (:class:`~polytile.faces.analysis.AnalyseFace`) or the game's own
(:class:`~polytile.faces.analysis.OwnAnalysisFace`)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import click

from polytile.cli.options import SECONDS, GameDefault, check_output, refuse_undeclared

__all__ = ["COMMANDS", "analyse_command"]


@click.command(
    "analyse",
    help="""Analyse a game record: what each move lost, exactly where the solver settles it.

RECORD is a game record of Blokus, City Blocks (Henning), Gridblock or Walkable Cities.
Each move the game's solver can value gets the value of the position before it and after
it, what it lost for its player and a best move in its place; the record is gone through
from its end backward (the late positions are the cheap ones). Every value is a lead and
the report says whose. City Blocks (Henning): exact once both reserves are empty, before
that an estimate from the mover's view (averaged over the deals it cannot rule out, marked
~). Gridblock: exact in the rounds whose hands every player knows (the split deal's rounds
2, 4 and 6); the value is the rest of the round's. Walkable Cities: the rounds the exact
backward induction reaches (no piece with more than --max-drops legal drops, as for
'polytile solve-endgame'); both players move at once, so a round's 'lost' is the change
of red's lead. -o FILE.json writes the record with an "analysis" field.

Every move is valued: the exact (or view) analysis gets 60% of the time, and the moves it
does not reach are then estimated in the rest, the time shared evenly among them, each
marked ~ with what it rests on (Blokus and City Blocks (Henning): Monte Carlo tree search,
its playouts counted; Gridblock: tree search to the end of the game; Walkable Cities: one
round ahead). --exact-only leaves them unvalued instead and gives the exact analysis the
whole time (Henning's view averages, estimates themselves, stay).

Blokus: RECORD is a Pentobi game record (.blksgf: Duo, classic with 2, 3 or 4 players). From the
first position that the exact endgame search accepts (no player can still place more
than --max-pieces pieces, as for 'polytile solve-endgame') to the end of the record,
every move gets the exact value of the position before it and after it, what it lost,
and a best move in its place. Before it, on a board split into territories, the
analysis goes back through the positions whose bounds settle them with no search (every
colour can make sure of the most it can place; 2 CP-SAT searches of up to 5 s per colour
and position, as 'solve-endgame' does past --max-pieces). Earlier moves are estimated:
the engine's tree search finds a best move, then it and the move played are valued alike
by playouts from the positions they lead to (with 3 or 4 players an estimate is the
move's player's margin over the best other player, said so).

\b
The values are solve-endgame's:
  2 players (Duo, classic 2-player, teams): the first player's final lead
      (its score minus the other's) when both play perfectly from there. A move
      loses what it takes from its own side: the first player's lead going
      down, or the second player's going up.
  3 or 4 players: the final score the move's player can make sure of when
      all the others play against it; a move loses what it takes from that.

A loss of 0 means the move was a best move. Each position is solved once (the value
after a move is the value before the next), from the end backward. Every best move is
taken from a line the rules engine replayed to the value announced, and is checked to
be legal there; the values are checked against each other.

--time-limit covers the whole command, counted from when the process started. When it
runs out, or at Ctrl-C, the moves valued so far are printed, said to be incomplete.

Moves are written as piece and cells in Pentobi's notation (column letter, row number
counted from the bottom), the colour first when it is not the player's own (green with
3 players, teams). -o FILE.blksgf writes the record with a comment on each analysed
move (Pentobi shows comments under the board). --json prints moves as colour, piece and
cells as [row, column] counted from 0 at the top left.

\b
Exit codes:
  0  every move valued (exact, or an estimate marked as one)
  1  incomplete (--time-limit), or with --exact-only no position small enough
     (--max-pieces) or no move the solver could settle
  2  unreadable or illegal record, not a record, or bad usage
  3  internal error: an answer failed its check
  130  interrupted (Ctrl-C); the moves analysed before it are printed

\b
Examples:
  polytile analyse game.blksgf
  polytile analyse game.blksgf --max-pieces 10 --time-limit 300 -o annotated.blksgf
  polytile analyse game.blksgf --json
  polytile analyse henning-game.json --time-limit 120
  polytile analyse gridblock-game.json -o annotated.json
  polytile analyse walk.json --max-drops 10 --time-limit 300
""",
)
@click.argument("record", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@click.option(
    "--time-limit",
    type=SECONDS,
    default=60.0,
    show_default=True,
    help="Seconds for the whole command, counted from when the process started.",
)
@click.option(
    "--max-pieces",
    cls=GameDefault,
    type=click.IntRange(0),
    default=None,
    help="Blokus: analyse from the first position where no player can place more pieces than this.",
)
@click.option(
    "--max-drops",
    type=click.IntRange(0),
    default=6,
    show_default=True,
    help="Walkable Cities: value a round's position only when no piece has more legal drops "
    "than this (as for 'solve-endgame').",
)
@click.option(
    "--exact-only",
    is_flag=True,
    help="No estimates for the moves the exact (or view) analysis does not reach: they are "
    "left unvalued, and it gets the whole time.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the record with its analysis: a comment on each analysed move (Blokus, "
    '.blksgf), or an "analysis" field (the other games, .json).',
)
def analyse_command(
    record: str, as_json: bool, time_limit: float, max_pieces: int | None, max_drops: int,
    exact_only: bool, output: Path | None,
) -> None:  # fmt: skip
    """Analyse a game record move by move."""
    from polytile.cli.clock import CLOCK
    from polytile.cli.console import CONSOLE, facing
    from polytile.faces.analysis import AnalyseFace, AnalyseRequest, OwnAnalysisFace
    from polytile.faces.registry import FACES, face, face_of_file

    ctx = click.get_current_context()
    from_line = click.core.ParameterSource.COMMANDLINE
    given = frozenset(n for n in _GAME_OPTIONS if ctx.get_parameter_source(n) == from_line)
    request = AnalyseRequest(CLOCK, time_limit, as_json, output, max_pieces, max_drops,
                             exact_only=exact_only)  # fmt: skip
    faced = face_of_file(record)
    if not isinstance(faced, AnalyseFace | OwnAnalysisFace):
        # no game's face analyses it: one that analyses its records its own way says what
        # analyse needs, and what this is
        if not record.lower().endswith(".blksgf"):
            from polytile._files import explain_unread

            explain_unread(record)  # no such file, empty, not JSON: said as such
        own = [f for f in map(face, FACES) if isinstance(f, OwnAnalysisFace)]
        if not own:
            raise click.UsageError("no game analyses this file")
        faced = own[0]
        # it speaks for a file no game analyses, naming the records analyse reads (what the
        # file is matters more than an option it would refuse)
        request = dataclasses.replace(request, reads=_reads())
    else:
        refuse_undeclared(_GAME_OPTIONS, given, faced.analysis_options, "analysis_options")
    if isinstance(faced, AnalyseFace):  # a game whose face analyses its records the shared way
        check_output(output, (".json",), " (the record with its analysis)")
        with facing():
            faced.analyse(CONSOLE, record, request)
        return
    check_output(output, *faced.analysis_outputs)
    with facing():
        faced.analyse_own(CONSOLE, record, request)


#: The options of analyse that only some games take, in the order they are refused.
_GAME_OPTIONS = ("max_pieces", "max_drops")


def _reads() -> str:
    """The game records analyse reads, in words, for the refusal of any other file: the
    games whose faces analyse records, by the format of their records ("City Blocks
    (Henning), Gridblock and Walkable Cities records (polytile JSON) and Blokus records
    (Pentobi .blksgf)")."""
    from polytile.faces.analysis import AnalyseFace, OwnAnalysisFace
    from polytile.faces.registry import FACES, face
    from polytile.text import listed

    games: dict[str, list[str]] = {}
    for f in map(face, FACES):
        if isinstance(f, AnalyseFace | OwnAnalysisFace):
            games.setdefault(f.record_format_name, []).append(f.title)
    return " and ".join(f"{listed(titles)} records ({name})" for name, titles in games.items())


COMMANDS = [analyse_command]
