"""Pictures of a Walkable Cities state: the three boards side by side, each player's largest
region marked, in the terminal (text, coloured or plain), SVG and PNG; the score table; and
the boards of the largest-path puzzle (:func:`path_text`).

In text a cell is ``.`` unclaimed, ``#`` dead, and ``R``/``B`` for a cell of its player's
largest region on that board (every region of that size when several tie), ``r``/``b`` for
its other cells; a legend line under the boards says so. In SVG and PNG the largest regions
carry a white dot, said by a legend line too. Every picture labels the columns ``a``..``j``
over each board and the rows ``1``..``10`` at the left, as cells are written (``d4``).

Examples
--------
>>> from polytile.puzzles.walkable.rules import Walkable
>>> g = Walkable.new(seed=1, dead=0)
>>> g.play_round("T4 1:c4,d4 2:e4 3:d5 | L4 1:a1,a2 3:a3,b3")
>>> print(to_text(g, color=False).splitlines()[4])
 3  . . . . . . . . . .    . . . . . . . . . .    B B . . . . . . . .
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from typing import Any
from xml.sax.saxutils import escape

import numpy as np
import numpy.typing as npt

from polytile.puzzles.walkable.board import BLUE, BOARDS, DEAD, RED, SIDE, UNCLAIMED
from polytile.puzzles.walkable.rules import PLAYER_NAMES, Walkable
from polytile.text import counted, xml_safe

__all__ = [
    "PICTURE_LEGEND",
    "TEXT_LEGEND",
    "largest_cells",
    "path_legend",
    "path_text",
    "score_doc",
    "score_table",
    "to_png",
    "to_svg",
    "to_text",
]

_FILL = {UNCLAIMED: "#f4f1e8", DEAD: "#3b3b3b", RED: "#d1453b", BLUE: "#3b6fd1"}
_STYLE = {UNCLAIMED: "", DEAD: "bright_black", RED: "red", BLUE: "blue"}
_INK = "#222222"
_COLUMNS = "abcdefghij"
#: The legend lines under the boards.
TEXT_LEGEND = ("cells: . unclaimed, # dead; R B a player's largest region on that board, "
               "r b its other cells")  # fmt: skip
PICTURE_LEGEND = "white dot: a player's largest region on that board"
#: The path puzzle's marks: the cells of :data:`polytile.puzzles.walkable.path.board_rows`.
_PATH_MARKS = {UNCLAIMED: ".", DEAD: "#", RED: "R", BLUE: "B"}


def largest_cells(cells: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
    """True on the cells of each player's largest region on each board (all regions of that
    size when several tie)."""
    out = np.zeros(len(cells), dtype=np.bool_)
    for b in range(BOARDS):
        for owner in (RED, BLUE):
            regions = list(_regions(cells, b, owner))
            top = max((len(r) for r in regions), default=0)
            for r in regions:
                if len(r) == top:
                    out[r] = True
    return out


def _regions(cells: npt.NDArray[np.int8], b: int, owner: int) -> Iterator[list[int]]:
    seen: set[int] = set()
    for start in range(b * 100, b * 100 + 100):
        if cells[start] != owner or start in seen:
            continue
        seen.add(start)
        todo, region = [start], []
        while todo:
            g = todo.pop()
            region.append(g)
            r, c = divmod(g % 100, SIDE)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                h = b * 100 + rr * SIDE + cc
                if 0 <= rr < SIDE and 0 <= cc < SIDE and h not in seen and cells[h] == owner:
                    seen.add(h)
                    todo.append(h)
        yield region


def _status(g: Walkable) -> list[str]:
    res = g.result()
    lines = []
    for p, name in enumerate(PLAYER_NAMES):
        paths = " ".join(str(x) for x in res.paths[p])
        lines.append(f"{name}: largest regions {paths}, boards won {res.won[p]}, "
                     f"passes in a row {g.passes[p]}")  # fmt: skip
    if g.is_over():
        who = "a draw" if res.winner is None else f"{PLAYER_NAMES[res.winner]} wins"
        tb = " (tiebreak)" if res.by_tiebreak else ""
        lines.append(f"game over after round {g.round}: {who}{tb}")
    else:
        # the rounds played, as "round" counts them in the files and in score --json, and
        # the round being played: the picture once said "round 6" where the score said 5
        rot = " ".join(g.rotation) or "empty (refills)"
        picks = "" if g.picks is None else f"; picks: red {g.picks[0]}, blue {g.picks[1]}"
        lines.append(f"{counted(g.round, 'round')} played, round {g.round + 1} next; "
                     f"rotation: {rot}{picks}")  # fmt: skip
    return lines


def to_text(g: Walkable, color: bool | None = None) -> str:
    """The three boards side by side (see the module notes), then each player's largest
    regions and boards won, and where the game stands."""
    if color is None:
        color = sys.stdout.isatty()
    marked = largest_cells(g.cells)
    parts: list[tuple[str, str]] = []
    head = "    " + "    ".join(f"board {b + 1}".ljust(19) for b in range(BOARDS))
    cols = "    " + "    ".join(" ".join(_COLUMNS) + " " for _ in range(BOARDS))
    parts += [(head.rstrip() + "\n", ""), (cols.rstrip() + "\n", "")]
    for r in range(SIDE):
        parts.append((f"{r + 1:>2}  ", ""))
        for b in range(BOARDS):
            for c in range(SIDE):
                gcell = b * 100 + r * SIDE + c
                v = int(g.cells[gcell])
                ch = ".#rb"[v]
                style = _STYLE[v]
                if marked[gcell]:
                    ch, style = ch.upper(), "bold bright_" + style
                parts.append((ch, style))
                parts.append((" " if c < SIDE - 1 else "", ""))
            parts.append(("    " if b < BOARDS - 1 else "\n", ""))
    parts.append(("\n".join([TEXT_LEGEND, *_status(g)]), ""))
    plain = "".join(t for t, _ in parts)
    if not color:
        return plain
    from rich.console import Console
    from rich.text import Text

    styled = Text()
    for text, style in parts:
        styled.append(text, style)
    console = Console(force_terminal=True, color_system="standard", width=400)
    with console.capture() as cap:
        console.print(styled, end="", soft_wrap=True)
    return cap.get()


def path_legend(last: int = 0) -> str:
    """The legend line under :func:`path_text`'s boards; ``last`` is the number of red's last
    drop shown (0: none)."""
    line = "cells: . unclaimed, # dead, R red, B blue"
    if last == 1:
        line += "; 1 red's drop"
    elif last:
        line += f"; 1..{last} red's drops, numbered in order"
        line += " (the number's last digit)" if last >= 10 else ""
    return line


def path_text(cells: npt.NDArray[np.int8], drops: Sequence[Sequence[int] | None] = ()) -> str:
    """The largest-path puzzle's three boards side by side, one character a cell (``.``
    unclaimed, ``#`` dead, ``R`` red, ``B`` blue), the cells of red's ``drops`` (global cell
    numbers; None for a pass) as the drop's number (``1``, ``2``, ..., the last digit from
    the tenth on); the columns ``a``..``j`` over each board and the rows ``1``..``10`` at the
    left, as cells are written (``d4``); then a legend line.

    Examples
    --------
    >>> from polytile.puzzles.walkable.board import CELLS
    >>> text = path_text(np.zeros(CELLS, dtype=np.int8), [None, (0, 1, 110, 210)])
    >>> print("\\n".join(text.splitlines()[1:3]))
        abcdefghij   abcdefghij   abcdefghij
     1  22........   ..........   ..........
    >>> text.splitlines()[-1]
    "cells: . unclaimed, # dead, R red, B blue; 1..2 red's drops, numbered in order"
    """
    marks = [[_PATH_MARKS[int(cells[b * 100 + i])] for i in range(SIDE * SIDE)]
             for b in range(BOARDS)]  # fmt: skip
    last = 0
    for k, drop in enumerate(drops):
        for g in drop or ():
            marks[g // 100][g % 100] = str((k + 1) % 10)
            last = k + 1
    lines = ["    " + "   ".join(f"board {b + 1}".ljust(SIDE) for b in range(BOARDS)),
             "    " + "   ".join(_COLUMNS for _ in range(BOARDS))]  # fmt: skip
    for r in range(SIDE):
        lines.append(f"{r + 1:>2}  " + "   ".join("".join(marks[b][r * SIDE : (r + 1) * SIDE])
                                                  for b in range(BOARDS)))  # fmt: skip
    lines.append(path_legend(last))
    return "\n".join(line.rstrip() for line in lines) + "\n"


# -- SVG and PNG from one list of shapes -------------------------------------------------------
def _frame(cell: int, title: str | None) -> tuple[int, int, int, int]:
    """Where the boards go: the left edge of board 1 (room for the row numbers at its left),
    the top of the boards (below a title's band, the board titles and the column letters),
    the padding and the gap between boards."""
    band = round(max(9, cell) * 1.5) if title else 0
    return cell + cell // 2, band + 3 * cell, cell, cell


def cell_boxes(cell: int = 24, title: str | None = None
               ) -> dict[int, tuple[float, float, float, float]]:  # fmt: skip
    """Where :func:`to_svg` draws each cell with the same ``cell`` and ``title``:
    ``(x, y, width, height)`` by global cell (``board * 100 + row * 10 + col``)."""
    left, top, _, gap = _frame(cell, xml_safe(title) if title else None)
    return {b * 100 + r * SIDE + c: (float(left + b * (SIDE * cell + gap) + c * cell),
                                      float(top + r * cell), float(cell), float(cell))
            for b in range(BOARDS) for r in range(SIDE) for c in range(SIDE)}  # fmt: skip


def _shapes(
    g: Walkable, cell: int, title: str | None = None
) -> tuple[int, int, list[tuple[Any, ...]]]:
    """Width, height and the shapes: ``("rect", x, y, w, h, fill)``, ``("dot", x, y, radius)``
    and ``("text", x, y, size, text, anchor)`` (baseline at ``y``; ``x`` is the text's start,
    middle or end as ``anchor`` says). A ``title`` goes in a band above the boards, and
    widens the picture when it is longer than they are wide."""
    title = xml_safe(title) if title else None  # a caption may hold control characters
    left, top, pad, gap = _frame(cell, title)
    title_font = max(9, cell)
    # About 0.6 em per character in a sans-serif font; a generous guess keeps it inside.
    caption = left + round(len(title) * title_font * 0.6) + pad if title else 0
    width = max(left + pad + BOARDS * SIDE * cell + (BOARDS - 1) * gap, caption)
    lines = [PICTURE_LEGEND, *_status(g)]
    height = top + SIDE * cell + pad + len(lines) * cell
    marked = largest_cells(g.cells)
    out: list[tuple[Any, ...]] = []
    if title:
        out.append(("text", left, round(title_font * 1.2), title_font, title, "start"))
    font = max(8, cell * 2 // 3)
    for r in range(SIDE):  # at the left only, as in the terminal picture
        out.append(("text", left - cell * 0.25, top + (r + 0.5) * cell + font * 0.35, font,
                    str(r + 1), "end"))  # fmt: skip
    for b in range(BOARDS):
        x0 = left + b * (SIDE * cell + gap)
        out.append(("text", x0, top - cell * 1.4, font, f"board {b + 1}", "start"))
        for c in range(SIDE):
            out.append(("text", x0 + (c + 0.5) * cell, top - cell * 0.3, font, _COLUMNS[c],
                        "middle"))  # fmt: skip
        for r in range(SIDE):
            for c in range(SIDE):
                gcell = b * 100 + r * SIDE + c
                x, y = x0 + c * cell, top + r * cell
                out.append(("rect", x, y, cell, cell, _FILL[int(g.cells[gcell])]))
                if marked[gcell]:
                    out.append(("dot", x + cell / 2, y + cell / 2, cell / 6))
    for i, line in enumerate(lines):
        out.append(("text", left, top + SIDE * cell + pad * 0.8 + i * cell, font, line,
                    "start"))  # fmt: skip
    return width, height, out


def to_svg(g: Walkable, cell: int = 24, title: str | None = None) -> str:
    """The boards as an SVG picture, ``cell`` pixels a cell; ``title`` (if given) is a caption
    above them and the SVG ``<title>``."""
    width, height, shapes = _shapes(g, cell, title)
    body = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">']  # fmt: skip
    if title:
        body.append(f"<title>{escape(xml_safe(title))}</title>")
    body.append(f'<rect width="{width}" height="{height}" fill="#ffffff"/>')
    for s in shapes:
        if s[0] == "rect":
            body.append(f'<rect x="{s[1]}" y="{s[2]}" width="{s[3]}" height="{s[4]}" '
                        f'fill="{s[5]}" stroke="#999999"/>')  # fmt: skip
        elif s[0] == "dot":
            body.append(f'<circle cx="{s[1]}" cy="{s[2]}" r="{s[3]}" fill="#ffffff"/>')
        else:
            body.append(f'<text x="{s[1]:g}" y="{s[2]:g}" font-family="sans-serif" '
                        f'font-size="{s[3]}" text-anchor="{s[5]}" '
                        f'fill="{_INK}">{escape(s[4])}</text>')  # fmt: skip
    body.append("</svg>")
    return "\n".join(body) + "\n"


def to_png(g: Walkable, cell: int = 24, title: str | None = None) -> bytes:
    """The picture of :func:`to_svg` as PNG bytes, drawn with Pillow.

    Raises
    ------
    BoardError
        If the picture (widened for a long ``title``) would be more than
        :data:`polytile.render.png.MAX_PNG_PIXELS` pixels.
    """
    import io

    from PIL import Image, ImageDraw, ImageFont

    from polytile.render.png import check_png_size

    width, height, shapes = _shapes(g, cell, title)
    check_png_size(width, height)
    img = Image.new("RGB", (width, height), "#ffffff")
    draw = ImageDraw.Draw(img)
    for s in shapes:
        if s[0] == "rect":
            draw.rectangle((s[1], s[2], s[1] + s[3], s[2] + s[4]), fill=s[5], outline="#999999")
        elif s[0] == "dot":
            draw.ellipse((s[1] - s[3], s[2] - s[3], s[1] + s[3], s[2] + s[3]), fill="#ffffff")
        else:
            font = ImageFont.load_default(size=s[3])
            anchor = {"start": "ls", "middle": "ms", "end": "rs"}[s[5]]
            draw.text((s[1], s[2]), s[4], fill=_INK, anchor=anchor, font=font)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


# -- the score ---------------------------------------------------------------------------------
def _name(player: int | None) -> str | None:
    return None if player is None else PLAYER_NAMES[player]


def score_doc(g: Walkable) -> dict[str, Any]:
    """The score as JSON: per board each player's largest region and who wins it, boards won,
    the margin and the result: ``winner`` once the game is over (None before: a game not
    over has no winner yet), ``leader`` who would win if it ended now (None: a draw)."""
    res = g.result()
    names = PLAYER_NAMES
    over = g.is_over()
    return {
        "game": "walkable",
        "round": g.round,
        "next_round": None if over else g.round + 1,
        "over": over,
        "boards": [
            {"board": b + 1, "red": res.paths[0][b], "blue": res.paths[1][b], "winner": _name(w)}
            for b, w in enumerate(res.board_winners)
        ],
        "won": dict(zip(names, res.won, strict=True)),
        "margin": res.margin,
        "winner": _name(res.winner) if over else None,
        "leader": _name(res.winner),
        "by_tiebreak": res.by_tiebreak,
        "passes": dict(zip(names, g.passes, strict=True)),
    }


def score_table(g: Walkable) -> str:
    """The score as a table: a row per board, then boards won and the result."""
    doc = score_doc(g)
    rows = ["board  red  blue  winner"]
    for b in doc["boards"]:
        rows.append(f"{b['board']:>5}  {b['red']:>3}  {b['blue']:>4}  {b['winner'] or 'tied'}")
    rows.append(f"boards won: red {doc['won']['red']}, blue {doc['won']['blue']}")
    result = "a draw" if doc["leader"] is None else f"{doc['leader']} wins"
    if doc["by_tiebreak"]:
        result += " (tiebreak)"
    rows.append(("result: " if doc["over"] else "if the game ended now: ") + result)
    return "\n".join(rows)
