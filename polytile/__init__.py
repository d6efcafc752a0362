"""polytile: exact puzzle solving and tiling constraints for grid board games.

The package is layered in the order data flows: :mod:`polytile.geometry` (shapes),
:mod:`polytile.board` (boards and placements), :mod:`polytile.regions` (connected regions),
:mod:`polytile.puzzles` (games and puzzles), :mod:`polytile.models` (formulations),
:mod:`polytile.solvers` (engines), :mod:`polytile.cli` (the command line).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from polytile.errors import (
    BoardError,
    FormatError,
    IllegalMoveError,
    PolytileError,
    ShapeError,
    SolverError,
    UnknownNameError,
)

if TYPE_CHECKING:
    from polytile.board import Board, Placements, placements
    from polytile.geometry import PIECE_SETS, Polyomino, piece, piece_set

__version__ = "0.1.0"

# Boards and shapes need numpy: they are imported on first use (PEP 562), so that a command
# which never touches them (``polytile --help``) does not pay for numpy at start-up.
_LAZY = {
    "Board": "polytile.board",
    "Placements": "polytile.board",
    "placements": "polytile.board",
    "PIECE_SETS": "polytile.geometry",
    "Polyomino": "polytile.geometry",
    "piece": "polytile.geometry",
    "piece_set": "polytile.geometry",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'polytile' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


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
