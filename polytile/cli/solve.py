"""``polytile count`` and ``polytile solve``: the one-player puzzles, as their games declare
them (:mod:`polytile.faces.puzzle`), found through the registry.

``solve NAME`` takes a declared puzzle (``gridblock-solo``, ``eighty-four``, ...) or the
tiling catalogue's (a catalogue name, a teaser, a puzzle file); each puzzle's options, help
lines and examples come from its declaration, and an option of another puzzle is refused
naming the puzzles that take it. ``count`` counts the catalogue's puzzles.
"""

from __future__ import annotations

import textwrap
from typing import Any

import click

from polytile.cli.clock import CLOCK
from polytile.cli.options import (
    BYTES,
    SECONDS,
    Declared,
    Workers,
    check_output,
    game_options,
    given_options,
)
from polytile.errors import UnknownNameError

__all__ = ["COMMANDS", "variant_options"]


def _solvers() -> dict[str, Any]:
    """The catalogue, then every declared puzzle, by name."""
    from polytile.faces.registry import catalogue, puzzles

    found = catalogue()
    return {found.name: found, **puzzles()}


def _declared(color: bool = False) -> Declared:
    """Each puzzle's options but ``--color`` (a value of the command's own ``--color``), or
    with ``color`` those only."""
    return {name: (s.label, tuple(o for o in s.options if (o.spelling == "--color") == color))
            for name, s in _solvers().items()}  # fmt: skip


def variant_options(f: Any) -> Any:
    """The catalogue's variant options (a teaser's), shared by count and validate."""
    from polytile.faces.registry import catalogue

    found = catalogue()
    return game_options("", {found.name: (found.label, found.variant_options)},
                        same_help=True)(f)  # fmt: skip


def _noted(option: str, text: str) -> str:
    """``text``, then what the puzzles say of the shared ``option`` (:attr:`notes`)."""
    said: dict[str, list[str]] = {}
    for s in _solvers().values():
        if option in s.notes:
            said.setdefault(s.notes[option], []).append(s.label)
    return " ".join([text, *(note.format(name=", ".join(labels))
                             for note, labels in said.items())])  # fmt: skip


def _solve_help() -> str:
    catalogue, *named = _solvers().values()
    width = max(len(s.name) for s in named) + 2
    rows = []
    for s in named:
        wrapped = textwrap.wrap(s.help, 76 - width)
        rows += [f"  {s.name:<{width}}{wrapped[0]}", *(f"  {'':<{width}}{w}" for w in wrapped[1:])]
    examples = "\n".join(f"  {e}" for s in (catalogue, *named) for e in s.examples)
    return f"""Find one solution of PUZZLE and show it.

PUZZLE is {catalogue.help}, or one of:

\b
{chr(10).join(rows)}

The solution is checked against the puzzle's rules by an independent validator before it
is printed.

\b
Exit codes:
  0    solved (proven optimal, for the puzzles that optimise)
  1    no solution exists, none was found in --time-limit ('--json': status
       "unknown"), or the best found is not proven
  2    bad input: an unknown puzzle name or piece, an unreadable puzzle file, an
       option the puzzle does not take
  130  interrupted (Ctrl-C), after printing the best found so far where there is one

\b
Examples:
{examples}
"""


def _color_help() -> str:
    helps = [f"{label}: {o.help[:1].lower()}{o.help[1:]}"
             for label, options in _declared(color=True).values() for o in options]  # fmt: skip
    return " ".join(["Alone: force terminal colour on.", *helps])


