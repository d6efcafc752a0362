"""Monte Carlo tree search over the protocol: right on small games, limits that hold, and
the hidden part of a state drawn, never read."""

from __future__ import annotations

import threading
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from polytile.puzzles.game import UnsupportedGameError
from polytile.puzzles.toys import DiceRace, HighCard, RockPaperScissors, TakeAway
from polytile.solvers.alphabeta import Objective, alphabeta
from polytile.solvers.mcts import margin_of, mcts, reward_of


@pytest.mark.parametrize("pile", [5, 6, 7, 9, 10, 11])
def test_take_away_best_move_agrees_with_alpha_beta(pile: int) -> None:
    s = TakeAway(pile).new_initial_state()
    exact = alphabeta(s, Objective.guaranteed(0))
    assert exact.value == 1  # a winning pile: one move wins, the others lose
    r = mcts(s, playouts=3_000, seed=pile)
    s.push(r.best)
    assert alphabeta(s, Objective.guaranteed(0)).value == 1, r.moves
    assert r.value > 1.5  # the win's margin is 2


def test_counts_and_statistics_add_up() -> None:
    r = mcts(TakeAway(9).new_initial_state(), playouts=500, seed=0)
    assert r.playouts == 500 and r.stopped_by == "playouts"
    assert sum(m.visits for m in r.moves) == 500
    assert [m.visits for m in r.moves] == sorted((m.visits for m in r.moves), reverse=True)
    assert all(0.0 <= m.reward <= 1.0 for m in r.moves)
    assert r.as_dict()["kind"] == "mcts-estimate" and r.as_dict()["best"] == str(r.best)
    note = "estimate (Monte Carlo tree search, 500 playouts); not the game's value"
    assert r.as_dict()["note"] == note


def test_same_seed_same_search() -> None:
    s = TakeAway(10).new_initial_state()
    a, b = mcts(s, playouts=300, seed=4), mcts(s, playouts=300, seed=4)
    assert [(str(m.move), m.visits) for m in a.moves] == [(str(m.move), m.visits) for m in b.moves]


def test_chance_nodes_are_drawn() -> None:
    g = DiceRace()
    s = g.new_initial_state()
    r = mcts(s, playouts=400, seed=1)
    assert r.best in s.legal_moves() and r.playouts == 400


def test_hidden_cards_are_sampled_and_the_state_is_untouched() -> None:
    s = HighCard().new_initial_state()
    s.push("deal 3-1")  # the best card: bet
    before = s.history
    r = mcts(s, playouts=600, seed=2)
    assert r.sampled and r.best == "bet"
    assert s.history == before
    s2 = HighCard().new_initial_state()
    s2.push("deal 1-3")
    assert mcts(s2, playouts=600, seed=2).best == "fold"


def test_what_the_player_cannot_see_does_not_change_its_choice() -> None:
    # player 0 holds 2 in both deals; only the hidden card differs
    seen = []
    for deal in ("deal 2-1", "deal 2-3"):
        s = HighCard().new_initial_state()
        s.push(deal)
        seen.append([(str(m.move), m.visits) for m in mcts(s, playouts=300, seed=5).moves])
    assert seen[0] == seen[1]


def test_time_limit_holds_and_a_stop_request_stops() -> None:
    s = TakeAway(30).new_initial_state()
    r = mcts(s, time_limit=0.2, seed=0)
    assert r.stopped_by == "time" and r.elapsed < 1.0 and r.playouts > 0
    flag = threading.Event()
    calls = []

    def stop() -> bool:
        calls.append(1)
        if len(calls) == 50:
            flag.set()
        return flag.is_set()

    r = mcts(s, should_stop=stop, seed=0)
    assert r.stopped_by == "stop" and r.playouts == 49


