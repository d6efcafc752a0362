"""Polyominoes: immutable shapes, their symmetries, and the named piece sets.

A :class:`Polyomino` is a finite, edge-connected set of grid cells ``(row, col)``, stored
normalized (smallest row and column are 0) and sorted, so two fixed polyominoes are equal
exactly when their cells are. The eight symmetries of the square act on it; the *free*
orientations of a piece are its distinct images under all eight, the *one-sided* ones under
the four rotations.

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

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from polytile.errors import ShapeError, UnknownNameError

__all__ = [
    "PIECE_SETS",
    "TRANSFORMS",
    "Cell",
    "Polyomino",
    "apply_transform",
    "compose_transforms",
    "invert_transform",
    "piece",
    "piece_set",
    "read_piece_file",
    "transform_name",
]

Cell = tuple[int, int]

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

    def __post_init__(self) -> None:
        raw = [(int(r), int(c)) for r, c in self.cells]
        if not raw:
            raise ShapeError("a polyomino needs at least one cell")
        if len(set(raw)) != len(raw):
            raise ShapeError(f"repeated cells in polyomino {sorted(raw)}")
        cells = _normalize(raw)
        if not _is_connected(cells):
            raise ShapeError(f"cells {list(cells)} are not edge-connected")
        object.__setattr__(self, "cells", cells)

    # -- basic facts -------------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.cells)

    @property
    def height(self) -> int:
        """Rows spanned."""
        return max(r for r, _ in self.cells) + 1

    @property
    def width(self) -> int:
        """Columns spanned."""
        return max(c for _, c in self.cells) + 1

    def __len__(self) -> int:
        return len(self.cells)

    def __repr__(self) -> str:
        label = f"{self.name}: " if self.name else ""
        return f"<Polyomino {label}{self.to_text().replace(chr(10), '/')}>"

    def named(self, name: str) -> Polyomino:
        """The same cells under another name."""
        return Polyomino(self.cells, name)

    # -- symmetry ----------------------------------------------------------------------
    def transform(self, k: int) -> Polyomino:
        """Image under symmetry ``k`` (index into :data:`TRANSFORMS`), normalized, same name."""
        return Polyomino(tuple(apply_transform(k, r, c) for r, c in self.cells), self.name)

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
        return tuple(k for k in range(8) if self.transform(k) == self)

    def canonical(self) -> Polyomino:
        """The least of the eight images: equal for two shapes iff they are the same free piece."""
        return min(self.transform(k) for k in range(8)).named(self.name)

    def canonical_one_sided(self) -> Polyomino:
        """The least of the four rotations: equal iff the same one-sided piece."""
        return min(self.transform(k) for k in range(4)).named(self.name)

    # -- text --------------------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str | Sequence[str], name: str = "") -> Polyomino:
        """Read ASCII art: ``.`` or space is empty, any other character is a cell.

        Blank leading and trailing lines are ignored, so triple-quoted strings work.

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
        cells = [
            (r, c)
            for r, line in enumerate(lines)
            for c, ch in enumerate(line.rstrip())
            if ch not in ". "
        ]
        if not cells:
            raise ShapeError(f"no cells in shape text {text!r}")
        return cls(tuple(cells), name)

    def to_text(self, full: str = "#", empty: str = ".") -> str:
        """ASCII art, one line per row, ``#`` for cells and ``.`` for gaps."""
        present = set(self.cells)
        return "\n".join(
            "".join(full if (r, c) in present else empty for c in range(self.width))
            for r in range(self.height)
        )


@cache
def _oriented(p: Polyomino, one_sided: bool) -> tuple[tuple[int, Polyomino], ...]:
    seen: dict[Polyomino, int] = {}
    for k in range(4 if one_sided else 8):
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

    Lines starting with ``;`` are comments.

    Raises
    ------
    FormatError
        Naming the source and line of a block without shape, a bad shape or a repeated name.
    """
    from polytile.errors import FormatError

    pieces: list[Polyomino] = []
    names: set[str] = set()
    block: list[tuple[int, str]] = []
    lines = [*text.splitlines(), ""]
    for lineno, line in enumerate(lines, start=1):
        if line.startswith(";"):
            continue
        if line.strip():
            block.append((lineno, line))
            continue
        if not block:
            continue
        (first, name), rows = block[0], [row for _, row in block[1:]]
        name = name.strip()
        if not rows:
            raise FormatError(f"piece {name!r} has no shape rows", source, f"line {first}")
        if name in names:
            raise FormatError(f"piece name {name!r} repeated", source, f"line {first}")
        try:
            pieces.append(Polyomino.from_text(rows, name))
        except ShapeError as exc:
            raise FormatError(str(exc), source, f"line {first}") from exc
        names.add(name)
        block = []
    return tuple(pieces)


@cache
def _blokus() -> tuple[Polyomino, ...]:
    return read_piece_file(_seed_file("pieces.txt"), "seeds/pieces.txt")


def _cityblocks_set() -> tuple[Polyomino, ...]:
    return tuple(p for p in _blokus() if p.name != "I1")


def _tetromino_set() -> tuple[Polyomino, ...]:
    return tuple(p for p in _blokus() if p.size == 4)


def _pentomino_set() -> tuple[Polyomino, ...]:
    return tuple(p for p in _blokus() if p.size == 5)


PIECE_SETS: dict[str, str] = {
    "blokus": "the 21 Blokus pieces, sizes 1 to 5 (89 squares)",
    "cityblocks": "the 20 City Blocks pieces: Blokus without I1 (88 squares)",
    "tetrominoes": "the 5 free tetrominoes I4 O4 T4 L4 Z4",
    "pentominoes": "the 12 free pentominoes F5 I5 L5 N5 P5 T5 U5 V5 W5 X5 Y5 Z5",
}
_LOADERS: dict[str, Callable[[], tuple[Polyomino, ...]]] = {
    "blokus": _blokus,
    "cityblocks": _cityblocks_set,
    "tetrominoes": _tetromino_set,
    "pentominoes": _pentomino_set,
}


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
