"""Boards with blocked cells, their symmetries, and every placement of a piece set.

A :class:`Board` is an ``rows x cols`` rectangle of cells, some of which may be blocked (any
shape, holes allowed). Cell ``(r, c)`` has the flat index ``r * cols + c``; solvers see only
flat indices and bitmasks.

:func:`placements` enumerates every (piece, orientation, position) whose cells all lie on open
cells. It slides each orientation's bounding box over *every* translation of the rectangle
and tests every covered cell, so no placement is lost on boards with holes (the classic bug
of anchoring placements only at open cells).

Examples
--------
>>> from polytile.board import Board, placements
>>> from polytile.geometry import piece_set
>>> b = Board(20, 20)
>>> len(placements(b, piece_set("blokus")))
30433
>>> Board.from_text(["...", ".#.", "..."]).symmetries()
(0, 1, 2, 3, 4, 5, 6, 7)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from polytile.errors import BoardError
from polytile.geometry import TRANSFORMS, Cell, Polyomino

__all__ = ["MAX_SIDE", "Board", "Placements", "placements"]

#: Largest board side accepted: beyond this the placement arrays stop being sensible.
MAX_SIDE = 200


@dataclass(frozen=True)
class Board:
    """An immutable rectangle of cells with a set of blocked cells.

    Parameters
    ----------
    rows, cols
        Size, 1 to :data:`MAX_SIDE` each.
    blocked
        Cells ``(row, col)`` that no piece may cover.

    Raises
    ------
    BoardError
        On a size out of range or a blocked cell outside the rectangle.
    """

    rows: int
    cols: int
    blocked: frozenset[Cell] = frozenset()

    def __post_init__(self) -> None:
        for label, n in (("rows", self.rows), ("cols", self.cols)):
            if not isinstance(n, int | np.integer) or not 1 <= n <= MAX_SIDE:
                raise BoardError(f"board {label} must be an integer from 1 to {MAX_SIDE}, got {n}")
        blocked = frozenset((int(r), int(c)) for r, c in self.blocked)
        for r, c in blocked:
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                raise BoardError(
                    f"blocked cell ({r}, {c}) lies outside the {self.rows}x{self.cols} board"
                )
        object.__setattr__(self, "blocked", blocked)

    # -- construction ------------------------------------------------------------------
    @classmethod
    def parse_size(cls, text: str) -> Board:
        """A plain board from ``"RxC"`` (rows by columns), e.g. ``"8x10"``.

        Raises
        ------
        BoardError
            If the text is not of that form or the size is out of range.
        """
        parts = text.lower().replace(" ", "").split("x")
        if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
            raise BoardError(f"board size must look like 8x10 (rows x columns), got {text!r}")
        return cls(int(parts[0]), int(parts[1]))

    @classmethod
    def from_text(cls, rows: Sequence[str] | str, blocked_chars: str = "#") -> Board:
        """A board from rows of text: characters in ``blocked_chars`` are blocked.

        Raises
        ------
        BoardError
            If there are no rows or the rows differ in length.
        """
        lines = rows.split() if isinstance(rows, str) else list(rows)
        if not lines or not lines[0]:
            raise BoardError("a board needs at least one row of at least one cell")
        width = len(lines[0])
        for i, line in enumerate(lines):
            if len(line) != width:
                raise BoardError(
                    f"row {i} has {len(line)} cells but row 0 has {width}; rows must be equal"
                )
        return cls(
            len(lines),
            width,
            frozenset(
                (r, c)
                for r, line in enumerate(lines)
                for c, ch in enumerate(line)
                if ch in blocked_chars
            ),
        )

    def to_text(self) -> list[str]:
        """Rows of text: ``.`` open, ``#`` blocked."""
        return [
            "".join("#" if (r, c) in self.blocked else "." for c in range(self.cols))
            for r in range(self.rows)
        ]

    # -- cells -------------------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of cells, blocked ones included."""
        return self.rows * self.cols

    @cached_property
    def open_mask(self) -> npt.NDArray[np.bool_]:
        """``rows x cols`` boolean array, True where a piece may go."""
        mask = np.ones((self.rows, self.cols), dtype=bool)
        for r, c in self.blocked:
            mask[r, c] = False
        return mask

    @property
    def n_open(self) -> int:
        """Number of open cells."""
        return self.size - len(self.blocked)

    def index(self, r: int, c: int) -> int:
        """Flat index of cell ``(r, c)``."""
        return r * self.cols + c

    def cell(self, i: int) -> Cell:
        """Cell of flat index ``i``."""
        return divmod(int(i), self.cols)

    def __contains__(self, cell: object) -> bool:
        if not isinstance(cell, tuple) or len(cell) != 2:
            return False
        r, c = cell
        return 0 <= r < self.rows and 0 <= c < self.cols

    def is_open(self, r: int, c: int) -> bool:
        """Inside the board and not blocked."""
        return (r, c) in self and (r, c) not in self.blocked

    # -- symmetry ----------------------------------------------------------------------
    def map_cell(self, k: int, r: int, c: int) -> Cell:
        """Image of cell ``(r, c)`` under symmetry ``k`` of the bounding rectangle.

        For symmetries that swap rows and columns the result lies in the transposed
        rectangle; :meth:`symmetries` only returns them for square boards.
        """
        a, b, d, e = TRANSFORMS[k]
        # A negative coefficient reflects that axis: shift by the extent it runs over.
        nr = a * r + b * c + (self.rows - 1 if a < 0 else 0) + (self.cols - 1 if b < 0 else 0)
        nc = d * r + e * c + (self.rows - 1 if d < 0 else 0) + (self.cols - 1 if e < 0 else 0)
        return (nr, nc)

    def symmetries(self) -> tuple[int, ...]:
        """The symmetries of the square that map this board (with its blocked cells) onto itself.

        Notes
        -----
        A subgroup of the dihedral group of order 8: at most 4 for non-square rectangles.
        O(8 * blocked).
        """
        result = []
        for k, (a, _b, _d, _e) in enumerate(TRANSFORMS):
            if a == 0 and self.rows != self.cols:
                continue  # swaps the axes of a non-square rectangle
            if frozenset(self.map_cell(k, r, c) for r, c in self.blocked) == self.blocked:
                result.append(k)
        return tuple(result)

    def cell_permutation(self, k: int) -> npt.NDArray[np.int32]:
        """``perm[i]`` = flat index of the image of cell ``i`` under symmetry ``k``."""
        if k not in self.symmetries():
            raise BoardError(f"symmetry {k} does not map the board onto itself")
        perm = np.empty(self.size, dtype=np.int32)
        for r in range(self.rows):
            for c in range(self.cols):
                perm[self.index(r, c)] = self.index(*self.map_cell(k, r, c))
        return perm

    def __repr__(self) -> str:
        holes = f", {len(self.blocked)} blocked" if self.blocked else ""
        return f"<Board {self.rows}x{self.cols}{holes}>"


