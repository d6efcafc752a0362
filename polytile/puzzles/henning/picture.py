"""City Blocks (Henning): the city as text, for the terminal.

Each block shows its tile with the owner's letter (``B:S4`` blue's store 4, ``R:CH`` red's
courthouse) or ``.`` when empty. Every street's token stands at the head of the street (left
of a row, above a column) with who took it: ``$12>B`` (blue), ``$7>R``, ``$3>=`` (a tie, the
token discarded) or just ``$9`` while the street is open. Legend lines under the city
(:data:`TEXT_LEGEND`) say so; the SVG and PNG pictures draw a legend of their own marks (the
owners' colours, the tokens and the frame of the last move's block).

Examples
--------
>>> from polytile.puzzles.henning.rules import Henning
>>> g = Henning([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 0, [[0, 1, 2, 3, 4], [0, 1, 2, 3, 4]],
...             [list(range(5, 19)) + [15]] * 2)
>>> g.push(g.legal_moves()[0])
>>> print(to_text(g, color=False))  # doctest: +NORMALIZE_WHITESPACE
           a      b      c      d      e      f
          $6     $7     $8     $9     $10    $11
1  $1    B:H1    .      .      .      .      .
2  $2     .      .      .      .      .      .
3  $3     .      .      .      .      .      .
4  $4     .      .      .      .      .      .
5  $5     .      .      .      .      .      .
blocks: B:S4 blue's store 4, R:CH red's courthouse, . empty
tiles: H house, S store, F factory + value; SC school, PP power plant, MA mall, CH courthouse
tokens: $9 open, $9>B won by blue, $9>R won by red, $9>= tied (discarded)
blue $0 (no tokens), red $0 (no tokens); red to move
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from polytile.puzzles.henning.tiles import (
    KINDS,
    OPEN,
    PLAYER_NAMES,
    ROWS,
    TIED,
    street_name,
    street_title,
)
from polytile.text import xml_safe

if TYPE_CHECKING:
    from polytile.puzzles.henning.rules import Henning

__all__ = [
    "TEXT_LEGEND",
    "money_line",
    "picture_legend",
    "score_doc",
    "score_table",
    "to_png",
    "to_svg",
    "to_text",
    "token_label",
]

_LETTERS = "BR"
_STYLES = ("bold #1f5fbf", "bold #d6312b")
#: The legend lines under the text city: the blocks, the tile codes, the street tokens.
TEXT_LEGEND = (
    "blocks: B:S4 blue's store 4, R:CH red's courthouse, . empty",
    "tiles: H house, S store, F factory + value; SC school, PP power plant, MA mall, CH courthouse",
    "tokens: $9 open, $9>B won by blue, $9>R won by red, $9>= tied (discarded)",
)


def token_label(game: Henning, street: int) -> str:
    """``$12>B``, ``$3>=`` (tied, discarded) or ``$9`` (open)."""
    award = game.award(street)
    token = f"${game.tokens[street]}"
    if award == OPEN:
        return token
    return token + (">=" if award == TIED else ">" + _LETTERS[award])


def money_line(game: Henning) -> str:
    """``blue $14 ($3 $11), red $9 ($9); blue to move`` (or ``game over``)."""
    parts = []
    for p, name in enumerate(PLAYER_NAMES):
        held = " ".join(f"${t}" for t in game.money[p]) or "no tokens"
        parts.append(f"{name} ${game.money_of(p)} ({held})")
    end = "game over" if game.is_over() else f"{PLAYER_NAMES[game.to_move]} to move"
    return ", ".join(parts) + "; " + end


def to_text(game: Henning, color: bool | None = None) -> str:
    """The city as a text grid (see the module notes); ``color`` None colours owners'
    letters only when printing to a terminal."""
    width = 7
    lines = [" " * 9 + "".join(c.center(width) for c in "abcdef")]
    lines.append(" " * 9 + "".join(token_label(game, ROWS + c).center(width) for c in range(6)))
    for r in range(ROWS):
        cells = []
        for c in range(6):
            tile = game.at((r, c))
            text = "." if tile is None else f"{_LETTERS[tile[0]]}:{KINDS[tile[1]]}"
            cells.append(text.center(width))
        lines.append(f"{r + 1}  {token_label(game, r):<6}" + "".join(cells).rstrip())
    lines += [*TEXT_LEGEND, money_line(game)]
    text = "\n".join(lines)
    if color is None:
        import sys

        color = sys.stdout.isatty()
    if not color:
        return text
    from rich.console import Console
    from rich.text import Text

    styled = Text(text)
    for p, letter in enumerate(_LETTERS):
        styled.highlight_regex(rf"{letter}:\w\w|>{letter}\b", _STYLES[p])
    console = Console(force_terminal=True, width=200)
    with console.capture() as cap:
        console.print(styled, end="")
    return cap.get()


# -- scores ----------------------------------------------------------------------------------
def score_doc(game: Henning) -> dict[str, Any]:
    """Money per player and every street's standing, as JSON (``polytile score --json``).

    An awarded street was decided once: its ``totals``, ``leader`` and ``by`` are those of its
    award (a later redevelopment may change what stands there, which ``now`` gives), and its
    leader is its winner. A position file does not say what redevelopments changed after an
    award; there ``totals`` and ``by`` are null when tiles were redeveloped.
    """

    streets = []
    for s in range(11):
        now = game.standing(s)
        award = game.award(s)
        status = "open" if award == OPEN else ("tied" if award == TIED else "won")
        totals = now if status == "open" else game.decided[s]
        if status == "open":
            lead = None if now[0] == now[1] else PLAYER_NAMES[0 if now[0] > now[1] else 1]
        else:
            lead = PLAYER_NAMES[award] if status == "won" else None
        streets.append({
            "street": street_name(s),
            "title": street_title(s),
            "token": game.tokens[s],
            "status": status,
            "winner": PLAYER_NAMES[award] if status == "won" else None,
            "totals": None if totals is None else {"blue": totals[0], "red": totals[1]},
            "now": {"blue": now[0], "red": now[1]},
            "leader": lead,
            "by": None if totals is None else abs(totals[0] - totals[1]),
            "empty_blocks": game.empty_in[s],
        })  # fmt: skip
    money = {name: game.money_of(p) for p, name in enumerate(PLAYER_NAMES)}
    over = game.is_over()
    winner = None
    if over:
        winner = "draw" if money["blue"] == money["red"] else max(money, key=money.__getitem__)
    return {
        "game": "henning",
        "money": money,
        "tokens": {name: list(game.money[p]) for p, name in enumerate(PLAYER_NAMES)},
        "streets": streets,
        "over": over,
        "winner": winner,
        "to_move": None if over else PLAYER_NAMES[game.to_move],
    }


def score_table(game: Henning) -> str:
    """Money per player, then one line per street: its token, the totals on it so far, who
    leads and by how much, and whether it was awarded.

    Examples
    --------
    >>> from polytile.puzzles.henning.rules import Henning
    >>> print(score_table(Henning.new(seed=1)).splitlines()[0])
    blue $0, red $0; blue to move
    """
    doc = score_doc(game)
    money = doc["money"]
    end = (
        f"{doc['winner']} wins"
        if doc["winner"] not in (None, "draw")
        else ("a draw" if doc["winner"] == "draw" else f"{doc['to_move']} to move")
    )
    lines = [f"blue ${money['blue']}, red ${money['red']}; {end}",
             f"{'street':<10}{'token':>6}{'blue':>6}{'red':>5}  standing"]  # fmt: skip
    for st in doc["streets"]:
        totals, now = st["totals"], st["now"]
        if st["status"] == "open":
            standing = (
                f"level, {st['empty_blocks']} empty"
                if st["leader"] is None
                else f"{st['leader']} leads by {st['by']}, {st['empty_blocks']} empty"
            )
        else:
            standing = (
                f"won by {st['winner']}" if st["status"] == "won" else ("tied: token discarded")
            )
            if totals != now:  # redeveloped since its award: the award's totals stay first
                standing += f"; now blue {now['blue']}, red {now['red']}"
            if totals is None:  # a position file does not hold the totals at the award
                totals = {"blue": "?", "red": "?"}
        lines.append(f"{st['title']:<10}{'$' + str(st['token']):>6}{totals['blue']:>6}"
                     f"{totals['red']:>5}  {standing}")  # fmt: skip
    return "\n".join(lines)


# -- SVG and PNG -----------------------------------------------------------------------------
_FILLS = ("#cfe0f7", "#f6d0ce")  # the two players' light tile backgrounds
_INKS = ("#1f5fbf", "#d6312b")
_NAMES = {"SC": "school", "PP": "power", "MA": "mall", "CH": "court"}


def _street_xy(s: int, left: float, top: float, cell: int) -> tuple[float, float]:
    """Where street ``s``'s token is written: left of its row, or above its column (in the
    middle of the margin over the city, under any title band)."""
    if s < ROWS:
        return left / 2, top + s * cell + cell / 2
    return left + (s - ROWS) * cell + cell / 2, top - int(cell * 1.1) / 2


def _geometry(
    cell: int, title: str | None = None, legend: list[tuple[str, str]] | None = None
) -> tuple[int, int, int, int, int]:
    """(left margin, top margin, width, height, title font size) of the picture for blocks
    of ``cell``; a title adds a band on top and widens the picture to hold it, the
    ``legend`` rows (:func:`picture_legend`) a band at the bottom, as wide as they need."""
    font = max(9, cell // 3)
    band = round(font * 1.6) if title else 0
    left, top = int(cell * 1.3), band + int(cell * 1.1)
    # About 0.6 em per character in a sans-serif font; a generous guess keeps it inside.
    caption = left + round(len(title) * font * 0.6) + cell // 4 if title else 0
    lf, lh, x0, tx = _legend_geometry(cell)
    key = max((tx + round(len(text) * lf * 0.6) + x0 for _, text in legend or ()), default=0)
    width = max(left + 6 * cell + cell // 4, caption, key)
    return left, top, width, _city_bottom(top, cell) + len(legend or ()) * lh, font


def block_boxes(cell: int = 64, title: str | None = None,
                ) -> dict[tuple[int, int], tuple[float, float, float, float]]:  # fmt: skip
    """Where :func:`to_svg` draws each block (``(row, col)``): ``(x, y, width, height)``,
    for the same ``cell`` and ``title``."""
    left, top, _, _, _ = _geometry(cell, xml_safe(title) if title else None)
    return {(r, c): (float(left + c * cell), float(top + r * cell), float(cell), float(cell))
            for r in range(ROWS) for c in range(6)}  # fmt: skip


def _city_bottom(top: int, cell: int) -> int:
    """Where the picture ends without a legend: the city, then the money line."""
    return top + 5 * cell + int(cell * 0.6)


def _legend_geometry(cell: int) -> tuple[int, int, int, int]:
    """(font size, row height, left end of the drawings, left end of the texts) of the
    legend rows."""
    lf = max(8, round(cell * 0.18))
    return lf, round(lf * 1.8), cell // 4, cell // 4 + lf * 6


def picture_legend(highlight: bool) -> list[tuple[str, str]]:
    """(mark, meaning) per row of the SVG and PNG legend: the frame of the last move's block
    (when ``highlight``), the owners' colours, the street tokens."""
    rows = [("tiles", "blue's and red's tiles; grey: an empty block"),
            ("tokens", "street tokens: open, won (winner's colour), tied (discarded)")]  # fmt: skip
    return [("frame", "the last move's block"), *rows] if highlight else rows


