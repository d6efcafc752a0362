"""Games the bounds settle (:mod:`polytile.puzzles.blokus.settle`): the result, and its
checks against bounds that would not hold."""

from __future__ import annotations

import dataclasses

import pytest

from polytile.errors import SolverError
from polytile.puzzles.blokus.bounds import bounds, settled
from polytile.puzzles.blokus.endgame import solve_endgame
from polytile.puzzles.blokus.rules import Blokus
from polytile.puzzles.blokus.settle import settled_endgame


@pytest.fixture(scope="module")
def split() -> tuple[Blokus, list]:  # type: ignore[type-arg]
    """A greedy self-played Duo game 18 placements in: its board is split into territories
    and both colours' bounds are pinned (the premise is checked)."""
    from polytile.puzzles.blokus.players import self_play

    whole = Blokus("duo")
    self_play(whole, {}, 3)
    game = Blokus("duo")
    for move in whole.move_stack:
        if sum(not m.is_pass for m in game.move_stack) == 18:
            break
        game.push(move)
    results = [bounds(game, c, time_limit=5, workers=1) for c in game.colors]
    assert all(b.score_lower == b.score_upper for b in results)
    return game, results


def test_the_settled_result_is_the_searchs(split: tuple[Blokus, list]) -> None:  # type: ignore[type-arg]
    game, results = split
    result = settled_endgame(game, results)
    assert result is not None and result.settled and result.nodes == 0
    searched = solve_endgame(game, max_pieces=None)
    assert result.value == searched.value
    assert settled(game, results) == {p: result.best_line.player_scores[p]  # type: ignore[union-attr]
                                      for p in result.players}  # fmt: skip


def test_bounds_that_do_not_hold_are_caught(split: tuple[Blokus, list]) -> None:  # type: ignore[type-arg]
    game, results = split
    # Both colours 2 higher: the lead is the same, but no colour ends on its bound.
    shifted = [dataclasses.replace(b, score_lower=b.score_lower + 2,
                                   score_upper=b.score_upper + 2) for b in results]  # fmt: skip
    with pytest.raises(SolverError, match="not on its pinned"):
        settled_endgame(game, shifted)
    # One colour not pinned: nothing is settled.
    loose = [results[0], dataclasses.replace(results[1], score_upper=results[1].score_upper + 1)]
    assert settled_endgame(game, loose) is None
    assert set(settled(game, loose)) == {game.colors[0]}
