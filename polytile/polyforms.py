"""Every polyform of a size on a grid: polyominoes, polyiamonds, polyhexes and polycubes.

:func:`enumerate_polyforms` lists the free pieces of ``size`` cells on a grid of
:mod:`polytile.grids` (or the one-sided ones, which may be turned but not turned over), each in
its canonical orientation (:meth:`~polytile.geometry.Polyomino.canonical`, or
:meth:`~polytile.geometry.Polyomino.canonical_one_sided`), sorted by that orientation's cells.
:func:`known_names` finds what the named piece sets (:data:`polytile.geometry.PIECE_SETS`)
call a shape.

On the cube grid "one-sided" is how a solid piece can really be turned (the 24 rotations);
free pieces may also be mirrored (all 48 symmetries), which no hand can do to a solid piece.

Examples
--------
>>> from polytile.polyforms import enumerate_polyforms
>>> [len(enumerate_polyforms("hex", n)) for n in range(1, 6)]
[1, 1, 3, 7, 22]
>>> len(enumerate_polyforms("cube", 4, one_sided=True))  # the Soma tetracubes and I, O
8
>>> [p.to_text() for p in enumerate_polyforms("triangle", 4)]  # up where line + column is even
['####', '###\\n#..', '.###\\n..#.']
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import cast

from polytile.errors import ShapeError
from polytile.geometry import PIECE_SETS, Cell, Polyomino, piece_set
from polytile.grids import Grid, grid

__all__ = ["MAX_SIZES", "enumerate_polyforms", "known_names"]

Coord = tuple[int, ...]
Shape = tuple[Coord, ...]

#: The largest size :func:`enumerate_polyforms` agrees to list on each grid. Each takes a few
#: seconds and about 150 MB at that size (17,073 free polyominoes of 11 squares, 9,235
#: polyiamonds of 13 triangles, 6,572 polyhexes of 9 hexagons, 6,922 one-sided polycubes of
#: 8 cubes), and every size more multiplies both by four or five.
MAX_SIZES: dict[str, int] = {"square": 11, "triangle": 13, "hex": 9, "cube": 8}


def enumerate_polyforms(grid_name: str | Grid, size: int,
                        one_sided: bool = False) -> tuple[Polyomino, ...]:  # fmt: skip
    """Every free (or one-sided) polyform of ``size`` cells on a grid.

    Parameters
    ----------
    grid_name
        ``"square"``, ``"triangle"``, ``"hex"`` or ``"cube"`` (or a
        :class:`~polytile.grids.Grid`; the names :func:`polytile.grids.grid` knows).
    size
        Cells per piece, from 1 to the grid's :data:`MAX_SIZES` entry.
    one_sided
        Count a piece and its mirror image as two pieces when no rotation turns one into the
        other (pieces may be rotated, not turned over; on the cube grid, how a solid piece
        really turns).

    Returns
    -------
    tuple of Polyomino
        Each piece once, in its canonical orientation (the least of its images under the
        grid's symmetries, or under its rotations when ``one_sided``), the pieces sorted by
        those orientations' cells (as tuples), named ``"1"``, ``"2"``, ... in that order.
        The order depends on the shapes alone, not on how they were found.

    Raises
    ------
    ShapeError
        If ``size`` is below 1 or above the grid's limit in :data:`MAX_SIZES` (the message
        names the limit).
    UnknownNameError
        If no grid has that name.

    Examples
    --------
    >>> [p.to_text() for p in enumerate_polyforms("square", 3)]
    ['###', '##\\n#.']
    >>> len(enumerate_polyforms("square", 5, one_sided=True))
    18

    Notes
    -----
    Pieces of size ``n`` are grown from those of size ``n - 1``, each in its canonical
    orientation, by one neighbouring cell at a time: every piece has a cell whose removal
    leaves it connected, so every piece is reached. A grown shape is looked up among the
    orientations of the pieces already found and, when new, canonicalised and all its
    orientations recorded, so that the work is about (pieces of size ``n - 1``) x (their
    free neighbours) lookups plus (pieces of size ``n``) x (symmetries of the grid) images.
    One-sided pieces are the free ones plus the mirror image of each that no rotation
    reaches. Results are cached per grid and size.
    """
    g = grid(grid_name)
    if isinstance(size, bool) or not isinstance(size, int):
        raise ShapeError(f"a polyform's size is a whole number of cells, not {size!r}")
    limit = MAX_SIZES[g.name]
    if size < 1:
        raise ShapeError(f"a polyform has at least one {g.cell_word[0]}, not {size}")
    if size > limit:
        raise ShapeError(
            f"polyforms of {size} {g.cell_word[1]} are too many to list: the {g.name} grid's "
            f"limit is {limit} {g.cell_word[1]}"
        )
    shapes = _one_sided(g.name, size) if one_sided else _free(g.name, size)
    # Polyomino's cells are typed as the square grid's pairs; a cube's are triples
    return tuple(Polyomino(cast("tuple[Cell, ...]", cells), str(i), g.name)
                 for i, cells in enumerate(shapes, start=1))  # fmt: skip


@cache
def _tables(name: str) -> tuple[dict[Coord, Coord], ...]:
    """Per symmetry of the grid, a memo of cell -> image (filled as cells are met)."""
    return tuple({} for _ in range(grid(name).order))


def _images(g: Grid, cells: Shape, count: int) -> list[Shape]:
    """The normalized images of ``cells`` under the grid's first ``count`` symmetries."""
    out = []
    for k, table in enumerate(_tables(g.name)[:count]):
        image = []
        for c in cells:
            t = table.get(c)
            if t is None:
                t = table[c] = g.transform(k, c)
            image.append(t)
        out.append(g.normalize(image))
    return out


