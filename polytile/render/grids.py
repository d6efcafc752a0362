"""Pictures of solutions on the grids other than squares: triangles, hexagons and boxes of
cubes (:mod:`polytile.grids`), in text, SVG and PNG.

:func:`~polytile.render.to_svg`, :func:`~polytile.render.to_png`,
:func:`~polytile.render.to_text`, :func:`~polytile.render.board_grid` and
:func:`~polytile.render.save_picture` hand a solution whose ``grid`` field is not
``"square"`` to this module, so every caller draws every grid. :func:`grid_scene` reads the
solution (its board, its pieces, their colours and letters); :mod:`polytile.render.griddraw`
draws it.

The board of a triangle or hex solution is the shape of its open cells: the blocked cells of
its box that reach the box's edge through other blocked cells are not part of it and are not
drawn; the blocked cells inside it (holes) are drawn as blocked, dark in the pictures and ``#``
in text. A box of cubes is drawn whole, each blocked cell as blocked.

Letters: a piece shows its name's first character in upper case (lower case shows a piece
given in place), as on squares, unless another piece took it already; then it gets the first
free one of :data:`LETTERS` (capitals, digits, a few Greek and Cyrillic capitals and signs),
so that different pieces never share a letter; the text picture, whose cells have no
outlines, needs that to be read. When any piece shows a letter other than its initial, a
legend under the picture says which letter is which piece (``letters: B = bar, A = bat``).
Only a board of more pieces than letters repeats letters, never on two pieces that touch,
and says so under the picture.

Colours: a piece takes its index's colour from :data:`~polytile.render.scene.PALETTE` unless
a piece it touches (by the grid's neighbours: across an edge, or a face of a cube) has it,
as on squares; a player piece (its ``color`` a colour name) takes the player's colour.

Examples
--------
>>> from polytile.formats import PlacedPiece, Solution
>>> from polytile.render import to_text
>>> s = Solution("rhombus", 1, 2, (PlacedPiece("A1", ((0, 0),)), PlacedPiece("A1", ((0, 1),))),
...              grid="triangle")
>>> print(to_text(s, color=False), end="")
AB
letters: A = A1, B = A1
>>> cubes = Solution("stack", 1, 2, (PlacedPiece("I2", ((0, 0, 0), (1, 0, 0))),
...                                  PlacedPiece("J2", ((0, 0, 1), (1, 0, 1)))),
...                  grid="cube", layers=2)
>>> print(to_text(cubes, color=False), end="")
IJ IJ
"""

from __future__ import annotations

import io
import itertools
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from polytile.colors import COLORS
from polytile.grids import Grid, grid
from polytile.render.scene import (
    BLOCKED_FILL,
    CONFLICT,
    CONFLICT_INK,
    PLAYER_FILLS,
    PuzzlePicture,
    _tiling_fills,
    given_indices,
    piece_letter,
)
from polytile.text import printable, want_color

__all__ = [
    "LETTERS",
    "VIEWS",
    "GridScene",
    "GridShape",
    "check_view",
    "grid_board_lines",
    "grid_scene",
    "grid_text",
    "honest_letters",
    "is_grid_picture",
    "refuse_decorations",
]

Coord = tuple[int, ...]

#: The views of a box of cubes ``to_svg`` and ``to_png`` take (``view=``): ``"layers"``, the
#: layers side by side as square grids (the default), and ``"isometric"``, the solid
#: assembled, seen from above, in front and to the right.
VIEWS = ("layers", "isometric")

# Characters a text picture gives no piece: empty, blocked, claimed twice, and the square
# pictures' marks.
_RESERVED = frozenset(". #*+@")


@dataclass(frozen=True)
class GridShape:
    """One placement as drawn: its name, letter, fill and cells (those inside the box)."""

    label: str
    letter: str
    fill: str
    cells: frozenset[Coord]
    player: bool
    given: bool = False


