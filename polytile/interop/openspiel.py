"""Any polytile game as an OpenSpiel game, so OpenSpiel's algorithms run on it.

:func:`to_pyspiel` wraps a :class:`polytile.puzzles.game.Game` as a ``pyspiel`` Python game:
its traits become OpenSpiel's ``GameType`` (dynamics, chance, information, utility), moves
become integer actions through the game's move coding (``num_distinct_moves``,
``move_index``, ``move_at``), chance nodes list their outcomes, hidden-information games give
each player's information state as a string, and every action is played by polytile's own
rules engine. OpenSpiel's MCTS, CFR (on tiny games), its random-simulation checks and its
other algorithms then run on polytile games unchanged. See ``docs/openspiel.md``.

It needs the optional extra: ``pip install "polytile[openspiel]"`` (the ``open_spiel``
wheel). Without it, :func:`to_pyspiel` raises :class:`OpenSpielMissing` saying so.

Examples
--------
>>> from polytile.puzzles.toys import TakeAway
>>> game = to_pyspiel(TakeAway(5))  # doctest: +SKIP
>>> state = game.new_initial_state()  # doctest: +SKIP
>>> state.legal_actions(), state.action_to_string(0, 2)  # doctest: +SKIP
([0, 1, 2], 'take 3')
"""

from __future__ import annotations

import re
from typing import Any

from polytile.errors import PolytileError
from polytile.puzzles.game import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    ChanceMode,
    Dynamics,
    Game,
    Information,
    JointMove,
    State,
    Utility,
)

__all__ = ["OpenSpielMissing", "to_pyspiel"]


class OpenSpielMissing(PolytileError, ImportError):
    """OpenSpiel (the ``open_spiel`` wheel) is not installed."""


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError as exc:
        raise OpenSpielMissing(
            "OpenSpiel is not installed; install the extra with: pip install 'polytile[openspiel]'"
        ) from exc
    return pyspiel


def _short_name(game: Game) -> str:
    params = "_".join(f"{k}_{v}" for k, v in sorted(game.parameters.items()))
    return re.sub(r"[^A-Za-z0-9_]", "_", f"polytile_{game.name}_{params}".rstrip("_"))


def to_pyspiel(game: Game) -> Any:
    """``game`` as a ``pyspiel.Game`` (registered with OpenSpiel under ``polytile_<name>...``).

    Raises
    ------
    OpenSpielMissing
        If OpenSpiel is not installed.
    NotImplementedError
        If the game has no integer coding of its moves, or does not bound its returns or
        length (:meth:`~polytile.puzzles.game.Game.utility_range`,
        :meth:`~polytile.puzzles.game.Game.max_game_length`).
    """
    pyspiel = _pyspiel()
    t = game.traits
    gt = pyspiel.GameType
    lo, hi = game.utility_range()
    chance_outcomes = 0
    if not t.deterministic:
        chance_outcomes = game.num_distinct_moves()
    utility = {
        Utility.ZERO_SUM: gt.Utility.ZERO_SUM,
        Utility.CONSTANT_SUM: gt.Utility.CONSTANT_SUM,
        Utility.GENERAL_SUM: gt.Utility.GENERAL_SUM,
    }[t.utility]
    game_type = gt(
        short_name=_short_name(game),
        long_name=f"polytile {game.long_name or game.name}",
        dynamics=gt.Dynamics.SEQUENTIAL if t.dynamics is Dynamics.SEQUENTIAL
        else gt.Dynamics.SIMULTANEOUS,
        chance_mode=gt.ChanceMode.DETERMINISTIC if t.chance is ChanceMode.DETERMINISTIC
        else gt.ChanceMode.EXPLICIT_STOCHASTIC,
        information=gt.Information.PERFECT_INFORMATION if t.information is Information.PERFECT
        else gt.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=gt.RewardModel.TERMINAL,
        max_num_players=game.num_players,
        min_num_players=game.num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={},
    )  # fmt: skip
    info = pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_moves(),
        max_chance_outcomes=chance_outcomes,
        num_players=game.num_players,
        min_utility=lo,
        max_utility=hi,
        utility_sum=0.0 if t.utility is Utility.ZERO_SUM else None,
        max_game_length=game.max_game_length(),
    )
    name = game_type.short_name
    if name not in _REGISTERED:
        # OpenSpiel clones and reloads games by name, so each is registered, as a class of
        # its own: pyspiel keeps registered classes alive to the end (a registered closure
        # would be freed after the interpreter stops, and crash it).
        base = _classes(pyspiel)[0]

        def init(self: Any, params: Any = None) -> None:
            base.__init__(self, game, game_type, info)

        _REGISTERED[name] = type(f"PolytileGame_{name}", (base,), {"__init__": init})
        pyspiel.register_game(game_type, _REGISTERED[name])
    return _REGISTERED[name]()


