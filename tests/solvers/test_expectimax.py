"""Expectimax against plain recursion on the dice race; trait checks."""

from __future__ import annotations

import pytest

from polytile.puzzles.game import CHANCE, State, UnsupportedGameError
from polytile.puzzles.toys import DiceRace, HighCard, RockPaperScissors, TakeAway
from polytile.solvers.alphabeta import Objective, SearchStopped, alphabeta
from polytile.solvers.expectimax import expectimax


def plain(s: State, objective: Objective) -> float:
    if s.is_over():
        return objective.value(s)
    if s.to_move == CHANCE:
        total = 0.0
        for move, p in s.chance_outcomes():
            s.push(move)
            total += p * plain(s, objective)
            s.pop()
        return total
    vals = []
    for move in s.legal_moves():
        s.push(move)
        vals.append(plain(s, objective))
        s.pop()
    return max(vals) if objective.maximizing(s) else min(vals)


@pytest.mark.parametrize(("target", "sides"), [
    (3, 2), (4, 2), (5, 3), (6, 3), pytest.param(7, 4, marks=pytest.mark.slow)])  # fmt: skip
def test_dice_race_matches_plain_recursion(target: int, sides: int, slow_scale: str) -> None:
    if target == 7 and slow_scale == "reduced":
        pytest.skip("full size only (POLYTILE_SLOW=full): 15 s of plain recursion")
    s = DiceRace(target, sides).new_initial_state()
    r = expectimax(s, Objective.margin())
    assert r.value == pytest.approx(plain(s, Objective.margin()))
    assert r.move_values[r.best_move] == pytest.approx(r.value)


def test_chance_root_averages_outcomes() -> None:
    s = DiceRace(4, 2).new_initial_state()
    s.push("roll")
    r = expectimax(s, Objective.margin())
    assert r.best_move is None and len(r.move_values) == 2
    assert r.value == pytest.approx(sum(r.move_values.values()) / 2)


def test_deterministic_games_agree_with_alphabeta() -> None:
    s = TakeAway(9).new_initial_state()
    assert expectimax(s, Objective.margin()).value == alphabeta(s, Objective.margin()).value


@pytest.mark.parametrize("game", [HighCard(), RockPaperScissors()])
def test_refuses_hidden_or_simultaneous_games(game) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UnsupportedGameError, match="expectimax cannot solve"):
        expectimax(game.new_initial_state(), Objective.margin())


def test_node_limit() -> None:
    with pytest.raises(SearchStopped) as info:
        expectimax(DiceRace(12, 3).new_initial_state(), Objective.margin(), node_limit=10)
    assert info.value.reason == "nodes"
