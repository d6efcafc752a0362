"""``polytile new``, ``polytile play`` and ``polytile selfplay``: start, continue and self-play
games, writing files the other commands read (``render``, ``score``, ``validate``,
``solve-endgame``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from polytile.cli.walkable import walkable_options

__all__ = ["COMMANDS"]

_NEW_GAMES = ("henning", "blokus", "cityblocks", "gridblock", "walkable")
SEED = click.IntRange(0, 2**31 - 1)
_ENGINES = ("greedy", "random")


def _write(text: str, output: Path | None) -> None:
    from polytile.formats import write_atomic

    if output is None:
        click.echo(text, nl=False)
    else:
        write_atomic(output, text)
        click.echo(f"wrote {output}", err=True)


def _gridblock_options(players: str | None, deal: str | None, two_player_score: str | None,
                       instant_win: bool | None) -> Any:  # fmt: skip
    """The Gridblock rule options from the command line (defaults for those not given)."""
    from polytile.puzzles.gridblock.rules import Options

    if players == "teams":
        raise click.BadParameter("Gridblock takes 2, 3 or 4 players (with 2, each plays two "
                                 "colours: blue+red against yellow+green)",
                                 param_hint="--players")  # fmt: skip
    count = int(players or 4)
    if two_player_score is not None and count != 2:
        raise click.BadParameter("--score chooses how a player's two colours count: only "
                                 "with --players 2", param_hint="--score")  # fmt: skip
    return Options(count, two_player_score or "sum", deal or "shuffle", bool(instant_win))


def _refuse_gridblock_options(game: str, deal: str | None, two_player_score: str | None,
                              instant_win: bool | None) -> None:  # fmt: skip
    given = [
        name
        for name, value in (
            ("--deal", deal),
            ("--score", two_player_score),
            ("--instant-win", instant_win),
        )
        if value is not None
    ]
    if given:
        raise click.UsageError(f"{', '.join(given)}: Gridblock options, not {game}'s")


@click.command(
    "new",
    help="""Set up a new game and write it as a file.

