"""Pictures of solutions and positions: terminal text, SVG and PNG.

This module draws the text (:func:`board_grid`, :func:`to_text`) and writes picture files
(:func:`save_picture`). The SVG drawing lives in :mod:`polytile.render_svg` and the PNG drawing
(with Pillow) in :mod:`polytile.render_png`; both are re-exported, so
``from polytile.render import to_svg`` (or ``to_png``) keeps working.

All three are drawn from one description of the picture (:func:`_scene`): the board, its
blocked cells, and a list of *shapes*. For a :class:`~polytile.formats.Solution` each
placement is a shape; for a :class:`~polytile.formats.Position` (which records cells, not
pieces) each edge-connected group of same-colour cells is one.

Colours: player pieces use the player's colour (blue ``#1f5fbf``, yellow ``#e8c21a``, red
``#d6312b``, green ``#2e9e44``); colour-less pieces of a tiling get a colour from
:data:`PALETTE` by their index, moved on to the next free one when an edge neighbour already
has it, so two touching pieces never look alike. Every shape's outline is drawn as a thick
line along its boundary (edges to another piece, to an empty or blocked cell, or the border).

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

import io
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from polytile.errors import FormatError
from polytile.formats import COLORS, Position, Solution, write_atomic
from polytile.geometry import Cell
from polytile.regions import color_components

if TYPE_CHECKING:  # at run time to_svg comes from __getattr__ (render_svg imports this module)
    from polytile.render_svg import to_svg

__all__ = [
    "BLOCKED_FILL",
    "EMPTY_FILL",
    "PALETTE",
    "PLAYER_FILLS",
    "board_grid",
    "save_picture",
    "to_svg",
    "to_text",
]

#: Fill of each colour letter.
PLAYER_FILLS: Mapping[str, str] = {"B": "#1f5fbf", "Y": "#e8c21a", "R": "#d6312b", "G": "#2e9e44"}
#: Fills of colour-less pieces, light enough for a black letter on top.
PALETTE: tuple[str, ...] = (
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
    "#bc80bd", "#ccebc5", "#ffed6f", "#a6cee3", "#b2df8a", "#fb9a99", "#cab2d6", "#e5c494",
)  # fmt: skip
#: Fill of blocked cells.
BLOCKED_FILL = "#3a3a3a"
#: Fill of empty cells.
EMPTY_FILL = "#ffffff"
_GRID = "#c8c8c8"
_INK = "#111111"
_CONFLICT = "*"
_CONFLICT_INK = "#c000c0"
_MARK = "+"
_GHOST = "@"
_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))

Picture = Solution | Position


@dataclass(frozen=True)
class _Shape:
    label: str  # piece name, or colour name for a position's group
    letter: str  # shown in text pictures and, for tilings, inside the piece
    fill: str
    cells: frozenset[Cell]  # inside the board only
    player: bool  # filled by player colour (no letter drawn in pictures)


@dataclass(frozen=True)
class _Scene:
    rows: int
    cols: int
    blocked: frozenset[Cell]
    shapes: tuple[_Shape, ...]
    marks: frozenset[Cell] = frozenset()
    mark_letter: str | None = None  # colour letter of the marks, None for neutral ink
    highlight: frozenset[Cell] = frozenset()
    highlight_letter: str | None = None  # colour letter of the highlight, if known

    def conflicts(self) -> list[Cell]:
        """Cells claimed twice: by two shapes, or by a shape and a blocked cell."""
        seen: set[Cell] = set(self.blocked)
        twice: set[Cell] = set()
        for shape in self.shapes:
            twice |= shape.cells & seen
            seen |= shape.cells
        return sorted(twice)


def _scene(obj: Picture) -> _Scene:
    if isinstance(obj, Solution):
        return _solution_scene(obj)
    if isinstance(obj, Position):
        return _position_scene(obj)
    raise TypeError(f"cannot draw a {type(obj).__name__}; give a Solution or a Position")


def _decorated(
    obj: Picture,
    marks: Iterable[Cell],
    mark_color: str | None,
    highlight: Iterable[Cell],
    highlight_color: str | None,
) -> _Scene:
    """The scene of ``obj`` with its marks and highlight (cells outside the board dropped)."""
    scene = _scene(obj)

    def inside(cells: Iterable[Cell]) -> frozenset[Cell]:
        pairs = ((int(r), int(c)) for r, c in cells)
        return frozenset((r, c) for r, c in pairs if 0 <= r < scene.rows and 0 <= c < scene.cols)

    return replace(
        scene,
        marks=inside(marks),
        mark_letter=_letter_of(mark_color, "mark_color"),
        highlight=inside(highlight),
        highlight_letter=_letter_of(highlight_color, "highlight_color"),
    )


def _letter_of(color: str | None, name: str) -> str | None:
    if color is None:
        return None
    if color not in COLORS:
        raise ValueError(f"{name} must be one of {', '.join(COLORS)} or None, got {color!r}")
    return COLORS[color]


def _solution_scene(s: Solution) -> _Scene:
    inside = [
        frozenset((r, c) for r, c in p.cells if 0 <= r < s.rows and 0 <= c < s.cols)
        for p in s.placements
    ]
    fills = _tiling_fills(inside)
    shapes = []
    for i, p in enumerate(s.placements):
        player = p.color is not None and p.color in COLORS
        letter = COLORS[p.color] if player and p.color else (p.piece[:1] or "?")
        fill = PLAYER_FILLS[letter] if player else fills[i]
        shapes.append(_Shape(p.piece, letter, fill, inside[i], player))
    blocked = frozenset((r, c) for r, c in s.blocked if 0 <= r < s.rows and 0 <= c < s.cols)
    return _Scene(s.rows, s.cols, blocked, tuple(shapes))


def _position_scene(p: Position) -> _Scene:
    names = {letter: name for name, letter in COLORS.items()}
    shapes = [
        _Shape(names[letter], letter, PLAYER_FILLS[letter], comp, True)
        for letter in COLORS.values()
        for comp in color_components(p.board, letter)
    ]
    blocked = frozenset(
        (r, c) for r, row in enumerate(p.board) for c, ch in enumerate(row) if ch == "#"
    )
    return _Scene(p.rows, p.cols, blocked, tuple(shapes))


def _tiling_fills(pieces: Sequence[frozenset[Cell]]) -> list[str]:
    """Palette colour per piece: its index's colour unless an edge neighbour took it."""
    owner: dict[Cell, list[int]] = {}
    for i, cells in enumerate(pieces):
        for cell in cells:
            owner.setdefault(cell, []).append(i)
    chosen: list[int] = []
    n = len(PALETTE)
    for i, cells in enumerate(pieces):
        taken = {
            chosen[j]
            for r, c in cells
            for dr, dc in _STEPS
            for j in owner.get((r + dr, c + dc), ())
            if j < i
        }
        pick = next((k % n for k in range(i, i + n) if k % n not in taken), i % n)
        chosen.append(pick)
    return [PALETTE[k] for k in chosen]


