"""Pictures of a City Blocks score: the board with each colour's counted area and free edges.

The board is drawn by :mod:`polytile.render`; on top, every cell of a colour's counted area
(its largest region) gets a white dot, and every free edge a stripe of the colour's fill on
the empty side of the edge. The terminal picture shows counted cells with a dot too (or, in
plain text, as capital letters, the other cells of the colour as small letters), and
:func:`score_table` gives the numbers.

Examples
--------
>>> from polytile.puzzles.cityblocks.scoring import score, start_rows
>>> rows = start_rows()
>>> rows[0] = "BBB" + rows[0][3:]
>>> sheet = score(rows)
>>> print(score_text(rows, sheet, color=False).splitlines()[0])
B B B . . . . . . . . . . . . . . . . .
>>> print(score_text(rows, sheet, color=False).splitlines()[9][18:21])
b y
>>> print(score_table(sheet))
colour   area  free  total
blue        3     6      9
yellow      0     2      2
red         0     2      2
green       0     2      2
winner: blue (9)
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence

from polytile._files import output_suffix
from polytile.errors import FormatError
from polytile.formats import COLORS, Position, write_atomic
from polytile.puzzles.cityblocks.scoring import Edge, ScoreSheet

# The render scene's layout makes the overlay line up with the board exactly (same margins,
# title band and cell size), in SVG and PNG alike.
from polytile.render.png import png_bytes
from polytile.render.scene import BLOCKED_FILL, PLAYER_FILLS, Layout, layout, scene_of
from polytile.render.svg import to_svg
from polytile.text import want_color

__all__ = ["save_score_picture", "score_png", "score_svg", "score_table", "score_text"]

_DOT = "#ffffff"
_DOT_INK = "#111111"
_STRIPE = 0.16  # depth of a free-edge stripe, in cells
_INSET = 0.2  # gap at both ends of a stripe, so neighbouring stripes stay apart


def score_table(sheet: ScoreSheet, over: bool | None = None) -> str:
    """The scores as a text table: one line per colour, then the players and the winner.

    With 2 or 3 players a second table gives each player's total; green's line is marked
    "(ignored)" with 3 players. ``over`` False (a game still going): the leader, not a
    winner; None (not known, a layout) names the winner of the board as it stands.
    """
    lines = [f"{'colour':<8}{'area':>5}{'free':>6}{'total':>7}"]
    for name, s in sheet.colors.items():
        note = "  (ignored)" if sheet.players == 3 and name == "green" else ""
        lines.append(f"{name:<8}{s.area:>5}{s.free:>6}{s.total:>7}{note}")
    totals = sheet.player_totals
    if sheet.players != 4:
        width = max(len(n) for n in totals) + 2
        lines.append("")
        lines.append(f"{'player':<{width}}{'total':>7}")
        lines += [f"{name:<{width}}{t:>7}" for name, t in totals.items()]
    best = sheet.winners()
    if over is False:
        label = "leads so far" if len(best) == 1 else "level so far"
    else:
        label = "winner" if len(best) == 1 else "draw between"
    lines.append(f"{label}: {', '.join(best)} ({totals[best[0]]})")
    return "\n".join(lines)




def score_text(rows: Sequence[str], sheet: ScoreSheet, color: bool | None = None) -> str:
    """A terminal picture of the board with the counted areas marked.

    Parameters
    ----------
    rows
        The board that was scored.
    sheet
        Its :func:`~polytile.puzzles.cityblocks.scoring.score`.
    color
        True for ANSI colours (counted cells carry a dot), False for plain letters (counted
        cells capital, other cells of the colour small), None for colours only on a terminal
        without ``NO_COLOR``.
    """
    counted = {cell: name for name, s in sheet.colors.items() for cell in s.area_cells}
    if not want_color(color):
        out = []
        for r, row in enumerate(rows):
            out.append(
                " ".join(
                    ch if ch in ".#" or (r, c) in counted else ch.lower()
                    for c, ch in enumerate(row)
                )
            )
        return "\n".join(out) + "\n"
    from rich.console import Console
    from rich.style import Style
    from rich.text import Text

    fills = {letter: PLAYER_FILLS[letter] for letter in COLORS.values()}
    text = Text()
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == ".":
                text.append(". ", Style(color="#8a8a8a"))
            elif ch == "#":
                text.append("  ", Style(bgcolor=BLOCKED_FILL))
            elif (r, c) in counted:
                text.append("● ", Style(color=_DOT, bgcolor=fills[ch], bold=True))
            else:
                text.append("  ", Style(bgcolor=fills[ch]))
        text.append("\n")
    truecolor = os.environ.get("COLORTERM", "").lower() in ("truecolor", "24bit")
    buffer = io.StringIO()
    Console(
        file=buffer,
        force_terminal=True,
        color_system="truecolor" if truecolor else "256",
        width=max(80, 2 * len(rows[0]) + 2),
        highlight=False,
        markup=False,
        emoji=False,
    ).print(text, end="", soft_wrap=True)
    return buffer.getvalue()


def _stripe(edge: Edge) -> tuple[float, float, float, float]:
    """The free-edge stripe as ``(x0, y0, x1, y1)`` in grid units, inside the empty cell."""
    (r, c), (er, ec) = edge
    s, i = _STRIPE, _INSET
    if er < r:
        return (c + i, r - s, c + 1 - i, r)
    if er > r:
        return (c + i, r + 1, c + 1 - i, r + 1 + s)
    if ec < c:
        return (c - s, r + i, c, r + 1 - i)
    return (c + 1, r + i, c + 1 + s, r + 1 - i)


def _geometry(rows: Sequence[str], cell: int, title: str | None) -> tuple[Position, Layout]:
    position = Position("cityblocks", tuple(rows))
    return position, layout(scene_of(position), cell, title)


def score_svg(
    rows: Sequence[str], sheet: ScoreSheet, cell: int = 24, title: str | None = None
) -> str:
    """An SVG picture: :func:`polytile.render.to_svg` of the board, plus the counted areas
    (``<g class="area">``, one dot per cell) and free edges (``<g class="free-edges">``, one
    stripe per edge, in the colour's fill).

    Raises
    ------
    ValueError
        If ``cell`` is not from 4 to 200.
    """
    position, lay = _geometry(rows, cell, title)
    svg = to_svg(position, cell, title)
    out = ['<g class="free-edges">']
    for name, s in sheet.colors.items():
        fill = PLAYER_FILLS[COLORS[name]]
        d = "".join(
            f"M{lay.x(x0):g} {lay.y(y0):g}H{lay.x(x1):g}V{lay.y(y1):g}H{lay.x(x0):g}z"
            for x0, y0, x1, y1 in map(_stripe, s.free_edges)
        )
        if d:
            out.append(f'<path data-color="{name}" fill="{fill}" d="{d}"/>')
    out.append("</g>")
    radius = cell * 0.16
    out.append(f'<g class="area" fill="{_DOT}" stroke="{_DOT_INK}" stroke-width="1">')
    for name, s in sheet.colors.items():
        for r, c in sorted(s.area_cells):
            out.append(
                f'<circle data-color="{name}" cx="{lay.x(c + 0.5):g}" cy="{lay.y(r + 0.5):g}" '
                f'r="{radius:g}"/>'
            )
    out.append("</g>")
    head, tail = svg.rsplit("</svg>", 1)
    return head + "\n".join(out) + "\n</svg>" + tail


def score_png(
    rows: Sequence[str], sheet: ScoreSheet, cell: int = 24, title: str | None = None
) -> bytes:
    """The PNG bytes of the same picture as :func:`score_svg`, drawn with Pillow.

    Raises
    ------
    ValueError
        If ``cell`` is not from 4 to 200.
    """
    from PIL import Image, ImageDraw

    position, lay = _geometry(rows, cell, title)
    image = Image.open(io.BytesIO(png_bytes(position, cell, title))).convert("RGB")
    draw = ImageDraw.Draw(image)
    for name, s in sheet.colors.items():
        fill = PLAYER_FILLS[COLORS[name]]
        for x0, y0, x1, y1 in map(_stripe, s.free_edges):
            draw.rectangle(
                (round(lay.x(x0)), round(lay.y(y0)), round(lay.x(x1)) - 1, round(lay.y(y1)) - 1),
                fill=fill,
            )
    radius = cell * 0.16
    for s in sheet.colors.values():
        for r, c in s.area_cells:
            x, y = lay.x(c + 0.5), lay.y(r + 0.5)
            draw.ellipse(
                (x - radius, y - radius, x + radius, y + radius), fill=_DOT, outline=_DOT_INK
            )
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def save_score_picture(
    rows: Sequence[str],
    sheet: ScoreSheet,
    path: str | os.PathLike[str],
    cell: int = 24,
    title: str | None = None,
    over: bool | None = None,
) -> None:
    """Write the picture, of the kind the suffix names: ``.svg``, ``.png`` or ``.txt``.

    A ``.txt`` picture is the plain :func:`score_text` followed by :func:`score_table`.

    Raises
    ------
    FormatError
        If the suffix is none of those three.
    OSError
        If the file cannot be written (an existing file is left as it was).
    """
    suffix = output_suffix(path, ".svg")  # -o -: SVG
    if suffix == ".svg":
        write_atomic(path, score_svg(rows, sheet, cell, title))
    elif suffix == ".png":
        write_atomic(path, score_png(rows, sheet, cell, title))
    elif suffix == ".txt":
        table = score_table(sheet, over)  # over: as score_table (a winner only once over)
        write_atomic(path, score_text(rows, sheet, color=False) + "\n" + table + "\n")
    else:
        raise FormatError(
            f"cannot tell the picture kind from suffix {suffix or '(none)'!r}; "
            "use .svg, .png or .txt",
            str(path),
        )
