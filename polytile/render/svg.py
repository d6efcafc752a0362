"""SVG pictures of solutions and positions, drawn from the scene, geometry and colours of
:mod:`polytile.render` (which re-exports :func:`to_svg`, so ``polytile.render.to_svg`` works
as well).

Examples
--------
>>> from polytile.formats import PlacedPiece, Solution
>>> from polytile.render.svg import to_svg
>>> s = Solution("demo", 2, 3, (PlacedPiece("V3", ((0, 0), (1, 0), (1, 1))),), blocked=((0, 2),))
>>> svg = to_svg(s, cell=20)
>>> svg.splitlines()[1]
'<svg xmlns="http://www.w3.org/2000/svg" width="80" height="60" viewBox="0 0 80 60">'
"""

from __future__ import annotations

from collections.abc import Iterable

from polytile.geometry import Cell
from polytile.render.griddraw import grid_svg
from polytile.render.grids import check_view, is_grid_picture, refuse_decorations
from polytile.render.scene import (
    BLOCKED_FILL,
    CONFLICT_INK,
    EMPTY_FILL,
    GRID_INK,
    INK,
    Layout,
    Picture,
    PuzzlePicture,
    Scene,
    coordinate_labels,
    decorated,
    fill_or,
    hatch,
    label_cell,
    layout,
    mix,
    outline,
    under_highlight,
)
from polytile.text import xml_safe

__all__ = ["cell_boxes", "to_svg"]


def _num(v: float) -> str:
    return f"{v:g}"


def cell_boxes(obj: Picture, cell: int = 24, title: str | None = None,
               coordinates: str | None = None,
               ) -> dict[tuple[int, int], tuple[float, float, float, float]]:  # fmt: skip
    """Where :func:`to_svg` draws each cell of ``obj``'s board: ``(x, y, width, height)``
    by ``(row, col)``, for the same ``cell``, ``title`` and ``coordinates``."""
    scene = decorated(obj, (), None, (), None)
    title = xml_safe(title) if title else title
    lay = layout(scene, cell, title, coordinates)
    return {(r, c): (lay.x(c), lay.y(r), float(cell), float(cell))
            for r in range(scene.rows) for c in range(scene.cols)}  # fmt: skip