@dataclass(frozen=True)
class GridScene:
    """A solution on a grid other than squares, as its pictures read it.

    Attributes
    ----------
    grid
        The grid.
    rows, cols, layers
        The board's box (``layers`` is 1 except for cubes).
    open
        The board's open cells.
    holes
        The blocked cells drawn: the holes inside a triangle or hex board, every blocked cell
        of a box of cubes.
    shapes
        The placements, in order.
    legend
        ``(letter, name)`` of every piece when some piece shows a letter other than its
        name's initial, else empty.
    repeated
        Whether letters repeat (more pieces than letters: never on pieces that touch); the
        legend is then empty and a note says so.
    """

    grid: Grid
    rows: int
    cols: int
    layers: int
    open: frozenset[Coord]
    holes: frozenset[Coord]
    shapes: tuple[GridShape, ...]
    legend: tuple[tuple[str, str], ...] = ()
    repeated: bool = False

    def covered(self) -> frozenset[Coord]:
        """The cells some piece covers."""
        return frozenset().union(*(s.cells for s in self.shapes))

    def drawn(self) -> frozenset[Coord]:
        """Every cell a flat picture draws: the board, its holes and any cell a piece covers
        (one on a blocked cell too, which :meth:`conflicts` then names)."""
        return self.open | self.holes | self.covered()

    def conflicts(self) -> list[Coord]:
        """Cells claimed twice: by two pieces, or by a piece and a blocked cell (a hole, or a
        cell of the box that is not part of the board)."""
        seen = set(self.holes)
        twice: set[Coord] = set()
        for shape in self.shapes:
            twice |= shape.cells & seen
            seen |= shape.cells
        twice |= self.covered() - self.open - self.holes
        return sorted(twice)

    def legend_lines(self, width: int = 72) -> list[str]:
        """The legend as lines of at most ``width`` characters where the names allow (an
        entry ``A = name`` is never split), none without a legend; or the note that letters
        repeat."""
        if self.repeated:
            return ["letters repeat (more pieces than letters), never on pieces that touch"]
        lines: list[str] = []
        line = "letters:"
        for letter, name in self.legend:
            entry = f"{letter} = {printable(name)}"
            if line.endswith(":") or len(line) + len(entry) + 2 <= width:
                line += (" " if line.endswith(":") else ", ") + entry
            else:
                lines.append(line + ",")
                line = entry
        return [*lines, line] if self.legend else []


def is_grid_picture(obj: Any) -> bool:
    """Whether ``obj`` is a solution on a grid other than squares (drawn by this module)."""
    return hasattr(obj, "placements") and grid(getattr(obj, "grid", "square")).name != "square"


def check_view(obj: Any, view: str | None) -> None:
    """Refuse a ``view`` that is not one of :data:`VIEWS` (or None), or any view of a
    picture that is not a box of cubes (a puzzle picture's is its board's).

    Raises
    ------
    ValueError
        Saying which views there are, or that only a box of cubes has them.
    """
    if view is None:
        return
    if isinstance(obj, PuzzlePicture):
        obj = obj.setup
    if view not in VIEWS:
        raise ValueError(f"view must be one of {', '.join(VIEWS)} (or None), got {view!r}")
    on = grid(getattr(obj, "grid", "square")).name if hasattr(obj, "placements") else "square"
    if on != "cube":
        raise ValueError(f"the {view} view draws a box of cubes; this picture is of the "
                         f"{on} grid")  # fmt: skip


def refuse_decorations(marks: Iterable[Any], highlight: Iterable[Any],
                       coordinates: str | None) -> None:  # fmt: skip
    """Refuse marks, a highlight or coordinates, which only square pictures draw.

    Raises
    ------
    ValueError
        If any is given.
    """
    if tuple(marks) or tuple(highlight) or coordinates is not None:
        raise ValueError("marks, a highlight and coordinates are drawn on square boards only")


#: Letters for pieces whose initial is taken, each unlike the others on screen: capitals,
#: digits, the Greek and Cyrillic capitals that look like no Latin one (nor like each other),
#: then a few signs. No lower case: it shows a piece given in place.
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ΓΔΘΛΞΠΣΦΨΩБДЖИЦЧШЫЬЭЮЯ$%&?!=<>~"