@click.command()
@click.argument("puzzle")
@click.option(
    "--workers",
    "-w",
    type=Workers(min=1),
    default=None,
    help="Local worker processes [default: every core].",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="Run on a Dask cluster instead, e.g. tcp://10.0.0.5:8786.",
)
@click.option(
    "--time-limit",
    type=SECONDS,
    default=None,
    metavar="SECONDS",
    help="Stop after this long and report the count so far. The limit covers the whole "
    "command, counted from when the process started (start-up and printing included).",
)
@click.option(
    "--no-symmetry",
    is_flag=True,
    help="Plain search: no symmetry breaking, no count up to symmetry.",
)
@click.option(
    "--symmetry",
    "group",
    type=click.Choice(["board", "rotations", "none", "mirror-pieces"]),
    default="board",
    show_default=True,
    help="What the count up to symmetry identifies solutions by. board: every rotation and "
    "reflection of the board that maps it onto itself (only its rotations for one-sided "
    "pieces, which a reflection would turn over); rotations: its rotations alone; none: "
    "nothing (the count up to symmetry is the raw count); mirror-pieces: every rotation and "
    "reflection, a reflection also turning each piece into its mirror twin (S4 for Z4), "
    "as the literature counts one-sided sets that hold both mirror images of each piece "
    "(the 18 one-sided pentominoes); refused for a set without every twin. The text and "
    "--json say which.",
)
@click.option(
    "--engine",
    type=click.Choice(["auto", "search", "frontier"]),
    default="auto",
    show_default=True,
    help="search: visit every solution (fastest where the pieces differ; splits over "
    "--workers and --scheduler). frontier: merge partial solutions that leave the rest of "
    "the board alike (fastest where shapes repeat; up to 2 threads on this machine, no "
    "colour rules). auto: choose by the two engines' estimates, and say which ran.",
)
@click.option(
    "--memory",
    type=BYTES,
    default=None,
    metavar="SIZE",
    help="Memory the frontier engine may hold (500M, 4G) [default: half the memory "
    "available]; past it the count goes on with the search, saying so.",
)
@click.option(
    "--estimate",
    is_flag=True,
    help="Do not count: estimate the number of solutions (random paths down the search "
    "tree, with their spread) and each engine's time and memory.",
)
@click.option(
    "--probes",
    type=click.IntRange(10, 10_000_000),
    default=20_000,
    show_default=True,
    help="Random paths of --estimate: more for a tighter estimate.",
)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**63 - 1),
    default=0,
    show_default=True,
    help="Seed of the random paths of --estimate (the same seed, the same estimate).",
)
@click.option(
    "--differ",
    is_flag=True,
    help="Do not count: read every solution and show the cells where they do not all have "
    "the same piece (where a given piece would tell them apart; see 'polytile unique').",
)
@click.option(
    "--limit",
    type=click.IntRange(1, 10**9),
    default=100_000,
    show_default=True,
    help="With --differ: read at most this many solutions.",
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead of text.")
@click.option(
    "--progress/--no-progress",
    default=True,
    show_default=True,
    help="Progress on stderr: a bar on a terminal, a line every few seconds in a log.",
)
@variant_options
def count(
    puzzle: str,
    workers: int | None,
    scheduler: str | None,
    time_limit: float | None,
    no_symmetry: bool,
    group: str,
    engine: str,
    memory: int | None,
    estimate: bool,
    probes: int,
    seed: int,
    differ: bool,
    limit: int,
    as_json: bool,
    progress: bool,
    **variants: Any,
) -> None:
    """Count every solution of PUZZLE, raw and up to symmetry.

    PUZZLE is a catalogue name (see 'polytile puzzles'), a teaser (four-square) or a
    puzzle file. Raw counts distinguish placements (mirror images and rotations of a
    solution count separately; identical copies of a piece do not). The count up to
    symmetry identifies solutions that a symmetry of the board maps onto each other
    (Burnside's lemma, exact on any board); for teasers, renaming the colours too;
    --symmetry chooses the group.

    Two engines count. The search visits every solution; it is split into independent
    subtrees run on worker processes (or a Dask cluster with --scheduler), and the total
    does not depend on how it was split. The frontier engine fills the board cell by cell
    and counts alike partial solutions once (those that cover the same cells ahead and use
    the same copies), so where a few shapes repeat it counts billions of solutions in
    seconds. --engine auto picks one from their estimates and says which ran and why.

    Ctrl-C or --time-limit stops early: the search reports the solutions found so far,
    marked incomplete; the frontier engine counts only at its end, so it reports how far
    it got and no count.

    \b
    Exit codes:
      0    counted or estimated; also a count stopped by --time-limit, marked incomplete
           ('--json': "complete": false)
      2    bad input: an unknown puzzle name or piece, an unreadable puzzle file, an
           engine that cannot take the puzzle, --symmetry mirror-pieces for a set
           without every mirror twin
      130  interrupted (Ctrl-C), after printing what was counted so far

    \b
    Examples:
      polytile count pentomino-6x10
      polytile count pentomino-8x8-hole --workers 2 --json
      polytile count tetromino-8x10 --estimate
      polytile count my-puzzle.json --time-limit 60 --engine frontier --memory 8G
      polytile count four-square --touch connected
      polytile count one-sided.json --symmetry mirror-pieces
    """
    from polytile.cli.console import CONSOLE, facing
    from polytile.faces.puzzle import CountRequest
    from polytile.faces.registry import catalogue

    ctx = click.get_current_context()
    if not estimate:
        for name in ("probes", "seed"):
            if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE:
                raise click.UsageError(f"--{name} goes with --estimate (the random paths)")
    if not differ and ctx.get_parameter_source("limit") is click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError("--limit goes with --differ (the solutions read)")
    given = {name: value for name, value in variants.items() if value is not None}
    request = CountRequest(puzzle, CLOCK, given, workers, scheduler, time_limit,
                           not no_symmetry, as_json, progress, engine, memory,
                           probes if estimate else None, seed, group, differ, limit)  # fmt: skip
    with facing():
        catalogue().count(CONSOLE, request)


@click.command(help=_solve_help())
@click.argument("puzzle")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the solution JSON instead of a picture."
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    default=None,
    help=_noted("output", "Also save the solution: .json (read back by validate, which "
                "checks it by the rules, and render), or a picture (.svg, .png, .txt) for "
                "people only: no command reads a picture back."),
)  # fmt: skip
@click.option(
    "--color",
    "color_opt",
    is_flag=False,
    flag_value="always",
    default=None,
    metavar="[COLOUR]",
    help=_color_help(),
)
@click.option("--no-color", is_flag=True, help="Force terminal colour off.")
@click.option(
    "--seed",
    type=click.IntRange(0, 2**63 - 1),
    default=None,
    help=_noted("seed", "Try options in a seeded random order: another solution, "
                "reproducibly. Searches that use CP-SAT run it on several threads against the "
                "clock, so there the seed varies the answer but the same seed may not give "
                "the same one."),
)  # fmt: skip
@click.option(
    "--time-limit",
    type=SECONDS,
    default=None,
    metavar="SECONDS",
    help=_noted("time_limit", "Give up after this long (exit 1; --json: status 'unknown'). "
                "The limit covers "
                "the whole command, counted from when the process started (start-up and "
                "printing included). Default: none."),
)  # fmt: skip
@game_options("", _declared(), same_help=True)
def solve(
    puzzle: str,
    as_json: bool,
    output: str | None,
    color_opt: str | None,
    no_color: bool,
    seed: int | None,
    time_limit: float | None,
    **options: Any,
) -> None:
    """Solve ``puzzle`` through its declaration (the help is :func:`_solve_help`'s)."""
    from polytile.cli.console import CONSOLE, facing
    from polytile.faces.puzzle import SolveRequest
    from polytile.faces.registry import PUZZLES
    from polytile.faces.registry import puzzle as find

    found, document = _puzzle_file(puzzle)
    solver = find(puzzle if found is None else found.kind.solver)
    color = False if no_color else (True if color_opt == "always" else None)
    if solver.outputs:
        check_output(output, solver.outputs, solver.output_note)
    elif output is not None:
        raise click.BadParameter(solver.no_output, param_hint="-o")
    shown = puzzle if solver.name != puzzle else ""
    given = given_options(solver.name, options, "", _declared(), shown)
    if color_opt not in (None, "always"):
        given.update(_color_value(solver.name, color_opt.lower()))
    if document is not None:
        _refuse_making(solver, given, seed)
    request = SolveRequest(puzzle, CLOCK, given, as_json, output, color, seed, time_limit,
                           document)  # fmt: skip
    try:
        with facing():
            solver.solve(CONSOLE, request)
    except UnknownNameError as exc:  # name the declared puzzles too, not only the catalogue's
        if exc.kind != "puzzle":
            raise
        raise UnknownNameError("puzzle", exc.name, [*exc.known, *PUZZLES]) from None