def to_svg(
    obj: Picture,
    cell: int = 24,
    title: str | None = None,
    *,
    marks: Iterable[Cell] = (),
    mark_color: str | None = None,
    highlight: Iterable[Cell] = (),
    highlight_color: str | None = None,
    coordinates: str | None = None,
    view: str | None = None,
) -> str:
    """A standalone SVG picture with grid lines, filled pieces and every piece's outline.

    Parameters
    ----------
    obj
        A solution, a position or a puzzle picture.
    cell
        Side of a cell in pixels (4 to 200).
    title
        Optional caption drawn above the board (also the SVG ``<title>``).
    marks, mark_color
        Cells to mark with a dot in the fill of colour name ``mark_color`` (dark ink if None).
    highlight, highlight_color
        The cells of one placement, drawn with a thick black-and-white border and a hatch;
        empty ones are shaded in ``highlight_color`` (grey if None).
    coordinates
        Name the columns under the board and the rows left of it: ``"pentobi"`` (a, b, ...;
        rows from 1 at the bottom) or ``"rowcol"`` (0, 1, ... from the top left); None for
        no names (see :data:`~polytile.render.scene.COORDINATES`).
    view
        For a solution on a box of cubes: ``"layers"`` (the default), its layers side by
        side, or ``"isometric"``, the solid assembled (:data:`~polytile.render.grids.VIEWS`).

    Returns
    -------
    str
        An SVG document (``xmlns``, ``viewBox``, ``width`` and ``height`` set). Each shape has
        one ``<path class="outline">`` in the ``outlines`` group, with ``data-piece`` naming it.
        A highlight adds a ``highlight-fill`` group and a ``<path class="highlight">``; each
        mark is a ``<circle class="mark">`` whose ``data-cell`` is ``"row,col"``. A piece
        given in place (a solution's ``given`` field) has ``data-given="true"`` on its
        ``<path class="piece">`` and a ``<path class="given-hatch">`` in the ``given`` group.
        A :class:`~polytile.render.scene.PuzzlePicture` (captioned with its name unless
        ``title`` is given) is its board's picture with its tray under it
        (:func:`~polytile.render.puzzle.tray_svg`), a box of cubes' board in ``view``
        (isometric: the box's floor and walls, its blocked cubes dark, the given pieces in
        it). A solution on the triangle, hex or cube grid is drawn by
        :func:`~polytile.render.griddraw.grid_svg` (polygons per cell, described in
        :func:`~polytile.render.griddraw.grid_drawing`).

    Raises
    ------
    ValueError
        If ``cell`` is out of range, a colour is not a colour name, ``view`` is given for
        a picture that is not of a box of cubes, or marks, a highlight or coordinates for
        a grid other than squares.
    """
    from xml.sax.saxutils import escape, quoteattr  # 0.03 s (urllib): only when drawing

    if isinstance(obj, PuzzlePicture):  # the board and its tray, captioned with its name
        from polytile.render.puzzle import tray_svg

        caption = obj.name if title is None else title
        if view is not None or is_grid_picture(obj.setup):  # its grid's board, no marks
            check_view(obj, view)
            board = grid_svg(obj.setup, cell, xml_safe(caption) if caption else None,
                             view=view, show_empty=True)  # fmt: skip
        else:
            board = to_svg(obj.setup, cell, caption or None)
        return tray_svg(obj, board, cell, caption)
    if view is not None or is_grid_picture(obj):  # triangles, hexagons, cubes
        refuse_decorations(marks, highlight, coordinates)
        return grid_svg(obj, cell, xml_safe(title) if title else title, view=view)
    scene = decorated(obj, marks, mark_color, highlight, highlight_color)
    title = xml_safe(title) if title else title  # names from files may hold control characters
    lay = layout(scene, cell, title, coordinates)
    bx0, by0 = lay.x(0), lay.y(0)
    bx1, by1 = lay.x(scene.cols), lay.y(scene.rows)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{lay.width}" height="{lay.height}" '
        f'viewBox="0 0 {lay.width} {lay.height}">',
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f'<rect width="{lay.width}" height="{lay.height}" fill="#ffffff"/>')
    if title:
        out.append(
            f'<text x="{_num(lay.width / 2)}" y="{_num(lay.margin + cell * 0.7)}" '
            f'text-anchor="middle" dominant-baseline="central" font-family="sans-serif" '
            f'font-size="{_num(cell * 0.75)}" fill="{INK}">{escape(title)}</text>'
        )
    out.append(
        f'<rect class="board" x="{_num(bx0)}" y="{_num(by0)}" width="{_num(bx1 - bx0)}" '
        f'height="{_num(by1 - by0)}" fill="{EMPTY_FILL}"/>'
    )
    if scene.blocked:
        out.append(
            f'<path class="blocked" fill="{BLOCKED_FILL}" d="{_squares(lay, scene.blocked)}"/>'
        )
    out.append('<g class="pieces">')
    for i, shape in enumerate(scene.shapes):
        if shape.cells:
            out.append(
                f'<path class="piece" data-index="{i}" '
                f"data-piece={quoteattr(xml_safe(shape.label))} "
                + ('data-given="true" ' if shape.given else "")
                + f'fill="{shape.fill}" d="{_squares(lay, shape.cells)}"/>'
            )
    out.append("</g>")
    if any(shape.given and shape.cells for shape in scene.shapes):
        out += _svg_given(lay, scene)
    if scene.highlight:
        out += _svg_highlight_fill(lay, scene)
    grid = [f"M{_num(bx0)} {_num(lay.y(r))}H{_num(bx1)}" for r in range(1, scene.rows)]
    grid += [f"M{_num(lay.x(c))} {_num(by0)}V{_num(by1)}" for c in range(1, scene.cols)]
    if grid:
        out.append(
            f'<path class="grid" fill="none" stroke="{GRID_INK}" stroke-width="1" '
            f'd="{"".join(grid)}"/>'
        )
    out.append(
        f'<rect class="frame" x="{_num(bx0)}" y="{_num(by0)}" width="{_num(bx1 - bx0)}" '
        f'height="{_num(by1 - by0)}" fill="none" stroke="{INK}" '
        f'stroke-width="{_num(max(1, lay.thick / 2))}"/>'
    )
    out.append(
        f'<g class="outlines" fill="none" stroke="{INK}" stroke-width="{lay.thick}" '
        'stroke-linecap="square">'
    )
    for i, shape in enumerate(scene.shapes):
        d = _segments_d(lay, outline(shape.cells))
        out.append(
            f'<path class="outline" data-index="{i}" '
            f'data-piece={quoteattr(xml_safe(shape.label))} d="{d}"/>'
        )
    out.append("</g>")
    conflicts = scene.conflicts()
    if conflicts:
        crosses = "".join(
            f"M{_num(lay.x(c + 0.2))} {_num(lay.y(r + 0.2))}L{_num(lay.x(c + 0.8))} "
            f"{_num(lay.y(r + 0.8))}M{_num(lay.x(c + 0.8))} {_num(lay.y(r + 0.2))}"
            f"L{_num(lay.x(c + 0.2))} {_num(lay.y(r + 0.8))}"
            for r, c in conflicts
        )
        out.append(
            f'<path class="conflict" fill="none" stroke="{CONFLICT_INK}" '
            f'stroke-width="{lay.thick}" d="{crosses}"/>'
        )
    if scene.highlight:
        d = _segments_d(lay, outline(scene.highlight))
        out.append(
            f'<path class="highlight" fill="none" stroke="{INK}" stroke-width="{2 * lay.thick}" '
            f'stroke-linecap="square" d="{d}"/>'
        )
        out.append(
            f'<path class="highlight-inner" fill="none" stroke="{EMPTY_FILL}" '
            f'stroke-width="{lay.thick}" stroke-linecap="square" d="{d}"/>'
        )
    if scene.marks:
        out.append(
            f'<g class="marks" fill="{fill_or(scene.mark_letter, INK)}" stroke="{INK}" '
            f'stroke-width="{_num(max(1, lay.thick / 2))}">'
        )
        out += [
            f'<circle class="mark" data-cell="{r},{c}" cx="{_num(lay.x(c + 0.5))}" '
            f'cy="{_num(lay.y(r + 0.5))}" r="{_num(cell * 0.2)}"/>'
            for r, c in sorted(scene.marks)
        ]
        out.append("</g>")
    labels = [s for s in scene.shapes if not s.player and s.cells]
    if labels and cell >= 12:
        out.append(
            f'<g class="labels" font-family="sans-serif" font-size="{_num(cell * 0.55)}" '
            f'font-weight="bold" text-anchor="middle" dominant-baseline="central" fill="{INK}">'
        )
        for shape in labels:
            r, c = label_cell(shape.cells)
            out.append(
                f'<text x="{_num(lay.x(c + 0.5))}" y="{_num(lay.y(r + 0.5))}">'
                f"{escape(shape.letter)}</text>"
            )
        out.append("</g>")
    names = coordinate_labels(scene, lay, coordinates)
    if names:
        out.append(
            f'<g class="coordinates" font-family="sans-serif" font-size="{_num(cell * 0.45)}" '
            f'text-anchor="middle" dominant-baseline="central" fill="{INK}">'
        )
        out += [f'<text x="{_num(x)}" y="{_num(y)}">{escape(t)}</text>' for x, y, t in names]
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _segments_d(lay: Layout, segments: Iterable[tuple[int, int, int, int]]) -> str:
    """Path data of horizontal and vertical grid segments, as :func:`outline` gives them."""
    return "".join(
        f"M{_num(lay.x(x0))} {_num(lay.y(y0))}"
        + (f"H{_num(lay.x(x1))}" if y0 == y1 else f"V{_num(lay.y(y1))}")
        for x0, y0, x1, y1 in segments
    )


