"""``polytile new``, ``polytile play`` and ``polytile selfplay``: start, continue and self-play
games, writing files the other commands read (``render``, ``score``, ``validate``,
``solve-endgame``)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import click

from polytile.cli.options import game_options, given_options
from polytile.faces.face import Face, SelfplayFace
from polytile.puzzles.engine import DEFAULT_MOVE_TIME
from polytile.text import wrote

__all__ = ["COMMANDS"]

SEED = click.IntRange(0, 2**31 - 1)
#: The order ``new --help`` lists its games in (games not named here come after).
_NEW_ORDER = ("henning", "blokus", "cityblocks", "gridblock", "walkable")


def _faces(kind: type[Any] = Face) -> dict[str, Any]:
    """The registered faces of ``kind`` (every face, or those with engine players)."""
    from polytile.faces.registry import FACES, face

    found = {name: face(name) for name in FACES}
    return {name: f for name, f in found.items() if isinstance(f, kind)}


def _write(text: str, output: Path | None, quiet: bool = False) -> None:
    from polytile.formats import write_atomic

    if output is None:
        click.echo(text, nl=False)
    else:
        write_atomic(output, text)
        if not quiet:
            click.echo(wrote(output), err=True)


def _new_games() -> list[tuple[str, str]]:
    """Every game ``new`` sets up, with what it writes, in the order of the help."""
    rows = [(name, f.new_help) for name, f in _faces().items()]
    order = {name: i for i, name in enumerate(_NEW_ORDER)}
    return sorted(rows, key=lambda row: order.get(row[0], len(order)))


def _new_help() -> str:
    lines = []
    for name, text in _new_games():
        wrapped = textwrap.wrap(text, 75)
        lines.append(f"  {name:<13}{wrapped[0]}")
        lines += [f"{'':15}{more}" for more in wrapped[1:]]
    return "\n".join(lines)


@click.command(
    "new",
    help=f"""Set up a new game and write it as a file.

\b
GAME is one of:
{_new_help()}

The file goes to standard output unless -o names one. The same --seed gives the same
set-up.

\b
Exit codes:
  0  written
  2  bad usage

\b
Examples:
  polytile new henning --seed 7 -o game.json
  polytile play game.json S4@b3
  polytile render game.json
  polytile new gridblock --seed 3 --players 2 --deal split -o grid.json
  polytile new walkable --seed 7 --dead 12 --tiebreak R -o walk.json
""",
)
@click.argument("game", type=click.Choice([name for name, _ in _new_games()]))
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the set-up.")
@game_options("new_options")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the file here (atomically) instead of to standard output.")  # fmt: skip
def new(game: str, seed: int, output: Path | None, **options: Any) -> None:
    """Write a new game of ``game``."""
    from polytile.cli.console import facing

    given = given_options(game, options, "new_options")
    with facing():
        _write(_faces()[game].new(seed, given), output)


@click.command(
    "play",
    help="""Play moves in a Blokus, City Blocks (Henning), City Blocks (Ritchie), Gridblock or
Walkable Cities game, in place.

RECORD is a game record (polytile new henning, polytile new gridblock, polytile new
walkable), a Blokus or City Blocks (Ritchie) position (polytile new blokus, polytile new
cityblocks) or a Pentobi record (.blksgf); its format says which game it is. Each MOVE is
checked by the rules engine before anything is written; if one is illegal, nothing is
written and the reason is given. Then the board, the city, the grid or the three boards
are shown.