\b
GAME is one of:
  henning      City Blocks by J. Alan Henning: a game record with a seeded set-up (street
               tokens, first player, both players' shuffled tiles) and no moves yet
  blokus       Blokus: the empty board as a position (--variant classic|duo)
  cityblocks   City Blocks by Jeremy Ritchie: the start position (--players 2|3|4)
  gridblock    Gridblock by André Heines: a game record with a seeded set-up (the layout,
               the set-up draws, every colour's hand in every round) and no moves yet;
               --players 2|3|4 (with 2, blue+red play yellow+green), --deal, --score,
               --instant-win
  walkable     Walkable Cities: a game record with three seeded boards (--dead N dead
               cells each, default 10) and no rounds yet; --pass-limit 3|4, --tiebreak

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
@click.argument("game", type=click.Choice(_NEW_GAMES))
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the set-up.")
@click.option("--variant", type=click.Choice(["classic", "duo"]), default="classic",
              show_default=True, help="Blokus variant.")  # fmt: skip
@click.option("--players", type=click.Choice(["2", "3", "4", "teams"]),
              help="Blokus, City Blocks (Ritchie) or Gridblock players [default: the "
                   "variant's; Gridblock 4].")  # fmt: skip
@click.option("--deal", type=click.Choice(["shuffle", "split"]),
              help="Gridblock: 'shuffle' draws 3 of 6 cards every round; 'split' plays the "
                   "other 3 in rounds 2, 4, 6, open to all [default: shuffle].")  # fmt: skip
@click.option("--score", "two_player_score", type=click.Choice(["sum", "weaker"]),
              help="Gridblock with 2 players: a player's points are its two colours' sum, "
                   "or only the weaker colour's [default: sum].")  # fmt: skip
@click.option("--instant-win", is_flag=True, default=None,
              help="Gridblock: 3 corners of a tile whose 4th is not another colour's win "
                   "at once.")  # fmt: skip
@walkable_options
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the file here (atomically) instead of to standard output.")  # fmt: skip
def new(game: str, seed: int, variant: str, players: str | None, deal: str | None,
        two_player_score: str | None, instant_win: bool | None, dead: int | None,
        pass_limit: str | None, tiebreak: str | None, output: Path | None) -> None:  # fmt: skip
    """Write a new game of ``game``."""
    from polytile.cli.walkable import new_walkable, refuse_walkable_options

    if game == "walkable":
        _refuse_gridblock_options(game, deal, two_player_score, instant_win)
        new_walkable(seed, dead, pass_limit, tiebreak, output)
        return
    refuse_walkable_options(game, dead, pass_limit, tiebreak)
    if game == "gridblock":
        from polytile.puzzles.gridblock.files import dumps_record as dumps_gridblock
        from polytile.puzzles.gridblock.rules import Gridblock

        options = _gridblock_options(players, deal, two_player_score, instant_win)
        _write(dumps_gridblock(Gridblock.new(seed, options), {"seed": seed}), output)
        return
    _refuse_gridblock_options(game, deal, two_player_score, instant_win)
    if game == "henning":
        from polytile.puzzles.henning.files import dumps_record
        from polytile.puzzles.henning.rules import Henning

        _write(dumps_record(Henning.new(seed), {"seed": seed}), output)
        return
    from polytile.formats import dumps

    count: int | str | None = None
    if players is not None:
        count = players if players == "teams" else int(players)
    if game == "blokus":
        from polytile.puzzles.blokus.rules import Blokus

        _write(dumps(Blokus(variant, count).to_position()), output)
    else:
        from polytile.puzzles.cityblocks.rules import CityBlocks

        if count == "teams":
            raise click.BadParameter("City Blocks (Ritchie) takes 2, 3 or 4 players",
                                     param_hint="--players")  # fmt: skip
        _write(dumps(CityBlocks(int(count or 4)).to_position()), output)


@click.command(
    "play",
    help="""Play moves in a Blokus, City Blocks (Henning), Gridblock or Walkable Cities game, in
place.

RECORD is a game record (polytile new henning, polytile new gridblock, polytile new
walkable), a Blokus position (polytile new blokus) or a Pentobi record (.blksgf); its
format says which game it is. Each MOVE is checked by the rules engine before anything is
written; if one is illegal, nothing is written and the reason is given. Then the board,
the city, the grid or the three boards are shown.

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
  polytile play grid.json setup b3 NE setup e1 SW "setup a4 NW" "setup f6 SE"
  polytile play grid.json C3@d4 NE
  polytile play walk.json "T4 1:c4,d4 2:e4 3:d5 | L4 1:a1,a2 3:a3,b3"
""",
)
@click.argument("record", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("moves", nargs=-1, required=True)
@click.option("--color/--no-color", default=None,
              help="Colour the picture [default: on a terminal].")  # fmt: skip
def play(record: Path, moves: tuple[str, ...], color: bool | None) -> None:
    """Append ``moves`` to ``record``."""
    from polytile.cli.blokus_play import is_blokus, play_blokus
    from polytile.cli.console import CONSOLE, facing
    from polytile.puzzles.faces import face, face_of_file

    found = face_of_file(str(record))
    if found is None and is_blokus(str(record)):
        play_blokus(record, moves, color)
        return
    if found is None:
        _refuse_other_formats(record)
        found = face("henning")  # its reader says what the file lacks
    with facing():
        found.play(CONSOLE, record, moves, color)


def _refuse_other_formats(record: Path) -> None:
    """Refuse a polytile file of a kind ``play`` does not continue (a solution, a City Blocks
    (Ritchie) position...), naming what it is."""
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
        f"{record} is a {what}; play continues Blokus positions and Pentobi records, and City "
        f"Blocks (Henning), Gridblock and Walkable Cities records",
        param_hint="RECORD",
    )


@click.command(
    "selfplay",
    help="""Let engine players play Blokus, City Blocks (Henning), Gridblock or Walkable Cities
games and write their records.

Players: 'random' (a uniformly random legal move) and 'greedy'. In City Blocks (Henning),
greedy takes the best immediate money margin, then the best street leads. In Gridblock it
takes the most points for its player at once (its colour's, or with --players 2 its two
colours' sum or the weaker one, as --score says; an instant win above all), then for its own
colour. Both read only their own hands. Each colour has its player (--blue, --yellow,
--red, --green; yellow and green are Blokus's and Gridblock's); with --players 2 in
Gridblock, blue and red are one player's colours and yellow and green the other's.

In Walkable Cities (--red, --blue) greedy drops where its cells touch the most of its own
cells and picks the piece with the best such drop; random passes only when it has no drop.
--dead, --pass-limit and --tiebreak are as for 'polytile new'; --stop-before-end counts
rounds.

In Blokus (--variant, --players as for 'polytile new'; --blue, --yellow, --red, --green)
greedy places its biggest piece where it covers the most attach points of the other
colours (not its partner's); random, any placement. With 3 players green's moves are made
by the player whose turn with green it is. --stop-before-end counts placements. The
records are Pentobi's (.blksgf), ready for 'polytile analyse' and 'polytile solve-endgame'
(teams are written as Blokus Two-Player, the same board and scoring).

--games N writes N records GAME-1.json (blokus-1.blksgf) ... with seeds --seed, --seed+1,
... into the folder -o names.

\b
Exit codes:
  0  written
  2  bad usage

\b
Examples:
  polytile selfplay henning --blue greedy --red random -o game.json
  polytile selfplay henning --games 20 --seed 100 -o records/
  polytile selfplay gridblock --yellow random --green random -o grid.json
  polytile selfplay gridblock --players 2 --score weaker --games 10 -o grid-records/
  polytile selfplay walkable --red greedy --blue random --games 5 -o walk-records/
  polytile selfplay blokus --variant duo --yellow random -o duo.blksgf
""",
)
@click.argument("game", type=click.Choice(["blokus", "henning", "gridblock", "walkable"]))
@click.option("--blue", type=click.Choice(_ENGINES), default="greedy",
              show_default=True, help="Blue's player.")  # fmt: skip
@click.option("--yellow", type=click.Choice(_ENGINES),
              help="Blokus, Gridblock: yellow's player [default: greedy].")  # fmt: skip
@click.option("--red", type=click.Choice(_ENGINES),
              help="Red's player [default: greedy].")  # fmt: skip
@click.option("--green", type=click.Choice(_ENGINES),
              help="Blokus, Gridblock: green's player (not with --players 3 in Gridblock) "
                   "[default: greedy].")  # fmt: skip
@click.option("--variant", type=click.Choice(["classic", "duo"]),
              help="Blokus: the board [default: classic].")  # fmt: skip
@click.option("--players", type=click.Choice(["2", "3", "4", "teams"]),
              help="Blokus, Gridblock: how many players [default: 4; Blokus Duo 2].")  # fmt: skip
@click.option("--deal", type=click.Choice(["shuffle", "split"]),
              help="Gridblock: the deal option, as for 'polytile new' "
                   "[default: shuffle].")  # fmt: skip
@click.option("--score", "two_player_score", type=click.Choice(["sum", "weaker"]),
              help="Gridblock with --players 2: how a player's two colours count "
                   "[default: sum].")  # fmt: skip
@click.option("--instant-win", is_flag=True, default=None,
              help="Gridblock: play with instant wins.")  # fmt: skip
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the set-up and of the players' random choices.")  # fmt: skip
@click.option("--games", type=click.IntRange(1, 10_000), default=1, show_default=True,
              help="How many games; several go to GAME-i.json in the -o folder.")  # fmt: skip
@click.option("--stop-before-end", type=click.IntRange(0, 100), default=0, show_default=True,
              help="Stop this many moves before the end (positions left to analyse).")  # fmt: skip
@walkable_options
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="The record file, or a folder with --games N [default: stdout].")  # fmt: skip
def selfplay(game: str, blue: str, yellow: str | None, red: str | None, green: str | None,
             variant: str | None, players: str | None, deal: str | None,
             two_player_score: str | None, instant_win: bool | None, seed: int, games: int,
             stop_before_end: int, dead: int | None, pass_limit: str | None,
             tiebreak: str | None, output: Path | None) -> None:  # fmt: skip
    """Self-play ``games`` games."""
    from polytile.cli.walkable import refuse_walkable_options, selfplay_walkable

    if games > 1 and output is None:
        raise click.BadParameter("several games need a folder", param_hint="-o/--output")
    if games == 1 and output is not None and output.is_dir():
        raise click.BadParameter(f"{output} is a folder: give a file name, or --games N "
                                 f"to write several into it", param_hint="-o/--output")  # fmt: skip
    if variant is not None and game != "blokus":
        raise click.UsageError(f"--variant: a Blokus option, not {game}'s")
    if game == "blokus":
        from polytile.cli.blokus_play import selfplay_blokus

        _refuse_gridblock_options(game, deal, two_player_score, instant_win)
        refuse_walkable_options(game, dead, pass_limit, tiebreak)
        by_color = {"blue": blue, "yellow": yellow, "red": red, "green": green}
        selfplay_blokus(variant or "classic", players, by_color, seed, games, stop_before_end,
                        output)  # fmt: skip
        return
    red = red or "greedy"
    if game == "walkable":
        _refuse_gridblock_options(game, deal, two_player_score, instant_win)
        given = [n for n, v in (("--yellow", yellow), ("--green", green), ("--players", players))
                 if v is not None]  # fmt: skip
        if given:
            raise click.UsageError(f"{', '.join(given)}: not Walkable Cities options")
        selfplay_walkable(red, blue, seed, games, stop_before_end, dead, pass_limit, tiebreak,
                          output)  # fmt: skip
        return
    refuse_walkable_options(game, dead, pass_limit, tiebreak)
    if game == "gridblock":
        options = _gridblock_options(players, deal, two_player_score, instant_win)
        engines = {"blue": blue, "yellow": yellow or "greedy", "red": red,
                   "green": green or "greedy"}  # fmt: skip
        if options.players == 3 and green is not None:
            raise click.BadParameter("green is not in play with 3 players", param_hint="--green")
        _selfplay_gridblock(options, engines, seed, games, stop_before_end, output)
        return
    _refuse_gridblock_options(game, deal, two_player_score, instant_win)
    given = [n for n, v in (("--yellow", yellow), ("--green", green), ("--players", players))
             if v is not None]  # fmt: skip
    if given:
        raise click.UsageError(f"{', '.join(given)}: Blokus and Gridblock options, not "
                               f"{game}'s")  # fmt: skip
    from polytile.puzzles.henning.files import dumps_record
    from polytile.puzzles.henning.players import self_play
    from polytile.puzzles.henning.rules import Henning

    if games > 1 and output is not None:
        output.mkdir(parents=True, exist_ok=True)
    for i in range(games):
        g = Henning.new(seed + i)
        self_play(g, (blue, red), seed=seed + i)
        for _ in range(min(stop_before_end, len(g.move_stack))):
            g.pop()
        extra = {"seed": seed + i, "players": {"blue": blue, "red": red}}
        target = output if games == 1 else output / f"{game}-{i + 1}.json"  # type: ignore[operator]
        _write(dumps_record(g, extra), target)
        if (games == 1 and output is not None) or games > 1:
            m = g.margin()
            result = "draw" if m == 0 else f"{'blue' if m > 0 else 'red'} by ${abs(m)}"
            click.echo(f"game {i + 1}: {len(g.move_stack)} moves, {result}", err=True)


def _selfplay_gridblock(options: Any, engines: dict[str, str], seed: int, games: int,
                        stop_before_end: int, output: Path | None) -> None:  # fmt: skip
    from polytile.puzzles.gridblock.files import dumps_record
    from polytile.puzzles.gridblock.game import player_names
    from polytile.puzzles.gridblock.players import self_play
    from polytile.puzzles.gridblock.rules import COLOR_NAMES, INSTANT_WIN, Gridblock

    if games > 1 and output is not None:
        output.mkdir(parents=True, exist_ok=True)
    names = player_names(options)
    for i in range(games):
        g = Gridblock.new(seed + i, options)
        chosen = {COLOR_NAMES[c]: engines[COLOR_NAMES[c]] for c in g.colors}
        self_play(g, list(chosen.values()), seed=seed + i)
        for _ in range(min(stop_before_end, len(g.move_stack))):
            g.pop()
        extra = {"seed": seed + i, "players": chosen}
        target = output if games == 1 else output / f"gridblock-{i + 1}.json"  # type: ignore[operator]
        _write(dumps_record(g, extra), target)
        if (games == 1 and output is not None) or games > 1:
            points = [int(r) for r in g.returns()]
            scores = ", ".join(
                f"{n} {p - (INSTANT_WIN if g.winner == j else 0)}"
                for j, (n, p) in enumerate(zip(names, points, strict=True))
            )
            if g.winner is not None:
                result = f"{names[g.winner]} won at once"
            elif not g.is_over():
                result = "not finished"
            else:
                best = [n for n, p in zip(names, points, strict=True) if p == max(points)]
                result = f"{best[0]} wins" if len(best) == 1 else "a tie: " + " and ".join(best)
            click.echo(f"game {i + 1}: {len(g.move_stack)} moves, {scores}: {result}", err=True)


COMMANDS = [new, play, selfplay]
