"""The game protocol: what every polytile game implements and every game-tree solver reads.

A game has two parts, as in OpenSpiel:

* a :class:`Game`, an immutable **description** (the variant, the number of players, the
  parameters) that declares its :class:`Traits` and makes states;
* a :class:`State`, a mutable **position** that makes and unmakes moves (``push``/``pop``,
  as in python-chess), says who is to move (:attr:`State.to_move`: a player index, or
  :data:`CHANCE`, :data:`SIMULTANEOUS`, :data:`TERMINAL`), lists the legal moves, and at the
  end gives one number per player (:meth:`State.returns`).

Moves are small immutable values with a text form that reads back
(``game.parse_move(str(m)) == m``). At a simultaneous node every player picks a move and the
state advances by one :class:`JointMove`. At a chance node the outcomes and their
probabilities are listed by :meth:`State.chance_outcomes` and pushed like moves.

Solvers check the traits before they run (:func:`require`): alpha-beta refuses a game with
hidden information or chance instead of silently solving the wrong thing. Hidden information
is explicit: :meth:`State.information_state` is what one player knows, and
:meth:`State.sample_hidden` draws a full state consistent with it (for determinized
sampling).

Games are found by name through a registry (:func:`load_game`), imported only when used: a
new game is one package under :mod:`polytile.puzzles` plus one line in :data:`GAMES`.

Examples
--------
A two-player game written against the protocol, played to the end:

>>> g = load_game("blokus", variant="duo")
>>> g.traits.perfect_information, g.num_players
(True, 2)
>>> s = g.new_initial_state()
>>> s.to_move, len(s.legal_moves()) > 0
(0, True)
>>> m = s.legal_moves()[0]
>>> g.parse_move(str(m)) == m
True
>>> s.push(m); s.to_move
1
>>> s.pop() == m
True
>>> require(g, "alpha-beta", sequential=True, deterministic=True, perfect_information=True)
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

import numpy as np

from polytile.errors import PolytileError, UnknownNameError

__all__ = [
    "CHANCE",
    "GAMES",
    "SIMULTANEOUS",
    "TERMINAL",
    "ChanceMode",
    "Dynamics",
    "EngineState",
    "Game",
    "Information",
    "JointMove",
    "Move",
    "State",
    "Traits",
    "UnsupportedGameError",
    "Utility",
    "game_names",
    "load_game",
    "require",
]

#: :attr:`State.to_move` at a chance node (OpenSpiel's ``kChancePlayerId``).
CHANCE = -1
#: :attr:`State.to_move` when every player moves at once.
SIMULTANEOUS = -2
#: :attr:`State.to_move` once the game is over.
TERMINAL = -4


class Dynamics(StrEnum):
    """Who moves: one player at a time, or every player at once."""

    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"


class ChanceMode(StrEnum):
    """Whether the game has chance events, and how they are given."""

    DETERMINISTIC = "deterministic"
    #: Chance nodes list their outcomes with probabilities (:meth:`State.chance_outcomes`).
    EXPLICIT = "explicit"


class Information(StrEnum):
    """Whether every player sees the whole state."""

    PERFECT = "perfect"
    IMPERFECT = "imperfect"


class Utility(StrEnum):
    """How the returns relate: always summing to zero, to a constant, or anything."""

    ZERO_SUM = "zero-sum"
    CONSTANT_SUM = "constant-sum"
    GENERAL_SUM = "general-sum"


@dataclass(frozen=True)
class Traits:
    """What a game is, for the solvers that check it (OpenSpiel's ``GameType``).

    Attributes
    ----------
    dynamics, chance, information, utility
        See :class:`Dynamics`, :class:`ChanceMode`, :class:`Information`, :class:`Utility`.
    min_players, max_players
        The player counts the game is played with.
    """

    dynamics: Dynamics
    chance: ChanceMode
    information: Information
    utility: Utility
    min_players: int
    max_players: int

    @property
    def sequential(self) -> bool:
        """True when one player moves at a time."""
        return self.dynamics is Dynamics.SEQUENTIAL

    @property
    def deterministic(self) -> bool:
        """True when the game has no chance events."""
        return self.chance is ChanceMode.DETERMINISTIC

    @property
    def perfect_information(self) -> bool:
        """True when every player sees the whole state."""
        return self.information is Information.PERFECT

    def as_dict(self) -> dict[str, Any]:
        """The traits as JSON."""
        return {
            "dynamics": self.dynamics.value,
            "chance": self.chance.value,
            "information": self.information.value,
            "utility": self.utility.value,
            "min_players": self.min_players,
            "max_players": self.max_players,
        }


class UnsupportedGameError(PolytileError, ValueError):
    """A solver was asked to run on a game whose traits it cannot handle."""


@runtime_checkable
class Move(Protocol):
    """A move: hashable, immutable, with a text form that the game reads back
    (:meth:`Game.parse_move`)."""

    def __hash__(self) -> int: ...

    def __eq__(self, other: object) -> bool: ...

    def __str__(self) -> str: ...


@dataclass(frozen=True)
class JointMove:
    """The moves of every player at a simultaneous node, in player order.

    Its text form joins the players' moves with ``" | "``.

    Examples
    --------
    >>> str(JointMove(("rock", "paper")))
    'rock | paper'
    >>> JointMove.parse("rock | paper", str) == JointMove(("rock", "paper"))
    True
    """

    moves: tuple[Any, ...]

    def __str__(self) -> str:
        return " | ".join(str(m) for m in self.moves)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.moves)

    def __len__(self) -> int:
        return len(self.moves)

    def __getitem__(self, player: int) -> Any:
        return self.moves[player]

    @classmethod
    def parse(cls, text: str, parse_one: Callable[[str], Any]) -> JointMove:
        """Read the form ``str`` writes, each part with ``parse_one``."""
        return cls(tuple(parse_one(part.strip()) for part in text.split("|")))


class Game(ABC):
    """An immutable game description: its rules, variant and parameters; it makes states.

    Subclasses set :attr:`name` and :attr:`long_name`, and implement :attr:`traits`,
    :attr:`num_players`, :meth:`new_initial_state` and :meth:`parse_move`. Two descriptions
    with the same :attr:`name` and :attr:`parameters` are equal.
    """

    #: The registry name (``"blokus"``).
    name: str = ""
    #: A name for people (``"Blokus"``).
    long_name: str = ""

    @property
    @abstractmethod
    def traits(self) -> Traits:
        """What the game is (see :class:`Traits`)."""

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many players this description plays with."""

    @property
    @abstractmethod
    def parameters(self) -> Mapping[str, Any]:
        """The parameters that made this description (JSON values)."""

    @abstractmethod
    def new_initial_state(self, seed: int | np.random.Generator | None = None) -> State:
        """A state at the start of the game; ``seed`` fixes the set-up where it is random."""

    @abstractmethod
    def parse_move(self, text: str) -> Any:
        """The move whose text form is ``text``.

        Raises
        ------
        ValueError
            If the text is not a move of this game.
        """

    def player_names(self) -> tuple[str, ...]:
        """The players' names, in index order (default ``"player 0"``, ...)."""
        return tuple(f"player {i}" for i in range(self.num_players))

    def revealed(self) -> Game:
        """The same game with every player seeing everything (perfect information): what a
        determinized state is solved as. Perfect-information games return themselves.

        Raises
        ------
        NotImplementedError
            If a hidden-information game has no open version.
        """
        if self.traits.perfect_information:
            return self
        raise NotImplementedError(f"{self.name} has no open (perfect-information) version")

    # -- sizes and an integer coding of moves (for OpenSpiel and tables); optional -----------
    def utility_range(self) -> tuple[float, float]:
        """Sound bounds of any player's final return.

        Raises
        ------
        NotImplementedError
            If the game does not say.
        """
        raise NotImplementedError(f"{self.name} does not bound its returns")

    def max_game_length(self) -> int:
        """A sound bound of the moves in a game (chance outcomes and passes included).

        Raises
        ------
        NotImplementedError
            If the game does not say.
        """
        raise NotImplementedError(f"{self.name} does not bound its length")

    def num_distinct_moves(self) -> int:
        """How many move indices there are (see :meth:`move_index`).

        Raises
        ------
        NotImplementedError
            If the game has no integer coding of its moves.
        """
        raise NotImplementedError(f"{self.name} has no integer coding of its moves")

    def move_index(self, move: Any) -> int:
        """The move's index in ``range(num_distinct_moves())``; one index per move of a
        player (at simultaneous nodes, per player's part)."""
        raise NotImplementedError(f"{self.name} has no integer coding of its moves")

    def move_at(self, index: int, state: State) -> Any:
        """The move with ``index`` for the player to move at ``state`` (inverse of
        :meth:`move_index`)."""
        raise NotImplementedError(f"{self.name} has no integer coding of its moves")

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and other.name == self.name
            and dict(other.parameters) == dict(self.parameters)
        )

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.parameters.items()))))

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self  # immutable

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.parameters.items())
        return f"<{type(self).__name__} {self.name}({params})>"


