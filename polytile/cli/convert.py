"""``polytile convert``: a tiling puzzle in another format (Knuth's exact-cover text, a
polytile puzzle file), through the catalogue's face."""

from __future__ import annotations

from typing import Any

import click

from polytile.cli.options import check_output

__all__ = ["COMMANDS", "convert"]


@click.command()
@click.argument("puzzle")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="The file to write; its suffix picks the format: .dlx for Knuth's "
              "exact-cover text, .json for a polytile puzzle file ('-' for standard output, "
              "as .dlx).")  # fmt: skip
def convert(puzzle: str, output: str, **variants: Any) -> None:
    """Write PUZZLE in another format: Knuth's exact-cover text or a puzzle file.

    PUZZLE is a catalogue name (see 'polytile puzzles') or a puzzle file. Knuth's format
    (.dlx) is the input of his DLX and XCC programs: the first line names the items (here a
    cell r3c7, a piece type, a choice; a type or choice with more than one copy as
    'u:v|name'), then one option a line (here a placement). 'polytile count FILE.dlx' and
    'polytile solve FILE.dlx' read such files back, and any other exact cover problem in
    that format. A .json file is a puzzle of your own to edit, starting from a named one.

    \\b
    Exit codes:
      0    written
      2    bad input: an unknown puzzle, a teaser (its colour rules are no exact cover),
           a suffix other than .dlx or .json, a folder that cannot be written

    \\b
    Examples:
      polytile convert pentomino-6x10 -o pentomino-6x10.dlx
      polytile convert tetromino-8x10 -o my-puzzle.json
      polytile count pentomino-6x10.dlx
    """
    from polytile.cli.console import CONSOLE, facing
    from polytile.faces.registry import catalogue

    check_output(output, (".dlx", ".json"), " (.dlx: Knuth's exact-cover text, .json: a "
                 "polytile puzzle file)")  # fmt: skip
    with facing():
        catalogue().convert(CONSOLE, puzzle, output, {})  # type: ignore[attr-defined]


COMMANDS = [convert]
