"""``polytile pieces``: list a named piece set, or every polyform of a size on a grid, with
pictures."""

from __future__ import annotations

import json
import shutil
import textwrap

import click

from polytile.errors import ShapeError, UnknownNameError
from polytile.geometry import PIECE_SETS, Polyomino, piece_set
from polytile.grids import GRIDS, Grid, grid

__all__ = ["COMMANDS", "pieces_command"]

_GAP = 3  # spaces between pictures side by side

#: What the pieces of each grid are called, for the count line.
_FAMILY = {"square": "polyominoes", "triangle": "polyiamonds", "hex": "polyhexes",
           "cube": "polycubes"}  # fmt: skip


def _out_of(g: Grid, one_sided: bool) -> str:
    """What an orientation count is out of: the grid's rotations for one-sided pieces (and
    solid ones, which turn but are not mirrored), else all its symmetries."""
    return f"{g.rotations} rotations" if one_sided else f"{g.order} symmetries"


def _block(p: Polyomino, one_sided: bool, caption: str = "") -> list[str]:
    """A piece's caption lines, then its picture."""
    n = len(p.orientations(one_sided))
    title = f"{p.name} {caption}".rstrip()
    return [title, _count(p.size, "cell"), _count(n, "orientation"), *p.to_text().splitlines()]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _side_by_side(blocks: list[list[str]], width: int) -> str:
    """Blocks in rows, as many per row as fit in ``width`` characters, top-aligned."""
    col = max(len(line) for block in blocks for line in block) + _GAP
    per_row = max(1, (width + _GAP) // col)
    out: list[str] = []
    for start in range(0, len(blocks), per_row):
        row = blocks[start : start + per_row]
        height = max(len(b) for b in row)
        for i in range(height):
            line = "".join((b[i] if i < len(b) else "").ljust(col) for b in row)
            out.append(line.rstrip())
        out.append("")
    return "\n".join(out)


def _entry(p: Polyomino, one_sided: bool) -> dict[str, object]:
    return {
        "name": p.name,
        "grid": p.grid,
        "size": p.size,
        "orientations": len(p.orientations(one_sided)),
        "cells": [list(c) for c in p.cells],
    }


def _listing(entries: dict[str, str]) -> str:
    """``name  description`` lines for the help, descriptions wrapped under each other."""
    indent = 3 + max(len(name) for name in entries)
    return "\n".join(textwrap.fill(desc, 78, initial_indent=f"  {name:<{indent - 3}} ",
                                    subsequent_indent=" " * indent)
                      for name, desc in entries.items())  # fmt: skip


_SETS_HELP = _listing(PIECE_SETS)
_GRIDS_HELP = _listing(GRIDS)


@click.command(
    "pieces",
    help=f"""List the pieces of a named set, or every polyform of a size on a grid: names,
sizes, orientations and pictures.

With SET (blokus by default), the pieces of that set. With --size N, every free piece
of N cells on the --grid (square by default), each once in its canonical orientation
(the least of its images), sorted by its cells and numbered; a piece the named sets
name shows that name beside its number. --one-sided lists a piece and its mirror image
as two pieces unless a rotation turns one into the other (a name with a prime, J4',
is the mirror image of the named piece).

A piece's orientations are its distinct images under the symmetries of its grid: of
the 8 rotations and reflections of the square, the 12 of the triangle and hex grids,
or, for a one-sided listing, only the rotations (4, 6 or 24). Solid pieces (the cube
grid's named sets) count the 24 rotations of the cube, the ways a solid piece really
turns; --grid cube --size N counts all 48 symmetries, mirror images too, unless
--one-sided.

Pictures are the grid's text form: squares and cubes as # with '.' for gaps, a cube
piece's layers side by side (layer 0 first); triangles one character each, pointing
up where line + column is even; hexagons two columns apart, each line shifted by one.

\b
Sets:
{_SETS_HELP}

\b
Grids:
{_GRIDS_HELP}

\b
Exit codes:
  0  listed
  2  an unknown set or grid, a size out of range, --size with a SET, or bad usage

\b
Examples:
  polytile pieces                           the 21 Blokus pieces
  polytile pieces pentominoes --json        the pentominoes as JSON
  polytile pieces soma                      the Soma cube's 7 pieces, layer by layer
  polytile pieces --grid hex --size 5       the 22 free pentahexes
  polytile pieces --grid hex --size 5 --one-sided
                                            the 33 one-sided pentahexes
  polytile pieces --grid cube --size 5 --one-sided --json
                                            the 29 pentacubes as solids, as JSON
""",
)
@click.argument("set_name", metavar="[SET]", required=False)
@click.option("--size", type=click.IntRange(min=1), default=None, metavar="N",
              help="List every polyform of N cells instead of a named set.")  # fmt: skip
@click.option("--grid", "grid_name", default=None, metavar="GRID",
              help="The grid of --size: square (default), triangle, hex or cube.")  # fmt: skip
@click.option("--one-sided", is_flag=True,
              help="With --size: mirror images count as different pieces.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead of pictures.")
@click.option(
    "--width",
    type=click.IntRange(min=10),
    default=None,
    help="Line width for the pictures [default: the terminal's].",
)
def pieces_command(set_name: str | None, size: int | None, grid_name: str | None,
                   one_sided: bool, as_json: bool, width: int | None) -> None:  # fmt: skip
    """Print the pieces of ``set_name`` (see :data:`polytile.geometry.PIECE_SETS`), or
    every polyform of ``size`` cells on ``grid_name``."""
    width = width or shutil.get_terminal_size((80, 24)).columns
    if size is not None:
        if set_name is not None:
            raise click.UsageError(
                f"give a SET ({set_name}) or --size, not both: --size lists "
                "every polyform of that size on --grid instead of a set"
            )
        _list_polyforms(grid_name or "square", size, one_sided, as_json, width)
        return
    if grid_name is not None:
        raise click.UsageError("--grid goes with --size N (every polyform of N cells on that "
                               "grid); a named set knows its own grid")  # fmt: skip
    if one_sided:
        raise click.UsageError("--one-sided goes with --size N (every polyform of N cells)")
    set_name = set_name or "blokus"
    pieces = piece_set(set_name)  # UnknownNameError -> exit 2 in the root group
    g = grid(pieces[0].grid)
    solid = g.name == "cube"  # a solid piece turns; it is not mirrored
    if as_json:
        click.echo(json.dumps([_entry(p, solid) for p in pieces]))
        return
    key = set_name.strip().lower()
    cells = sum(p.size for p in pieces)
    where = "" if g.name == "square" else f" on the {g.name} grid"
    turns = "" if g.name == "square" else f"; orientations of {_out_of(g, solid)}"
    click.echo(f"{key}: {len(pieces)} pieces, {cells} {g.cell_word[1]}{where}{turns}")
    click.echo("")
    click.echo(_side_by_side([_block(p, solid) for p in pieces], width), nl=False)


def _list_polyforms(grid_name: str, size: int, one_sided: bool, as_json: bool,
                    width: int) -> None:  # fmt: skip
    from polytile.polyforms import enumerate_polyforms, known_names

    try:
        g = grid(grid_name)
    except UnknownNameError as exc:
        raise click.BadParameter(str(exc), param_hint="--grid") from None
    try:
        pieces = enumerate_polyforms(g, size, one_sided)
    except ShapeError as exc:
        raise click.BadParameter(str(exc), param_hint="--size") from None
    names = [known_names(p, one_sided) for p in pieces]
    if as_json:
        doc = [{**_entry(p, one_sided), "known_as": list(known)}
               for p, known in zip(pieces, names, strict=True)]  # fmt: skip
        click.echo(json.dumps(doc))
        return
    kind = "one-sided" if one_sided else "free"
    click.echo(f"{len(pieces)} {kind} {_FAMILY[g.name]} of {_count(size, g.cell_word[0])} "
               f"({g.name} grid; orientations of {_out_of(g, one_sided)})")  # fmt: skip
    click.echo("")
    blocks = [_block(p, one_sided, "/".join(known)) for p, known in zip(pieces, names, strict=True)]
    click.echo(_side_by_side(blocks, width), nl=False)


COMMANDS = [pieces_command]
