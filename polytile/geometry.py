"""Polyominoes: immutable shapes, their symmetries, and the named piece sets.

A :class:`Polyomino` is a finite, edge-connected set of grid cells ``(row, col)``, stored
normalized (smallest row and column are 0) and sorted, so two fixed polyominoes are equal
exactly when their cells are. The eight symmetries of the square act on it; the *free*
orientations of a piece are its distinct images under all eight, the *one-sided* ones under
the four rotations.

The same class holds pieces of the other grids (:mod:`polytile.grids`): polyiamonds,
polyhexes and polycubes, with ``grid="triangle"``, ``"hex"`` or ``"cube"``, their cells in
that grid's coordinates and its symmetry group (12, 12 and 48 elements) in place of the
square's eight. :data:`Polyform` is another name for it.

Examples
--------
>>> from polytile.geometry import Polyomino, piece
>>> t = Polyomino.from_text('''
... ###
... .#.
... ''')
>>> t.size, len(t.orientations()), len(t.orientations(one_sided=True))
(4, 4, 4)
>>> piece("F5").canonical() == piece("F5").transform(5).canonical()
True
>>> print(piece("L4").to_text())
#..
###
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from polytile.errors import ShapeError, UnknownNameError
from polytile.grids import Grid, grid

__all__ = [
    "PIECE_SETS",
    "SET_GRIDS",
    "TRANSFORMS",
    "Cell",
    "Polyform",
    "Polyomino",
    "apply_transform",
    "compose_transforms",
    "invert_transform",
    "piece",
    "piece_set",
    "read_piece_file",
    "read_piece_sets",
    "sets_on",
    "transform_name",
]

Cell = tuple[int, ...]  # (row, col); (layer, row, col) on the cube grid

# The dihedral group of the square as integer matrices acting on (row, col):
# (r, c) -> (a*r + b*c, d*r + e*c).  0-3 are the rotations by 0, 90, 180, 270 degrees
# (counter-clockwise on screen, rows growing downwards), 4-7 the reflections.  Order
# matters: one-sided pieces use 0-3.
TRANSFORMS: tuple[tuple[int, int, int, int], ...] = (
    (1, 0, 0, 1),  # identity
    (0, -1, 1, 0),  # rotate 90: (r, c) -> (-c, r)
    (-1, 0, 0, -1),  # rotate 180
    (0, 1, -1, 0),  # rotate 270: (r, c) -> (c, -r)
    (1, 0, 0, -1),  # mirror left-right: (r, c) -> (r, -c)
    (-1, 0, 0, 1),  # mirror top-bottom: (r, c) -> (-r, c)
    (0, 1, 1, 0),  # transpose (main diagonal): (r, c) -> (c, r)
    (0, -1, -1, 0),  # anti-transpose: (r, c) -> (-c, -r)
)
_TRANSFORM_NAMES = ("id", "rot90", "rot180", "rot270", "flip-lr", "flip-tb", "transpose", "anti")


def transform_name(k: int) -> str:
    """Short name of symmetry ``k`` (0-7), for messages and docs."""
    return _TRANSFORM_NAMES[k]


def apply_transform(k: int, r: int, c: int) -> Cell:
    """Image of cell ``(r, c)`` under symmetry ``k`` about the origin (no translation)."""
    a, b, d, e = TRANSFORMS[k]
    return (a * r + b * c, d * r + e * c)


def _matmul(
    x: tuple[int, int, int, int], y: tuple[int, int, int, int]
) -> tuple[int, int, int, int]:
    a, b, c, d = x
    e, f, g, h = y
    return (a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h)


def compose_transforms(j: int, k: int) -> int:
    """The symmetry "first ``k``, then ``j``" as an index into :data:`TRANSFORMS`."""
    return TRANSFORMS.index(_matmul(TRANSFORMS[j], TRANSFORMS[k]))


def invert_transform(k: int) -> int:
    """The symmetry that undoes symmetry ``k``."""
    return next(j for j in range(8) if compose_transforms(j, k) == 0)


def _normalize(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def _is_connected(cells: tuple[Cell, ...]) -> bool:
    todo = [cells[0]]
    seen = {cells[0]}
    present = set(cells)
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in present and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(present)


def _connected_on(g: Grid, cells: tuple[tuple[int, ...], ...]) -> bool:
    todo = [cells[0]]
    seen = {cells[0]}
    present = set(cells)
    while todo:
        for n in g.neighbours(todo.pop()):
            if n in present and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(present)


@dataclass(frozen=True, order=True)
class Polyomino:
    """An immutable fixed polyomino (a shape in one orientation), optionally named.

    Equality and hashing use the cells only, never the name: ``piece("T4")`` equals any
    unnamed polyomino with the same cells in the same orientation. Use :meth:`canonical` to
    compare free shapes.

    Parameters
    ----------
    cells
        The cells ``(row, col)``; they are normalized and sorted. Must be non-empty,
        distinct and edge-connected.
    name
        A label such as ``"F5"``; not part of the value.

    Raises
    ------
    ShapeError
        If the cells are empty, repeated or not edge-connected.
    """

    cells: tuple[Cell, ...]
    name: str = field(default="", compare=False)
    grid: str = "square"

    def __post_init__(self) -> None:
        if self.grid != "square":
            self._init_on_grid()
            return
        raw = [(int(r), int(c)) for r, c in self.cells]
        if not raw:
            raise ShapeError("a polyomino needs at least one cell")
        if len(set(raw)) != len(raw):
            raise ShapeError(f"repeated cells in polyomino {sorted(raw)}")
        cells = _normalize(raw)
        if not _is_connected(cells):
            raise ShapeError(f"cells {list(cells)} are not edge-connected")
        object.__setattr__(self, "cells", cells)

    def _init_on_grid(self) -> None:
        g = grid(self.grid)
        object.__setattr__(self, "grid", g.name)
        try:
            raw = [tuple(int(x) for x in cell) for cell in self.cells]
        except (TypeError, ValueError):
            raise ShapeError(f"cells of a {g.name} piece must be tuples of integers") from None
        if not raw:
            raise ShapeError(f"a piece needs at least one {g.cell_word[0]}")
        if any(len(cell) != g.dims for cell in raw):
            raise ShapeError(f"a cell of the {g.name} grid has {g.dims} coordinates")
        if len(set(raw)) != len(raw):
            raise ShapeError(f"repeated cells in piece {sorted(raw)}")
        cells = g.normalize(raw)
        if not _connected_on(g, cells):
            side = "face" if g.dims == 3 else "edge"
            raise ShapeError(f"{g.cell_word[1]} {list(cells)} are not connected {side} to {side}")
        object.__setattr__(self, "cells", cells)

    # -- basic facts -------------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.cells)

    @property
    def height(self) -> int:
        """Rows spanned."""
        return max(cell[-2] for cell in self.cells) + 1

    @property
    def width(self) -> int:
        """Columns spanned."""
        return max(cell[-1] for cell in self.cells) + 1

    @property
    def layers(self) -> int:
        """Layers spanned (1 on a flat grid)."""
        return max(cell[0] for cell in self.cells) + 1 if len(self.cells[0]) == 3 else 1

    @property
    def on_grid(self) -> Grid:
        """The :class:`~polytile.grids.Grid` the piece lives on."""
        return grid(self.grid)

    def __len__(self) -> int:
        return len(self.cells)

    def __repr__(self) -> str:
        label = f"{self.name}: " if self.name else ""
        kind = "Polyomino" if self.grid == "square" else f"Polyform {self.grid}"
        return f"<{kind} {label}{self.to_text().replace(chr(10), '/')}>"

    def named(self, name: str) -> Polyomino:
        """The same cells under another name."""
        if self.grid == "square":
            return Polyomino(self.cells, name)
        return _checked(self.cells, name, self.grid)  # the cells are valid already

    # -- symmetry ----------------------------------------------------------------------
    def transform(self, k: int) -> Polyomino:
        """Image under symmetry ``k`` (index into :data:`TRANSFORMS`, or into the group of
        the piece's grid), normalized, same name."""
        if self.grid == "square":
            return Polyomino(tuple(apply_transform(k, r, c) for r, c in self.cells), self.name)
        g = grid(self.grid)
        # the image of a valid shape is one: normalized, not checked again
        return _checked(g.normalize(g.transform(k, c) for c in self.cells), self.name, g.name)

    def orientations(self, one_sided: bool = False) -> tuple[Polyomino, ...]:
        """The distinct fixed orientations, in order of first appearance under the symmetries.

        Parameters
        ----------
        one_sided
            Only rotations (the piece may not be turned over).

        Notes
        -----
        A free polyomino has 1, 2, 4 or 8 orientations; ``len(orientations())`` is 8 divided
        by the order of its symmetry group.
        """
        return tuple(shape for _, shape in self.oriented(one_sided))

    def oriented(self, one_sided: bool = False) -> tuple[tuple[int, Polyomino], ...]:
        """Like :meth:`orientations`, each paired with the first symmetry that produces it."""
        # The cache keys on cells only (names are not part of the value): rename the results.
        return tuple((k, shape.named(self.name)) for k, shape in _oriented(self, one_sided))

    def stabilizer(self) -> tuple[int, ...]:
        """The symmetries that map the shape onto itself (always contains 0)."""
        return tuple(k for k in range(grid(self.grid).order) if self.transform(k) == self)

    def canonical(self) -> Polyomino:
        """The least of the images under every symmetry of the grid (eight on squares): equal
        for two shapes iff they are the same free piece."""
        return _least(self, False).named(self.name)

    def canonical_one_sided(self) -> Polyomino:
        """The least of the rotations (four on squares): equal iff the same one-sided piece."""
        return _least(self, True).named(self.name)

    def mirror_image(self) -> Polyomino:
        """The piece turned over (a mirror image on its grid), normalized, same name."""
        return self.transform(grid(self.grid).mirror())

    # -- text --------------------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str | Sequence[str], name: str = "",
                  grid: str = "square") -> Polyomino:  # fmt: skip
        """Read ASCII art: ``.`` or space is empty, any other character is a cell.

        Blank leading and trailing lines are ignored, so triple-quoted strings work. On
        other grids the drawing follows :meth:`polytile.grids.Grid.read_text`: triangles one
        character each (up where line + column is even), hexagons two columns apart with
        each line shifted by one, cubes' layers side by side.

        Raises
        ------
        ShapeError
            If there are no cells or they are not edge-connected.
        """
        lines = text.splitlines() if isinstance(text, str) else list(text)
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        if grid != "square":
            return cls._from_grid_text(lines, name, grid, text)
        cells = [
            (r, c)
            for r, line in enumerate(lines)
            for c, ch in enumerate(line.rstrip())
            if ch not in ". "
        ]
        if not cells:
            raise ShapeError(f"no cells in shape text {text!r}")
        return cls(tuple(cells), name)

    @classmethod
    def _from_grid_text(cls, lines: list[str], name: str, grid_name: str,
                        text: object) -> Polyomino:  # fmt: skip
        g = grid(grid_name)
        try:
            chars = g.read_text(lines)
        except ValueError as exc:
            raise ShapeError(str(exc)) from None
        cells = [cell for cell, ch in chars.items() if ch != "."]
        if not cells:
            raise ShapeError(f"no cells in shape text {text!r}")
        return cls(tuple(cells), name, g.name)

    def to_text(self, full: str = "#", empty: str = ".") -> str:
        """ASCII art, one line per row, ``#`` for cells and ``.`` for gaps (on other grids
        as :meth:`polytile.grids.Grid.write_text` lays them out)."""
        if self.grid != "square":
            g = grid(self.grid)
            return "\n".join(g.write_text(dict.fromkeys(self.cells, full),
                                           empty if g.name != "hex" else " "))
        present = set(self.cells)
        return "\n".join(
            "".join(full if (r, c) in present else empty for c in range(self.width))
            for r in range(self.height)
        )


