"""Pentobi game records (``.blksgf``): read a Blokus game, write one Pentobi can open.

The format is Pentobi's derivative of SGF 4 (``libpentobi_base/Pentobi-SGF.md`` in the
Pentobi sources). What this module relies on:

* ``GM`` names the variant by a string: ``Blokus`` (4 colours, 4 players), ``Blokus
  Two-Player`` and ``Blokus Three-Player`` (4 colours), ``Blokus Duo`` (2 colours). Trigon,
  Junior, Nexos, Callisto and GembloQ are refused with an error naming the supported ones.
* A move is a node property whose value lists the covered points separated by commas,
  ``B[f9,e10,f10,g10,f11]``; the piece is not named, it follows from the shape. Two-colour
  variants use ``B`` and ``W`` (``1``, ``2`` are read too), four-colour ones ``1`` to ``4``
  (blue, yellow, red, green). Passes are not written: the next move's colour tells who
  played, so a forced pass is inferred when the colour to move has no placement.
* A point is a column letter (``a`` is column 0) and a row number counted from the BOTTOM
  (``a1`` is the lower left corner): polytile's ``(row, col)`` is ``(size - number, letter)``.
  Pentobi writes the points of a move in the order ``a1, b1, ..., a2, b2, ...``.
* Setup: ``AB``/``AW`` (two colours) or ``A1``..``A4``, one value per piece, and ``PL`` for
  the colour to play. Read in the root node only.
* Player names are ``PB``/``PW`` in two-player variants, ``P1``..``P4`` otherwise.

Variations are allowed in input; the main line (each node's first child) is followed.

Examples
--------
>>> from polytile.puzzles.blokus.rules import Blokus, Move
>>> game = Blokus("duo")
>>> game.push(Move("blue", "V3", [(4, 4), (5, 4), (5, 5)]))
>>> text = write_blksgf(game, PB="Ann")
>>> print(text, end="")
(;GM[Blokus Duo]FF[4]CA[UTF-8]AP[polytile]PB[Ann]
;B[e9,f9,e10])
>>> record = read_blksgf(text)
>>> record.variant, record.moves[0].piece, record.properties["PB"]
('duo', 'V3', 'Ann')
>>> record.position().color_at((5, 5))
'blue'
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from polytile._files import decode_text
from polytile.errors import FormatError, IllegalMoveError, PolytileError
from polytile.formats import Position
from polytile.geometry import Cell, Polyomino, piece_set
from polytile.puzzles.blokus.points import cell_name, in_points
from polytile.puzzles.blokus.rules import VARIANTS, Blokus, Move
from polytile.text import printable

__all__ = ["GAME_NAMES", "GameRecord", "IllegalRecordError", "cell_name", "parse_cell",
           "read_blksgf", "write_blksgf"]  # fmt: skip


class IllegalRecordError(FormatError):
    """A record that reads, but whose moves break the rules (an illegal move, one out of
    turn or after the end), the move named: ``validate`` calls the record invalid (exit 1),
    where a file it cannot read is bad input (exit 2)."""


#: Pentobi ``GM`` values we read, with our variant and players.
GAME_NAMES: Mapping[str, tuple[str, int]] = {
    "Blokus": ("classic", 4),
    "Blokus Two-Player": ("classic", 2),
    "Blokus Three-Player": ("classic", 3),
    "Blokus Duo": ("duo", 2),
}
_UNSUPPORTED = (
    "Blokus Trigon",
    "Blokus Trigon Two-Player",
    "Blokus Trigon Three-Player",
    "Blokus Junior",
    "Nexos",
    "Nexos Two-Player",
    "Callisto",
    "Callisto Two-Player",
    "Callisto Two-Player Four-Color",
    "Callisto Three-Player",
    "GembloQ",
    "GembloQ Two-Player",
    "GembloQ Three-Player",
    "GembloQ Two-Player Four-Color",
)
_FOUR = ("blue", "yellow", "red", "green")
# Move and setup property ids per colour, the first one being the one written.
_MOVE_IDS: dict[str, dict[str, tuple[str, ...]]] = {
    "duo": {"blue": ("B", "1", "BLUE"), "yellow": ("W", "2", "GREEN")},
    "classic": {c: (str(i + 1), c.upper()) for i, c in enumerate(_FOUR)},
}
_SETUP_IDS: dict[str, dict[str, str]] = {
    "duo": {"blue": "AB", "yellow": "AW"},
    "classic": {c: f"A{i + 1}" for i, c in enumerate(_FOUR)},
}
_PL: dict[str, dict[str, str]] = {
    "duo": {"B": "blue", "1": "blue", "W": "yellow", "2": "yellow"},
    "classic": {str(i + 1): c for i, c in enumerate(_FOUR)},
}
_SPACE = re.compile(r"\s*")
_PROPERTY = re.compile(r"\s*([A-Za-z0-9]+)?\s*")
#: Largest record read: Pentobi writes a game in a few kilobytes.
MAX_RECORD_BYTES = 4 * 1024 * 1024
#: Most nodes read in one record (the main line and every variation).
MAX_NODES = 100_000
#: Most variations open at once: each opens at a move of the line above it, so a record's
#: nesting stays below its number of moves (a Blokus game has at most 84).
MAX_NESTING = 1_000
_CELL = re.compile(r"([a-zA-Z])([0-9]+)")


# -- points ------------------------------------------------------------------------------------
def parse_cell(text: str, size: int) -> Cell:
    """The cell Pentobi names ``text`` (case-insensitive) on a board of side ``size``.

    Raises
    ------
    ValueError
        If ``text`` is not a point of the board.

    >>> parse_cell("a1", 20), parse_cell("T20", 20)
    ((19, 0), (0, 19))
    """
    m = _CELL.fullmatch(text)
    if not m:
        raise ValueError(f"{text!r} is not a point: a column letter then a row number, like e10")
    col, number = ord(m.group(1).lower()) - ord("a"), int(m.group(2))
    if col >= size or not 1 <= number <= size:
        raise ValueError(f"point {text!r} is outside the {size}x{size} board")
    return (size - number, col)


@cache
def _shapes() -> dict[tuple[Cell, ...], str]:
    return {p.canonical().cells: p.name for p in piece_set("blokus")}


def _piece_of(cells: Iterable[Cell]) -> str:
    """The Blokus piece covering exactly ``cells``; ValueError saying why when none does."""
    cells = list(cells)
    if len(set(cells)) != len(cells):
        raise ValueError("a point is repeated")
    try:
        shape = Polyomino(tuple(cells)).canonical().cells
    except PolytileError as exc:
        raise ValueError("the points are not edge-connected") from exc
    name = _shapes().get(shape)
    if name is None:
        raise ValueError(f"no Blokus piece has this shape of {len(cells)} squares")
    return name


# -- SGF syntax ----------------------------------------------------------------------------------
@dataclass
class _Node:
    props: dict[str, list[str]]
    line: int
    children: list[_Node] = field(default_factory=list)


class _Parser:
    """Just enough SGF 4: ``(;A[v][w]B[x](;C[y])(;D[z]))``, escapes in values, any spacing.

    Linear in the text: no recursion, line numbers counted once as the reading moves on,
    values cut out by ``str.find``. At most :data:`MAX_NODES` nodes are read, and
    :data:`MAX_NESTING` variations may be open at once.
    """

    def __init__(self, text: str, source: str) -> None:
        self.text, self.source, self.i = text, source, 0
        self.nodes = 0
        self._line, self._line_at = 1, 0  # line number of offset _line_at

    def line(self) -> int:
        """The line of the current offset (offsets only grow while a node is read)."""
        if self.i < self._line_at:  # pragma: no cover - an error after stepping back
            return self.text.count("\n", 0, self.i) + 1
        self._line += self.text.count("\n", self._line_at, self.i)
        self._line_at = self.i
        return self._line

    def error(self, message: str) -> FormatError:
        return FormatError(message, self.source, f"line {self.line()}")

    def skip(self) -> None:
        self.i = _SPACE.match(self.text, self.i).end()  # type: ignore[union-attr]

    def peek(self) -> str:
        self.skip()
        return self.text[self.i : self.i + 1]

    def tree(self) -> _Node:
        """The first game tree of the text: its root node, children linked."""
        if self.peek() != "(":
            raise self.error("an SGF game record starts with '('")
        self.i += 1
        root: _Node | None = None
        parent: _Node | None = None
        open_trees: list[_Node] = []  # per open '(': the last node of its sequence
        while True:
            if self.peek() != ";":
                raise self.error("expected ';' starting a node")
            last = self.node()
            if parent is None:
                root = last
            else:
                parent.children.append(last)
            while self.text.startswith(";", self.i):  # node() stops at a non-space
                node = self.node()
                last.children.append(node)
                last = node
            open_trees.append(last)
            while True:  # variations of this sequence, then the ')' of each finished tree
                ch = self.peek()
                if ch == "(":
                    if len(open_trees) > MAX_NESTING:  # the root's sequence and those open
                        raise self.error(
                            f"variations nested more than {MAX_NESTING:,} deep: not a game "
                            "record polytile reads (a Blokus game has at most 84 moves)"
                        )
                    self.i += 1
                    parent = open_trees[-1]
                    break
                if ch != ")":
                    what = repr(ch) if ch else "the end of the file"
                    raise self.error(f"expected ')' closing the game tree, got {what}")
                self.i += 1
                open_trees.pop()
                if not open_trees and root is not None:
                    return root

    def node(self) -> _Node:
        """The node whose ';' is at the current offset; it ends on the first character
        after it that is not a space (one match a property: the hot loop of long files)."""
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.error(
                f"more than {MAX_NODES:,} nodes: not a game record polytile reads (a Blokus "
                "game has at most 84 moves)"
            )
        self.i += 1  # ';'
        node = _Node({}, self.line())
        text, props = self.text, node.props
        while True:
            # always matches: spaces, maybe a name, spaces
            m = _PROPERTY.match(text, self.i)
            ident = m.group(1)  # type: ignore[union-attr]
            self.i = m.end()  # type: ignore[union-attr]
            if ident is None:
                return node
            ident = ident.upper()
            if ident in props:
                raise self.error(f"property {printable(ident)} repeated in one node")
            values = props[ident] = []
            while text.startswith("[", self.i):
                values.append(self.value())
                self.skip()
            if not values:
                raise self.error(f"property {printable(ident)} has no value")

    def value(self) -> str:
        """The value opened by the ``[`` at the current offset, escapes resolved."""
        text, start = self.text, self.i
        parts: list[str] = []
        i = start + 1
        close = -1
        while True:
            if close < i:  # the ']' found last time was escaped: look further
                close = text.find("]", i)
                if close < 0:
                    raise self.error("property value not closed by ']'")
            slash = text.find("\\", i, close)
            if slash < 0:
                parts.append(text[i:close])
                self.i = close + 1
                return "".join(parts)
            parts.append(text[i:slash])
            if slash + 1 >= len(text):  # pragma: no cover - a ']' follows, so it cannot end
                raise self.error("property value not closed by ']'")
            parts.append(text[slash + 1])
            i = slash + 2


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


# -- the record ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameRecord:
    """A Blokus game read from (or for) a ``.blksgf`` file: its main line.

    Attributes
    ----------
    variant, players
        As :class:`~polytile.puzzles.blokus.rules.Blokus` takes them.
    moves
        The placements of the file in order (move N is ``moves[N - 1]``); forced passes are
        not written in the format and are inferred when replaying.
    setup
        Pieces placed before the first move (``AB``/``AW``/``A1``..``A4`` in the root).
    setup_to_move
        The colour to play after the setup (``PL``), None for the variant's first colour.
    properties
        The root's other properties as text: ``PB``, ``PW``, ``P1``..``P4``, ``RE``, ``DT``,
        ``EV``, ``GN``, ``C``, ... (several values joined by newlines).
    comments
        ``C`` of the move nodes, by move number.
    source
        Named in error messages.
    dropped
        What the file holds beyond this (written again, it would be lost): its variations,
        and the properties of move nodes other than the move and ``C`` (such as Pentobi's
        ``BL`` time left), each said in a few words.
    """

    variant: str
    players: int | str
    moves: tuple[Move, ...]
    setup: tuple[Move, ...] = ()
    setup_to_move: str | None = None
    properties: Mapping[str, str] = field(default_factory=dict)
    comments: Mapping[int, str] = field(default_factory=dict)
    source: str = "<string>"
    dropped: tuple[str, ...] = ()

    def initial(self) -> Blokus:
        """The position before the first move (the setup, if any), with an empty move stack.

        Raises
        ------
        FormatError
            If the setup pieces overlap or repeat a piece of one colour.
        """
        if not self.setup and self.setup_to_move is None:
            return Blokus(self.variant, self.players)
        size = VARIANTS[self.variant].size
        grid = [["."] * size for _ in range(size)]
        colors = VARIANTS[self.variant].colors
        used: dict[str, set[str]] = {c: set() for c in colors}
        for move in self.setup:
            assert move.piece is not None
            if move.piece in used[move.color]:
                raise FormatError(f"{move.color} {move.piece} set up twice", self.source, "setup")
            used[move.color].add(move.piece)
            for r, c in move.cells:
                if grid[r][c] != ".":
                    place = cell_name((r, c), size)
                    raise FormatError(f"setup pieces overlap on {place}", self.source, "setup")
                grid[r][c] = move.color[0].upper()
        hands = {
            c: tuple(p.name for p in piece_set("blokus") if p.name not in used[c]) for c in colors
        }
        position = Position(
            "blokus",
            tuple("".join(row) for row in grid),
            self.setup_to_move or colors[0],
            hands,
            {"variant": self.variant, "players": self.players},
        )
        return Blokus.from_position(position, self.source)

    def position(self, move_number: int | None = None) -> Blokus:
        """The game after move ``move_number`` (0: before the first, None: after the last).

        Every move is replayed with :meth:`Blokus.push`, so the rules check it; forced passes
        are pushed where a colour's move is missing. The move stack holds the replay.

        Raises
        ------
        ValueError
            If ``move_number`` is negative or beyond the record.
        FormatError
            Naming the source and the move: an illegal move, or one out of turn while the
            colour to move still had a placement.
        """
        if move_number is None:
            move_number = len(self.moves)
        if not 0 <= move_number <= len(self.moves):
            raise ValueError(f"move number {move_number} not in 0..{len(self.moves)}")
        game = self.initial()
        for n, move in enumerate(self.moves[:move_number], start=1):
            where = f"move {n}"
            while game.to_move != move.color and game.must_pass():
                game.push(Move.pass_turn(game.to_move))
            if game.to_move != move.color:
                if game.is_game_over():
                    raise IllegalRecordError(
                        f"{move.color} plays after the game is over", self.source, where
                    )
                raise IllegalRecordError(
                    f"{move.color} plays out of turn: {game.to_move} can still place a piece",
                    self.source,
                    where,
                )
            try:
                game.push(move)
            except IllegalMoveError as exc:
                # the move and its cells as the file writes them (e10), not as (4, 4)
                raise IllegalRecordError(in_points(str(exc), move, game.size), self.source,
                                         where) from exc  # fmt: skip
        return game


def _source_text(
    text_or_path: str | bytes | os.PathLike[str], source: str | None
) -> tuple[str, str]:
    if isinstance(text_or_path, bytes):
        _check_size(len(text_or_path), source or "<string>")
        return decode_text(text_or_path, source or "<string>"), source or "<string>"
    if isinstance(text_or_path, str) and text_or_path.lstrip().startswith("("):
        _check_size(len(text_or_path), source or "<string>")
        return text_or_path, source or "<string>"
    path = Path(text_or_path)
    name = source or str(path)
    try:
        with path.open("rb") as f:
            _check_size(os.fstat(f.fileno()).st_size, name)
            data = f.read(MAX_RECORD_BYTES + 1)  # a file may grow after the check
    except OSError as exc:
        raise FormatError(f"cannot read the file: {exc.strerror or exc}", name) from exc
    _check_size(len(data), name)
    return decode_text(data, name), name


def _check_size(size: int, source: str) -> None:
    """Refuse a record over :data:`MAX_RECORD_BYTES` before reading or parsing it."""
    if size > MAX_RECORD_BYTES:
        raise FormatError(
            f"record is {size / 2**20:.1f} MB; polytile reads game records of at most "
            f"{MAX_RECORD_BYTES // 2**20} MB",
            source,
        )


def _cells(value: str, size: int, source: str, where: str) -> tuple[str, tuple[Cell, ...]]:
    try:
        cells = tuple(parse_cell(p, size) for p in value.split(","))
    except ValueError as exc:
        raise FormatError(str(exc), source, where) from exc
    try:
        return _piece_of(cells), cells
    except ValueError as exc:
        raise FormatError(
            f"points {printable(value)} do not form a piece: {exc}", source, where
        ) from exc


def read_blksgf(
    text_or_path: str | bytes | os.PathLike[str], source: str | None = None
) -> GameRecord:
    """Read a Pentobi game record (the first game of the file, its main line).

    Parameters
    ----------
    text_or_path
        The record's text (a string starting with ``(``, or bytes: UTF-8) or a file path.
    source
        Named in error messages; the path by default, else ``"<string>"``.

    Returns
    -------
    GameRecord
        Already replayed once, so every move in it is legal.

    Raises
    ------
    FormatError
        Naming the source and where (line, property, move number): bad SGF syntax, a missing
        or unsupported ``GM``, a bad point, cells not forming a piece, an unsupported setup
        (not in the root, or ``AE``), an illegal or out-of-turn move.
    """
    text, source = _source_text(text_or_path, source)
    root = _Parser(text, source).tree()
    game_name = root.props.get("GM", [""])[0]
    if game_name not in GAME_NAMES:
        if game_name in _UNSUPPORTED:
            why = f"the Pentobi variant {game_name!r} is not supported"
        else:
            why = (
                f"GM[{printable(game_name)}] is not a Pentobi Blokus game"
                if game_name
                else "no GM property"
            )
        raise FormatError(f"{why}; supported: {', '.join(GAME_NAMES)}", source, "GM")
    variant, players = GAME_NAMES[game_name]
    size = VARIANTS[variant].size
    move_ids = {i: c for c, ids in _MOVE_IDS[variant].items() for i in ids}
    setup_ids = {i: c for c, i in _SETUP_IDS[variant].items()}
    setup: list[Move] = []
    to_move: str | None = None
    properties: dict[str, str] = {}
    for ident, values in root.props.items():
        if ident in setup_ids:
            for k, value in enumerate(values, start=1):
                name, cells = _cells(value, size, source, f"{ident} value {k}")
                setup.append(Move(setup_ids[ident], name, cells))
        elif ident == "PL":
            if values[0] not in _PL[variant]:
                raise FormatError(
                    f"PL[{printable(values[0])}] names no colour of {game_name}", source, "PL"
                )
            to_move = _PL[variant][values[0]]
        elif ident == "AE":
            raise FormatError("removing pieces (AE) is not supported", source, "AE")
        elif ident not in move_ids and ident not in ("GM", "FF", "CA"):
            properties[ident] = "\n".join(values)
    moves: list[Move] = []
    comments: dict[int, str] = {}
    most = len(VARIANTS[variant].colors) * len(piece_set("blokus"))  # every piece placed
    others: set[str] = set()
    variations = 0
    node: _Node | None = root
    while node is not None:
        found = [i for i in node.props if i in move_ids]
        if node is not root and any(i in node.props for i in (*setup_ids, "AE", "PL")):
            raise FormatError(
                "setup after the root node is not supported", source, f"line {node.line}"
            )
        if len(found) > 1:
            raise FormatError(
                f"one node holds moves {', '.join(found)}", source, f"line {node.line}"
            )
        if found:
            ident, values = found[0], node.props[found[0]]
            where = f"move {len(moves) + 1} ({ident}, line {node.line})"
            if len(values) != 1 or not values[0]:
                raise FormatError("a move is one value listing its points", source, where)
            if len(moves) == most:
                raise FormatError(
                    f"more than {most} moves: {game_name} has {most} pieces to place",
                    source,
                    where,
                )
            name, cells = _cells(values[0], size, source, where)
            moves.append(Move(move_ids[ident], name, cells))
            if "C" in node.props:
                comments[len(moves)] = "\n".join(node.props["C"])
        if node is not root:
            others.update(i for i in node.props if i not in move_ids and i != "C")
        variations += max(len(node.children) - 1, 0)
        node = node.children[0] if node.children else None
    dropped = [f"{variations} variation{'s' if variations > 1 else ''}"] if variations else []
    if others:
        dropped.append(f"move properties {', '.join(sorted(others))}")
    record = GameRecord(variant, players, tuple(moves), tuple(setup), to_move, properties,
                        comments, source, tuple(dropped))  # fmt: skip
    record.position()  # every move checked now, not at the first use
    return record


# -- writing -----------------------------------------------------------------------------------
def _move_value(move: Move, size: int) -> str:
    cells = sorted(move.cells, key=lambda rc: (size - rc[0], rc[1]))  # a1, b1, ..., a2, ...
    return ",".join(cell_name(cell, size) for cell in cells)


def _setup_of(game: Blokus) -> list[Move]:
    """The pieces on the board of ``game``: same-colour pieces never share an edge, so each
    edge-connected group of one colour is a piece."""
    size, seen, pieces = game.size, set(), []
    for r in range(size):
        for c in range(size):
            color = game.color_at((r, c))
            if color is None or (r, c) in seen:
                continue
            group, todo = [], [(r, c)]
            seen.add((r, c))
            while todo:
                y, x = todo.pop()
                group.append((y, x))
                for cell in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                    inside = 0 <= cell[0] < size and 0 <= cell[1] < size
                    if inside and cell not in seen and game.color_at(cell) == color:
                        seen.add(cell)
                        todo.append(cell)
            pieces.append(Move(color, _piece_of(group), group))
    return pieces


def _game_name(variant: str, players: int | str) -> str:
    if variant == "duo":
        return "Blokus Duo"
    if players == 4:
        return "Blokus"
    return "Blokus Three-Player" if players == 3 else "Blokus Two-Player"


def write_blksgf(
    game_or_moves: Blokus | GameRecord | Position | Iterable[Move],
    variant: str | None = None,
    players: int | str | None = None,
    comments: Mapping[int, str] | None = None,
    **properties: str,
) -> str:
    """A Pentobi game record (main line only) of a game, a record, a position or moves.

    Parameters
    ----------
    game_or_moves
        A :class:`Blokus` game (its move stack; a board it was loaded with becomes the
        setup), a :class:`GameRecord`, a :class:`~polytile.formats.Position` of game
        ``"blokus"`` (a setup with no moves), or moves played from the empty board.
    variant, players
        For bare moves: ``"classic"`` (the default) or ``"duo"``, and the players.
        ``players="teams"`` is written as ``Blokus Two-Player`` (same colours and scoring).
    comments
        ``C`` comments by move number (1 is the first move written), added to a record's own.
    properties
        Root properties by SGF identifier, e.g. ``PB="Ann"``, ``RE="B+5"``, ``DT="2024-05-01"``;
        a GameRecord's own properties are kept unless overridden.

    Raises
    ------
    IllegalMoveError
        If bare moves are not a legal game (they are replayed).
    ValueError
        For a property identifier that is not upper-case SGF.
    """
    props: dict[str, str] = {}
    notes: dict[int, str] = {}
    if isinstance(game_or_moves, GameRecord):
        record = game_or_moves
        props.update(record.properties)
        notes.update(record.comments)
        start = record.initial()
        moves: list[Move] = list(record.moves)
    else:
        if isinstance(game_or_moves, Position):
            game = Blokus.from_position(game_or_moves)
        elif isinstance(game_or_moves, Blokus):
            game = game_or_moves
        else:
            game = Blokus(variant or "classic", players)
            for move in game_or_moves:
                while not move.is_pass and game.to_move != move.color and game.must_pass():
                    game.push(Move.pass_turn(game.to_move))
                game.push(move)
        start = game.copy()
        while start.move_stack:
            start.pop()
        moves = [m for m in game.move_stack if not m.is_pass]
    for n, text in (comments or {}).items():
        notes[n] = f"{notes[n]}\n{text}" if n in notes else text
    name = _game_name(start.variant.name, start.players)
    for key, value in properties.items():
        if not re.fullmatch(r"[A-Z][A-Z0-9]?", key):
            raise ValueError(f"{key!r} is not an SGF property identifier (like PB, RE, DT)")
        props[key] = str(value)
    v, size = start.variant.name, start.size
    head = [f"GM[{name}]FF[4]CA[UTF-8]"]
    props["AP"] = properties.get("AP", "polytile")  # a record's own AP is not ours to repeat
    props = {"AP": props["AP"], **props}
    head += [f"{k}[{_escape(val)}]" for k, val in props.items()]
    setup = _setup_of(start)
    if setup or start.to_move != start.colors[0]:
        for color in start.colors:
            values = [_move_value(m, size) for m in setup if m.color == color]
            if values:
                head.append(_SETUP_IDS[v][color] + "".join(f"[{x}]" for x in values))
        pl = {c: i[0] for c, i in _MOVE_IDS[v].items()}[start.to_move]
        head.append(f"PL[{pl}]")
    lines = ["(;" + "".join(head)]
    for n, move in enumerate(moves, start=1):
        note = f"C[{_escape(notes[n])}]" if n in notes else ""
        lines.append(f";{_MOVE_IDS[v][move.color][0]}[{_move_value(move, size)}]{note}")
    return "\n".join(lines) + ")\n"