def honest_letters(names: Sequence[str],
                   touching: Sequence[Iterable[int]] | None = None) -> list[str]:  # fmt: skip
    """A letter per piece, different for different pieces (also in lower case, which shows
    a piece given in place): the name's initial in upper case for the first piece with it,
    else the next free one of :data:`LETTERS`.

    Parameters
    ----------
    names
        The pieces' names, in order.
    touching
        For each piece, the pieces it touches. When there are more pieces than letters, the
        letters then repeat, but never on two pieces that touch.

    Examples
    --------
    >>> honest_letters(["L5", "L5", "A", "l3"])
    ['L', 'B', 'A', 'C']

    Raises
    ------
    ValueError
        If there are more pieces than letters and ``touching`` is None, or a piece touches
        more pieces than there are letters.
    """
    initials = [piece_letter(name).upper() for name in names]
    letters: list[str | None] = [None] * len(names)
    used: set[str] = set()
    for i, ch in enumerate(initials):
        if ch not in _RESERVED and ch.lower() not in used:
            letters[i] = ch
            used.add(ch.lower())
    free = [ch for ch in LETTERS if ch.lower() not in used]
    if letters.count(None) <= len(free):
        spare = iter(free)
        return [ch if ch is not None else next(spare) for ch in letters]
    if touching is None:
        raise ValueError(f"{len(names)} pieces are more than a text picture has letters for")
    out: list[str] = []
    near = [set(t) for t in touching]
    for i, ch in enumerate(initials):
        taken = {out[j].lower() for j in near[i] if j < i}
        pick = next((c for c in (ch, *LETTERS) if c not in _RESERVED and c.lower() not in taken),
                    None)  # fmt: skip
        if pick is None:
            raise ValueError(f"piece {i} touches more pieces than a text picture has letters")
        out.append(pick)
    return out


def _exterior(g: Grid, blocked: frozenset[Coord], inside: Any) -> set[Coord]:
    """The blocked cells joined to the box's edge through blocked cells (not the board)."""
    seen = {cell for cell in blocked if any(not inside(n) for n in g.neighbours(cell))}
    todo = list(seen)
    while todo:
        for n in g.neighbours(todo.pop()):
            if n in blocked and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def grid_scene(solution: Any) -> GridScene:
    """The scene of a solution on the triangle, hex or cube grid, read by its fields
    (``grid``, ``layers``, ``rows``, ``cols``, ``blocked``, ``placements``, ``given`` in its
    extra fields); cells outside the box are dropped, as on squares.

    Raises
    ------
    UnknownNameError
        If its grid has no such name.
    """
    g = grid(solution.grid)
    cube = g.name == "cube"
    layers = int(getattr(solution, "layers", 1)) if cube else 1
    extent = (layers, solution.rows, solution.cols) if cube else (solution.rows, solution.cols)

    def inside(cell: Coord) -> bool:
        if len(cell) != len(extent):
            return False
        return all(0 <= x < n for x, n in zip(cell, extent, strict=True))

    def cells_of(cells: Iterable[Sequence[int]]) -> frozenset[Coord]:
        return frozenset(c for c in (tuple(int(x) for x in cell) for cell in cells) if inside(c))

    blocked = cells_of(solution.blocked)
    box = frozenset(itertools.product(*(range(n) for n in extent)))
    holes = blocked if cube else blocked - _exterior(g, blocked, inside)
    pieces = [cells_of(p.cells) for p in solution.placements]
    fills = _tiling_fills(pieces, g.neighbours)
    names = [p.piece for p in solution.placements]
    owners: dict[Coord, set[int]] = {}
    for i, cells in enumerate(pieces):
        for c in cells:
            owners.setdefault(c, set()).add(i)
    touching = [{j for c in cells for n in (c, *g.neighbours(c)) for j in owners.get(n, ())} - {i}
                for i, cells in enumerate(pieces)]  # fmt: skip
    letters = honest_letters(names, touching)
    repeated = len(set(letters)) < len(letters)
    given = given_indices(solution)
    shapes = []
    for i, p in enumerate(solution.placements):
        player = p.color is not None and p.color in COLORS
        fill = PLAYER_FILLS[COLORS[p.color]] if player and p.color else fills[i]
        shapes.append(GridShape(p.piece, letters[i], fill, pieces[i], player, i in given))
    renamed = any(ch != piece_letter(n).upper() for ch, n in zip(letters, names, strict=True))
    legend = tuple(zip(letters, names, strict=True)) if renamed and not repeated else ()
    return GridScene(g, solution.rows, solution.cols, layers, box - blocked, holes,
                     tuple(shapes), legend, repeated)  # fmt: skip


