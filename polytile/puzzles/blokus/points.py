"""Blokus cells as Pentobi names them, ``e10`` (a column letter and a row number counted
from the bottom), and the rules engine's messages rewritten in them, so that a message
about a move names its cells as the move and the record write them.

Examples
--------
>>> cell_name((4, 4), 14)
'e10'
"""

from __future__ import annotations

import re

from polytile.geometry import Cell
from polytile.puzzles.blokus.rules import Move

__all__ = ["cell_name", "in_points"]

_PAIR = re.compile(r"\((\d+), (\d+)\)")
_LISTED = re.compile(r"\[(\(\d+, \d+\)(?:, )?)+\]")  # [(0, 1), (0, 2)]


def cell_name(cell: Cell, size: int) -> str:
    """Pentobi's name of ``cell`` on a board of side ``size``.

    >>> cell_name((0, 0), 20), cell_name((19, 0), 20), cell_name((4, 4), 14)
    ('a20', 'a1', 'e10')
    """
    r, c = cell
    return f"{chr(ord('a') + c)}{size - r}"


def in_points(message: str, move: Move | None, size: int) -> str:
    """The rules engine's ``message`` with its cells written as points (``(4, 4)``: e10 on
    a board of side ``size``) and ``move`` as the colour, the piece and its points.

    >>> in_points("illegal move B I1 0,0: blue's first piece must cover its start cell "
    ...           "(4, 4)", Move("blue", "I1", [(0, 0)]), 14)
    "illegal move blue I1 a14: blue's first piece must cover its start cell e10"
    """
    if move is not None and not move.is_pass:
        points = " ".join(cell_name(c, size) for c in move.cells)
        message = message.replace(str(move), f"{move.color} {move.piece} {points}")
    message = _LISTED.sub(lambda m: " ".join(cell_name((int(r), int(c)), size)
                                             for r, c in _PAIR.findall(m[0])), message)  # fmt: skip
    return _PAIR.sub(lambda m: cell_name((int(m[1]), int(m[2])), size), message)
