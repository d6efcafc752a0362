"""``polytile solve-endgame``: play the rest of a game perfectly and show the best line
(Blokus here; City Blocks (Henning), Gridblock and Walkable Cities in their own modules)."""

from __future__ import annotations

import functools
import json
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

import click

from polytile.cli.options import (
    PICTURES,
    RECORD_MOVE,
    SECONDS,
    Workers,
    check_output,
    picture_options,
)
from polytile.puzzles.blokus._endgame_limits import DEFAULT_MAX_PIECES

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
'polytile bounds' are printed instead (exit code 1) and no file is written. Where
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
--time-limit or Ctrl-C the states solved so far are reported, said so.

Gridblock files (polytile/gridblock@1) are solved to the end of the current round: exactly
when every hand of the round is known (rounds 2, 4 and 6 under the split deal), or with
--open taking the dealt hands as given (exact for that deal only, and labelled so). With 2
players the value is blue+red's margin over yellow+green at the round's end; with 3 or 4,
the score each player (--player) can make sure of against all the others. --view scores the
mover's moves over every hand the hidden colours can hold (an estimate, as above). The
set-up, a finished game, and hidden hands without --open or --view are refused (exit 2).

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
    type=click.IntRange(0),
    default=DEFAULT_MAX_PIECES,
    show_default=True,
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
    "view (hidden tiles or cards averaged over; an estimate). PLAYER, if given, must be the "
    "player to move.",
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
              help="--view: seeds the sample and the order states are solved in.")  # fmt: skip
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
    max_pieces: int,
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
    from polytile.cli.clock import budget
    from polytile.cli.console import CONSOLE, facing
    from polytile.puzzles.face import EndgameFace, EndgameRequest
    from polytile.puzzles.faces import face_of_file

    limit = time_limit  # the whole command's; each search gets what is left of it
    ctx = click.get_current_context()
    from_line = click.core.ParameterSource.COMMANDLINE
    given = frozenset(n for n in _GAME_OPTIONS if ctx.get_parameter_source(n) == from_line)
    faced = face_of_file(position)
    if faced is not None and faced.name == "blokus":  # its endgame is still solved here
        faced = None
    if faced is not None and not isinstance(faced, EndgameFace):
        raise click.UsageError(f"{faced.title} has no exact endgame solver")
    _refuse_others(given, faced.endgame_options if faced is not None else _BLOKUS_OPTIONS)
    if output is not None:
        check_output(output)  # before a search whose answer would otherwise be lost
    if faced is not None:  # a game with a face solves its own endgame
        request = EndgameRequest(
            move=move, as_json=as_json, time_limit=budget(limit, reserve=0.25) or limit,
            open_analysis=open_analysis, view=view, samples=samples, max_exact=max_exact,
            seed=seed, workers=workers, players=players, plan=plan, max_drops=max_drops,
            output=output, color=color, cell=cell, given=given,
        )  # fmt: skip
        with facing():
            faced.solve_endgame(CONSOLE, position, request)
        return
    from polytile._files import output_suffix
    from polytile.cli.progress import search_progress
    from polytile.puzzles.blokus.endgame import (
        EndgameRefused,
        EndgameStopped,
        score_ranges,
        solve_endgame,
    )
    from polytile.puzzles.blokus.files import read_blokus

    suffix = output_suffix(output, ".blksgf") if output is not None else ""
    if output is not None and suffix not in (".blksgf", *PICTURES):
        raise click.BadParameter(f"{output}: the suffix must be .blksgf (the game with the best "
                                 "line) or .svg, .png, .txt (the picture)",
                                 param_hint="-o")  # fmt: skip
    source = "<stdin>" if position == "-" else position
    with facing():  # a record is read and replayed once, and kept for -o .blksgf
        read = read_blokus(position, move, "solve-endgame")
    obj, game, record = read.obj, read.game, read.record
    assert game is not None  # read_blokus checks a position by the rules
    if output is not None and suffix == ".blksgf" and record is None:
        lost = [c for c in game.colors if not game.hand(c) and game.last_piece(c) == "I1"]
        if lost:
            raise click.BadParameter(
                f"{output}: a .blksgf written from a position starts from its board, which "
                f"cannot say that {' and '.join(lost)} placed I1 last (the +5 bonus would be "
                "lost); give the game record instead, or write a picture",
                param_hint="-o",
            )
    names = _players(game)
    players = tuple(name.lower() for name in players)
    for name in players:
        if name not in names:
            raise click.BadParameter(f"{name!r} is not a player of this game; players: "
                                     f"{', '.join(names)}", param_hint="--player")  # fmt: skip
    if len(names) == 2 and players:
        raise click.BadParameter("--player is for 3 or 4 players; with 2 the value is the first "
                                 "player's lead", param_hint="--player")  # fmt: skip
    try:
        with search_progress("exact search", not as_json) as progress:
            result = solve_endgame(game, players=players or None, max_pieces=max_pieces,
                                   time_limit=budget(limit, reserve=0.25) or limit,
                                   progress=progress)  # fmt: skip
    except EndgameRefused as refused:
        reason = f"{refused} (--max-pieces)"
        if (budget(limit, reserve=0.3) or 0.0) < 0.5 * len(game.colors):
            _cheap_ranges(game, reason, as_json)  # start-up took the limit: no CP-SAT bounds
        settled = _refuse(game, reason, as_json, _bounds_time(game, bounds_time, limit),
                          source, output, limit, wanted=players)  # fmt: skip
        if settled is None:
            sys.exit(1)
        result = settled
    except EndgameStopped as stopped:
        found = _found_so_far(stopped, game)
        if stopped.reason == "interrupt":
            ranges = score_ranges(game)
            click.echo(f"interrupted: {stopped}", err=True)
            click.echo("score ranges from the pieces each colour can still reach: "
                       + ", ".join(f"{c} {lo}..{hi}" for c, (lo, hi) in ranges.items()),
                       err=True)  # fmt: skip
            extra = _say_found(found, as_json)
            if as_json:
                click.echo(json.dumps({"game": "blokus", "exact": False,
                                       "reason": f"interrupted: {stopped}", **extra}))  # fmt: skip
            sys.exit(130)
        reason = f"{stopped} (--time-limit {limit:g} s reached)"
        left = budget(limit, reserve=0.3) or 0.0
        if left < 0.5 * len(game.colors):
            _cheap_ranges(game, reason, as_json, found)
        settled = _refuse(game, reason, as_json, _bounds_time(game, bounds_time, limit),
                          source, output, limit, found, players)  # fmt: skip
        if settled is None:
            sys.exit(1)
        result = settled
    if output is not None and suffix == ".blksgf":
        _write_record(game, record, move, result, output)
    elif output is not None:
        from polytile.render import save_picture

        best = result.best_move
        lit = best.cells if best is not None else ()
        save_picture(obj, output, cell, None, marks=_marks(game), mark_color=game.to_move,
                     highlight=lit, highlight_color=game.to_move)  # fmt: skip
        click.echo(f"wrote {output}", err=True)
    if as_json:
        doc = {"game": "blokus", "variant": game.variant.name, "players_option": game.players,
               **result.as_dict()}  # fmt: skip
        click.echo(json.dumps(doc))
        return
    _print_result(game, obj, result, color)


