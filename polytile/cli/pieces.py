"""``polytile pieces``: list a named piece set with pictures."""

from __future__ import annotations

import json
import shutil

import click

from polytile.geometry import PIECE_SETS, Polyomino, piece_set

__all__ = ["COMMANDS", "pieces_command"]

_GAP = 3  # spaces between pictures side by side


def _block(p: Polyomino) -> list[str]:
    """A piece's caption lines, then its picture."""
    n = len(p.orientations())
    return [p.name, _count(p.size, "cell"), _count(n, "orientation"), *p.to_text().splitlines()]


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


_SETS_HELP = "\n".join(f"  {name:<12} {desc}" for name, desc in PIECE_SETS.items())


@click.command(
    "pieces",
    help=f"""List the pieces of a named set: name, size, free orientations and a picture.

A piece's free orientations are its distinct images under the 8 rotations and reflections
of the square (1, 2, 4 or 8). Pictures show cells as # and gaps as '.'.

\b
Sets:
{_SETS_HELP}

\b
Exit codes:
  0  listed
  2  an unknown set, or bad usage

\b
Examples:
  polytile pieces                  the 21 Blokus pieces
  polytile pieces pentominoes --json
""",
)
@click.argument("set_name", metavar="[SET]", default="blokus")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead of pictures.")
@click.option(
    "--width",
    type=click.IntRange(min=10),
    default=None,
    help="Line width for the pictures [default: the terminal's].",
)
def pieces_command(set_name: str, as_json: bool, width: int | None) -> None:
    """Print the pieces of ``set_name`` (see :data:`polytile.geometry.PIECE_SETS`)."""
    pieces = piece_set(set_name)  # UnknownNameError -> exit 2 in the root group
    if as_json:
        doc = [
            {
                "name": p.name,
                "size": p.size,
                "orientations": len(p.orientations()),
                "cells": [list(c) for c in p.cells],
            }
            for p in pieces
        ]
        click.echo(json.dumps(doc))
        return
    key = set_name.strip().lower()
    squares = sum(p.size for p in pieces)
    click.echo(f"{key}: {len(pieces)} pieces, {squares} squares")
    click.echo("")
    width = width or shutil.get_terminal_size((80, 24)).columns
    click.echo(_side_by_side([_block(p) for p in pieces], width), nl=False)


COMMANDS = [pieces_command]
