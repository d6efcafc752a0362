"""Grids: the cells of each grid, their neighbours, the grid's symmetries and the normal
position of a shape, so that pieces, boards and the engines above them work on any grid.

Four grids, each with integer cell coordinates:

``square``
    Cells ``(row, col)``; 4 neighbours; the 8 symmetries of the square (0-3 rotations).
``triangle`` (polyiamonds)
    Cells ``(row, col)`` in rows of alternating triangles: the triangle points up when
    ``row + col`` is even, down when it is odd, so a drawing is rows of one character per
    triangle. 3 neighbours; the 12 symmetries of the hexagonal lattice (0-5 rotations by
    multiples of 60 degrees, 6-11 reflections). A shape moves only by steps that keep
    ``row + col``'s parity (an up triangle stays up).
``hex`` (polyhexes)
    Cells ``(row, q)`` in axial coordinates: each row lies half a hexagon to the right of the
    one above, so cell ``(r, q)`` is drawn at text column ``2q + r``. 6 neighbours; the 12
    symmetries of the hexagon (0-5 rotations).
``cube`` (polycubes)
    Cells ``(layer, row, col)``; 6 neighbours; the 48 symmetries of the cube (0-23 the
    rotations, 24-47 the rotations followed by a mirror).

A symmetry is an index ``k`` into the grid's group; indices below :attr:`Grid.rotations`
are the rotations, which a one-sided piece may use. Symmetry ``rotations`` itself is always
a mirror image (the one :meth:`Grid.mirror` names).

Examples
--------
>>> from polytile.grids import grid
>>> g = grid("triangle")
>>> g.normalize([(0, 0), (0, 1), (0, 2)])  # three triangles in a row: a trapezoid
((0, 0), (0, 1), (0, 2))
>>> len({g.normalize(g.transform(k, c) for c in [(0, 0), (0, 1)]) for k in range(12)})
3
>>> grid("cube").order, grid("cube").rotations
(48, 24)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from functools import cache

from polytile.errors import UnknownNameError

__all__ = ["GRIDS", "Grid", "grid"]

Coord = tuple[int, ...]

#: The grids by name, with what they tile.
GRIDS: dict[str, str] = {
    "square": "squares: polyominoes (rows and columns)",
    "triangle": "equilateral triangles: polyiamonds (rows of alternating triangles)",
    "hex": "regular hexagons: polyhexes (axial rows, each half a hexagon right of the last)",
    "cube": "cubes: polycubes (layers of rows and columns)",
}

# The square's symmetries as integer matrices on (row, col), in the order geometry.py
# numbers them (0-3 rotations, 4-7 reflections).
_SQUARE = (
    (1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0),
    (1, 0, 0, -1), (-1, 0, 0, 1), (0, 1, 1, 0), (0, -1, -1, 0),
)  # fmt: skip
_SQUARE_NAMES = ("id", "rot90", "rot180", "rot270", "flip-lr", "flip-tb", "transpose", "anti")


def _lattice_group() -> tuple[tuple[int, int, int, int], ...]:
    """The 12 symmetries of the hexagonal lattice as integer matrices in a lattice basis
    (e1, e2 sixty degrees apart): rotation ``R`` (e1 -> e2, e2 -> e2 - e1) to the powers
    0-5, then ``R^j`` after the swap of e1 and e2 (a mirror)."""

    def mul(x: tuple[int, ...], y: tuple[int, ...]) -> tuple[int, int, int, int]:
        a, b, c, d = x
        e, f, g, h = y
        return (a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h)

    rot = (0, -1, 1, 1)  # (x, y) -> (-y, x + y)
    powers = [(1, 0, 0, 1)]
    for _ in range(5):
        powers.append(mul(rot, powers[-1]))
    swap = (0, 1, 1, 0)
    return (*powers, *(mul(p, swap) for p in powers))


_LATTICE = _lattice_group()
_LATTICE_NAMES = (
    "id", "rot60", "rot120", "rot180", "rot240", "rot300",
    "mirror", "mirror-rot60", "mirror-rot120", "mirror-rot180", "mirror-rot240", "mirror-rot300",
)  # fmt: skip


def _cube_group() -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The 48 symmetries of the cube as (axis permutation, signs): cell ``x`` goes to
    ``y[i] = sign[i] * x[perm[i]]``. The 24 rotations (determinant +1) come first, the
    identity at 0, then the 24 with a mirror, the plain mirror of the last axis at 24."""

    def det(perm: tuple[int, ...], signs: tuple[int, ...]) -> int:
        inversions = sum(1 for i in range(3) for j in range(i + 1, 3) if perm[i] > perm[j])
        return (-1) ** inversions * signs[0] * signs[1] * signs[2]

    every = [(p, s) for p in itertools.permutations(range(3))
             for s in itertools.product((1, -1), repeat=3)]  # fmt: skip
    rotations = sorted((x for x in every if det(*x) == 1), key=lambda x: (x != every[0], x))
    mirror = ((0, 1, 2), (1, 1, -1))
    mirrors = sorted((x for x in every if det(*x) == -1), key=lambda x: (x != mirror, x))
    return (*rotations, *mirrors)


