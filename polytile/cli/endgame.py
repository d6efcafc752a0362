"""``polytile solve-endgame``: play the rest of a game perfectly and show the best line;
each game solves its own endgame through its face
(:class:`~polytile.faces.face.EndgameFace`)."""

from __future__ import annotations

import functools
from pathlib import Path

import click

from polytile.cli.options import (
    RECORD_MOVE,
    SECONDS,
    GameDefault,
    Workers,
    check_output,
    picture_options,
    refuse_undeclared,
)

__all__ = ["COMMANDS", "solve_endgame_command"]


@click.command(
    "solve-endgame",
    help="""Play the rest of a game perfectly: its exact value and best line.

POSITION is a Blokus position (polytile/position@1 of game "blokus") or a Pentobi game
record (.blksgf, the position after --move N; default the end), or a City Blocks (Henning),
Gridblock or Walkable Cities file (see below); '-' reads standard input.

Blokus:

\b
What is solved:
  2 players (Duo, classic 2-player, teams): the first player's final lead
      (its score minus the other's) when both play perfectly.
  3 or 4 players ("max own score"): for each player, the final score it can
      make sure of when all the others play against it.

Every continuation is searched over the real turn order (forced passes included),
with bounds from the pieces each colour can still reach, colours that no longer
interact solved on their own, and a transposition table. The best line is replayed by
the rules engine before it is printed.

A position where a player can still place more than --max-pieces pieces is refused,
as is one the search cannot finish within --time-limit: then the proven bounds of
'polytile bounds' are printed instead (exit code 1) and no file is written. A position
refused as too large then also gets its moves estimated by the engine's Monte Carlo tree
search in the time left (a quarter of --time-limit, at least 10 s; JSON: "estimate", its
margins the first player's lead with 2 players), labelled as an estimate. Where
they pin every colour's final score (a board split into territories, say), they settle
the game instead: its exact value and a best line are printed, and -o written, as a
search's would be (exit code 0; JSON: "settled_by_bounds"). With 3 or 4 players, the
players whose colours are all pinned get their exact value even when the others do not
(JSON: "settled"). A search stopped by --time-limit or Ctrl-C first prints what it
proved before it stopped: an interval for the value and, once a first move has been
searched, a move that makes sure of its end of it (JSON: "search"). --time-limit covers
the whole command, counted from when the process started (start-up, the bounds after a
refusal and printing included): bounds computed after the limit ran out get what is left
of it, and say so.

Moves are printed as colour letter, piece and cells, each cell as row,column counted
from 0 at the top left, followed by the same cells in Pentobi's notation (column
letter, row number counted from the bottom). -o FILE.blksgf writes the game with the
best line appended (a comment marks where it starts); -o .svg/.png/.txt writes the
picture, and the analysis is still printed.

City Blocks (Henning) records and positions (polytile/henning@1) are solved once both
reserves are empty (every tile is then known): blue's exact money margin, the outcome,
every best move of the player to move and a line, replayed by the rules engine. --open
solves an earlier full position as if its hidden tiles were known (exact for that deal
only, and labelled so). A finished game is said to be over, with its final margin and
money (exit code 0; JSON: "over" true, "best_moves" and "pv" empty).

While tiles are hidden, --view (or a view file) scores every move of the player to move
from what that player sees: each full state consistent with its view (all of them when
there are at most --max-exact, else a seeded sample of --samples) is solved exactly, and
a move's score is its average exact margin. That average is an estimate, not the game's
value (it credits the player with knowing the hidden tiles later), and it is printed as
one; only when nothing is hidden from the player are the scores exact values. At
--time-limit or Ctrl-C the states solved so far are reported, said so. Early in a game,
when not one state is solved before the last 40% of the time (at most 10 s), that time
goes to Monte Carlo tree search from the mover's view instead (the hidden tiles drawn at
random for each playout, both players then greedy to the end), printed as an estimate
with its playouts (JSON: "kind" "mcts-estimate").

Gridblock files (polytile/gridblock@1) are solved to the end of the current round: exactly
when every hand of the round is known (rounds 2, 4 and 6 under the split deal), or with
--open taking the dealt hands as given (exact for that deal only, and labelled so). With 2
players the value is blue+red's margin over yellow+green at the round's end; with 3 or 4,
the score each player (--player) can make sure of against all the others. --view scores the
mover's moves over every hand the hidden colours can hold (an estimate, as above; exit 0
only when every hand is known), then estimates each move's value to the end of the game by
Monte Carlo tree search from the mover's view (each playout a fresh draw of the hands and
deals it cannot see, greedy play to the end; at most 1,000 playouts in what the round's
part, at most 3/4 of --time-limit, leaves; JSON "rest_of_game"; in round 6 the round's
values are the game's). With 2 players that estimate is the side's points minus the other
side's at the end of the game; with 3 or 4, the mover's points minus the best other
colour's. A set-up position gets that estimate of its placements (exit 1; JSON "kind"
"mcts-estimate"; --seed seeds it; --open, --player, --samples, --max-exact, --workers and
--plan are refused there). A finished game, and hidden hands without --open or --view,
are refused (exit 2).

Walkable Cities files (polytile/walkable@1) are solved to the end of the game by backward
induction (a matrix game at every selection and drop): red's exact boards-won margin, both
players' mixed strategies and the most likely line. With more than --max-drops legal drops
of a piece, this round's matrix game is solved instead and labelled "one-round horizon
(payoff if the game ended after this round)", not the game's value (exit 1). Rounds are
written as in 'polytile play' (red's pick and drop | blue's). With an exact value, -o
FILE.json writes the game with the best line played (a record: its rounds up to --move,
then the line, and a "solve_endgame" field saying from which round; a position: the
position at the line's end), and -o .svg/.png/.txt the picture at the line's end. --json:
"round" counts the rounds played and "passes" is {"red": n, "blue": n}, as in 'polytile
score --json'; "next_round" is the round the line starts with (see docs/formats.md).

\b
Exit codes:
  0  solved: an exact value (or the bounds settled it, or the game is over)
  1  no exact value: an estimate (--view, a horizon, tree search), bounds, too
     large (--max-pieces, --max-drops) or out of time (--time-limit); what
     could be said instead is printed, labelled
  2  unreadable or illegal file, a position the game cannot solve, or bad usage
  3  internal error: an answer failed its check by the rules engine
  130  interrupted (Ctrl-C); what the search proved before it is printed

\b
Examples:
  polytile solve-endgame late.json
  polytile solve-endgame game.blksgf --move 30 --json
  polytile solve-endgame game.blksgf --move 30 -o analysed.blksgf
  polytile solve-endgame henning-game.json --move 36
  polytile solve-endgame henning-game.json --move 30 --view
  polytile solve-endgame gridblock.json --move 20 --open
  polytile solve-endgame walk.json --move 30 -o best-line.json
""",
)
@click.argument("position", type=click.Path(dir_okay=False, allow_dash=True))
@RECORD_MOVE
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the result as JSON (value, best move, lines, scores).",
)
@click.option(
    "--time-limit",
    type=SECONDS,
    default=60.0,
    show_default=True,
    help="Seconds for the whole command, counted from when the process started (start-up "
    "and printing included); the exact search gets what is left.",
)
@click.option(
    "--max-pieces",
    cls=GameDefault,
    type=click.IntRange(0),
    default=None,
    help="Refuse when a player can still place more pieces than this.",
)
@click.option(
    "--max-drops",
    type=click.IntRange(0),
    default=6,
    show_default=True,
    help="Walkable Cities: refuse the exact solve when a piece has more legal drops than this.",
)
@click.option(
    "--player",
    "players",
    multiple=True,
    metavar="NAME",
    help="3 or 4 players (Blokus, Gridblock): search only this player (repeatable) [default: all].",
)
@click.option(
    "--bounds-time",
    type=SECONDS,
    default=5.0,
    show_default=True,
    help="When refused: seconds for each CP-SAT search of the bounds printed instead (at "
    "most a share of what is left of --time-limit).",
)
@click.option(
    "--open",
    "open_analysis",
    is_flag=True,
    help="City Blocks (Henning), Gridblock: solve a position whose reserves or hands still "
    "hide tiles or cards, taking them as given (exact for that deal only, and said so).",
)
@click.option(
    "--view",
    "view",
    is_flag=False,
    flag_value="to-move",
    default=None,
    metavar="[PLAYER]",
    help="City Blocks (Henning), Gridblock: score the moves of the player to move from its "
    "view (hidden tiles or cards averaged over; an estimate). Gridblock: then each move's "
    "value to the end of the game (tree search). PLAYER, if given, must be the player to "
    "move.",
)
@click.option(
    "--plan",
    is_flag=True,
    help="Gridblock: the best plan of the colour to move for the rest of its round with the "
    "other colours held still (they make no move; not a game value): its moves and walks, the "
    "points they reach, how many plans were compared. Needs only the mover's hand (hidden "
    "hands, the mover's view file); not with --view, --open or --player.",
)
@click.option(
    "--samples",
    type=click.IntRange(1, 1_000_000),
    default=200,
    show_default=True,
    help="--view: states drawn when more than --max-exact are consistent with the view.",
)
@click.option(
    "--max-exact",
    type=click.IntRange(1, 100_000),
    default=5000,
    show_default=True,
    help="--view: solve every consistent state when there are at most this many.",
)
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True,
              help="--view: seeds the sample and the order states are solved in, and the "
                   "tree searches of the estimates.")  # fmt: skip
