"""Blokus: what an exact endgame search answers (:func:`.endgame.solve_endgame`): the
exact result with its lines, a refusal of a position too large, or a stop with what was
proven before it (a module of its own, apart from the search)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from polytile.errors import PolytileError
from polytile.puzzles.blokus.rules import Move

__all__ = ["Endgame", "EndgameRefused", "EndgameStopped", "Line", "Proven", "move_doc"]


class EndgameRefused(PolytileError, ValueError):
    """The position is too large for the exact search (more pieces still placeable per
    player than allowed)."""


class EndgameStopped(PolytileError, RuntimeError):
    """The exact search stopped (time or node limit, or an interrupt) before its answer.

    Attributes
    ----------
    reason
        ``"time"``, ``"nodes"`` or ``"interrupt"``.
    nodes, seconds
        The work done.
    proven
        What the search proved before it stopped (:class:`Proven`), or None (nothing yet, or
        the Python search stopped).
    solved
        Max-own mode: the players whose searches finished before the stop, with their lines.
    """

    def __init__(self, reason: str, nodes: int, seconds: float, *, proven: Proven | None = None,
                 solved: dict[str, Line] | None = None) -> None:  # fmt: skip
        what = {"time": "its time limit", "nodes": "its node limit", "interrupt": "an interrupt"}
        super().__init__(f"the exact search stopped at {what[reason]} after {nodes:,} positions "
                         f"({seconds:.1f} s) without an exact answer")  # fmt: skip
        self.reason, self.nodes, self.seconds = reason, nodes, seconds
        self.proven, self.solved = proven, dict(solved or {})


@dataclass(frozen=True)
class Proven:
    """What an exact search proved of its position before it stopped.

    Attributes
    ----------
    player
        Whose objective (as in :class:`Line`).
    mode
        ``"difference"`` (the objective is ``player``'s final lead) or ``"max-own"`` (the
        final score ``player`` can make sure of).
    lower, upper
        The objective's value at the position lies between these (None: not bounded on that
        side yet).
    mover
        The player to move (after any forced passes of the colours to move first, which
        come first in ``line``).
    raises
        Whether ``mover`` plays to raise the objective (it is ``player``'s own side).
    line
        The forced passes, then a move of ``mover`` that makes sure of ``bound`` (at least
        ``bound`` if it ``raises``, else at most); empty when no move has been proven to
        make sure of anything yet.
    bound
        What the move makes sure of (None without a move); it may be looser than the
        interval, which also holds what was proven without a move.
    """

    player: str
    mode: str
    lower: int | None
    upper: int | None
    mover: str
    raises: bool
    line: tuple[Move, ...] = ()
    bound: int | None = None

    @property
    def move(self) -> Move | None:
        """The mover's move of :attr:`line`, or None."""
        return self.line[-1] if self.line and not self.line[-1].is_pass else None

    def _value(self, v: int) -> str:
        return f"{v:+d}" if self.mode == "difference" else str(v)

    def summary(self) -> str:
        """One sentence: the interval, e.g. ``blue's final lead is between -3 and +12``."""
        what = (f"{self.player}'s final lead" if self.mode == "difference"
                else f"the final score {self.player} can make sure of")  # fmt: skip
        lo, hi = self.lower, self.upper
        if lo is not None and hi is not None:
            return f"{what} is between {self._value(lo)} and {self._value(hi)}"
        if lo is not None:
            return f"{what} is at least {self._value(lo)}"
        if hi is not None:
            return f"{what} is at most {self._value(hi)}"
        return f"nothing is proven yet of {what}"

    def claim(self, move_text: Callable[[Move], str]) -> str:
        """What :attr:`move` (written by ``move_text``) makes sure of, e.g. ``yellow holds
        blue's lead to at most +12 by playing Y T4 ...``; without a move, that the interval
        is the position's own bounds."""
        move, bound = self.move, self.bound
        if move is None or bound is None:
            return (f"(the position's own bounds: no move of {self.mover} was searched far "
                    "enough to prove more)")  # fmt: skip
        text = move_text(move)
        if self.mode == "difference":
            what = "lead" if self.mover == self.player else f"{self.player}'s lead"
            if self.raises:
                said = f"{self.mover} makes sure of a {what} of at least {bound:+d}"
            else:
                said = f"{self.mover} holds {what} to at most {bound:+d}"
            said += f" by playing {text}"
        elif self.raises:
            said = f"{self.mover} makes sure of a score of at least {bound} by playing {text}"
        else:  # the others together hold the player to it, not the mover alone
            said = (f"after {self.mover} plays {text}, {self.player} can make sure of at "
                    f"most {bound} (the others all playing against it)")  # fmt: skip
        passes = [m.color for m in self.line if m.is_pass]
        if passes:
            said = f"after the forced pass of {' and '.join(passes)}, {said}"
        return said

    def as_dict(self) -> dict[str, Any]:
        """This as JSON."""
        side = "at_least" if self.raises else "at_most"
        return {
            "player": self.player,
            "objective": "lead" if self.mode == "difference" else "score it can make sure of",
            "at_least": self.lower,
            "at_most": self.upper,
            "mover": self.mover,
            "passes": [m.color for m in self.line if m.is_pass],  # forced, before the move
            "move": None if self.move is None else move_doc(self.move),
            "move_makes_sure_of": None if self.move is None else {side: self.bound},
        }


@dataclass(frozen=True)
class Line:
    """One exact search: a value and the line of play that makes it.

    Attributes
    ----------
    player
        Whose objective: in difference mode the first player (the value is its lead), in
        max-own mode the player whose guaranteed score this is.
    value
        The value under perfect play.
    pv
        The principal variation: every move to the end, forced passes included (a colour
        whose future is independent plays its best solitaire layout).
    scores, player_scores
        Final scores per colour and per player at the end of :attr:`pv`.
    """

    player: str
    value: int
    pv: tuple[Move, ...]
    scores: dict[str, int]
    player_scores: dict[str, int]

    def as_dict(self) -> dict[str, Any]:
        """This line as JSON."""
        return {
            "value": self.value,
            "pv": [move_doc(m) for m in self.pv],
            "scores": self.scores,
            "player_scores": self.player_scores,
        }


@dataclass(frozen=True)
class Endgame:
    """The exact result of :func:`solve_endgame`.

    Attributes
    ----------
    mode
        ``"difference"`` (2 players) or ``"max-own"`` (3 or 4 players).
    players
        The players, in the variant's order.
    to_move
        The player to move at the position.
    lines
        Difference mode: one line, under the first player's name. Max-own mode: one per
        player searched.
    nodes
        Positions searched, all searches together (solitaire searches included).
    seconds
        Time spent.
    placeable
        Pieces each player could still place at the start (:func:`endgame_size`).
    settled
        True when the bounds settled the result with no search (:mod:`.settle`).
    """

    mode: str
    players: tuple[str, ...]
    to_move: str
    lines: dict[str, Line]
    nodes: int
    seconds: float
    placeable: dict[str, int] = field(default_factory=dict)
    settled: bool = False

    @property
    def value(self) -> int | None:
        """Difference mode: the first player's final lead under perfect play; else None."""
        return self.lines[self.players[0]].value if self.mode == "difference" else None

    @property
    def lead(self) -> str:
        """Whose lead the values are, in the words every game's values use."""
        if self.mode == "difference":
            return f"{self.players[0]}'s final score minus {self.players[1]}'s"
        return "each player's own final score, the others all playing against it"

    @property
    def best_line(self) -> Line | None:
        """The line the player to move follows (None if it was not searched)."""
        if self.mode == "difference":
            return self.lines[self.players[0]]
        return self.lines.get(self.to_move)

    @property
    def best_move(self) -> Move | None:
        """A best move for the player to move (None when the game is over, or that player
        was not searched)."""
        line = self.best_line
        return line.pv[0] if line is not None and line.pv else None

    @property
    def over(self) -> bool:
        """True when the game was over at the position: no line has a move, not even a
        pass."""
        return all(not line.pv for line in self.lines.values())

    def as_dict(self) -> dict[str, Any]:
        """The JSON document of ``polytile solve-endgame --json`` (without the position)."""
        return {
            "mode": self.mode,
            "players": list(self.players),
            "to_move": None if self.over else self.to_move,  # as score and moves say
            "value": self.value,
            "lead": self.lead,
            "values": {name: line.value for name, line in self.lines.items()},
            "best_move": None if self.best_move is None else move_doc(self.best_move),
            "lines": {name: line.as_dict() for name, line in self.lines.items()},
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "placeable_pieces": self.placeable,
            "settled_by_bounds": self.settled,
        }


def move_doc(m: Move) -> dict[str, Any]:
    """A move as JSON: colour, piece and cells, or a pass."""
    if m.piece is None:
        return {"color": m.color, "pass": True}
    return {"piece": m.piece, "color": m.color, "cells": [list(c) for c in m.cells]}