#: The options of solve-endgame that only some games take, in the order they are refused
#: (--color and --cell are harmless anywhere and never refused).
_GAME_OPTIONS = ("plan", "output", "view", "open_analysis", "samples", "max_exact", "seed",
                 "workers", "players", "max_drops", "max_pieces", "bounds_time")  # fmt: skip
#: Those the Blokus endgame (the files of no face) takes.
_BLOKUS_OPTIONS = frozenset({"players", "max_pieces", "bounds_time", "output"})
_FLAGS = {"open_analysis": "--open", "players": "--player", "output": "-o"}
_WHY = {
    "plan": " (the best plan of the colour to move, the other colours held still)",
    "output": " (the other games' answers are printed, --json for machines)",
}


def _refuse_others(given: frozenset[str], takes: frozenset[str]) -> None:
    """Refuse the options given that the file's game does not take, naming the games that
    do (a usage error, exit 2)."""
    from polytile.puzzles.face import EndgameFace
    from polytile.puzzles.faces import FACES, face

    def owners(name: str) -> list[str]:
        titles = ["Blokus"] if name in _BLOKUS_OPTIONS else []
        for game in FACES:
            f = face(game)
            if isinstance(f, EndgameFace) and name in f.endgame_options:
                titles.append(f.title)
        return titles

    refused = [n for n in _GAME_OPTIONS if n in given and n not in takes]
    if not refused:
        return
    who = owners(refused[0])
    same = [n for n in refused if owners(n) == who]
    flags = ", ".join(_FLAGS.get(n, "--" + n.replace("_", "-")) for n in same)
    games = " and ".join(filter(None, [", ".join(who[:-1]), who[-1]]))
    raise click.UsageError(f"{flags}: only for {games} files{_WHY.get(same[0], '')}")


