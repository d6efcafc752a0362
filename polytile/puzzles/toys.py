"""Small games of the protocol, one per kind of trait, for tests, examples and the OpenSpiel
adapter (OpenSpiel keeps the same kind of toy games).

* :class:`TakeAway`: take 1 to 3 counters from a pile; whoever takes the last one wins
  (sequential, deterministic, perfect information, zero-sum).
* :class:`DiceRace`: each player in turn rolls a die (a chance node) or stops; passing a
  target total loses (sequential with explicit chance).
* :class:`RockPaperScissors`: one simultaneous move each (simultaneous, zero-sum).
* :class:`HighCard`: a card is dealt to each player from three; the first bets or folds,
  the second calls or folds seeing only its own card (hidden information).

Examples
--------
>>> s = TakeAway(5).new_initial_state()
>>> [str(m) for m in s.legal_moves()]
['take 1', 'take 2', 'take 3']
>>> s.push(TakeAway(5).parse_move("take 1")); s.to_move
1
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from itertools import permutations
from typing import Any, cast

import numpy as np

from polytile.errors import IllegalMoveError
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
    Traits,
    Utility,
)

__all__ = ["TOYS", "DiceRace", "HighCard", "RockPaperScissors", "TakeAway"]


class _ToyState(State):
    """Shared plumbing: a history of moves replayed into fields by ``_apply``."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._history: list[Any] = []

    @property
    def history(self) -> list[Any]:
        return list(self._history)

    def push(self, move: Any) -> None:
        legal = self._legal_for_push()
        if move not in legal:
            raise IllegalMoveError(f"illegal move {move}: legal are {', '.join(map(str, legal))}")
        self._history.append(move)

    def _legal_for_push(self) -> list[Any]:
        return self.legal_moves()

    def pop(self) -> Any:
        if not self._history:
            raise IndexError("no move to take back")
        return self._history.pop()

    def state_key(self) -> Hashable:
        return tuple(self._history)

    def clone(self) -> State:
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._history = list(self._history)
        return other

    def __str__(self) -> str:
        return f"{self.game.name}: " + (" ".join(map(str, self._history)) or "start")


# -- take-away --------------------------------------------------------------------------------
class TakeAway(Game):
    """Take 1, 2 or 3 counters from a pile of ``pile``; the player taking the last wins (+1,
    the other -1)."""

    name = "take-away"
    long_name = "Take-away"

    def __init__(self, pile: int = 10) -> None:
        if pile < 1:
            raise ValueError("the pile needs at least one counter")
        self.pile = pile

    @property
    def traits(self) -> Traits:
        return Traits(Dynamics.SEQUENTIAL, ChanceMode.DETERMINISTIC, Information.PERFECT,
                      Utility.ZERO_SUM, 2, 2)  # fmt: skip

    @property
    def num_players(self) -> int:
        return 2

    @property
    def parameters(self) -> Mapping[str, Any]:
        return {"pile": self.pile}

    def new_initial_state(self, seed: int | np.random.Generator | None = None) -> State:
        return _TakeAwayState(self)

    def parse_move(self, text: str) -> str:
        if text not in ("take 1", "take 2", "take 3"):
            raise ValueError(f"a take-away move is 'take 1', 'take 2' or 'take 3', got {text!r}")
        return text

    def utility_range(self) -> tuple[float, float]:
        return -1.0, 1.0

    def max_game_length(self) -> int:
        return self.pile

    def num_distinct_moves(self) -> int:
        return 3

    def move_index(self, move: Any) -> int:
        return int(str(move)[-1]) - 1

    def move_at(self, index: int, state: State) -> str:
        return f"take {index + 1}"


class _TakeAwayState(_ToyState):
    game: TakeAway

    def left(self) -> int:
        return self.game.pile - sum(int(m[-1]) for m in self._history)

    @property
    def to_move(self) -> int:
        return TERMINAL if self.left() == 0 else len(self._history) % 2

    def legal_moves(self, player: int | None = None) -> list[Any]:
        return [f"take {k}" for k in (1, 2, 3) if k <= self.left()]

    def is_over(self) -> bool:
        return self.left() == 0

    def returns(self) -> tuple[float, ...]:
        if not self.is_over():
            return (0.0, 0.0)
        last = (len(self._history) - 1) % 2
        return (1.0, -1.0) if last == 0 else (-1.0, 1.0)

    def state_key(self) -> Hashable:
        return (self.left(), len(self._history) % 2)


