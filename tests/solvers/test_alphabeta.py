"""The generic alpha-beta against plain minimax on small games of the protocol."""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polytile.errors import IllegalMoveError, SolverError
from polytile.puzzles.game import (
    TERMINAL,
    ChanceMode,
    Dynamics,
    Game,
    Information,
    State,
    Traits,
    UnsupportedGameError,
    Utility,
)
from polytile.puzzles.toys import DiceRace, HighCard, RockPaperScissors, TakeAway
from polytile.solvers.alphabeta import Hooks, Objective, SearchStopped, alphabeta, move_values


class Pick(Game):
    """Players in turn take one of the numbers left; each scores what it took."""

    name = "pick"

    def __init__(self, numbers: tuple[int, ...], players: int) -> None:
        self.numbers, self.players = numbers, players

    @property
    def traits(self) -> Traits:
        return Traits(Dynamics.SEQUENTIAL, ChanceMode.DETERMINISTIC, Information.PERFECT,
                      Utility.GENERAL_SUM, 2, 4)  # fmt: skip

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def parameters(self) -> Mapping[str, Any]:
        return {"numbers": self.numbers, "players": self.players}

    def new_initial_state(self, seed: int | np.random.Generator | None = None) -> State:
        return PickState(self)

    def parse_move(self, text: str) -> int:
        return int(text)


class PickState(State):
    def __init__(self, game: Pick) -> None:
        self.game: Pick = game
        self.taken: list[int] = []  # indices into numbers

    @property
    def to_move(self) -> int:
        return TERMINAL if self.is_over() else len(self.taken) % self.game.players

    def legal_moves(self, player: int | None = None) -> list[int]:
        return [i for i in range(len(self.game.numbers)) if i not in self.taken]

    def push(self, move: Any) -> None:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"illegal move {move}")
        self.taken.append(move)

    def pop(self) -> Any:
        return self.taken.pop()

    def is_over(self) -> bool:
        return len(self.taken) == len(self.game.numbers)

    def returns(self) -> tuple[float, ...]:
        out = [0.0] * self.game.players
        for k, i in enumerate(self.taken):
            out[k % self.game.players] += self.game.numbers[i]
        return tuple(out)

    def state_key(self) -> Hashable:
        return (frozenset(self.taken), len(self.taken) % self.game.players,
                self.returns())  # fmt: skip

    def clone(self) -> State:
        other = PickState(self.game)
        other.taken = list(self.taken)
        return other


def minimax(s: State, objective: Objective) -> float:
    if s.is_over():
        return objective.value(s)
    values = []
    for m in s.legal_moves():
        s.push(m)
        values.append(minimax(s, objective))
        s.pop()
    return max(values) if objective.maximizing(s) else min(values)


@pytest.mark.parametrize("pile", range(1, 13))
def test_take_away_matches_minimax(pile: int) -> None:
    s = TakeAway(pile).new_initial_state()
    r = alphabeta(s, Objective.margin(), all_best=True)
    assert r.exact and r.value == minimax(s, Objective.margin())
    assert r.value == (-2.0 if pile % 4 == 0 else 2.0)
    wanted = {m for m in s.legal_moves() if _after(s, m, Objective.margin()) == r.value}
    assert set(r.optimal_moves or ()) == wanted


def _after(s: State, move: Any, objective: Objective) -> float:
    s.push(move)
    try:
        return minimax(s, objective)
    finally:
        s.pop()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-5, 9), min_size=2, max_size=7), st.integers(2, 4),
       st.integers(0, 3))  # fmt: skip
def test_paranoid_values_match_minimax(numbers: list[int], players: int, who: int) -> None:
    who %= players
    s = Pick(tuple(numbers), players).new_initial_state()
    objective = Objective.guaranteed(who)
    r = alphabeta(s, objective, all_best=True)
    assert r.value == minimax(s, objective)
    assert set(r.optimal_moves or ()) == {
        m for m in s.legal_moves() if _after(s, m, objective) == r.value
    }
    # The line replays to the value (alphabeta checks it too).
    check = s.clone()
    for m in r.pv:
        check.push(m)
    assert check.is_over() and objective.value(check) == r.value


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-5, 9), min_size=2, max_size=7), st.integers(2, 3),
       st.integers(0, 2))  # fmt: skip
def test_move_values_match_minimax_after_each_move(numbers: list[int], players: int,
                                                   who: int) -> None:  # fmt: skip
    s = Pick(tuple(numbers), players).new_initial_state()
    objective = Objective.guaranteed(who % players)
    values, nodes = move_values(s, objective)
    assert values == [_after(s, m, objective) for m in s.legal_moves()] and nodes > 0


