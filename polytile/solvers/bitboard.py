"""The compiled tiling kernel: depth-first search over bitboards, filling the first empty cell.

This is the engine behind counting and listing polyomino tilings. It is an exact-cover
search (Algorithm X) specialised to tilings, where the cell items are bits of a bitboard:

* The item chosen at each node is the first empty cell in a scan order that runs along the
  board's short side, so the frontier stays short and most cells have few candidates.
* Candidates for a cell are the options whose lowest cell (in scan order) is that cell;
  an option fits when its mask misses the cover (one AND per 64-bit word).
* Piece items are counters: option ``p`` uses ``use[p]`` copies of piece type ``ptype[p]``
  (``use`` > 1 lets one option stand for a symmetric orbit of placements).
* Dead-region pruning: after each placement the empty cells are split into edge-connected
  regions by a bit-parallel flood fill; a region whose size no remaining piece combination can
  fill (smaller than the smallest piece, or not a multiple of the gcd of the remaining sizes)
  cuts the branch. This is sound: every region must be tiled on its own.

The kernel sees only flat arrays and keeps its whole search state in arrays owned by the
caller, so a search can stop after a node budget or a buffer of solutions and be resumed:
Python checks time limits, progress and Ctrl-C between calls, and counting uses constant
memory however many solutions there are.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

__all__ = ["DONE", "PAUSED", "SearchState", "run"]

#: :func:`run` finished the whole subtree below the state's base level.
DONE = 0
#: :func:`run` stopped after its node budget, or when its output buffer filled; call again.
PAUSED = 1

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True, inline="always")
def _popcount(x: np.uint64) -> np.int64:
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def _ctz(x: np.uint64) -> np.int64:
    # Index of the lowest set bit of a non-zero word.
    return _popcount((x & (~x + _ONE)) - _ONE)


@njit(cache=True)
def _shift_up(src: npt.NDArray[np.uint64], s: int, dst: npt.NDArray[np.uint64]) -> None:
    # dst = src << s over a little-endian multi-word integer (towards higher cell indices).
    n = src.shape[0]
    q = s // 64
    r = np.uint64(s % 64)
    for w in range(n - 1, -1, -1):
        v = _ZERO
        if w - q >= 0:
            v = src[w - q] << r
            if r != _ZERO and w - q - 1 >= 0:
                v |= src[w - q - 1] >> (np.uint64(64) - r)
        dst[w] = v


@njit(cache=True)
def _shift_down(src: npt.NDArray[np.uint64], s: int, dst: npt.NDArray[np.uint64]) -> None:
    # dst = src >> s (towards lower cell indices).
    n = src.shape[0]
    q = s // 64
    r = np.uint64(s % 64)
    for w in range(n):
        v = _ZERO
        if w + q < n:
            v = src[w + q] >> r
            if r != _ZERO and w + q + 1 < n:
                v |= src[w + q + 1] << (np.uint64(64) - r)
        dst[w] = v


@njit(cache=True)
def _dilate(
    src: npt.NDArray[np.uint64],
    dst: npt.NDArray[np.uint64],
    tmp: npt.NDArray[np.uint64],
    width: int,
    not_first_col: npt.NDArray[np.uint64],
    not_last_col: npt.NDArray[np.uint64],
) -> None:
    # dst = src plus its four edge neighbours (cells outside the board may be set).
    n = src.shape[0]
    for w in range(n):
        dst[w] = src[w]
    _shift_up(src, width, tmp)
    for w in range(n):
        dst[w] |= tmp[w]
    _shift_down(src, width, tmp)
    for w in range(n):
        dst[w] |= tmp[w]
    for w in range(n):
        tmp[w] = src[w] & not_last_col[w]
    _shift_up(tmp, 1, tmp)
    for w in range(n):
        dst[w] |= tmp[w]
    for w in range(n):
        tmp[w] = src[w] & not_first_col[w]
    _shift_down(tmp, 1, tmp)
    for w in range(n):
        dst[w] |= tmp[w]


@njit(cache=True)
def _dead_region(
    cover: npt.NDArray[np.uint64],
    placed: npt.NDArray[np.uint64],
    valid: npt.NDArray[np.uint64],
    not_first_col: npt.NDArray[np.uint64],
    not_last_col: npt.NDArray[np.uint64],
    width: int,
    sizes: npt.NDArray[np.int64],
    type_left: npt.NDArray[np.int64],
    scratch: npt.NDArray[np.uint64],
) -> bool:
    """True when an empty region next to the piece just placed cannot be filled.

    Only regions of at most ``limit`` cells are examined (a bounded flood fill from each
    empty neighbour of ``placed``): the dead pockets a scan-order search creates are small,
    and bounding the fill keeps the test cheap. Skipping a region never prunes wrongly.
    """
    n = cover.shape[0]
    smallest = 1 << 30
    largest = 0
    g = 0
    for t in range(sizes.shape[0]):
        if type_left[t] > 0:
            s = sizes[t]
            smallest = min(smallest, s)
            largest = max(largest, s)
            a, b = g, s
            while b != 0:
                a, b = b, a % b
            g = a
    if g == 0:
        return False
    limit = 1 << 30
    empty = scratch[0:n]
    comp = scratch[n : 2 * n]
    grow = scratch[2 * n : 3 * n]
    tmp = scratch[3 * n : 4 * n]
    todo = scratch[4 * n : 5 * n]
    for w in range(n):
        empty[w] = valid[w] & ~cover[w]
    _dilate(placed, todo, tmp, width, not_first_col, not_last_col)
    for w in range(n):
        todo[w] &= empty[w]
    while True:
        seed_word = -1
        for w in range(n):
            if todo[w] != _ZERO:
                seed_word = w
                break
        if seed_word < 0:
            return False
        for w in range(n):
            comp[w] = _ZERO
        x = todo[seed_word]
        comp[seed_word] = x & (~x + _ONE)
        size: Any = 1
        closed = False
        while size <= limit:
            _dilate(comp, grow, tmp, width, not_first_col, not_last_col)
            new_size: Any = 0
            for w in range(n):
                comp[w] = grow[w] & empty[w]
                new_size += _popcount(comp[w])
            if new_size == size:
                closed = True
                break
            size = new_size
        if closed and (size < smallest or size % g != 0):
            return True
        for w in range(n):
            todo[w] &= ~comp[w]


@njit(cache=True, inline="always")
def _dilate1(x: np.uint64, width: np.uint64, nfc: np.uint64, nlc: np.uint64) -> np.uint64:
    return x | (x << width) | (x >> width) | ((x & nlc) << _ONE) | ((x & nfc) >> _ONE)


@njit(cache=True)
def _dead_region1(
    cover: np.uint64,
    placed: np.uint64,
    valid: np.uint64,
    nfc: np.uint64,
    nlc: np.uint64,
    width: np.uint64,
    smallest: int,
    g: int,
    limit: int,
) -> bool:
    """:func:`_dead_region` for boards of at most 64 cells, on plain words.

    First a branch-free test for isolated empty cells (no empty neighbour), the commonest
    dead pocket; then, only for the neighbours of the piece just placed, a flood fill of
    regions of at most ``limit`` cells.
    """
    empty = valid & ~cover
    if smallest > 1:
        neighbours = (
            (empty << width) | (empty >> width) | ((empty & nlc) << _ONE) | ((empty & nfc) >> _ONE)
        )
        if empty & ~neighbours != _ZERO:
            return True
    if limit <= 1:
        return False
    todo = _dilate1(placed, width, nfc, nlc) & empty
    while todo != _ZERO:
        comp = todo & (~todo + _ONE)
        size: Any = 1
        closed = False
        while size <= limit:
            comp = _dilate1(comp, width, nfc, nlc) & empty
            new_size = _popcount(comp)
            if new_size == size:
                closed = True
                break
            size = new_size
        if closed and (size < smallest or size % g != 0):
            return True
        todo &= ~comp
    return False


@njit(cache=True)
def _remaining_sizes(sizes: npt.NDArray[np.int64], type_left: npt.NDArray[np.int64]):
    # (smallest, largest, gcd) of the sizes of the piece types still in hand.
    smallest = 1 << 30
    largest = 0
    g = 0
    for t in range(sizes.shape[0]):
        if type_left[t] > 0:
            s = sizes[t]
            smallest = min(smallest, s)
            largest = max(largest, s)
            a, b = g, s
            while b != 0:
                a, b = b, a % b
            g = a
    return smallest, largest, g


@njit(cache=True)
def _run(
    masks: npt.NDArray[np.uint64],
    ptype: npt.NDArray[np.int64],
    use: npt.NDArray[np.int64],
    anchor_ptr: npt.NDArray[np.int64],
    anchor_idx: npt.NDArray[np.int64],
    sizes: npt.NDArray[np.int64],
    valid: npt.NDArray[np.uint64],
    not_first_col: npt.NDArray[np.uint64],
    not_last_col: npt.NDArray[np.uint64],
    width: int,
    prune: bool,
    type_left: npt.NDArray[np.int64],
    cover: npt.NDArray[np.uint64],
    choice: npt.NDArray[np.int64],
    pos: npt.NDArray[np.int64],
    cell: npt.NDArray[np.int64],
    ints: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
    out_len: npt.NDArray[np.int64],
    node_budget: int,
    split_depth: int,
    prune_limit: int,
) -> int:
    # ints: [0] level, [1] base level, [2] solutions, [3] nodes, [4] outputs recorded,
    #       [5] record solutions (0/1), [6] leaves reported at split_depth
    n = masks.shape[1]
    scratch = np.empty(5 * n, dtype=np.uint64)
    level = ints[0]
    base = ints[1]
    max_out = out.shape[0]
    record = ints[5] != 0
    nodes_end = ints[3] + node_budget
    # Sizes of all piece types: their gcd divides the gcd of any remaining subset and their
    # minimum is no larger, so pruning with these fixed values is sound (and costs nothing
    # per node).
    smallest, _largest, g = _remaining_sizes(sizes, type_left + 1)
    limit = prune_limit
    while True:
        if pos[level] < 0:
            # Entering a node (Knuth's X2/C2: is the cover complete?  X3: choose an item).
            if ints[3] >= nodes_end:
                ints[0] = level
                return PAUSED
            ints[3] += 1
            first: Any = -1
            for w in range(n):
                free = ~cover[level, w]
                if free != _ZERO:
                    first = w * 64 + _ctz(free)
                    break
            leaf = False
            if first < 0:
                ints[2] += 1
                leaf = record
            elif level == split_depth:
                ints[6] += 1
                leaf = True
            if leaf:
                k = ints[4]
                for i in range(level):
                    out[k, i] = choice[i]
                out_len[k] = level
                ints[4] = k + 1
            if first < 0 or level == split_depth:
                # X8: leave this node.
                level -= 1
                if level < base:
                    ints[0] = level
                    return DONE
                p = choice[level]
                type_left[ptype[p]] += use[p]
                if leaf and ints[4] >= max_out:
                    ints[0] = level
                    return PAUSED
                continue
            cell[level] = first
            pos[level] = anchor_ptr[first]
        # X5/X6: try the next option for this node's cell.
        c = cell[level]
        end = anchor_ptr[c + 1]
        found = False
        while pos[level] < end:
            p = anchor_idx[pos[level]]
            pos[level] += 1
            t = ptype[p]
            if type_left[t] < use[p]:
                continue
            fits = True
            for w in range(n):
                if masks[p, w] & cover[level, w] != _ZERO:
                    fits = False
                    break
            if not fits:
                continue
            for w in range(n):
                cover[level + 1, w] = cover[level, w] | masks[p, w]
            type_left[t] -= use[p]
            if prune:
                if n == 1:
                    dead = _dead_region1(
                        cover[level + 1, 0],
                        masks[p, 0],
                        valid[0],
                        not_first_col[0],
                        not_last_col[0],
                        np.uint64(width),
                        smallest,
                        g,
                        limit,
                    )
                else:
                    dead = _dead_region(
                        cover[level + 1],
                        masks[p],
                        valid,
                        not_first_col,
                        not_last_col,
                        width,
                        sizes,
                        type_left,
                        scratch,
                    )
            else:
                dead = False
            if dead:
                type_left[t] += use[p]
                continue
            choice[level] = p
            found = True
            break
        if found:
            level += 1
            pos[level] = -1
            continue
        # X7: all options for this cell tried; back up one level.
        level -= 1
        if level < base:
            ints[0] = level
            return DONE
        p = choice[level]
        type_left[ptype[p]] += use[p]


class SearchState:
    """Arrays of one resumable search, positioned below a forced prefix of options.

    Parameters
    ----------
    kernel
        The compiled problem (:class:`polytile.solvers.tiling.Kernel`), giving the arrays.
    forced
        Options already placed; the search explores only the subtree below them.
    record
        Whether solutions are written to the output buffer (counting leaves it off).
    buffer
        How many solutions or split leaves one call may record before pausing.
    """

    def __init__(
        self,
        masks: npt.NDArray[np.uint64],
        ptype: npt.NDArray[np.int64],
        use: npt.NDArray[np.int64],
        start_cover: npt.NDArray[np.uint64],
        type_count: npt.NDArray[np.int64],
        max_depth: int,
        forced: tuple[int, ...] = (),
        record: bool = False,
        buffer: int = 1024,
    ) -> None:
        depth = max_depth + 1
        words = masks.shape[1]
        self.type_left = type_count.copy()
        self.cover = np.zeros((depth + 1, words), dtype=np.uint64)
        self.choice = np.full(depth, -1, dtype=np.int64)
        self.pos = np.full(depth + 1, -1, dtype=np.int64)
        self.cell = np.zeros(depth + 1, dtype=np.int64)
        self.ints = np.zeros(8, dtype=np.int64)
        self.out = np.zeros((buffer, depth), dtype=np.int64)
        self.out_len = np.zeros(buffer, dtype=np.int64)
        cover = start_cover.copy()
        for i, p in enumerate(forced):
            if np.any(cover & masks[p]):
                raise ValueError(f"forced option {p} overlaps an earlier one")
            cover |= masks[p]
            self.type_left[ptype[p]] -= use[p]
            self.choice[i] = p
        if np.any(self.type_left < 0):
            raise ValueError("forced options use more copies of a piece than there are")
        level = len(forced)
        self.cover[level] = cover
        self.ints[0] = level
        self.ints[1] = level
        self.ints[5] = 1 if record else 0

    @property
    def done(self) -> bool:
        """The subtree is exhausted."""
        return bool(self.ints[0] < self.ints[1])

    @property
    def solutions(self) -> int:
        """Complete tilings found so far."""
        return int(self.ints[2])

    @property
    def nodes(self) -> int:
        """Search nodes entered so far."""
        return int(self.ints[3])

    def take(self) -> list[tuple[int, ...]]:
        """The recorded paths (option indices from the root), emptying the buffer."""
        k = int(self.ints[4])
        paths = [tuple(int(x) for x in self.out[i, : self.out_len[i]]) for i in range(k)]
        self.ints[4] = 0
        return paths


def run(
    state: SearchState,
    arrays: tuple[Any, ...],
    width: int,
    prune: bool,
    node_budget: int,
    split_depth: int = -1,
    prune_limit: int = 1,
) -> int:
    """Advance ``state`` by at most ``node_budget`` nodes; returns :data:`DONE` or :data:`PAUSED`.

    ``arrays`` are the problem's ``(masks, ptype, use, anchor_ptr, anchor_idx, sizes, valid,
    not_first_col, not_last_col)``. With ``split_depth`` >= 0, nodes at that depth are
    recorded as leaves instead of being searched (the top of the tree, for splitting work).
    """
    if state.done:
        return DONE
    masks, ptype, use, anchor_ptr, anchor_idx, sizes, valid, nfc, nlc = arrays
    return int(
        _run(
            masks,
            ptype,
            use,
            anchor_ptr,
            anchor_idx,
            sizes,
            valid,
            nfc,
            nlc,
            width,
            prune,
            state.type_left,
            state.cover,
            state.choice,
            state.pos,
            state.cell,
            state.ints,
            state.out,
            state.out_len,
            node_budget,
            split_depth,
            prune_limit,
        )
    )