# -- text --------------------------------------------------------------------------------------
def board_grid(obj: Picture) -> list[str]:
    """The board as rows of one character per cell.

    Parameters
    ----------
    obj
        A solution (each cell shows its piece's colour letter, or the first letter of the
        piece name when the piece has no colour) or a position (its rows, unchanged).

    Returns
    -------
    list of str
        ``.`` empty, ``#`` blocked, letters for pieces, and ``*`` where a cell is claimed
        twice (two pieces, or a piece on a blocked cell), which only an invalid solution has.
        Cells outside the board are not shown.
    """
    if isinstance(obj, Position):
        return list(obj.board)
    scene = _scene(obj)
    grid = [["." for _ in range(scene.cols)] for _ in range(scene.rows)]
    for r, c in scene.blocked:
        grid[r][c] = "#"
    for shape in scene.shapes:
        for r, c in shape.cells:
            grid[r][c] = shape.letter if grid[r][c] == "." else _CONFLICT
    return ["".join(row) for row in grid]


def _want_color(color: bool | None) -> bool:
    if color is not None:
        return color
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(sys.stdout, "isatty", None)
    return bool(isatty and isatty())


def to_text(
    obj: Picture,
    color: bool | None = None,
    *,
    marks: Iterable[Cell] = (),
    mark_color: str | None = None,
    highlight: Iterable[Cell] = (),
    highlight_color: str | None = None,
) -> str:
    """A terminal picture, two characters per cell, one line per row.

    Parameters
    ----------
    obj
        A solution or a position.
    color
        True for ANSI colours, False for plain letters, None (default) for colours only
        when stdout is a terminal and the ``NO_COLOR`` environment variable is unset.
    marks
        Cells to mark, such as a Blokus colour's attach points: ``+`` on an empty cell in
        plain text, a ``•`` in ``mark_color`` in colour. Cells off the board are ignored.
    mark_color
        A colour name of :data:`~polytile.formats.COLORS` for the marks, or None for the
        terminal's own ink.
    highlight
        The cells of one placement to show apart: in plain text a piece cell's letter in lower
        case, an empty cell as the lower-case letter of ``highlight_color`` (``@`` without
        one); in colour ``▒▒`` over the piece's colour, ``░░`` in ``highlight_color``.
    highlight_color
        The colour name of the highlighted placement, or None.

    Returns
    -------
    str
        Plain: the letters of :func:`board_grid` separated by spaces. Coloured: player
        pieces as blocks of their colour; tiling pieces as their letter on a background
        that differs from every touching piece.

    Raises
    ------
    ValueError
        If ``mark_color`` or ``highlight_color`` is not a colour name.

    Notes
    -----
    In plain mode two touching pieces with the same first letter (two copies of a tetromino)
    look like one; the SVG and PNG pictures draw every outline.
    """
    scene = _decorated(obj, marks, mark_color, highlight, highlight_color)
    grid = board_grid(obj)
    if not _want_color(color):
        return "".join(" ".join(row) + "\n" for row in _plain_grid(scene, grid))
    return _rich_text(scene, grid)


