"""Pictures of a puzzle to solve (:class:`~polytile.render.scene.PuzzlePicture`): its board,
with its holes and the pieces given in place (marked given), and under it a *tray* of the
pieces still to place, each drawn once with its supply written beside it.

:func:`~polytile.render.to_text`, :func:`~polytile.render.to_svg`,
:func:`~polytile.render.to_png` and :func:`~polytile.render.save_picture` draw a puzzle
picture: each draws the board as set up as it draws a solution, then adds the tray with
:func:`tray_text`, :func:`tray_svg` or :func:`tray_png` (given the board's picture, this
module imports none of the writers). :func:`polytile.puzzles.tiling.picture.puzzle_picture`
makes a puzzle picture from a tiling puzzle.

Pieces of the triangle, hex and cube grids (a :class:`~polytile.render.scene.TrayPiece`'s
``grid``) are drawn as their grid draws them (:mod:`polytile.render.gridtray`): in text one
character a cell (:meth:`polytile.grids.Grid.write_text`), in the SVG and PNG as triangles
and hexagons, a piece of cubes as a small isometric solid.

Examples
--------
>>> from polytile.formats import Solution
>>> from polytile.render import to_text
>>> from polytile.render.scene import PuzzlePicture, TrayGroup, TrayPiece
>>> v3 = TrayPiece("V3", ((0, 0), (1, 0), (1, 1)), "x2")
>>> picture = PuzzlePicture("demo", Solution("demo", 2, 3, (), blocked=((0, 2),)),
...                         (TrayGroup("Pieces to place", (v3,)),))
>>> print(to_text(picture, color=False), end="")
demo
. . #
. . .
<BLANKLINE>
Pieces to place:
V
V V
V3 x2
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from polytile.render.scene import (
    GRID_INK,
    INK,
    PALETTE,
    PuzzlePicture,
    TrayPiece,
    given_indices,
    mix,
    outline,
    piece_letter,
)
from polytile.text import printable, xml_safe

if TYPE_CHECKING:  # the drawing items of the other grids' pieces, drawn only for those
    from polytile.geometry import Cell
    from polytile.render.drawing import Item

__all__ = ["tray_png", "tray_svg", "tray_text"]

_SIZE = re.compile(r'<svg [^>]*width="([\d.]+)" height="([\d.]+)"')
#: Text pictures wrap the tray at this many characters (or the board's width if wider).
_TEXT_WIDTH = 64
_GAP = "   "


def _groups(picture: PuzzlePicture) -> list[tuple[str, list[tuple[TrayPiece, str]]]]:
    """Each group's heading and its pieces with their fills (the palette in order after the
    given pieces' on the board); a tray with nothing left to place says so."""
    groups: list[tuple[str, list[tuple[TrayPiece, str]]]] = []
    n = len(picture.setup.placements)  # after the given pieces' colours
    for group in picture.tray:
        groups.append((group.heading, []))
        for piece in group.pieces:
            groups[-1][1].append((piece, PALETTE[n % len(PALETTE)]))
            n += 1
    return groups or [("Nothing left to place", [])]


def _square_cells(piece: TrayPiece) -> frozenset[Cell]:
    """The cells of a piece of squares, ``(row, col)``."""
    return cast("frozenset[Cell]", frozenset(piece.cells))


def _extent(piece: TrayPiece) -> tuple[int, int]:
    """Rows and columns of the box around the piece's cells (drawn from row 0, column 0)."""
    return max(r for r, _ in piece.cells) + 1, max(c for _, c in piece.cells) + 1


# -- text ------------------------------------------------------------------------------------
Segment = tuple[str, str | None]  # text, and the fill behind it (None: the terminal's own)


def tray_text(picture: PuzzlePicture, board: str, color: bool) -> str:
    """The puzzle as text: a line with its name (and description), ``board`` (the text
    picture of its board as set up: holes ``#``, given pieces in lower case, said by a line
    under it), then the tray: each group's heading and its pieces drawn in their letters,
    side by side, each with its name and supply under it, and the notes.

    Parameters
    ----------
    picture
        The puzzle.
    board
        The text picture of ``picture.setup``.
    color
        Whether the tray's pieces are drawn in colour (ANSI), as the board is.
    """
    head = printable(picture.name)
    if picture.description:
        head += f": {printable(picture.description)}"
    lines: list[list[Segment]] = []
    width = max(_TEXT_WIDTH, 2 * picture.setup.cols)
    for heading, pieces in _groups(picture):
        lines += [[], [(f"{printable(heading)}{':' if pieces else '.'}", None)]]
        lines += _text_rows(pieces, width) if pieces else []
    notes: list[list[Segment]] = [[(printable(note), None)] for note in picture.notes]
    lines += [[], *notes] if notes else []
    return head + "\n" + board + _segments_text(lines, color)


