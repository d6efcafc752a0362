"""Blokus: the rules engine, its files, bounds and exact endgames, and the one-player teasers.

Modules: :mod:`~polytile.puzzles.blokus.rules` (the :class:`Blokus` position), ``moves``
(placement tables and the compiled move generator), ``scoring``, ``sgf`` (Pentobi's
``.blksgf`` records), ``reach`` (what a colour may still place), ``bounds`` (score bounds),
``endgame`` (exact endgames), ``game`` (the game protocol of :mod:`polytile.puzzles.game`),
and the teasers ``four_square``, ``eighty_four`` and ``teasers`` (one-color and friends).

The rules' public names are re-exported here, loaded on first use so that importing one
submodule costs no more than that submodule:

>>> from polytile.puzzles.blokus import Blokus
>>> Blokus("duo").to_move
'blue'
"""

from __future__ import annotations

from typing import Any

_RULES = ("COLOR_NAMES", "PIECE_NAMES", "PIECE_SIZES", "PLAYER_OPTIONS", "VARIANTS", "Blokus",
          "ColorScore", "Move", "ScoreSheet", "Variant", "player_names", "score_hands")  # fmt: skip
__all__ = list(_RULES)


def __getattr__(name: str) -> Any:
    if name in _RULES:
        from polytile.puzzles.blokus import rules

        return getattr(rules, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
