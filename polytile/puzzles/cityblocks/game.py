"""City Blocks (Ritchie) under the game protocol of :mod:`polytile.puzzles.game`.

:class:`CityBlocksGame` describes a player count; its states (:class:`CityBlocksState`) wrap
the rules engine :class:`~polytile.puzzles.cityblocks.rules.CityBlocks` (``state.board``).
Players are indexed in the order of
:func:`~polytile.puzzles.cityblocks.scoring.player_names`; the player to move is the one
holding the seat to move. Returns are the players' score totals (general-sum).

Moves are coded as integers for OpenSpiel: colour ``k`` (in
:data:`~polytile.puzzles.cityblocks.rules.COLOR_NAMES` order) placing placement ``p`` of the
shared placement table is ``k * (P + 1) + p``, and its pass ``k * (P + 1) + P``.

Examples
--------
>>> g = CityBlocksGame(players=2)
>>> s = g.new_initial_state()
>>> g.player_names(), s.to_move
(('blue+red', 'yellow+green'), 0)
>>> m = s.legal_moves()[0]
>>> g.move_at(g.move_index(m), s) == m
True
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from polytile.formats import Position
from polytile.puzzles.cityblocks.moves import moves_of, placement_table
from polytile.puzzles.cityblocks.rules import COLOR_NAMES, CityBlocks, Move
from polytile.puzzles.cityblocks.scoring import player_names
from polytile.puzzles.game import (
    TERMINAL,
    ChanceMode,
    Dynamics,
    EngineState,
    Game,
    Information,
    State,
    Traits,
    Utility,
)

__all__ = ["CityBlocksGame", "CityBlocksState"]


class CityBlocksGame(Game):
    """City Blocks by Jeremy Ritchie with 2, 3 or 4 players.

    Raises
    ------
    ValueError
        If ``players`` is not 2, 3 or 4.
    """

    name = "cityblocks"
    long_name = "City Blocks (Ritchie)"

    def __init__(self, players: int = 4) -> None:
        self._names = player_names(players)  # validates
        self._players = players

    @property
    def traits(self) -> Traits:
        return Traits(Dynamics.SEQUENTIAL, ChanceMode.DETERMINISTIC, Information.PERFECT,
                      Utility.GENERAL_SUM, 2, 4)  # fmt: skip

    @property
    def num_players(self) -> int:
        return len(self._names)

    @property
    def parameters(self) -> Mapping[str, Any]:
        return {"players": self._players}

    def player_names(self) -> tuple[str, ...]:
        return self._names

    def new_initial_state(self, seed: int | np.random.Generator | None = None) -> CityBlocksState:
        """The start position (no random set-up; ``seed`` is ignored)."""
        return CityBlocksState(self, CityBlocks(self._players))

    def state_of(self, board: CityBlocks) -> CityBlocksState:
        """Wrap a rules-engine position (not copied) as a state of this game.

        Raises
        ------
        ValueError
            If the position has another player count.
        """
        if board.players != self._players:
            raise ValueError(f"the position has {board.players} players, not {self._players}")
        return CityBlocksState(self, board)

    @classmethod
    def from_position(cls, position: Position, source: str = "<position>") -> CityBlocksState:
        """The state of a City Blocks position file."""
        board = CityBlocks.from_position(position, source=source)
        return cls(board.players).state_of(board)

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def utility_range(self) -> tuple[float, float]:
        """A colour scores from 0 to 261 (the proven best on the starting board, area plus
        free edges); a player holds one or two colours."""
        most = max(len(name.split("+")) for name in self._names)
        return 0.0, 261.0 * most

    def max_game_length(self) -> int:
        """Every piece (20 per colour), at most one pass by each other seat between two
        placements, and the closing round of passes."""
        seats = 3 if self._players == 3 else 4
        return 80 * seats + seats

    def num_distinct_moves(self) -> int:
        return len(COLOR_NAMES) * (len(placement_table().piece) + 1)

    def move_index(self, move: Any) -> int:
        t = placement_table()
        stride = len(t.piece) + 1
        base = COLOR_NAMES.index(move.color) * stride
        if move.piece is None:
            return base + len(t.piece)
        p = t.index.get(move.cells)
        if p is None:
            raise ValueError(f"{move} is not a placement on the board")
        return base + int(p)

    def move_at(self, index: int, state: State) -> Move:
        t = placement_table()
        stride = len(t.piece) + 1
        if not 0 <= index < len(COLOR_NAMES) * stride:
            raise ValueError(f"move index {index} is outside 0..{len(COLOR_NAMES) * stride - 1}")
        color, p = COLOR_NAMES[index // stride], index % stride
        if p == len(t.piece):
            return Move.pass_turn(color)
        return moves_of(color)[p]


class CityBlocksState(EngineState):
    """A City Blocks position under the protocol; ``board`` is the rules engine itself."""

    game: CityBlocksGame
    board: CityBlocks

    def __init__(self, game: CityBlocksGame, board: CityBlocks) -> None:
        super().__init__(game, board)
        self._owner = {
            color: i for i, name in enumerate(game.player_names()) for color in name.split("+")
        }

    @property
    def to_move(self) -> int:
        if self.board.is_game_over():
            return TERMINAL
        return self._owner[self.board.to_move]

    def is_over(self) -> bool:
        return self.board.is_game_over()

    def returns(self) -> tuple[float, ...]:
        totals = self.board.score().player_totals
        return tuple(float(totals[name]) for name in self.game.player_names())

    def state_key(self) -> Hashable:
        b = self.board
        return ("".join(b.board_rows()), tuple(b.hand(c) for c in COLOR_NAMES), b.to_move,
                b.consecutive_passes)  # fmt: skip

    def __str__(self) -> str:
        return f"{self.board}\nto move: {self.board.to_move}"