def _text_rows(pieces: list[tuple[TrayPiece, str]], width: int) -> list[list[Segment]]:
    """The pieces side by side, rows wrapped at ``width`` characters: each piece drawn by
    :func:`_art`, its label (name and supply) on the line under the tallest."""
    rows: list[list[tuple[TrayPiece, _Art, int]]] = [[]]
    used = 0
    for piece, fill in pieces:
        art = _art(piece, fill)
        wide = max(art.width, len(_label(piece)))
        if rows[-1] and used + len(_GAP) + wide > width:
            rows.append([])
            used = 0
        used += (len(_GAP) if rows[-1] else 0) + wide
        rows[-1].append((piece, art, wide))
    lines: list[list[Segment]] = []
    for row in rows:
        tall = max(len(art.lines) for _, art, _ in row)
        for r in range(tall):
            line: list[Segment] = []
            for k, (_, art, wide) in enumerate(row):
                line.append((_GAP if k else "", None))
                line += art.lines[r] if r < len(art.lines) else art.blank
                line.append((" " * (wide - art.width), None))
            lines.append(line)
        lines.append([(f"{_GAP if k else ''}{_label(p):<{wide}}", None)
                      for k, (p, _, wide) in enumerate(row)])  # fmt: skip
    return lines


@dataclass(frozen=True)
class _Art:
    lines: list[list[Segment]]  # the piece's lines of text, each ``width`` characters
    width: int
    blank: list[Segment]  # a line of it where the piece has none (under a shorter piece)


def _art(piece: TrayPiece, fill: str) -> _Art:
    """The piece in text: on squares two characters a cell (its letter and a space), on the
    other grids as the grid draws it (:func:`~polytile.render.gridtray.piece_lines`)."""
    letter = piece_letter(piece.name)
    if piece.grid == "square":
        h, w = _extent(piece)
        cells = set(piece.cells)
        lines: list[list[Segment]] = [
            [(f"{letter} ", fill) if (r, c) in cells else ("  ", None) for c in range(w)]
            for r in range(h)
        ]
        return _Art(lines, 2 * w, [("  ", None)] * w)
    from polytile.render.gridtray import piece_lines

    text = piece_lines(piece)
    w = max(len(line) for line in text)
    lines = [[(ch, fill if ch == letter else None) for ch in line.ljust(w)] for line in text]
    return _Art(lines, w, [(" " * w, None)])


def _label(piece: TrayPiece) -> str:
    return f"{printable(piece.name)} {printable(piece.supply)}"


def _segments_text(lines: list[list[Segment]], color: bool) -> str:
    """The lines as plain text (trailing spaces dropped) or with their fills (rich)."""
    if not color:
        return "".join("".join(text for text, _ in line).rstrip() + "\n" for line in lines)
    from rich.console import Console
    from rich.style import Style
    from rich.text import Text

    text = Text()
    for line in lines:
        while line and line[-1][1] is None and not line[-1][0].strip():
            line = line[:-1]
        for part, fill in line:
            style = Style(color="#000000", bgcolor=fill, bold=True) if fill else Style()
            text.append(part, style)
        text.append("\n")
    buffer = io.StringIO()
    Console(file=buffer, force_terminal=True, color_system="256", width=200, highlight=False,
            markup=False, emoji=False, legacy_windows=False).print(text, end="",
                                                                    soft_wrap=True)  # fmt: skip
    return buffer.getvalue()


# -- the tray's geometry, for SVG and PNG ------------------------------------------------------
@dataclass(frozen=True)
class _Drawn:
    piece: TrayPiece
    fill: str
    x: float  # the top left of the piece's box
    y: float
    label_x: float  # where its label starts, vertically centred on the piece
    label_y: float
    art: tuple[Item, ...] = ()  # a piece of another grid than squares: its drawing at (0, 0)


@dataclass(frozen=True)
class _Tray:
    cell: int  # side of a tray cell, smaller than the board's
    font: float
    thick: int
    width: float
    height: float
    headings: tuple[tuple[float, float, str], ...]  # x, baseline y, text
    notes: tuple[tuple[float, float, str], ...]
    pieces: tuple[_Drawn, ...]


