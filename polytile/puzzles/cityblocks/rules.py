"""City Blocks (Jeremy Ritchie): the game, a position that makes and unmakes moves.

The rules are ``seeds/cityblocks-ritchie.md``. In the python-chess style, a :class:`Move` is a
small immutable value (a colour placing a named piece on some cells, or a pass) and a
:class:`CityBlocks` game is a mutable position with :meth:`~CityBlocks.push` and
:meth:`~CityBlocks.pop`, :meth:`~CityBlocks.legal_moves` and :meth:`~CityBlocks.is_legal`.

Legal placements come from one table of every placement of the 20 pieces on the empty board
(:mod:`polytile.puzzles.cityblocks.moves`, 30033 of them, built once): a placement is legal
when its bitmask misses the occupied cells, its piece is in hand and, for a colour's first
piece, it covers the colour's start cell. Scoring lives in
:mod:`polytile.puzzles.cityblocks.scoring`. This module re-exports both, so users need only
``polytile.puzzles.cityblocks.rules``.

Examples
--------
>>> from polytile.puzzles.cityblocks.rules import CityBlocks, Move
>>> game = CityBlocks()
>>> game.to_move, len(game.legal_moves())  # 57 placements on blue's corner, and the pass
('blue', 58)
>>> game.push(Move("blue", "I3", [(0, 0), (0, 1), (0, 2)]))
>>> game.to_move, game.board_rows()[0]
('yellow', 'BBB.................')
>>> game.push(Move("yellow", "I2", [(5, 5), (5, 6)]))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
polytile.errors.IllegalMoveError: illegal move Y I2 5,5 5,6: yellow's first piece must cover ...
>>> game.score().colors["blue"].total
9
>>> game.pop()
Move(color='blue', piece='I3', cells=((0, 0), (0, 1), (0, 2)))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from polytile.errors import FormatError, IllegalMoveError
from polytile.formats import COLORS, Position
from polytile.geometry import Cell, piece_set
from polytile.puzzles.cityblocks.moves import (
    COLOR_NAMES,
    PIECE_NAMES,
    Move,
    moves_of,
    placement_table,
)
from polytile.puzzles.cityblocks.scoring import (
    BOARD_SIZE,
    CENTRE_CELLS,
    MAX_COLOR_CELLS,
    PLAYER_COUNTS,
    START_CELLS,
    ColorScore,
    Edge,
    ScoreSheet,
    check_rows,
    player_names,
    players_of,
    score,
    start_rows,
)

__all__ = [
    "BOARD_SIZE",
    "CENTRE_CELLS",
    "COLOR_NAMES",
    "MAX_COLOR_CELLS",
    "PIECE_NAMES",
    "PLAYER_COUNTS",
    "START_CELLS",
    "CityBlocks",
    "ColorScore",
    "Edge",
    "Move",
    "ScoreSheet",
    "check_rows",
    "player_names",
    "players_of",
    "score",
    "start_rows",
]

_COLOR_INDEX = {name: i for i, name in enumerate(COLOR_NAMES)}
_PIECE_INDEX = {name: i for i, name in enumerate(PIECE_NAMES)}
_PIECE_SIZE = np.array([p.size for p in piece_set("cityblocks")], dtype=np.int64)
_SQUARES = int(_PIECE_SIZE.sum())  # 88
# Cell codes of the internal grid: 0 empty, 1-4 the colours in turn order, 5 blocked.
_BLOCKED = 5
_CODE_CHARS = ".BYRG#"


class CityBlocks:
    """A City Blocks position that makes and unmakes moves.

    Parameters
    ----------
    players
        4 (one colour each), 2 (blue+red against yellow+green, colours still move B, Y, R,
        G) or 3 (seats blue, yellow and red move in turn, each may place its own piece or a
        green one; green is scored but ignored in the players' totals).

    Raises
    ------
    ValueError
        If ``players`` is not 2, 3 or 4.

    Notes
    -----
    The game is over after one pass per seat in a row (4, or 3 with three players); then no
    move is legal. Passing is always legal before that, and forced when no placement is.
    """

    def __init__(self, players: int = 4) -> None:
        player_names(players)  # validates
        self.players = players
        self._seats: tuple[str, ...] = COLOR_NAMES[:3] if players == 3 else COLOR_NAMES
        self._grid = np.zeros(BOARD_SIZE * BOARD_SIZE, dtype=np.uint8)
        for name, (r, c) in CENTRE_CELLS.items():
            self._grid[r * BOARD_SIZE + c] = _COLOR_INDEX[name] + 1
        self._occupied = np.zeros(placement_table().masks.shape[1], dtype=np.uint64)
        self._sync_occupied()
        self._hand = np.ones((4, len(PIECE_NAMES)), dtype=bool)
        self._started = [False] * 4
        self._turn = 0
        self._passes = 0
        # (move, placement index or -1, passes before, colour had started before)
        self._stack: list[tuple[Move, int, int, bool]] = []

    def _sync_occupied(self) -> None:
        occupied = np.flatnonzero(self._grid)
        self._occupied[:] = 0
        np.bitwise_or.at(
            self._occupied,
            occupied >> 6,
            np.left_shift(np.uint64(1), (occupied & 63).astype(np.uint64)),
        )

    # -- state ---------------------------------------------------------------------------
    @property
    def seats(self) -> tuple[str, ...]:
        """Colours that take turns, in order: all four, or blue, yellow, red with 3 players."""
        return self._seats

    @property
    def to_move(self) -> str:
        """The colour (seat) whose turn it is."""
        return self._seats[self._turn]

    @property
    def consecutive_passes(self) -> int:
        """Passes made in a row just before now."""
        return self._passes

    @property
    def move_stack(self) -> list[Move]:
        """Moves pushed since construction (not those before a loaded position)."""
        return [entry[0] for entry in self._stack]

    def colors_to_move(self) -> tuple[str, ...]:
        """Colours the side to move may place: its own, and green too with 3 players."""
        seat = self.to_move
        return (seat, "green") if self.players == 3 else (seat,)

    def hand(self, color: str) -> tuple[str, ...]:
        """Pieces ``color`` still holds, in :data:`PIECE_NAMES` order."""
        row = self._hand[_COLOR_INDEX[color]]
        return tuple(name for name, held in zip(PIECE_NAMES, row.tolist(), strict=True) if held)

    def has_started(self, color: str) -> bool:
        """True once ``color`` has placed its first piece."""
        return self._started[_COLOR_INDEX[color]]

    def color_at(self, cell: Cell) -> str | None:
        """Colour name occupying ``cell``, ``"blocked"`` for ``#``, None when empty."""
        r, c = cell
        code = int(self._grid[r * BOARD_SIZE + c])
        if code == 0:
            return None
        return "blocked" if code == _BLOCKED else COLOR_NAMES[code - 1]

    def board_rows(self) -> list[str]:
        """The board as rows of ``. B Y R G`` (and ``#`` for blocked cells)."""
        text = "".join(_CODE_CHARS[v] for v in self._grid.tolist())
        return [text[i : i + BOARD_SIZE] for i in range(0, len(text), BOARD_SIZE)]

    def __str__(self) -> str:
        return "\n".join(self.board_rows())

    def __repr__(self) -> str:
        return (
            f"<CityBlocks players={self.players} to_move={self.to_move} "
            f"passes={self._passes} moves={len(self._stack)}>"
        )

    def _repr_svg_(self) -> str:
        from polytile.render import to_svg

        return to_svg(self.to_position())

    def is_game_over(self) -> bool:
        """True after one pass per seat in a row."""
        return self._passes >= len(self._seats)

    def copy(self) -> CityBlocks:
        """An independent copy, move stack included."""
        other = CityBlocks.__new__(CityBlocks)
        other.players, other._seats = self.players, self._seats
        other._grid, other._occupied = self._grid.copy(), self._occupied.copy()
        other._hand, other._started = self._hand.copy(), list(self._started)
        other._turn, other._passes, other._stack = self._turn, self._passes, list(self._stack)
        return other

    # -- moves ---------------------------------------------------------------------------
    def _placeable(self, color: str) -> npt.NDArray[np.int64]:
        """Indices into the placement table of ``color``'s legal placements."""
        ci = _COLOR_INDEX[color]
        hand = self._hand[ci]
        t = placement_table()
        if not self._started[ci]:
            rows = t.covers_start[ci]
            rows = rows[hand[t.piece[rows]]]
            return rows[~np.bitwise_and(t.masks[rows], self._occupied).any(axis=1)]
        # Word by word over all placements: about 5 times faster than gathering the rows of
        # the pieces in hand first, and words with no occupied cell cost nothing.
        ok = hand[t.piece]
        for w, bits in enumerate(self._occupied.tolist()):
            if bits:
                ok &= (t.word_masks[w] & np.uint64(bits)) == 0
        return np.flatnonzero(ok)

    def legal_placements(self) -> list[Move]:
        """Every legal placement for the side to move (own colour first, then green with 3
        players); piece by piece in :data:`PIECE_NAMES` order. Empty once the game is over.

        Notes
        -----
        One vectorised bitmask test over the placements of the pieces in hand (at most 30033
        rows of 7 words); about a millisecond with full hands (``benchmarks/bench_score.py``).
        """
        if self.is_game_over():
            return []
        out: list[Move] = []
        for color in self.colors_to_move():
            moves = moves_of(color)
            out += [moves[i] for i in self._placeable(color).tolist()]
        return out

    def count_legal_placements(self) -> int:
        """``len(legal_placements())`` without building the moves."""
        if self.is_game_over():
            return 0
        return sum(int(self._placeable(color).shape[0]) for color in self.colors_to_move())

    def legal_moves(self) -> list[Move]:
        """:meth:`legal_placements`, then the pass; empty once the game is over."""
        if self.is_game_over():
            return []
        return [*self.legal_placements(), Move.pass_turn(self.to_move)]

    def must_pass(self) -> bool:
        """True when the game is not over and the side to move has no legal placement."""
        return not self.is_game_over() and self.count_legal_placements() == 0

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` may be pushed now."""
        return self._illegality(move)[0] is not None

    def _illegality(self, move: Move) -> tuple[int | None, str]:
        """(placement index or -1 for a pass, "") if legal, else (None, the reason)."""
        if self.is_game_over():
            return None, f"the game is over ({self._passes} passes in a row)"
        if move.color not in self.colors_to_move():
            allowed = " or ".join(self.colors_to_move())
            return None, f"it is {self.to_move}'s turn: only {allowed} may move"
        if move.piece is None:
            if move.color != self.to_move:
                return None, f"only the seat to move ({self.to_move}) can pass"
            return -1, ""
        ci = _COLOR_INDEX[move.color]
        t = placement_table()
        outside = [
            (r, c) for r, c in move.cells if not (0 <= r < BOARD_SIZE and 0 <= c < BOARD_SIZE)
        ]
        if outside:
            return None, f"cells {outside} lie outside the {BOARD_SIZE}x{BOARD_SIZE} board"
        index = t.index.get(move.cells)
        if index is None:
            return None, f"cells {list(move.cells)} do not form {move.piece}"
        actual = PIECE_NAMES[int(t.piece[index])]
        if actual != move.piece:
            return None, f"cells {list(move.cells)} form {actual}, not {move.piece}"
        if not self._hand[ci, _PIECE_INDEX[move.piece]]:
            return None, f"{move.color} has already placed its {move.piece}"
        for cell in move.cells:
            held = self.color_at(cell)
            if held is not None:
                what = "a blocked cell" if held == "blocked" else f"held by {held}"
                return None, f"cell {cell} is not empty ({what})"
        start = START_CELLS[move.color]
        if not self._started[ci] and start not in move.cells:
            return None, f"{move.color}'s first piece must cover its start cell {start}"
        return index, ""

    def push(self, move: Move) -> None:
        """Play ``move``.

        Raises
        ------
        IllegalMoveError
            Naming the move and what is wrong: game over, not this colour's turn, the cells
            not forming the piece or leaving the board, the piece already placed, a cell not
            empty, or a first piece missing its start cell.
        """
        index, reason = self._illegality(move)
        if index is None:
            raise IllegalMoveError(f"illegal move {move}: {reason}")
        if index < 0:
            self._stack.append((move, -1, self._passes, False))
            self._passes += 1
        else:
            ci = _COLOR_INDEX[move.color]
            t = placement_table()
            self._stack.append((move, index, self._passes, self._started[ci]))
            cells = t.flat[index]
            self._grid[cells[cells >= 0]] = ci + 1
            self._occupied |= t.masks[index]
            self._hand[ci, t.piece[index]] = False
            self._started[ci] = True
            self._passes = 0
        self._turn = (self._turn + 1) % len(self._seats)

    def pop(self) -> Move:
        """Take back the last pushed move and return it.

        Raises
        ------
        IndexError
            If no move was pushed since construction or loading.
        """
        if not self._stack:
            raise IndexError("no move to take back")
        move, index, passes, started = self._stack.pop()
        self._turn = (self._turn - 1) % len(self._seats)
        self._passes = passes
        if index >= 0:
            ci = _COLOR_INDEX[move.color]
            t = placement_table()
            cells = t.flat[index]
            self._grid[cells[cells >= 0]] = 0
            self._occupied ^= t.masks[index]
            self._hand[ci, t.piece[index]] = True
            self._started[ci] = started
        return move

    def peek(self) -> Move:
        """The last pushed move.

        Raises
        ------
        IndexError
            If there is none.
        """
        if not self._stack:
            raise IndexError("no move pushed yet")
        return self._stack[-1][0]

    def score(self) -> ScoreSheet:
        """Score of the current board, with this game's number of players."""
        return score(self.board_rows(), self.players)

    # -- positions -----------------------------------------------------------------------
    def to_position(self) -> Position:
        """The position as a :class:`~polytile.formats.Position` of game ``"cityblocks"``.

        ``extra`` records ``players`` and ``consecutive_passes``; every colour's hand is
        written, so :meth:`from_position` restores the same state (without the move stack).
        """
        return Position(
            "cityblocks",
            tuple(self.board_rows()),
            self.to_move,
            {name: self.hand(name) for name in COLOR_NAMES},
            {"players": self.players, "consecutive_passes": self._passes},
        )

    @classmethod
    def from_position(
        cls, position: Position, players: int | None = None, source: str = "<position>"
    ) -> CityBlocks:
        """Set up a game from a position of game ``"cityblocks"``.

        Parameters
        ----------
        position
            The board (checked with :func:`check_rows`), ``to_move`` (blue when missing) and
            the hands. A colour without a hand entry must have only its centre square on the
            board (it then holds all 20 pieces). ``extra`` may give ``players`` and
            ``consecutive_passes`` (0 when missing); other extra keys are ignored.
        players
            Overrides ``extra["players"]`` (default 4).
        source
            Named in error messages (a file name).

        Returns
        -------
        CityBlocks
            With an empty move stack. Whether a colour has placed its first piece is derived
            from its hand (a colour that placed any piece has placed its first).

        Raises
        ------
        FormatError
            Naming the field: another game, a bad board, an unknown or repeated piece, a
            colour whose cell count disagrees with its hand, a colour that has placed pieces
            without holding its start cell, a bad ``to_move``, ``players`` or
            ``consecutive_passes``.
        """
        if position.game != "cityblocks":
            raise FormatError(
                f'the position is of game {position.game!r}, not "cityblocks"', source, "game"
            )
        if players is None:
            players = players_of(position, source)
        elif players not in PLAYER_COUNTS:
            raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
        game = cls(players)
        rows = position.board
        check_rows(rows, source, "board")
        seats = game.seats
        to_move = position.to_move or "blue"
        if to_move not in seats:
            raise FormatError(
                f"{to_move!r} does not take turns with {players} players; use {', '.join(seats)}",
                source,
                "to_move",
            )
        passes = _int_field(position.extra, "consecutive_passes", 0, range(len(seats) + 1), source)
        text = "".join(rows)
        for name in COLOR_NAMES:
            ci = _COLOR_INDEX[name]
            on_board = text.count(COLORS[name])
            names = position.hands.get(name)
            if names is None:
                if on_board != 1:
                    raise FormatError(
                        f"{name} has {on_board} cells on the board but no hand is given",
                        source,
                        f"hands.{name}",
                    )
                continue
            game._hand[ci] = _hand_row(names, source, f"hands.{name}")
            expected = 1 + _SQUARES - int(_PIECE_SIZE[game._hand[ci]].sum())
            if on_board != expected:
                raise FormatError(
                    f"{name} has {on_board} cells on the board, but its hand leaves "
                    f"{expected} (the centre square and the squares of the pieces placed)",
                    source,
                    f"hands.{name}",
                )
            game._started[ci] = not bool(game._hand[ci].all())
            r, c = START_CELLS[name]
            if game._started[ci] and rows[r][c] != COLORS[name]:
                raise FormatError(
                    f"{name} has placed pieces, so its first piece covers its start cell "
                    f"({r}, {c}), but that cell holds {rows[r][c]!r}",
                    source,
                    f"board[{r}]",
                )
        game._grid[:] = np.frombuffer(
            text.translate(str.maketrans(_CODE_CHARS, "012345")).encode("ascii"), np.uint8
        ) - ord("0")
        game._sync_occupied()
        game._turn = seats.index(to_move)
        game._passes = passes
        return game


def _int_field(
    extra: Mapping[str, Any], key: str, default: int, allowed: Iterable[int], source: str
) -> int:
    value = extra.get(key, default)
    allowed = tuple(allowed)
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise FormatError(
            f"must be one of {', '.join(map(str, allowed))}, got {value!r}", source, key
        )
    return value


def _hand_row(names: Iterable[str], source: str, where: str) -> npt.NDArray[np.bool_]:
    row = np.zeros(len(PIECE_NAMES), dtype=bool)
    for j, name in enumerate(names):
        if name not in _PIECE_INDEX:
            raise FormatError(
                f"{name!r} is not a City Blocks piece; they are {' '.join(PIECE_NAMES)}",
                source,
                f"{where}[{j}]",
            )
        if row[_PIECE_INDEX[name]]:
            raise FormatError(f"piece {name} is listed twice", source, f"{where}[{j}]")
        row[_PIECE_INDEX[name]] = True
    return row