@dataclass(frozen=True, eq=False)
class Placements:
    """Every placement of a piece list on a board, as flat arrays for the solvers.

    Placement ``i`` puts piece ``pieces[piece[i]]``, turned by symmetry ``transform[i]``, with
    its bounding box's top-left corner at ``(row[i], col[i])``, covering the flat cell indices
    ``cells[i, :size[i]]`` (padded with -1). ``masks[i]`` is the same set as a little-endian
    bitmask in ``words`` 64-bit words (bit ``j % 64`` of word ``j // 64`` is cell ``j``).
    Placements are grouped by piece, then orientation, then position in reading order.
    """

    board: Board
    pieces: tuple[Polyomino, ...]
    piece: npt.NDArray[np.int32]
    orientation: npt.NDArray[np.int32]
    transform: npt.NDArray[np.int32]
    row: npt.NDArray[np.int32]
    col: npt.NDArray[np.int32]
    cells: npt.NDArray[np.int32]
    size: npt.NDArray[np.int32]
    masks: npt.NDArray[np.uint64]

    def __len__(self) -> int:
        return int(self.piece.shape[0])

    @property
    def words(self) -> int:
        """64-bit words per bitmask."""
        return int(self.masks.shape[1])

    def cells_of(self, i: int) -> npt.NDArray[np.int32]:
        """Flat cell indices of placement ``i``."""
        return self.cells[i, : self.size[i]]

    def coords_of(self, i: int) -> list[Cell]:
        """Cells ``(row, col)`` of placement ``i``."""
        return [self.board.cell(j) for j in self.cells_of(i)]

    def sorted_coords(self) -> tuple[tuple[Cell, ...], ...]:
        """Every placement's cells ``(row, col)``, sorted: ``tuple(sorted(coords_of(i)))`` for
        each ``i`` at once (flat indices are row-major, so sorting them sorts the cells)."""
        flat = np.sort(np.where(self.cells >= 0, self.cells, np.iinfo(np.int32).max), axis=1)
        cell = [self.board.cell(j) for j in range(self.board.size)]
        return tuple(
            tuple(map(cell.__getitem__, row[:k]))
            for row, k in zip(flat.tolist(), self.size.tolist(), strict=True)
        )

    def csr(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]:
        """Cells as compressed rows: placement ``i`` covers ``flat[ptr[i]:ptr[i+1]]``."""
        ptr = np.zeros(len(self) + 1, dtype=np.int64)
        np.cumsum(self.size, out=ptr[1:])
        flat = self.cells[self.cells >= 0]  # row-major, so row by row
        return flat.astype(np.int32), ptr

    def of_piece(self, p: int) -> npt.NDArray[np.int64]:
        """Indices of the placements of piece ``p``."""
        return np.flatnonzero(self.piece == p)