def test_two_sided_margin_on_pick() -> None:
    s = Pick((3, 9, 1, 4, 7, 2), 2).new_initial_state()
    assert alphabeta(s, Objective.margin()).value == minimax(s, Objective.margin())


@pytest.mark.parametrize("game", [HighCard(), DiceRace(), RockPaperScissors()])
def test_refuses_games_it_cannot_solve(game: Game) -> None:
    with pytest.raises(UnsupportedGameError, match="alpha-beta cannot solve"):
        alphabeta(game.new_initial_state(), Objective.margin())


def test_node_limit_stops_with_a_reason() -> None:
    s = Pick(tuple(range(9)), 3).new_initial_state()
    with pytest.raises(SearchStopped) as info:
        alphabeta(s, Objective.guaranteed(0), node_limit=50)
    assert info.value.reason == "nodes" and info.value.nodes > 50


def test_stop_request_is_polled() -> None:
    s = Pick(tuple(range(10)), 2).new_initial_state()
    with pytest.raises(SearchStopped) as info:
        alphabeta(s, Objective.margin(), stop=lambda: True)
    assert info.value.reason == "stop"


def test_a_wrong_hook_is_caught_before_an_answer() -> None:
    class Liar(Hooks):
        def bounds(self, state: State) -> tuple[float, float] | None:
            return (100.0, 100.0) if not state.taken else None  # type: ignore[attr-defined]

    s = Pick((1, 2, 3), 2).new_initial_state()
    with pytest.raises(SolverError):
        alphabeta(s, Objective.margin(), Liar())


def test_sound_bounds_cut_and_keep_the_value() -> None:
    class Bounded(Hooks):
        def bounds(self, state: State) -> tuple[float, float] | None:
            game = state.game
            assert isinstance(game, Pick)
            room = sum(abs(game.numbers[i]) for i in state.legal_moves())
            r = state.returns()
            return (r[0] - r[1] - room, r[0] - r[1] + room)

    s = Pick((5, 1, 8, 2, 9, 3, 7), 2).new_initial_state()
    plain = alphabeta(s, Objective.margin())
    cut = alphabeta(s, Objective.margin(), Bounded())
    assert cut.value == plain.value == minimax(s, Objective.margin())


def test_iterative_deepening_reaches_the_exact_value() -> None:
    class Eval(Hooks):
        def evaluate(self, state: State) -> float:
            r = state.returns()
            return r[0] - r[1]

    s = Pick((4, 8, 1, 6, 3), 2).new_initial_state()
    shallow = alphabeta(s, Objective.margin(), Eval(), depth=2)
    assert not shallow.exact and shallow.depth == 2 and len(shallow.pv) == 2
    deep = alphabeta(s, Objective.margin(), Eval(), iterative=True)
    assert deep.exact and deep.value == minimax(s, Objective.margin())


def test_search_leaves_the_state_alone() -> None:
    s = Pick((1, 5, 2, 7), 2).new_initial_state()
    s.push(1)
    key = s.state_key()
    alphabeta(s, Objective.margin())
    assert s.state_key() == key


def test_all_deals_of_pick_agree() -> None:
    for numbers in itertools.permutations((1, 2, 3, 4)):
        s = Pick(numbers, 2).new_initial_state()
        assert alphabeta(s, Objective.margin()).value == minimax(s, Objective.margin())


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-5, 9), min_size=3, max_size=7), st.integers(2, 3),
       st.integers(0, 2), st.integers(5, 400))  # fmt: skip
def test_a_stopped_search_says_what_it_proved(numbers: list[int], players: int, who: int,
                                              limit: int) -> None:  # fmt: skip
    """A search stopped early reports the bounds it had proven of the root (issue 48, item
    5): they hold the true value, and the move named reaches its side's bound."""
    s = Pick(tuple(numbers), players).new_initial_state()
    objective = Objective.guaranteed(who % players)
    true = minimax(s, objective)
    try:
        alphabeta(s, objective, node_limit=limit)
    except SearchStopped as stop:
        proven = stop.proven
        if proven is None:
            return
        assert proven.low <= true <= proven.high
        after = _after(s, proven.move, objective)
        assert (after >= proven.low) if proven.maximizing else (after <= proven.high)
        assert 0 <= proven.moves_done <= proven.moves == len(s.legal_moves())
