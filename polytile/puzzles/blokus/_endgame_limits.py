"""The default size limit of Blokus's exact endgames, shared by ``solve-endgame`` and
``render --best``; a module of its own so that the command line reads it without loading
the search."""

__all__ = ["DEFAULT_MAX_PIECES"]

#: Refuse an exact endgame when a player can still place more pieces than this
#: (:func:`polytile.puzzles.blokus.endgame.endgame_size`). On the Duo positions 10 and 14
#: plies before the end of self-play games (``benchmarks/bench_blokus_deep.py``) the
#: compiled search solved every one with up to 12 pieces per player (14 positions), in at
#: most 31 s on two cores; with 13, two of four did not finish in 60 s.
DEFAULT_MAX_PIECES = 12
