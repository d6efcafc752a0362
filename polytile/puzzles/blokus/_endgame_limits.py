"""The limits of Blokus's exact endgames: the default size limit, shared by
``solve-endgame`` and ``render --best``, and how long the Python search runs before the
compiled one takes over; a module of its own so that the command line reads them without
loading the search."""

__all__ = ["COMPILED_MODULE", "DEFAULT_MAX_PIECES", "PYTHON_FIRST", "PYTHON_FIRST_LOADED"]

#: Refuse an exact endgame when a player can still place more pieces than this
#: (:func:`polytile.puzzles.blokus.endgame.endgame_size`). On the Duo positions 10 and 14
#: plies before the end of self-play games (``benchmarks/bench_blokus_deep.py``) the
#: compiled search solves every one with up to 12 pieces per player (14 positions) in at
#: most 2.4 s on two cores, and those with 13 in 0.1 s to about a minute (4 positions):
#: 12 keeps every search the command starts within seconds (``analyse`` runs one a move);
#: ``--max-pieces 13`` asks for more.
DEFAULT_MAX_PIECES = 12

#: Seconds the Python search gets before the compiled one takes over: loading the compiled
#: search costs about a second, so small endgames never pay it, and a big one pays at most
#: this much extra (rent or buy, as :mod:`polytile.puzzles.blokus.kernels` does).
PYTHON_FIRST = 0.5
#: The same once this process has loaded the compiled search (or started to: an earlier
#: search that needed it, as in ``analyse``): then the switch costs only the compiled
#: search's own setup, a few hundredths of a second.
PYTHON_FIRST_LOADED = 0.05
#: The compiled search's module: loaded once it is in ``sys.modules``.
COMPILED_MODULE = "polytile.puzzles.blokus._endgame_search"