def _tray(picture: PuzzlePicture, cell: int, board_width: float) -> _Tray:
    """Where the tray's headings and pieces go, below a board picture ``board_width``
    wide: pieces left to right, wrapped at the board's width (at least 14 cells); a piece of
    another grid than squares drawn by :func:`~polytile.render.gridtray.piece_art`."""
    tc = max(4, round(cell * 0.6))
    font = max(8.0, cell * 0.55)
    char = font * 0.62  # a generous guess at a sans-serif character's width
    margin = max(4, cell // 2)
    width = max(board_width, 14 * cell)
    headings: list[tuple[float, float, str]] = []
    notes: list[tuple[float, float, str]] = []
    drawn: list[_Drawn] = []
    y, right = 0.0, 0.0
    for heading, pieces in _groups(picture):
        headings.append((margin, y + font, heading))
        y += font * 1.8
        x, tall = float(margin), 0.0
        for piece, fill in pieces:
            art: tuple[Item, ...] = ()
            pw: float
            ph: float
            if piece.grid == "square":
                h, w = _extent(piece)
                pw, ph = w * tc, h * tc
            else:
                from polytile.render.gridtray import piece_art

                art, pw, ph = piece_art(piece, tc, fill)
            wide = pw + tc * 0.5 + len(_label(piece)) * char
            if x > margin and x + wide > width - margin:
                x, y, tall = float(margin), y + tall + tc * 0.8, 0.0
            drawn.append(_Drawn(piece, fill, x, y, x + pw + tc * 0.5, y + ph / 2, art))
            right = max(right, x + wide)
            x += wide + tc * 1.2
            tall = max(tall, ph, font)
        y += tall + tc * 1.2
    hatched = ("Hatched: given in place",) if given_indices(picture.setup) else ()
    for note in (*hatched, *picture.notes):
        notes.append((margin, y + font, note))
        y += font * 1.6
    return _Tray(tc, font, max(2, round(tc / 8)), max(width, right + margin), y + margin,
                 tuple(headings), tuple(notes), tuple(drawn))  # fmt: skip


def _squares(x: float, y: float, tc: int, piece: TrayPiece) -> Iterator[tuple[float, float]]:
    """The top left corner of each of the piece's cells."""
    for r, c in sorted(piece.cells):
        yield x + c * tc, y + r * tc


# -- SVG -------------------------------------------------------------------------------------
def _num(v: float) -> str:
    return f"{round(v, 2):g}"


def tray_svg(picture: PuzzlePicture, board: str, cell: int, caption: str | None) -> str:
    """The puzzle as an SVG document: ``board``, the SVG picture of ``picture.setup`` drawn
    with ``cell`` and captioned ``caption`` (also the document's title), with the tray
    under it.

    Returns
    -------
    str
        An SVG document: the board is a nested ``<svg class="puzzle-board">`` (the picture
        :func:`~polytile.render.to_svg` draws of the board as set up, given pieces hatched);
        the tray a ``<g class="tray">`` with a ``<text class="tray-heading">`` per group, a
        ``<g class="tray-piece">`` per piece, its ``data-piece`` and ``data-supply`` set,
        and a ``<text class="tray-note">`` per note ("Hatched: given in place" first when
        pieces are given). On squares a tray piece holds a ``tray-cells`` and a
        ``tray-outline`` path; on the other grids the items of
        :func:`~polytile.render.gridtray.piece_art` (``cell`` polygons, or a ``cube``
        group per cube).

    """
    from xml.sax.saxutils import escape, quoteattr

    size = _SIZE.search(board)
    if size is None:  # pragma: no cover - to_svg always sets both
        raise ValueError("board picture without a size")
    bw, bh = float(size.group(1)), float(size.group(2))
    tray = _tray(picture, cell, bw)
    width, height = max(bw, tray.width), bh + tray.height
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" height="{_num(height)}" '
        f'viewBox="0 0 {_num(width)} {_num(height)}">',
    ]
    if caption:
        out.append(f"<title>{escape(xml_safe(caption))}</title>")
    out.append(f'<rect width="{_num(width)}" height="{_num(height)}" fill="#ffffff"/>')
    body = board[board.index("<svg") :].rstrip("\n")
    out.append(body.replace("<svg ", f'<svg class="puzzle-board" x="{_num((width - bw) / 2)}" '
                            'y="0" ', 1))  # fmt: skip
    out.append(f'<g class="tray" font-family="sans-serif" fill="{INK}">')
    for x, y, text in tray.headings:
        out.append(f'<text class="tray-heading" x="{_num(x)}" y="{_num(bh + y)}" '
                   f'font-size="{_num(tray.font * 1.1)}" font-weight="bold">'
                   f"{escape(xml_safe(text))}</text>")  # fmt: skip
    for x, y, text in tray.notes:
        out.append(f'<text class="tray-note" x="{_num(x)}" y="{_num(bh + y)}" '
                   f'font-size="{_num(tray.font)}">{escape(xml_safe(text))}</text>')  # fmt: skip
    tc = tray.cell
    for d in tray.pieces:
        top = bh + d.y
        if d.art:
            out += _svg_grid_piece(d, top, escape(xml_safe(_label(d.piece))), tray.font, bh)
            continue
        squares = "".join(f"M{_num(x)} {_num(y)}h{tc}v{tc}h-{tc}z"
                          for x, y in _squares(d.x, top, tc, d.piece))  # fmt: skip
        edges = "".join(
            f"M{_num(d.x + x0 * tc)} {_num(top + y0 * tc)}"
            + (f"H{_num(d.x + x1 * tc)}" if y0 == y1 else f"V{_num(top + y1 * tc)}")
            for x0, y0, x1, y1 in outline(_square_cells(d.piece))
        )
        label = _label(d.piece)
        out += [
            f"<g class=\"tray-piece\" data-piece={quoteattr(xml_safe(d.piece.name))} "
            f"data-supply={quoteattr(xml_safe(d.piece.supply))}>",
            f'<path class="tray-cells" fill="{d.fill}" stroke="{mix(d.fill, GRID_INK, 0.5)}" '
            f'stroke-width="1" d="{squares}"/>',
            f'<path class="tray-outline" fill="none" stroke="{INK}" '
            f'stroke-width="{tray.thick}" stroke-linecap="square" d="{edges}"/>',
            f'<text class="tray-label" x="{_num(d.label_x)}" y="{_num(bh + d.label_y)}" '
            f'dominant-baseline="central" font-size="{_num(tray.font)}">'
            f"{escape(xml_safe(label))}</text>",
            "</g>",
        ]
    out += ["</g>", "</svg>"]
    return "\n".join(out) + "\n"