def _svg_given(lay: Layout, scene: Scene) -> list[str]:
    """The hatch over each piece given in place (falling strokes, ``\\``, in a darker shade of
    its fill; a highlight's rise)."""
    from xml.sax.saxutils import quoteattr

    out = ['<g class="given" fill="none">']
    width = _num(max(1, lay.thick / 3))
    for i, shape in enumerate(scene.shapes):
        if not (shape.given and shape.cells):
            continue
        d = "".join(
            f"M{_num(lay.x(x0))} {_num(lay.y(y0))}L{_num(lay.x(x1))} {_num(lay.y(y1))}"
            for r, c in sorted(shape.cells)
            for x0, y0, x1, y1 in hatch(r, c, back=True)
        )
        out.append(
            f'<path class="given-hatch" data-index="{i}" '
            f"data-piece={quoteattr(xml_safe(shape.label))} "
            f'stroke="{mix(shape.fill, INK, 0.45)}" stroke-width="{width}" d="{d}"/>'
        )
    out.append("</g>")
    return out


def _svg_highlight_fill(lay: Layout, scene: Scene) -> list[str]:
    """The ghost squares and the hatch of the highlighted cells."""
    ghosts: dict[str, list[Cell]] = {}
    hatches: dict[str, list[str]] = {}
    for (r, c), (fill, ghost) in under_highlight(scene).items():
        if ghost:
            ghosts.setdefault(fill, []).append((r, c))
        hatches.setdefault(mix(fill, INK, 0.45), []).extend(
            f"M{_num(lay.x(x0))} {_num(lay.y(y0))}L{_num(lay.x(x1))} {_num(lay.y(y1))}"
            for x0, y0, x1, y1 in hatch(r, c)
        )
    width = _num(max(1, lay.thick / 3))
    return [
        '<g class="highlight-fill">',
        *(f'<path class="ghost" fill="{f}" d="{_squares(lay, cs)}"/>' for f, cs in ghosts.items()),
        *(
            f'<path class="hatch" fill="none" stroke="{ink}" stroke-width="{width}" '
            f'd="{"".join(ds)}"/>'
            for ink, ds in hatches.items()
        ),
        "</g>",
    ]


def _squares(lay: Layout, cells: Iterable[Cell]) -> str:
    s = _num(lay.cell)
    return "".join(f"M{_num(lay.x(c))} {_num(lay.y(r))}h{s}v{s}h-{s}z" for r, c in sorted(cells))
