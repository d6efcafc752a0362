"""The description every picture is drawn from: a :class:`Scene` (the board, its blocked
cells, the shapes on it, marks and a highlight), a :class:`PuzzlePicture` (a puzzle to solve:
its board as set up and the tray of its pieces) and the geometry SVG and PNG share.

:func:`scene_of` builds the scene of a solution (each placement is a shape) or a position
(each edge-connected group of one colour is a shape). Solutions and positions are read by
their fields (``rows``, ``cols``, ``placements``, ``blocked``; ``board``), so this module does
not import :mod:`polytile.formats`, which may then draw its own documents without an import
cycle. :func:`layout` places a scene on a canvas; :func:`outline`, :func:`hatch`,
:func:`label_cell` and the colour helpers give what the SVG and PNG writers draw.

Examples
--------
>>> from polytile.formats import PlacedPiece, Solution
>>> s = Solution("demo", 2, 3, (PlacedPiece("V3", ((0, 0), (1, 0), (1, 1))),), blocked=((0, 2),))
>>> scene = scene_of(s)
>>> scene.rows, scene.cols, sorted(scene.blocked), [sh.label for sh in scene.shapes]
(2, 3, [(0, 2)], ['V3'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeAlias

from polytile.colors import COLORS
from polytile.geometry import Cell
from polytile.regions import color_components

__all__ = [
    "BLOCKED_FILL",
    "CONFLICT",
    "CONFLICT_INK",
    "EMPTY_FILL",
    "GHOST",
    "GRID_INK",
    "INK",
    "MARK",
    "PALETTE",
    "PLAYER_FILLS",
    "Layout",
    "Picture",
    "PlacedLike",
    "PositionLike",
    "PuzzlePicture",
    "Scene",
    "Shape",
    "SolutionLike",
    "TrayGroup",
    "TrayPiece",
    "decorated",
    "fill_or",
    "given_indices",
    "hatch",
    "label_cell",
    "layout",
    "mix",
    "outline",
    "piece_letter",
    "scene_of",
    "under_highlight",
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
GRID_INK = "#c8c8c8"
INK = "#111111"
CONFLICT = "*"
CONFLICT_INK = "#c000c0"
MARK = "+"
GHOST = "@"
_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))

class PlacedLike(Protocol):
    """A placement as a picture reads it (:class:`~polytile.formats.PlacedPiece`)."""

    @property
    def piece(self) -> str: ...
    @property
    def cells(self) -> Sequence[Cell]: ...
    @property
    def color(self) -> str | None: ...


class SolutionLike(Protocol):
    """A solution as a picture reads it (:class:`~polytile.formats.Solution`): read by its
    fields, so that this module needs no import of :mod:`polytile.formats`, which draws its
    own documents with it."""

    @property
    def rows(self) -> int: ...
    @property
    def cols(self) -> int: ...
    @property
    def placements(self) -> Sequence[PlacedLike]: ...
    @property
    def blocked(self) -> Sequence[Cell]: ...


class PositionLike(Protocol):
    """A position as a picture reads it (:class:`~polytile.formats.Position`)."""

    @property
    def rows(self) -> int: ...
    @property
    def cols(self) -> int: ...
    @property
    def board(self) -> Sequence[str]: ...


@dataclass(frozen=True)
class TrayPiece:
    """A piece in a puzzle's tray: its name, its cells in the orientation drawn, its supply
    in words (``"x2"``, ``"0-2"``, ``"up to 2"``, ``"any number"``) and the name of its grid
    (:mod:`polytile.grids`: cells ``(row, col)``, or ``(layer, row, col)`` for cubes).

    A piece of cubes is drawn turned, by a rotation, when its own orientation would hide a
    cube from the isometric drawing (:func:`polytile.render.gridtray.turned`).

    Raises
    ------
    ValueError
        If it has no cells, a cell at a negative coordinate or with the wrong number of
        coordinates for its grid.
    UnknownNameError
        If no grid has the name ``grid``.
    """

    name: str
    cells: tuple[tuple[int, ...], ...]
    supply: str
    grid: str = "square"

    def __post_init__(self) -> None:
        if self.grid == "square":
            cells: tuple[tuple[int, ...], ...] = tuple((int(r), int(c)) for r, c in self.cells)
            if not cells or min(min(r, c) for r, c in cells) < 0:
                raise ValueError(f"a tray piece has cells, none at a negative row or column: "
                                 f"{self.name!r} has {list(cells)}")  # fmt: skip
            object.__setattr__(self, "cells", cells)
            return
        from polytile.grids import grid

        g = grid(self.grid)
        cells = tuple(tuple(int(x) for x in cell) for cell in self.cells)
        if not cells or any(len(cell) != g.dims or min(cell) < 0 for cell in cells):
            raise ValueError(f"a tray piece of the {g.name} grid has cells of {g.dims} "
                             f"coordinates, none negative: {self.name!r} has "
                             f"{[list(c) for c in cells]}")  # fmt: skip
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "grid", g.name)


@dataclass(frozen=True)
class TrayGroup:
    """Pieces of a tray under one heading (``"Pieces to place"``, ``"Choose 10 of these"``)."""

    heading: str
    pieces: tuple[TrayPiece, ...]


@dataclass(frozen=True)
class PuzzlePicture:
    """A puzzle to solve, as drawn: its board as set up (blocked cells, the pieces given in
    place, marked given) and the tray of the pieces still to place.

    Attributes
    ----------
    name
        The puzzle's name: the picture's caption.
    setup
        The board as a solution holding only the given pieces, its ``given`` field marking
        them (a :class:`~polytile.formats.Solution`).
    tray
        The pieces to place, in groups.
    description
        Said after the name in text pictures.
    notes
        Lines said under the tray (``one-sided: ...``).
    """

    name: str
    setup: SolutionLike
    tray: tuple[TrayGroup, ...]
    description: str = ""
    notes: tuple[str, ...] = ()


#: What can be drawn: a :class:`~polytile.formats.Solution`, a
#: :class:`~polytile.formats.Position`, or a puzzle with its tray (:class:`PuzzlePicture`).
Picture: TypeAlias = SolutionLike | PositionLike | PuzzlePicture


@dataclass(frozen=True)
class Shape:
    label: str  # piece name, or colour name for a position's group
    letter: str  # shown in text pictures and, for tilings, inside the piece
    fill: str
    cells: frozenset[Cell]  # inside the board only
    player: bool  # filled by player colour (no letter drawn in pictures)
    given: bool = False  # given in place by the puzzle: hatched in pictures, lower case in text


@dataclass(frozen=True)
class Scene:
    rows: int
    cols: int
    blocked: frozenset[Cell]
    shapes: tuple[Shape, ...]
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


def scene_of(obj: Picture) -> Scene:
    """The scene of a solution (it has ``placements``) or a position (it has ``board``); of
    a puzzle picture, its board's.

    Raises
    ------
    TypeError
        For anything else, and for a solution on a grid other than squares
        (:mod:`polytile.render.grids` draws those).
    """
    if isinstance(obj, PuzzlePicture):  # its board; the tray is drawn around it
        return _solution_scene(obj.setup)
    on = getattr(obj, "grid", "square") if hasattr(obj, "placements") else "square"
    if on != "square":
        raise TypeError(f"a solution on the {on} grid is drawn by polytile.render.grids, "
                        "not as a scene of squares")  # fmt: skip
    if hasattr(obj, "placements"):
        return _solution_scene(obj)
    if hasattr(obj, "board"):
        return _position_scene(obj)
    raise TypeError(f"cannot draw a {type(obj).__name__}; give a Solution or a Position")


def decorated(
    obj: Picture,
    marks: Iterable[Cell],
    mark_color: str | None,
    highlight: Iterable[Cell],
    highlight_color: str | None,
) -> Scene:
    """The scene of ``obj`` with its marks and highlight (cells outside the board dropped)."""
    scene = scene_of(obj)

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


def _solution_scene(s: Any) -> Scene:
    inside = [
        frozenset((r, c) for r, c in p.cells if 0 <= r < s.rows and 0 <= c < s.cols)
        for p in s.placements
    ]
    fills = _tiling_fills(inside)
    given = given_indices(s)
    shapes = []
    for i, p in enumerate(s.placements):
        player = p.color is not None and p.color in COLORS
        letter = COLORS[p.color] if player and p.color else piece_letter(p.piece)
        fill = PLAYER_FILLS[letter] if player else fills[i]
        shapes.append(Shape(p.piece, letter, fill, inside[i], player, i in given))
    blocked = frozenset((r, c) for r, c in s.blocked if 0 <= r < s.rows and 0 <= c < s.cols)
    return Scene(s.rows, s.cols, blocked, tuple(shapes))


def given_indices(solution: Any) -> frozenset[int]:
    """The placements of ``solution`` its puzzle gave in place: the indices its extra field
    ``given`` lists (reading a file checks them; others are ignored here)."""
    extra = getattr(solution, "extra", None)
    marked = extra.get("given") if isinstance(extra, Mapping) else None
    if not isinstance(marked, list):
        return frozenset()
    n = len(solution.placements)
    return frozenset(i for i in marked if type(i) is int and 0 <= i < n)


def piece_letter(name: str) -> str:
    """The letter a piece shows: its name's first character, or ``?`` when that would not
    print as one visible character (a control character read from a file, a space)."""
    first = name[:1]
    return first if first.isprintable() and not first.isspace() else "?"


def _position_scene(p: Any) -> Scene:
    names = {letter: name for name, letter in COLORS.items()}
    shapes = [
        Shape(names[letter], letter, PLAYER_FILLS[letter], comp, True)
        for letter in COLORS.values()
        for comp in color_components(p.board, letter)
    ]
    blocked = frozenset(
        (r, c) for r, row in enumerate(p.board) for c, ch in enumerate(row) if ch == "#"
    )
    return Scene(p.rows, p.cols, blocked, tuple(shapes))


def _tiling_fills(
    pieces: Sequence[frozenset[tuple[int, ...]]],
    neighbours: Callable[[tuple[int, ...]], Iterable[tuple[int, ...]]] | None = None,
) -> list[str]:
    """Palette colour per piece: its index's colour unless an edge neighbour took it (by the
    square's four steps, or by ``neighbours``: a grid's
    :meth:`~polytile.grids.Grid.neighbours`)."""

    def steps(cell: tuple[int, ...]) -> Iterable[tuple[int, ...]]:
        return ((cell[0] + dr, cell[1] + dc) for dr, dc in _STEPS)

    near = neighbours or steps
    owner: dict[tuple[int, ...], list[int]] = {}
    for i, cells in enumerate(pieces):
        for cell in cells:
            owner.setdefault(cell, []).append(i)
    chosen: list[int] = []
    n = len(PALETTE)
    for i, cells in enumerate(pieces):
        taken = {chosen[j] for cell in cells for other in near(cell)
                 for j in owner.get(other, ()) if j < i}  # fmt: skip
        pick = next((k % n for k in range(i, i + n) if k % n not in taken), i % n)
        chosen.append(pick)
    return [PALETTE[k] for k in chosen]


@dataclass(frozen=True)
class Layout:
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


#: How a board's squares may be named around its edge (``to_svg``'s ``coordinates``):
#: ``"pentobi"``, columns a, b, ... from the left and rows 1, 2, ... from the bottom (the
#: points Blokus moves are written with); ``"rowcol"``, rows and columns numbered from 0 at
#: the top left (the cells City Blocks moves are written with).
COORDINATES = ("pentobi", "rowcol")


def layout(scene: Scene, cell: int, title: str | None, coordinates: str | None = None) -> Layout:
    """Where a picture of ``scene`` puts its board: ``cell`` pixels a square, a band for
    ``title``, and with ``coordinates`` (one of :data:`COORDINATES`) a gutter at the left for
    the row names and a band under the board for the column names."""
    if not isinstance(cell, int) or isinstance(cell, bool) or not 4 <= cell <= 200:
        raise ValueError(f"cell size must be an integer from 4 to 200 pixels, got {cell!r}")
    if coordinates is not None and coordinates not in COORDINATES:
        raise ValueError(f"coordinates must be one of {', '.join(COORDINATES)}, "
                         f"not {coordinates!r}")
    margin = max(4, cell // 2)
    band = int(cell * 1.4) if title else 0
    gutter = round(cell * 0.9) if coordinates else 0
    foot = round(cell * 0.8) if coordinates else 0
    board = scene.cols * cell
    # A generous guess at the caption's width (sans-serif averages ~0.6 em per character).
    caption = round(len(title) * cell * 0.75 * 0.62) if title else 0
    width = max(board + gutter, caption) + 2 * margin
    return Layout(
        cell=cell,
        margin=margin,
        left=(width - board - gutter) // 2 + gutter,
        top=margin + band,
        width=width,
        height=scene.rows * cell + 2 * margin + band + foot,
        thick=max(2, round(cell / 8)),
    )


def coordinate_labels(scene: Scene, lay: Layout,
                      coordinates: str | None) -> list[tuple[float, float, str]]:  # fmt: skip
    """The names around the board's edge, ``(x, y, text)`` centred on the point: one under
    each column, one left of each row (none without ``coordinates``)."""
    if not coordinates:
        return []
    pentobi = coordinates == "pentobi"
    below = lay.y(scene.rows) + lay.cell * 0.45
    left = lay.x(0) - lay.cell * 0.5
    out = [(lay.x(c + 0.5), below, chr(ord("a") + c) if pentobi and c < 26 else str(c))
           for c in range(scene.cols)]  # fmt: skip
    out += [(left, lay.y(r + 0.5), str(scene.rows - r if pentobi else r))
            for r in range(scene.rows)]  # fmt: skip
    return out


def outline(cells: frozenset[Cell]) -> list[tuple[int, int, int, int]]:
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


def fill_or(letter: str | None, default: str) -> str:
    return PLAYER_FILLS[letter] if letter else default


def mix(a: str, b: str, t: float) -> str:
    """The colour ``t`` of the way from ``#rrggbb`` ``a`` to ``b``."""
    x, y = int(a[1:], 16), int(b[1:], 16)
    return "#" + "".join(
        f"{round((x >> s & 255) * (1 - t) + (y >> s & 255) * t):02x}" for s in (16, 8, 0)
    )


