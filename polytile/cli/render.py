"""``polytile render``: draw a solution or position file in the terminal, as SVG, PNG or text."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from polytile._files import short
from polytile.errors import FormatError
from polytile.formats import MAX_FILE_BYTES, Position, Solution, load, loads
from polytile.puzzles.blokus._endgame_limits import DEFAULT_MAX_PIECES
from polytile.render import save_picture, to_text
from polytile.text import printable

if TYPE_CHECKING:
    from polytile.puzzles.blokus.rules import Blokus
    from polytile.puzzles.blokus.sgf import GameRecord

__all__ = [
    "COMMANDS",
    "is_record",
    "picture_options",
    "read_blokus",
    "read_document",
    "read_position",
    "render_command",
]


# An SGF game tree opens with "(;"; Pentobi names a Blokus variant in the root's GM property
# (GM[Blokus], GM[Blokus Duo], ...; the reader refuses the variants it does not play).
_SGF_START = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*\(\s*;")
_BLOKUS_GM = re.compile(rb"GM\s*\[\s*Blokus")


def is_record(file: str) -> bool:
    """True when ``file`` names a Pentobi game record: a ``.blksgf`` file, or a file of any
    other name (``game.sgf``) whose first 4 kB are an SGF game tree (``(;``) with a
    ``GM[Blokus...]`` property. Standard input (``-``) is never read as a record."""
    if file == "-":
        return False
    if Path(file).suffix.lower() == ".blksgf":
        return True
    if not os.path.isfile(file):  # a pipe would lose the bytes looked at; readers say why
        return False
    head = _head(file)
    return _SGF_START.match(head) is not None and _BLOKUS_GM.search(head) is not None


def _read_record(file: str, move: int | None) -> GameRecord:
    """The game record in ``file``, once ``move`` is known to be one of its move numbers."""
    from polytile.puzzles.blokus.sgf import read_blksgf

    record = read_blksgf(Path(file))
    if move is not None and not 0 <= move <= len(record.moves):
        raise click.BadParameter(
            f"{file} has {len(record.moves)} moves; --move must be 0 to {len(record.moves)}",
            param_hint="--move",
        )
    return record


def read_document(file: str, move: int | None = None) -> Solution | Position:
    """Load ``file`` (``-`` reads standard input) as a solution or position.

    A Pentobi game record (``.blksgf``) gives the position after move ``move`` (default:
    the last); ``move`` is refused for other files.
    """
    if is_record(file):
        return _read_record(file, move).position(move).to_position()
    if move is not None:
        raise click.BadParameter("--move applies to game records (.blksgf)", param_hint="--move")
    if file == "-":
        from polytile._files import read_stdin

        data = read_stdin()
        _refuse_record(data, "<stdin>")
        return loads(data, "<stdin>")
    if os.path.isfile(file):  # a pipe would lose the bytes looked at
        _refuse_record(_head(file), file)
    return load(file)


def _head(file: str) -> bytes:
    """The first 4 kB of ``file`` (empty when it cannot be read: its reader says why)."""
    try:
        with open(file, "rb") as f:
            return f.read(4096)
    except OSError:
        return b""


def _refuse_record(data: bytes, source: str) -> None:
    """Refuse an SGF game record that :func:`is_record` did not take: one on standard input,
    or one that is not a Pentobi Blokus record."""
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] != b"(":
        return
    if source == "<stdin>":
        raise FormatError(
            "this looks like a Pentobi game record: give it as a file, such as game.blksgf "
            "(records are not read from standard input)",
            source,
        )
    from polytile.puzzles.blokus.sgf import GAME_NAMES

    games = ", ".join(f"GM[{name}]" for name in GAME_NAMES)
    raise FormatError(
        "this looks like an SGF game record, but its first 4 kB name no Blokus game; "
        f"polytile reads Pentobi records of {games} (a file named *.blksgf is always read "
        "as one)",
        source,
    )


def read_blokus(
    file: str, move: int | None = None
) -> tuple[Solution | Position, Blokus | None, GameRecord | None]:
    """:func:`read_document`, with the Blokus game for a Blokus position or a game record (None
    for anything else) and the record itself for a ``.blksgf`` file (else None).

    Raises
    ------
    FormatError
        For a Blokus position the rules refuse (:meth:`Blokus.from_position`).
    """
    if is_record(file):
        record = _read_record(file, move)
        game = record.position(move)
        return game.to_position(), game, record
    obj = read_document(file, move)
    if not isinstance(obj, Position) or obj.game != "blokus":
        return obj, None, None
    from polytile.puzzles.blokus.rules import Blokus

    return obj, Blokus.from_position(obj, "<stdin>" if file == "-" else file), None


_PICTURE_HELP = "Write the picture here (.svg, .png or .txt) instead of printing it."


def picture_options(f: Any, output_help: str = _PICTURE_HELP) -> Any:
    """The picture options shared by commands that draw: ``-o``, ``--color/--no-color``,
    ``--cell``; ``output_help`` says what ``-o`` writes."""
    f = click.option(
        "--cell",
        type=click.IntRange(4, 200),
        default=24,
        show_default=True,
        help="Cell size in pixels for .svg and .png.",
    )(f)
    f = click.option(
        "--color/--no-color",
        default=None,
        help="Force colours on or off in the terminal picture [default: on for a terminal, "
        "unless NO_COLOR is set].",
    )(f)
    return click.option(
        "-o",
        "--output",
        type=click.Path(dir_okay=False, writable=True, path_type=Path),
        help=output_help,
    )(f)


def read_position(
    file: str, games: tuple[str, ...], command: str, move: int | None = None
) -> tuple[Position, bool]:
    """Load ``file`` as a position of one of ``games`` for ``command``; True with it when it
    was a plain text board (read as a board of ``games[0]``, with no hands).

    Raises
    ------
    FormatError
        For a solution file, or a position of another game.
    """
    source = "<stdin>" if file == "-" else file
    if move is not None or is_record(file):
        obj, is_text = read_document(file, move), False
    else:
        if file == "-":
            from polytile._files import read_stdin

            data = read_stdin()  # loads refuses more than MAX_FILE_BYTES
        else:
            with open(file, "rb") as f:
                data = f.read(MAX_FILE_BYTES + 1)  # loads refuses more
        _refuse_record(data, source)
        obj = loads(data, source)
        is_text = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] not in (b"{", b"[")
    if not isinstance(obj, Position):
        raise FormatError("expected a position or a plain text board, found a solution", source)
    if is_text:  # a plain text board has no game of its own (it loads as "tiling")
        return Position(games[0], obj.board), True
    if obj.game not in games:
        wanted = " or ".join(f'"{g}"' for g in games)
        raise FormatError(
            f"the position is of game {obj.game!r}; polytile {command} reads {wanted} positions",
            source,
            "game",
        )
    return obj, False


@click.command(
    "render",
    help="""Draw a solution or position file.

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
it; overlapping pieces still draw, their shared cells marked '*'.

For a Blokus position or game record the empty cells where the colour to move may attach
a piece are marked ('+' in plain text, dots in colour and in pictures; --no-attach leaves
them out), and with --move N the piece placed at move N is highlighted (lower-case letters
in plain text, a thick black and white border in pictures). A line under a text picture
says what the marks are.

\b
Examples:
  polytile render examples/pentomino-6x10.json
  polytile render examples/blokus-opening.json -o opening.png --cell 32
  polytile render examples/blokus-opening.json --no-attach
  polytile solve pentomino-6x10 --json | polytile render - --no-color
  polytile render examples/duo-game.blksgf --move 6
  polytile render examples/duo-endgame.blksgf --best
  polytile render gridblock.json --move 12 -o turn12.svg
""",
)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@picture_options
@click.option(
    "--title",
    help="Caption above the board in .svg and .png pictures (for a Gridblock file, in place "
    "of the name it carries).",
)
@click.option(
    "--move",
    type=click.IntRange(0),
    default=None,
    metavar="N",
    help="Game records: the position after move N (0: before the first), with move N highlighted.",
)
@click.option(
    "--best",
    is_flag=True,
    help="Blokus: highlight the best move of the colour to move instead, found by the exact "
    "endgame search of 'polytile solve-endgame' with its defaults (at most "
    f"{DEFAULT_MAX_PIECES} pieces still "
    "placeable per player, 60 s) or, past that many pieces, settled by the bounds when "
    "they pin every colour's score (2 CP-SAT searches of up to 2 s per colour); exit 1 when "
    "there is no answer (too many pieces left and the bounds do not settle it, or out of "
    "time), exit 2 when there is no move to recommend (the game is over, "
    "or the colour to move can only pass).",
)
@click.option(
    "--attach/--no-attach",
    default=True,
    show_default=True,
    help="Blokus: mark the empty cells where the colour to move may attach a piece.",
)
def render_command(
    file: str,
    output: Path | None,
    color: bool | None,
    cell: int,
    title: str | None,
    move: int | None,
    best: bool,
    attach: bool,
) -> None:
    """Print or write a picture of ``file``."""
    from polytile.cli.console import CONSOLE, facing
    from polytile.puzzles.faces import face_of_file

    face = face_of_file(file)
    if face is not None:  # a game with a face of its own draws its picture
        with facing():
            face.render(CONSOLE, file, move, output, color, cell, title)
        return
    if attach or best or is_record(file):
        obj, game, record = read_blokus(file, move)
    else:  # an invalid Blokus position still draws
        obj, game, record = read_document(file, move), None, None
    if isinstance(obj, Solution):
        _refuse_off_board(obj, "<stdin>" if file == "-" else file)
    to_move = game.to_move if attach and game is not None and not game.is_game_over() else None
    marks = game.attach_points() if game is not None and to_move else []
    played = record.moves[move - 1] if record is not None and move else None
    if best:
        played, move = _best_move(game), None
    highlight = played.cells if played else ()
    lit = played.color if played else None
    if output is not None:
        save_picture(
            obj,
            output,
            cell,
            title,
            marks=marks,
            mark_color=to_move,
            highlight=highlight,
            highlight_color=lit,
        )
        click.echo(f"wrote {output}", err=True)
        return
    text = to_text(
        obj, color, marks=marks, mark_color=to_move, highlight=highlight, highlight_color=lit
    )
    coloured = "\x1b[" in text
    legend = []
    if to_move:
        symbol = "•" if coloured else "+"
        legend.append(
            f"{symbol} attach points of {to_move} (to move)"
            if marks
            else f"{to_move} (to move) has no attach points"
        )
    if played and move is None:
        legend.append(f"highlighted: the best move, {played.color} {played.piece}")
    elif played:
        legend.append(f"highlighted: move {move}, {played.color} {played.piece}")
    if legend:
        text += "; ".join(legend) + "\n"
    click.echo(text, nl=False, color=coloured)


def _refuse_off_board(solution: Solution, source: str) -> None:
    """A picture cannot show a cell off the board: refuse the solution as validate would, rather
    than draw it without that cell (overlaps and unknown pieces still draw, marked)."""
    rows, cols = solution.rows, solution.cols
    for i, placed in enumerate(solution.placements):
        for j, (r, c) in enumerate(placed.cells):
            if not (0 <= r < rows and 0 <= c < cols):
                raise FormatError(
                    f"cell {short([r, c])} of piece {printable(placed.piece)} lies outside the "
                    f"{rows}x{cols} board; 'polytile validate' lists every problem",
                    source,
                    f"placements[{i}].cells[{j}]",
                )


#: Seconds for each CP-SAT search of the bounds ``--best`` tries past ``--max-pieces``.
_SETTLE_SECONDS = 2.0


def _best_move(game: Blokus | None) -> Any:
    """The exact best move of the colour to move (a placement), for ``--best``."""
    from polytile.puzzles.blokus.endgame import EndgameRefused, EndgameStopped, solve_endgame

    if game is None:
        raise click.BadParameter("--best needs a Blokus position or game record",
                                 param_hint="--best")  # fmt: skip
    if game.is_game_over():
        raise click.BadParameter("the game is over: there is no move to recommend "
                                 "('polytile score' shows the final scores)",
                                 param_hint="--best")  # fmt: skip
    try:
        try:
            found = solve_endgame(game, players=[game.player_to_move]).best_move
        except EndgameRefused as refused:  # unless the bounds settle it (a board split up)
            from polytile.puzzles.blokus.settle import settle

            click.echo(f"--best: {refused}; trying the bounds (2 CP-SAT searches of up to "
                       f"{_SETTLE_SECONDS:g} s per colour)", err=True)  # fmt: skip
            settled = settle(game, time_limit=_SETTLE_SECONDS, players=[game.player_to_move])
            if settled is None:
                raise EndgameRefused(f"{refused}, and the bounds do not settle it") from None
            found = settled.best_move
    except (EndgameRefused, EndgameStopped) as exc:
        click.echo(f"--best: no exact best move: {exc}; 'polytile solve-endgame' (with "
                   "--max-pieces, --time-limit) prints the bounds instead", err=True)  # fmt: skip
        interrupted = isinstance(exc, EndgameStopped) and exc.reason == "interrupt"
        sys.exit(130 if interrupted else 1)
    if found is None or found.piece is None:
        raise click.BadParameter(f"{game.to_move} must pass here: there is no placement to "
                                 "recommend", param_hint="--best")  # fmt: skip
    return found


COMMANDS = [render_command]
