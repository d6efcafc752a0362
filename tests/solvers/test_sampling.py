"""Determinized sampling: exact averages by enumeration, sampled ones with honest errors."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from polytile.puzzles.game import State
from polytile.puzzles.henning.game import HenningGame
from polytile.puzzles.toys import HighCard
from polytile.solvers.alphabeta import Objective
from polytile.solvers.expectimax import expectimax
from polytile.solvers.sampling import evaluate_moves


def solve_high_card(state: State, moves: Sequence[Any]) -> list[float]:
    out = []
    for m in moves:
        state.push(m)
        out.append(expectimax(state, Objective.guaranteed(0)).value)
        state.pop()
    return out


@pytest.mark.parametrize(
    ("deal", "bet"), [("deal 1-2", -2.0), ("deal 2-3", -0.5), ("deal 3-1", 1.0), ("deal 2-1", -0.5)]
)
def test_exact_average_over_the_hidden_card(deal: str, bet: float) -> None:
    s = HighCard().new_initial_state()
    s.push(deal)
    ev = evaluate_moves(s, 0, solve_high_card)
    assert ev.kind == "pimc-estimate" and ev.exact_average and ev.states == 2
    # Against each possible card of player 1, after a bet player 1 plays perfectly: it folds
    # (+1 for player 0) when it would lose a call, else calls (-2 for player 0).
    assert ev.moves["bet"].mean == pytest.approx(bet)
    assert ev.moves["fold"].mean == -1.0 and ev.moves["fold"].stderr == 0.0
    assert ev.as_dict()["note"].startswith("average of perfect-information values")


def test_sampled_average_with_standard_error() -> None:
    s = HighCard().new_initial_state()
    s.push("deal 2-3")
    ev = evaluate_moves(s, 0, solve_high_card, max_exact=0, samples=400, seed=5)
    assert not ev.exact_average and ev.states == 400
    bet = ev.moves["bet"]
    assert bet.stderr > 0
    assert abs(bet.mean + 0.5) < 4 * bet.stderr
    again = evaluate_moves(s, 0, solve_high_card, max_exact=0, samples=400, seed=5)
    assert again.moves["bet"].mean == bet.mean


def test_wrong_player_is_refused() -> None:
    s = HighCard().new_initial_state()
    s.push("deal 1-3")
    with pytest.raises(ValueError, match="not player 1's turn"):
        evaluate_moves(s, 1, solve_high_card)


def test_henning_views_are_consistent_and_counted() -> None:
    g = HenningGame()
    s = g.new_initial_state(5)
    b = s.board
    rng = np.random.default_rng(5)
    while b.reserve_size(0) > 1 or b.reserve_size(1) > 1:
        b.push_legal(b.random_move(rng))
    me = b.to_move
    seen: list[str] = []

    def margin_now(state: State, moves: Sequence[Any]) -> list[float]:
        seen.append(state.information_state(me))
        out = []
        for m in moves:
            state.push(m)
            out.append(state.returns()[me] - state.returns()[1 - me])
            state.pop()
        return out

    ev = evaluate_moves(s, me, margin_now, count=lambda st, p: st.count_hidden_states(p))
    assert ev.exact_average and ev.states == ev.consistent == s.count_hidden_states(me)
    assert set(seen) == {s.information_state(me)}


def test_a_huge_sample_is_drawn_as_it_is_solved(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sample of a million states was drawn and held before one was solved (85 s and
    2.85 GB for a City Blocks (Henning) view with a 4 s limit, issue 36): states are now
    drawn as they are solved, so a stop leaves little drawn and nothing much held."""
    import tracemalloc

    state = HighCard().new_initial_state()
    state.push("deal 2-3")
    drawn: list[int] = []
    draw = type(state).sample_hidden

    def counted(self: Any, player: int, rng: Any) -> Any:
        drawn.append(1)
        return draw(self, player, rng)

    monkeypatch.setattr(type(state), "sample_hidden", counted)
    solved: list[int] = []
    tracemalloc.start()
    try:
        ev = evaluate_moves(state, 0, solve_high_card, max_exact=1, samples=10**6,
                            stop=lambda: len(solved) >= 50,
                            progress=lambda done, total: solved.append(done))  # fmt: skip
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (ev.states, ev.planned, ev.stopped_by, ev.complete) == (50, 10**6, "stop", False)
    assert len(drawn) <= 51
    assert peak < 2_000_000, f"{peak:,} bytes held"


def test_listing_the_states_keeps_the_time_limit() -> None:
    """A listing of many consistent states stops with the clock (it is asked every 64
    states) instead of finishing before the first state is solved."""
    from polytile.solvers.alphabeta import SearchStopped

    state = HighCard().new_initial_state()
    state.push("deal 2-3")
    calls: list[int] = []

    def stop() -> bool:
        calls.append(1)
        return True

    many = [(state.clone(), 1 / 1000)] * 1000
    state.hidden_states = lambda player: iter(many)  # type: ignore[method-assign]
    with pytest.raises(SearchStopped) as stopped:
        evaluate_moves(state, 0, solve_high_card, stop=stop)
    assert stopped.value.reason == "stop" and stopped.value.nodes == 0 and len(calls) == 1
