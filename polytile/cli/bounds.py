"""``polytile bounds``: how well a colour can still end: at best, and what it can make sure of."""

from __future__ import annotations

import json
import time
from types import SimpleNamespace
from typing import Any

import click

from polytile.cli.options import SECONDS, Workers
from polytile.formats import Position

__all__ = ["COMMANDS", "blokus_bounds", "blokus_table", "bounds_command", "bounds_json"]

_COLORS = ("blue", "yellow", "red", "green")

#: JSON names of the lower bound that say what it is (#18): what the colour can make sure of
#: if it plays well, not what it will get (a colour that blunders ends below it). The old
#: names are kept beside them for one version.
CAN_ENSURE = {"lower": "can_ensure", "lower_proven": "can_ensure_proven",
              "score_lower": "score_can_ensure"}  # fmt: skip


def bounds_json(b: Any) -> dict[str, Any]:
    """The JSON document of one colour's bounds: ``b.as_dict()`` and the names of
    :data:`CAN_ENSURE`."""
    doc: dict[str, Any] = b.as_dict()
    return doc | {new: doc[old] for old, new in CAN_ENSURE.items() if old in doc}


def _mark(value: int, proven: bool) -> str:
    return f"{value}{'' if proven else '?'}"


def _table(results: list[Any]) -> str:
    lines = [f"{'colour':<8}{'now':>5}{'lower':>7}{'upper':>7}{'exact':>7}  best next"]
    for b in results:
        exact = "-" if b.exact is None else str(b.exact.value)
        nxt = "pass" if b.best_next is None else str(b.best_next)
        lines.append(f"{b.color:<8}{b.score_now:>5}{_mark(b.lower.value, b.lower.proven):>7}"
                     f"{_mark(b.upper.value, b.upper.proven):>7}{exact:>7}  {nxt}")  # fmt: skip
    return "\n".join(lines)


def _notes(results: list[Any]) -> list[str]:
    out = []
    if any(not (b.lower.proven and b.upper.proven) for b in results):
        out.append("? not proven tight within the time limit; the number is still a valid bound")
    for b in results:
        if not b.upper.proven:
            out.append(f"{b.color}: the best layout found scores {b.upper.layout_score}")
        if not b.lower.proven:
            out.append(f"{b.color}: the opponents' best attack found leaves {b.lower.layout_score}")
        if b.exact_note:
            out.append(f"{b.color}: no exact value: {b.exact_note}")
    return out


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
    from polytile.cli.render import read_position

    obj, _ = read_position(position, ("cityblocks", "blokus"), "bounds", move)
    source = "<stdin>" if position == "-" else position
    if obj.game == "blokus":
        _blokus(obj, color, as_json, time_limit, workers, seed, source)
        return
    from polytile.cli.clock import Deadline, budget
    from polytile.cli.progress import progress_bar
    from polytile.puzzles.cityblocks.bounds import bounds  # OR-tools: only for City Blocks
    from polytile.puzzles.cityblocks.picture import score_text
    from polytile.puzzles.cityblocks.scoring import score

    if color == "all":
        colors: tuple[str, ...] = _COLORS
    else:
        colors = (color or obj.to_move or "blue",)
    results = []
    # Building a model does not watch the clock: the deadline stops it, as Ctrl-C would.
    deadline = Deadline.of_limit(time_limit)
    started = time.perf_counter()
    state = SimpleNamespace(done=0, total=2 * len(colors), seconds=0.0, note="", color="")

    def describe(p: Any) -> str:
        return str(p.note)

    with progress_bar("bounds", not as_json, describe) as update:

        def report(stage: str, obj: float | None, bnd: float | None, sec: float) -> None:
            if update is not None:
                state.seconds = time.perf_counter() - started
                found = "" if obj is None else f" {obj:g}, bound {bnd:g}"
                state.note = f"{state.color} {stage}{found}"
                update(state)

        searches = 3 if exact_pieces else 2  # upper, lower, perhaps the exact value
        try:
            with deadline:
                for k, name in enumerate(colors):
                    deadline.check()
                    state.color = name
                    left = budget(time_limit, reserve=0.3) or time_limit
                    each = max(left / ((len(colors) - k) * searches), 0.01)
                    found = bounds(obj, name, time_limit=each, workers=workers, seed=seed,
                                   exact_pieces=exact_pieces, progress=report,
                                   source=source)  # fmt: skip
                    results.append(found)
                    state.done += 2
        except KeyboardInterrupt:
            missing = [name for name in colors if name not in {b.color for b in results}]
        else:
            missing = []
    if as_json:
        doc = {
            "game": "cityblocks",
            "to_move": obj.to_move or "blue",
            "players": obj.extra.get("players", 4),
            "colors": {b.color: bounds_json(b) for b in results},
        }
        if missing:
            doc |= {"complete": False, "stopped_by": "time" if deadline.fired else "interrupt",
                    "not_bounded": missing}  # fmt: skip
        click.echo(json.dumps(doc))
        _interrupted(missing, deadline.fired)
        return
    for b in results:
        rows = b.upper.rows
        click.echo(f"{b.color}: best layout if the others pass (score {b.upper.layout_score})")
        picture = score_text(rows, score(rows))
        click.echo(picture, nl=False, color="\x1b[" in picture)
        click.echo()
    if results:
        click.echo(_table(results))
    for line in _notes(results):
        click.echo(line)
    _interrupted(missing, deadline.fired)


