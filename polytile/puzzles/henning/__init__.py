"""City Blocks by J. Alan Henning: two developers, a 5x6 city, street bonuses, hidden hands.

Modules: :mod:`~polytile.puzzles.henning.tiles` (tiles, blocks, streets and their names),
``moves`` (moves and their text form), ``rules`` (the :class:`Henning` full state: set-up,
legal moves, awards, money), ``game`` (the game protocol, information states and sampling).
"""

from __future__ import annotations
