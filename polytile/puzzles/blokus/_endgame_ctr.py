"""The counters the compiled Blokus endgame search shares with its wrapper (``ctr`` fields),
and its infinity: a module of their own, so the wrapper reads them without loading numba."""

__all__ = ["INF", "LIMIT", "NODES", "REQUEST", "SIZE", "SOLO", "SOLO_GAP", "STATUS"]

INF = 1 << 20
#: Positions searched, the node limit, the stop reason (0 none, 1 node limit, 2 stop
#: request), the stop request (set by the wrapper), solitaire positions searched, and how
#: far above a node's settling score a colour's reach bound may be for its solitaire bound
#: to be tried (a setting of the wrapper's; 0 or below, never).
NODES, LIMIT, STATUS, REQUEST, SOLO, SOLO_GAP = 0, 1, 2, 3, 4, 5
#: Counters per thread.
SIZE = 6
