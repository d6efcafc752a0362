"""Bit operations for the bitboard kernel: popcount, shifts, and dead-region tests.

Compiled with numba; every function works on little-endian multi-word bitboards (bit
``j % 64`` of word ``j // 64`` is cell ``j`` in the kernel's scan order), with plain-word
versions for boards of at most 64 cells.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from polytile._jit import njit

__all__ = [
    "ONE",
    "ZERO",
    "ctz",
    "dead_region",
    "dead_region1",
    "dilate",
    "dilate1",
    "popcount",
    "remaining_sizes",
    "supplied",
]

ONE = np.uint64(1)
ZERO = np.uint64(0)


@njit(cache=True, inline="always")
def popcount(x: np.uint64) -> np.int64:
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def ctz(x: np.uint64) -> np.int64:
    # Index of the lowest set bit of a non-zero word.
    return popcount((x & (~x + ONE)) - ONE)


@njit(cache=True)
def shift_up(src: npt.NDArray[np.uint64], s: int, dst: npt.NDArray[np.uint64]) -> None:
    # dst = src << s over a little-endian multi-word integer (towards higher cell indices).
    n = src.shape[0]
    q = s // 64
    r = np.uint64(s % 64)
    for w in range(n - 1, -1, -1):
        v = ZERO
        if w - q >= 0:
            v = src[w - q] << r
            if r != ZERO and w - q - 1 >= 0:
                v |= src[w - q - 1] >> (np.uint64(64) - r)
        dst[w] = v


@njit(cache=True)
def shift_down(src: npt.NDArray[np.uint64], s: int, dst: npt.NDArray[np.uint64]) -> None:
    # dst = src >> s (towards lower cell indices).
    n = src.shape[0]
    q = s // 64
    r = np.uint64(s % 64)
    for w in range(n):
        v = ZERO
        if w + q < n:
            v = src[w + q] >> r
            if r != ZERO and w + q + 1 < n:
                v |= src[w + q + 1] << (np.uint64(64) - r)
        dst[w] = v


@njit(cache=True)
def dilate(
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
    shift_up(src, width, tmp)
    for w in range(n):
        dst[w] |= tmp[w]
    shift_down(src, width, tmp)
    for w in range(n):
        dst[w] |= tmp[w]
    for w in range(n):
        tmp[w] = src[w] & not_last_col[w]
    shift_up(tmp, 1, tmp)
    for w in range(n):
        dst[w] |= tmp[w]
    for w in range(n):
        tmp[w] = src[w] & not_first_col[w]
    shift_down(tmp, 1, tmp)
    for w in range(n):
        dst[w] |= tmp[w]


@njit(cache=True)
def remaining_sizes(
    sizes: npt.NDArray[np.int64], type_left: npt.NDArray[np.int64]
) -> tuple[int, int, int]:
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
def dead_region(
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
    smallest, _largest, g = remaining_sizes(sizes, type_left)
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
    dilate(placed, todo, tmp, width, not_first_col, not_last_col)
    for w in range(n):
        todo[w] &= empty[w]
    while True:
        seed_word = -1
        for w in range(n):
            if todo[w] != ZERO:
                seed_word = w
                break
        if seed_word < 0:
            return False
        for w in range(n):
            comp[w] = ZERO
        x = todo[seed_word]
        comp[seed_word] = x & (~x + ONE)
        size: Any = 1
        closed = False
        while size <= limit:
            dilate(comp, grow, tmp, width, not_first_col, not_last_col)
            new_size: Any = 0
            for w in range(n):
                comp[w] = grow[w] & empty[w]
                new_size += popcount(comp[w])
            if new_size == size:
                closed = True
                break
            size = new_size
        if closed and (size < smallest or size % g != 0):
            return True
        for w in range(n):
            todo[w] &= ~comp[w]


@njit(cache=True, inline="always")
def dilate1(x: np.uint64, width: np.uint64, nfc: np.uint64, nlc: np.uint64) -> np.uint64:
    return x | (x << width) | (x >> width) | ((x & nlc) << ONE) | ((x & nfc) >> ONE)


@njit(cache=True)
def dead_region1(
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
    """:func:`dead_region` for boards of at most 64 cells, on plain words.

    First a branch-free test for isolated empty cells (no empty neighbour), the commonest
    dead pocket; then, only for the neighbours of the piece just placed, a flood fill of
    regions of at most ``limit`` cells.
    """
    empty = valid & ~cover
    if smallest > 1:
        neighbours = (
            (empty << width) | (empty >> width) | ((empty & nlc) << ONE) | ((empty & nfc) >> ONE)
        )
        if empty & ~neighbours != ZERO:
            return True
    if limit <= 1:
        return False
    todo = dilate1(placed, width, nfc, nlc) & empty
    while todo != ZERO:
        comp = todo & (~todo + ONE)
        size: Any = 1
        closed = False
        while size <= limit:
            comp = dilate1(comp, width, nfc, nlc) & empty
            new_size = popcount(comp)
            if new_size == size:
                closed = True
                break
            size = new_size
        if closed and (size < smallest or size % g != 0):
            return True
        todo &= ~comp
    return False


@njit(cache=True)
def supplied(
    type_left: npt.NDArray[np.int64],
    spare: npt.NDArray[np.int64],
    cap: npt.NDArray[np.int64],
    group_of: npt.NDArray[np.int64],
    group_low: npt.NDArray[np.int64],
    group_high: npt.NDArray[np.int64],
    group_used: npt.NDArray[np.int64],
) -> bool:
    """Whether a complete cover uses enough copies of every type (at most ``spare[t]`` of
    type ``t`` left over, of its ``cap[t]``) and a number of each group's copies in its
    range (``group_used`` is scratch). Always true of an exact supply, where no copy is
    spare."""
    for t in range(len(spare)):
        if type_left[t] > spare[t]:
            return False
    if len(group_low) == 0:
        return True
    for g in range(len(group_low)):
        group_used[g] = 0
    for t in range(len(spare)):
        g = group_of[t]
        if g >= 0:
            group_used[g] += cap[t] - type_left[t]
    for g in range(len(group_low)):  # noqa: SIM110 - numba: no generator in all()
        if not group_low[g] <= group_used[g] <= group_high[g]:
            return False
    return True
