"""Tiling puzzles: the catalogue, fitting pieces and the tiling kinds of generated puzzle.

Modules: :mod:`~polytile.puzzles.tiling.puzzles` (:class:`TilingPuzzle`, the catalogue of
known puzzles and their checker), ``catalogue`` (every named puzzle, teasers included),
``fit`` (the most squares a set of pieces covers), ``generate`` (packing puzzles with one
solution), ``generate_teasers`` (four-square-style teasers), ``keys`` (a puzzle's canonical
key) and ``kinds`` (both kinds as the puzzle store, :mod:`polytile.store`, sees them).

The puzzles' public names are re-exported here, loaded on first use:

>>> from polytile.puzzles.tiling import get_puzzle
>>> get_puzzle("pentomino-6x10").known_count
9356
"""

from __future__ import annotations

from typing import Any

_PUZZLES = ("CATALOGUE", "TilingPuzzle", "check_solution", "get_puzzle", "to_solution")
_FILES = ("parse_puzzle", "puzzle_doc")
__all__ = [*_PUZZLES, *_FILES, "load_puzzle"]


def __getattr__(name: str) -> Any:
    if name in _PUZZLES:
        from polytile.puzzles.tiling import puzzles

        return getattr(puzzles, name)
    if name in _FILES:
        from polytile.puzzles.tiling import puzzle_file

        return getattr(puzzle_file, name)
    if name == "load_puzzle":
        from polytile.puzzles.tiling import catalogue

        return catalogue.load_puzzle
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
