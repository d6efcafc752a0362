"""City Blocks (Jeremy Ritchie): the board's fixed cells, board checks and scoring.

Score per colour (``seeds/cityblocks-ritchie.md`` section 6), the colour's centre square
included everywhere:

* **area**: the size of the colour's largest edge-connected region, or 0 when that region has
  fewer than 2 cells;
* **free edges**: unit edges between a cell of the colour and an *empty* cell. Border edges
  and edges against any occupied or blocked cell (same colour included) score nothing;
* **total** = area + free edges.

:func:`score` also reports, for pictures, the cells of the counted region and every free edge.
:mod:`polytile.puzzles.cityblocks.rules` re-exports everything here.

Examples
--------
>>> from polytile.puzzles.cityblocks.scoring import score, start_rows
>>> rows = start_rows()
>>> rows[0] = "BBB" + rows[0][3:]  # blue I3 on its start corner (worked example 8.2)
>>> sheet = score(rows)
>>> b = sheet.colors["blue"]
>>> (b.area, b.free, b.total)
(3, 6, 9)
>>> sheet.as_dict()["players"]
{'blue': 9, 'yellow': 2, 'red': 2, 'green': 2}
>>> score(rows, players=2).as_dict()["players"]
{'blue+red': 11, 'yellow+green': 4}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt

from polytile.errors import FormatError
from polytile.formats import CELL_CHARS, COLORS, Position
from polytile.geometry import Cell
from polytile.regions import color_components

__all__ = [
    "BOARD_SIZE",
    "CENTRE_CELLS",
    "MAX_COLOR_CELLS",
    "PLAYER_COUNTS",
    "START_CELLS",
    "ColorScore",
    "Edge",
    "ScoreSheet",
    "check_rows",
    "player_names",
    "players_of",
    "score",
    "start_rows",
]

#: Side of the square board.
BOARD_SIZE = 20
#: Each colour's start cell (the Blokus corners): its first piece must cover it.
START_CELLS: Mapping[str, Cell] = MappingProxyType(
    {"blue": (0, 0), "yellow": (0, 19), "red": (19, 19), "green": (19, 0)}
)
#: The pre-placed single square of each colour in the central 2x2 block.
CENTRE_CELLS: Mapping[str, Cell] = MappingProxyType(
    {"blue": (9, 9), "yellow": (9, 10), "red": (10, 10), "green": (10, 9)}
)
#: Most cells a colour can hold: its 88 piece squares and its centre square.
MAX_COLOR_CELLS = 89
#: The supported numbers of players.
PLAYER_COUNTS = (2, 3, 4)

#: A free edge: (cell of the colour, the empty cell beside it).
Edge = tuple[Cell, Cell]

_N = BOARD_SIZE
_EMPTY = ord(".")
_LETTER_CODES = {name: ord(letter) for name, letter in COLORS.items()}
_ALLOWED = frozenset(CELL_CHARS)


@dataclass(frozen=True)
class ColorScore:
    """One colour's score and the cells and edges it comes from.

    Attributes
    ----------
    color
        The colour name.
    area
        Size of the largest region, 0 when it has fewer than 2 cells.
    free
        Number of free edges.
    area_cells
        The cells of the counted region (empty when ``area`` is 0). When several regions tie
        for largest, the one whose first cell comes first in reading order.
    free_edges
        Every free edge as (cell of the colour, empty neighbour), sorted.
    """

    color: str
    area: int
    free: int
    area_cells: frozenset[Cell] = field(default=frozenset(), repr=False)
    free_edges: tuple[Edge, ...] = field(default=(), repr=False)

    @property
    def total(self) -> int:
        """``area + free``."""
        return self.area + self.free


@dataclass(frozen=True)
class ScoreSheet:
    """Every colour's score and the players' totals.

    Attributes
    ----------
    colors
        :class:`ColorScore` per colour name, in turn order (blue, yellow, red, green).
    players
        2, 3 or 4: how colours make up players (see :func:`player_names`).
    """

    colors: Mapping[str, ColorScore]
    players: int = 4

    @property
    def player_totals(self) -> dict[str, int]:
        """Total per player: 4 players, one per colour; 2 players, ``"blue+red"`` and
        ``"yellow+green"`` summed; 3 players, blue, yellow and red (green is ignored)."""
        return {
            name: sum(self.colors[c].total for c in name.split("+"))
            for name in player_names(self.players)
        }

    def winners(self) -> tuple[str, ...]:
        """The player(s) with the highest total; more than one means a draw."""
        totals = self.player_totals
        best = max(totals.values())
        return tuple(name for name, t in totals.items() if t == best)

    def as_dict(self) -> dict[str, Any]:
        """The JSON document ``{"game", "colors": {name: {area, free, total}}, "players"}``."""
        return {
            "game": "cityblocks",
            "colors": {
                name: {"area": s.area, "free": s.free, "total": s.total}
                for name, s in self.colors.items()
            },
            "players": self.player_totals,
        }


def player_names(players: int) -> tuple[str, ...]:
    """Names of the players: colour names, joined by ``+`` for a player holding two.

    Raises
    ------
    ValueError
        If ``players`` is not 2, 3 or 4.

    Examples
    --------
    >>> player_names(2)
    ('blue+red', 'yellow+green')
    """
    if players == 4:
        return tuple(COLORS)
    if players == 3:
        return ("blue", "yellow", "red")
    if players == 2:
        return ("blue+red", "yellow+green")
    raise ValueError(f"players must be 2, 3 or 4, got {players!r}")


def players_of(position: Position, source: str = "<position>") -> int:
    """The number of players a position records in ``extra["players"]``, 4 when absent.

    Raises
    ------
    FormatError
        If the value is not 2, 3 or 4.
    """
    value = position.extra.get("players", 4)
    if isinstance(value, bool) or value not in PLAYER_COUNTS:
        raise FormatError(f"must be 2, 3 or 4, got {value!r}", source, "players")
    return int(value)


def start_rows() -> list[str]:
    """The board rows at the start: empty but for the four centre squares."""
    grid = [["."] * _N for _ in range(_N)]
    for name, (r, c) in CENTRE_CELLS.items():
        grid[r][c] = COLORS[name]
    return ["".join(row) for row in grid]


def check_rows(rows: Sequence[str], source: str = "<board>", field_name: str = "row") -> None:
    """Check that ``rows`` can be a City Blocks board.

    Parameters
    ----------
    rows
        The board, one string per row, over ``. # B Y R G``.
    source
        Named in error messages (a file name, or ``"<board>"``).
    field_name
        How rows are named in messages: ``"row"`` gives ``row 3``, ``"board"`` gives
        ``board[3]`` (the field path in a position file).

    Raises
    ------
    FormatError
        If the board is not 20x20, holds a character other than ``. # B Y R G``, lacks a
        centre square, or gives a colour more than :data:`MAX_COLOR_CELLS` cells.
    """

    def where(i: int) -> str:
        return f"board[{i}]" if field_name == "board" else f"{field_name} {i}"

    if isinstance(rows, str) or len(rows) != _N:
        what = "a string" if isinstance(rows, str) else f"{len(rows)} rows"
        raise FormatError(
            f"the board has {what}; City Blocks is played on {_N}x{_N}",
            source,
            "board" if field_name == "board" else None,
        )
    for i, row in enumerate(rows):
        if not isinstance(row, str):
            raise FormatError(f"must be a string, got {type(row).__name__}", source, where(i))
        if len(row) != _N:
            raise FormatError(
                f"has {len(row)} cells; City Blocks is played on {_N}x{_N}", source, where(i)
            )
        if not _ALLOWED.issuperset(row):
            col, ch = next((j, ch) for j, ch in enumerate(row) if ch not in _ALLOWED)
            raise FormatError(
                f"character {ch!r} in column {col} is not a cell; use . # B Y R G",
                source,
                where(i),
            )
    for name, (r, c) in CENTRE_CELLS.items():
        letter = COLORS[name]
        if rows[r][c] != letter:
            raise FormatError(
                f"cell ({r}, {c}) holds {rows[r][c]!r}, but it is {name}'s fixed centre "
                f"square {letter!r}",
                source,
                where(r),
            )
    text = "".join(rows)
    for name, letter in COLORS.items():
        n = text.count(letter)
        if n > MAX_COLOR_CELLS:
            raise FormatError(
                f"{name} has {n} cells; at most {MAX_COLOR_CELLS} are possible (88 piece "
                "squares and the centre square)",
                source,
                "board" if field_name == "board" else None,
            )


def _rows_of(board: Sequence[str] | Position, source: str) -> tuple[Sequence[str], str]:
    if isinstance(board, Position):
        if board.game != "cityblocks":
            raise FormatError(
                f'the position is of game {board.game!r}, not "cityblocks"', source, "game"
            )
        return board.board, "board"
    return board, "row"


def score(board: Sequence[str] | Position, players: int = 4, source: str = "<board>") -> ScoreSheet:
    """Score a City Blocks board.

    Parameters
    ----------
    board
        Rows of ``. # B Y R G`` (20 strings of 20), or a :class:`~polytile.formats.Position`
        of the game ``"cityblocks"``. ``#`` cells (not part of the game, but allowed) count
        as occupied.
    players
        2, 3 or 4: how :attr:`ScoreSheet.player_totals` groups the colours.
    source
        Named in error messages.

    Returns
    -------
    ScoreSheet
        Area, free edges and total per colour, with the counted cells and the free edges.

    Raises
    ------
    FormatError
        If the position is of another game or the board fails :func:`check_rows`.
    ValueError
        If ``players`` is not 2, 3 or 4.

    Notes
    -----
    O(cells): a few numpy shifts for the free edges, networkx components
    (:func:`polytile.regions.color_components`) for the regions. Under a millisecond on a
    full 20x20 board (``benchmarks/bench_score.py``), well inside the 5 ms budget.

    Examples
    --------
    Worked example 8.1: with only the centre squares, each colour has 2 free edges and a
    lone square, so area 0.

    >>> [(s.area, s.free) for s in score(start_rows()).colors.values()]
    [(0, 2), (0, 2), (0, 2), (0, 2)]
    """
    player_names(players)  # validates
    rows, field_name = _rows_of(board, source)
    check_rows(rows, source, field_name)
    codes = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8).reshape(_N, _N)
    return ScoreSheet(_score_codes(rows, codes), players)


# Directions as (row step, col step); the masks below say "the neighbour that way is empty".
_STEPS: tuple[Cell, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))


def _score_codes(rows: Sequence[str], codes: npt.NDArray[np.uint8]) -> dict[str, ColorScore]:
    empty = codes == _EMPTY
    beside: list[npt.NDArray[np.bool_]] = []
    for dr, dc in _STEPS:
        m = np.zeros_like(empty)
        # m[r, c] = empty[r + dr, c + dc], False off the board (border edges score nothing).
        m[max(0, -dr) : _N - max(0, dr), max(0, -dc) : _N - max(0, dc)] = empty[
            max(0, dr) : _N - max(0, -dr), max(0, dc) : _N - max(0, -dc)
        ]
        beside.append(m)
    result = {}
    for name, code in _LETTER_CODES.items():
        mine = codes == code
        edges: list[Edge] = []
        for (dr, dc), m in zip(_STEPS, beside, strict=True):
            rr, cc = np.nonzero(mine & m)
            edges += [
                ((r, c), (r + dr, c + dc)) for r, c in zip(rr.tolist(), cc.tolist(), strict=True)
            ]
        edges.sort()
        # Largest first, ties broken by the smallest cell in reading order.
        regions = color_components(rows, COLORS[name])
        region = regions[0] if regions and len(regions[0]) >= 2 else frozenset()
        result[name] = ColorScore(name, len(region), len(edges), region, tuple(edges))
    return result
