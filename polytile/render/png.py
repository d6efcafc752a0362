"""PNG pictures, drawn with Pillow from the scene, geometry and colours of
:mod:`polytile.render` (which re-exports :func:`to_png`), like the SVG of
:mod:`polytile.render.svg`."""

from __future__ import annotations

import io
import os
from collections.abc import Iterable

from polytile._files import write_atomic
from polytile.geometry import Cell
from polytile.render.drawing import MAX_PNG_PIXELS, check_png_size
from polytile.render.griddraw import grid_png
from polytile.render.grids import check_view, is_grid_picture, refuse_decorations
from polytile.render.scene import (
    BLOCKED_FILL,
    CONFLICT_INK,
    EMPTY_FILL,
    GRID_INK,
    INK,
    Picture,
    PuzzlePicture,
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

__all__ = ["MAX_PNG_PIXELS", "check_png_size", "png_bytes", "to_png"]



def png_bytes(
    obj: Picture,
    cell: int,
    title: str | None,
    marks: Iterable[Cell] = (),
    mark_color: str | None = None,
    highlight: Iterable[Cell] = (),
    highlight_color: str | None = None,
    coordinates: str | None = None,
    view: str | None = None,
) -> bytes:
    """The PNG file's bytes (see :func:`to_png`; ``coordinates`` and ``view`` as
    :func:`~polytile.render.svg.to_svg` takes them)."""
    from PIL import Image, ImageDraw, ImageFont

    if isinstance(obj, PuzzlePicture):  # the board and its tray, captioned with its name
        from polytile.render.puzzle import tray_png

        caption = obj.name if title is None else title
        if view is not None or is_grid_picture(obj.setup):  # its grid's board, no marks
            check_view(obj, view)
            board = grid_png(obj.setup, cell, caption or None, view=view, show_empty=True)
        else:
            board = png_bytes(obj.setup, cell, caption or None)
        return tray_png(obj, board, cell, check_png_size)
    if view is not None or is_grid_picture(obj):  # triangles, hexagons, cubes
        refuse_decorations(marks, highlight, coordinates)
        return grid_png(obj, cell, title, view=view)
    scene = decorated(obj, marks, mark_color, highlight, highlight_color)
    lay = layout(scene, cell, title, coordinates)
    check_png_size(lay.width, lay.height)
    image = Image.new("RGB", (lay.width, lay.height), "#ffffff")
    draw = ImageDraw.Draw(image)

    def square(r: int, c: int, fill: str) -> None:
        x, y = int(lay.x(c)), int(lay.y(r))
        draw.rectangle((x, y, x + cell - 1, y + cell - 1), fill=fill)

    def bar(x0: float, y0: float, x1: float, y1: float, width: int, fill: str) -> None:
        # A line of exactly `width` pixels with square ends, as a rectangle.
        lo, hi = width // 2, (width - 1) // 2
        draw.rectangle((int(x0) - lo, int(y0) - lo, int(x1) + hi, int(y1) + hi), fill=fill)

    for r in range(scene.rows):
        for c in range(scene.cols):
            square(r, c, BLOCKED_FILL if (r, c) in scene.blocked else EMPTY_FILL)
    for shape in scene.shapes:
        for r, c in shape.cells:
            square(r, c, shape.fill)
    for shape in scene.shapes:  # given in place: a falling hatch (a highlight's rises)
        for r, c in shape.cells if shape.given else ():
            for x0, y0, x1, y1 in hatch(r, c, back=True):
                draw.line((lay.x(x0), lay.y(y0), lay.x(x1), lay.y(y1)),
                          fill=mix(shape.fill, INK, 0.45), width=max(1, round(lay.thick / 3)))
    for (r, c), (fill, ghost) in under_highlight(scene).items():
        if ghost:
            square(r, c, fill)
        for x0, y0, x1, y1 in hatch(r, c):
            draw.line(
                (lay.x(x0), lay.y(y0), lay.x(x1), lay.y(y1)),
                fill=mix(fill, INK, 0.45),
                width=max(1, round(lay.thick / 3)),
            )
    bx0, by0, bx1, by1 = lay.x(0), lay.y(0), lay.x(scene.cols), lay.y(scene.rows)
    for r in range(1, scene.rows):
        draw.line((bx0, lay.y(r), bx1, lay.y(r)), fill=GRID_INK, width=1)
    for c in range(1, scene.cols):
        draw.line((lay.x(c), by0, lay.x(c), by1), fill=GRID_INK, width=1)
    frame = max(1, lay.thick // 2)
    for x0, y0, x1, y1 in outline(
        frozenset((r, c) for r in range(scene.rows) for c in range(scene.cols))
    ):
        bar(lay.x(x0), lay.y(y0), lay.x(x1), lay.y(y1), frame, INK)
    for shape in scene.shapes:
        for x0, y0, x1, y1 in outline(shape.cells):
            bar(lay.x(x0), lay.y(y0), lay.x(x1), lay.y(y1), lay.thick, INK)
    for r, c in scene.conflicts():
        left, top, right, bottom = lay.x(c + 0.2), lay.y(r + 0.2), lay.x(c + 0.8), lay.y(r + 0.8)
        draw.line((left, top, right, bottom), fill=CONFLICT_INK, width=lay.thick)
        draw.line((right, top, left, bottom), fill=CONFLICT_INK, width=lay.thick)
    lit = outline(scene.highlight)
    for ink, width in ((INK, 2 * lay.thick), (EMPTY_FILL, lay.thick)):
        for x0, y0, x1, y1 in lit:
            bar(lay.x(x0), lay.y(y0), lay.x(x1), lay.y(y1), width, ink)
    radius = cell * 0.2
    for r, c in sorted(scene.marks):
        x, y = lay.x(c + 0.5), lay.y(r + 0.5)
        draw.ellipse(
            (x - radius, y - radius, x + radius, y + radius),
            fill=fill_or(scene.mark_letter, INK),
            outline=INK,
            width=max(1, lay.thick // 2),
        )
    labels = [s for s in scene.shapes if not s.player and s.cells]
    if labels and cell >= 12:
        font = ImageFont.load_default(size=max(8, round(cell * 0.55)))
        for shape in labels:
            r, c = label_cell(shape.cells)
            draw.text(
                (lay.x(c + 0.5), lay.y(r + 0.5)), shape.letter, fill=INK, font=font, anchor="mm"
            )
    if title:
        font = ImageFont.load_default(size=max(8, round(cell * 0.75)))
        draw.text((lay.width / 2, lay.margin + cell * 0.7), title, fill=INK, font=font, anchor="mm")
    names = coordinate_labels(scene, lay, coordinates)
    if names:
        font = ImageFont.load_default(size=max(8, round(cell * 0.45)))
        for x, y, text in names:
            draw.text((x, y), text, fill=INK, font=font, anchor="mm")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def to_png(
    obj: Picture,
    path: str | os.PathLike[str],
    cell: int = 24,
    title: str | None = None,
    *,
    marks: Iterable[Cell] = (),
    mark_color: str | None = None,
    highlight: Iterable[Cell] = (),
    highlight_color: str | None = None,
    coordinates: str | None = None,
    view: str | None = None,
) -> None:
    """Write a PNG picture, drawn with Pillow from the same geometry and colours as the SVG.

    Parameters
    ----------
    obj
        A solution, a position or a puzzle picture (its board, then its tray:
        :func:`~polytile.render.puzzle.tray_png`).
    path
        Output file, written atomically.
    cell
        Side of a cell in pixels (4 to 200).
    title
        Optional caption above the board.
    marks, mark_color, highlight, highlight_color, coordinates, view
        As for :func:`polytile.render.svg.to_svg` (which also says how the triangle, hex
        and cube grids are drawn; their PNG is drawn from the same polygons as their SVG).

    Raises
    ------
    ValueError
        If ``cell`` is out of range, a colour is not a colour name, or ``view`` or a
        decoration does not suit the grid (as for :func:`~polytile.render.svg.to_svg`).
    BoardError
        If the picture would have more than :data:`MAX_PNG_PIXELS` pixels.
    OSError
        If the file cannot be written.
    """
    png = png_bytes(obj, cell, title, marks, mark_color, highlight, highlight_color, coordinates,
                    view)  # fmt: skip
    write_atomic(path, png)