def _plain_grid(scene: _Scene, grid: list[str]) -> list[str]:
    """``grid`` with the marks and the highlight of the module's text convention."""
    if not scene.marks and not scene.highlight:
        return grid
    cells = [list(row) for row in grid]
    for r, c in scene.marks:
        if cells[r][c] == ".":
            cells[r][c] = _MARK
    ghost = scene.highlight_letter.lower() if scene.highlight_letter else _GHOST
    for r, c in scene.highlight:
        cells[r][c] = ghost if cells[r][c] in (".", _MARK) else cells[r][c].lower()
    return ["".join(row) for row in cells]


def _rich_text(scene: _Scene, grid: list[str]) -> str:
    from rich.console import Console
    from rich.style import Style
    from rich.text import Text

    style_of: dict[Cell, tuple[str, Style]] = {}
    for shape in scene.shapes:
        if shape.player:
            look = ("  ", Style(bgcolor=shape.fill))
            lit = ("▒▒", Style(color="#ffffff", bgcolor=shape.fill))
        else:
            look = (f"{shape.letter} ", Style(color="#000000", bgcolor=shape.fill, bold=True))
            lit = (f"{shape.letter.lower()}▒", Style(color="#000000", bgcolor=shape.fill))
        for cell in shape.cells:
            style_of[cell] = lit if cell in scene.highlight else look
    # without a colour, the terminal's own ink
    ghost = ("░░", Style(color=PLAYER_FILLS.get(scene.highlight_letter or ""), bold=True))
    mark = ("• ", Style(color=PLAYER_FILLS.get(scene.mark_letter or ""), bold=True))
    text = Text()
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch == "#":
                text.append("  ", Style(bgcolor=BLOCKED_FILL))
            elif ch == _CONFLICT:
                text.append("**", Style(color="#ffffff", bgcolor=_CONFLICT_INK, bold=True))
            elif (r, c) in style_of:
                text.append(*style_of[(r, c)])
            elif (r, c) in scene.highlight:
                text.append(*ghost)
            elif (r, c) in scene.marks:
                text.append(*mark)
            else:
                text.append(". ", Style(color="#8a8a8a"))
        text.append("\n")
    truecolor = os.environ.get("COLORTERM", "").lower() in ("truecolor", "24bit")
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        force_terminal=True,
        color_system="truecolor" if truecolor else "256",
        no_color=False,
        width=max(80, 2 * scene.cols + 2),
        highlight=False,
        markup=False,
        emoji=False,
        legacy_windows=False,
    )
    console.print(text, end="", soft_wrap=True)
    return buffer.getvalue()