class State(ABC):
    """A mutable position of a :class:`Game` that makes and unmakes moves.

    Implementations must keep :meth:`push` followed by :meth:`pop` an exact undo, and
    :meth:`state_key` equal for two states whose futures are the same.
    """

    #: The game this state belongs to.
    game: Game

    @property
    @abstractmethod
    def to_move(self) -> int:
        """The player to move (``0 .. num_players - 1``), or :data:`CHANCE`,
        :data:`SIMULTANEOUS` or :data:`TERMINAL`."""

    @abstractmethod
    def legal_moves(self, player: int | None = None) -> list[Any]:
        """The moves the player to move may make (at a simultaneous node: ``player``'s
        moves; at a chance node: the outcomes); empty once the game is over."""

    @abstractmethod
    def push(self, move: Any) -> None:
        """Make ``move`` (a :class:`JointMove` at a simultaneous node, an outcome at a chance
        node).

        Raises
        ------
        IllegalMoveError
            If the move is not legal here, saying why.
        """

    @abstractmethod
    def pop(self) -> Any:
        """Unmake the last move and return it.

        Raises
        ------
        IndexError
            If no move was made.
        """

    @abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended."""

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """One number per player: the final result once the game is over (during play,
        what it would be if the game ended now)."""

    @abstractmethod
    def state_key(self) -> Hashable:
        """A key equal for states whose futures are the same (for transposition tables)."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy."""

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.clone()  # engines share read-only tables, which deepcopy would duplicate

    @property
    def history(self) -> list[Any]:
        """The moves made since the state was created or loaded."""
        raise NotImplementedError(f"{self.game.name} states do not keep their history")

    def push_legal(self, move: Any) -> None:
        """Make a move just returned by :meth:`legal_moves` at this node, skipping the
        legality check (for searches; default :meth:`push`)."""
        self.push(move)

    # -- chance --------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """At a chance node: every outcome with its probability (summing to 1)."""
        raise NotImplementedError(f"{self.game.name} has no chance nodes")

    # -- hidden information ----------------------------------------------------------------
    def information_state(self, player: int) -> str:
        """Everything ``player`` knows, as text: equal for two states ``player`` cannot tell
        apart (default: the whole state, for perfect-information games)."""
        return str(self)

    def sample_hidden(self, player: int, rng: np.random.Generator) -> State:
        """A full state drawn uniformly from those consistent with ``player``'s information
        state (default: a copy, for perfect-information games)."""
        return self.clone()

    def revealed(self) -> State:
        """This full state as a state of :meth:`Game.revealed` (everything shown), for
        perfect-information solvers (default: a copy, for perfect-information games)."""
        if self.game.traits.perfect_information:
            return self.clone()
        raise NotImplementedError(f"{self.game.name} states cannot be shown in full")

    def hidden_states(self, player: int) -> Iterator[tuple[State, float]] | None:
        """Every full state consistent with ``player``'s view, with its probability, or None
        when there are too many to list (then use :meth:`sample_hidden`)."""
        return iter([(self.clone(), 1.0)])