_CUBE = _cube_group()


class Grid:
    """One grid: its cells' coordinates, neighbours, symmetry group and normal position.

    Subclasses are singletons found by :func:`grid`; compare grids by :attr:`name`.
    """

    name: str = ""
    #: Coordinates per cell: 2, or 3 for cubes.
    dims: int = 2
    #: Size of the symmetry group, and how many of its first elements are rotations.
    order: int = 8
    rotations: int = 4
    #: What one cell is called, singular and plural.
    cell_word: tuple[str, str] = ("square", "squares")

    def transform(self, k: int, cell: Coord) -> Coord:
        """Image of ``cell`` under symmetry ``k`` about the origin (not yet normalized)."""
        raise NotImplementedError

    def normalize(self, cells: Iterable[Coord]) -> tuple[Coord, ...]:
        """The cells moved to the grid's normal position (smallest coordinates 0, or 0/1
        where the grid's lattice allows no smaller step) and sorted: equal for two sets
        that differ by a move of the grid alone."""
        raise NotImplementedError

    def neighbours(self, cell: Coord) -> tuple[Coord, ...]:
        """The cells sharing an edge (a face, for cubes) with ``cell``."""
        raise NotImplementedError

    def transform_name(self, k: int) -> str:
        """Short name of symmetry ``k``, for messages and docs."""
        raise NotImplementedError

    def mirror(self) -> int:
        """A symmetry that turns a piece over (its mirror image): index :attr:`rotations`."""
        return self.rotations

    def shift_ok(self, delta: Coord) -> bool:
        """Whether moving every cell by ``delta`` keeps the grid (the triangle grid's moves
        keep each triangle's direction)."""
        return True

    # -- text: one character per cell --------------------------------------------------
    def read_text(self, lines: Iterable[str]) -> dict[Coord, str]:
        """The character drawn at each cell of a drawing (spaces are not cells).

        Squares and triangles: one character per cell, ``(row, col)`` its line and column.

        Raises
        ------
        ValueError
            Where the drawing does not fit the grid (said with its line and column).
        """
        return {(r, c): ch for r, line in enumerate(lines) for c, ch in enumerate(line)
                if ch != " "}  # fmt: skip

    def write_text(self, chars: dict[Coord, str], blank: str = ".") -> list[str]:
        """Lines drawing ``chars`` (cell -> character); other positions of the bounding box
        are ``blank``. The inverse of :meth:`read_text` for cells at coordinates >= 0."""
        if not chars:
            return []
        rows = 1 + max(r for r, _ in chars)
        cols = 1 + max(c for _, c in chars)
        return ["".join(chars.get((r, c), blank) for c in range(cols)).rstrip(" ")
                for r in range(rows)]  # fmt: skip

    def __repr__(self) -> str:
        return f"<Grid {self.name}>"