def _checked(cells: tuple[Cell, ...], name: str, grid_name: str) -> Polyomino:
    """A piece of cells known to be normalized and connected (a valid piece's image or
    renaming), made without checking them again: engines make thousands."""
    piece = object.__new__(Polyomino)
    object.__setattr__(piece, "cells", cells)
    object.__setattr__(piece, "name", name)
    object.__setattr__(piece, "grid", grid_name)
    return piece


@cache
def _least(p: Polyomino, one_sided: bool) -> Polyomino:
    """The least image of ``p`` under the rotations, or every symmetry (cached: engines ask
    for the same pieces' forms again and again)."""
    g = grid(p.grid)
    return min(p.transform(k) for k in range(g.rotations if one_sided else g.order))


@cache
def _oriented(p: Polyomino, one_sided: bool) -> tuple[tuple[int, Polyomino], ...]:
    seen: dict[Polyomino, int] = {}
    g = grid(p.grid)
    for k in range(g.rotations if one_sided else g.order):
        image = p.transform(k)
        if image not in seen:
            seen[image] = k
    return tuple((k, shape) for shape, k in seen.items())


# -- named piece sets --------------------------------------------------------------------
def _seed_file(name: str) -> str:
    """Text of a data file in the project's ``seeds/`` folder (installed as polytile.seeds)."""
    try:
        return resources.files("polytile.seeds").joinpath(name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        # Running from a source checkout without installing: seeds/ sits beside the package.
        return (Path(__file__).resolve().parent.parent / "seeds" / name).read_text("utf-8")


def read_piece_file(text: str, source: str = "<string>") -> tuple[Polyomino, ...]:
    """Parse a piece file: blocks separated by blank lines, each a name line then ASCII art.

    Lines starting with ``;`` are comments, except the two that steer the reader (see
    :func:`read_piece_sets`): ``; grid: NAME`` draws the blocks after it on that grid of
    :mod:`polytile.grids` (``square`` until one says otherwise), ``; set: NAME`` starts a
    named set. This returns the pieces of every set, in the order of the file.

    Raises
    ------
    FormatError
        Naming the source and line of a block without shape, a bad shape, a repeated name
        (within a set), an unknown grid or a misplaced steering line.
    """
    return tuple(p for pieces in read_piece_sets(text, source).values() for p in pieces)


_STEER = re.compile(r";\s*(grid|set)\s*:(.*)$", re.IGNORECASE)


def read_piece_sets(text: str, source: str = "<string>") -> dict[str, tuple[Polyomino, ...]]:
    """Parse a piece file into named sets: each ``; set: NAME`` line starts the set ``NAME``
    (lower-cased), holding the blocks after it up to the next such line.

    Blocks before any set line form the set ``""`` (a file without set lines, such as
    ``seeds/pieces.txt``, is that one set). A ``; grid: NAME`` line (``square``, ``triangle``,
    ``hex``, ``cube`` or a name :func:`polytile.grids.grid` knows) sets the grid of the blocks
    after it, whatever set they are in; each block's drawing is read on its grid
    (:meth:`Polyomino.from_text`). Names are unique within a set.

    Examples
    --------
    >>> sets = read_piece_sets('''
    ... ; set: bars
    ... ; grid: hex
    ... I2
    ... # #
    ...
    ... I3
    ... # # #
    ... ''')
    >>> [(p.name, p.grid, p.size) for p in sets["bars"]]
    [('I2', 'hex', 2), ('I3', 'hex', 3)]

    Raises
    ------
    FormatError
        Naming the source and line of a block without shape, a bad shape (the line of the
        drawing where a grid's drawing rule is broken), a name repeated within a set, a set
        named twice or left empty, an unknown grid, or a set or grid line inside a block.
    """
    from polytile.errors import FormatError

    sets: dict[str, list[Polyomino]] = {}
    set_lines: dict[str, int] = {}
    current = ""
    grid_name = "square"
    block: list[tuple[int, str]] = []
    lines = [*text.splitlines(), ""]
    for lineno, line in enumerate(lines, start=1):
        if line.startswith(";"):
            steer = _STEER.match(line)
            if steer is None:
                continue
            if block:
                raise FormatError(f"a '; {steer[1].lower()}:' line belongs between pieces, not "
                                  "inside one: leave a blank line before it", source,
                                  f"line {lineno}")  # fmt: skip
            key, value = steer[1].lower(), steer[2].strip()
            if key == "grid":
                try:
                    grid_name = grid(value).name
                except UnknownNameError as exc:
                    raise FormatError(str(exc), source, f"line {lineno}") from exc
                continue
            current = value.lower()
            if not current:
                raise FormatError("a '; set:' line names the set after it", source,
                                  f"line {lineno}")  # fmt: skip
            if current in set_lines:
                raise FormatError(f"set {current!r} already started at line "
                                  f"{set_lines[current]}", source, f"line {lineno}")  # fmt: skip
            set_lines[current] = lineno
            sets[current] = []
            continue
        if line.strip():
            block.append((lineno, line))
            continue
        if not block:
            continue
        sets.setdefault(current, []).append(_read_block(block, grid_name, sets, current, source))
        block = []
    for name, pieces in sets.items():
        if not pieces:
            raise FormatError(f"set {name!r} has no pieces", source, f"line {set_lines[name]}")
    return {name: tuple(pieces) for name, pieces in sets.items()}


def _read_block(block: list[tuple[int, str]], grid_name: str, sets: dict[str, list[Polyomino]],
                current: str, source: str) -> Polyomino:  # fmt: skip
    """One block of a piece file (its lines with their numbers) as a piece on ``grid_name``."""
    from polytile.errors import FormatError

    (first, name), rows = block[0], [row for _, row in block[1:]]
    name = name.strip()
    if not rows:
        raise FormatError(f"piece {name!r} has no shape rows", source, f"line {first}")
    if any(p.name == name for p in sets.get(current, ())):
        within = f" in set {current!r}" if current else ""
        raise FormatError(f"piece name {name!r} repeated{within}", source, f"line {first}")
    try:
        return Polyomino.from_text(rows, name, grid_name)
    except ShapeError as exc:
        if grid_name == "square":
            raise FormatError(str(exc), source, f"line {first}") from exc
        # The grids name the line of the drawing that breaks their rule ("line 2, column 3:
        # ..."): say which line of the file that is.
        message, where = f"piece {name!r}: {exc}", first
        found = re.match(r"line (\d+)", str(exc))
        if found and 1 <= int(found[1]) <= len(rows):
            where = block[int(found[1])][0]
            rest = str(exc)[found.end() :]
            rest = rest[2:] if rest.startswith(", ") else f"this line{rest}"
            message = f"piece {name!r}: {rest}"
        raise FormatError(message, source, f"line {where}") from exc


@cache
def _blokus() -> tuple[Polyomino, ...]:
    return read_piece_file(_seed_file("pieces.txt"), "seeds/pieces.txt")


def _cityblocks_set() -> tuple[Polyomino, ...]:
    return tuple(p for p in _blokus() if p.name != "I1")


def _tetromino_set() -> tuple[Polyomino, ...]:
    return tuple(p for p in _blokus() if p.size == 4)


def _pentomino_set() -> tuple[Polyomino, ...]:
    return tuple(p for p in _blokus() if p.size == 5)


@cache
def _polyform_sets() -> dict[str, tuple[Polyomino, ...]]:
    return read_piece_sets(_seed_file("polyforms.txt"), "seeds/polyforms.txt")


def _polyform_set(name: str) -> Callable[[], tuple[Polyomino, ...]]:
    """The loader of set ``name`` of ``seeds/polyforms.txt``."""

    def load() -> tuple[Polyomino, ...]:
        return _polyform_sets()[name]

    load.__name__ = f"_{name.replace('-', '_')}_set"
    return load


PIECE_SETS: dict[str, str] = {
    "blokus": "the 21 Blokus pieces, sizes 1 to 5 (89 squares)",
    "cityblocks": "the 20 City Blocks pieces: Blokus without I1 (88 squares)",
    "tetrominoes": "the 5 free tetrominoes I4 O4 T4 L4 Z4",
    "pentominoes": "the 12 free pentominoes F5 I5 L5 N5 P5 T5 U5 V5 W5 X5 Y5 Z5",
    "hexiamonds": "the 12 free hexiamonds C6 E6 F6 G6 H6 I6 J6 O6 P6 S6 V6 X6 (triangle "
                  "grid, 72 triangles)",
    "tetrahexes": "the 7 free tetrahexes I4 J4 O4 P4 S4 U4 Y4 (hex grid, 28 hexagons)",
    "pentahexes": "the 22 free pentahexes A5 B5 ... Y5 (hex grid, 110 hexagons)",
    "soma": "the 7 Soma cube pieces V L T Z A B P, A and B mirror twins (cube grid, 27 cubes)",
    "solid-pentominoes": "the 12 pentominoes F5 ... Z5 as flat solids (cube grid, 60 cubes)",
    "pentacubes": "the 29 pentacubes as solids turn, mirror twins both present: the 12 flat "
                  "F5 ... Z5 and 17 more (cube grid, 145 cubes)",
}  # fmt: skip
_LOADERS: dict[str, Callable[[], tuple[Polyomino, ...]]] = {
    "blokus": _blokus,
    "cityblocks": _cityblocks_set,
    "tetrominoes": _tetromino_set,
    "pentominoes": _pentomino_set,
    **{name: _polyform_set(name) for name in ("hexiamonds", "tetrahexes", "pentahexes", "soma",
                                              "solid-pentominoes", "pentacubes")},
}  # fmt: skip


#: The grid of each named set (those not named here are of the square grid).
SET_GRIDS: dict[str, str] = {"hexiamonds": "triangle", "tetrahexes": "hex", "pentahexes": "hex",
                             "soma": "cube", "solid-pentominoes": "cube", "pentacubes": "cube"}


def sets_on(grid_name: str) -> list[str]:
    """The names of the named sets of one grid, in :data:`PIECE_SETS`' order."""
    return [name for name in PIECE_SETS if SET_GRIDS.get(name, "square") == grid_name]


def piece_set(name: str) -> tuple[Polyomino, ...]:
    """A named piece set (see :data:`PIECE_SETS`), each piece in its reference orientation.

    Raises
    ------
    UnknownNameError
        If ``name`` is not a known set.
    """
    key = name.strip().lower()
    if key not in _LOADERS:
        raise UnknownNameError("piece set", name, sorted(PIECE_SETS))
    return _LOADERS[key]()


def piece(name: str) -> Polyomino:
    """A Blokus piece by name (``"I1"`` ... ``"Z5"``); case-insensitive.

    Raises
    ------
    UnknownNameError
        If no piece has that name.
    """
    for p in _blokus():
        if p.name.lower() == name.strip().lower():
            return p
    raise UnknownNameError("piece", name, [p.name for p in _blokus()])


#: A piece on any grid: the name reads better than "polyomino" beside hexagons and cubes.
Polyform = Polyomino