class EngineState(State):
    """A protocol state around a game's own rules engine, ``board``, which makes and unmakes
    moves with ``push``/``pop``, lists them with ``legal_moves()``, copies itself with
    ``copy()`` and keeps ``move_stack``. Where the engine also has ``to_move``,
    ``is_over()``, ``returns()``, ``state_key()`` and an unchecked ``push_legal``, those
    serve as they are; subclasses override what their engine says differently."""

    def __init__(self, game: Game, board: Any) -> None:
        self.game = game
        self.board = board

    @property
    def to_move(self) -> int:
        return TERMINAL if self.board.is_over() else int(self.board.to_move)

    def push_legal(self, move: Any) -> None:
        # the engine's unchecked push where it has one, else its checked push
        getattr(self.board, "push_legal", self.board.push)(move)

    def is_over(self) -> bool:
        return bool(self.board.is_over())

    def returns(self) -> tuple[float, ...]:
        return tuple(self.board.returns())

    def state_key(self) -> Hashable:
        return self.board.state_key()

    def legal_moves(self, player: int | None = None) -> list[Any]:
        return list(self.board.legal_moves())

    def push(self, move: Any) -> None:
        self.board.push(move)

    def pop(self) -> Any:
        return self.board.pop()

    def clone(self) -> State:
        return type(self)(self.game, self.board.copy())

    @property
    def history(self) -> list[Any]:
        return list(self.board.move_stack)

    def __str__(self) -> str:
        return str(self.board)


