"""The legend of the Gridblock picture (SVG and PNG): a row per kind of mark, a small drawing
of the mark as the grid draws it, then what it means.

The rows are drawn from one list of shapes (:func:`legend_shapes`), written out as SVG
elements by :func:`svg_elements` and drawn with Pillow by :func:`draw_png`, so both pictures
show the same legend at the same place. :mod:`polytile.puzzles.gridblock.picture` passes the
inks and sizes its grid uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

__all__ = [
    "LegendStyle",
    "arrow_head",
    "draw_png",
    "legend_rows",
    "legend_shapes",
    "svg_elements",
    "swatch_width",
]

#: A shape: ``("rect", x0, y0, x1, y1, fill, stroke, width, dashed)``, ``("disc", x, y, r,
#: fill, stroke, width)``, ``("line", points, ink, width)``, ``("arrow", points, ink)`` (a
#: filled triangle) or ``("text", x, y, size, text, ink)`` (left end, vertical centre).
Shape = tuple[Any, ...]


@dataclass(frozen=True)
class LegendStyle:
    """The inks and sizes of the grid's marks, so the legend draws them alike."""

    inks: Sequence[str]  # per colour in play, the cube and mover ink
    ink: str  # outlines and text
    blocked_fill: str
    walk_ink: str
    font: int  # the legend's text size
    line_h: int  # the height of a legend row


def legend_rows(walk: bool) -> list[tuple[str, str]]:
    """(mark, meaning) per row: cubes, movers, gridblocked tiles, and the last move's walk
    when the picture shows one."""
    rows = [("cube", "cubes on tile corners, in their colour"),
            ("mover", "movers, in their colour, in the middle of their tile"),
            ("blocked", "gridblocked: all four corners of the tile taken")]  # fmt: skip
    if walk:
        rows.append(("walk", "the last move's walk: from the ring to the arrow, its tiles framed"))
    return rows


def swatch_width(style: LegendStyle) -> int:
    """The width of the drawings at the left of the rows."""
    return round(style.line_h * 2.8)


def legend_shapes(rows: Sequence[tuple[str, str]], left: float, top: float,
                  style: LegendStyle) -> list[Shape]:  # fmt: skip
    """The shapes of the rows, the first row's top at ``top``, drawings from ``left``."""
    h, w = style.line_h, swatch_width(style)
    out: list[Shape] = []
    for i, (mark, text) in enumerate(rows):
        y = top + (i + 0.5) * h
        size = h * 0.5
        if mark == "cube":
            for k, ink in enumerate(style.inks):
                x = left + k * size * 1.4
                out.append(("rect", x, y - size / 2, x + size, y + size / 2, ink, style.ink, 1,
                            False))  # fmt: skip
        elif mark == "mover":
            for k, ink in enumerate(style.inks):
                out.append(("disc", left + size / 2 + k * size * 1.4, y, size / 2, ink,
                            style.ink, 1))  # fmt: skip
        elif mark == "blocked":
            s = h * 0.8
            out.append(("rect", left, y - s / 2, left + s, y + s / 2, style.blocked_fill,
                        style.ink, 3, False))  # fmt: skip
        elif mark == "walk":
            lw = max(2, round(h * 0.12))
            out.append(("rect", left, y - h * 0.4, left + w - 4, y + h * 0.4, "none",
                        style.walk_ink, 2, True))  # fmt: skip
            start, end = (left + h * 0.45, y), (left + w - 4 - h * 0.45, y)
            out.append(("line", (start, end), style.walk_ink, lw))
            out.append(("arrow", arrow_head(start, end, lw), style.walk_ink))
            out.append(("disc", start[0], y, lw * 1.6, "#ffffff", style.walk_ink, lw))
        out.append(("text", left + w + h * 0.3, y, style.font, text, style.ink))
    return out


def arrow_head(p0: tuple[float, float], p1: tuple[float, float],
               w: float) -> list[tuple[float, float]]:  # fmt: skip
    """The triangle of an arrow of line width ``w`` from ``p0`` ending at ``p1``."""
    (x0, y0), (x1, y1) = p0, p1
    length = max(1e-9, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = w * 3.5
    return [(x1 + ux * w, y1 + uy * w),
            (x1 - ux * head - uy * head / 2, y1 - uy * head + ux * head / 2),
            (x1 - ux * head + uy * head / 2, y1 - uy * head - ux * head / 2)]  # fmt: skip


def _n(v: float) -> str:
    return f"{v:.1f}".removesuffix(".0")


def svg_elements(shapes: Sequence[Shape]) -> list[str]:
    """The shapes as SVG elements in a ``<g class="legend">``, each row's text a
    ``<text class="legend">``."""
    out = ['<g class="legend">']
    for s in shapes:
        if s[0] == "rect":
            _, x0, y0, x1, y1, fill, stroke, width, dashed = s
            dash = ' stroke-dasharray="4 3"' if dashed else ""
            out.append(f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" '
                       f'height="{_n(y1 - y0)}" fill="{fill}" stroke="{stroke}" '
                       f'stroke-width="{width}"{dash}/>')  # fmt: skip
        elif s[0] == "disc":
            _, x, y, r, fill, stroke, width = s
            out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{fill}" '
                       f'stroke="{stroke}" stroke-width="{width}"/>')  # fmt: skip
        elif s[0] == "line":
            _, pts, ink, width = s
            points = " ".join(f"{_n(x)},{_n(y)}" for x, y in pts)
            out.append(f'<polyline points="{points}" fill="none" stroke="{ink}" '
                       f'stroke-width="{width}"/>')  # fmt: skip
        elif s[0] == "arrow":
            points = " ".join(f"{_n(x)},{_n(y)}" for x, y in s[1])
            out.append(f'<polygon points="{points}" fill="{s[2]}"/>')
        else:
            _, x, y, size, text, ink = s
            out.append(f'<text class="legend" x="{_n(x)}" y="{_n(y)}" font-size="{size}" '
                       f'dominant-baseline="central" fill="{ink}">'
                       f"{escape(text)}</text>")  # fmt: skip
    out.append("</g>")
    return out


def draw_png(draw: Any, shapes: Sequence[Shape]) -> None:
    """Draw the shapes with a Pillow ``ImageDraw`` (dashed frames drawn whole)."""
    from PIL import ImageFont

    for s in shapes:
        if s[0] == "rect":
            _, x0, y0, x1, y1, fill, stroke, width, _dashed = s
            draw.rectangle((x0, y0, x1, y1), fill=None if fill == "none" else fill,
                           outline=stroke, width=width)  # fmt: skip
        elif s[0] == "disc":
            _, x, y, r, fill, stroke, width = s
            draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=stroke, width=width)
        elif s[0] == "line":
            draw.line(list(s[1]), fill=s[2], width=s[3])
        elif s[0] == "arrow":
            draw.polygon(list(s[1]), fill=s[2])
        else:
            _, x, y, size, text, ink = s
            draw.text((x, y), text, fill=ink, anchor="lm", font=ImageFont.load_default(size=size))