\b
Blokus moves (points: a column letter and a row number from the bottom, as Pentobi's):
  e10 e9 f9                      the colour to move places the piece these points form
  V3 e10 e9 f9                   the same, naming the piece (in capitals: i2 is a point)
  yellow V3 j5 j4 k4             naming the colour too (the one to move after any passes)
  B V3 4,4 5,4 5,5               polytile's own form (row,column counted from 0 at top left)
A colour with no placement passes by itself; a .blksgf record gets the moves added to its
main line, a position becomes the new position.

\b
City Blocks (Henning) moves:
  S4@b3                          develop block b3 (column b, row 3) with the store S4
  redevelop H2@c1 with $3        pay your lowest token ($3), replace your tile on c1 by H2
  CH@a2 swap 1,c                 a courthouse that swaps the tokens of row 1 and column c
  pass                           only when you have no legal play

Tiles: H1-H5, S2-S6, F3-F7, SC (school, also PK or park), PP, MA, CH.

\b
City Blocks (Ritchie) moves (as 'polytile moves' lists them; rows and columns from 0 at
the top left):
  "B I3 0,0 0,1 0,2"             blue places its I3 on these cells
  "R pass"                       red passes
The position becomes the new position.

\b
Gridblock moves (tiles a1..f6, column then row from the top; corners NW NE SE SW):
  setup b3 NE                    set-up: the mover onto b3, the first cube on its NE corner
  C3@d4 NE                       play C3, walk 3 steps to d4, put a cube on its NE corner
  C3@d4                          play C3, walk to d4, discard a cube (no cube can go there)
  C3@d4 NE via d2,d3,d4          the same with the walk written out (kept in the record)

A Gridblock move may be given as one quoted word or as several: a new move starts at each
'setup' and each word with '@'.

\b
Walkable Cities rounds (one quoted MOVE a round: red's part | blue's part):
  "T4 1:c4,d4 2:e4 3:d5 | L4 pass"   red picked T4 and drops c4,d4 on board 1, e4 on
                                     board 2, d5 on board 3; blue picked L4 and passes
Cells are a column a-j and a row 1-10 from the top; each board named once.

--reply lets the engine player answer: it searches for --move-time seconds from what its
player may see (exact where the exact search answers in that time, a labelled estimate
before), its move is checked like a typed one, and a line says what it played and why.
In Walkable Cities, whose players move at once, --reply plays the next round for both;
a last round with one part left empty ("T4 1:c4,d4 2:e4 3:d5 |") has the engine make
that part, from the position before the round, without seeing the part given.

\b
Exit codes:
  0  played and written
  2  an illegal move, an unreadable record, or bad usage

\b
Examples:
  polytile play duo.json "e10 e9 f9" "j5 j4 k4"
  polytile play game.blksgf "V3 e10 e9 f9"
  polytile play game.json S4@b3
  polytile play game.json "CH@a2 swap 1,c" --no-color
  polytile play city.json "B I3 0,0 0,1 0,2"
  polytile play grid.json setup b3 NE setup e1 SW "setup a4 NW" "setup f6 SE"
  polytile play grid.json C3@d4 NE
  polytile play walk.json "T4 1:c4,d4 2:e4 3:d5 | L4 1:a1,a2 3:a3,b3"
  polytile play game.json S4@b3 --reply --move-time 5
  polytile play duo.blksgf --reply
  polytile play walk.json "T4 1:c4,d4 2:e4 3:d5 |" --reply
""",
)
@click.argument("record", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("moves", nargs=-1)
@click.option("--reply", is_flag=True,
              help="After MOVES, the engine player answers with the next move (Blokus, "
                   "City Blocks (Henning), Gridblock; in Walkable Cities the next round, "
                   "or the part left empty in the last one); with no MOVES, it makes the "
                   "next move.")  # fmt: skip
@click.option("--move-time", type=click.FloatRange(0.05, 3600), default=DEFAULT_MOVE_TIME,
              show_default=True, help="Seconds the engine takes for its answer.")  # fmt: skip
@click.option("--color/--no-color", default=None,
              help="Colour the picture [default: on a terminal].")  # fmt: skip
def play(record: Path, moves: tuple[str, ...], reply: bool, move_time: float,
         color: bool | None) -> None:  # fmt: skip
    """Append ``moves`` to ``record`` (and the engine's answer)."""
    from polytile.cli.console import CONSOLE, facing
    from polytile.faces.registry import face, face_of_file

    if not moves and not reply:
        raise click.BadParameter("give the moves to play, or --reply to let the engine move",
                                 param_hint="MOVES")  # fmt: skip

    found = face_of_file(str(record))
    if found is None:
        _refuse_other_formats(record)
        found = face("henning")  # its reader says what the file lacks
    with facing():
        found.play(CONSOLE, record, moves, color, reply, move_time)


def _refuse_other_formats(record: Path) -> None:
    """Refuse a polytile file of no game's face (a solution, a puzzle...), naming what it
    is."""
    import re

    try:
        with open(record, "rb") as f:
            head = f.read(4096)
    except OSError:
        return  # the Henning reader says why
    tag = re.search(rb'"format"\s*:\s*"(polytile/[\w-]+@\d+)"', head)
    if tag is None or tag[1] == b"polytile/henning@1":
        return
    game = re.search(rb'"game"\s*:\s*"([\w-]+)"', head)
    kind = tag[1].decode().split("/")[1].split("@")[0]  # position, solution, ...
    what = f"{game[1].decode()} {kind}" if game else f"{kind} file"
    raise click.BadParameter(
        f"{record} is a {what}; play continues Blokus and City Blocks (Ritchie) positions, "
        f"Pentobi records, and City Blocks (Henning), Gridblock and Walkable Cities records",
        param_hint="RECORD",
    )


def _selfplay_help() -> str:
    return "\n\n".join(f.selfplay_help for f in _faces(SelfplayFace).values())


@click.command(
    "selfplay",
    help=f"""Let engine players play Blokus, City Blocks (Henning), Gridblock or Walkable Cities
games and write their records.

Players: 'random' (a uniformly random legal move), 'greedy' and 'engine' (a search,
--move-time seconds a move: exact where the exact search answers in that time, an estimate
before); each colour or player has its own (--blue, --red, ...).

{_selfplay_help()}

--games N writes N records GAME-1.json (blokus-1.blksgf) ... with seeds --seed, --seed+1,
... into the folder -o names.

\b
Exit codes:
  0  written
  2  bad usage

\b
Examples:
  polytile selfplay henning --blue greedy --red random -o game.json
  polytile selfplay henning --blue engine --move-time 1 -o game.json
  polytile selfplay henning --games 20 --seed 100 -o records/
  polytile selfplay gridblock --yellow random --green random -o grid.json
  polytile selfplay gridblock --players 2 --score weaker --games 10 -o grid-records/
  polytile selfplay walkable --red greedy --blue random --games 5 -o walk-records/
  polytile selfplay blokus --variant duo --yellow random -o duo.blksgf
""",
)
@click.argument("game", type=click.Choice(sorted(_faces(SelfplayFace))))
@game_options("selfplay_options")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the set-up and of the players' random choices.")  # fmt: skip
@click.option("--games", type=click.IntRange(1, 10_000), default=1, show_default=True,
              help="How many games (seeds --seed, --seed+1, ...).")  # fmt: skip
@click.option("--stop-before-end", type=click.IntRange(0, 100), default=0, show_default=True,
              help="Take back this many moves from the end of each game (for endgame "
                   "studies).")  # fmt: skip
@click.option("--move-time", type=click.FloatRange(0.05, 3600), default=DEFAULT_MOVE_TIME,
              show_default=True, help="Seconds a move of each 'engine' player.")  # fmt: skip
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="The record file, or a folder with --games N [default: stdout].")  # fmt: skip
def selfplay(game: str, seed: int, games: int, stop_before_end: int, move_time: float,
             output: Path | None, **options: Any) -> None:  # fmt: skip
    """Self-play ``games`` games."""
    from polytile.cli.console import facing

    if games > 1 and output is None:
        raise click.BadParameter("several games need a folder", param_hint="-o/--output")
    if games == 1 and output is not None and output.is_dir():
        raise click.BadParameter(f"{output} is a folder: give a file name, or --games N "
                                 f"to write several into it", param_hint="-o/--output")  # fmt: skip
    given = given_options(game, options, "selfplay_options")
    given["move_time"] = move_time
    face = _faces(SelfplayFace)[game]
    if games == 1 and output is not None:
        with facing():
            face.check_record_name(output)
    if games > 1 and output is not None:
        if output.exists() and not output.is_dir():
            raise click.BadParameter(f"{output} is a file: --games N writes N records into a "
                                     "folder", param_hint="-o/--output")  # fmt: skip
        output.mkdir(parents=True, exist_ok=True)
    for i in range(games):
        with facing():
            text, summary = face.selfplay(seed + i, stop_before_end, given)
        name = f"{game}-{i + 1}{face.record_suffix}"
        _write(text, output if games == 1 else output / name, face.quiet_writes)  # type: ignore[operator]
        if output is not None:
            click.echo(f"game {i + 1}: {summary}", err=True)


COMMANDS = [new, play, selfplay]