def _svg_grid_piece(d: _Drawn, top: float, label: str, font: float, bh: float) -> list[str]:
    """A tray piece of another grid than squares: its drawing, then its label."""
    from xml.sax.saxutils import quoteattr

    from polytile.render.drawing import moved, svg_items

    return [
        f'<g class="tray-piece" data-piece={quoteattr(xml_safe(d.piece.name))} '
        f"data-supply={quoteattr(xml_safe(d.piece.supply))}>",
        *svg_items(moved(d.art, d.x, top)),
        f'<text class="tray-label" x="{_num(d.label_x)}" y="{_num(bh + d.label_y)}" '
        f'dominant-baseline="central" font-size="{_num(font)}">{label}</text>',
        "</g>",
    ]


# -- PNG -------------------------------------------------------------------------------------
def tray_png(picture: PuzzlePicture, board: bytes, cell: int,
             check_size: Callable[[int, int], None]) -> bytes:  # fmt: skip
    """The puzzle as a PNG file's bytes: ``board``, the PNG picture of ``picture.setup``
    drawn with ``cell``, with the tray under it, laid out as :func:`tray_svg` lays it out.
    ``check_size(width, height)`` refuses a picture too large before it is drawn."""
    from PIL import Image, ImageDraw, ImageFont

    from polytile.render.drawing import Drawing, moved, png_of

    board_image = Image.open(io.BytesIO(board))
    bw, bh = board_image.size
    tray = _tray(picture, cell, bw)
    width, height = round(max(bw, tray.width)), round(bh + tray.height)
    check_size(width, height)
    image = Image.new("RGB", (width, height), "#ffffff")
    image.paste(board_image, ((width - bw) // 2, 0))
    arts = tuple(item for d in tray.pieces for item in moved(d.art, d.x, d.y))
    if arts:  # pieces of another grid than squares, drawn as their boards are
        strip = Drawing(width, height - bh, None, arts)
        image.paste(Image.open(io.BytesIO(png_of(strip))), (0, bh))
    draw = ImageDraw.Draw(image)
    heading = ImageFont.load_default(size=max(8, round(tray.font * 1.1)))
    for x, y, text in tray.headings:
        draw.text((x, bh + y), text, fill=INK, font=heading, anchor="ls")
    font = ImageFont.load_default(size=max(8, round(tray.font)))
    for x, y, text in tray.notes:
        draw.text((x, bh + y), text, fill=INK, font=font, anchor="ls")
    tc, lo, hi = tray.cell, tray.thick // 2, (tray.thick - 1) // 2
    for d in tray.pieces:
        top = bh + d.y
        if d.art:
            draw.text((d.label_x, bh + d.label_y), _label(d.piece), fill=INK, font=font,
                      anchor="lm")  # fmt: skip
            continue
        for x, y in _squares(d.x, top, tc, d.piece):
            draw.rectangle((round(x), round(y), round(x) + tc, round(y) + tc), fill=d.fill,
                           outline=mix(d.fill, GRID_INK, 0.5))  # fmt: skip
        for x0, y0, x1, y1 in outline(_square_cells(d.piece)):
            ax, ay = round(d.x + x0 * tc), round(top + y0 * tc)
            bx, by = round(d.x + x1 * tc), round(top + y1 * tc)
            draw.rectangle((ax - lo, ay - lo, bx + hi, by + hi), fill=INK)
        draw.text((d.label_x, bh + d.label_y), _label(d.piece), fill=INK, font=font, anchor="lm")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
