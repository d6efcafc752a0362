"""The Blokus engine's compiled parts: a placement's features and whole playouts.

The engine (:mod:`polytile.puzzles.blokus.engine`) ranks a colour's placements by a few
features of what each does to the board, and plays its playouts to the end of the game
here, in compiled code, a few hundred times faster than through the game protocol. Import
this module only once the compiled kernels are in use (:func:`kernels.use_compiled`): it
loads numba.

The features of a placement ``p`` of colour ``c``, each a count of cells; "the others"
are the colours of the other players:

0. ``block``: the others' attach points it covers (where they could have grown);
1. ``near``: empty cells it covers beside those attach points, still open to the others;
2. ``contact``: its cells beside the others' pieces (room they cannot use anyway);
3. ``spent``: the attach points of ``c`` it covers beyond the one it needs;
4. ``grow``: the attach points it gives ``c``: cells at its corners, empty, not beside
   ``c`` and not attach points of ``c`` already;
5. ``wall``: attach points of ``c`` beside it (which it closes);
6. ``waste``: other open cells of ``c`` beside it (which it closes to ``c``);
7. ``lean``: cells beside it that are the others' pieces or closed to them (a placement
   against the others' wall takes nothing from ``c``).

A placement's score is the weighted sum (:data:`polytile.puzzles.blokus.engine.WEIGHTS`).
Bitboards and tables are as in :mod:`polytile.puzzles.blokus._compiled`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from polytile._jit import njit
from polytile.puzzles.blokus._compiled import generate, place
from polytile.solvers._bits import ONE, ZERO, popcount

__all__ = ["FEATURES", "playout", "score_placements"]

#: How many features :func:`score_placements` weighs.
FEATURES = 8


@njit(cache=True)
def score_placements(
    bits: npt.NDArray[np.uint64],
    color: int,
    friend: npt.NDArray[np.bool_],
    idx: npt.NDArray[np.int64],
    count: int,
    masks: npt.NDArray[np.uint64],
    edge_masks: npt.NDArray[np.uint64],
    corner_masks: npt.NDArray[np.uint64],
    size: int,
    weights: npt.NDArray[np.float64],
    out: npt.NDArray[np.float64],
) -> None:  # pragma: no cover - compiled
    """Write into ``out[i]`` the score of placement ``idx[i]`` of colour ``color``, for the
    first ``count`` of ``idx``, on a ``size`` x ``size`` board. ``friend[i, j]``: colours
    ``i`` and ``j`` play for the same player (their attach points are not blocked)."""
    k = friend.shape[0]
    words = bits.shape[1]
    own_forbidden = np.empty(words, dtype=np.uint64)
    own_attach = np.empty(words, dtype=np.uint64)
    their_attach = np.zeros(words, dtype=np.uint64)
    their_edge = np.zeros(words, dtype=np.uint64)
    near = np.zeros(words, dtype=np.uint64)
    for w in range(words):
        occupied = bits[0, w]
        own_forbidden[w] = occupied | bits[1 + color, w]
        own_attach[w] = bits[1 + k + color, w] & ~own_forbidden[w]
        for j in range(k):
            if friend[color, j]:
                continue
            their_attach[w] |= bits[1 + k + j, w] & ~occupied & ~bits[1 + j, w]
            their_edge[w] |= bits[1 + j, w] & ~occupied
    # near: empty cells beside the other players' attach points, open to them.
    for w in range(words):
        a = their_attach[w]
        b = 0
        while a != ZERO:
            if a & ONE:
                f = w * 64 + b
                r = f // size
                c = f - r * size
                for g in (f - size if r > 0 else -1, f + size if r < size - 1 else -1,
                          f - 1 if c > 0 else -1, f + 1 if c < size - 1 else -1):  # fmt: skip
                    if g >= 0:
                        near[g >> 6] |= ONE << np.uint64(g & 63)
            a >>= ONE
            b += 1
    for w in range(words):
        near[w] &= ~bits[0, w] & ~their_edge[w] & ~their_attach[w]
    for i in range(count):
        p = idx[i]
        f0 = f1 = f2 = f4 = f5 = f6 = f7 = 0
        f3 = -1
        for w in range(words):
            m = masks[p, w]
            e = edge_masks[p, w]
            f0 += popcount(m & their_attach[w])
            f1 += popcount(m & near[w])
            f2 += popcount(m & their_edge[w])
            f3 += popcount(m & own_attach[w])
            f4 += popcount(corner_masks[p, w] & ~own_forbidden[w] & ~own_attach[w])
            f5 += popcount(e & own_attach[w])
            f6 += popcount(e & ~own_forbidden[w] & ~own_attach[w])
            f7 += popcount(e & (bits[0, w] | their_edge[w]))
        out[i] = (weights[0] * f0 + weights[1] * f1 + weights[2] * f2 + weights[3] * f3
                  + weights[4] * f4 + weights[5] * f5 + weights[6] * f6
                  + weights[7] * f7)  # fmt: skip


@njit(cache=True)
def playout(
    bits: npt.NDArray[np.uint64],
    hands: npt.NDArray[np.uint8],
    last: npt.NDArray[np.int64],
    turn: int,
    friend: npt.NDArray[np.bool_],
    weights: npt.NDArray[np.float64],
    noise: float,
    masks: npt.NDArray[np.uint64],
    edge_masks: npt.NDArray[np.uint64],
    corner_masks: npt.NDArray[np.uint64],
    piece: npt.NDArray[np.int32],
    sizes: npt.NDArray[np.int64],
    cell_ptr: npt.NDArray[np.int64],
    cell_placements: npt.NDArray[np.int64],
    size: int,
    seed: int,
) -> int:  # pragma: no cover - compiled
    """Play the game on from ``bits``, ``hands`` and ``last`` (changed in place) with colour
    ``turn`` to move, to its end; return how many placements were made.

    Each colour in turn places one of its biggest pieces that fit: the placement scoring
    highest (:func:`score_placements`) once ``noise`` times a uniform draw is added to each
    score. A colour with no placement passes, for good (the board only fills). ``seed``
    seeds numba's own generator, so a playout is repeatable.
    """
    np.random.seed(seed)
    k = friend.shape[0]
    out = np.empty(piece.shape[0], dtype=np.int64)
    scores = np.empty(piece.shape[0], dtype=np.float64)
    stuck = np.zeros(k, dtype=np.bool_)
    left = k
    placed = 0
    while left > 0:
        c = turn
        turn = (turn + 1) % k
        if stuck[c]:
            continue
        n = generate(masks, piece, cell_ptr, cell_placements, bits[0], bits[1 + c],
                     bits[1 + k + c], hands[c], out)  # fmt: skip
        if n == 0:
            stuck[c] = True
            left -= 1
            continue
        biggest = 0
        for i in range(n):
            s = sizes[piece[out[i]]]
            if s > biggest:
                biggest = s
        m = 0
        for i in range(n):
            if sizes[piece[out[i]]] == biggest:
                out[m] = out[i]
                m += 1
        score_placements(bits, c, friend, out, m, masks, edge_masks, corner_masks, size,
                         weights, scores)  # fmt: skip
        best = 0
        best_score = -1e300
        for i in range(m):
            s = scores[i] + noise * np.random.random()
            if s > best_score:
                best, best_score = i, s
        p = out[best]
        place(bits, c, k, p, masks, edge_masks, corner_masks)
        hands[c, piece[p]] = 0
        last[c] = piece[p]
        placed += 1
    return placed