def test_the_time_limit_cuts_a_playout_short(monkeypatch: pytest.MonkeyPatch) -> None:
    """A playout of tens of moves does not run on past the limit (a City Blocks playout
    took 0.1-0.2 s, a 0.3 s move 0.4-0.56 s): the clock is looked at before each move, and
    a playout cut short is dropped. Here each playout move takes a second of a clock that
    only the moves move."""
    import polytile.solvers.mcts as module

    now = [0.0]
    monkeypatch.setattr(module, "time", SimpleNamespace(perf_counter=lambda: now[0]))

    def slow(state: Any, rng: np.random.Generator) -> Any:
        now[0] += 1.0
        moves = state.legal_moves()
        return moves[int(rng.integers(len(moves)))]

    r = mcts(TakeAway(60).new_initial_state(), time_limit=100.0, policy=slow, seed=0)
    assert r.stopped_by == "time" and r.playouts >= 2
    assert sum(m.visits for m in r.moves) == r.playouts  # the cut playout is not counted
    assert 100.0 <= now[0] <= 101.0  # it stopped at the first move past the limit
    assert r.best is not None


def test_refusals() -> None:
    with pytest.raises(ValueError, match="time limit"):
        mcts(TakeAway(5).new_initial_state())
    rps = RockPaperScissors().new_initial_state()
    with pytest.raises(UnsupportedGameError, match="at once"):
        mcts(rps, playouts=10)
    s = TakeAway(5).new_initial_state()
    with pytest.raises(UnsupportedGameError, match="not to move"):
        mcts(s, player=1, playouts=10)


def test_one_move_is_not_searched() -> None:
    s = TakeAway(1).new_initial_state()
    r = mcts(s, playouts=100, seed=0)
    assert r.best == "take 1" and r.stopped_by == "single" and r.playouts == 0


def test_reward_and_margin() -> None:
    assert margin_of((3.0, 5.0, 1.0), 1) == 2.0 and margin_of((3.0, 5.0, 1.0), 0) == -2.0
    assert reward_of((1.0, 1.0), 0, 10) == 0.5
    win, loss = reward_of((6.0, 1.0), 0, 10), reward_of((1.0, 6.0), 0, 10)
    assert 0.9 < win <= 1.0 and 0.0 <= loss < 0.1 and win + loss == pytest.approx(1.0)
    assert reward_of((9.0, 1.0), 0, 10) > reward_of((2.0, 1.0), 0, 10)  # a bigger win
    assert np.isclose(reward_of((100.0, 0.0), 0, 10), 1.0)  # clipped at the span


def test_a_nodes_moves_are_worked_out_once_when_nothing_is_hidden_or_drawn() -> None:
    """A node of a deterministic game with perfect information is one state: its candidates
    are asked for once. With chance, a node stands for the states the draws lead to, and
    they are asked for on every visit."""
    asked: list[int] = []

    def candidates(state, moves):  # type: ignore[no-untyped-def]
        asked.append(1)
        return moves

    r = mcts(TakeAway(12).new_initial_state(), playouts=300, candidates=candidates, seed=1)
    assert r.playouts == 300 and len(asked) <= 301  # a node a playout, and the root
    asked.clear()
    r = mcts(DiceRace(target=9).new_initial_state(), playouts=300, candidates=candidates,
             seed=1)  # fmt: skip
    assert len(asked) > 301


def test_a_rollout_takes_the_place_of_move_by_move_playouts() -> None:
    seen: list[str] = []

    def rollout(state, rng):  # type: ignore[no-untyped-def]
        seen.append(str(state))
        while not state.is_over():
            moves = state.legal_moves()
            state.push_legal(moves[int(rng.integers(len(moves)))])
        return state.returns()

    def never(state, rng):  # type: ignore[no-untyped-def]
        raise AssertionError("the policy is not asked when a rollout is given")

    s = TakeAway(5).new_initial_state()
    r = mcts(s, playouts=2_000, policy=never, rollout=rollout, seed=1)
    assert r.best == "take 1" and 0 < len(seen) <= 2_000
