"""Engine players: a move for any position within a time a move, exact where the exact
search answers in time, a labelled estimate elsewhere.

Each game has its own ``engine`` module with an ``engine_choice(game, seconds, rng)`` that
returns an :class:`EngineChoice`: the move and what it rests on. ``selfplay`` and ``play``
use it as the ``engine`` player, and the web board as the opponent of a person.

How each game chooses (the games' modules say more):

* Blokus: the exact endgame search when the position is small enough and it finishes in
  part of the time; otherwise Monte Carlo tree search (:mod:`polytile.solvers.mcts`) over
  the biggest pieces, half the playout moves the greedy player's.
* City Blocks (Henning): information-set Monte Carlo tree search from the mover's view
  (the other hand and the draw pile sampled), playouts by the greedy player.
* Gridblock: each move scored over the hands the mover cannot see, solved exactly to the
  end of the round (:func:`polytile.puzzles.gridblock.view.evaluate_view`), and valued to
  the end of the game by information-set Monte Carlo tree search; the set-up moves chosen
  by that tree search (:mod:`polytile.puzzles.gridblock.estimate`).
* Walkable Cities: the equilibrium of the selection and of the drop phase, one round ahead
  (:mod:`polytile.puzzles.walkable.phase`), an action drawn from the mix.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from polytile.errors import UnknownNameError

__all__ = ["DEFAULT_MOVE_TIME", "EngineChoice", "as_player", "choose_player"]

P = TypeVar("P")

#: Seconds a move an engine player takes unless told otherwise.
DEFAULT_MOVE_TIME = 2.0


@dataclass(frozen=True)
class EngineChoice:
    """An engine's move and what it rests on.

    Attributes
    ----------
    move
        The move, in the game's own move type.
    exact
        True when an exact search chose it (the value is then proven).
    value
        The mover's value of the move in the game's units (its margin), or None when the
        engine does not value it (a greedy set-up move).
    label
        What the choice rests on, in words: "exact (endgame search)", "estimate (Monte
        Carlo tree search, 1,234 playouts)", ...
    seconds
        Time spent choosing.
    """

    move: Any
    exact: bool
    value: float | None
    label: str
    seconds: float

    def said(self, mover: str, text: str) -> str:
        """The line that says the engine played ``text`` for ``mover``, and why."""
        value = "" if self.value is None else f", value {self.value:+.1f} for {mover}"
        return f"engine ({mover}) plays {text}: {self.label}{value}, {self.seconds:.1f} s"

    def as_dict(self) -> dict[str, Any]:
        """As JSON (the move by its text)."""
        return {"move": str(self.move), "exact": self.exact,
                "value": None if self.value is None else round(float(self.value), 3),
                "label": self.label, "seconds": round(self.seconds, 3)}  # fmt: skip


def choose_player(name: str, players: Mapping[str, P], engine: Callable[[float], P] | None,
                  move_time: float | None = None) -> P:  # fmt: skip
    """The player named ``name``: one of a game's ``players``, or ``"engine"``, made by
    ``engine(seconds)`` with ``move_time`` seconds a move (None: :data:`DEFAULT_MOVE_TIME`)
    when an ``engine`` is given.

    Raises
    ------
    UnknownNameError
        For another name (the message lists them all).
    """
    if name == "engine" and engine is not None:
        return engine(DEFAULT_MOVE_TIME if move_time is None else move_time)
    if name not in players:
        raise UnknownNameError("player", name, (*players, *("engine",) * (engine is not None)))
    return players[name]


def as_player(choose: Callable[..., EngineChoice], seconds: float) -> Callable[[Any, Any], Any]:
    """A player ``(game, rng) -> move`` (as the games' ``PLAYERS`` hold them) that plays
    ``choose(game, seconds, rng=rng).move``."""

    def play(game: Any, rng: Any) -> Any:
        return choose(game, seconds, rng=rng).move

    return play
