"""Files in and out: versioned JSON for solutions and positions, and plain text boards.

Three kinds of document are read and written (``docs/formats.md`` describes them in full):

* ``polytile/solution@1``: a board size and the pieces placed on it (a tiling, a teaser
  answer), loaded as a :class:`Solution`.
* ``polytile/position@1``: a game position (board rows, side to move, pieces in hand),
  loaded as a :class:`Position`.
* plain text boards: rows of ``. # B Y R G``, one per line, loaded as a :class:`Position`
  of the game ``"tiling"``.

Reading is strict: anything the format does not allow raises a
:class:`~polytile.errors.FormatError` that names the source and the line (syntax problems) or
the field path (``placements[2].cells[1]``). Unknown piece names are *not* format errors: a
rules check (:func:`polytile.puzzles.tiling.puzzles.check_solution`) reports them. Unknown top-level
keys are kept in ``extra`` and written back, so tools may annotate files without losing data.

Examples
--------
>>> from polytile.formats import PlacedPiece, Solution, dumps, loads
>>> s = Solution("demo", 1, 2, (PlacedPiece("I2", ((0, 0), (0, 1))),))
>>> loads(dumps(s)) == s
True
>>> loads("..#\\n.B.").board
('..#', '.B.')
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from polytile._files import (
    decode_text,
    get_cell,
    get_list,
    get_side,
    get_string,
    kind_of,
    parse_json,
    require,
    require_in,
    short,
    write_atomic,
)
from polytile.board import MAX_SIDE, Board
from polytile.colors import COLORS
from polytile.errors import FormatError
from polytile.geometry import Cell
from polytile.grids import GRIDS

__all__ = [
    "CELL_CHARS",
    "COLORS",
    "GAMES",
    "MAX_FILE_BYTES",
    "MAX_JSON_VALUES",
    "POSITION_FORMAT",
    "READ_FORMATS",
    "SOLUTION_FORMAT",
    "STATUSES",
    "PlacedPiece",
    "Position",
    "Solution",
    "dumps",
    "load",
    "load_position",
    "load_solution",
    "loads",
    "save",
    "write_atomic",
]

#: Format tag of solution files.
SOLUTION_FORMAT = "polytile/solution@1"
#: Format tag of position files.
POSITION_FORMAT = "polytile/position@1"
#: Allowed values of a solution's ``status``.
STATUSES = ("feasible", "optimal", "infeasible", "unknown")
#: Allowed values of a position's ``game``.
GAMES = ("blokus", "cityblocks", "tiling")
#: Characters allowed in board rows: empty, blocked, then the colour letters.
CELL_CHARS = ".#BYRG"
#: Files larger than this are refused rather than read into memory.
MAX_FILE_BYTES = 50 * 1024 * 1024
#: JSON documents with more values than this (counted by their commas, before parsing) are
#: refused: parsed, 50 MB of ``[0,0],`` would take over 2 GB. The largest document polytile
#: writes, a 200 x 200 board of single squares, has some 120,000.
MAX_JSON_VALUES = 1_000_000

_SOLUTION_KEYS = ("format", "puzzle", "rows", "cols", "status", "placements", "blocked",
                  "grid", "layers")
_POSITION_KEYS = ("format", "game", "board", "to_move", "hands")
_PLACEMENT_KEYS = ("piece", "color", "cells")
_TAG = re.compile(r"polytile/([a-z]+)@(\d{1,9})")
_VERSIONS = {"solution": 1, "position": 1}
#: Every format polytile reads, with what such a file is and what reads it: an unknown
#: format's message lists them, and a known one given where it is not read is named.
READ_FORMATS = {
    SOLUTION_FORMAT: "a solution (polytile render, validate)",
    POSITION_FORMAT: "a Blokus, City Blocks (Ritchie) or tiling position (polytile render, "
    "validate, and as its game allows score, bounds, solve-endgame)",
    "polytile/henning@1": "a City Blocks (Henning) game (polytile play, render, score, "
    "validate, solve-endgame)",
    "polytile/gridblock@1": "a Gridblock game (polytile play, render, score, validate, "
    "solve-endgame)",
    "polytile/walkable@1": "a Walkable Cities game (polytile play, render, score, validate, "
    "solve-endgame)",
    "polytile/puzzle@1": "a tiling puzzle (polytile count, solve, render, validate --puzzle)",
    "polytile/teaser@1": "a Blokus teaser (polytile count, solve, validate --puzzle)",
    "polytile/henning-puzzle@1": "a City Blocks (Henning) puzzle, kept in a puzzle set "
    "(polytile puzzles)",
    "polytile/henning-answer@1": "a City Blocks (Henning) puzzle's answer, kept in a puzzle "
    "set (polytile puzzles)",
    "polytile/gridblock-solo-puzzle@1": "a Gridblock solitaire exported from a puzzle set "
    "(polytile render, solve, validate)",
    "polytile/gridblock-solo-answer@1": "a Gridblock solitaire's answer (polytile validate "
    "--puzzle PUZZLE.json)",
    "polytile/walkable-path@1": "a Walkable Cities largest-path answer (polytile validate)",
    "polytile/walkable-path-puzzle@1": "a Walkable Cities largest-path puzzle exported from a "
    "puzzle set (polytile render, solve, validate)",
    "polytile/walkable-path-answer@1": "a Walkable Cities largest-path puzzle's answer "
    "(polytile validate --puzzle PUZZLE.json)",
}


def _unknown_format(tag: str) -> str:
    """Why a solution or position reader refuses ``tag``: what the file is, if polytile
    reads it elsewhere, else every format polytile reads."""
    if tag in READ_FORMATS:
        return (f"{tag!r} is {READ_FORMATS[tag]}, not a solution or position; "
                "give it to a command that reads it")  # fmt: skip
    return (f"unknown format {short(tag)}; polytile reads {', '.join(READ_FORMATS)} "
            "(docs/formats.md describes each)")  # fmt: skip


# -- the values ------------------------------------------------------------------------------
@dataclass(frozen=True)
class PlacedPiece:
    """One piece on a board: its name, the cells it covers and, in games, its colour.

    Parameters
    ----------
    piece
        Piece name such as ``"F5"``; not checked against any piece set here.
    cells
        The covered cells ``(row, col)``, in any order.
    color
        A colour name from :data:`COLORS`, or None for colour-less tilings.
    """

    piece: str
    cells: tuple[Cell, ...]
    color: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(tuple(int(x) for x in c) for c in self.cells))


@dataclass(frozen=True)
class Solution:
    """Pieces placed on a ``rows x cols`` board: a tiling or a teaser's answer.

    Parameters
    ----------
    puzzle
        Name of the puzzle solved (a catalogue name, or any label).
    rows, cols
        Board size.
    placements
        The placed pieces.
    status
        One of :data:`STATUSES`: how the solver qualified the answer.
    blocked
        Cells no piece may cover.
    extra
        Further top-level fields of the file, kept and written back unchanged.
    grid
        The grid (:data:`polytile.grids.GRIDS`): cells are ``(row, col)`` on the square,
        triangle and hex grids, ``(layer, row, col)`` on the cube grid.
    layers
        Layers of a box of cubes (1 on the flat grids).
    """

    puzzle: str
    rows: int
    cols: int
    placements: tuple[PlacedPiece, ...]
    status: str = "feasible"
    blocked: tuple[Cell, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False)
    grid: str = "square"
    layers: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "placements", tuple(self.placements))
        object.__setattr__(self, "blocked",
                           tuple(tuple(int(x) for x in c) for c in self.blocked))  # fmt: skip
        object.__setattr__(self, "extra", _check_extra(self.extra, _SOLUTION_KEYS, "Solution"))

    def board(self) -> Board:
        """The board (size and blocked cells) as a :class:`~polytile.board.Board`.

        Raises
        ------
        BoardError
            If the size is out of range or a blocked cell lies outside the board.
        """
        return Board(self.rows, self.cols, frozenset(self.blocked), self.grid, self.layers)

    def _repr_svg_(self) -> str:
        from polytile.render.svg import to_svg

        return to_svg(self)


@dataclass(frozen=True)
class Position:
    """A game position: the board rows, the colour to move and the pieces in hand.

    Parameters
    ----------
    game
        One of :data:`GAMES`.
    board
        Equal-length rows over :data:`CELL_CHARS` (``.`` empty, ``#`` blocked, colour letters).
    to_move
        Colour name to move next, or None.
    hands
        Pieces still in hand per colour name, by piece name.
    extra
        Further top-level fields of the file, kept and written back unchanged.
    """

    game: str
    board: tuple[str, ...]
    to_move: str | None = None
    hands: Mapping[str, tuple[str, ...]] = field(default_factory=dict, hash=False)
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "board", tuple(self.board))
        object.__setattr__(self, "hands", {k: tuple(v) for k, v in self.hands.items()})
        object.__setattr__(self, "extra", _check_extra(self.extra, _POSITION_KEYS, "Position"))

    @property
    def rows(self) -> int:
        """Number of rows."""
        return len(self.board)

    @property
    def cols(self) -> int:
        """Number of columns."""
        return len(self.board[0]) if self.board else 0

    def _repr_svg_(self) -> str:
        from polytile.render.svg import to_svg

        return to_svg(self)


def _check_extra(extra: Mapping[str, Any], reserved: tuple[str, ...], owner: str) -> dict[str, Any]:
    extra = dict(extra)
    for key in extra:
        if not isinstance(key, str) or key in reserved:
            raise FormatError(
                f"extra key {key!r} is not allowed: it is not a string or clashes with a field",
                f"<{owner}>",
                f"extra[{key!r}]",
            )
    return extra


# -- reading ---------------------------------------------------------------------------------
def load(path: str | os.PathLike[str]) -> Solution | Position:
    """Read a solution or position file; JSON is recognised by its ``format`` field.

    Parameters
    ----------
    path
        A ``polytile/solution@1`` or ``polytile/position@1`` JSON file, or a plain text
        board (rows of ``. # B Y R G``; blank lines and lines starting with ``;`` ignored).

    Returns
    -------
    Solution or Position
        A plain text board loads as ``Position(game="tiling")``.

    Raises
    ------
    FormatError
        If the file is too large, not UTF-8, empty, or breaks the format; the message names
        the file and the line or field.
    OSError
        If the file cannot be opened.
    """
    p = Path(path)
    size = p.stat().st_size
    if size > MAX_FILE_BYTES:
        raise FormatError(_too_large(size), str(p))
    with p.open("rb") as f:
        data = f.read(MAX_FILE_BYTES + 1)  # a file may grow between stat and read
    return loads(data, str(p))


def load_solution(path: str | os.PathLike[str]) -> Solution:
    """Like :func:`load`, but the file must hold a solution.

    Raises
    ------
    FormatError
        Also when the file holds a position.
    """
    obj = load(path)
    if not isinstance(obj, Solution):
        raise FormatError(f"expected a {SOLUTION_FORMAT} file, found a position", str(path))
    return obj


def load_position(path: str | os.PathLike[str]) -> Position:
    """Like :func:`load`, but the file must hold a position or a plain text board.

    Raises
    ------
    FormatError
        Also when the file holds a solution.
    """
    obj = load(path)
    if not isinstance(obj, Position):
        raise FormatError(f"expected a {POSITION_FORMAT} file, found a solution", str(path))
    return obj


def loads(text: str | bytes, source: str = "<string>") -> Solution | Position:
    """Parse a document given as text (or UTF-8 bytes); see :func:`load`.

    Parameters
    ----------
    text
        The document.
    source
        Name used in error messages, usually the file name.

    Raises
    ------
    FormatError
        As for :func:`load`.
    """
    if len(text) > MAX_FILE_BYTES:
        raise FormatError(_too_large(len(text)), source)
    text = decode_text(text, source)
    body = text.lstrip()
    if not body:
        raise FormatError("the file is empty", source, "line 1")
    if body[0] in "{[":
        values = text.count(",")
        if values > MAX_JSON_VALUES:
            raise FormatError(
                f"the document holds {values:,} values; polytile reads documents of at most "
                f"{MAX_JSON_VALUES:,} (a 200 x 200 board of single squares has some 120,000)",
                source,
            )
        return _from_document(parse_json(text, source), source)
    return _read_text_board(text, source)


def _too_large(size: int) -> str:
    return (
        f"file is {size / 2**20:.1f} MB; polytile refuses files over "
        f"{MAX_FILE_BYTES // (1024 * 1024)} MB"
    )


def _from_document(doc: Any, source: str) -> Solution | Position:
    if not isinstance(doc, dict):
        raise FormatError("the top level must be a JSON object {...}", source, "line 1")
    if "format" not in doc:
        raise FormatError(
            f'missing "format" field; expected "{SOLUTION_FORMAT}" or "{POSITION_FORMAT}"',
            source,
            "format",
        )
    tag = doc["format"]
    if not isinstance(tag, str):
        raise FormatError(f"must be a string, got {kind_of(tag)}", source, "format")
    match = _TAG.fullmatch(tag)
    if not match or match.group(1) not in _VERSIONS:
        raise FormatError(_unknown_format(tag), source, "format")
    kind, version = match.group(1), int(match.group(2))
    if version != _VERSIONS[kind]:
        raise FormatError(
            f"unsupported version {version} of polytile/{kind}; this polytile reads version "
            f"{_VERSIONS[kind]} (a newer polytile may read it)",
            source,
            "format",
        )
    if kind == "solution":
        return _read_solution(doc, source)
    return _read_position(doc, source)


def _read_solution(doc: dict[str, Any], source: str) -> Solution:
    puzzle = get_string(require(doc, "puzzle", source), source, "puzzle")
    rows = get_side(require(doc, "rows", source), source, "rows")
    cols = get_side(require(doc, "cols", source), source, "cols")
    status = get_string(doc.get("status", "feasible"), source, "status", STATUSES)
    grid_name = get_string(doc.get("grid", "square"), source, "grid", tuple(GRIDS))
    dims = 3 if grid_name == "cube" else 2
    layers = get_side(doc.get("layers", 1), source, "layers")
    if layers != 1 and grid_name != "cube":
        raise FormatError(f"only the cube grid has layers; this solution is on the "
                          f"{grid_name} grid", source, "layers")  # fmt: skip
    placed = []
    for i, item in enumerate(get_list(require(doc, "placements", source), source, "placements")):
        where = f"placements[{i}]"
        if not isinstance(item, dict):
            raise FormatError(f"must be an object, got {kind_of(item)}", source, where)
        for key in item:
            if key not in _PLACEMENT_KEYS:
                raise FormatError(
                    f"unknown field {short(key)}; a placement has {', '.join(_PLACEMENT_KEYS)}",
                    source,
                    f"{where}.{key}",
                )
        name = get_string(require_in(item, "piece", source, where), source, f"{where}.piece")
        if not name.strip():
            raise FormatError("a piece name cannot be empty", source, f"{where}.piece")
        color = item.get("color")
        if color is not None:
            get_string(color, source, f"{where}.color", tuple(COLORS))
        raw = get_list(require_in(item, "cells", source, where), source, f"{where}.cells")
        if not raw:
            raise FormatError("a placement covers at least one cell", source, f"{where}.cells")
        cells = tuple(get_cell(v, source, f"{where}.cells[{j}]", dims)
                      for j, v in enumerate(raw))  # fmt: skip
        placed.append(PlacedPiece(name, cells, color))
    blocked = tuple(
        get_cell(v, source, f"blocked[{j}]", dims)
        for j, v in enumerate(get_list(doc.get("blocked", []), source, "blocked"))
    )
    extent = (layers, rows, cols) if dims == 3 else (rows, cols)
    for j, cell in enumerate(blocked):
        if not all(0 <= x < n for x, n in zip(cell, extent, strict=True)):
            raise FormatError(
                f"blocked cell {list(cell)} lies outside the {'x'.join(map(str, extent))} "
                "board",
                source,
                f"blocked[{j}]",
            )
    seen: set[int] = set()  # "given": the placements a puzzle gave in place (pictures mark them)
    for j, i in enumerate(get_list(doc.get("given", []), source, "given")):
        if type(i) is not int or not 0 <= i < len(placed) or i in seen:
            if not placed:  # "(0 to -1)" said nothing: there is no placement to give
                raise FormatError(f"names a placement given in place, got {short(i)}, but the "
                                  "solution places no piece", source, f"given[{j}]")  # fmt: skip
            raise FormatError(f"must be the index of a placement (0 to {len(placed) - 1}), each "
                              f"listed once, got {short(i)}", source, f"given[{j}]")  # fmt: skip
        seen.add(i)
    extra = {k: v for k, v in doc.items() if k not in _SOLUTION_KEYS}
    return Solution(puzzle, rows, cols, tuple(placed), status, blocked, extra, grid_name,
                    layers)  # fmt: skip


def _check_rows(rows: list[str], source: str, where: list[str]) -> None:
    """Equal lengths, allowed characters, size limits; ``where[i]`` locates row ``i``."""
    if not rows:
        raise FormatError("a board needs at least one row", source, where[0])
    width = len(rows[0])
    for i, row in enumerate(rows):
        if not row:
            raise FormatError("a board row cannot be empty", source, where[i])
        if len(row) != width:
            raise FormatError(
                f"row has {len(row)} cells but the first row has {width}; rows must be equal",
                source,
                where[i],
            )
        for col, ch in enumerate(row, start=1):
            if ch not in CELL_CHARS:
                raise FormatError(
                    f"character {ch!r} at column {col} is not a cell; "
                    f"use . (empty), # (blocked) or B Y R G (colours)",
                    source,
                    where[i],
                )
    for label, n in (("rows", len(rows)), ("columns", width)):
        if n > MAX_SIDE:
            raise FormatError(f"{n} {label} is more than the {MAX_SIDE} allowed", source, where[0])


def _read_position(doc: dict[str, Any], source: str) -> Position:
    game = get_string(require(doc, "game", source), source, "game", GAMES)
    rows = get_list(require(doc, "board", source), source, "board")
    for i, row in enumerate(rows):
        get_string(row, source, f"board[{i}]")
    _check_rows(rows, source, [f"board[{i}]" for i in range(len(rows))] or ["board"])
    to_move = doc.get("to_move")
    if to_move is not None:
        get_string(to_move, source, "to_move", tuple(COLORS))
    raw_hands = doc.get("hands", {})
    if not isinstance(raw_hands, dict):
        raise FormatError(f"must be an object, got {kind_of(raw_hands)}", source, "hands")
    hands: dict[str, tuple[str, ...]] = {}
    for color, names in raw_hands.items():
        where = f"hands.{color}"
        if color not in COLORS:
            raise FormatError(
                f"{short(color)} is not a colour; use {', '.join(COLORS)}", source, where
            )
        items = get_list(names, source, where)
        for j, name in enumerate(items):
            if not get_string(name, source, f"{where}[{j}]").strip():
                raise FormatError("a piece name cannot be empty", source, f"{where}[{j}]")
        hands[color] = tuple(items)
    extra = {k: v for k, v in doc.items() if k not in _POSITION_KEYS}
    return Position(game, tuple(rows), to_move, hands, extra)


def _read_text_board(text: str, source: str) -> Position:
    rows: list[str] = []
    where: list[str] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(";"):
            continue
        rows.append(stripped)
        where.append(f"line {lineno}")
    _check_rows(rows, source, where or ["line 1"])
    return Position("tiling", tuple(rows))


# -- writing ---------------------------------------------------------------------------------
def dumps(obj: Solution | Position) -> str:
    """The JSON text of a solution or position: pretty, stable key order, compact cells.

    Known fields come first in a fixed order, then ``extra`` sorted by key. The document is
    checked with the same rules as :func:`loads` before it is written, so whatever ``dumps``
    returns loads back to an equal value.

    Raises
    ------
    FormatError
        If the value would not make a valid file (for example a colour that is not one of
        :data:`COLORS`, or ``extra`` holding something JSON cannot represent).
    TypeError
        If ``obj`` is neither a :class:`Solution` nor a :class:`Position`.
    """
    if isinstance(obj, Solution):
        doc: dict[str, Any] = {
            "format": SOLUTION_FORMAT,
            "puzzle": obj.puzzle,
            "rows": obj.rows,
            "cols": obj.cols,
            "status": obj.status,
            "placements": [_placement_doc(p) for p in obj.placements],
        }
        if obj.grid != "square":
            doc["grid"] = obj.grid
        if obj.layers != 1:
            doc["layers"] = obj.layers
        if obj.blocked:
            doc["blocked"] = [list(c) for c in obj.blocked]
        owner = "<Solution>"
    elif isinstance(obj, Position):
        doc = {"format": POSITION_FORMAT, "game": obj.game, "board": list(obj.board)}
        if obj.to_move is not None:
            doc["to_move"] = obj.to_move
        if obj.hands:
            doc["hands"] = {k: list(v) for k, v in obj.hands.items()}
        owner = "<Position>"
    else:
        raise TypeError(f"dumps takes a Solution or a Position, not {type(obj).__name__}")
    extra = {k: obj.extra[k] for k in sorted(obj.extra)}
    try:
        extra_text = {
            k: json.dumps(v, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False)
            for k, v in extra.items()
        }
    except (TypeError, ValueError) as exc:
        raise FormatError(f"extra cannot be written as JSON: {exc}", owner, "extra") from exc
    _from_document({**doc, **json.loads(json.dumps(extra))}, owner)  # same checks as loading
    parts = [f"  {json.dumps(k)}: {_field_text(k, v)}" for k, v in doc.items()]
    parts += [
        f"  {json.dumps(k)}: {v.replace(chr(10), chr(10) + '  ')}" for k, v in extra_text.items()
    ]
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _placement_doc(p: PlacedPiece) -> dict[str, Any]:
    doc: dict[str, Any] = {"piece": p.piece}
    if p.color is not None:
        doc["color"] = p.color
    doc["cells"] = [list(c) for c in p.cells]
    return doc


def _field_text(key: str, value: Any) -> str:
    def one(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False)

    if key == "placements" and value:
        return "[\n" + ",\n".join(f"    {one(p)}" for p in value) + "\n  ]"
    if key == "blocked":
        lines = [", ".join(one(c) for c in value[i : i + 12]) for i in range(0, len(value), 12)]
        return "[\n    " + ",\n    ".join(lines) + "\n  ]"
    if key == "board":
        return "[\n" + ",\n".join(f"    {one(row)}" for row in value) + "\n  ]"
    if key == "hands" and value:
        items = [f"    {one(k)}: {one(v)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n  }"
    return one(value)


def save(obj: Solution | Position, path: str | os.PathLike[str]) -> None:
    """Write :func:`dumps` of ``obj`` to ``path`` atomically (see :func:`write_atomic`).

    Raises
    ------
    FormatError
        If ``obj`` would not make a valid file; nothing is written.
    OSError
        If the file cannot be written; an existing file is left as it was.
    """
    write_atomic(path, dumps(obj))