@cache
def _free(name: str, size: int) -> tuple[Shape, ...]:
    """The canonical free shapes of ``size`` cells, sorted."""
    g = grid(name)
    if size == 1:
        return (min(_images(g, ((0,) * g.dims,), g.order)),)
    seen: set[Shape] = set()  # every orientation of every piece found so far
    found: list[Shape] = []
    for shape in _free(name, size - 1):
        present = set(shape)
        grown = {n for c in shape for n in g.neighbours(c) if n not in present}
        for cell in grown:
            fixed = g.normalize((*shape, cell))
            if fixed in seen:
                continue
            images = _images(g, fixed, g.order)
            seen.update(images)
            found.append(min(images))
    return tuple(sorted(found))


@cache
def _one_sided(name: str, size: int) -> tuple[Shape, ...]:
    """The canonical one-sided shapes of ``size`` cells, sorted."""
    g = grid(name)
    out: set[Shape] = set()
    for shape in _free(name, size):
        images = _images(g, shape, g.order)
        out.add(min(images[: g.rotations]))
        out.add(min(images[g.rotations :]))  # the mirror images' rotations
    return tuple(sorted(out))


def known_names(piece: Polyomino, one_sided: bool = False,
                sets: Iterable[str] | None = None) -> tuple[str, ...]:  # fmt: skip
    """What the named piece sets call ``piece``: the names of the pieces of the sets on its
    grid that are the same shape, each name once, in the order of the sets and their pieces.

    Parameters
    ----------
    piece
        Any piece.
    one_sided
        Match one-sided shapes: when no set names ``piece`` itself, a piece that is its
        mirror image (and not a rotation of it) gives its name with a prime, ``"J4'"``.
        Otherwise a piece of a set matches whenever it is the same free shape (so a chiral
        pair of a one-sided set, such as the Soma cube's ``A`` and ``B``, gives both names).
    sets
        The sets to look in (names of :data:`~polytile.geometry.PIECE_SETS`); all of them by
        default.

    Examples
    --------
    >>> from polytile.geometry import Polyform
    >>> bar = Polyform(((0, 0), (0, 1), (0, 2), (0, 3)), grid="hex")
    >>> known_names(bar)
    ('I4',)
    """
    same: list[str] = []
    mirrored: list[str] = []
    own = piece.canonical_one_sided() if one_sided else piece.canonical()
    for set_name in PIECE_SETS if sets is None else sets:
        for other in _set_shapes(set_name.strip().lower()):
            if other.grid != piece.grid or other.size != piece.size:
                continue
            if one_sided and other.canonical_one_sided() == own:
                same.append(other.name)
            elif one_sided and other.mirror_image().canonical_one_sided() == own:
                mirrored.append(other.name + "'")
            elif not one_sided and other.canonical() == own:
                same.append(other.name)
    # a primed name only where no set names the piece itself (a one-sided set holding both
    # twins names each already)
    return tuple(dict.fromkeys(same or mirrored))


@cache
def _set_shapes(name: str) -> tuple[Polyomino, ...]:
    return piece_set(name)