# -- geometry shared by SVG and PNG --------------------------------------------------------------
@dataclass(frozen=True)
class _Layout:
    cell: int
    margin: int
    left: int  # x of the board's left edge (more than the margin when the title is wider)
    top: int  # y of the board's top edge (title band above it)
    width: int
    height: int
    thick: int

    def x(self, col: float) -> float:
        return self.left + col * self.cell

    def y(self, row: float) -> float:
        return self.top + row * self.cell


def _layout(scene: _Scene, cell: int, title: str | None) -> _Layout:
    if not isinstance(cell, int) or isinstance(cell, bool) or not 4 <= cell <= 200:
        raise ValueError(f"cell size must be an integer from 4 to 200 pixels, got {cell!r}")
    margin = max(4, cell // 2)
    band = int(cell * 1.4) if title else 0
    board = scene.cols * cell
    # A generous guess at the caption's width (sans-serif averages ~0.6 em per character).
    caption = round(len(title) * cell * 0.75 * 0.62) if title else 0
    width = max(board, caption) + 2 * margin
    return _Layout(
        cell=cell,
        margin=margin,
        left=(width - board) // 2,
        top=margin + band,
        width=width,
        height=scene.rows * cell + 2 * margin + band,
        thick=max(2, round(cell / 8)),
    )


def _outline(cells: frozenset[Cell]) -> list[tuple[int, int, int, int]]:
    """Boundary of a set of cells as maximal straight segments ``(x0, y0, x1, y1)`` in grid
    units (x = column, y = row); horizontal ones first."""
    horizontal: dict[int, list[int]] = {}
    vertical: dict[int, list[int]] = {}
    for r, c in cells:
        if (r - 1, c) not in cells:
            horizontal.setdefault(r, []).append(c)
        if (r + 1, c) not in cells:
            horizontal.setdefault(r + 1, []).append(c)
        if (r, c - 1) not in cells:
            vertical.setdefault(c, []).append(r)
        if (r, c + 1) not in cells:
            vertical.setdefault(c + 1, []).append(r)
    segments = []
    for y, xs in sorted(horizontal.items()):
        segments += [(a, y, b, y) for a, b in _runs(xs)]
    for x, ys in sorted(vertical.items()):
        segments += [(x, a, x, b) for a, b in _runs(ys)]
    return segments


def _runs(units: Iterable[int]) -> list[tuple[int, int]]:
    """Unit intervals ``[u, u+1]`` merged into maximal ``(start, end)`` runs."""
    runs: list[tuple[int, int]] = []
    for u in sorted(set(units)):
        if runs and runs[-1][1] == u:
            runs[-1] = (runs[-1][0], u + 1)
        else:
            runs.append((u, u + 1))
    return runs


def _fill_or(letter: str | None, default: str) -> str:
    return PLAYER_FILLS[letter] if letter else default


def _mix(a: str, b: str, t: float) -> str:
    """The colour ``t`` of the way from ``#rrggbb`` ``a`` to ``b``."""
    x, y = int(a[1:], 16), int(b[1:], 16)
    return "#" + "".join(
        f"{round((x >> s & 255) * (1 - t) + (y >> s & 255) * t):02x}" for s in (16, 8, 0)
    )


def _under_highlight(scene: _Scene) -> dict[Cell, tuple[str, bool]]:
    """Fill under each highlighted cell, and True where that is a ghost (an empty cell shaded
    in the highlight colour)."""
    under = {cell: (BLOCKED_FILL, False) for cell in scene.blocked & scene.highlight}
    for shape in scene.shapes:
        under |= {cell: (shape.fill, False) for cell in shape.cells & scene.highlight}
    ghost = _mix(EMPTY_FILL, _fill_or(scene.highlight_letter, _INK), 0.35)
    return {cell: under.get(cell, (ghost, True)) for cell in sorted(scene.highlight)}


def _hatch(r: int, c: int) -> list[tuple[float, float, float, float]]:
    """Three diagonal strokes across cell ``(r, c)`` as ``(x0, y0, x1, y1)`` in grid units."""
    return [
        (c + s, r, c, r + s) if s <= 1 else (c + 1, r + s - 1, c + s - 1, r + 1)
        for s in (0.5, 1.0, 1.5)
    ]


def _label_cell(cells: frozenset[Cell]) -> Cell:
    """The cell nearest the centroid, where a piece's letter goes."""
    cr = sum(r for r, _ in cells) / len(cells)
    cc = sum(c for _, c in cells) / len(cells)
    return min(cells, key=lambda rc: ((rc[0] - cr) ** 2 + (rc[1] - cc) ** 2, rc))


# -- files -------------------------------------------------------------------------------------
def save_picture(
    obj: Picture,
    path: str | os.PathLike[str],
    cell: int = 24,
    title: str | None = None,
    *,
    marks: Iterable[Cell] = (),
    mark_color: str | None = None,
    highlight: Iterable[Cell] = (),
    highlight_color: str | None = None,
) -> None:
    """Write a picture whose kind follows the file suffix: ``.svg``, ``.png`` or ``.txt``.

    A ``.txt`` picture is the plain (colour-less) :func:`to_text`; ``cell`` and ``title``
    apply to SVG and PNG; the marks and the highlight (as for :func:`to_text` and
    :func:`to_svg`) to all three.

    Raises
    ------
    FormatError
        If the suffix is none of those three.
    ValueError
        If a colour is not a colour name.
    OSError
        If the file cannot be written.
    """
    suffix = Path(path).suffix.lower()
    marks, highlight = tuple(marks), tuple(highlight)
    if suffix == ".svg":
        from polytile.render_svg import to_svg

        svg = to_svg(
            obj,
            cell,
            title,
            marks=marks,
            mark_color=mark_color,
            highlight=highlight,
            highlight_color=highlight_color,
        )
        write_atomic(path, svg)
    elif suffix == ".png":
        from polytile.render_png import to_png

        to_png(obj, path, cell, title, marks=marks, mark_color=mark_color, highlight=highlight,
               highlight_color=highlight_color)  # fmt: skip
    elif suffix == ".txt":
        text = to_text(
            obj,
            False,
            marks=marks,
            mark_color=mark_color,
            highlight=highlight,
            highlight_color=highlight_color,
        )
        write_atomic(path, text)
    else:
        raise FormatError(
            f"cannot tell the picture kind from suffix {suffix or '(none)'!r}; "
            "use .svg, .png or .txt",
            str(path),
        )


def __getattr__(name: str) -> object:
    # The SVG drawing lives in polytile.render_svg and the PNG drawing in polytile.render_png
    # (it needs Pillow); both import this module, so they are loaded on first use, and to_svg
    # and to_png are still importable from here.
    if name == "to_svg":
        from polytile.render_svg import to_svg

        return to_svg
    if name == "to_png":
        from polytile.render_png import to_png

        return to_png
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
