"""A picture as a list of drawing items in pixels (:class:`Poly`, :class:`Strokes`,
:class:`Label`, nested in :class:`Group` s), and its two writers: :func:`svg_of`, an SVG
document, and :func:`png_of`, a PNG drawn with Pillow from the same items.

The pictures of the grids other than squares (:mod:`polytile.render.grids`) are built as a
:class:`Drawing`, so that their SVG and PNG cannot differ: each item is drawn in order
(painter's algorithm), a group only names its items in the SVG. The PNG is drawn at two or
three times its size and scaled down, which smooths the slanted edges of triangles,
hexagons and cubes (Pillow draws polygons without anti-aliasing).

Examples
--------
>>> from polytile.render.drawing import Drawing, Poly, svg_of
>>> d = Drawing(20, 10, None, (Poly(((0, 0), (10, 0), (5, 8)), "#ff0000", "cell"),))
>>> svg_of(d).splitlines()[3]
'<polygon class="cell" fill="#ff0000" points="0,0 10,0 5,8"/>'
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, TypeAlias

from polytile.errors import BoardError
from polytile.render.scene import INK
from polytile.text import xml_safe

__all__ = ["MAX_PNG_PIXELS", "Drawing", "Group", "Item", "Label", "Point", "Poly", "Strokes",
           "bounds", "check_png_size", "clip_line", "moved", "png_of", "svg_items",
           "svg_of"]  # fmt: skip

Point: TypeAlias = tuple[float, float]
Attrs: TypeAlias = tuple[tuple[str, str], ...]

#: Largest supersampled canvas, in pixels: bigger pictures are drawn at fewer times their size.
_SUPERSAMPLED = 12_000_000


@dataclass(frozen=True)
class Poly:
    """A filled polygon (``<polygon>``)."""

    points: tuple[Point, ...]
    fill: str
    cls: str
    attrs: Attrs = ()


@dataclass(frozen=True)
class Strokes:
    """Straight line segments of one ink and width, with round ends (one ``<path>``)."""

    segments: tuple[tuple[Point, Point], ...]
    stroke: str
    width: float
    cls: str
    attrs: Attrs = ()


@dataclass(frozen=True)
class Label:
    """A line of text centred on ``(x, y)`` (``<text>``)."""

    x: float
    y: float
    text: str
    size: float
    fill: str = INK
    cls: str = "label"
    bold: bool = False


@dataclass(frozen=True)
class Group:
    """Items under one name (``<g>``); the PNG draws them in order like any others."""

    cls: str
    items: tuple[Item, ...]
    attrs: Attrs = ()


Item: TypeAlias = Poly | Strokes | Label | Group


@dataclass(frozen=True)
class Drawing:
    """A whole picture: its size in pixels, its title (the SVG's ``<title>``) and its items,
    drawn first to last on white."""

    width: int
    height: int
    title: str | None
    items: tuple[Item, ...]


def _num(v: float) -> str:
    return f"{round(v, 2):g}"


def _attrs(cls: str, attrs: Attrs) -> str:
    from xml.sax.saxutils import quoteattr

    return f'class="{cls}"' + "".join(f" {k}={quoteattr(xml_safe(v))}" for k, v in attrs)


def _path(segments: tuple[tuple[Point, Point], ...]) -> str:
    """Path data of the segments, joined where one ends where the next starts."""
    out: list[str] = []
    end: Point | None = None
    for a, b in segments:
        if a != end:
            out.append(f"M{_num(a[0])} {_num(a[1])}")
        out.append(f"L{_num(b[0])} {_num(b[1])}")
        end = b
    return "".join(out)


def svg_of(drawing: Drawing) -> str:
    """The drawing as a standalone SVG document (``xmlns``, ``viewBox``, ``width`` and
    ``height`` set; a white background first)."""
    from xml.sax.saxutils import escape  # 0.03 s (urllib): only when drawing

    w, h = drawing.width, drawing.height
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">',
    ]
    if drawing.title:
        out.append(f"<title>{escape(xml_safe(drawing.title))}</title>")
    out.append(f'<rect width="{w}" height="{h}" fill="#ffffff"/>')
    out += svg_items(drawing.items)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def svg_items(items: tuple[Item, ...]) -> list[str]:
    """The SVG elements of ``items``, one a line (a group's opening and closing tags on
    lines of their own), for a document :func:`svg_of` or another writer makes."""
    from xml.sax.saxutils import escape

    out: list[str] = []

    def write(item: Item) -> None:
        if isinstance(item, Group):
            out.append(f"<g {_attrs(item.cls, item.attrs)}>")
            for inner in item.items:
                write(inner)
            out.append("</g>")
        elif isinstance(item, Poly):
            points = " ".join(f"{_num(x)},{_num(y)}" for x, y in item.points)
            out.append(f'<polygon {_attrs(item.cls, item.attrs)} fill="{item.fill}" '
                       f'points="{points}"/>')  # fmt: skip
        elif isinstance(item, Strokes):
            if item.segments:
                out.append(
                    f'<path {_attrs(item.cls, item.attrs)} fill="none" stroke="{item.stroke}" '
                    f'stroke-width="{_num(item.width)}" stroke-linecap="round" '
                    f'stroke-linejoin="round" d="{_path(item.segments)}"/>'
                )
        else:
            weight = ' font-weight="bold"' if item.bold else ""
            out.append(
                f'<text class="{item.cls}" x="{_num(item.x)}" y="{_num(item.y)}" '
                f'text-anchor="middle" dominant-baseline="central" font-family="sans-serif" '
                f'font-size="{_num(item.size)}"{weight} fill="{item.fill}">'
                f"{escape(xml_safe(item.text))}</text>"
            )

    for item in items:
        write(item)
    return out


def moved(items: tuple[Item, ...], dx: float, dy: float, *,
          labels: bool = True) -> tuple[Item, ...]:  # fmt: skip
    """``items`` moved ``dx`` right and ``dy`` down; without ``labels``, their texts left out
    (and the groups that held nothing else)."""
    out: list[Item] = []
    for item in items:
        if isinstance(item, Group):
            inner = moved(item.items, dx, dy, labels=labels)
            if inner or labels:
                out.append(replace(item, items=inner))
        elif isinstance(item, Poly):
            out.append(replace(item, points=tuple((x + dx, y + dy) for x, y in item.points)))
        elif isinstance(item, Strokes):
            out.append(replace(item, segments=tuple(((a[0] + dx, a[1] + dy), (b[0] + dx, b[1] + dy))
                                                    for a, b in item.segments)))  # fmt: skip
        elif labels:
            out.append(replace(item, x=item.x + dx, y=item.y + dy))
    return tuple(out)


def bounds(items: tuple[Item, ...]) -> tuple[float, float, float, float]:
    """The box ``(x0, y0, x1, y1)`` around the polygons' corners and the strokes' ends of
    ``items`` (not the strokes' widths, nor the texts); all 0 when there are none."""
    points = [p for item in _flat(items) if isinstance(item, Poly) for p in item.points]
    points += [p for item in _flat(items) if isinstance(item, Strokes)
               for seg in item.segments for p in seg]  # fmt: skip
    if not points:
        return (0.0, 0.0, 0.0, 0.0)
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _flat(items: tuple[Item, ...]) -> Iterator[Poly | Strokes | Label]:
    for item in items:
        if isinstance(item, Group):
            yield from _flat(item.items)
        else:
            yield item


def png_of(drawing: Drawing) -> bytes:
    """The drawing as a PNG file's bytes, ``width`` x ``height`` pixels.

    Raises
    ------
    BoardError
        If the picture is larger than :data:`~polytile.render.png.MAX_PNG_PIXELS`.
    """
    from PIL import Image, ImageDraw, ImageFont


    check_png_size(drawing.width, drawing.height)
    area = drawing.width * drawing.height
    k = next((k for k in (3, 2) if area * k * k <= _SUPERSAMPLED), 1)
    image = Image.new("RGB", (drawing.width * k, drawing.height * k), "#ffffff")
    draw = ImageDraw.Draw(image)
    fonts: dict[int, Any] = {}
    for item in _flat(drawing.items):
        if isinstance(item, Poly):
            draw.polygon([(x * k, y * k) for x, y in item.points], fill=item.fill)
        elif isinstance(item, Strokes):
            width = max(1, round(item.width * k))
            radius = width / 2
            for (x0, y0), (x1, y1) in item.segments:
                draw.line((x0 * k, y0 * k, x1 * k, y1 * k), fill=item.stroke, width=width)
                if width >= 3:  # round ends, as the SVG's, so that segments join cleanly
                    for x, y in ((x0 * k, y0 * k), (x1 * k, y1 * k)):
                        draw.ellipse((x - radius, y - radius, x + radius, y + radius),
                                     fill=item.stroke)  # fmt: skip
        else:
            size = max(8, round(item.size * k))
            if size not in fonts:
                fonts[size] = ImageFont.load_default(size=size)
            draw.text((item.x * k, item.y * k), item.text, fill=item.fill, font=fonts[size],
                      anchor="mm")  # fmt: skip
    if k > 1:
        image = image.resize((drawing.width, drawing.height), Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def clip_line(point: Point, direction: Point, polygon: tuple[Point, ...],
              ) -> tuple[Point, Point] | None:  # fmt: skip
    """The part of the line through ``point`` along ``direction`` inside the convex
    ``polygon`` (either orientation), or None when it misses it."""
    n = len(polygon)
    cx = sum(x for x, _ in polygon) / n
    cy = sum(y for _, y in polygon) / n
    lo, hi = float("-inf"), float("inf")
    for i in range(n):
        (ax, ay), (bx, by) = polygon[i], polygon[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        side = 1.0 if ex * (cy - ay) - ey * (cx - ax) >= 0 else -1.0
        f0 = side * (ex * (point[1] - ay) - ey * (point[0] - ax))
        f1 = side * (ex * direction[1] - ey * direction[0])
        if abs(f1) < 1e-12:
            if f0 < 0:
                return None
        elif f1 > 0:
            lo = max(lo, -f0 / f1)
        else:
            hi = min(hi, -f0 / f1)
    if not lo < hi:
        return None
    return ((point[0] + lo * direction[0], point[1] + lo * direction[1]),
            (point[0] + hi * direction[0], point[1] + hi * direction[1]))  # fmt: skip


#: Largest PNG drawn, in pixels (3 bytes each while drawing): a 200 x 200 board at the
#: default cell size fits; bigger pictures are refused before any memory is taken.
MAX_PNG_PIXELS = 30_000_000


def check_png_size(width: int, height: int) -> None:
    """Refuse a PNG of ``width`` x ``height`` pixels when it is more than
    :data:`MAX_PNG_PIXELS`, before any memory is taken for it.

    Raises
    ------
    BoardError
        If the picture is too large; the message says how to make it smaller.
    """
    if width * height > MAX_PNG_PIXELS:
        raise BoardError(
            f"a PNG of {width:,} x {height:,} pixels is more than the "
            f"{MAX_PNG_PIXELS:,} pixels polytile draws; use a smaller cell size (--cell), a "
            "shorter title, or an .svg picture"
        )