class _Square(Grid):
    name = "square"

    def transform(self, k: int, cell: Coord) -> Coord:
        a, b, d, e = _SQUARE[k]
        r, c = cell
        return (a * r + b * c, d * r + e * c)

    def normalize(self, cells: Iterable[Coord]) -> tuple[Coord, ...]:
        cells = list(cells)
        r0 = min(r for r, _ in cells)
        c0 = min(c for _, c in cells)
        return tuple(sorted((r - r0, c - c0) for r, c in cells))

    def neighbours(self, cell: Coord) -> tuple[Coord, ...]:
        r, c = cell
        return ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))

    def transform_name(self, k: int) -> str:
        return _SQUARE_NAMES[k]


class _Triangle(Grid):
    name = "triangle"
    order = 12
    rotations = 6
    cell_word = ("triangle", "triangles")

    # A triangle (r, c) has, in the lattice basis, its centroid times three at
    # (3i + 1 + t, 3b + 1 + t) with t = 1 for a down triangle, b = -r - 1 and
    # i = (c + r - t) / 2; the lattice's matrices act on that point.
    def transform(self, k: int, cell: Coord) -> Coord:
        r, c = cell
        t = (r + c) & 1
        b = -r - 1
        i = (c + r - t) // 2
        x, y = 3 * i + 1 + t, 3 * b + 1 + t
        a, bb, cc, d = _LATTICE[k]
        x, y = a * x + bb * y, cc * x + d * y
        t = x % 3 - 1
        i, b = (x - 1 - t) // 3, (y - 1 - t) // 3
        r = -b - 1
        return (r, 2 * i - r + t)

    def normalize(self, cells: Iterable[Coord]) -> tuple[Coord, ...]:
        cells = list(cells)
        dr = -min(r for r, _ in cells)
        dc = -min(c for _, c in cells)
        if (dr + dc) & 1:
            dc += 1  # keep each triangle's direction: the leftmost column becomes 1
        return tuple(sorted((r + dr, c + dc) for r, c in cells))

    def neighbours(self, cell: Coord) -> tuple[Coord, ...]:
        r, c = cell
        return ((r, c - 1), (r, c + 1), (r + 1, c) if (r + c) % 2 == 0 else (r - 1, c))

    def transform_name(self, k: int) -> str:
        return _LATTICE_NAMES[k]

    def shift_ok(self, delta: Coord) -> bool:
        return (delta[0] + delta[1]) % 2 == 0


