"""The transposition table of the compiled Blokus endgame search (private; numba): its
entries, and the marks of positions a thread is searching (:mod:`._endgame_search`).

A table is ``(entries, marks)``: ``entries`` has two words per slot (the key XOR the
data, and the data: one cache line to read), and the slot of a key is its low bits;
``marks`` holds per slot the key of a position some thread is searching now. The search
threads share both without locks: an entry torn by two threads writing at once reads back
as a miss.
"""

from __future__ import annotations

import numpy as np

from polytile._jit import njit
from polytile.puzzles.blokus._endgame_ctr import INF

__all__ = ["_busy", "_mark", "_probe", "_store"]


@njit(cache=True, _nrt=False)
def _check(lo, hi, mv):  # pragma: no cover - compiled
    """An entry's data packed into one word (22 + 22 + 20 bits), XORed into its key."""
    return (np.uint64(lo + INF) | (np.uint64(hi + INF) << np.uint64(22))
            | (np.uint64(mv + 1) << np.uint64(44)))  # fmt: skip


@njit(cache=True, _nrt=False)
def _store(tt, h, lo, hi, mv):  # pragma: no cover - compiled
    """Keep the bounds ``lo``, ``hi`` and the best move ``mv`` of the position of key ``h``
    (the slot's previous entry goes)."""
    slot = h & np.uint64(tt[0].shape[0] - 1)
    data = _check(lo, hi, mv)
    tt[0][slot, 1] = data
    tt[0][slot, 0] = h ^ data


@njit(cache=True, _nrt=False)
def _probe(tt, h):  # pragma: no cover - compiled
    """The entry for key ``h``: (found, lo, hi, move)."""
    slot = h & np.uint64(tt[0].shape[0] - 1)
    data = tt[0][slot, 1]
    if tt[0][slot, 0] ^ data != h:
        return False, -INF, INF, -1
    field = np.uint64((1 << 22) - 1)
    lo = np.int64(data & field) - INF
    hi = np.int64((data >> np.uint64(22)) & field) - INF
    return True, lo, hi, np.int64(data >> np.uint64(44)) - 1


@njit(cache=True, _nrt=False)
def _busy(tt, h):  # pragma: no cover - compiled
    """Whether a thread is searching the position of key ``h`` (the last to mark its slot)."""
    return tt[1][h & np.uint64(tt[1].shape[0] - 1)] == h


@njit(cache=True, _nrt=False)
def _mark(tt, h, on):  # pragma: no cover - compiled
    """Mark the position of key ``h`` as being searched (``on``), or no longer."""
    slot = h & np.uint64(tt[1].shape[0] - 1)
    if on:
        tt[1][slot] = h
    elif tt[1][slot] == h:
        tt[1][slot] = 0