def _legend_shapes(rows: list[tuple[str, str]], top: int, cell: int) -> list[tuple[Any, ...]]:
    """The legend's shapes, its first row at ``top``: ``("box", x0, y0, x1, y1, fill,
    outline, width)``, ``("text", x, y, size, text, ink, bold)`` (left end, vertical centre)
    and ``("strike", x0, x1, y)``."""
    lf, lh, x0, tx = _legend_geometry(cell)
    out: list[tuple[Any, ...]] = []
    for i, (mark, text) in enumerate(rows):
        y = top + (i + 0.5) * lh
        half = round(lh * 0.4)
        if mark == "frame":
            out.append(("box", x0, y - half, x0 + 2 * half, y + half, None, "#111111", 3))
        elif mark == "tiles":
            for k, fill in enumerate((*_FILLS, "#f4f4f4")):
                x = x0 + k * (2 * half + 4)
                out.append(("box", x, y - half, x + 2 * half, y + half, fill, "#888888", 1))
        else:
            step = (tx - x0) / 3
            for k, (ink, bold) in enumerate((("#333333", False), (_INKS[0], True),
                                             ("#333333", False))):  # fmt: skip
                out.append(("text", x0 + k * step, y, lf, "$5", ink, bold))
            out.append(("strike", x0 + 2 * step - 2, x0 + 2 * step + lf * 1.3, y))
        out.append(("text", tx, y, lf, text, "#111111", False))
    return out