class _Hex(Grid):
    name = "hex"
    order = 12
    rotations = 6
    cell_word = ("hexagon", "hexagons")

    def transform(self, k: int, cell: Coord) -> Coord:
        r, q = cell
        a, b, c, d = _LATTICE[k]
        # the lattice basis is (e1 = one hexagon right, e2 = one row down)
        q, r = a * q + b * r, c * q + d * r
        return (r, q)

    def normalize(self, cells: Iterable[Coord]) -> tuple[Coord, ...]:
        cells = list(cells)
        r0 = min(r for r, _ in cells)
        q0 = min(q for _, q in cells)
        return tuple(sorted((r - r0, q - q0) for r, q in cells))

    def neighbours(self, cell: Coord) -> tuple[Coord, ...]:
        r, q = cell
        return ((r, q - 1), (r, q + 1), (r - 1, q), (r - 1, q + 1), (r + 1, q - 1), (r + 1, q))

    def transform_name(self, k: int) -> str:
        return _LATTICE_NAMES[k]

    # A drawing puts cell (r, q) at line r, column 2q + r (plus a margin): neighbours in a
    # line stand two columns apart, and each line is shifted by one.
    def read_text(self, lines: Iterable[str]) -> dict[Coord, str]:
        out: dict[Coord, str] = {}
        parity = None
        for y, line in enumerate(lines):
            for x, ch in enumerate(line):
                if ch == " ":
                    continue
                if parity is None:
                    parity = (x + y) & 1
                elif (x + y) & 1 != parity:
                    raise ValueError(
                        f"line {y + 1}, column {x + 1}: a hexagon drawing puts cells two "
                        "columns apart, each line shifted by one from the line above (a "
                        "character here sits between two cells)"
                    )
                out[(y, (x - y - parity) // 2)] = ch
        return out

    def write_text(self, chars: dict[Coord, str], blank: str = " ") -> list[str]:
        if not chars:
            return []
        left = min(2 * q + r for r, q in chars)
        rows = 1 + max(r for r, _ in chars)
        lines = []
        for r in range(rows):
            row = {2 * q + r - left: ch for (rr, q), ch in chars.items() if rr == r}
            width = 1 + max(row, default=-1)
            lines.append("".join(row.get(x, " ") for x in range(width)))
        return lines


class _Cube(Grid):
    name = "cube"
    dims = 3
    order = 48
    rotations = 24
    cell_word = ("cube", "cubes")

    def transform(self, k: int, cell: Coord) -> Coord:
        perm, signs = _CUBE[k]
        return (signs[0] * cell[perm[0]], signs[1] * cell[perm[1]], signs[2] * cell[perm[2]])

    def normalize(self, cells: Iterable[Coord]) -> tuple[Coord, ...]:
        cells = list(cells)
        lo = [min(cell[i] for cell in cells) for i in range(3)]
        return tuple(sorted((z - lo[0], r - lo[1], c - lo[2]) for z, r, c in cells))

    def neighbours(self, cell: Coord) -> tuple[Coord, ...]:
        z, r, c = cell
        return ((z - 1, r, c), (z + 1, r, c), (z, r - 1, c), (z, r + 1, c),
                (z, r, c - 1), (z, r, c + 1))  # fmt: skip

    def transform_name(self, k: int) -> str:
        return f"rotation {k}" if k < 24 else f"mirror {k - 24}"

    # A drawing shows the layers side by side, separated by spaces, the first layer first:
    # "##. #.." is two layers of one row.
    def read_text(self, lines: Iterable[str]) -> dict[Coord, str]:
        out: dict[Coord, str] = {}
        layers = None
        for r, line in enumerate(lines):
            parts = line.split()
            if not parts:
                continue
            if layers is None:
                layers = len(parts)
            elif len(parts) != layers:
                raise ValueError(
                    f"line {r + 1} shows {len(parts)} layers but the first line "
                    f"{layers}: draw every layer on every line, side by side"
                )
            for z, part in enumerate(parts):
                for c, ch in enumerate(part):
                    out[(z, r, c)] = ch
        return out

    def write_text(self, chars: dict[Coord, str], blank: str = ".") -> list[str]:
        if not chars:
            return []
        layers = 1 + max(z for z, _, _ in chars)
        rows = 1 + max(r for _, r, _ in chars)
        cols = 1 + max(c for _, _, c in chars)
        return [" ".join("".join(chars.get((z, r, c), blank) for c in range(cols))
                         for z in range(layers)) for r in range(rows)]  # fmt: skip


_GRIDS: dict[str, Grid] = {g.name: g for g in (_Square(), _Triangle(), _Hex(), _Cube())}
_ALIASES = {"squares": "square", "polyomino": "square", "polyominoes": "square",
            "triangles": "triangle", "polyiamond": "triangle", "polyiamonds": "triangle",
            "iamond": "triangle", "hexes": "hex", "hexagon": "hex", "hexagons": "hex",
            "polyhex": "hex", "polyhexes": "hex", "cubes": "cube", "polycube": "cube",
            "polycubes": "cube"}  # fmt: skip


@cache
def grid(name: str | Grid) -> Grid:
    """The grid of that name (see :data:`GRIDS`; "polyiamonds", "hexagons" and the like
    are understood too).

    Raises
    ------
    UnknownNameError
        If no grid has that name.
    """
    if isinstance(name, Grid):
        return name
    key = str(name).strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _GRIDS:
        raise UnknownNameError("grid", name, sorted(_GRIDS))
    return _GRIDS[key]