def _players(game: Any) -> tuple[str, ...]:
    from polytile.puzzles.blokus.scoring import player_names

    return player_names(game.players, game.variant.name)


def _marks(game: Any) -> list[tuple[int, int]]:
    return [] if game.is_game_over() else list(game.attach_points())


def _many(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _move_text(move: Any, size: int) -> str:
    """``Y T4 0,10 1,10 1,11 2,10  (k14 k13 l13 k12)``: our cells, then Pentobi's names."""
    from polytile.puzzles.blokus.sgf import cell_name

    if move.piece is None:
        return str(move)
    return f"{move}  ({' '.join(cell_name(cell, size) for cell in move.cells)})"


def _print_result(game: Any, obj: Any, result: Any, color: bool | None) -> None:
    from polytile.render import to_text

    title = "Blokus Duo" if game.variant.name == "duo" else f"Blokus, {game.players} players"
    over = game.is_game_over()
    click.echo(f"{title}; " + ("the game is over." if over else f"{game.to_move} to move."))
    names = {name: ("green (shared)" if name == "green" and name not in result.players else name)
             for name in result.placeable}  # fmt: skip
    sizes = ", ".join(f"{names[k]} {v}" for k, v in result.placeable.items())
    click.echo(f"Pieces each can still place: {sizes}.")
    if result.mode == "difference":
        line = result.best_line
        first, second = result.players
        totals = ", ".join(f"{p} {line.player_scores[p]}" for p in result.players)
        click.echo(f"Exact value: {first} {line.value:+d} against {second} "
                   f"(final scores {totals}).")  # fmt: skip
    elif over:
        totals = result.lines[next(iter(result.lines))].player_scores
        click.echo("Final scores: " + ", ".join(f"{p} {totals[p]}" for p in result.players))
    else:
        click.echo("Final score each player can make sure of, the others playing against it:")
        for name in result.players:
            if name in result.lines:
                click.echo(f"  {name:<8}{result.lines[name].value:>5}")
    best = result.best_move
    size = game.size
    if best is None:
        note = "the game is over" if over else f"{game.player_to_move} was not searched"
        click.echo(f"Best move: none ({note}).")
    else:
        click.echo(f"Best move: {_move_text(best, size)}")
    lit = best.cells if best is not None else ()
    marks = _marks(game)
    text = to_text(obj, color, marks=marks, mark_color=game.to_move, highlight=lit,
                   highlight_color=game.to_move)  # fmt: skip
    coloured = "\x1b[" in text
    click.echo()
    click.echo(text, nl=False, color=coloured)
    legend = []
    if best is not None and best.piece is not None:
        legend.append(f"highlighted: the best move, {best.color} {best.piece}")
    if marks:
        legend.append(f"{'•' if coloured else '+'} attach points of {game.to_move}")
    if legend:
        click.echo("; ".join(legend))
    shown = [result.best_line] if result.best_line is not None else list(result.lines.values())
    for line in shown:
        if not line.pv:
            continue
        who = "" if result.mode == "difference" else f" for {line.player}"
        click.echo(f"\nBest line{who} ({_many(len(line.pv), 'move')}, forced passes included):")
        for n, m in enumerate(line.pv, start=1):
            click.echo(f"{n:>4}. {_move_text(m, size)}")
    if result.settled:
        click.echo(f"\nSettled by the bounds in {result.seconds:.2f} s, with no search: every "
                   "colour can make sure of the most it can place.")  # fmt: skip
    else:
        click.echo(f"\nSearched {_many(result.nodes, 'position')} in {result.seconds:.2f} s.")


def _found_so_far(stopped: Any, game: Any) -> tuple[dict[str, Any], list[str]]:
    """What a stopped Blokus search proved: the JSON fields ``search``
    (:class:`~polytile.puzzles.blokus.endgame.Proven`) and ``solved`` (max-own: the players
    searched to the end before the stop), and the lines saying it."""
    proven, solved = stopped.proven, stopped.solved
    doc: dict[str, Any] = {}
    text = []
    for name, line in solved.items():
        best = ""  # the line starts with the mover's move: that player's own only if it moves
        if name == game.player_to_move and line.pv and not line.pv[0].is_pass:
            best = f" (best move {_move_text(line.pv[0], game.size)})"
        text.append(f"Solved before the stop: {name} can make sure of {line.value}{best}.")
    if solved:
        doc["solved"] = {name: line.as_dict() for name, line in solved.items()}
    if proven is not None:
        doc["search"] = proven.as_dict()
        text.append(f"Proven by the exact search before it stopped: {proven.summary()}.")
        text.append(f"  {proven.claim(lambda m: _move_text(m, game.size))}")
    return doc, text


def _say_found(found: tuple[dict[str, Any], list[str]] | None, as_json: bool) -> dict[str, Any]:
    """Print the lines of :func:`_found_so_far` (unless ``as_json``); its JSON fields."""
    doc, text = found or ({}, [])
    if not as_json:
        for line in text:
            click.echo(line)
    return doc


def _cheap_ranges(game: Any, reason: str, as_json: bool,
                  found: tuple[dict[str, Any], list[str]] | None = None) -> NoReturn:  # fmt: skip
    """The limit is (nearly) spent: print the cheap bounds (from the pieces each colour can
    still reach) instead of CP-SAT searches that would overrun it, and exit 1."""
    from polytile.puzzles.blokus.endgame import score_ranges

    ranges = score_ranges(game)
    click.echo(f"no exact value: {reason}", err=True)
    click.echo("score ranges from the pieces each colour can still reach (no time left for "
               "the CP-SAT bounds): " + ", ".join(f"{c} {lo}..{hi}"
                                                  for c, (lo, hi) in ranges.items()),
               err=True)  # fmt: skip
    extra = _say_found(found, as_json)
    if as_json:
        doc = {"game": "blokus", "exact": False, "reason": reason,
               "colors": {c: {"score_lower": lo, "score_can_ensure": lo, "score_upper": hi}
                          for c, (lo, hi) in ranges.items()}, **extra}  # fmt: skip
        click.echo(json.dumps(doc))
    sys.exit(1)


def _bounds_time(game: Any, bounds_time: float, limit: float) -> float:
    """Seconds for each bounds search after a refusal: --bounds-time, or an equal share of
    what is left of the whole command's --time-limit when that is less."""
    from polytile.cli.clock import budget

    left = budget(limit, reserve=0.3) or limit
    return max(min(bounds_time, left / (2 * len(game.colors))), 0.01)


def _refuse(game: Any, reason: str, as_json: bool, seconds: float, source: str,
            output: Path | None, limit: float | None = None,
            found: tuple[dict[str, Any], list[str]] | None = None,
            wanted: tuple[str, ...] = ()) -> Any:  # fmt: skip
    """Say why there is no exact search result, and compute the proven bounds instead: the
    exact result when they settle it (:mod:`polytile.puzzles.blokus.settle`; for the
    caller to print), else None once the bounds are printed."""
    from polytile.cli.bounds import blokus_bounds, blokus_table, bounds_json
    from polytile.cli.clock import Deadline
    from polytile.puzzles.blokus.bounds import settled as blokus_settled
    from polytile.puzzles.blokus.settle import settled_endgame

    started = time.perf_counter()
    searches = 2 * len(game.colors)
    click.echo(reason, err=True)
    click.echo(f"computing the bounds instead ({searches} CP-SAT searches of up to "
               f"{seconds:g} s, --bounds-time)", err=True)  # fmt: skip
    results: list[Any] = []
    # Building the models does not watch the clock: a deadline stops it, as Ctrl-C would.
    deadline = Deadline.of_limit(limit)
    try:
        with deadline:
            for name in game.colors:
                deadline.check()
                results += blokus_bounds(game, (name,), seconds, 2, 0, source)
    except KeyboardInterrupt:
        if not deadline.fired:
            raise
    missing = [name for name in game.colors if name not in {b.color for b in results}]
    if missing:
        click.echo(f"the time limit ran out: not bounded: {', '.join(missing)}", err=True)
    result = settled_endgame(game, results, wanted or None, started)
    if result is not None:
        click.echo("the bounds settle it exactly: every colour can make sure of the most it "
                   "can place", err=True)  # fmt: skip
        return result
    click.echo(
        "no exact value: the bounds do not settle it"
        + ("" if output is None else f"; nothing written to {output}"),
        err=True,
    )
    extra = _say_found(found, as_json)
    settled = blokus_settled(game, results)  # with 2 players, one player's at most
    if wanted:
        settled = {p: v for p, v in settled.items() if p in wanted}
    if as_json:
        doc = {"game": "blokus", "exact": False, "reason": reason,
               "colors": {b.color: bounds_json(b) for b in results}, **extra}  # fmt: skip
        if missing:
            doc["not_bounded"] = missing
        if settled:
            doc["settled"] = settled
        click.echo(json.dumps(doc))
        return None
    if results:
        click.echo(blokus_table(results))
    if settled and len(_players(game)) > 2:
        values = ", ".join(f"{p} {v}" for p, v in settled.items())
        click.echo(f"The bounds settle, without a search, the final score these players can "
                   f"make sure of: {values}.")  # fmt: skip
    return None


def _write_record(game: Any, record: Any, move: int | None, result: Any, output: Path) -> None:
    """The game with the best line after the analysed position, as a Pentobi record."""
    from polytile.formats import write_atomic
    from polytile.puzzles.blokus.sgf import GameRecord, write_blksgf

    # the line of the player to move, else of the one player searched (--player)
    line = result.best_line or next(iter(result.lines.values()), None)
    pv = [m for m in (line.pv if line is not None else ()) if not m.is_pass]
    if result.mode == "difference" and line is not None:
        what = f"{result.players[0]} {line.value:+d} against {result.players[1]}"
        note = f"polytile solve-endgame: best line from here; exact value {what}"
    else:
        what = ", ".join(f"{name} {ln.value}" for name, ln in result.lines.items())
        whose = "" if line is None else (f"{line.player}'s line (the others all playing "
                                         f"against it) from here")  # fmt: skip
        note = f"polytile solve-endgame: {whose}; exact values {what}"
    if record is not None:
        played = list(record.moves[: len(record.moves) if move is None else move])
        text = write_blksgf(GameRecord(record.variant, record.players, (*played, *pv),
                                       record.setup, record.setup_to_move, record.properties,
                                       {n: c for n, c in record.comments.items()
                                        if n <= len(played)}, record.source),
                            comments={len(played) + 1: note} if pv else None)  # fmt: skip
    else:
        after = game.copy()
        for m in line.pv if line is not None else ():
            after.push(m)
        text = write_blksgf(after, comments={1: note} if pv else None)
    write_atomic(output, text.encode("utf-8"))
    click.echo(f"wrote {output}", err=True)


COMMANDS = [solve_endgame_command]
