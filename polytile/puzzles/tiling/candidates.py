"""What the puzzle generators produce: a :class:`Candidate` (a kept puzzle with its solution
and rating, or the reason it was dropped), the canonical :func:`puzzle_key` that tells two
puzzles apart up to turning and flipping, and the seeded random stream of each candidate.

Both generators (:mod:`~polytile.puzzles.tiling.generate` for packing puzzles,
:mod:`~polytile.puzzles.tiling.generate_teasers` for teasers) build on this module, and
neither imports the other's internals.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from polytile.formats import Solution
from polytile.geometry import Cell, apply_transform
from polytile.puzzles.tiling.puzzles import TilingPuzzle

__all__ = ["Candidate", "candidate_rng", "puzzle_key"]


@dataclass
class Candidate:
    """One generated candidate: a kept puzzle with its solution and rating, or a drop reason."""

    kind: str
    seed: int
    index: int
    puzzle: TilingPuzzle | None = None
    solution: Solution | None = None
    key: str | None = None
    difficulty: float | None = None
    stats: dict[str, int] = field(default_factory=dict)
    reason: str | None = None

    @property
    def accepted(self) -> bool:
        """True when the candidate is a unique-solution puzzle."""
        return self.puzzle is not None and self.reason is None


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


def candidate_rng(seed: int, index: int, kind: str) -> np.random.Generator:
    """The random stream of candidate ``index`` of a run of ``kind`` with ``seed``: the same in
    any process, and different for each kind."""
    salt = int.from_bytes(hashlib.sha256(kind.encode()).digest()[:4], "little")
    return np.random.default_rng([seed, index, salt])
