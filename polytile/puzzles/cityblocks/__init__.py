"""City Blocks by Jeremy Ritchie: Blokus pieces scored by the largest connected area plus
free edges.

Modules: :mod:`~polytile.puzzles.cityblocks.rules` (the :class:`CityBlocks` position),
``moves``, ``scoring``, ``picture`` (score pictures), ``maximum`` (the best layout of one
colour, the ``cityblocks-max`` puzzle), ``bounds`` (score bounds) and ``endgame`` (exact
values of small endgames), ``game`` (the game protocol of :mod:`polytile.puzzles.game`).

The rules' public names are re-exported here, loaded on first use:

>>> from polytile.puzzles.cityblocks import CityBlocks
>>> CityBlocks().players
4
"""

from __future__ import annotations

from typing import Any

_RULES = ("BOARD_SIZE", "CENTRE_CELLS", "COLOR_NAMES", "MAX_COLOR_CELLS", "PIECE_NAMES",
          "PLAYER_COUNTS", "START_CELLS", "CityBlocks", "ColorScore", "Edge", "Move",
          "ScoreSheet", "check_rows", "player_names", "players_of")  # fmt: skip
__all__ = list(_RULES)


def __getattr__(name: str) -> Any:
    if name in _RULES:
        from polytile.puzzles.cityblocks import rules

        return getattr(rules, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
