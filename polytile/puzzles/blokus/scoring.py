"""Blokus scoring, the grouping of colours into players, and the checks of a position.

Score per colour (``seeds/blokus.md`` section 6): minus one per square left in hand; +15 if
all 21 pieces were placed, and +5 more if the last piece placed was ``I1``. Players
(section 7.1): with 4 players each colour is a player; with 2 players or ``"teams"``, blue+red
play yellow+green, colour scores summed; with 3 players, blue, yellow and red are the
players and green (shared) is ignored. Duo has two players, blue and yellow.
:func:`read_fields` checks what a :class:`~polytile.formats.Position` of game ``"blokus"``
says beyond its variant: board, colour to move, hands, last pieces and passes.

:mod:`polytile.puzzles.blokus.rules` re-exports everything here.

Examples
--------
Worked examples 9.3 and 9.4:

>>> sheet = score_hands(
...     {"blue": (), "yellow": ("I2", "F5"), "red": (), "green": ("I1", "V3", "L4")},
...     {"blue": "I1", "yellow": "Z5", "red": "O4", "green": "X5"},
... )
>>> [s.total for s in sheet.colors.values()]
[20, -7, 15, -8]
>>> score_hands(sheet.hands, sheet.last_pieces, players=2).player_totals
{'blue+red': 35, 'yellow+green': -15}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from polytile.errors import FormatError, UnknownNameError
from polytile.formats import COLORS, Position
from polytile.puzzles.blokus.moves import PIECE_NAMES, PIECE_SIZES, VARIANTS

__all__ = [
    "ALL_PLACED_BONUS",
    "I1_LAST_BONUS",
    "PLAYER_OPTIONS",
    "ColorScore",
    "PositionFields",
    "ScoreSheet",
    "check_players",
    "player_names",
    "read_fields",
    "score_hands",
]

#: Bonus for placing all 21 pieces.
ALL_PLACED_BONUS = 15
#: Further bonus when the last of the 21 pieces placed was ``I1``.
I1_LAST_BONUS = 5
#: The ``players`` values each variant accepts.
PLAYER_OPTIONS: Mapping[str, tuple[int | str, ...]] = {
    "classic": (4, 3, 2, "teams"),
    "duo": (2,),
}
_SIZE = dict(zip(PIECE_NAMES, PIECE_SIZES, strict=True))


@dataclass(frozen=True)
class ColorScore:
    """One colour's score.

    Attributes
    ----------
    color
        The colour name.
    left
        Squares of the pieces still in hand.
    all_placed
        True when the hand is empty.
    i1_last
        True when all pieces are placed and the last one was ``I1``.
    """

    color: str
    left: int
    all_placed: bool
    i1_last: bool

    @property
    def bonus(self) -> int:
        """+15 for all pieces placed, +5 more for ``I1`` last."""
        return ALL_PLACED_BONUS * self.all_placed + I1_LAST_BONUS * self.i1_last

    @property
    def total(self) -> int:
        """``bonus - left``."""
        return self.bonus - self.left


@dataclass(frozen=True)
class ScoreSheet:
    """Every colour's score and the players' totals.

    Attributes
    ----------
    colors
        :class:`ColorScore` per colour, in turn order.
    players
        4, 3, 2 or ``"teams"`` (see :func:`player_names`).
    variant
        ``"classic"`` or ``"duo"``.
    hands, last_pieces
        What the sheet was computed from.
    """

    colors: Mapping[str, ColorScore]
    players: int | str = 4
    variant: str = "classic"
    hands: Mapping[str, tuple[str, ...]] | None = None
    last_pieces: Mapping[str, str | None] | None = None

    @property
    def player_totals(self) -> dict[str, int]:
        """Total per player; a player holding two colours is named ``"blue+red"``."""
        return {
            name: sum(self.colors[c].total for c in name.split("+"))
            for name in player_names(self.players, self.variant)
        }

    def winners(self) -> tuple[str, ...]:
        """The player(s) with the highest total; more than one means a shared win or draw."""
        totals = self.player_totals
        best = max(totals.values())
        return tuple(name for name, t in totals.items() if t == best)

    def as_dict(self) -> dict[str, Any]:
        """The JSON document ``{"game", "variant", "colors": {name: {...}}, "players"}``."""
        return {
            "game": "blokus",
            "variant": self.variant,
            "colors": {
                name: {"left": s.left, "bonus": s.bonus, "total": s.total}
                for name, s in self.colors.items()
            },
            "players": self.player_totals,
        }


def check_players(players: int | str, variant: str = "classic") -> int | str:
    """Validate a ``players`` option for ``variant``; return it.

    Raises
    ------
    UnknownNameError
        If the variant is unknown.
    ValueError
        If the variant is not played with that many players.
    """
    if variant not in VARIANTS:
        raise UnknownNameError("Blokus variant", str(variant), tuple(VARIANTS))
    allowed = PLAYER_OPTIONS[variant]
    if isinstance(players, bool) or players not in allowed:
        raise ValueError(
            f"{variant} Blokus is played with players = {' | '.join(map(str, allowed))}, "
            f"got {players!r}"
        )
    return players


def player_names(players: int | str = 4, variant: str = "classic") -> tuple[str, ...]:
    """Names of the players: colour names, joined by ``+`` for a player holding two.

    Raises
    ------
    ValueError
        If ``players`` does not fit the variant (see :func:`check_players`).

    Examples
    --------
    >>> player_names("teams"), player_names(3), player_names(2, "duo")
    (('blue+red', 'yellow+green'), ('blue', 'yellow', 'red'), ('blue', 'yellow'))
    """
    check_players(players, variant)
    if variant == "duo":
        return VARIANTS["duo"].colors
    if players == 4:
        return VARIANTS["classic"].colors
    if players == 3:
        return ("blue", "yellow", "red")
    return ("blue+red", "yellow+green")


def score_hands(
    hands: Mapping[str, tuple[str, ...]],
    last_pieces: Mapping[str, str | None],
    players: int | str = 4,
    variant: str = "classic",
) -> ScoreSheet:
    """Score colours from the pieces left in their hands and their last pieces placed.

    Parameters
    ----------
    hands
        Piece names still in hand, per colour of the variant.
    last_pieces
        The last piece each colour placed (None if none); only read for empty hands.
    players, variant
        How colours make up players.

    Raises
    ------
    ValueError
        If ``players`` does not fit the variant, or a colour is missing from ``hands``.
    UnknownNameError
        If a hand names an unknown piece.
    """
    check_players(players, variant)
    colors = {}
    for color in VARIANTS[variant].colors:
        if color not in hands:
            raise ValueError(f"no hand given for {color}")
        for name in hands[color]:
            if name not in _SIZE:
                raise UnknownNameError("Blokus piece", name, PIECE_NAMES)
        left = sum(_SIZE[name] for name in hands[color])
        done = not hands[color]
        colors[color] = ColorScore(color, left, done, done and last_pieces.get(color) == "I1")
    return ScoreSheet(
        colors,
        players,
        variant,
        {c: tuple(hands[c]) for c in colors},
        {c: last_pieces.get(c) for c in colors},
    )


@dataclass(frozen=True)
class PositionFields:
    """What a checked position says about each colour of its variant.

    Attributes
    ----------
    to_move
        The colour to move.
    hands
        Pieces in hand per colour, in :data:`PIECE_NAMES` order.
    last_pieces
        The last piece placed per colour (None before its first, or when not recorded).
    passes
        How many times each colour has passed.
    """

    to_move: str
    hands: Mapping[str, tuple[str, ...]]
    last_pieces: Mapping[str, str | None]
    passes: Mapping[str, int]


def read_fields(position: Position, variant: str, source: str = "<position>") -> PositionFields:
    """Check a position's board, ``to_move``, hands and ``extra`` for ``variant``.

    Parameters
    ----------
    position
        The board (rows over ``.`` and the variant's colour letters), ``to_move`` (the first
        colour when missing), the hands (a colour without one must have no cell on the board)
        and ``extra["last_piece"]`` and ``extra["passes"]``, each mapping colours to values.
    variant
        ``"classic"`` or ``"duo"``; ``position.game`` and ``extra["variant"]`` are not read.
    source
        Named in error messages.

    Raises
    ------
    FormatError
        Naming the field: a board of the wrong size or with other characters, a bad
        ``to_move``, an unknown or repeated piece, a colour whose cell count disagrees with
        its hand, a colour that has placed pieces without covering its start cell, a last
        piece still in hand (or given for a colour that placed none), a bad pass count.

    Notes
    -----
    The board is not split back into pieces: a board that no legal game reaches passes as
    long as these counts agree.
    """
    v = VARIANTS[variant]
    n, rows, colors = v.size, position.board, v.colors
    if len(rows) != n:
        raise FormatError(
            f"the board has {len(rows)} rows; {variant} Blokus is {n}x{n}", source, "board"
        )
    allowed = "." + "".join(COLORS[c] for c in colors)
    for i, row in enumerate(rows):
        if len(row) != n:
            raise FormatError(f"has {len(row)} cells, expected {n}", source, f"board[{i}]")
        bad = next((ch for ch in row if ch not in allowed), None)
        if bad is not None:
            raise FormatError(
                f"character {bad!r} is not a cell of {variant} Blokus; use {' '.join(allowed)}",
                source,
                f"board[{i}]",
            )
    to_move = position.to_move or colors[0]
    if to_move not in colors:
        raise FormatError(f"must be one of {', '.join(colors)}", source, "to_move")
    text = "".join(rows)
    last = _color_map(position.extra, "last_piece", colors, source)
    passes = _color_map(position.extra, "passes", colors, source)
    hands: dict[str, tuple[str, ...]] = {}
    for color in colors:
        on_board = text.count(COLORS[color])
        names = position.hands.get(color)
        if names is None and on_board:
            raise FormatError(
                f"{color} has {on_board} cells on the board but no hand is given",
                source,
                f"hands.{color}",
            )
        held = _hand(PIECE_NAMES if names is None else names, source, f"hands.{color}")
        hands[color] = tuple(name for name in PIECE_NAMES if name in held)
        placed = sum(PIECE_SIZES) - sum(_SIZE[name] for name in held)
        if on_board != placed:
            raise FormatError(
                f"{color} has {on_board} cells on the board, but the pieces missing from its "
                f"hand cover {placed}",
                source,
                f"hands.{color}",
            )
        r, c = v.starts[color]
        if placed and rows[r][c] != COLORS[color]:
            raise FormatError(
                f"{color} has placed pieces, so its first piece covers its start cell "
                f"({r}, {c}), but that cell holds {rows[r][c]!r}",
                source,
                f"board[{r}]",
            )
        name = last.get(color)
        where = f"last_piece.{color}"
        if name is not None:
            if not placed:
                raise FormatError(f"{color} has placed no piece, so no last piece", source, where)
            if name not in _SIZE:
                raise FormatError(f"{name!r} is not a Blokus piece", source, where)
            if name in held:
                raise FormatError(f"{name} is still in {color}'s hand", source, where)
        count = passes.get(color, 0)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise FormatError(f"must be a count >= 0, got {count!r}", source, f"passes.{color}")
    return PositionFields(
        to_move,
        hands,
        {c: last.get(c) for c in colors},
        {c: passes.get(c, 0) for c in colors},
    )


def _color_map(
    extra: Mapping[str, Any], key: str, colors: tuple[str, ...], source: str
) -> Mapping[str, Any]:
    value = extra.get(key, {})
    if not isinstance(value, Mapping):
        raise FormatError(f"must map colours to values, got {value!r}", source, key)
    unknown = [c for c in value if c not in colors]
    if unknown:
        raise FormatError(f"{unknown[0]!r} is not one of {', '.join(colors)}", source, key)
    return value


def _hand(names: Any, source: str, where: str) -> set[str]:
    held: set[str] = set()
    for j, name in enumerate(names):
        if name not in _SIZE:
            raise FormatError(
                f"{name!r} is not a Blokus piece; they are {' '.join(PIECE_NAMES)}",
                source,
                f"{where}[{j}]",
            )
        if name in held:
            raise FormatError(f"piece {name} is listed twice", source, f"{where}[{j}]")
        held.add(name)
    return held
