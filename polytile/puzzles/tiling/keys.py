"""The canonical key of a tiling puzzle or teaser: equal for two puzzles exactly when one is
the other turned or flipped, so a puzzle store's unique index keeps such copies out."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from polytile.geometry import Cell, apply_transform
from polytile.puzzles.tiling.puzzles import TilingPuzzle

__all__ = ["puzzle_key"]


def puzzle_key(kind: str, puzzle: TilingPuzzle) -> str:
    """A key equal for two puzzles exactly when one is the other turned or flipped.

    Built from the open cells, the given pieces and the piece multiset, under all eight
    symmetries of the square grid (translated to the origin), so the board's orientation
    and position do not matter.
    """
    layout = puzzle.layout
    opens = [(r, c) for r in range(layout.rows) for c in range(layout.cols) if layout.is_open(r, c)]
    best: tuple[Any, ...] | None = None
    for k in range(8):
        moved = [apply_transform(k, r, c) for r, c in opens]
        r0 = min(r for r, _ in moved)
        c0 = min(c for _, c in moved)

        def norm(cells: Sequence[Cell], k: int = k, r0: int = r0, c0: int = c0) -> tuple[Cell, ...]:
            return tuple(
                sorted((r - r0, c - c0) for r, c in (apply_transform(k, *x) for x in cells))
            )

        form = (
            norm(opens),
            tuple(sorted((g.piece, norm(g.cells)) for g in puzzle.given)),
        )
        if best is None or form < best:
            best = form
    rules = (getattr(puzzle, "touch", None), getattr(puzzle, "n_colors", None))
    text = repr((kind, sorted(puzzle.all_piece_names()), puzzle.problem.one_sided, rules, best))
    return hashlib.sha256(text.encode()).hexdigest()[:32]