@click.option(
    "--workers",
    "-w",
    type=Workers(min=1),
    default=None,
    help="--view: worker processes [default: every core].",
)
@functools.partial(
    picture_options,
    output_help="Blokus: write the game with the best line played (.blksgf; with 3-4 "
    "players the line of the player to move, or of --player) or the picture (.svg, .png, "
    ".txt); Walkable Cities: the game with the best line played (.json) or its "
    "picture at the line's end. Nothing is written without an exact value.",
)
def solve_endgame_command(
    position: str,
    move: int | None,
    as_json: bool,
    time_limit: float,
    max_pieces: int | None,
    max_drops: int,
    players: tuple[str, ...],
    bounds_time: float,
    open_analysis: bool,
    view: str | None,
    plan: bool,
    samples: int,
    max_exact: int,
    seed: int,
    workers: int | None,
    output: Path | None,
    color: bool | None,
    cell: int,
) -> None:
    """Solve a Blokus, City Blocks (Henning) or Gridblock endgame exactly, or refuse with
    bounds."""
    from polytile.cli.clock import CLOCK, budget
    from polytile.cli.console import CONSOLE, facing
    from polytile.faces.face import EndgameFace, EndgameRequest
    from polytile.faces.registry import TEXT_BOARDS, face, face_of_file

    limit = time_limit  # the whole command's; each search gets what is left of it
    ctx = click.get_current_context()
    from_line = click.core.ParameterSource.COMMANDLINE
    given = frozenset(n for n in _GAME_OPTIONS if ctx.get_parameter_source(n) == from_line)
    # a file of no game's face goes to the game that reads plain text boards here: its
    # reader says what the file is not
    faced = face_of_file(position, "solve-endgame") or face(TEXT_BOARDS["solve-endgame"])
    if not isinstance(faced, EndgameFace):
        raise click.UsageError(f"{faced.title} has no exact endgame solver")
    refuse_undeclared(_GAME_OPTIONS, given, faced.endgame_options, "endgame_options", _FLAGS,
                      _WHY)  # fmt: skip
    if output is not None:
        check_output(output)  # before a search whose answer would otherwise be lost
    request = EndgameRequest(
        move=move, as_json=as_json, time_limit=budget(limit, reserve=0.25) or limit,
        open_analysis=open_analysis, view=view, samples=samples, max_exact=max_exact,
        seed=seed, workers=workers, players=players, plan=plan, max_drops=max_drops,
        output=output, color=color, cell=cell, max_pieces=max_pieces,
        bounds_time=bounds_time, limit=limit, clock=CLOCK, given=given,
    )  # fmt: skip
    with facing():
        faced.solve_endgame(CONSOLE, position, request)


#: The options of solve-endgame that only some games take, in the order they are refused
#: (--color and --cell are harmless anywhere and never refused).
_GAME_OPTIONS = ("plan", "output", "view", "open_analysis", "samples", "max_exact", "seed",
                 "workers", "players", "max_drops", "max_pieces", "bounds_time")  # fmt: skip
_FLAGS = {"open_analysis": "--open", "players": "--player", "output": "-o"}
_WHY = {
    "plan": " (the best plan of the colour to move, the other colours held still)",
    "output": " (the other games' answers are printed, --json for machines)",
}


COMMANDS = [solve_endgame_command]
