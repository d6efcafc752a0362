"""Gridblock by André Heines: cubes on tile corners, moves by cards.

Modules: :mod:`~polytile.puzzles.gridblock.grid` (tiles, corners, cards, walks), ``rules``
(the full state: set-up, rounds, moves, scoring, options).
"""

from __future__ import annotations
