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

import time
from collections.abc import Sequence
from functools import cache
from itertools import permutations
from typing import Any

import numpy as np
import numpy.typing as npt

from polytile.geometry import piece
from polytile.puzzles.walkable.cells import BLUE, BOARDS, CELLS, DEAD, RED, SIDE, UNCLAIMED

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
    "is_drop",
    "largest_regions",
    "legal_drop_rows",
    "legal_drops",
    "resolve_drops",
    "seeded_boards",
    "use_compiled_regions",
]

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
    chunks = []
    for shape in piece(name).orientations():
        rows, cols = np.meshgrid(np.arange(SIDE - shape.height + 1),
                                 np.arange(SIDE - shape.width + 1), indexing="ij")  # fmt: skip
        shifts = (rows * SIDE + cols).ravel()  # every position of the orientation at once
        flat = tuple((r, c) for r, c in shape.cells)
        for split in _splits(flat):  # splitting does not depend on position
            for boards in permutations(range(BOARDS), len(split)):
                cells = [b * 100 + r * SIDE + c for b, sub in zip(boards, split, strict=True)
                         for r, c in sub]  # fmt: skip
                chunks.append(np.sort(shifts[:, None] + np.array(cells)[None, :], axis=1))
    table = np.unique(np.concatenate(chunks), axis=0).astype(np.int16)  # sorted rows, once
    table.flags.writeable = False
    return table


@cache
def _drop_keys(name: str) -> npt.NDArray[np.int64]:
    """Each row of :func:`drop_table` as one number, ascending (the rows are sorted)."""
    t = drop_table(name).astype(np.int64)
    return ((t[:, 0] * CELLS + t[:, 1]) * CELLS + t[:, 2]) * CELLS + t[:, 3]


def is_drop(name: str, cells: Sequence[int]) -> bool:
    """Whether the four sorted global ``cells`` are a row of :func:`drop_table` (a drop of
    piece ``name``: its shape, split into sub-pieces on different boards)."""
    if len(cells) != 4:
        return False
    a, b, c, d = (int(x) for x in cells)
    key = ((a * CELLS + b) * CELLS + c) * CELLS + d
    keys = _drop_keys(name)
    i = int(np.searchsorted(keys, key))
    return i < len(keys) and int(keys[i]) == key


def legal_drops(cells: npt.NDArray[np.int8], name: str) -> npt.NDArray[np.int16]:
    """The rows of :func:`drop_table` whose four cells are all unclaimed in ``cells``."""
    return drop_table(name)[legal_drop_rows(cells, name)]


def legal_drop_rows(cells: npt.NDArray[np.int8], name: str) -> npt.NDArray[np.intp]:
    """The indices of the rows of :func:`drop_table` whose four cells are all unclaimed in
    ``cells`` (the rows :func:`legal_drops` gives, by index)."""
    table = drop_table(name)
    return np.flatnonzero((cells[table] == UNCLAIMED).all(axis=1))


def largest_regions(cells: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    """``out[p, b]``: the size of the largest edge-connected region of player ``p``'s cells
    (0 red, 1 blue) on board ``b``; 0 when it has none there.

    In Python first: loading the compiled flood fill (numba) costs about 0.7 s, more than
    reading, scoring or drawing a game spends here. After :data:`SWITCH_AFTER` seconds in
    Python the compiled one (:mod:`polytile.puzzles.walkable._regions`) takes over, with
    the same results (the rent-or-buy rule of :mod:`polytile.puzzles.blokus.kernels`).
    """
    global _spent
    if _compiled is not None:
        out: npt.NDArray[np.int64] = _compiled(cells)
        return out
    since = time.perf_counter()
    flat = cells.tolist()
    best = [[0] * BOARDS, [0] * BOARDS]
    seen = bytearray(CELLS)
    for start in range(CELLS):
        own = flat[start]
        if seen[start] or (own != RED and own != BLUE):
            continue
        seen[start] = 1
        stack, size = [start], 0
        while stack:
            g = stack.pop()
            size += 1
            r, c = g % 100 // SIDE, g % SIDE
            for h, inside in ((g - SIDE, r > 0), (g + SIDE, r < SIDE - 1), (g - 1, c > 0),
                              (g + 1, c < SIDE - 1)):  # fmt: skip
                if inside and not seen[h] and flat[h] == own:
                    seen[h] = 1
                    stack.append(h)
        row = best[own - RED]
        row[start // 100] = max(row[start // 100], size)
    _spent += time.perf_counter() - since
    if _spent >= SWITCH_AFTER and _compiled_ready():
        use_compiled_regions()
    return np.array(best, dtype=np.int64)


#: Seconds in the Python :func:`largest_regions` after which the compiled one is loaded.
SWITCH_AFTER = 0.3
_spent = 0.0
_compiled: Any = None


def _compiled_ready() -> bool:
    """Whether the compiled :func:`largest_regions` loads without compiling here: numba
    compiles it once after installing, with the drop-phase kernels, in a process of its own
    (started now if need be; this command goes on in Python meanwhile)."""
    global _spent
    from polytile._warm import compiled_or_started, is_compiled

    if is_compiled("walkable-path") or compiled_or_started("walkable-phase"):
        return True
    _spent = -60.0  # look again after another minute's work
    return False


def use_compiled_regions() -> None:
    """Load the compiled :func:`largest_regions` and use it from now on."""
    global _compiled
    from polytile.puzzles.walkable._regions import largest_regions as compiled

    _compiled = compiled


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
