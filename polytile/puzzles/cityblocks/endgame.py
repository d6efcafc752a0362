"""City Blocks (Ritchie): exact values of small endgames, by alpha-beta over the real rules.

:func:`exact_endgame` is the exact part of :func:`polytile.puzzles.cityblocks.bounds.bounds`:
a colour's best final score when every other colour plays against it, for positions where
only a handful of pieces can still be placed (:func:`placeable_pieces`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from polytile.errors import FormatError, PolytileError, UnknownNameError
from polytile.formats import Position
from polytile.puzzles.cityblocks.game import CityBlocksGame
from polytile.puzzles.cityblocks.maximum import measure
from polytile.puzzles.cityblocks.moves import placement_table
from polytile.puzzles.cityblocks.rules import (
    BOARD_SIZE,
    COLOR_NAMES,
    PIECE_NAMES,
    START_CELLS,
    CityBlocks,
    Move,
)
from polytile.puzzles.game import State
from polytile.solvers.alphabeta import Hooks, Objective, SearchStopped, alphabeta

__all__ = ["Exact", "ExactSearchRefused", "exact_endgame", "placeable_pieces"]


class ExactSearchRefused(PolytileError, ValueError):
    """The exact endgame search was refused (too many pieces left, or green with 3 players,
    whom no seat plays for), or stopped at its node or time limit."""


@dataclass(frozen=True)
class Exact:
    """The exact value of a small endgame for X (see :func:`exact_endgame`).

    Attributes
    ----------
    value
        X's best final score when every other colour plays to lower it.
    move
        A best move for the side to move at the root (maximising X's score when X moves,
        minimising it otherwise), or None when the game is over.
    nodes
        Positions searched.
    pieces
        Pieces that could still be placed, all colours together.
    seconds
        Time spent.
    """

    value: int
    move: Move | None
    nodes: int
    pieces: int
    seconds: float


# -- the position ----------------------------------------------------------------------------
def _game(position: Position | CityBlocks, source: str = "<position>") -> CityBlocks:
    if isinstance(position, CityBlocks):
        return position.copy()
    if position.game == "blokus":
        raise FormatError("bounds of Blokus positions are not built yet; only City Blocks "
                          "(game \"cityblocks\") has them", source, "game")  # fmt: skip
    return CityBlocks.from_position(position, source=source)


def _check_color(color: str) -> str:
    if color not in COLOR_NAMES:
        raise UnknownNameError("colour", str(color), COLOR_NAMES)
    return color


def placeable_pieces(game: CityBlocks, color: str) -> tuple[str, ...]:
    """Pieces ``color`` holds that fit somewhere on the empty cells, whoever is to move; none
    when it has not started and no piece of its hand can cover its start cell.

    The board only fills up, so a piece missing here can never be placed again (a piece
    listed may still be blocked later, by the first piece among others).

    Examples
    --------
    >>> len(placeable_pieces(CityBlocks(), "blue"))  # X5 cannot start, but fits later
    20
    """
    _check_color(color)
    t = placement_table()
    empty = np.frombuffer("".join(game.board_rows()).encode("ascii"), dtype=np.uint8) == ord(".")
    empty = np.append(empty, True)  # index -1, the padding of short pieces
    held = np.isin(t.piece, [PIECE_NAMES.index(name) for name in game.hand(color)])
    ok = held & empty[t.flat].all(axis=1)
    if not game.has_started(color):
        r, c = START_CELLS[color]
        if not (ok & (t.flat == r * BOARD_SIZE + c).any(axis=1)).any():
            return ()
    return tuple(PIECE_NAMES[p] for p in sorted(set(t.piece[ok].tolist())))


# -- the exact search: hooks of the generic alpha-beta ---------------------------------------
class _Hooks(Hooks):
    """City Blocks' help for :func:`polytile.solvers.alphabeta.alphabeta`: X's score of a
    board, measured once per board, orders the moves (best for the side to move first)."""

    def __init__(self, color: str) -> None:
        self.color = color
        self.leaves: dict[str, int] = {}

    def score(self, board: CityBlocks) -> int:
        key = "".join(board.board_rows())
        if key not in self.leaves:
            self.leaves[key] = sum(measure(board.board_rows(), self.color))
        return self.leaves[key]

    def moves(self, state: State, hint: Any) -> list[Move]:
        g: CityBlocks = state.board  # type: ignore[attr-defined]
        maximise = g.to_move == self.color
        ordered = []
        for move in g.legal_moves():
            g.push(move)
            ordered.append((self.score(g), move))
            g.pop()
        ordered.sort(key=lambda e: -e[0] if maximise else e[0])
        moves = [m for _, m in ordered]
        if hint is not None and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        return moves


def exact_endgame(
    position: Position | CityBlocks,
    color: str,
    *,
    max_pieces: int = 4,
    node_limit: int = 200_000,
    time_limit: float | None = 60.0,
) -> Exact:
    """X's exact best final score in a small endgame, every other colour playing against it.

    The search follows the real rules from the position (turn order, passes, the end after
    one pass per seat in a row): at X's turns the best move for X's final score is taken, at
    every other seat's turn the move that lowers it most (the partner in the 2-player game
    and the green moves of the other 3-player seats included; X's own seat may place green
    too). The value lies between :func:`lower_bound` and :func:`upper_bound`. Green with 3
    players is refused: no seat plays for it, any seat may place its pieces, so "green
    passes" is nobody's choice.

    Parameters
    ----------
    position
        A City Blocks position or game (not modified).
    color
        X.
    max_pieces
        Refuse when more pieces than this can still be placed, all colours together
        (:func:`placeable_pieces`).
    node_limit, time_limit
        Stop (with :class:`ExactSearchRefused`) after this many positions or seconds.

    Returns
    -------
    Exact

    Raises
    ------
    ExactSearchRefused
        If too many pieces remain, X is green with 3 players, or a limit is reached before
        the answer (a finished game is never refused: its value is the score).

    Notes
    -----
    The generic :func:`~polytile.solvers.alphabeta.alphabeta` over
    :meth:`CityBlocks.legal_moves`, with its table of proven value intervals per position
    (board, hands, side to move, passes), moves ordered by X's score after them. The tree
    grows with the number of placements of each remaining piece, so it is only for a handful
    of pieces on a crowded board.

    Examples
    --------
    >>> exact_endgame(CityBlocks(), "blue", max_pieces=4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    polytile.puzzles.cityblocks.endgame.ExactSearchRefused: 80 pieces can still be placed, ...
    """
    game, color = _game(position), _check_color(color)
    started = time.perf_counter()
    over = game.is_game_over()
    if color not in game.seats and not over:
        raise ExactSearchRefused(f"{color} has no seat with {game.players} players: no one "
                                 "plays for it, so it has no exact value")  # fmt: skip
    pieces = sum(len(placeable_pieces(game, c)) for c in COLOR_NAMES)
    if pieces > max_pieces and not over:
        raise ExactSearchRefused(f"{pieces} pieces can still be placed, more than the "
                              f"{max_pieces} the exact search takes")  # fmt: skip
    hooks = _Hooks(color)

    def value(s: State) -> float:
        return hooks.score(s.board)  # type: ignore[attr-defined]

    def maximizing(s: State) -> bool:
        return bool(s.board.to_move == color)  # type: ignore[attr-defined]

    objective = Objective(value, maximizing, f"{color}'s final score")
    state = CityBlocksGame(game.players).state_of(game)
    try:
        found = alphabeta(state, objective, hooks, node_limit=node_limit, time_limit=time_limit)
    except SearchStopped as stop:
        if stop.reason == "interrupt":
            raise KeyboardInterrupt from None
        what = f"{node_limit} positions" if stop.reason == "nodes" else "its time"
        raise ExactSearchRefused(f"the exact search used up {what} without an answer") from None
    return Exact(int(found.value), found.best_move, found.nodes, pieces,
                 time.perf_counter() - started)  # fmt: skip
