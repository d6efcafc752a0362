"""Blokus under the game protocol of :mod:`polytile.puzzles.game`.

:class:`BlokusGame` describes a variant and player count; its states (:class:`BlokusState`)
wrap the rules engine :class:`~polytile.puzzles.blokus.rules.Blokus` (``state.board``), so
the generic solvers and the OpenSpiel adapter play the real rules. Players are indexed in
the order of :func:`~polytile.puzzles.blokus.scoring.player_names`; with three players the
player to move green is the one whose turn with green it is. Returns are the players' score
totals (a general-sum game: each player's own score).

Moves are coded as integers for OpenSpiel: the index of a placement in the board's placement
table (the same for every colour), and one more index for a pass.

Examples
--------
>>> g = BlokusGame("duo")
>>> s = g.new_initial_state()
>>> g.player_names(), s.to_move, s.board.to_move
(('blue', 'yellow'), 0, 'blue')
>>> m = s.legal_moves()[0]
>>> g.move_at(g.move_index(m), s) == m
True
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from polytile.formats import Position
from polytile.puzzles.blokus.moves import placement_table
from polytile.puzzles.blokus.rules import Blokus, Move
from polytile.puzzles.blokus.scoring import player_names
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

__all__ = ["BlokusGame", "BlokusState"]


class BlokusGame(Game):
    """Blokus, ``variant`` ``"classic"`` or ``"duo"``, with ``players`` as
    :class:`~polytile.puzzles.blokus.rules.Blokus` takes them (4, 3, 2 or ``"teams"``).

    Raises
    ------
    UnknownNameError
        For an unknown variant.
    ValueError
        For a player count the variant is not played with.
    """

    name = "blokus"
    long_name = "Blokus"

    def __init__(self, variant: str = "classic", players: int | str | None = None) -> None:
        probe = Blokus(variant, players)  # validates both
        self._variant = variant
        self._players: int | str = probe.players
        self._names = player_names(probe.players, variant)
        self._size = probe.size
        self._colors = probe.colors

    @property
    def traits(self) -> Traits:
        return Traits(Dynamics.SEQUENTIAL, ChanceMode.DETERMINISTIC, Information.PERFECT,
                      Utility.GENERAL_SUM, 2, 4)  # fmt: skip

    @property
    def num_players(self) -> int:
        return len(self._names)

    @property
    def parameters(self) -> Mapping[str, Any]:
        return {"variant": self._variant, "players": self._players}

    def player_names(self) -> tuple[str, ...]:
        return self._names

    def new_initial_state(self, seed: int | np.random.Generator | None = None) -> BlokusState:
        """The empty board (Blokus has no random set-up; ``seed`` is ignored)."""
        return BlokusState(self, Blokus(self._variant, self._players))

    def state_of(self, board: Blokus) -> BlokusState:
        """Wrap a rules-engine position (not copied) as a state of this game.

        Raises
        ------
        ValueError
            If the position is of another variant or player count.
        """
        if board.variant.name != self._variant or board.players != self._players:
            raise ValueError(f"the position is {board.variant.name} with {board.players} "
                             f"players, not {self._variant} with {self._players}")  # fmt: skip
        return BlokusState(self, board)

    @classmethod
    def from_position(cls, position: Position, source: str = "<position>") -> BlokusState:
        """The state of a Blokus position file (see
        :meth:`~polytile.puzzles.blokus.rules.Blokus.from_position`)."""
        board = Blokus.from_position(position, source)
        return cls(board.variant.name, board.players).state_of(board)

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def utility_range(self) -> tuple[float, float]:
        """A colour scores from -89 (every square left) to +20 (all placed, ``I1`` last); a
        player holds one or two colours."""
        most = max(len(name.split("+")) for name in self._names)
        return -89.0 * most, 20.0 * most

    def max_game_length(self) -> int:
        """Every piece of every colour, with at most one pass by each other colour between
        two placements, and the last round of passes."""
        k = len(self._colors)
        return 21 * k * k + k

    def num_distinct_moves(self) -> int:
        return len(placement_table(self._size).piece) + 1

    def move_index(self, move: Any) -> int:
        t = placement_table(self._size)
        if move.piece is None:
            return len(t.piece)
        p = t.index.get(move.cells)
        if p is None:
            raise ValueError(f"{move} is not a placement on the {self._size}x{self._size} board")
        return int(p)

    def move_at(self, index: int, state: State) -> Move:
        if not isinstance(state, BlokusState):
            raise TypeError("not a Blokus state")
        t = placement_table(self._size)
        board = state.board
        if index == len(t.piece):
            return Move.pass_turn(board.to_move)
        if not 0 <= index < len(t.piece):
            raise ValueError(f"move index {index} is outside 0..{len(t.piece)}")
        return board._move(board.colors.index(board.to_move), index)


class BlokusState(EngineState):
    """A Blokus position under the protocol; ``board`` is the rules engine itself."""

    game: BlokusGame
    board: Blokus

    def __init__(self, game: BlokusGame, board: Blokus) -> None:
        super().__init__(game, board)
        self._index = placement_table(board.size).index

    @property
    def to_move(self) -> int:
        if self.board.is_game_over():
            return TERMINAL
        return self.game.player_names().index(self.board.player_to_move)

    def push_legal(self, move: Any) -> None:
        self.board._apply(move, -1 if move.piece is None else self._index[move.cells])

    def is_over(self) -> bool:
        return self.board.is_game_over()

    def returns(self) -> tuple[float, ...]:
        totals = self.board.score().player_totals
        return tuple(float(totals[name]) for name in self.game.player_names())

    def state_key(self) -> Hashable:
        return self.board.state_key()

    def __str__(self) -> str:
        return f"{self.board}\nto move: {self.board.to_move}"
