"""The counters the compiled Blokus endgame search shares with its wrapper (``ctr`` fields),
and its infinity: a module of their own, so the wrapper reads them without loading numba."""

__all__ = ["INF", "LIMIT", "NODES", "REQUEST", "SIZE", "SOLO", "STATUS", "VARIANT"]

INF = 1 << 20
#: Positions searched, the node limit, the stop reason (0 none, 1 node limit, 2 stop
#: request), the stop request (set by the wrapper), solitaire positions searched, and the
#: thread's number (0 the main one; a helper starts its root moves further on).
NODES, LIMIT, STATUS, REQUEST, SOLO, VARIANT = 0, 1, 2, 3, 4, 5
#: Counters per thread.
SIZE = 6