def _interrupted(missing: list[str], by_time: bool = False) -> None:
    """After Ctrl-C (exit 130) or the end of the time limit in work that does not watch it,
    such as building a model (exit 1): say which colours were not bounded."""
    if missing:
        why = "the time limit ran out" if by_time else "interrupted"
        click.echo(f"{why}: the bounds are incomplete; not bounded: {', '.join(missing)}",
                   err=True)  # fmt: skip
        raise SystemExit(1 if by_time else 130)


def _blokus(obj: Position, color: str | None, as_json: bool, time_limit: float, workers: int,
            seed: int, source: str) -> None:  # fmt: skip
    """Bounds of a Blokus position: squares still placeable and final scores."""
    from polytile.puzzles.blokus.rules import Blokus

    game = Blokus.from_position(obj, source)
    if color == "all":
        colors: tuple[str, ...] = game.colors
    else:
        colors = (color or game.to_move,)
    for name in colors:
        if name not in game.colors:
            raise click.BadParameter(f"{name} does not play {game.variant.name} Blokus; "
                                     f"colours: {', '.join(game.colors)}",
                                     param_hint="--color")  # fmt: skip
    from polytile.cli.clock import Deadline, budget

    results: list[Any] = []
    deadline = Deadline.of_limit(time_limit)
    try:
        with deadline:
            for k, name in enumerate(colors):
                deadline.check()
                left = budget(time_limit, reserve=0.3) or time_limit
                each = max(left / ((len(colors) - k) * 2), 0.01)  # two searches a colour
                results += blokus_bounds(game, (name,), each, workers, seed, source)
    except KeyboardInterrupt:
        missing = [name for name in colors if name not in {b.color for b in results}]
    else:
        missing = []
    if as_json:
        doc: dict[str, Any] = {"game": "blokus",
                               "colors": {b.color: bounds_json(b) for b in results}}  # fmt: skip
        if missing:
            doc |= {"complete": False, "stopped_by": "time" if deadline.fired else "interrupt",
                    "not_bounded": missing}  # fmt: skip
        click.echo(json.dumps(doc))
        _interrupted(missing, deadline.fired)
        return
    if results:
        click.echo(blokus_table(results))
    _interrupted(missing, deadline.fired)


def blokus_bounds(game: Any, colors: tuple[str, ...], time_limit: float, workers: int,
                  seed: int, source: str) -> list[Any]:  # fmt: skip
    """:func:`polytile.puzzles.blokus.bounds.bounds` of each of ``colors``."""
    from polytile.puzzles.blokus.bounds import bounds

    return [bounds(game, name, time_limit=time_limit, workers=workers, seed=seed,
                   source=source) for name in colors]  # fmt: skip


def blokus_table(results: list[Any]) -> str:
    """The text table of Blokus bounds (``polytile bounds`` and ``solve-endgame``)."""
    lines = [f"{'':<8}{'score':>7}{'squares it can place':>25}{'final':>12}",
             f"{'colour':<8}{'now':>7}{'at least':>13}{'at most':>12}{'score':>12}"]  # fmt: skip
    for b in results:
        scores = f"{b.score_lower}..{b.score_upper}"
        lines.append(f"{b.color:<8}{b.score_now:>7}{_mark(b.lower.value, b.lower.proven):>13}"
                     f"{_mark(b.upper.value, b.upper.proven):>12}{scores:>12}")  # fmt: skip
    if any(not (b.lower.proven and b.upper.proven) for b in results):
        lines.append("? not proven optimal within the time limit; the number is still a valid "
                     "bound")  # fmt: skip
    return "\n".join(lines)


COMMANDS = [bounds_command]