def under_highlight(scene: Scene) -> dict[Cell, tuple[str, bool]]:
    """Fill under each highlighted cell, and True where that is a ghost (an empty cell shaded
    in the highlight colour)."""
    under = {cell: (BLOCKED_FILL, False) for cell in scene.blocked & scene.highlight}
    for shape in scene.shapes:
        under |= {cell: (shape.fill, False) for cell in shape.cells & scene.highlight}
    ghost = mix(EMPTY_FILL, fill_or(scene.highlight_letter, INK), 0.35)
    return {cell: under.get(cell, (ghost, True)) for cell in sorted(scene.highlight)}


def hatch(r: int, c: int, back: bool = False) -> list[tuple[float, float, float, float]]:
    """Three diagonal strokes across cell ``(r, c)`` as ``(x0, y0, x1, y1)`` in grid units:
    rising to the right (``/``, a highlight's), or with ``back`` falling (``\\``, a given
    piece's)."""
    strokes: list[tuple[float, float, float, float]] = [
        (c + s, r, c, r + s) if s <= 1 else (c + 1, r + s - 1, c + s - 1, r + 1)
        for s in (0.5, 1.0, 1.5)
    ]
    if back:  # mirrored across the cell's vertical middle
        return [(2 * c + 1 - x0, y0, 2 * c + 1 - x1, y1) for x0, y0, x1, y1 in strokes]
    return strokes


def label_cell(cells: frozenset[Cell]) -> Cell:
    """The cell nearest the centroid, where a piece's letter goes."""
    cr = sum(r for r, _ in cells) / len(cells)
    cc = sum(c for _, c in cells) / len(cells)
    return min(cells, key=lambda rc: ((rc[0] - cr) ** 2 + (rc[1] - cc) ** 2, rc))
