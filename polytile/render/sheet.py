"""Printable sheets: many pictures on one SVG page, in a grid, each with its caption.

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

import re
from collections.abc import Sequence

from polytile.render.scene import Picture
from polytile.render.svg import to_svg

__all__ = ["contact_sheet"]

_SIZE = re.compile(r'<svg [^>]*width="([\d.]+)" height="([\d.]+)"')


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
        (solution or position, caption) pairs.
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
    col_w = max((w for _, w, _ in parts), default=0.0)
    y, out = float(top), []
    for start in range(0, len(parts), columns):
        row = parts[start : start + columns]
        for i, (body, _, _) in enumerate(row):
            x = gap + i * (col_w + gap)
            out.append(body.replace("<svg ", f'<svg x="{x:g}" y="{y:g}" ', 1))
        y += max(h for _, _, h in row) + gap
    width = gap + min(columns, max(len(parts), 1)) * (col_w + gap)
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{y:g}" '
        f'viewBox="0 0 {width:g} {y:g}">',
        f'<rect width="{width:g}" height="{y:g}" fill="#ffffff"/>',
    ]
    if heading:
        head.append(
            f'<text x="{gap}" y="{gap + cell}" font-family="sans-serif" '
            f'font-size="{cell * 1.2:g}" fill="#111111">{escape(heading)}</text>'
        )
    return "\n".join([*head, *out, "</svg>"]) + "\n"
