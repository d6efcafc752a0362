"""``polytile unique``: make a tiling puzzle with several solutions unique by giving the
fewest pieces, through the catalogue's face."""

from __future__ import annotations

import click

from polytile.cli.clock import CLOCK
from polytile.cli.options import SECONDS, check_output

__all__ = ["COMMANDS", "unique"]


@click.command()
@click.argument("puzzle")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="The puzzle file to write (.json): PUZZLE with the pieces given.")  # fmt: skip
@click.option("--limit", type=click.IntRange(1, 10**7), default=20_000, show_default=True,
              help="Read at most this many solutions; a puzzle with more is refused.")  # fmt: skip
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS",
              help="Stop after this long (the whole command).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead of text.")
def unique(puzzle: str, output: str, limit: int, time_limit: float | None,
           as_json: bool) -> None:  # fmt: skip
    """Make PUZZLE unique: the fewest pieces to give so that one solution is left.

    PUZZLE is a tiling puzzle (a catalogue name or a puzzle file) with several solutions.
    Every solution is read; for each, every set of its pieces is tried, smallest first, and
    the first set that no other solution holds all of is the fewest for it. The fewest over
    all solutions is written as a new puzzle file with those pieces given, and counted
    first: exactly one solution, proven. 'count --differ' shows where the solutions differ.

    \\b
    Exit codes:
      0    written (the puzzle is unique with the pieces given)
      1    no solution, or more than --limit solutions (or stopped before all were read)
      2    bad input: an unknown puzzle, a teaser, an -o that cannot be written
      130  interrupted (Ctrl-C)

    \\b
    Examples:
      polytile unique my-puzzle.json -o my-puzzle-unique.json
      polytile count my-puzzle.json --differ
    """
    from polytile.cli.console import CONSOLE, facing
    from polytile.faces.registry import catalogue

    check_output(output, (".json",), " (a polytile puzzle file)")
    with facing():
        catalogue().make_unique(CONSOLE, puzzle, output, limit, time_limit, CLOCK,  # type: ignore[attr-defined]
                                as_json)


COMMANDS = [unique]
