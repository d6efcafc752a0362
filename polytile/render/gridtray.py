"""The pieces of a puzzle's tray on the triangle, hex and cube grids
(:mod:`polytile.render.puzzle` lays the tray out): each piece as its grid draws it, in text
(:meth:`polytile.grids.Grid.write_text`, one character per cell) and as drawing items
(:mod:`polytile.render.griddraw`'s triangles and hexagons; a piece of cubes drawn
isometric, the solid assembled, turned when its own orientation would hide a cube).

Examples
--------
>>> from polytile.render.scene import TrayPiece
>>> print("\\n".join(piece_lines(TrayPiece("Y4", ((0, 0), (0, 1), (1, 0), (2, 0)), "x1",
...                                         "hex"))))
Y Y
 Y
  Y
>>> corner = TrayPiece("A", ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)), "x1", "cube")
>>> turned(corner)  # as given, its corner cube would hide behind the three others
((0, 1, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1))
"""

from __future__ import annotations

from polytile.grids import grid
from polytile.render.drawing import Item, bounds, moved
from polytile.render.griddraw import grid_drawing, shown_cubes
from polytile.render.grids import Coord, GridScene, GridShape
from polytile.render.scene import TrayPiece, piece_letter

__all__ = ["piece_art", "piece_lines", "turned"]


def turned(piece: TrayPiece) -> tuple[Coord, ...]:
    """The piece's cells as drawn: a piece of cubes as given when its isometric drawing
    shows every cube, else turned by the first rotation that does, lying lowest; other
    grids' pieces as given.

    Notes
    -----
    Rotations only, which every puzzle allows (a one-sided piece is not turned over). Tries
    at most the cube's 24 rotations, each linear in the cubes.
    """
    g = grid(piece.grid)
    if g.name != "cube":
        return piece.cells
    start = g.normalize(piece.cells)

    def turn(k: int) -> tuple[Coord, ...]:
        return g.normalize(g.transform(k, c) for c in start)

    def worse(k: int) -> tuple[int, bool, int, int]:
        cells = turn(k)
        hidden = len(cells) - len(shown_cubes(cells))
        return (hidden, k != 0, max(z for z, _, _ in cells), k)

    return turn(min(range(g.rotations), key=worse))


def piece_lines(piece: TrayPiece) -> list[str]:
    """The piece in text as its grid draws it: its letter on each cell (the first character
    of its name), spaces between (``.`` in a piece of cubes' layers, side by side)."""
    g = grid(piece.grid)
    chars = dict.fromkeys(turned(piece), piece_letter(piece.name))
    return g.write_text(chars, "." if g.name == "cube" else " ")


def piece_art(piece: TrayPiece, cell: int, fill: str) -> tuple[tuple[Item, ...], float, float]:
    """The piece drawn as a board of its grid holding only it (triangles, hexagons; cubes
    isometric), filled with ``fill``, ``cell`` pixels a cell, without its letter.

    Returns
    -------
    items, width, height
        The drawing items, moved so that the box around the cells starts at (0, 0), and
        that box's size in pixels. Flat pieces hold a ``piece`` group of ``cell`` polygons;
        a piece of cubes a ``cube`` group per cube (its ``data-cell`` as turned by
        :func:`turned`).
    """
    g = grid(piece.grid)
    cells = turned(piece)
    extent = [1 + max(cell[i] for cell in cells) for i in range(g.dims)]
    layers, rows, cols = extent if g.dims == 3 else (1, *extent)
    shape = GridShape(piece.name, piece_letter(piece.name), fill, frozenset(cells), False)
    scene = GridScene(g, rows, cols, layers, frozenset(cells), frozenset(), (shape,))
    drawing = grid_drawing(scene, cell, None, "isometric" if g.name == "cube" else "layers")
    x0, y0, x1, y1 = bounds(drawing.items)
    return moved(drawing.items, -x0, -y0, labels=False), x1 - x0, y1 - y0