def _label(kind: int) -> tuple[str, str]:
    name = KINDS[kind]
    return (name, _NAMES[name]) if name in _NAMES else (name, "")


def to_svg(
    game: Henning,
    cell: int = 64,
    highlight: tuple[int, int] | None = None,
    title: str | None = None,
) -> str:
    """The city as SVG: each tile in its owner's colour with its name, street tokens at the
    head of each street (crossed out when tied, in the winner's colour when won), the money
    line under it, ``highlight`` (a block) outlined, and ``title`` (if given) as a caption
    above it and the SVG ``<title>``."""
    from xml.sax.saxutils import escape

    title = xml_safe(title) if title else None  # a caption may hold control characters
    legend = picture_legend(highlight is not None)
    left, top, width, height, title_font = _geometry(cell, title, legend)
    font = max(8, cell // 4)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">']  # fmt: skip
    if title:
        caption = escape(title)
        out += [f"<title>{caption}</title>",
                f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
                f'<text class="title" x="{left}" y="{title_font * 1.15:.1f}" '
                f'font-size="{title_font}" fill="#111111">{caption}</text>']  # fmt: skip
    else:
        out.append(f'<rect width="{width}" height="{height}" fill="#ffffff"/>')
    for r in range(ROWS):
        for c in range(6):
            x, y = left + c * cell, top + r * cell
            tile = game.at((r, c))
            fill = "#f4f4f4" if tile is None else _FILLS[tile[0]]
            out.append(f'<rect x="{x + 2}" y="{y + 2}" width="{cell - 4}" height="{cell - 4}" '
                       f'rx="{cell // 10}" fill="{fill}" stroke="#888888"/>')  # fmt: skip
            if tile is not None:
                name, word = _label(tile[1])
                ink = _INKS[tile[0]]
                out.append(f'<text x="{x + cell / 2}" y="{y + cell / 2}" font-size="{font}" '
                           f'text-anchor="middle" fill="{ink}" font-weight="bold">'
                           f'{name}</text>')  # fmt: skip
                if word:
                    out.append(f'<text x="{x + cell / 2}" y="{y + cell * 0.78}" '
                               f'font-size="{font * 0.7:.1f}" text-anchor="middle" '
                               f'fill="{ink}">{word}</text>')  # fmt: skip
            if highlight == (r, c):
                out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{cell - 2}" height="{cell - 2}" '
                           f'fill="none" stroke="#111111" stroke-width="4"/>')  # fmt: skip
    for s in range(11):
        sx, sy = _street_xy(s, left, top, cell)
        award = game.award(s)
        ink = "#333333" if award in (OPEN, TIED) else _INKS[award]
        weight = "normal" if award == OPEN else "bold"
        label = f"${game.tokens[s]}"
        out.append(f'<text x="{sx}" y="{sy + font / 3}" font-size="{font}" text-anchor="middle" '
                   f'fill="{ink}" font-weight="{weight}">{label}</text>')  # fmt: skip
        if award == TIED:
            out.append(f'<line x1="{sx - font}" y1="{sy}" x2="{sx + font}" y2="{sy}" '
                       f'stroke="#333333" stroke-width="2"/>')  # fmt: skip
    names = "abcdef"
    for c in range(6):
        out.append(f'<text x="{left + c * cell + cell / 2}" y="{top - 4}" '
                   f'font-size="{font * 0.6:.1f}" text-anchor="middle" fill="#888888">'
                   f'{names[c]}</text>')  # fmt: skip
    for r in range(ROWS):
        out.append(f'<text x="{left - 6}" y="{top + r * cell + cell - 6}" '
                   f'font-size="{font * 0.6:.1f}" text-anchor="end" fill="#888888">'
                   f'{r + 1}</text>')  # fmt: skip
    bottom = _city_bottom(top, cell)
    out.append(f'<text x="{left}" y="{bottom - cell * 0.2}" font-size="{font * 0.8:.1f}" '
               f'fill="#111111">{escape(money_line(game))}</text>')  # fmt: skip
    out.append('<g class="legend">')
    for sh in _legend_shapes(legend, bottom, cell):
        if sh[0] == "box":
            _, x0, y0, x1, y1, fill, outline, w = sh
            out.append(f'<rect x="{x0}" y="{y0:g}" width="{x1 - x0}" height="{y1 - y0:g}" '
                       f'rx="{2 if fill else 0}" fill="{fill or "none"}" stroke="{outline}" '
                       f'stroke-width="{w}"/>')  # fmt: skip
        elif sh[0] == "strike":
            _, x0, x1, y = sh
            out.append(f'<line x1="{x0:g}" y1="{y:g}" x2="{x1:g}" y2="{y:g}" stroke="#333333" '
                       f'stroke-width="2"/>')  # fmt: skip
        else:
            _, x, y, size, text, ink, bold = sh
            out.append(f'<text class="legend" x="{x:g}" y="{y:g}" font-size="{size}" '
                       f'dominant-baseline="central" fill="{ink}" '
                       f'font-weight="{"bold" if bold else "normal"}">'
                       f"{escape(text)}</text>")  # fmt: skip
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def to_png(
    game: Henning,
    cell: int = 64,
    highlight: tuple[int, int] | None = None,
    title: str | None = None,
) -> bytes:
    """The same picture as :func:`to_svg`, as PNG bytes (drawn with Pillow).

    Raises
    ------
    BoardError
        If the picture (widened for a long ``title``) would be more than
        :data:`polytile.render.png.MAX_PNG_PIXELS` pixels.
    """
    import io

    from PIL import Image, ImageDraw, ImageFont

    from polytile.render.png import check_png_size

    title = xml_safe(title) if title else None  # as in the SVG
    legend = picture_legend(highlight is not None)
    left, top, width, height, title_font = _geometry(cell, title, legend)
    check_png_size(width, height)
    img = Image.new("RGB", (width, height), "#ffffff")
    draw = ImageDraw.Draw(img)
    big = ImageFont.load_default(size=max(8, cell // 4))
    small = ImageFont.load_default(size=max(7, cell // 6))
    if title:
        draw.text((left, title_font * 1.15), title, fill="#111111", anchor="ls",
                  font=ImageFont.load_default(size=title_font))  # fmt: skip
    for r in range(ROWS):
        for c in range(6):
            x, y = left + c * cell, top + r * cell
            tile = game.at((r, c))
            fill = "#f4f4f4" if tile is None else _FILLS[tile[0]]
            draw.rounded_rectangle([x + 2, y + 2, x + cell - 3, y + cell - 3], radius=cell // 10,
                                   fill=fill, outline="#888888")  # fmt: skip
            if tile is not None:
                name, word = _label(tile[1])
                draw.text((x + cell / 2, y + cell / 2), name, fill=_INKS[tile[0]], anchor="mm",
                          font=big)  # fmt: skip
                if word:
                    draw.text((x + cell / 2, y + cell * 0.75), word, fill=_INKS[tile[0]],
                              anchor="mm", font=small)  # fmt: skip
            if highlight == (r, c):
                draw.rectangle([x + 1, y + 1, x + cell - 2, y + cell - 2], outline="#111111",
                               width=4)  # fmt: skip
    for s in range(11):
        sx, sy = _street_xy(s, left, top, cell)
        award = game.award(s)
        ink = "#333333" if award in (OPEN, TIED) else _INKS[award]
        draw.text((sx, sy), f"${game.tokens[s]}", fill=ink, anchor="mm", font=big)
        if award == TIED:
            draw.line([sx - 12, sy, sx + 12, sy], fill="#333333", width=2)
    for c in range(6):
        draw.text((left + c * cell + cell / 2, top - 4), "abcdef"[c], fill="#888888",
                  anchor="md", font=small)  # fmt: skip
    for r in range(ROWS):
        draw.text((left - 6, top + r * cell + cell - 6), str(r + 1), fill="#888888", anchor="rd",
                  font=small)  # fmt: skip
    bottom = _city_bottom(top, cell)
    draw.text((left, bottom - cell * 0.3), money_line(game), fill="#111111", anchor="lm",
              font=small)  # fmt: skip
    for sh in _legend_shapes(legend, bottom, cell):
        if sh[0] == "box":
            _, x0, y0, x1, y1, fill, outline, w = sh
            draw.rectangle([x0, y0, x1, y1], fill=fill, outline=outline, width=w)
        elif sh[0] == "strike":
            draw.line([sh[1], sh[3], sh[2], sh[3]], fill="#333333", width=2)
        else:
            _, x, y, size, text, ink, _bold = sh
            draw.text((x, y), text, fill=ink, anchor="lm", font=ImageFont.load_default(size=size))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()
