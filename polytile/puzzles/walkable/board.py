"""Walkable Cities: the three boards as one cell array, every drop's cells, largest regions.

The three 10x10 boards are one flat array of 300 cells: cell ``g`` is board ``g // 100``
(0, 1, 2 for the rule text's boards 1, 2, 3), row ``g % 100 // 10``, column ``g % 10``. Each
cell holds :data:`UNCLAIMED`, :data:`DEAD`, :data:`RED` or :data:`BLUE`.

A drop (``seeds/walkable-cities.md`` section 4) places a tetromino in one orientation and
position, splits its four cells into sub-pieces of one or two edge-adjacent cells and sends
each sub-piece to a different board. Written as its four *global* cells it is one row of
four cell indices: the board of each cell says which sub-piece it went to (the cells on one
board form one sub-piece). :func:`drop_table` lists every drop of a piece on three empty
boards, once each; the legal drops of a position are the rows whose four cells are all
unclaimed (:func:`legal_drops`). On empty boards there are 3,360 (I4), 2,916 (O4), 5,184
(T4), 13,824 (L4) and 6,912 (Z4) drops, 32,196 in all and no two with the same cells.

Why a flat array: a drop's legality is then four lookups, a collision between two drops is
a shared index, and the region sizes that decide the game are one compiled flood fill over
300 cells (:func:`largest_regions`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import permutations

import numpy as np
import numpy.typing as npt
from numba import njit

from polytile.geometry import piece

__all__ = [
    "BLUE",
    "BOARDS",
    "CELLS",
    "DEAD",
    "PIECES",
    "RED",
    "SIDE",
    "UNCLAIMED",
    "drop_table",
    "flood_region",
    "largest_regions",
    "legal_drops",
    "resolve_drops",
    "seeded_boards",
]

BOARDS, SIDE = 3, 10
CELLS = BOARDS * SIDE * SIDE
UNCLAIMED, DEAD, RED, BLUE = 0, 1, 2, 3
#: The five free tetrominoes, in the rule text's order (names as in ``seeds/pieces.txt``).
PIECES = ("I4", "O4", "T4", "L4", "Z4")

Cell = tuple[int, int]


def _splits(cells: tuple[Cell, ...]) -> list[list[tuple[Cell, ...]]]:
    """The ways to split four cells into sub-pieces of one or two edge-adjacent cells,
    with at most three sub-pieces (2+2 or 2+1+1; four single cells are never legal)."""
    pairs = [
        (a, b)
        for i, a in enumerate(cells)
        for b in cells[i + 1 :]
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
    ]
    out: list[list[tuple[Cell, ...]]] = []
    for i, p in enumerate(pairs):
        rest = [c for c in cells if c not in p]
        out.append([p, (rest[0],), (rest[1],)])  # 2+1+1
        for q in pairs[i + 1 :]:
            if not set(p) & set(q):
                out.append([p, q])  # 2+2, each unordered pair of pairs once
    return out


@cache
def drop_table(name: str) -> npt.NDArray[np.int16]:
    """Every drop of piece ``name`` on three empty boards: an ``(n, 4)`` array of global
    cells, each row sorted. Read-only; the same array on every call."""
    if name not in PIECES:
        raise ValueError(f"unknown Walkable Cities piece {name!r}; expected one of {PIECES}")
    rows: set[tuple[int, ...]] = set()
    for shape in piece(name).orientations():
        for dr in range(SIDE - shape.height + 1):
            for dc in range(SIDE - shape.width + 1):
                cells = tuple((r + dr, c + dc) for r, c in shape.cells)
                for split in _splits(cells):
                    for boards in permutations(range(BOARDS), len(split)):
                        rows.add(
                            tuple(
                                sorted(
                                    b * 100 + r * SIDE + c
                                    for b, sub in zip(boards, split, strict=True)
                                    for r, c in sub
                                )
                            )
                        )
    table = np.array(sorted(rows), dtype=np.int16)
    table.flags.writeable = False
    return table


def legal_drops(cells: npt.NDArray[np.int8], name: str) -> npt.NDArray[np.int16]:
    """The rows of :func:`drop_table` whose four cells are all unclaimed in ``cells``."""
    table = drop_table(name)
    return table[(cells[table] == UNCLAIMED).all(axis=1)]


@njit(cache=True)
def flood_region(work, color, start, label, n, stack):
    """Give the region of ``color`` around ``start`` the label ``n`` (its cells must be
    unlabelled, -1, so far); its size."""
    label[start] = n
    stack[0] = start
    top, count = 1, 0
    while top:
        top -= 1
        g = stack[top]
        count += 1
        r, c = (g % 100) // SIDE, g % SIDE
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < SIDE and 0 <= cc < SIDE:
                h = g - r * SIDE - c + rr * SIDE + cc
                if label[h] < 0 and work[h] == color:
                    label[h] = n
                    stack[top] = h
                    top += 1
    return count


@njit("int64[:, ::1](int8[::1])", cache=True)
def largest_regions(cells):
    """``out[p, b]``: the size of the largest edge-connected region of player ``p``'s cells
    (0 red, 1 blue) on board ``b``; 0 when it has none there."""
    out = np.zeros((2, BOARDS), dtype=np.int64)
    label = np.full(CELLS, -1, dtype=np.int64)
    stack = np.empty(CELLS, dtype=np.int64)
    for start in range(CELLS):
        own = cells[start]
        if label[start] >= 0 or (own != RED and own != BLUE):
            continue
        size = flood_region(cells, own, start, label, 0, stack)
        p, b = own - RED, start // 100
        if size > out[p, b]:
            out[p, b] = size
    return out


def resolve_drops(cells: npt.NDArray[np.int8], red: Sequence[int], blue: Sequence[int]) -> None:
    """Resolve red's and blue's dropped cells together, in ``cells`` (rules 3.3): a cell
    both drop on the same board becomes dead, every other dropped cell its dropper's. A pass
    drops no cell. Legality is the caller's to check."""
    both = set(map(int, red)) & set(map(int, blue))
    for own, who in ((red, RED), (blue, BLUE)):
        for g in own:
            cells[g] = DEAD if int(g) in both else who


def seeded_boards(seed: int, dead: int = 10) -> npt.NDArray[np.int8]:
    """Three empty boards with ``dead`` dead cells each at seeded random places (the
    default set-up: the rule text never says how many)."""
    if not 0 <= dead <= SIDE * SIDE:
        raise ValueError(f"dead cells per board must be 0..{SIDE * SIDE}, got {dead}")
    rng = np.random.default_rng(seed)
    cells = np.zeros(CELLS, dtype=np.int8)
    for b in range(BOARDS):
        cells[b * 100 + rng.choice(SIDE * SIDE, size=dead, replace=False)] = DEAD
    return cells
