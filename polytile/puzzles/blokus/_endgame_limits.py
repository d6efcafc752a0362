"""The default size limit of Blokus's exact endgames, shared by ``solve-endgame`` and
``render --best``; a module of its own so that the command line reads it without loading
the search."""

__all__ = ["DEFAULT_MAX_PIECES"]

#: Refuse an exact endgame when a player can still place more pieces than this
#: (:func:`polytile.puzzles.blokus.endgame.endgame_size`): the Duo positions 10 plies before
#: the end of self-play games (``benchmarks/bench_blokus_deep.py``) with up to 10 pieces per
#: player solve in 0.4-26 s on a busy machine; some with 11 or more do not in 30 s.
DEFAULT_MAX_PIECES = 10
