"""polytile: exact puzzle solving and tiling constraints for grid board games.

The package is layered in the order data flows: :mod:`polytile.geometry` (shapes),
:mod:`polytile.board` (boards and placements), :mod:`polytile.regions` (connected regions),
:mod:`polytile.puzzles` (games and puzzles), :mod:`polytile.models` (formulations),
:mod:`polytile.solvers` (engines), :mod:`polytile.cli` (the command line).
"""

from __future__ import annotations

from polytile.board import Board, Placements, placements
from polytile.errors import (
    BoardError,
    FormatError,
    IllegalMoveError,
    PolytileError,
    ShapeError,
    SolverError,
    UnknownNameError,
)
from polytile.geometry import PIECE_SETS, Polyomino, piece, piece_set

__version__ = "0.1.0"

__all__ = [
    "PIECE_SETS",
    "Board",
    "BoardError",
    "FormatError",
    "IllegalMoveError",
    "Placements",
    "Polyomino",
    "PolytileError",
    "ShapeError",
    "SolverError",
    "UnknownNameError",
    "__version__",
    "piece",
    "piece_set",
    "placements",
]