def require(
    game: Game,
    solver: str,
    *,
    sequential: bool | None = None,
    deterministic: bool | None = None,
    perfect_information: bool | None = None,
    zero_sum: bool | None = None,
    players: Sequence[int] | None = None,
) -> None:
    """Check that ``game`` has the traits ``solver`` needs (None: either is fine).

    Raises
    ------
    UnsupportedGameError
        Naming the solver, the game and the trait that does not fit.
    """
    t = game.traits
    wrong: list[str] = []
    if sequential is not None and t.sequential != sequential:
        wrong.append(f"its moves are {t.dynamics.value}")
    if deterministic is not None and t.deterministic != deterministic:
        wrong.append("it has chance events" if deterministic else "it has no chance events")
    if perfect_information is not None and t.perfect_information != perfect_information:
        wrong.append(f"its information is {t.information.value}")
    if zero_sum is not None and (t.utility is not Utility.GENERAL_SUM) != zero_sum:
        wrong.append(f"it is {t.utility.value}")
    if players is not None and game.num_players not in players:
        wrong.append(f"it has {game.num_players} players")
    if wrong:
        raise UnsupportedGameError(
            f"{solver} cannot solve {game.long_name or game.name}: {'; '.join(wrong)}"
        )


# -- the registry ----------------------------------------------------------------------------
#: Game name -> ``"module:Class"`` of its :class:`Game`, imported on first use.
GAMES: dict[str, str] = {
    "blokus": "polytile.puzzles.blokus.game:BlokusGame",
    "cityblocks": "polytile.puzzles.cityblocks.game:CityBlocksGame",
    "gridblock": "polytile.puzzles.gridblock.game:GridblockGame",
    "henning": "polytile.puzzles.henning.game:HenningGame",
    "walkable": "polytile.puzzles.walkable.game:WalkableGame",
}


def game_names() -> tuple[str, ...]:
    """The registered games' names."""
    return tuple(GAMES)


def load_game(name: str, **parameters: Any) -> Game:
    """The description of game ``name`` with ``parameters`` (each game's defaults otherwise).

    Raises
    ------
    UnknownNameError
        If no game has that name (the message lists the known ones).
    ValueError
        If a parameter is not one the game takes, or has a value it cannot take.
    """
    target = GAMES.get(name)
    if target is None:
        raise UnknownNameError("game", str(name), tuple(GAMES))
    module, _, cls = target.partition(":")
    game_type = getattr(importlib.import_module(module), cls)
    try:
        game: Game = game_type(**parameters)
    except TypeError as e:  # an unknown keyword: a bad parameter, not a bug
        raise ValueError(f"{name}: {e}") from None
    return game
