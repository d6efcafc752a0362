"""``polytile analyse``: a game record analysed move by move (Blokus here; the other games
through their faces)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click

from polytile.cli.options import SECONDS, check_output
from polytile.errors import FormatError
from polytile.puzzles.blokus._endgame_limits import DEFAULT_MAX_PIECES

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
backward induction reaches; both players move at once, so a round's 'lost' is the change
of red's lead. -o FILE.json writes the record with an "analysis" field.

Blokus: RECORD is a Pentobi game record (.blksgf: Duo, classic with 2, 3 or 4 players). From the
first position that the exact endgame search accepts (no player can still place more
than --max-pieces pieces, as for 'polytile solve-endgame') to the end of the record,
every move gets the exact value of the position before it and after it, what it lost,
and a best move in its place. Before it, on a board split into territories, the
analysis goes back through the positions whose bounds settle them with no search (every
colour can make sure of the most it can place; 2 CP-SAT searches of up to 5 s per colour
and position, as 'solve-endgame' does past --max-pieces). Earlier moves are not analysed.

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
runs out, or at Ctrl-C, the moves analysed so far (the last moves of the record) are
printed, said to be incomplete.

Moves are written as piece and cells in Pentobi's notation (column letter, row number
counted from the bottom), the colour first when it is not the player's own (green with
3 players, teams). -o FILE.blksgf writes the record with a comment on each analysed
move (Pentobi shows comments under the board). --json prints moves as colour, piece and
cells as [row, column] counted from 0 at the top left.

\b
Exit codes:
  0  analysed to the end
  1  incomplete (--time-limit), or no position small enough (--max-pieces)
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
    type=click.IntRange(0),
    default=DEFAULT_MAX_PIECES,
    show_default=True,
    help="Blokus: analyse from the first position where no player can place more pieces than this.",
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
    record: str, as_json: bool, time_limit: float, max_pieces: int, output: Path | None
) -> None:
    """Analyse a game record move by move."""
    from polytile.cli.clock import budget
    from polytile.cli.console import CONSOLE, facing
    from polytile.puzzles.analysis import AnalyseFace
    from polytile.puzzles.faces import face_of_file

    faced = face_of_file(record)
    if isinstance(faced, AnalyseFace):  # a game whose face analyses its own records
        ctx = click.get_current_context()
        if ctx.get_parameter_source("max_pieces") == click.core.ParameterSource.COMMANDLINE:
            raise click.UsageError("--max-pieces: only for Blokus records")
        check_output(output, (".json",), " (the record with its analysis)")
        with facing():
            faced.analyse(CONSOLE, record, budget(time_limit, reserve=0.25) or time_limit,
                          as_json, output)  # fmt: skip
        return
    from polytile.cli.progress import progress_bar
    from polytile.cli.render import is_record
    from polytile.puzzles.blokus.analyse import analyse_record
    from polytile.puzzles.blokus.sgf import read_blksgf

    check_output(output, (".blksgf",), " (the annotated record)")
    if not is_record(record):
        raise FormatError(f"polytile analyse needs a Blokus game record (Pentobi, .blksgf); "
                          f"this is {_what_it_is(record)}",
                          "<stdin>" if record == "-" else record)  # fmt: skip
    game = read_blksgf(Path(record))
    state = SimpleNamespace(done=0, total=1, seconds=0.0, nodes=0)

    def describe(p: Any) -> str:
        return f"positions solved; {p.nodes:,} searched"

    with progress_bar("exact analysis", not as_json, describe) as update:

        def progress(done: int, total: int, nodes: int, seconds: float) -> None:
            if update is not None:
                state.done, state.total, state.nodes, state.seconds = done, total, nodes, seconds
                update(state)

        analysis = analyse_record(game, max_pieces=max_pieces, progress=progress,
                                  time_limit=budget(time_limit, reserve=0.25))  # fmt: skip
    if analysis.first_solvable is None:
        click.echo(f"no exact analysis: {analysis.refused} (--max-pieces)", err=True)
        sys.exit(1)
    if output is not None and analysis.moves:
        _write(game, analysis, output)
    elif output is not None:
        click.echo(f"nothing written to {output}: no move analysed", err=True)
    if as_json:
        doc = {"game": "blokus", "variant": game.variant, "players_option": game.players,
               **analysis.as_dict()}  # fmt: skip
        click.echo(json.dumps(doc))
    else:
        _print(game, analysis)
    if analysis.stopped is not None:
        first = analysis.moves[0].number if analysis.moves else None
        done = f"moves {first} to {analysis.total_moves}" if first else "no move"
        why = {"time": f"--time-limit {time_limit:g} s reached", "interrupt": "interrupted",
               "nodes": "node limit reached"}[analysis.stopped]  # fmt: skip
        click.echo(f"incomplete ({why}): {done} analysed, not every move after move "
                   f"{analysis.first_solvable}", err=True)  # fmt: skip
        if analysis.unfinished is not None and not as_json:
            from polytile.puzzles.blokus.rules import VARIANTS

            k, proven = analysis.unfinished
            size = VARIANTS[game.variant].size
            click.echo(f"Before move {k + 1}, proven before the stop: {proven.summary()}.")
            click.echo(f"  {proven.claim(lambda m: _move_text(m, proven.mover, size))}")
        sys.exit(130 if analysis.stopped == "interrupt" else 1)


def _move_text(move: Any, player: str, size: int) -> str:
    """``T4 k14,k13,l13,k12``, the colour first when the player has more than one."""
    from polytile.puzzles.blokus.sgf import cell_name

    cells = sorted(move.cells, key=lambda rc: (size - rc[0], rc[1]))
    text = f"{move.piece} {','.join(cell_name(cell, size) for cell in cells)}"
    return text if player == move.color else f"{move.color} {text}"


def _value_words(analysis: Any) -> tuple[str, str]:
    """How values are printed, and what they mean."""
    if analysis.mode == "difference":
        first, second = analysis.players
        return "{:+d}", f"{first}'s final lead over {second} under perfect play from there"
    return "{:d}", "the final score the move's player can make sure of, the others against it"


def _print(record: Any, analysis: Any) -> None:
    from polytile.puzzles.blokus.rules import VARIANTS

    size = VARIANTS[record.variant].size
    players = "2 teams" if record.players == "teams" else f"{record.players} players"
    title = "Blokus Duo" if record.variant == "duo" else f"Blokus, {players}"
    fmt, meaning = _value_words(analysis)
    start = analysis.first_solvable
    since = "the start" if start == 0 else f"the position after move {start}"
    click.echo(f"{title}: {analysis.total_moves} moves; exact from {since}.")
    if analysis.refused:
        click.echo(f"Not before: {analysis.refused} (--max-pieces).")
    click.echo(f"Values: {meaning}. Loss: what the move cost its player.")
    if not analysis.moves:
        click.echo("\nNo move to analyse.")
    else:
        rows = [(str(m.number), m.player, _move_text(m.move, m.player, size),
                 fmt.format(m.before), fmt.format(m.after), str(m.loss) if m.loss else "",
                 _move_text(m.best, m.player, size) if m.loss else "")
                for m in analysis.moves]  # fmt: skip
        head = ("move", "player", "played", "before", "after", "loss", "best move")
        widths = [max(len(r[i]) for r in (head, *rows)) for i in range(len(head))]
        right = {0, 3, 4, 5}
        click.echo()
        for r in (head, *rows):
            cells = [c.rjust(w) if i in right else c.ljust(w)
                     for i, (c, w) in enumerate(zip(r, widths, strict=True))]  # fmt: skip
            click.echo("  ".join(cells).rstrip())
        lost = analysis.mistakes
        by = {p: sum(m.loss for m in lost if m.player == p) for p in analysis.players}
        shares = ", ".join(f"{p} {v}" for p, v in by.items() if v)
        click.echo(f"\n{len(lost)} of {len(analysis.moves)} moves lost value"
                   + (f" ({shares})." if lost else "."))  # fmt: skip
    state = "" if analysis.complete else " (incomplete)"
    click.echo(f"Searched {analysis.nodes:,} positions in {analysis.seconds:.2f} s{state}.")


def _comments(record: Any, analysis: Any) -> dict[int, str]:
    """The ``C`` comment of each analysed move, by move number."""
    from polytile.puzzles.blokus.rules import VARIANTS

    size = VARIANTS[record.variant].size
    fmt, meaning = _value_words(analysis)
    notes = {}
    for m in analysis.moves:
        text = f"polytile analyse: exact value {fmt.format(m.before)} before, " \
               f"{fmt.format(m.after)} after"  # fmt: skip
        if m.loss:
            text += f"; {m.player} lost {m.loss}; best: {_move_text(m.best, m.player, size)}"
        else:
            text += "; a best move"
        if m is analysis.moves[0]:
            text += f"\n(values: {meaning})"
        notes[m.number] = text
    return notes


def _write(record: Any, analysis: Any, output: Path) -> None:
    from polytile.formats import write_atomic
    from polytile.puzzles.blokus.sgf import write_blksgf

    text = write_blksgf(record, comments=_comments(record, analysis))
    write_atomic(output, text.encode("utf-8"))
    click.echo(f"wrote {output}", err=True)


#: Format tags of the other games' files, for the refusal of one.
_OTHERS = (
    (b'"polytile/walkable@1"', "Walkable Cities"),
    (b'"polytile/henning@1"', "City Blocks (Henning)"),
    (b'"polytile/gridblock@1"', "Gridblock"),
)


def _what_it_is(file: str) -> str:
    """``file`` (not a ``.blksgf``) in words, from its first 4 kB, for the refusal; with the
    command that solves its endgame when there is one."""
    import re

    from polytile._files import read_stdin

    try:
        if file == "-":
            head = read_stdin()[:4096]
        else:
            with open(file, "rb") as f:
                head = f.read(4096)
    except OSError as e:
        return f"a file that cannot be read ({e.strerror or e})"
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"(" and file == "-":
        return ("a Pentobi game record on standard input: give it as a file, such as "
                "game.blksgf")  # fmt: skip
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"(":
        return ("an SGF game record whose first 4 kB name no Blokus game (no GM[Blokus...]; "
                "a file named *.blksgf is always read as a record)")  # fmt: skip
    kind = re.search(rb'"kind"\s*:\s*"(record|position|view)"', head)
    what = {b"record": "game record", b"position": "position", b"view": "player's view"}[
        kind[1]] if kind else "file"  # fmt: skip
    for tag, game in _OTHERS:
        if tag in head:
            return (f"a {game} {what}: analyse is for Blokus only ('polytile solve-endgame' "
                    "solves its endgame)")  # fmt: skip
    if b'"polytile/position@1"' in head:
        return ("a position: it has no moves to analyse (its exact value: 'polytile "
                "solve-endgame')")  # fmt: skip
    found = re.search(rb'"format"\s*:\s*"([^"]{1,60})"', head)
    if found:
        return f"a {found[1].decode('utf-8', 'replace')} file"
    return "not a game record (a Pentobi record starts with '(;' and names its game GM[Blokus...])"


COMMANDS = [analyse_command]