# -- text ------------------------------------------------------------------------------------
def _chars(scene: GridScene, lower_given: bool) -> dict[Coord, str]:
    """The character of each drawn cell: its piece's letter (lower case when given in place
    and ``lower_given``), ``.`` empty, ``#`` blocked, ``*`` claimed twice."""
    chars = dict.fromkeys(scene.open, ".")
    chars.update(dict.fromkeys(scene.holes, "#"))
    for shape in scene.shapes:
        letter = shape.letter.lower() if shape.given and lower_given else shape.letter
        chars.update(dict.fromkeys(shape.cells, letter))
    chars.update(dict.fromkeys(scene.conflicts(), CONFLICT))
    return chars


def _lines(scene: GridScene, chars: dict[Coord, str]) -> list[str]:
    """The cells drawn as the grid's files draw them (:meth:`polytile.grids.Grid.write_text`);
    positions between a triangle board's cells that are no cells of it are spaces."""
    return scene.grid.write_text(chars, "#" if scene.grid.name == "cube" else " ")


def grid_board_lines(solution: Any) -> list[str]:
    """The board as the grid's text drawing, one character per cell (what
    :func:`~polytile.render.board_grid` gives for these grids)."""
    scene = grid_scene(solution)
    return _lines(scene, _chars(scene, False))


def _given_note(scene: GridScene) -> list[str]:
    names = sorted({s.label for s in scene.shapes if s.given and s.cells})
    if not names:
        return []
    return [f"lower case: given in place ({', '.join(printable(n) for n in names)})"]


def grid_text(solution: Any, color: bool | None = None) -> str:
    """A text picture, one character per cell laid out as the grid's files lay cells out
    (:meth:`polytile.grids.Grid.write_text`; a box of cubes as its layers side by side),
    then the legend of the letters if any, then the note naming pieces given in place.

    Parameters
    ----------
    solution
        A solution on the triangle, hex or cube grid.
    color
        True for ANSI colours (each letter on its piece's colour), False for plain text,
        None for colours only on a terminal without ``NO_COLOR``.
    """
    scene = grid_scene(solution)
    chars = _chars(scene, True)
    lines = _lines(scene, chars)
    tail = "".join(line + "\n" for line in [*scene.legend_lines(), *_given_note(scene)])
    if not want_color(color):
        return "".join(line + "\n" for line in lines) + tail
    return _rich_text(scene, chars) + tail


def _rich_text(scene: GridScene, chars: dict[Coord, str]) -> str:
    from rich.console import Console
    from rich.style import Style
    from rich.text import Text

    # Each cell drawn as a private-use character of its own finds where write_text puts it.
    order = sorted(chars)
    tag = {chr(0xF0000 + i): cell for i, cell in enumerate(order)}
    lines = _lines(scene, {cell: chr(0xF0000 + i) for i, cell in enumerate(order)})
    style: dict[Coord, Style] = {cell: Style(color="#8a8a8a") for cell in scene.open}
    style.update(dict.fromkeys(scene.holes, Style(bgcolor=BLOCKED_FILL)))
    for shape in scene.shapes:
        look = Style(color="#000000", bgcolor=shape.fill, bold=not shape.given)
        style.update(dict.fromkeys(shape.cells, look))
    style.update(dict.fromkeys(scene.conflicts(), Style(color="#ffffff", bgcolor=CONFLICT_INK,
                                                        bold=True)))  # fmt: skip
    text = Text()
    for line in lines:
        for ch in line:
            cell = tag.get(ch)
            if cell is None:
                text.append(ch)
            else:
                text.append(chars[cell], style[cell])
        text.append("\n")
    truecolor = os.environ.get("COLORTERM", "").lower() in ("truecolor", "24bit")
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True,
                      color_system="truecolor" if truecolor else "256", no_color=False,
                      width=max(80, 2 + max((len(line) for line in lines), default=0)),
                      highlight=False, markup=False, emoji=False,
                      legacy_windows=False)  # fmt: skip
    console.print(text, end="", soft_wrap=True)
    return buffer.getvalue()
