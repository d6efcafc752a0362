"""Pictures of solutions, positions and puzzles to solve: terminal text, SVG and PNG.

A small package: :mod:`~polytile.render.scene` describes a picture (a public
:class:`~polytile.render.scene.Scene`: the board, its blocked cells and a list of *shapes*),
:mod:`~polytile.render.text` draws text (:func:`board_grid`, :func:`to_text`),
:mod:`~polytile.render.svg` and :mod:`~polytile.render.png` (Pillow) draw pictures,
:mod:`~polytile.render.puzzle` adds, for a puzzle to solve (a :class:`PuzzlePicture`), the
tray of its pieces under the board they draw, :mod:`~polytile.render.files` writes them
(:func:`save_picture`, :func:`save_sheet`) and :mod:`~polytile.render.sheet` lays many out
on one page. Solutions on the triangle, hex and cube grids are drawn by
:mod:`~polytile.render.grids` (text, and the scene: letters, colours, the board's shape) and
:mod:`~polytile.render.griddraw` (triangles, hexagons, a box's layers side by side, or with
``view="isometric"`` the box assembled), written as SVG and PNG from one list of polygons by
:mod:`~polytile.render.drawing`; the same functions reach them, and a puzzle's tray draws
its pieces of those grids with :mod:`~polytile.render.gridtray`. Everything public is
re-exported here. The package reads solutions and
positions by their fields and never imports :mod:`polytile.formats`, so the documents there
can draw themselves in notebooks.

All three kinds of picture are drawn from one scene. For a :class:`~polytile.formats.Solution` each
placement is a shape; for a :class:`~polytile.formats.Position` (which records cells, not
pieces) each edge-connected group of same-colour cells is one.

Colours: player pieces use the player's colour (blue ``#1f5fbf``, yellow ``#e8c21a``, red
``#d6312b``, green ``#2e9e44``); colour-less pieces of a tiling get a colour from
:data:`PALETTE` by their index, moved on to the next free one when an edge neighbour already
has it, so two touching pieces never look alike. Every shape's outline is drawn as a thick
line along its boundary (edges to another piece, to an empty or blocked cell, or the border).

The pieces a puzzle gave in place (the indices a solution's ``given`` field lists) are
hatched in the SVG and PNG (falling strokes), and shown in lower case in text with a line
under the picture naming them (``lower case: given in place (L5)``).

Two optional layers go on top (both off by default, leaving the pictures unchanged):

- *marks* (``marks=``, ``mark_color=``), such as the cells where the Blokus colour to move
  may attach a piece: a dot with a dark ring in the SVG and PNG, filled with the colour's
  fill (or dark ink when ``mark_color`` is None). In text, a marked empty cell shows ``+``
  (plain) or a ``•`` in the colour (terminal); a marked cell that is not empty keeps its
  letter, since what covers it matters more.
- a *highlight* (``highlight=``, ``highlight_color=``), the cells of one placement (a move
  just played, or one recommended): in the SVG and PNG a thick black border with a white
  line along its middle around the group, and a dark hatch over its cells; empty highlighted
  cells (a move not yet played) are first shaded in a pale ``highlight_color``. In plain
  text a highlighted cell shows its letter in lower case (``b`` for a ``B`` cell); an empty
  one shows the lower-case letter of ``highlight_color`` (``y``: yellow would go here), or
  ``@`` without one; ``#`` and ``*`` stay. In the terminal a highlighted piece cell is drawn
  as ``▒▒`` over its colour, an empty one as ``░░`` in ``highlight_color``.

The plain text stays two characters per cell (``+``, ``@`` and lower-case letters are not
cells of the position format, so it is no longer a loadable board when either is used).

Examples
--------
>>> from polytile.formats import PlacedPiece, Solution
>>> from polytile.render import board_grid, to_text
>>> s = Solution("demo", 2, 3, (PlacedPiece("V3", ((0, 0), (1, 0), (1, 1))),), blocked=((0, 2),))
>>> board_grid(s)
['V.#', 'VV.']
>>> print(to_text(s, color=False), end="")
V . #
V V .
>>> print(to_text(s, color=False, marks=[(0, 1)], highlight=[(1, 0), (1, 1)]), end="")
V + #
v v .
"""

from __future__ import annotations

from polytile.render.files import save_picture, save_sheet
from polytile.render.grids import VIEWS
from polytile.render.png import png_bytes, to_png
from polytile.render.scene import (
    BLOCKED_FILL,
    EMPTY_FILL,
    PALETTE,
    PLAYER_FILLS,
    Picture,
    PuzzlePicture,
    Scene,
    TrayGroup,
    TrayPiece,
)
from polytile.render.sheet import contact_sheet, contact_sheet_png
from polytile.render.svg import to_svg
from polytile.render.text import board_grid, to_text

__all__ = [
    "BLOCKED_FILL",
    "EMPTY_FILL",
    "PALETTE",
    "PLAYER_FILLS",
    "VIEWS",
    "Picture",
    "PuzzlePicture",
    "Scene",
    "TrayGroup",
    "TrayPiece",
    "board_grid",
    "contact_sheet",
    "contact_sheet_png",
    "png_bytes",
    "save_picture",
    "save_sheet",
    "to_png",
    "to_svg",
    "to_text",
]
