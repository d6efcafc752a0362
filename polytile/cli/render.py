"""``polytile render``: draw a solution, position or puzzle file in the terminal, as SVG, PNG
or text (several puzzles on one sheet)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from polytile._files import short
from polytile.cli.console import facing
from polytile.cli.options import game_options, given_options, picture_options
from polytile.errors import FormatError
from polytile.formats import Position, Solution
from polytile.render import save_picture, to_text
from polytile.text import printable, wrote

__all__ = [
    "COMMANDS",
    "picture_options",
    "read_document",
    "read_position",
    "render_command",
]


# The readers other commands (bounds, score, validate) take from here, for the files no
# game's face takes (a game's own files, records included, are read by its face): these are
# solutions and tiling boards, or files said not to be a game's (an SGF record of a game
# polytile does not play is refused by the face of the game whose records are SGF).


def read_document(file: str, move: int | None = None) -> Solution | Position:
    """Load ``file`` (``-`` reads standard input), a file of no game's face, as a solution
    or position; ``move`` is refused (game records are their games' faces' to read)."""
    from polytile._positions import read_document as read
    from polytile.faces.registry import refuse_record

    _refuse_move(move)
    with facing():
        return read(file, refuse_record)


def _refuse_move(move: int | None) -> None:
    from polytile.faces.registry import FORMATS, RECORD_SUFFIXES, face

    if move is not None:
        games = [face(g).title for g in dict.fromkeys(FORMATS.values())]
        named = ", ".join(games[:-1]) + f" or {games[-1]}" if len(games) > 1 else "".join(games)
        raise click.BadParameter(f"--move applies to game records ({', '.join(RECORD_SUFFIXES)}, "
                                 f"or a record of {named}); this file is none",
                                 param_hint="--move")  # fmt: skip


def read_position(
    file: str, games: tuple[str, ...], command: str, move: int | None = None
) -> tuple[Position, bool]:
    """Load ``file``, a file of no game's face, as a position of one of ``games`` for
    ``command``; True with it when it was a plain text board (read as a board of
    ``games[0]``, with no hands).

    Raises
    ------
    FormatError
        For a solution, or a position of another game.
    """
    from polytile._positions import check_game, read_board_or_position, source_of
    from polytile.faces.registry import refuse_record

    _refuse_move(move)
    obj, is_text = read_board_or_position(file, refuse_record)
    return check_game(obj, is_text, games, command, source_of(file)), is_text


@click.command(
    "render",
    help="""Draw a solution, position or puzzle file.