_CACHE: dict[str, Any] = {}
_REGISTERED: dict[str, Any] = {}


def _classes(pyspiel: Any) -> tuple[Any, Any]:
    """The adapter's pyspiel subclasses, made once (they need the pyspiel module)."""
    if "classes" in _CACHE:
        return _CACHE["classes"]

    class _Observer:
        """Strings of what a player sees: its information state, or the whole state."""

        def __init__(self, perfect_recall: bool) -> None:
            self.tensor = None
            self.dict: dict[str, Any] = {}

        def set_from(self, state: Any, player: int) -> None:
            pass

        def string_from(self, state: Any, player: int) -> str:
            return state.inner.information_state(player)

    class _Game(pyspiel.Game):  # type: ignore[misc, name-defined, unused-ignore]
        def __init__(self, inner: Game, game_type: Any, info: Any) -> None:
            super().__init__(game_type, info, {})
            self.inner = inner

        def new_initial_state(self) -> Any:
            return _State(self, self.inner.new_initial_state(0), self.inner)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            return _Observer(bool(iig_obs_type and iig_obs_type.perfect_recall))

    class _State(pyspiel.State):  # type: ignore[misc, name-defined, unused-ignore]
        def __init__(self, game: Any, inner: State, inner_game: Game) -> None:
            super().__init__(game)
            self.inner = inner
            # Kept here: OpenSpiel may hand the game back as a wrapper without our fields.
            self.inner_game = inner_game

        def current_player(self) -> int:
            who = self.inner.to_move
            if who == TERMINAL:
                return int(pyspiel.PlayerId.TERMINAL)
            if who == CHANCE:
                return int(pyspiel.PlayerId.CHANCE)
            if who == SIMULTANEOUS:
                return int(pyspiel.PlayerId.SIMULTANEOUS)
            return int(who)

        def _legal_actions(self, player: int) -> list[int]:
            g = self.inner_game
            if self.inner.is_over():
                return []
            if self.inner.to_move == SIMULTANEOUS:
                moves = self.inner.legal_moves(player)
            else:
                moves = self.inner.legal_moves()
            return sorted({g.move_index(m) for m in moves})

        def chance_outcomes(self) -> list[tuple[int, float]]:
            g = self.inner_game
            return sorted((g.move_index(m), p) for m, p in self.inner.chance_outcomes())

        def _apply_action(self, action: int) -> None:
            move = self.inner_game.move_at(action, self.inner)
            self.inner.push(move)  # checked by polytile's rules

        def _apply_actions(self, actions: list[int]) -> None:
            g = self.inner_game
            self.inner.push(JointMove(tuple(g.move_at(a, self.inner) for a in actions)))

        def _action_to_string(self, player: int, action: int) -> str:
            return str(self.inner_game.move_at(action, self.inner))

        def is_terminal(self) -> bool:
            return self.inner.is_over()

        def returns(self) -> list[float]:
            # OpenSpiel's returns are the rewards so far: with rewards only at the end, zero
            # until then (a polytile state's returns() is the result if it ended now).
            if not self.inner.is_over():
                return [0.0] * self.inner_game.num_players
            return list(self.inner.returns())

        def __str__(self) -> str:
            return str(self.inner)

    _CACHE["classes"] = (_Game, _State)
    return _Game, _State
