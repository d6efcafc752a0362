"""What a puzzle kind's generator produces: a :class:`Candidate` (a kept puzzle with its
answer, key and rating, or the reason it was dropped), and the seeded random stream of each
candidate.

Every kind's generator (packing puzzles, teasers, City Blocks, Gridblock solitaires, Walkable
Cities paths) builds on this module, which knows none of them: a candidate's puzzle and answer
are whatever its kind makes, and only its kind (:mod:`polytile.store.kinds`) reads or writes
them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Candidate", "candidate_rng"]


@dataclass
class Candidate:
    """One generated candidate: a kept puzzle with its answer, key and rating, or a drop
    reason. ``puzzle`` and ``solution`` are the kind's own objects (a tiling puzzle and its
    :class:`~polytile.formats.Solution`, a City Blocks position and its best move, ...)."""

    kind: str
    seed: int
    index: int
    puzzle: Any = None
    solution: Any = None
    key: str | None = None
    difficulty: float | None = None
    stats: dict[str, int] = field(default_factory=dict)
    reason: str | None = None

    @property
    def accepted(self) -> bool:
        """True when the candidate is a unique-solution puzzle."""
        return self.puzzle is not None and self.reason is None


def candidate_rng(seed: int, index: int, kind: str) -> np.random.Generator:
    """The random stream of candidate ``index`` of a run of ``kind`` with ``seed``: the same in
    any process, and different for each kind."""
    salt = int.from_bytes(hashlib.sha256(kind.encode()).digest()[:4], "little")
    return np.random.default_rng([seed, index, salt])
