"""Walkable Cities: how the three boards are laid out as one array of 300 cells.

Cell ``g`` is board ``g // 100``, row ``g % 100 // 10``, column ``g % 10``; each cell holds one
of four states. :mod:`polytile.puzzles.walkable.board` re-exports these; they live here so
that the compiled flood fill (:mod:`polytile.puzzles.walkable._regions`), which the board
module loads only when it pays, can use them without importing the board module back.
"""

from __future__ import annotations

__all__ = ["BLUE", "BOARDS", "CELLS", "DEAD", "RED", "SIDE", "UNCLAIMED"]

BOARDS, SIDE = 3, 10
CELLS = BOARDS * SIDE * SIDE
UNCLAIMED, DEAD, RED, BLUE = 0, 1, 2, 3
