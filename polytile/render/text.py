"""Pictures as text: :func:`board_grid` (one character per cell) and :func:`to_text` (plain
or coloured for the terminal, with given pieces, marks and a highlight)."""

from __future__ import annotations

import io
import os
from collections.abc import Iterable

from polytile.geometry import Cell
from polytile.render.grids import grid_board_lines, grid_text, is_grid_picture, refuse_decorations
from polytile.render.scene import (
    BLOCKED_FILL,
    CONFLICT,
    CONFLICT_INK,
    GHOST,
    MARK,
    PLAYER_FILLS,
    Picture,
    PuzzlePicture,
    Scene,
    decorated,
    scene_of,
)
from polytile.text import printable, want_color

__all__ = ["board_grid", "given_note", "to_text"]


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
        Cells outside the board are not shown. On the triangle, hex and cube grids the rows
        are the grid's text drawing (:meth:`polytile.grids.Grid.write_text`) and different
        pieces show different letters (:func:`~polytile.render.grids.honest_letters`).
    """
    if isinstance(obj, PuzzlePicture):  # a puzzle: its board as set up
        obj = obj.setup
    if not hasattr(obj, "placements"):  # a position: its rows as they are
        return list(obj.board)
    if is_grid_picture(obj):  # triangles, hexagons, cubes: as the grid's files draw them
        return grid_board_lines(obj)
    scene = scene_of(obj)
    grid = [["." for _ in range(scene.cols)] for _ in range(scene.rows)]
    for r, c in scene.blocked:
        grid[r][c] = "#"
    for shape in scene.shapes:
        for r, c in shape.cells:
            grid[r][c] = shape.letter if grid[r][c] == "." else CONFLICT
    return ["".join(row) for row in grid]




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
        that differs from every touching piece. Pieces given in place (a solution's
        ``given`` field) show their letters in lower case, and a last line names them
        (:func:`given_note`). A :class:`~polytile.render.scene.PuzzlePicture` is drawn by
        :func:`~polytile.render.puzzle.tray_text`: its name, its board, its tray.

    Raises
    ------
    ValueError
        If ``mark_color`` or ``highlight_color`` is not a colour name.

    Notes
    -----
    Where two touching pieces show the same letter (two copies of a tetromino, or your
    ``L`` beside ``L5``), letters alone would make them look like one: the plain picture is
    then drawn with every piece's boundary (``+---+`` lines, ``|`` between cells), one
    text line a row and one between rows. In colour, touching pieces never share a
    background, and the SVG and PNG pictures draw every outline.

    A solution on the triangle, hex or cube grid is drawn one character per cell as the
    grid's files draw it, different pieces always in different letters, a legend naming
    them when a letter is not its piece's initial (:func:`~polytile.render.grids.grid_text`);
    marks and a highlight are for square boards only (a ValueError).
    """
    if isinstance(obj, PuzzlePicture):  # its name, its board and its tray
        from polytile.render.puzzle import tray_text

        want = want_color(color)
        return tray_text(obj, to_text(obj.setup, want), want)
    if is_grid_picture(obj):  # triangles, hexagons, cubes
        refuse_decorations(marks, highlight, None)
        return grid_text(obj, color)
    scene = decorated(obj, marks, mark_color, highlight, highlight_color)
    grid = board_grid(obj)
    note = given_note(scene)
    if not want_color(color):
        plain = _plain_grid(scene, grid)
        if _ambiguous(scene):
            return _bordered(scene, plain) + note
        return "".join(" ".join(row) + "\n" for row in plain) + note
    return _rich_text(scene, grid) + note


def given_note(scene: Scene) -> str:
    """The line under a text picture whose scene has pieces given in place (drawn in lower
    case), naming them; empty when it has none."""
    names = sorted({shape.label for shape in scene.shapes if shape.given and shape.cells})
    if not names:
        return ""
    return f"lower case: given in place ({', '.join(printable(n) for n in names)})\n"


def _owners(scene: Scene) -> dict[Cell, int]:
    """Each covered cell's shape (its index); blocked cells -2; empty cells are absent."""
    owner = {cell: -2 for cell in scene.blocked}
    for i, shape in enumerate(scene.shapes):
        for cell in shape.cells:
            owner[cell] = i
    return owner


def _ambiguous(scene: Scene) -> bool:
    """Whether two edge-touching cells belong to different shapes with the same letter."""
    owner = _owners(scene)
    for (r, c), i in owner.items():
        if i < 0:
            continue
        for other in ((r + 1, c), (r, c + 1)):
            j = owner.get(other, -1)
            if j >= 0 and j != i and scene.shapes[j].letter == scene.shapes[i].letter:
                return True
    return False


def _bordered(scene: Scene, plain: list[str]) -> str:
    """The plain picture with every boundary drawn: between shapes, around the board."""
    owner = _owners(scene)

    def who(r: int, c: int) -> int | None:
        if not (0 <= r < scene.rows and 0 <= c < scene.cols):
            return None  # off the board
        return owner.get((r, c), -1)

    def wall(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return who(*a) != who(*b)

    lines = []
    for r in range(scene.rows + 1):
        # the line above row r: a segment over each cell, a corner where walls meet
        top = []
        for c in range(scene.cols + 1):
            joins = (wall((r - 1, c - 1), (r - 1, c)) or wall((r, c - 1), (r, c))
                     or wall((r - 1, c - 1), (r, c - 1)) or wall((r - 1, c), (r, c)))  # fmt: skip
            top.append("+" if joins else " ")
            if c < scene.cols:
                top.append("---" if wall((r - 1, c), (r, c)) else "   ")
        lines.append("".join(top).rstrip())
        if r == scene.rows:
            break
        row = []
        for c in range(scene.cols + 1):
            row.append("|" if wall((r, c - 1), (r, c)) else " ")
            if c < scene.cols:
                row.append(f" {plain[r][c]} ")
        lines.append("".join(row).rstrip())
    return "\n".join(lines) + "\n"


def _plain_grid(scene: Scene, grid: list[str]) -> list[str]:
    """``grid`` with the given pieces, the marks and the highlight of the module's text
    convention."""
    given = [shape.cells for shape in scene.shapes if shape.given]
    if not scene.marks and not scene.highlight and not given:
        return grid
    cells = [list(row) for row in grid]
    for r, c in (cell for group in given for cell in group):
        cells[r][c] = cells[r][c].lower()
    for r, c in scene.marks:
        if cells[r][c] == ".":
            cells[r][c] = MARK
    ghost = scene.highlight_letter.lower() if scene.highlight_letter else GHOST
    for r, c in scene.highlight:
        cells[r][c] = ghost if cells[r][c] in (".", MARK) else cells[r][c].lower()
    return ["".join(row) for row in cells]


def _rich_text(scene: Scene, grid: list[str]) -> str:
    from rich.console import Console
    from rich.style import Style
    from rich.text import Text

    style_of: dict[Cell, tuple[str, Style]] = {}
    for shape in scene.shapes:
        if shape.player:
            look = ("  ", Style(bgcolor=shape.fill))
            lit = ("▒▒", Style(color="#ffffff", bgcolor=shape.fill))
        else:  # given in place: lower case, not bold
            bold = not shape.given
            letter = shape.letter.lower() if shape.given else shape.letter
            look = (f"{letter} ", Style(color="#000000", bgcolor=shape.fill, bold=bold))
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
            elif ch == CONFLICT:
                text.append("**", Style(color="#ffffff", bgcolor=CONFLICT_INK, bold=True))
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
