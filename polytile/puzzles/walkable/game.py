"""Walkable Cities under the game protocol: two simultaneous nodes per round.

:class:`WalkableGame` is the description (parameters: ``dead`` cells per board for a seeded
set-up, ``pass_limit``, ``tiebreak``); its states (:class:`WalkableState`) wrap the rules
engine :class:`~polytile.puzzles.walkable.rules.Walkable` (``state.board``). Every node is
:data:`~polytile.puzzles.game.SIMULTANEOUS`: first the selection (each player's move is a
piece name; with one piece left in the rotation that piece is both players' only move), then
the drop (each player's move is a :class:`~polytile.puzzles.walkable.rules.Drop` or
``"pass"``). Both are pushed as one :class:`~polytile.puzzles.game.JointMove`.

Information is perfect apart from the simultaneous choices themselves: nothing stays hidden
once a node is resolved (the show's hidden items are not modelled, see
``seeds/walkable-cities.md`` 7.3). Returns: 1 for the winner, -1 for the loser, 0 for a draw.

Examples
--------
>>> from polytile.puzzles.game import load_game
>>> g = load_game("walkable", pass_limit=4)
>>> s = g.new_initial_state(seed=2)
>>> s.legal_moves(0)
['I4', 'O4', 'T4', 'L4', 'Z4']
>>> s.push(g.parse_move("T4 | T4")); len(s.legal_moves(1)) > 1000
True
>>> m = g.parse_move(str(JointMove((s.legal_moves(0)[0], "pass"))))
>>> s.push(m); s.board.rotation, s.board.passes
(('I4', 'O4', 'L4', 'Z4'), (0, 1))
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from functools import cache
from itertools import product
from typing import Any

import numpy as np

from polytile.puzzles.game import (
    SIMULTANEOUS,
    TERMINAL,
    ChanceMode,
    Dynamics,
    EngineState,
    Game,
    Information,
    JointMove,
    Traits,
    Utility,
)
from polytile.puzzles.walkable.board import CELLS, PIECES, drop_table
from polytile.puzzles.walkable.rules import PASS, PLAYER_NAMES, Drop, Options, Walkable, parse_drop

__all__ = ["MAX_JOINT", "WalkableGame", "WalkableState"]

#: :meth:`WalkableState.legal_moves` lists joint drops (``player=None``) only up to this many.
MAX_JOINT = 10_000


@cache
def _offsets() -> tuple[dict[str, int], dict[tuple[str, tuple[int, ...]], int]]:
    """Each piece's first index among the drop indices, and each drop's index."""
    start, index = {}, {}
    at = len(PIECES) + 1
    for p in PIECES:
        start[p] = at
        for i, row in enumerate(drop_table(p)):
            index[p, tuple(int(x) for x in row)] = at + i
        at += len(drop_table(p))
    return start, index


class WalkableGame(Game):
    """Walkable Cities: two players, three boards, simultaneous picks and drops.

    Parameters
    ----------
    dead
        Dead cells per board at seeded random places in :meth:`new_initial_state`.
    pass_limit, tiebreak
        The rule options (:class:`~polytile.puzzles.walkable.rules.Options`).

    Raises
    ------
    ValueError
        For an option value the rules do not have.
    """

    name = "walkable"
    long_name = "Walkable Cities"

    def __init__(self, dead: int = 10, pass_limit: int = 3, tiebreak: str = "none") -> None:
        if isinstance(dead, bool) or not isinstance(dead, int) or not 0 <= dead <= 100:
            raise ValueError(f"dead cells per board are 0..100, not {dead!r}")
        self.dead = dead
        self.options = Options(pass_limit, tiebreak)

    @property
    def traits(self) -> Traits:
        return Traits(Dynamics.SIMULTANEOUS, ChanceMode.DETERMINISTIC, Information.PERFECT,
                      Utility.ZERO_SUM, 2, 2)  # fmt: skip

    @property
    def num_players(self) -> int:
        return 2

    @property
    def parameters(self) -> Mapping[str, Any]:
        o = self.options
        return {"dead": self.dead, "pass_limit": o.pass_limit, "tiebreak": o.tiebreak}

    def player_names(self) -> tuple[str, ...]:
        return PLAYER_NAMES

    def utility_range(self) -> tuple[float, float]:
        return -1.0, 1.0

    def max_game_length(self) -> int:
        """Two nodes a round; among any ``pass_limit`` rounds red drops once (else the game
        is over), and each drop takes at least one unclaimed cell."""
        return 2 * self.options.pass_limit * (CELLS + 1)

    def new_initial_state(self, seed: int | np.random.Generator | None = None) -> WalkableState:
        """A seeded set-up: :attr:`dead` dead cells per board."""
        if isinstance(seed, np.random.Generator):
            seed = int(seed.integers(2**31))
        return WalkableState(self, Walkable.new(seed or 0, self.dead, self.options))

    def state_of(self, board: Walkable) -> WalkableState:
        """Wrap an engine state (not copied).

        Raises
        ------
        ValueError
            If it is played with other options.
        """
        if board.options != self.options:
            raise ValueError(f"the state is played with {board.options}, the game with "
                             f"{self.options}")  # fmt: skip
        return WalkableState(self, board)

    def parse_move(self, text: str) -> Any:
        """A joint move (``a | b``), a pick (a piece name), ``pass`` or a drop."""
        if "|" in text:
            return JointMove.parse(text, self.parse_move)
        text = text.strip()
        if text in PIECES:
            return text
        return parse_drop(text)

    def num_distinct_moves(self) -> int:
        """The 5 picks, the pass, then every drop of every piece."""
        return len(PIECES) + 1 + sum(len(drop_table(p)) for p in PIECES)

    def move_index(self, move: Any) -> int:
        if move == PASS:
            return len(PIECES)
        if isinstance(move, Drop):
            return _offsets()[1][move.piece, tuple(move.cells)]
        return PIECES.index(move)

    def move_at(self, index: int, state: Any) -> Any:
        if index < len(PIECES):
            return PIECES[index]
        if index == len(PIECES):
            return PASS
        for p, at in _offsets()[0].items():
            if index < at + len(drop_table(p)):
                a, b, c, d = (int(x) for x in drop_table(p)[index - at])
                return Drop(p, (a, b, c, d))
        raise ValueError(f"move index {index} is not below {self.num_distinct_moves()}")


class WalkableState(EngineState):
    """A Walkable Cities state under the protocol; ``board`` is the engine state."""

    game: WalkableGame
    board: Walkable

    @property
    def to_move(self) -> int:
        return TERMINAL if self.board.is_over() else SIMULTANEOUS

    def legal_moves(self, player: int | None = None) -> list[Any]:
        """``player``'s moves; with no player, every joint move (refused above
        :data:`MAX_JOINT`)."""
        b = self.board
        if b.is_over():
            return []
        if player is None:
            parts = [self.legal_moves(p) for p in range(2)]
            if len(parts[0]) * len(parts[1]) > MAX_JOINT:
                raise ValueError(f"{len(parts[0])} x {len(parts[1])} joint drops: list each "
                                 "player's moves instead")  # fmt: skip
            return [JointMove(m) for m in product(*parts)]
        if b.phase == "select":
            return list(b.pick_choices())
        return [*b.legal_drops(player), PASS]

    def push(self, move: Any) -> None:
        a, c = JointMove(tuple(move)).moves
        if self.board.phase == "select":
            self.board.select(a, c)
        else:
            self.board.drop(a, c)

    def push_legal(self, move: Any) -> None:
        if self.board.phase == "select":
            self.board.select(*move)
        else:
            red, blue = move
            self.board.push_legal((red, blue))

    def pop(self) -> JointMove:
        step = self.board.pop()
        return JointMove(step.picks if step.kind == "select" else step.drops)

    def state_key(self) -> Hashable:
        return self.board.state_key()

    @property
    def history(self) -> list[Any]:
        return [JointMove(s.picks if s.kind == "select" else s.drops) for s in self.board.steps]