FILE is a polytile solution or position JSON file, a plain text board (rows of
'. # B Y R G'), or a Pentobi game record (.blksgf: the position after --move N, by
default the end; under another name, such as game.sgf, a record is recognised by its
start: '(;' and a GM[Blokus...] property); '-' reads standard input (not records). A
Gridblock file (polytile/gridblock@1: a record, position or view) shows the grid, the
cubes on the tiles' corners, the movers and the walk of the last move (with --move N, of
move N). A file of Walkable Cities (polytile/walkable@1) shows the three boards side by
side with each player's largest regions marked (with --move N, after N rounds). Without -o the
picture goes to stdout as text, two characters per cell: colour blocks on a terminal,
letters otherwise. With -o it is written to a file whose suffix picks the kind: .svg, .png
or .txt (plain letters).
A solution with a cell off its board is refused (exit 2), as 'polytile validate' rejects
it; overlapping pieces still draw, their shared cells marked '*'. The pieces a puzzle gave
in place (a solution's "given" field) are in lower case in text, hatched in pictures.

A tiling puzzle file (polytile/puzzle@1, a flat .xmpuzzle) or a catalogue name draws the
puzzle to solve: the board with its holes and given pieces, and a tray of the pieces still
to place, each with its supply (x2, 0-2, any number; a choice under "Choose 10 of these").
Several such FILEs make one sheet, three to a row (-o .svg, .png or .txt; --title is its
heading), as 'polytile puzzles export' does.

For a Blokus position or game record the empty cells where the colour to move may attach
a piece are marked ('+' in plain text, dots in colour and in pictures; --no-attach leaves
them out), and with --move N the piece placed at move N is highlighted (lower-case letters
in plain text, a thick black and white border in pictures). A line under a text picture
says what the marks are.

\b
Exit codes:
  0  drawn (to the terminal, or the file -o names)
  2  unreadable file, a file of nothing polytile draws, an invalid puzzle file,
     several FILEs not all puzzles, or bad usage

\b
Examples:
  polytile render examples/pentomino-6x10.json
  polytile render examples/blokus-opening.json -o opening.png --cell 32
  polytile render examples/blokus-opening.json --no-attach
  polytile solve pentomino-6x10 --json | polytile render - --no-color
  polytile render examples/duo-game.blksgf --move 6
  polytile render examples/duo-endgame.blksgf --best
  polytile render gridblock.json --move 12 -o turn12.svg
  polytile render my-puzzle.json -o my-puzzle.png
  polytile render a.json b.json c.json -o sheet.svg --title "Three puzzles"
""",
)
@click.argument("files", nargs=-1, required=True, metavar="FILE...",
                type=click.Path(dir_okay=False, allow_dash=True))  # fmt: skip
@picture_options
@click.option(
    "--title",
    help="Caption above the board in .svg and .png pictures (for a Gridblock file or a "
    "puzzle, in place of the name it carries; for several puzzles, the sheet's heading).",
)
@click.option(
    "--move",
    type=click.IntRange(0),
    default=None,
    metavar="N",
    help="Game records: the position after move N (0: before the first), with move N highlighted.",
)
@click.option(
    "--view",
    type=click.Choice(["layers", "isometric"]),
    default=None,
    help="A box of cubes (a solution or a puzzle) in .svg or .png: its layers side by side "
    "[default], or the "
    "assembled solid drawn isometric.",
)
@game_options("render_options")
def render_command(
    files: tuple[str, ...],
    output: Path | None,
    color: bool | None,
    cell: int,
    title: str | None,
    move: int | None,
    view: str | None,
    **options: Any,
) -> None:
    """Print or write a picture of each file (several: puzzles, on one sheet)."""
    from polytile.cli.console import CONSOLE
    from polytile.faces.registry import PUZZLES, catalogue, face_of_file

    if len(files) > 1:  # puzzles to solve on one sheet
        tiling: Any = catalogue()
        missing = next((f for f in files if f != "-" and not Path(f).exists()
                        and not tiling.draws(f)), None)  # fmt: skip
        if missing is not None:
            raise click.BadParameter(f"{printable(missing)}: no such file, nor a puzzle of the "
                                     "catalogue ('polytile puzzles')",
                                     param_hint="FILE...")  # fmt: skip
        other = next((f for f in files if not tiling.draws(f)), None)
        if other is not None:
            raise click.BadParameter(f"{printable(other)} is no tiling puzzle: several files "
                                     "are drawn only when each is a puzzle file (polytile/"
                                     "puzzle@1) or a catalogue name, on one sheet",
                                     param_hint="FILE...")  # fmt: skip
        _render_puzzles(tiling, files, output, color, cell, title, move, options, view)
        return
    file = files[0]
    face = face_of_file(file)
    if face is not None:  # a game with a face of its own draws its picture
        given = given_options(face.name, options, "render_options")
        with facing():
            face.render(CONSOLE, file, move, output, color, cell, title, given)
        return
    from polytile.store.files import puzzle_file, render_puzzle

    exported = puzzle_file(file)
    if exported is not None:  # a puzzle exported from a store: its question, as text
        _refuse_move(move)
        with facing():
            render_puzzle(CONSOLE, file, exported, None if output is None else str(output))
        return
    tiling = catalogue()
    if tiling.draws(file):  # a tiling puzzle to solve: its board and its tray
        _render_puzzles(tiling, files, output, color, cell, title, move, options, view)
        return
    if options.get("best"):
        raise click.BadParameter("--best needs a Blokus position or game record",
                                 param_hint="--best")  # fmt: skip
    declared = file in PUZZLES and file != "-" and not Path(file).exists()
    if declared or tiling.is_teaser_name(file):  # it said "No such file or directory"
        raise click.BadParameter(
            f"{file} is a puzzle of 'polytile solve', not a file: render draws files and the "
            f"catalogue's tiling puzzles; 'polytile solve {file} -o answer.svg' draws an "
            "answer", param_hint="FILE")  # fmt: skip
    obj = read_document(file, move)  # a solution, or a position or board of no game's face
    if isinstance(obj, Solution):
        _refuse_off_board(obj, "<stdin>" if file == "-" else file)
        obj = _drawn(obj)
    if view is not None and (not isinstance(obj, Solution) or obj.grid != "cube"):
        raise click.BadParameter("draws a solution on the cube grid (a box of cubes)",
                                 param_hint="--view")  # fmt: skip
    if view is not None and (output is None or output.suffix.lower() not in (".svg", ".png")):
        raise click.BadParameter("chooses how -o draws a .svg or .png picture; the terminal "
                                 "and .txt pictures show the layers", param_hint="--view")
    if output is not None:
        save_picture(obj, output, cell, title, view=view)
        click.echo(wrote(output), err=True)
        return
    text = to_text(obj, color)
    click.echo(text, nl=False, color="\x1b[" in text)


def _render_puzzles(tiling: Any, files: tuple[str, ...], output: Path | None,
                    color: bool | None, cell: int, title: str | None, move: int | None,
                    options: dict[str, Any], view: str | None) -> None:  # fmt: skip
    """Tiling puzzles to solve, drawn by the catalogue's face (a sheet for several)."""
    from polytile.cli.console import CONSOLE

    _refuse_move(move)
    if options.get("best"):
        raise click.BadParameter("--best needs a Blokus position or game record",
                                 param_hint="--best")  # fmt: skip
    with facing():
        tiling.render(CONSOLE, files, output, color, cell, title, view)


def _drawn(solution: Solution) -> Solution:
    """What to draw for ``solution``: the answer of a declared puzzle as that puzzle draws
    it (a City Blocks layout with the centre squares of its board), else itself."""
    from polytile.faces.puzzle import AnswerCheck
    from polytile.faces.registry import PUZZLES, puzzle

    if solution.puzzle not in PUZZLES:
        return solution
    declared = puzzle(solution.puzzle)
    return declared.drawn(solution) if isinstance(declared, AnswerCheck) else solution


def _refuse_off_board(solution: Solution, source: str) -> None:
    """A picture cannot show a cell off the board: refuse the solution as validate would, rather
    than draw it without that cell (overlaps and unknown pieces still draw, marked)."""
    extent: tuple[int, ...] = (solution.rows, solution.cols)
    if solution.grid == "cube":
        extent = (solution.layers, *extent)
    for i, placed in enumerate(solution.placements):
        for j, cell in enumerate(placed.cells):
            if len(cell) != len(extent) or not all(
                    0 <= x < n for x, n in zip(cell, extent, strict=True)):  # fmt: skip
                raise FormatError(
                    f"cell {short(list(cell))} of piece {printable(placed.piece)} lies outside "
                    f"the {'x'.join(map(str, extent))} board; 'polytile validate' lists every "
                    "problem",
                    source,
                    f"placements[{i}].cells[{j}]",
                )


COMMANDS = [render_command]
