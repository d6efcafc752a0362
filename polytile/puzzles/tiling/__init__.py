"""Tiling puzzles: the catalogue, fitting pieces, puzzle generation, the puzzle store and
puzzle sets.

Modules: :mod:`~polytile.puzzles.tiling.puzzles` (:class:`TilingPuzzle`, the catalogue of
known puzzles and their checker), ``catalogue`` (every named puzzle, teasers included),
``fit`` (the most squares a set of pieces covers), ``generate`` (packing puzzles with one
solution), ``generate_teasers`` (four-square-style teasers), ``store`` (the SQLite puzzle
store) and ``sets`` (generating into a store).

The puzzles' public names are re-exported here, loaded on first use:

>>> from polytile.puzzles.tiling import get_puzzle
>>> get_puzzle("pentomino-6x10").known_count
9356
"""

from __future__ import annotations

from typing import Any

_PUZZLES = ("CATALOGUE", "TilingPuzzle", "check_solution", "get_puzzle", "parse_puzzle",
            "puzzle_doc", "to_solution")  # fmt: skip
__all__ = [*_PUZZLES, "load_puzzle"]


def __getattr__(name: str) -> Any:
    if name in _PUZZLES:
        from polytile.puzzles.tiling import puzzles

        return getattr(puzzles, name)
    if name == "load_puzzle":
        from polytile.puzzles.tiling import catalogue

        return catalogue.load_puzzle
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
