"""Printable sheets: many pictures on one SVG (or PNG) page, in a grid, each with its
caption.

Examples
--------
>>> from polytile.formats import PlacedPiece, Solution
>>> from polytile.render.sheet import contact_sheet
>>> s = Solution("demo", 1, 2, (PlacedPiece("I2", ((0, 0), (0, 1))),))
>>> page = contact_sheet([(s, "one"), (s, "two")], columns=2)
>>> page.count("<svg"), "one" in page
(3, True)
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence

from polytile.render.scene import Picture
from polytile.render.svg import to_svg
from polytile.text import xml_safe

__all__ = ["contact_sheet", "contact_sheet_png"]

_SIZE = re.compile(r'<svg [^>]*width="([\d.]+)" height="([\d.]+)"')


def _places(sizes: Sequence[tuple[float, float]], columns: int, gap: int, top: float,
            ) -> tuple[list[tuple[float, float]], float, float]:  # fmt: skip
    """Where each picture of ``sizes`` (width, height) goes, left to right and top to bottom
    in columns as wide as the widest, rows as tall as their tallest, below ``top``; and the
    page's width and height."""
    col_w = max((w for w, _ in sizes), default=0.0)
    y, places = float(top), []
    for start in range(0, len(sizes), columns):
        row = sizes[start : start + columns]
        places += [(gap + i * (col_w + gap), y) for i in range(len(row))]
        y += max(h for _, h in row) + gap
    width = gap + min(columns, max(len(sizes), 1)) * (col_w + gap)
    return places, width, y


def contact_sheet(
    pictures: Sequence[tuple[Picture, str]],
    columns: int = 3,
    cell: int = 16,
    heading: str | None = None,
    gap: int = 16,
) -> str:
    """One SVG page holding every picture, left to right and top to bottom.

    Parameters
    ----------
    pictures
        (solution, position or puzzle picture, caption) pairs.
    columns
        Pictures per row.
    cell
        Cell size in pixels of every picture.
    heading
        Optional line of text at the top of the page.
    gap
        Space between pictures, in pixels.

    Returns
    -------
    str
        An SVG document; each picture is a nested ``<svg>`` element.
    """
    from xml.sax.saxutils import escape  # 0.03 s (urllib): only when drawing

    if columns < 1:
        raise ValueError("columns must be at least 1")
    parts: list[tuple[str, float, float]] = []
    for obj, caption in pictures:
        svg = to_svg(obj, cell=cell, title=caption)
        m = _SIZE.search(svg)
        if m is None:  # pragma: no cover - to_svg always sets both
            raise ValueError("picture without a size")
        body = svg[svg.index("<svg") :]
        parts.append((body, float(m.group(1)), float(m.group(2))))
    top = gap + (cell * 2 if heading else 0)
    places, width, height = _places([(w, h) for _, w, h in parts], columns, gap, top)
    out = [body.replace("<svg ", f'<svg x="{x:g}" y="{y:g}" ', 1)
           for (body, _, _), (x, y) in zip(parts, places, strict=True)]  # fmt: skip
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}">',
        f'<rect width="{width:g}" height="{height:g}" fill="#ffffff"/>',
    ]
    if heading:
        head.append(
            f'<text x="{gap}" y="{gap + cell}" font-family="sans-serif" '
            f'font-size="{cell * 1.2:g}" fill="#111111">{escape(xml_safe(heading))}</text>'
        )
    return "\n".join([*head, *out, "</svg>"]) + "\n"


def contact_sheet_png(
    pictures: Sequence[tuple[Picture, str]],
    columns: int = 3,
    cell: int = 16,
    heading: str | None = None,
    gap: int = 16,
) -> bytes:
    """The page of :func:`contact_sheet` as a PNG file's bytes: the same places, each picture
    drawn by :func:`~polytile.render.png.png_bytes`.

    Raises
    ------
    ValueError
        If ``columns`` is below 1 or ``cell`` out of range.
    BoardError
        If the page would have more pixels than :data:`~polytile.render.png.MAX_PNG_PIXELS`.
    """
    from PIL import Image, ImageDraw, ImageFont

    from polytile.render.png import check_png_size, png_bytes

    if columns < 1:
        raise ValueError("columns must be at least 1")
    images = [Image.open(io.BytesIO(png_bytes(obj, cell, caption))) for obj, caption in pictures]
    top = gap + (cell * 2 if heading else 0)
    places, width, height = _places([im.size for im in images], columns, gap, top)
    check_png_size(round(width), round(height))
    page = Image.new("RGB", (round(width), round(height)), "#ffffff")
    for im, (x, y) in zip(images, places, strict=True):
        page.paste(im, (round(x), round(y)))
    if heading:
        font = ImageFont.load_default(size=max(8, round(cell * 1.2)))
        ImageDraw.Draw(page).text((gap, gap + cell), heading, fill="#111111", font=font,
                                  anchor="ls")  # fmt: skip
    buffer = io.BytesIO()
    page.save(buffer, format="PNG")
    return buffer.getvalue()