# -- dice race --------------------------------------------------------------------------------
class DiceRace(Game):
    """Players take turns: ``roll`` adds a die (1 to ``sides``) to their total, ``stop`` ends
    their run. Above ``target`` a player is bust. When both have stopped or gone bust, the
    higher total not bust wins (+1/-1; 0 each on a tie)."""

    name = "dice-race"
    long_name = "Dice race"

    def __init__(self, target: int = 6, sides: int = 3) -> None:
        self.target, self.sides = target, sides

    @property
    def traits(self) -> Traits:
        return Traits(Dynamics.SEQUENTIAL, ChanceMode.EXPLICIT, Information.PERFECT,
                      Utility.ZERO_SUM, 2, 2)  # fmt: skip

    @property
    def num_players(self) -> int:
        return 2

    @property
    def parameters(self) -> Mapping[str, Any]:
        return {"target": self.target, "sides": self.sides}

    def new_initial_state(self, seed: int | np.random.Generator | None = None) -> State:
        return _DiceState(self)

    def parse_move(self, text: str) -> str:
        if text in ("roll", "stop") or (text.startswith("die ") and text[4:].isdigit()):
            return text
        raise ValueError(f"a dice-race move is 'roll', 'stop' or 'die N', got {text!r}")

    def utility_range(self) -> tuple[float, float]:
        return -1.0, 1.0

    def max_game_length(self) -> int:
        # Per player at most target + 1 rolls (each adds 1 or more), two moves each, and a stop.
        return 2 * (2 * (self.target + 1) + 1)

    def num_distinct_moves(self) -> int:
        return 2 + self.sides

    def move_index(self, move: Any) -> int:
        if move in ("roll", "stop"):
            return 0 if move == "roll" else 1
        return 1 + int(move[4:])

    def move_at(self, index: int, state: State) -> str:
        return "roll" if index == 0 else "stop" if index == 1 else f"die {index - 1}"


class _DiceState(_ToyState):
    game: DiceRace

    def _replay(self) -> tuple[list[int], list[bool], int, bool]:
        """(totals, done, player to move, waiting for a die)."""
        totals, done, player, rolling = [0, 0], [False, False], 0, False
        for m in self._history:
            if m == "stop":
                done[player] = True
                player = 1 - player if not done[1 - player] else player
            elif m == "roll":
                rolling = True
            else:
                rolling = False
                totals[player] += int(m[4:])
                if totals[player] > self.game.target:
                    done[player] = True
                if not done[1 - player]:
                    player = 1 - player
        return totals, done, player, rolling

    @property
    def to_move(self) -> int:
        _, done, player, rolling = self._replay()
        if all(done):
            return TERMINAL
        return CHANCE if rolling else player

    def legal_moves(self, player: int | None = None) -> list[Any]:
        if self.to_move == TERMINAL:
            return []
        if self.to_move == CHANCE:
            return [f"die {k}" for k in range(1, self.game.sides + 1)]
        return ["roll", "stop"]

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.to_move != CHANCE:
            raise ValueError("not a chance node")
        return [(f"die {k}", 1.0 / self.game.sides) for k in range(1, self.game.sides + 1)]

    def is_over(self) -> bool:
        return self.to_move == TERMINAL

    def returns(self) -> tuple[float, ...]:
        totals, done, _, _ = self._replay()
        if not all(done):
            return (0.0, 0.0)
        ok = [t if t <= self.game.target else -1 for t in totals]
        if ok[0] == ok[1]:
            return (0.0, 0.0)
        return (1.0, -1.0) if ok[0] > ok[1] else (-1.0, 1.0)

    def state_key(self) -> Hashable:
        totals, done, player, rolling = self._replay()
        return (tuple(totals), tuple(done), player, rolling)


# -- rock, paper, scissors --------------------------------------------------------------------
_RPS = ("rock", "paper", "scissors")


class RockPaperScissors(Game):
    """One simultaneous move each; rock beats scissors beats paper beats rock (+1/-1)."""

    name = "rock-paper-scissors"
    long_name = "Rock, paper, scissors"

    @property
    def traits(self) -> Traits:
        return Traits(Dynamics.SIMULTANEOUS, ChanceMode.DETERMINISTIC, Information.PERFECT,
                      Utility.ZERO_SUM, 2, 2)  # fmt: skip

    @property
    def num_players(self) -> int:
        return 2

    @property
    def parameters(self) -> Mapping[str, Any]:
        return {}

    def new_initial_state(self, seed: int | np.random.Generator | None = None) -> State:
        return _RpsState(self)

    def parse_move(self, text: str) -> Any:
        if "|" in text:
            return JointMove.parse(text, self.parse_move)
        if text not in _RPS:
            raise ValueError(f"a move is rock, paper or scissors, got {text!r}")
        return text

    def utility_range(self) -> tuple[float, float]:
        return -1.0, 1.0

    def max_game_length(self) -> int:
        return 1

    def num_distinct_moves(self) -> int:
        return 3

    def move_index(self, move: Any) -> int:
        return _RPS.index(move)

    def move_at(self, index: int, state: State) -> str:
        return _RPS[index]