def _puzzle_file(puzzle: str) -> tuple[Any, Any]:
    """For a puzzle exported from a store (``puzzles show N --file``), its file's kind and
    the puzzle read from it; (None, None) for any other name or file."""
    from polytile.cli.console import facing
    from polytile.store.files import puzzle_file, read_puzzle

    found = puzzle_file(puzzle)
    if found is None:
        return None, None
    with facing():
        return found, read_puzzle(puzzle, found)[1]


def _refuse_making(solver: Any, given: dict[str, Any], seed: int | None) -> None:
    """A puzzle read from a file is that puzzle: refuse the options that make one."""
    making = [f"--{n.replace('_', '-')}" for n in given if n in solver.making_options]
    if seed is not None:
        making.insert(0, "--seed")
    if making:
        raise click.BadParameter(f"a {solver.name} puzzle file is the puzzle it holds; "
                                 f"{', '.join(making)} make(s) one from the options instead",
                                 param_hint=making[0])  # fmt: skip


def _color_value(name: str, value: str) -> dict[str, str]:
    """``--color VALUE`` as the option of puzzle ``name`` spelt ``--color`` (a colour to lay
    out); refused for the others, which take ``--color`` alone."""
    declared = _declared(color=True)
    owners = [label for label, options in declared.values() if options]
    for option in declared[name][1]:
        return {option.name: value}
    raise click.BadParameter(f"--color {value}: a colour to lay out is for "
                             f"{', '.join(owners)}; use --color alone to force terminal "
                             "colour", param_hint="--color")  # fmt: skip


COMMANDS = [count, solve]