def placements(board: Board, pieces: Iterable[Polyomino], one_sided: bool = False) -> Placements:
    """Enumerate every placement of every piece on the open cells of ``board``.

    Parameters
    ----------
    board
        The board; blocked cells are never covered.
    pieces
        The pieces, by index; repeated shapes are enumerated once per copy.
    one_sided
        Only rotations (pieces may not be turned over).

    Returns
    -------
    Placements
        Flat arrays, grouped by piece, then orientation, then position.

    Notes
    -----
    For each orientation, the set of legal top-left corners is the AND of the open-cell mask
    shifted by each of the shape's cells: O(sum of orientation sizes * rows * cols), all in
    numpy. The 21 Blokus pieces on 20x20 give 30433 placements in a few milliseconds.
    """
    pieces = tuple(pieces)
    open_ = board.open_mask
    rows, cols = board.rows, board.cols
    max_size = max((p.size for p in pieces), default=1)
    parts: dict[str, list[npt.NDArray[np.int32]]] = {
        k: [] for k in ("piece", "orientation", "transform", "row", "col", "cells", "size")
    }
    for pi, p in enumerate(pieces):
        for oi, (k, shape) in enumerate(p.oriented(one_sided)):
            h, w = shape.height, shape.width
            if h > rows or w > cols:
                continue
            ok = np.ones((rows - h + 1, cols - w + 1), dtype=bool)
            for r, c in shape.cells:
                ok &= open_[r : r + rows - h + 1, c : c + cols - w + 1]
            rr, cc = np.nonzero(ok)
            n = rr.shape[0]
            if n == 0:
                continue
            offsets = np.array([r * cols + c for r, c in shape.cells], dtype=np.int32)
            cells = np.full((n, max_size), -1, dtype=np.int32)
            cells[:, : shape.size] = (rr * cols + cc).astype(np.int32)[:, None] + offsets[None, :]
            parts["piece"].append(np.full(n, pi, dtype=np.int32))
            parts["orientation"].append(np.full(n, oi, dtype=np.int32))
            parts["transform"].append(np.full(n, k, dtype=np.int32))
            parts["row"].append(rr.astype(np.int32))
            parts["col"].append(cc.astype(np.int32))
            parts["cells"].append(cells)
            parts["size"].append(np.full(n, shape.size, dtype=np.int32))
    words = (board.size + 63) // 64
    if parts["piece"]:
        arrays = {k: np.concatenate(v) for k, v in parts.items()}
    else:
        arrays = {k: np.zeros(0, dtype=np.int32) for k in parts}
        arrays["cells"] = np.zeros((0, max_size), dtype=np.int32)
    n = arrays["piece"].shape[0]
    masks = np.zeros((n, words), dtype=np.uint64)
    rows_idx = np.arange(n)
    cells = arrays["cells"]
    for j in range(max_size):
        idx = cells[:, j]
        live = idx >= 0
        bits = np.left_shift(np.uint64(1), (idx[live] & 63).astype(np.uint64))
        np.bitwise_or.at(masks, (rows_idx[live], idx[live] >> 6), bits)
    return Placements(board=board, pieces=pieces, masks=masks, **arrays)
