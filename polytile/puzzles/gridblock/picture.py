"""Gridblock pictures (terminal text, SVG, PNG) and the score breakdown.

In the text picture every tile is a small box. Its four corners show the cube on them
(``B Y R G``) or ``.`` when free; the middle line shows the tile's symbol and the movers
standing on it in lower case (``b y r g``). A gridblocked tile (all four corners taken) has
its symbol in brackets (``[C]``) and ``#`` along its bottom edge. The last move's walk, when
given, numbers its tiles ``*0`` (where the mover started) to ``*3``. Columns are ``a``..``f``
and rows ``1``..``6`` from the top, so the labels read as tile names (``b3``). A legend line
under the grid (:data:`TEXT_LEGEND`, and a second one for the walk) says what the marks mean;
the SVG and PNG pictures draw a legend of their marks (:mod:`~polytile.puzzles.gridblock.legend`).

Below the grid, each colour's line gives its points split into cubes and tile bonuses
(section 5 of ``seeds/gridblock.md``), the cubes left in its supply, the cards it still holds
this round and where its mover stands. The points come from the rules engine
(:meth:`~polytile.puzzles.gridblock.rules.Gridblock.scores` and
:func:`~polytile.puzzles.gridblock.rules.tile_scores`); this module only splits them.

Examples
--------
>>> from polytile.puzzles.gridblock.rules import Gridblock
>>> g = Gridblock.new(seed=3)
>>> for _ in range(4):
...     g.push(g.legal_moves()[0])
>>> print("\\n".join(to_text(g, color=False).splitlines()[6:9]))
   |Y       G|.       .|B       R|.       .|.       .|.       .|
 2 |  A  yg  |  D      |  B  br  |  F      |  A      |  D      |
   |.       .|.       .|.       .|.       .|.       .|.       .|
>>> score_doc(g)["colors"]["red"]  # doctest: +NORMALIZE_WHITESPACE
{'letter': 'R', 'cubes': 1, 'bonus': 0, 'bonus_tiles': {}, 'total': 1, 'supply': 18,
 'hand': ['B2', 'C3', 'D1'], 'mover': 'c2'}
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from polytile.puzzles.gridblock.grid import SIDE, SYMBOLS, card_name, tile_name
from polytile.puzzles.gridblock.legend import (
    LegendStyle,
    arrow_head,
    draw_png,
    legend_rows,
    legend_shapes,
    svg_elements,
    swatch_width,
)
from polytile.puzzles.gridblock.rules import (
    COLOR_NAMES,
    INSTANT_WIN,
    ROUNDS,
    TURNS_PER_ROUND,
    tile_scores,
)
from polytile.text import xml_safe

if TYPE_CHECKING:
    from polytile.puzzles.gridblock.rules import Gridblock

__all__ = ["TEXT_LEGEND", "score_doc", "score_table", "to_png", "to_svg", "to_text"]

_LETTERS = "BYRG"
#: 20 cubes per colour, one of them the mover (section 1.2).
_SUPPLY = 19
# Named ANSI colours so the text keeps its colours on 16-colour terminals.
_CUBE_STYLES = ("bold blue", "bold yellow", "bold red", "bold green")
_MOVER_STYLES = ("bold white on blue", "bold black on yellow", "bold white on red",
                 "bold white on green")  # fmt: skip
_WALK_STYLE = "bold magenta"
_BLOCKED_STYLE = "bold reverse"
_INKS = ("#1f5fbf", "#e0a800", "#d6312b", "#2e9e44")
# One light tint per symbol A..F, so equal symbols are easy to spot in a picture.
_TINTS = ("#fbefd5", "#e1effa", "#e6f5df", "#f7e4ef", "#ece6f9", "#f9ebdf")
_BLOCKED_FILL = "#bdbdbd"
_WALK_INK = "#7b1fa2"
_INK = "#222222"
_GRID_INK = "#8a8a8a"
#: The legend line under the text grid (a second line explains the walk when one is shown).
TEXT_LEGEND = "corners: B Y R G cubes, . free; b y r g movers; [A] ##### gridblocked (all taken)"


# -- the score breakdown ---------------------------------------------------------------------
def _player_names(g: Gridblock) -> list[str]:
    if g.options.players == 2:
        return ["+".join(COLOR_NAMES[c] for c in g.colors if g.options.player_of(c) == p)
                for p in range(2)]  # fmt: skip
    return [COLOR_NAMES[c] for c in g.colors]


def _turn(g: Gridblock) -> int | None:
    """The turn (1..3) the colour to move is playing in this round; None in set-up or at the
    end."""
    if g.is_setup or g.is_over():
        return None
    k = len(g.colors)
    return (g.step - k) % (TURNS_PER_ROUND * k) // k + 1


def score_doc(g: Gridblock) -> dict[str, Any]:
    """The scores as JSON: each colour's cubes, tile bonuses and total, each player's points,
    where the game stands and who won.

    Parameters
    ----------
    g
        The game.

    Returns
    -------
    dict
        ``colors``: colour name -> ``letter``, ``cubes`` (on corners), ``bonus`` and
        ``bonus_tiles`` (tile name -> 2 for holding 3-4 corners, 1 for the only pair),
        ``total`` (the engine's score, ``cubes + bonus``), ``supply`` (cubes left),
        ``hand`` (cards still held this round; None during the set-up and at the end) and
        ``mover`` (its tile, None before the set-up puts it). ``players``: player name
        (``"blue+red"`` with two players) -> ``colors`` and ``points`` (the two colours'
        sum or the weaker one, per ``player_score``). Then ``round`` (1..6, 0 in set-up),
        ``turn`` (1..3 of the colour to move), ``setup``, ``step``, ``total_steps``,
        ``to_move``, ``over``, ``winners`` (the best players once over, else None),
        ``tie``, ``leaders`` (the best players now) and ``instant_winner`` (option 7.4).

    Notes
    -----
    Every number comes from the engine: totals from ``g.scores()``, the split from
    :func:`tile_scores` on each tile alone (a tile's bonus is its points less its cubes),
    players' points from ``g.returns()`` without the instant-win premium.
    """
    colors = g.colors
    cubes = dict.fromkeys(colors, 0)
    bonus_tiles: dict[int, dict[str, int]] = {c: {} for c in colors}
    for t in range(SIDE * SIDE):
        held = g.corners[4 * t : 4 * t + 4]
        for c, pts in tile_scores(held, colors).items():
            n = held.count(c)
            cubes[c] += n
            if pts > n:
                bonus_tiles[c][tile_name(t)] = pts - n
    totals = g.scores()
    over, setup = g.is_over(), g.is_setup
    per_color: dict[str, dict[str, Any]] = {}
    for slot, c in enumerate(colors):
        used = g.placed[slot] + g.discarded[slot]
        hand = None if setup or over else [card_name(card) for card in g.hand(slot)]
        per_color[COLOR_NAMES[c]] = {
            "letter": _LETTERS[c],
            "cubes": cubes[c],
            "bonus": sum(bonus_tiles[c].values()),
            "bonus_tiles": bonus_tiles[c],
            "total": totals[slot],
            "supply": _SUPPLY - used,
            "hand": hand,
            "mover": None if g.mover[slot] < 0 else tile_name(g.mover[slot]),
        }
    names = _player_names(g)
    returns = g.returns()
    points = [int(returns[p]) - (INSTANT_WIN if g.winner == p else 0) for p in range(len(names))]
    players = {
        name: {"colors": [COLOR_NAMES[c] for c in colors if g.options.player_of(c) == p],
               "points": points[p]}
        for p, name in enumerate(names)
    }  # fmt: skip
    best = max(points)
    leaders = [name for p, name in enumerate(names) if points[p] == best]
    instant = None if g.winner is None else names[g.winner]
    winners = None
    if over:
        winners = [instant] if instant is not None else leaders
    two = g.options.players == 2
    return {
        "game": "gridblock",
        "options": asdict(g.options),
        "player_score": g.options.two_player_score if two else "colour",
        "colors": per_color,
        "players": players,
        "round": 0 if setup else g.round + 1,
        "turn": _turn(g),
        "setup": setup,
        "step": g.step,
        "total_steps": g.total_steps,
        "to_move": None if over else COLOR_NAMES[g.to_move_color],
        "over": over,
        "winners": winners,
        "tie": winners is not None and len(winners) > 1,
        "leaders": leaders,
        "instant_winner": instant,
    }


def _status(doc: dict[str, Any]) -> str:
    """``round 3 of 6, turn 2 of 3: yellow to move``, or how the game ended."""
    if doc["over"]:
        winners = doc["winners"]
        pts = doc["players"][winners[0]]["points"]
        if doc["instant_winner"] is not None:
            return (f"game over: {doc['instant_winner']} won at once (3 corners of a tile, "
                    "the fourth not another colour's)")  # fmt: skip
        if doc["tie"]:
            return f"game over: a tie between {' and '.join(winners)} at {pts}"
        return f"game over: {winners[0]} wins with {pts}"
    if doc["setup"]:
        return f"set-up: {doc['to_move']} places its mover"
    return (f"round {doc['round']} of {ROUNDS}, turn {doc['turn']} of {TURNS_PER_ROUND}: "
            f"{doc['to_move']} to move")  # fmt: skip


def _players_line(doc: dict[str, Any]) -> str | None:
    """``players (sum of two colours): blue+red 30, yellow+green 27``; None with 3-4 players."""
    if doc["player_score"] == "colour":
        return None
    how = "sum of two colours" if doc["player_score"] == "sum" else "the weaker colour"
    parts = [f"{name} {p['points']}" for name, p in doc["players"].items()]
    return f"players ({how}): " + ", ".join(parts)


def _color_summary(entry: dict[str, Any]) -> str:
    """``12 (9 cubes + 3 bonus), supply 10, hand A1 C3, mover b3`` for one colour."""
    n = entry["cubes"]
    out = f"{entry['total']} ({n} cube{'' if n == 1 else 's'} + {entry['bonus']} bonus), "
    out += f"supply {entry['supply']}"
    if entry["hand"] is not None:
        out += ", hand " + (" ".join(entry["hand"]) or "-")
    if entry["mover"] is not None:
        out += f", mover {entry['mover']}"
    return out


# -- styled text -----------------------------------------------------------------------------
class _Styled:
    """Text built from pieces with optional rich styles, rendered plain or with ANSI codes."""

    def __init__(self) -> None:
        self.parts: list[tuple[str, str | None]] = []

    def add(self, text: str, style: str | None = None) -> None:
        self.parts.append((text, style))

    def render(self, color: bool | None) -> str:
        plain = "".join(text for text, _ in self.parts)
        if color is None:
            color = sys.stdout.isatty()
        if not color:
            return plain
        from rich.console import Console
        from rich.text import Text

        styled = Text()
        for text, style in self.parts:
            styled.append(text, style or "")
        console = Console(force_terminal=True, color_system="standard", width=400)
        with console.capture() as cap:
            console.print(styled, end="", soft_wrap=True)
        return cap.get()


def _walk_steps(last: Sequence[int] | None) -> dict[int, int]:
    """Tile -> step number (0 for the start) of the walk ``last``; ValueError off the grid."""
    steps: dict[int, int] = {}
    for i, t in enumerate(last or ()):
        if not 0 <= t < SIDE * SIDE:
            raise ValueError(f"the walk's tile {t} is not on the 6x6 grid (0..35)")
        steps[t] = i
    return steps


def to_text(g: Gridblock, color: bool | None = None, last: tuple[int, ...] | None = None) -> str:
    """The grid as text for the terminal (see the module notes), then a legend, a line per
    colour and where the game stands.

    Parameters
    ----------
    g
        The game.
    color
        ANSI colours on (True), off (False), or only when standard output is a terminal
        (None). Off, the text holds no escape codes.
    last
        The last move's walk, start tile first: its tiles are marked ``*0``, ``*1``, ...

    Raises
    ------
    ValueError
        If a tile of ``last`` is not on the grid.
    """
    steps = _walk_steps(last)
    doc = score_doc(g)
    movers = _movers(g)
    out = _Styled()
    border = "   " + "+---------" * SIDE + "+\n"
    out.add("   " + "".join(f"{c:^10}" for c in "abcdef").rstrip() + "\n")
    out.add(border)

    def corner(t: int, q: int) -> None:
        c = g.corners[4 * t + q]
        if c < 0:
            out.add(".")
        else:
            out.add(_LETTERS[c], _CUBE_STYLES[c])

    for r in range(SIDE):
        row = range(r * SIDE, (r + 1) * SIDE)
        out.add("   |")
        for t in row:
            corner(t, 0)
            mark = f"*{steps[t]}" if t in steps else ""
            out.add(f"{mark:^7}", _WALK_STYLE if mark else None)
            corner(t, 1)
            out.add("|")
        out.add(f"\n{r + 1:>2} |")
        for t in row:
            full = min(g.corners[4 * t : 4 * t + 4]) >= 0
            symbol = SYMBOLS[g.layout[t]]
            out.add(" ")
            if full:
                out.add(f"[{symbol}]", _BLOCKED_STYLE)
            else:
                out.add(f" {symbol} ", "bold")
            out.add(" ")
            here = movers.get(t, [])
            for c in here:
                out.add(_LETTERS[c].lower(), _MOVER_STYLES[c])
            out.add(" " * (4 - len(here)) + "|")
        out.add("\n   |")
        for t in row:
            full = min(g.corners[4 * t : 4 * t + 4]) >= 0
            corner(t, 3)
            out.add(" ##### " if full else " " * 7, _BLOCKED_STYLE if full else None)
            corner(t, 2)
            out.add("|")
        out.add("\n" + border)
    out.add(TEXT_LEGEND + "\n")
    if steps:
        span = f"*0..*{max(steps.values())}" if len(steps) > 1 else "*0"
        out.add(f"{span} last walk: the last move's, step by step from where its mover started\n",
                _WALK_STYLE)  # fmt: skip
    for name, entry in doc["colors"].items():
        c = COLOR_NAMES.index(name)
        out.add(f"{entry['letter']} {name:<7}", _CUBE_STYLES[c])
        flag = "  <- to move" if doc["to_move"] == name else ""
        out.add(" " + _color_summary(entry) + flag + "\n")
    players = _players_line(doc)
    if players is not None:
        out.add(players + "\n")
    out.add(_status(doc))
    return out.render(color)


def score_table(g: Gridblock, color: bool | None = None) -> str:
    """The scores of :func:`score_doc` as a table: a row per colour (cubes, bonus, total,
    supply, hand, the tiles that earned bonuses), the players' points with two players, and
    where the game stands.

    Parameters
    ----------
    g
        The game.
    color
        As for :func:`to_text`.

    Examples
    --------
    >>> from polytile.puzzles.gridblock.rules import Gridblock
    >>> print(score_table(Gridblock.new(seed=1), color=False))  # doctest: +NORMALIZE_WHITESPACE
    colour  cubes bonus total supply hand      bonus tiles
    blue        0     0     0     19 -         -
    yellow      0     0     0     19 -         -
    red         0     0     0     19 -         -
    green       0     0     0     19 -         -
    set-up: blue places its mover
    """
    doc = score_doc(g)
    out = _Styled()
    out.add(f"{'colour':<7}{'cubes':>6}{'bonus':>6}{'total':>6}{'supply':>7} {'hand':<9} "
            "bonus tiles\n")  # fmt: skip
    for name, e in doc["colors"].items():
        out.add(f"{name:<7}", _CUBE_STYLES[COLOR_NAMES.index(name)])
        hand = " ".join(e["hand"]) if e["hand"] else "-"
        tiles = " ".join(f"{t}+{b}" for t, b in e["bonus_tiles"].items()) or "-"
        out.add(f"{e['cubes']:>6}{e['bonus']:>6}")
        out.add(f"{e['total']:>6}", "bold")
        out.add(f"{e['supply']:>7} {hand:<9} {tiles}\n")
    players = _players_line(doc)
    if players is not None:
        out.add(players + "\n")
    out.add(_status(doc), "bold" if doc["over"] else None)
    return out.render(color)


# -- SVG and PNG -----------------------------------------------------------------------------
class _Frame:
    """Where everything goes in a picture with tiles of ``tile`` pixels (shared by the SVG
    and the PNG so that both have the same size and layout)."""

    def __init__(self, g: Gridblock, tile: int, title: str | None = None,
                 walk: bool = False) -> None:  # fmt: skip
        if not 16 <= tile <= 512:
            raise ValueError(f"tile_px is 16..512 pixels, not {tile!r}")
        doc = score_doc(g)
        self.tile = tile
        name = title if title and title.strip() else getattr(g, "name", None)
        self.title = xml_safe(name) if isinstance(name, str) and name.strip() else None
        self.label_font = max(8, round(tile * 0.24))
        self.symbol_font = max(8, round(tile * 0.3))
        self.text_font = max(8, round(tile * 0.2))
        self.line_h = round(self.text_font * 1.5)
        self.title_h = round(tile * 0.5) if self.title else 0
        self.left = round(tile * 0.45)
        self.top = self.title_h + round(tile * 0.45)
        # (text, colour or None) for each line under the grid.
        self.lines: list[tuple[str, int | None]] = []
        for cname, entry in doc["colors"].items():
            self.lines.append((f"{cname}: " + _color_summary(entry),
                               COLOR_NAMES.index(cname)))  # fmt: skip
        players = _players_line(doc)
        if players is not None:
            self.lines.append((players, None))
        self.lines.append((_status(doc), None))
        # The legend's rows, between the grid and those lines (legend.py draws them).
        self.legend = legend_rows(walk)
        self.style = LegendStyle([_INKS[c] for c in g.colors], _INK, _BLOCKED_FILL, _WALK_INK,
                                 self.text_font, self.line_h)  # fmt: skip
        key = round((swatch_width(self.style) + self.line_h * 0.3) / self.text_font / 0.6)
        widest = max(max(len(text) for text, _ in self.lines),
                     max(key + len(text) for _, text in self.legend))  # fmt: skip
        # About 0.6 em per character in a sans-serif font; a generous guess keeps text inside
        # (the title is in the larger label font).
        text_w = round(max(widest * self.text_font, len(self.title or "") * self.label_font)
                       * 0.6)  # fmt: skip
        self.width = self.left + max(SIDE * tile, text_w) + round(tile * 0.3)
        self.grid_bottom = self.top + SIDE * tile
        rows = len(self.legend) + len(self.lines)
        self.height = self.grid_bottom + round(tile * 0.25) + rows * self.line_h + 8
        self.cube = max(4, round(tile * 0.18))
        self.inset = max(2, round(tile * 0.05))
        self.disc = max(3, round(tile * 0.1))

    def corner_box(self, t: int, q: int) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1) of the cube square on corner ``q`` of tile ``t``."""
        r, c = divmod(t, SIDE)
        x0 = self.left + c * self.tile + self.inset
        y0 = self.top + r * self.tile + self.inset
        far = self.tile - 2 * self.inset - self.cube
        dx = far if q in (1, 2) else 0
        dy = far if q in (2, 3) else 0
        return x0 + dx, y0 + dy, x0 + dx + self.cube, y0 + dy + self.cube

    def centre(self, t: int) -> tuple[float, float]:
        r, c = divmod(t, SIDE)
        return self.left + (c + 0.5) * self.tile, self.top + (r + 0.5) * self.tile

    def symbol_at(self, t: int) -> tuple[float, float]:
        x, y = self.centre(t)
        return x, y - self.tile * 0.24

    def mover_centres(self, t: int, n: int) -> list[tuple[float, float]]:
        """Centres of ``n`` discs side by side in the middle of tile ``t``."""
        x, y = self.centre(t)
        gap = 2 * self.disc + max(1, self.tile // 36)
        return [(x + (i - (n - 1) / 2) * gap, y + self.tile * 0.02) for i in range(n)]

    def walk_point(self, t: int) -> tuple[float, float]:
        """The walk runs below the movers, between the bottom cubes, to stay visible."""
        x, y = self.centre(t)
        return x, y + self.tile * 0.22

    def line_y(self, i: int) -> float:
        """Vertical centre of text line ``i`` under the legend."""
        return self.grid_bottom + self.tile * 0.25 + (len(self.legend) + i + 0.5) * self.line_h

    def legend_shapes(self) -> list[tuple[Any, ...]]:
        """The legend's rows right under the grid (:mod:`~polytile.puzzles.gridblock.legend`)."""
        top = self.grid_bottom + self.tile * 0.25
        return legend_shapes(self.legend, self.left, top, self.style)


def corner_boxes(tile_px: int = 72, title: str | None = None,
                 ) -> dict[tuple[int, int], tuple[float, float, float, float]]:  # fmt: skip
    """Where :func:`to_svg` draws each quarter of each tile, the quarter around corner
    ``q`` (0..3: NW NE SE SW) of tile ``t`` by ``(t, q)``: ``(x, y, width, height)``, for
    the same ``tile_px`` and a ``title`` that is shown (the grid's place depends on those
    alone, as :class:`_Frame` lays it out)."""
    title_h = round(tile_px * 0.5) if title and title.strip() else 0
    left, top, half = round(tile_px * 0.45), title_h + round(tile_px * 0.45), tile_px / 2
    return {(t, q): (left + (t % SIDE) * tile_px + (half if q in (1, 2) else 0),
                     top + (t // SIDE) * tile_px + (half if q in (2, 3) else 0), half, half)
            for t in range(SIDE * SIDE) for q in range(4)}  # fmt: skip


def _movers(g: Gridblock) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for slot, t in enumerate(g.mover):
        if t >= 0:
            out.setdefault(t, []).append(g.colors[slot])
    return out


def _n(v: float) -> str:
    return f"{v:.1f}".removesuffix(".0")


def to_svg(
    g: Gridblock, tile_px: int = 72, last: tuple[int, ...] | None = None, title: str | None = None
) -> str:
    """The game as a standalone SVG picture.

    Tiles are tinted by symbol and show it; cubes are small squares in their colour on the
    corners; movers are discs in their colour in the middle (side by side when they share a
    tile); gridblocked tiles are grey with a heavy border; the walk ``last`` (start first) is
    a purple line from a ring to an arrow, its tiles outlined. Columns ``a``..``f`` and rows
    ``1``..``6`` label the grid; a legend of those marks (each drawn small, then what it
    means), a line per colour and the game's status follow. ``title``,
    or else the game's ``name`` (a file's label) if it has one, is shown above the grid and
    is the SVG ``<title>``.

    Parameters
    ----------
    g
        The game.
    tile_px
        Side of a tile in pixels, 16..512.
    last
        The last move's walk, start tile first.
    title
        The caption (None or blank: the game's ``name``, if any).

    Returns
    -------
    str
        An SVG document. Tiles are ``<rect class="tile">`` (``tile gridblocked`` when full)
        with ``data-tile`` naming them; cubes ``<rect class="cube">``; movers
        ``<circle class="mover">``; the walk a ``<polyline class="walk">``; the legend a
        ``<g class="legend">`` (its texts ``<text class="legend">``).

    Raises
    ------
    ValueError
        If ``tile_px`` is out of range or a tile of ``last`` is not on the grid.
    """
    steps = _walk_steps(last)
    f = _Frame(g, tile_px, title, walk=bool(last))
    T = f.tile
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{f.width}" height="{f.height}" '
        f'viewBox="0 0 {f.width} {f.height}" font-family="sans-serif">',
        f"<title>{escape(f.title or 'Gridblock')}</title>",
        f'<defs><marker id="walk-end" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="3.5" '
        f'markerHeight="3.5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{_WALK_INK}"/>'
        "</marker></defs>",
        f'<rect width="{f.width}" height="{f.height}" fill="#ffffff"/>',
    ]
    if f.title:
        out.append(f'<text class="title" x="{f.left}" y="{_n(f.title_h * 0.7)}" font-size='
                   f'"{f.label_font}" fill="{_INK}">{escape(f.title)}</text>')  # fmt: skip
    for i, name in enumerate("abcdef"):
        out.append(f'<text class="label" x="{_n(f.left + (i + 0.5) * T)}" '
                   f'y="{_n(f.top - T * 0.12)}" font-size="{f.label_font}" text-anchor="middle" '
                   f'fill="{_GRID_INK}">{name}</text>')  # fmt: skip
        out.append(f'<text class="label" x="{_n(f.left - T * 0.12)}" '
                   f'y="{_n(f.top + (i + 0.5) * T)}" font-size="{f.label_font}" '
                   f'text-anchor="end" dominant-baseline="central" fill="{_GRID_INK}">'
                   f"{i + 1}</text>")  # fmt: skip
    for t in range(SIDE * SIDE):
        r, c = divmod(t, SIDE)
        x, y = f.left + c * T, f.top + r * T
        full = min(g.corners[4 * t : 4 * t + 4]) >= 0
        fill = _BLOCKED_FILL if full else _TINTS[g.layout[t]]
        cls, stroke, width = ("tile gridblocked", _INK, 3) if full else ("tile", _GRID_INK, 1)
        out.append(f'<rect class="{cls}" data-tile="{tile_name(t)}" x="{x}" y="{y}" '
                   f'width="{T}" height="{T}" fill="{fill}" stroke="{stroke}" '
                   f'stroke-width="{width}"/>')  # fmt: skip
        sx, sy = f.symbol_at(t)
        out.append(f'<text class="symbol" x="{_n(sx)}" y="{_n(sy)}" font-size="{f.symbol_font}" '
                   f'font-weight="bold" text-anchor="middle" dominant-baseline="central" '
                   f'fill="{_INK}">{SYMBOLS[g.layout[t]]}</text>')  # fmt: skip
    for t in steps:
        r, c = divmod(t, SIDE)
        out.append(f'<rect class="walk-tile" x="{f.left + c * T + 2}" y="{f.top + r * T + 2}" '
                   f'width="{T - 4}" height="{T - 4}" fill="none" stroke="{_WALK_INK}" '
                   f'stroke-width="2" stroke-dasharray="4 3"/>')  # fmt: skip
    for t in range(SIDE * SIDE):
        for q in range(4):
            owner = g.corners[4 * t + q]
            if owner >= 0:
                x0, y0, _, _ = f.corner_box(t, q)
                out.append(f'<rect class="cube" data-tile="{tile_name(t)}" x="{x0}" y="{y0}" '
                           f'width="{f.cube}" height="{f.cube}" fill="{_INKS[owner]}" '
                           f'stroke="{_INK}" stroke-width="1"/>')  # fmt: skip
    if last:
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in map(f.walk_point, last))
        w = max(2, round(T * 0.05))
        if len(last) > 1:
            out.append(f'<polyline class="walk" points="{points}" fill="none" '
                       f'stroke="{_WALK_INK}" stroke-width="{w}" stroke-linejoin="round" '
                       f'marker-end="url(#walk-end)"/>')  # fmt: skip
        sx, sy = f.walk_point(last[0])
        out.append(f'<circle class="walk-start" cx="{_n(sx)}" cy="{_n(sy)}" r="{_n(w * 1.6)}" '
                   f'fill="#ffffff" stroke="{_WALK_INK}" stroke-width="{w}"/>')  # fmt: skip
    for t, here in _movers(g).items():
        for m, (mx, my) in zip(here, f.mover_centres(t, len(here)), strict=True):
            out.append(f'<circle class="mover" data-color="{COLOR_NAMES[m]}" cx="{_n(mx)}" '
                       f'cy="{_n(my)}" r="{f.disc}" fill="{_INKS[m]}" stroke="{_INK}" '
                       f'stroke-width="1.5"/>')  # fmt: skip
    out += svg_elements(f.legend_shapes())
    for i, (text, who) in enumerate(f.lines):
        ink, weight = (_INK, "normal") if who is None else (_INKS[who], "bold")
        out.append(f'<text class="score" x="{f.left}" y="{_n(f.line_y(i))}" '
                   f'font-size="{f.text_font}" dominant-baseline="central" fill="{ink}" '
                   f'font-weight="{weight}">{escape(text)}</text>')  # fmt: skip
    out.append("</svg>")
    return "\n".join(out) + "\n"


def to_png(
    g: Gridblock, tile_px: int = 72, last: tuple[int, ...] | None = None, title: str | None = None
) -> bytes:
    """The picture of :func:`to_svg` as PNG bytes, drawn with Pillow; same size and layout.

    Raises
    ------
    ValueError
        As :func:`to_svg`; a :class:`~polytile.errors.BoardError` if the picture (widened
        for a long title) would be more than :data:`polytile.render.png.MAX_PNG_PIXELS`
        pixels.
    """
    import io

    from PIL import Image, ImageDraw, ImageFont

    from polytile.render.png import check_png_size

    steps = _walk_steps(last)
    f = _Frame(g, tile_px, title, walk=bool(last))
    check_png_size(f.width, f.height)
    T = f.tile
    img = Image.new("RGB", (f.width, f.height), "#ffffff")
    draw = ImageDraw.Draw(img)
    label = ImageFont.load_default(size=f.label_font)
    symbol = ImageFont.load_default(size=f.symbol_font)
    text = ImageFont.load_default(size=f.text_font)
    if f.title:
        draw.text((f.left, f.title_h * 0.55), f.title, fill=_INK, anchor="lm", font=label)
    for i, name in enumerate("abcdef"):
        draw.text((f.left + (i + 0.5) * T, f.top - T * 0.12), name, fill=_GRID_INK,
                  anchor="ms", font=label)  # fmt: skip
        draw.text((f.left - T * 0.12, f.top + (i + 0.5) * T), str(i + 1), fill=_GRID_INK,
                  anchor="rm", font=label)  # fmt: skip
    for t in range(SIDE * SIDE):
        r, c = divmod(t, SIDE)
        x, y = f.left + c * T, f.top + r * T
        full = min(g.corners[4 * t : 4 * t + 4]) >= 0
        draw.rectangle((x, y, x + T, y + T), fill=_BLOCKED_FILL if full else _TINTS[g.layout[t]],
                       outline=_INK if full else _GRID_INK, width=3 if full else 1)  # fmt: skip
        draw.text(f.symbol_at(t), SYMBOLS[g.layout[t]], fill=_INK, anchor="mm", font=symbol)
    for t in steps:
        r, c = divmod(t, SIDE)
        x, y = f.left + c * T, f.top + r * T
        draw.rectangle((x + 2, y + 2, x + T - 2, y + T - 2), outline=_WALK_INK, width=2)
    for t in range(SIDE * SIDE):
        for q in range(4):
            owner = g.corners[4 * t + q]
            if owner >= 0:
                draw.rectangle(f.corner_box(t, q), fill=_INKS[owner], outline=_INK)
    if last:
        w = max(2, round(T * 0.05))
        pts = [f.walk_point(t) for t in last]
        if len(pts) > 1:
            draw.line(pts, fill=_WALK_INK, width=w, joint="curve")
            draw.polygon(arrow_head(pts[-2], pts[-1], w), fill=_WALK_INK)
        sx, sy = pts[0]
        rad = w * 1.6
        draw.ellipse((sx - rad, sy - rad, sx + rad, sy + rad), fill="#ffffff", outline=_WALK_INK,
                     width=w)  # fmt: skip
    d = f.disc
    for t, here in _movers(g).items():
        for m, (mx, my) in zip(here, f.mover_centres(t, len(here)), strict=True):
            draw.ellipse((mx - d, my - d, mx + d, my + d), fill=_INKS[m], outline=_INK, width=2)
    draw_png(draw, f.legend_shapes())
    for i, (line, who) in enumerate(f.lines):
        ink = _INK if who is None else _INKS[who]
        draw.text((f.left, f.line_y(i)), line, fill=ink, anchor="lm", font=text)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()