class _RpsState(_ToyState):
    @property
    def to_move(self) -> int:
        return TERMINAL if self._history else SIMULTANEOUS

    def legal_moves(self, player: int | None = None) -> list[Any]:
        if self._history:
            return []
        if player is None:
            return [JointMove((a, b)) for a in _RPS for b in _RPS]
        return list(_RPS)

    def is_over(self) -> bool:
        return bool(self._history)

    def returns(self) -> tuple[float, ...]:
        if not self._history:
            return (0.0, 0.0)
        a, b = (_RPS.index(m) for m in self._history[0])
        if a == b:
            return (0.0, 0.0)
        return (1.0, -1.0) if (a - b) % 3 == 1 else (-1.0, 1.0)


# -- high card --------------------------------------------------------------------------------
class HighCard(Game):
    """Cards 1, 2, 3: one is dealt to each player (a chance node with the 6 deals). Player 0
    ``bet``s or ``fold``s (losing 1); after a bet player 1 ``call``s (the higher card wins 2)
    or ``fold``s (losing 1). Each player sees only its own card."""

    name = "high-card"
    long_name = "High card"

    def __init__(self, open: bool = False) -> None:
        self.open = open

    @property
    def traits(self) -> Traits:
        seen = Information.PERFECT if self.open else Information.IMPERFECT
        return Traits(Dynamics.SEQUENTIAL, ChanceMode.EXPLICIT, seen, Utility.ZERO_SUM, 2, 2)

    @property
    def num_players(self) -> int:
        return 2

    @property
    def parameters(self) -> Mapping[str, Any]:
        return {"open": self.open}

    def revealed(self) -> Game:
        return HighCard(open=True)

    def new_initial_state(self, seed: int | np.random.Generator | None = None) -> State:
        return _HighCardState(self)

    def parse_move(self, text: str) -> str:
        if text in ("bet", "call", "fold") or (len(text) == 8 and text.startswith("deal ")):
            return text
        raise ValueError(f"a high-card move is bet, call, fold or 'deal X-Y', got {text!r}")

    def utility_range(self) -> tuple[float, float]:
        return -2.0, 2.0

    def max_game_length(self) -> int:
        return 3

    def num_distinct_moves(self) -> int:
        return 3 + 6

    def move_index(self, move: Any) -> int:
        if move in ("bet", "call", "fold"):
            return ("bet", "call", "fold").index(move)
        return 3 + _DEALS.index(move)

    def move_at(self, index: int, state: State) -> str:
        return ("bet", "call", "fold")[index] if index < 3 else _DEALS[index - 3]


_DEALS = tuple(f"deal {a}-{b}" for a, b in permutations((1, 2, 3), 2))


class _HighCardState(_ToyState):
    def cards(self) -> tuple[int, int] | None:
        if not self._history:
            return None
        d = self._history[0]
        return int(d[5]), int(d[7])

    @property
    def to_move(self) -> int:
        h = self._history
        if not h:
            return CHANCE
        if len(h) == 1:
            return 0
        if len(h) == 2 and h[1] == "bet":
            return 1
        return TERMINAL

    def legal_moves(self, player: int | None = None) -> list[Any]:
        who = self.to_move
        if who == CHANCE:
            return list(_DEALS)
        if who == 0:
            return ["bet", "fold"]
        if who == 1:
            return ["call", "fold"]
        return []

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.to_move != CHANCE:
            raise ValueError("not a chance node")
        return [(d, 1 / 6) for d in _DEALS]

    def is_over(self) -> bool:
        return self.to_move == TERMINAL

    def returns(self) -> tuple[float, ...]:
        h = self._history
        if not self.is_over():
            return (0.0, 0.0)
        if h[1] == "fold":
            return (-1.0, 1.0)
        if h[2] == "fold":
            return (1.0, -1.0)
        a, b = self.cards() or (0, 0)
        return (2.0, -2.0) if a > b else (-2.0, 2.0)

    def information_state(self, player: int) -> str:
        cards = self.cards()
        mine = "?" if cards is None else str(cards[player])
        return f"player {player} holds {mine}; moves: {' '.join(self._history[1:]) or '-'}"

    def hidden_states(self, player: int) -> Iterator[tuple[State, float]] | None:
        cards = self.cards()
        if cards is None:
            return iter([(self.clone(), 1.0)])
        mine = cards[player]
        out = []
        for other in (1, 2, 3):
            if other == mine:
                continue
            s = cast(_HighCardState, self.clone())
            deal = (mine, other) if player == 0 else (other, mine)
            s._history[0] = f"deal {deal[0]}-{deal[1]}"
            out.append((s, 0.5))
        return iter(out)

    def sample_hidden(self, player: int, rng: np.random.Generator) -> State:
        states = list(self.hidden_states(player) or [])
        return states[int(rng.integers(len(states)))][0]

    def revealed(self) -> State:
        s = self.clone()
        s.game = self.game.revealed()
        return s


#: The toy games by name.
TOYS: dict[str, type[Game]] = {g.name: g for g in (TakeAway, DiceRace, RockPaperScissors, HighCard)}
