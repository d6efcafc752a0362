"""The counters the compiled Blokus endgame search shares with its wrapper (``ctr`` fields),
and its infinity: a module of their own, so the wrapper reads them without loading numba."""

__all__ = ["INF", "LIMIT", "NODES", "REQUEST", "SIZE", "SOLO", "STATUS"]

INF = 1 << 20
#: Positions searched, the node limit, the stop reason (0 none, 1 node limit, 2 stop
#: request), the stop request (set by the wrapper), and solitaire positions searched.
NODES, LIMIT, STATUS, REQUEST, SOLO = 0, 1, 2, 3, 4
#: Counters per thread.
SIZE = 5
