"""The counters the compiled Blokus endgame search shares with its wrapper (``ctr`` fields),
its infinity and the shape of its bitboard scratch: a module of their own, so the wrapper
reads them without loading numba."""

__all__ = [
    "CELLS",
    "INF",
    "LIMIT",
    "NODES",
    "PAD",
    "REQUEST",
    "ROOT_HI",
    "ROOT_LO",
    "ROOT_MOVE",
    "ROOT_PLY",
    "SALT",
    "SIZE",
    "SOLO",
    "SOLO_GAP",
    "STATUS",
    "TOUCH",
]

INF = 1 << 20
#: Positions searched, the node limit, the stop reason (0 none, 1 node limit, 2 stop
#: request), the stop request (set by the wrapper), solitaire positions searched, and how
#: far above a node's settling score a colour's reach bound may be for its solitaire bound
#: to be tried (a setting of the wrapper's; 0 or below, never).
NODES, LIMIT, STATUS, REQUEST, SOLO, SOLO_GAP = 0, 1, 2, 3, 4, 5
#: What the search has proven of the root so far, for a search that stops before its
#: answer: the root's value lies in [``ROOT_LO``, ``ROOT_HI``], and ``ROOT_MOVE`` (-1 for
#: none yet) is a root move that makes sure of the bound on the mover's side (at least
#: ``ROOT_LO`` when the mover raises the objective, at most ``ROOT_HI`` when it lowers it).
#: ``ROOT_PLY`` is the root's ply: 0, or 1 after a forced pass.
ROOT_LO, ROOT_HI, ROOT_MOVE, ROOT_PLY = 6, 7, 8, 9
#: A search's salt: XORed into its keys of positions (above their slot bits), so that a
#: table kept from other searches reads their entries as empty slots.
SALT = 10
#: Where the search keeps a bit of the memory it reads ahead (so that the reads stay).
TOUCH = 11
#: Counters per thread.
SIZE = 12

#: Zero words before and after the words of a bitboard in the search's scratch
#: (:mod:`._bitboard`), and cell offsets per orientation (the most cells of a piece).
PAD, CELLS = 2, 5
